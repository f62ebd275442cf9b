"""With browsers allowed (REFEREE_CORS_ORIGINS), every answer of a browser route says
`Vary: Origin`, with one origin listed as with several or `*`, whatever the request's Origin
(none, listed, not listed), on answers, problems, 304s and preflights: whether and which
`Access-Control-Allow-Origin` an answer carries depends on the Origin, and the catalogue is
`public, max-age=300`, so a shared cache must key it on the Origin. Routes no browser may
call, and a referee without CORS, do not vary on it."""

from __future__ import annotations

import pytest

import referee
from tests.support import SEALING_KEYS

EIGHT = "/v1/games/huit-americain"
PAGE = "https://play.example.com"
SETTINGS = {"one origin": PAGE, "two origins": f"{PAGE}, http://localhost:5173", "any": "*"}
ORIGINS = {"no Origin": {}, "the listed page": {"Origin": PAGE},
           "another page": {"Origin": "https://evil.example.net"}}


def vary_names(answer) -> list[str]:
    return [name.strip().lower() for line in answer.headers.getlist("Vary")
            for name in line.split(",") if name.strip()]


def client_for(origins: str):
    return referee.create_app({"CLOCK": lambda: 1_000_000.0, "STATE_KEYS": SEALING_KEYS,
                               "CORS_ORIGINS": origins}).test_client()


def browser_answers(client, headers: dict[str, str]):
    """An answer of each kind a browser route gives."""
    created = client.post(f"{EIGHT}/matches", json={"players": ["ann", "bob"], "seed": 1,
                                                   "viewer": "ann"}).get_json()
    token = created["seat_token"]
    listed = client.get("/v1/games", headers=headers)
    yield "catalogue", listed
    yield "game", client.get(EIGHT, headers=headers)
    yield "catalogue 304", client.get("/v1/games", headers={
        **headers, "If-None-Match": listed.headers["ETag"]})
    yield "gzipped catalogue", client.get("/v1/games", headers={
        **headers, "Accept-Encoding": "gzip"})
    yield "unknown game", client.get("/v1/games/no-such-game", headers=headers)
    yield "view", client.post(f"{EIGHT}/views", json={"seat_token": token}, headers=headers)
    yield "refusal", client.post(f"{EIGHT}/views", json={"seat_token": token, "player": "bob"},
                                 headers=headers)
    yield "legal moves", client.post(f"{EIGHT}/legal-moves", json={"seat_token": token},
                                     headers=headers)
    yield "preflight", client.options(f"{EIGHT}/views", headers={
        **headers, "Access-Control-Request-Method": "POST"})


@pytest.mark.parametrize("origins", SETTINGS.values(), ids=SETTINGS.keys())
@pytest.mark.parametrize("headers", ORIGINS.values(), ids=ORIGINS.keys())
def test_every_browser_answer_varies_on_the_origin_once(origins, headers):
    client = client_for(origins)
    for kind, answer in browser_answers(client, headers):
        names = vary_names(answer)
        assert names.count("origin") == 1, (kind, answer.headers.getlist("Vary"))
        assert len(answer.headers.getlist("Vary")) == 1, kind  # one header line
        if kind != "preflight":
            assert "accept-encoding" in names, kind


def test_the_catalogue_is_public_and_varies_on_the_origin_with_one_origin():
    answer = client_for(PAGE).get("/v1/games", headers={"Origin": PAGE})
    assert answer.headers["Cache-Control"] == "public, max-age=300"
    assert answer.headers["Access-Control-Allow-Origin"] == PAGE
    assert "origin" in vary_names(answer)


def test_routes_no_browser_calls_and_a_referee_without_cors_do_not_vary_on_it():
    client = client_for(PAGE)
    created = client.post(f"{EIGHT}/matches", json={"players": ["ann", "bob"], "seed": 1},
                          headers={"Origin": PAGE})
    assert "origin" not in vary_names(created)
    moved = client.post(f"{EIGHT}/moves", json={"state": created.get_json()["state"],
                                                 "move": {"type": "draw", "player": "ann"}},
                        headers={"Origin": PAGE})
    assert "origin" not in vary_names(moved)
    assert "origin" not in vary_names(client.get("/openapi.yaml", headers={"Origin": PAGE}))
    plain = referee.create_app({"STATE_KEYS": SEALING_KEYS}).test_client()
    assert "origin" not in vary_names(plain.get("/v1/games", headers={"Origin": PAGE}))
