"""The move and replay endpoints are served straight from the WSGI call
(referee.http.direct.DirectMoves); every request, served or refused, must get from it what
Flask's route and hooks answer: the same status, the same headers in the same order, the same
body (sealed tokens opened, since each is sealed under a fresh salt), the same metrics and the
same log line."""

from __future__ import annotations

import gzip
import json
import logging

import pytest
from prometheus_client import REGISTRY as PROCESS_REGISTRY
from prometheus_client import CollectorRegistry, multiprocess
from werkzeug.test import Client

import referee
from bench import replays
from bench.__main__ import BENCH_KEY, payloads, sealed
from referee.games import REGISTRY
from referee.http import metrics as referee_metrics
from referee.http.direct import DirectMoves
from referee.http.observability import REQUEST_LOG
from referee.http.sealing import SEAT, Sealer

GAMES = sorted(REGISTRY)
ID = {"X-Request-ID": "same-id-both-ways"}


def apps(keys: str, **config):
    """The referee as served, and the same application with Flask alone behind it. Sealed,
    it also serves browsers (CORS), whose hooks then run on every request."""
    if keys:
        config.setdefault("CORS_ORIGINS", "https://play.example")
    app = referee.create_app({"STATE_KEYS": keys, "CLOCK": lambda: 1_000_000.0, **config})
    assert isinstance(app.wsgi_app, DirectMoves)
    return Client(app), Client(app.wsgi_app.flask)


