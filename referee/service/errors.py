"""The service's own refusals, beside the games' (`referee.core.errors`): each carries a
stable code of the public contract and, where a client can use them, details (the bad fields
of a request). The HTTP layer alone gives each code its status number."""

from __future__ import annotations

from typing import Any

from referee.core.errors import RefereeError


class Refused(RefereeError):
    """A request the service refuses; `code` says why, `extra` holds the details the answer
    carries (for `validation_error`, `errors`: each bad field and what is wrong with it)."""

    def __init__(self, code: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.code = code
        self.extra = extra


def bad_request(detail: str, **errors: Any) -> Refused:
    """A request whose values are not acceptable: `errors` names each bad field."""
    return Refused("validation_error", detail, errors=errors)


def not_your_seat(player: str, what: str) -> Refused:
    return Refused("not_your_seat", f"this seat token acts for {player!r} only, not for {what}")
