"""referee: a stateless HTTP rules referee for card and dice games.

The rules engines (`referee.core`, `referee.games`) import no web framework; the HTTP layer
(`referee.http`) is loaded only when an application is made.
"""

from __future__ import annotations

from typing import Any

from referee.version import __version__


def create_app(config: dict[str, Any] | None = None):
    """The Flask application factory (see `referee.http.app.create_app`)."""
    from referee.http import app

    return app.create_app(config)


__all__ = ["__version__", "create_app"]
