"""Problem responses (RFC 9457): one shape for every error, with a stable `code`.

The catalogue below is the only place codes meet HTTP status numbers: the games' refusals
(`referee.core.errors`), the service's (`referee.service.errors`) and the HTTP layer's own
(`Problem`) all become problem responses here.
"""

from __future__ import annotations

from typing import Any

import msgspec
from flask import Response

from referee.core.errors import IllegalMove, RefereeError
from referee.service.errors import Refused
from referee.service.replays import ReplayRefused

CATALOGUE: dict[str, tuple[int, str]] = {
    "malformed_json": (400, "The body is not valid JSON"),
    "validation_error": (422, "The request does not have the expected shape"),
    "unknown_game": (404, "No such game"),
    "invalid_options": (422, "The match options are not acceptable"),
    "invalid_state": (422, "The state breaks the rules of the game"),
    "tampered_state": (422, "The sealed state was not issued by this referee or was altered"),
    "tampered_seat_token": (422, "The seat token was not issued by this referee for this "
                                 "game, or was altered"),
    "seat_token_expired": (403, "The seat token has expired"),
    "not_your_seat": (403, "A seat token acts for its own seat and no other"),
    "seat_token_not_allowed": (403, "A seat token does not serve here"),
    "tampered_seed_token": (422, "The seed token was not issued by this referee for this "
                                 "game, or was altered"),
    "seed_token_required": (422, "Seeds contributed at creation need a server seed committed "
                                 "before them"),
    "contribution_too_late": (409, "A chance event concerning the contributor has already "
                                   "been drawn"),
    "contribution_already_made": (409, "The contributor has already added a seed to this "
                                       "match"),
    "illegal_move": (422, "The move is against the rules"),
    "not_your_turn": (409, "The player may not act now"),
    "game_over": (409, "The match has finished"),
    "hint_not_allowed": (403, "The match's table does not allow this player hints"),
    "payload_too_large": (413, "The body is too large"),
    "unsupported_media_type": (415, "The body must be application/json"),
    "method_not_allowed": (405, "The method is not allowed on this path"),
    "not_found": (404, "No such path"),
    "internal_error": (500, "The referee failed; nothing was changed"),
    "not_ready": (503, "The referee cannot serve yet (see /readyz's checks)"),
    "deadline_exceeded": (503, "The request ran past its deadline and was stopped"),
    "not_prepared": (503, "What the request needs is being prepared; ask again after "
                          "Retry-After seconds"),
    # Refused by the HTTP server before the referee sees the request (referee.http.workers).
    "malformed_request": (400, "The request is not valid HTTP/1.1"),
    "request_forbidden": (403, "The connection may not make requests"),
    "uri_too_long": (414, "The request line is too long"),
    "expectation_failed": (417, "The Expect header cannot be met"),
    "headers_too_large": (431, "The request header fields are too many or too large"),
    "unsupported_transfer_coding": (501, "The body's transfer coding is not supported"),
}

MEDIA_TYPE = "application/problem+json"


class Problem(Refused):
    """A refusal found by the HTTP layer itself (the body's media type, size or JSON; the
    process not ready), answered as a problem response like the service's."""


def problem(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    """The body of a problem answer: its code's catalogue entry, the detail, the extras."""
    status, title = CATALOGUE[code]
    body = {"type": f"urn:referee:problem:{code}", "title": title, "status": status,
            "detail": detail, "code": code}
    body.update({k: v for k, v in extra.items() if v is not None})
    return body


def problem_response(code: str, detail: str, **extra: Any) -> Response:
    response = Response(msgspec.json.encode(problem(code, detail, **extra)),
                        status=CATALOGUE[code][0], mimetype=MEDIA_TYPE)
    if "retry_after" in extra:
        response.headers["Retry-After"] = str(extra["retry_after"])
    # Read by the metrics (refusals by code) and the request's log line.
    response.problem_code = code
    return response


def from_referee_error(error: RefereeError) -> Response:
    if isinstance(error, ReplayRefused):
        # The very problem posting the refused move would have got, told which move it was
        # and how far the match got before it.
        code, detail, extra = problem_parts(error.error)
        return problem_response(code, detail, **extra, move_index=error.index,
                                reached=error.reached)
    code, detail, extra = problem_parts(error)
    return problem_response(code, detail, **extra)


def problem_parts(error: RefereeError) -> tuple[str, str, dict[str, Any]]:
    """A refusal's code, detail and the extras its problem answer carries."""
    if isinstance(error, Refused):
        return error.code, error.detail, error.extra
    extra: dict[str, Any] = {}
    if isinstance(error, IllegalMove):
        extra["rule"] = error.rule
    if error.problems and error.code in ("invalid_state", "invalid_options"):
        extra["problems"] = error.problems
    return error.code, error.detail, extra
