"""The body limit on every POST route, the move endpoint's own fast read path included.

A body declared larger than the limit is refused as `413 payload_too_large` before it is read,
whether or not a `Transfer-Encoding` (here `identity`, which leaves the Content-Length in
force) comes with it; a Content-Length that is no number is a 400 problem. The routes are
listed from the application's own url_map, so a route added later is held to the same limit.
"""

from __future__ import annotations

import io
import json

import pytest
from werkzeug.test import EnvironBuilder

import referee
from referee.games import REGISTRY

APP = referee.create_app({"STATE_KEYS": []})
LIMIT = APP.config["MAX_BODY_BYTES"]
PROBLEM = "application/problem+json"
BODY = b'{"players": ["ann", "bob"]}'


def post_rules() -> list[str]:
    return sorted(rule.rule for rule in APP.url_map.iter_rules() if "POST" in rule.methods)


def post_paths() -> list[str]:
    """Every POST route, once for each game when it names one."""
    return [rule.replace("<game_id>", game_id) if "<game_id>" in rule else rule
            for rule in post_rules()
            for game_id in (REGISTRY if "<game_id>" in rule else [None])]


class Tripwire(io.BytesIO):
    """A request body that remembers the largest read asked of it; reading it all at once
    (no size) is recorded as infinite."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.largest = 0

    def read(self, size: int | None = -1) -> bytes:
        self.largest = max(self.largest, float("inf") if size is None or size < 0 else size)
        return super().read(size)


def raw_post(path: str, **environ: str) -> tuple[str, dict[str, str], bytes, Tripwire]:
    """The answer to a POST of a small JSON body, sent straight to the WSGI application with
    the environ entries given (headers as the server would hand them over, malformed ones
    included)."""
    built = EnvironBuilder(path=path, method="POST", data=BODY,
                           content_type="application/json").get_environ()
    stream = Tripwire(BODY)
    built.update(environ, **{"wsgi.input": stream})
    answer: dict = {}

    def start_response(status, headers, exc_info=None):
        answer.update(status=status, headers=dict(headers))

    body = b"".join(APP(built, start_response))
    return answer["status"], answer["headers"], body, stream


def test_the_post_routes_are_the_ones_the_service_serves():
    rules = post_rules()
    for route in ("matches", "moves", "legal-moves", "validations", "views", "hints", "seeds",
                  "contributions"):
        assert f"/v1/games/<game_id>/{route}" in rules
    assert len(post_paths()) >= len(rules) >= 9


OVERSIZED = {
    "identity": {"HTTP_TRANSFER_ENCODING": "identity", "CONTENT_LENGTH": "99999999"},
    "plain": {"CONTENT_LENGTH": "99999999"},
    "one-past": {"CONTENT_LENGTH": str(LIMIT + 1)},
}


@pytest.mark.parametrize("declared", sorted(OVERSIZED))
@pytest.mark.parametrize("path", post_paths())
def test_a_body_declared_past_the_limit_is_refused_unread(path, declared):
    status, headers, body, stream = raw_post(path, **OVERSIZED[declared])
    assert status.startswith("413 "), (status, body)
    assert headers["Content-Type"] == PROBLEM
    problem = json.loads(body)
    assert (problem["code"], problem["status"]) == ("payload_too_large", 413)
    assert problem["detail"] == f"the body is larger than {LIMIT} bytes"
    assert stream.largest <= LIMIT + 1  # never read whole, as the declared length asked


@pytest.mark.parametrize("path", post_paths())
def test_a_content_length_that_is_no_number_is_a_400_problem(path):
    status, headers, body, _ = raw_post(path, CONTENT_LENGTH="abc")
    assert status.startswith("400 "), (status, body)
    assert headers["Content-Type"] == PROBLEM
    problem = json.loads(body)
    assert (problem["code"], problem["status"]) == ("malformed_json", 400)
