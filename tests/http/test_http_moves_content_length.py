"""The move endpoint with a Content-Length that is no plain number, as a server may hand it
over: the request is answered (never an exception out of the WSGI application) with a 400
problem of a stable code, `malformed_json`, the body taken as empty. The move endpoint reads
its body in its own fast path before Flask sees the request, so its guard on the header is
tried here with the exact JSON content type that path serves, by raw WSGI calls."""

from __future__ import annotations

import io
import json

import pytest
from werkzeug.test import EnvironBuilder

import referee
from referee.games import REGISTRY

APP = referee.create_app({"STATE_KEYS": []})
CLIENT = APP.test_client()
PROBLEM = "application/problem+json"


def a_move(game_id: str) -> bytes:
    """A sound move request of a new match: served with a plain Content-Length."""
    created = CLIENT.post(f"/v1/games/{game_id}/matches",
                          json={"players": ["ann", "bob"], "seed": "length"})
    assert created.status_code == 201, created.get_json()
    outcome = created.get_json()
    return json.dumps({"state": outcome["state"], "move": outcome["legal_moves"][0]}).encode()


def raw_move(game_id: str, body: bytes, length: str | None) -> tuple[str, dict[str, str], bytes]:
    """The answer of the WSGI application to a POST of `body` to the game's move endpoint,
    Content-Type exactly application/json and the Content-Length `length` (None: absent)."""
    environ = EnvironBuilder(path=f"/v1/games/{game_id}/moves", method="POST",
                             content_type="application/json").get_environ()
    environ["wsgi.input"] = io.BytesIO(body)
    environ.pop("CONTENT_LENGTH", None)
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    assert environ["CONTENT_TYPE"] == "application/json"
    answer: dict = {}

    def start_response(status, headers, exc_info=None):
        answer.update(status=status, headers=dict(headers))

    chunks = b"".join(APP(environ, start_response))
    return answer["status"], answer["headers"], chunks


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_same_move_with_its_plain_length_is_served(game_id):
    body = a_move(game_id)
    status, headers, answer = raw_move(game_id, body, str(len(body)))
    assert status == "200 OK", answer
    assert headers["Content-Type"] == "application/json"


LENGTHS = {
    "letters": "abc",
    "empty": "",
    "superscript two": "\xb2",  # a digit to str.isdigit, no number to int()
    "digits then letters": "12abc",
    "a fraction": "1.5",
    "negative": "-1",
    "hexadecimal": "0x10",
}


@pytest.mark.parametrize("name", sorted(LENGTHS))
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_content_length_that_is_no_number_is_a_400_problem(game_id, name):
    status, headers, answer = raw_move(game_id, a_move(game_id), LENGTHS[name])
    assert status.startswith("400 "), (status, answer)
    assert headers["Content-Type"] == PROBLEM
    problem = json.loads(answer)
    assert (problem["code"], problem["status"], problem["type"]) == (
        "malformed_json", 400, "urn:referee:problem:malformed_json")
    assert problem["title"] == "The body is not valid JSON"
    assert headers["X-Request-ID"]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_no_content_length_and_no_body_is_a_400_problem(game_id):
    status, headers, answer = raw_move(game_id, b"", None)
    assert status.startswith("400 "), (status, answer)
    assert headers["Content-Type"] == PROBLEM
    assert json.loads(answer)["code"] == "malformed_json"
