"""referee: a stateless HTTP rules referee for card and dice games.

The rules engines (`referee.core`, `referee.games`) import no web framework; the HTTP layer
(`referee.http`) is loaded only when an application is made.
"""

from __future__ import annotations

from typing import Any

# The package version, which is also the contract's `info.version`.
__version__ = "1.1.0"


def create_app(config: dict[str, Any] | None = None):
    """The Flask application factory (see `referee.http.app.create_app`)."""
    from referee.http.app import create_app as _create_app

    return _create_app(config)
