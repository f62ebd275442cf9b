"""A body that is not a JSON object in UTF-8 is the caller's mistake: on every POST route, by
the move endpoint's fast path (referee.http.direct) and by Flask alike, it is answered as a
problem with a stable code, never as the referee's failure (a 500, with a stack trace in the
error log for anyone who wants to flood it)."""

from __future__ import annotations

import logging

import pytest
from werkzeug.test import Client

import referee
from referee.games import REGISTRY
from referee.http.operations import OPERATIONS

from tests.support import SEALING_KEYS

# Bytes that are not JSON, or not UTF-8 inside a string: malformed_json (400).
NOT_JSON = {
    "an invalid byte in a value": b'{"player": "\xff"}',
    "an invalid byte in a key": b'{"\xff": 1}',
    "an overlong encoding": b'{"player": "\xc0\xaf"}',
    "a surrogate encoded in UTF-8": b'{"player": "\xed\xa0\x80"}',
    "a truncated sequence": b'{"player": "\xe2\x82"}',
    "a lone high surrogate escape": b'{"player": "\\ud800"}',
    "a lone low surrogate escape": b'{"player": "\\udc00x"}',
    "a reversed surrogate pair": b'{"player": "\\udc00\\ud800"}',
    "a byte order mark": b'\xef\xbb\xbf{}',
    "a syntax error": b'{"player": ',
    "nothing": b"",
    "a NUL after the object": b'{}\x00',
    "NaN": b'{"seed": NaN}',
    "a number past the decoder's range": b'{"seed": ' + b"9" * 5000 + b"}",
    "Latin-1 text": '{"player": "Zoé"}'.encode("latin-1"),
}
# JSON, but not an object within the depth limit: validation_error (422), as documented.
NOT_AN_ENVELOPE = {
    "an array": b"[]",
    "a number": b"1",
    "null": b"null",
    "a string": b'"x"',
    "nesting past the limit": b'{"a": ' * 40 + b"1" + b"}" * 40,
    "nesting past the decoder's own limit": b"[" * 100_000 + b"]" * 100_000,
}
MALFORMED = [(name, body, 400, "malformed_json") for name, body in NOT_JSON.items()] + [
    (name, body, 422, "validation_error") for name, body in NOT_AN_ENVELOPE.items()]

# application/json exactly takes the move endpoint's fast path; with a charset, Flask's route.
CONTENT_TYPES = ["application/json", "application/json; charset=utf-8"]


def post_paths(app) -> list[str]:
    """Every POST route of the application, once per registered game for those that name it."""
    paths = []
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or ()):
            continue
        if "<game_id>" in rule.rule:
            paths += [rule.rule.replace("<game_id>", game_id) for game_id in sorted(REGISTRY)]
        else:
            paths.append(rule.rule)
    return paths


@pytest.fixture(scope="module", params=["open", "sealed"])
def app(request):
    keys = list(SEALING_KEYS) if request.param == "sealed" else []
    return referee.create_app({"STATE_KEYS": keys, "CLOCK": lambda: 1_000_000.0})


def test_every_declared_operation_is_among_the_routes_tried(app):
    tried = post_paths(app)
    for op in OPERATIONS:
        for rule, game in op.rules():
            game_ids = [game] if game else sorted(REGISTRY)
            for game_id in game_ids:
                assert rule.replace("<game_id>", game_id) in tried


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
@pytest.mark.parametrize("name,body,status,code", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_body_is_a_problem_on_every_post_route(app, caplog, name, body, status,
                                                           code, content_type):
    client = app.test_client()
    for path in post_paths(app):
        caplog.clear()
        with caplog.at_level(logging.DEBUG):
            answer = client.post(path, data=body, content_type=content_type)
        where = f"{path} ({content_type})"
        assert answer.status_code == status, (where, answer.get_data()[:300])
        assert answer.mimetype == "application/problem+json", where
        problem = answer.get_json(force=True)
        assert problem["code"] == code and problem["status"] == status, where
        # Logged as a refusal: no error, no stack trace, at most one warning.
        loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(loud) <= 1, (where, [r.getMessage() for r in loud])
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], where


def test_the_move_fast_path_answers_a_malformed_body_as_flask_does(app):
    """Both ways to the moves route give the same problem for the same bytes."""
    fast, flask_only = app.test_client(), app.wsgi_app.flask
    slow = Client(flask_only)
    for name, body, status, code in MALFORMED:
        for game_id in sorted(REGISTRY):
            path = f"/v1/games/{game_id}/moves"
            one = fast.post(path, data=body, content_type="application/json")
            other = slow.post(path, data=body, content_type="application/json")
            assert one.status_code == other.status_code == status, name
            assert one.get_json(force=True)["detail"] == other.get_json(force=True)["detail"]


@pytest.mark.parametrize("body,reason", [
    (b'{"player": "\\ud800"}',
     "an escaped surrogate (\\ud800 to \\udfff) that is not half of a pair"),
    (b'{"player": "\\ud800x", "seed": 1}', "surrogate"),
    (b'{"player": "\\ud800', "Input data was truncated"),
    (b'{"player": "ann", ', "Input data was truncated"),
], ids=["lone-high-surrogate", "lone-high-surrogate-then-text", "cut-after-a-surrogate",
        "cut-short"])
def test_a_lone_surrogate_escape_is_named_and_a_body_cut_short_is_called_truncated(app, body,
                                                                                  reason):
    """msgspec calls a lone high surrogate escape the end of the input: the problem says what
    it is, and keeps "truncated" for a body that really ends too soon."""
    for path in ("/v1/games/empereur/moves", "/v1/games/empereur/matches"):
        answer = app.test_client().post(path, data=body, content_type="application/json")
        problem = answer.get_json(force=True)
        assert problem["code"] == "malformed_json" and reason in problem["detail"], problem


class BrokenStream:
    """A body the server's reader refuses as it reads it (gunicorn raises on a bad chunk)."""

    def read(self, *_):
        raise ValueError("Invalid chunk size")

    readline = read


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
def test_a_body_the_server_cannot_read_is_malformed_request_on_both_paths(app, caplog,
                                                                          content_type):
    client = app.test_client()
    for path in post_paths(app):
        caplog.clear()
        with caplog.at_level(logging.DEBUG):
            answer = client.post(path, data=b"{}", content_type=content_type,
                                 environ_overrides={"wsgi.input": BrokenStream()})
        assert answer.status_code == 400, (path, answer.get_data()[:300])
        assert answer.get_json(force=True)["code"] == "malformed_request", path
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], path


@pytest.mark.parametrize("coding", ["gzip", "br", "deflate", "x-custom"])
def test_a_body_with_a_content_coding_is_refused_unread(client, coding):
    # RFC 9110, 8.4.1: the referee decodes no content coding; read as JSON, a gzipped body
    # would be called malformed, a br one taken for plain JSON. Moves take the direct path.
    created = client.post("/v1/games/yacht/matches", json={"players": ["ann", "bob"]})
    state = created.get_json()["state"]
    move = created.get_json()["legal_moves"][0]
    for path, body in (("/v1/games/yacht/matches", {"players": ["ann", "bob"]}),
                       ("/v1/games/yacht/moves", {"state": state, "move": move}),
                       ("/v1/games/yacht/legal-moves", {"state": state})):
        answer = client.post(path, json=body, headers={"Content-Encoding": coding})
        assert answer.status_code == 415, (path, answer.get_json())
        assert answer.get_json()["code"] == "unsupported_media_type"
        assert client.post(path, json=body,
                           headers={"Content-Encoding": "identity"}).status_code in (200, 201)