def requests_for(game_id: str, keys: str) -> list[tuple[bytes | str, dict[str, str]]]:
    """Moves that are played, and every way a move request is refused."""
    bodies = payloads(game_id, 8)
    if keys:
        bodies = sealed(game_id, bodies)
    good = [json.loads(b) for b in bodies]
    state, move = good[0]["state"], good[0]["move"]
    spoiled = (state[:-3] + "AAA") if keys else {**state, "step": -1}
    cases: list[tuple[object, dict[str, str]]] = [(b, {}) for b in good]
    cases += [
        ({**good[1], "viewer": good[1]["move"]["player"]}, {}),
        ({**good[2], "viewer": "a-spectator", "seat_token_ttl": 60}, {}),
        ({**good[3], "viewer": good[3]["move"]["player"]}, {"traceparent":
         "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}),
        ({"state": spoiled, "move": move}, {}),
        ({"state": state, "move": {**move, "player": "nobody"}}, {}),
        ({"state": state, "move": {"type": "no-such-move", "player": move["player"]}}, {}),
        ({"state": state, "move": move, "unknown": 1}, {}),
        ({"state": state, "move": move, "seat_token": "v3.abc"}, {}),
        ({"state": state}, {}),
        ({"state": state, "move": move, "viewer": ""}, {}),
        ({"state": state, "move": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}, {}),
        ([1, 2], {}),
        ({"state": 7 if keys else "v3.abc", "move": move}, {}),
        ('{"state": ', {}),
        ("\u00e9", {}),
        (good[4], {"Accept-Encoding": "gzip"}),
        (good[4], {"Accept-Encoding": "identity"}),
        (good[4], {"Accept-Encoding": "br, identity;q=0.5"}),
        (good[4], {"Accept-Encoding": "identity, gzip;q=0"}),
        (good[4], {"Accept-Encoding": "*"}),
        (good[5], {"Content-Type": "application/json; charset=utf-8"}),
        (good[6], {"Content-Type": "text/plain"}),
    ]
    return [(c if isinstance(c, str) else json.dumps(c), h) for c, h in cases]


def replay_requests_for(game_id: str) -> list[tuple[str, dict[str, str]]]:
    """Whole matches replayed, and every way a replay is refused."""
    (creation, _, first), (_, _, second) = replays.matches(game_id, 2)
    good = [json.loads(first), json.loads(second)]
    moves = good[0]["moves"]
    player = moves[0]["move"]["player"]
    cases: list[tuple[object, dict[str, str]]] = [(good[1], {}), (good[0], {
        "Accept-Encoding": "gzip"})]
    cases += [(good[0], {"Accept-Encoding": coding}) for coding in (
        "identity", "br, identity;q=0.5", "identity, gzip;q=0", "*;q=0.1")]
    cases += [
        ({**good[0], "viewer": player, "seat_token_ttl": 60}, {}),
        ({**good[0], "moves": moves[:3]}, {}),
        ({**good[0], "moves": [*moves[:3], {"move": {**moves[3]["move"], "player": "nobody"}}]},
         {}),
        ({**good[0], "moves": [*moves[:2], {"move": {"type": "no-such-move",
                                                      "player": player}}]}, {}),
        ({**good[0], "moves": [{"move": {**moves[0]["move"], "extra": [[[[1]]]]}}]}, {}),
        ({**good[0], "moves": [*moves[:2], {"move": moves[2]["move"], "at": -1}]}, {}),
        ({**good[0], "unknown": 1}, {}),
        ({"creation": {**creation, "players": []}, "moves": moves}, {}),
        ({"moves": moves}, {}),
        ('{"creation": ', {}),
        (good[1], {"Content-Type": "application/json; charset=utf-8"}),
        (good[1], {"Content-Type": "text/plain"}),
    ]
    return [(c if isinstance(c, str) else json.dumps(c), h) for c, h in cases]


def comparable(body: bytes, opener) -> object:
    """An answer's JSON with its sealed tokens opened (their salts differ from run to run),
    the answer's own and those of the outcome a refused replay reached."""
    if not body:
        return body
    data = json.loads(gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body)
    if opener and isinstance(data, dict):
        for outcome in (data, data.get("reached")):
            for name, purpose in (("state", "state"), ("seat_token", SEAT)):
                if isinstance(outcome, dict) and isinstance(outcome.get(name), str):
                    outcome[name] = json.loads(opener(outcome[name], purpose))
    return data


def metrics() -> dict:
    """The referee's counts as `/metrics` would show them, read from the collectors it reads
    (rather than through its text, whose writing and parsing cost 20 ms a read)."""
    registry = PROCESS_REGISTRY
    if referee_metrics.multiprocess_mode():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in registry.collect() for s in family.samples
            if s.name.startswith("referee_") and not s.name.endswith(("_sum", "_created"))
            and "bucket" not in s.name}


def delta(before: dict, after: dict) -> dict:
    return {k: v - before.get(k, 0.0) for k, v in after.items() if v != before.get(k, 0.0)}


@pytest.mark.parametrize("mode", ["open", "sealed"])
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("segment", ["moves", "replays"])
def test_the_direct_answers_are_flasks_byte_for_byte(segment, game_id, mode, caplog, capfd):
    keys = BENCH_KEY if mode == "sealed" else ""
    # Signing too: a finished replay's signed statement is the same both ways.
    direct, flask_only = apps(keys, COMPRESS_MIN_BYTES=500, RESULT_KEYS=replays.RESULT_KEY)
    sealer = Sealer([BENCH_KEY])
    opener = (lambda token, purpose: sealer.open(game_id, token, purpose)) if keys else None
    path = f"/v1/games/{game_id}/{segment}"
    cases = requests_for(game_id, keys) if segment == "moves" else replay_requests_for(game_id)
    statuses = set()
    for body, headers in cases:
        headers = {"Content-Type": "application/json", **ID, **headers}
        if keys:
            headers["Origin"] = "https://play.example"
        answers = []
        for client in (direct, flask_only):
            with caplog.at_level(logging.INFO, logger="referee.requests"):
                before = metrics()
                response = client.post(path, data=body, headers=headers)
                changed = delta(before, metrics())
            REQUEST_LOG.flush()
            lines = [{k: v for k, v in line.items() if k not in ("time", "duration_ms")}
                     for line in map(json.loads, capfd.readouterr().err.splitlines())]
            listed = list(response.headers)
            if keys and response.headers.get("Content-Encoding"):
                # Tokens sealed under fresh salts compress to lengths a byte or two apart.
                listed = [(k, "*" if k == "Content-Length" else v) for k, v in listed]
            answers.append((response.status, listed,
                            comparable(response.get_data(), opener), changed, lines))
        assert answers[0] == answers[1], (body, headers)
        statuses.add(answers[0][0])
    # The cases reach success, refusals of several kinds and the compressed answer.
    assert "200 OK" in statuses and len(statuses) >= 4


def test_a_body_cut_short_and_a_chunked_body_are_answered_as_flask_answers_them():
    direct, flask_only = apps("")
    body = payloads("generala-dice", 1)[0]
    for environ_overrides, served in (({"CONTENT_LENGTH": str(len(body) + 5)}, False),
                                      ({"HTTP_TRANSFER_ENCODING": "chunked"}, True)):
        answers = []
        for client in (direct, flask_only):
            response = client.post("/v1/games/generala-dice/moves", data=body, headers=ID,
                                   content_type="application/json",
                                   environ_overrides=environ_overrides)
            answers.append((response.status, list(response.headers), response.get_data()))
        assert answers[0] == answers[1], environ_overrides
        assert (answers[0][0] == "200 OK") == served


def test_a_plain_move_or_replay_is_served_without_flask_and_anything_else_reaches_it():
    app = referee.create_app({"STATE_KEYS": "", "COMPRESS_MIN_BYTES": 500})
    reached = []

    def flask_dispatch(environ, start_response):
        reached.append(environ["PATH_INFO"])
        return app.wsgi_app.flask.__wrapped__(environ, start_response)

    flask_dispatch.__wrapped__ = app.wsgi_app.flask
    app.wsgi_app.flask = flask_dispatch
    # The answers computed here and finished by Flask's hooks (a refusal, a compression).
    finished_by_flask = app.wsgi_app._through_flask

    def through_flask(environ, *args, **kwargs):
        reached.append("hooks: " + environ["PATH_INFO"])
        return finished_by_flask(environ, *args, **kwargs)

    app.wsgi_app._through_flask = through_flask
    client = app.test_client()
    body = payloads("generala-dice", 1)[0]
    assert client.post("/v1/games/generala-dice/moves", data=body,
                       content_type="application/json").status_code == 200
    replay = replays.matches("generala-dice", 1)[0][2]
    assert client.post("/v1/games/generala-dice/replays", data=replay,
                       content_type="application/json").status_code == 200
    # An answer past the compression's threshold, for a client that takes only `identity`
    # (Python's http.client by default): nothing to compress, so no need of Flask.
    large = client.post("/v1/games/generala-dice/replays", data=replay,
                        content_type="application/json", headers={"Accept-Encoding": "identity"})
    assert large.status_code == 200 and "Content-Encoding" not in large.headers
    assert len(large.get_data()) >= app.config["COMPRESS_MIN_BYTES"]
    assert reached == []
    assert client.post("/v1/games/no-such-game/moves", data=body,
                       content_type="application/json").status_code == 404
    assert client.get("/healthz").status_code == 200
    # A client that takes gzip gets the large answer compressed by Flask's hooks.
    gzipped = client.post("/v1/games/generala-dice/replays", data=replay,
                          content_type="application/json", headers={"Accept-Encoding": "gzip"})
    assert gzipped.headers["Content-Encoding"] == "gzip"
    assert reached == ["/v1/games/no-such-game/moves", "/healthz",
                       "hooks: /v1/games/generala-dice/replays"]


def test_a_failure_inside_a_move_is_flasks_internal_error_both_ways(monkeypatch):
    engine = REGISTRY["generala-dice"]
    body = payloads("generala-dice", 1)[0]

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in a rule")

    monkeypatch.setattr(engine, "apply", broken)
    direct, flask_only = apps("")
    answers = [client.post("/v1/games/generala-dice/moves", data=body, headers=ID,
                           content_type="application/json") for client in (direct, flask_only)]
    assert [a.status_code for a in answers] == [500, 500]
    assert answers[0].get_json() == answers[1].get_json()
    assert answers[0].get_json()["code"] == "internal_error"
    assert list(answers[0].headers) == list(answers[1].headers)
