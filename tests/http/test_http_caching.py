"""Large answers gzipped when asked; the catalogue, the contract and the explorer carry an
ETag and a Cache-Control, and a held copy is answered 304."""

from __future__ import annotations

import gzip

import pytest
from flask import Response

import referee

FIXED = ["/v1/games", "/v1/games/empereur", "/openapi.yaml", "/docs",
         "/docs/static/swagger-ui-bundle.js"]


@pytest.mark.parametrize("path", FIXED)
def test_fixed_answers_carry_a_validator_and_a_lifetime_and_answer_304_when_held(client, path):
    first = client.get(path)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert etag.startswith('"') and len(etag) > 10
    assert first.cache_control.public and first.cache_control.max_age >= 300
    held = client.get(path, headers={"If-None-Match": etag})
    assert held.status_code == 304 and held.data == b""
    stale = client.get(path, headers={"If-None-Match": '"another-version"'})
    assert stale.status_code == 200 and stale.data == first.data


def test_each_game_page_has_its_own_etag_and_the_etag_follows_the_body(client):
    tags = {client.get(f"/v1/games/{g}").headers["ETag"]
            for g in ("empereur", "generala-dice", "generala-cards", "huit-americain")}
    assert len(tags) == 4
    other_limits = referee.create_app({"STATE_KEYS": [], "MAX_LIST_ITEMS": 100}).test_client()
    assert other_limits.get("/openapi.yaml").headers["ETag"] != client.get(
        "/openapi.yaml").headers["ETag"]


@pytest.mark.parametrize("path", ["/v1/games", "/openapi.yaml",
                                  "/docs/static/swagger-ui.css"])
def test_a_large_answer_is_gzipped_when_asked_and_only_then(client, path):
    plain = client.get(path)
    assert "Content-Encoding" not in plain.headers
    packed = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) < len(plain.data) / 2
    assert gzip.decompress(packed.data) == plain.data
    # Twice: the second comes from the kept compressed body, and is the same.
    assert client.get(path, headers={"Accept-Encoding": "gzip"}).data == packed.data
    # The compressed copy has its own validator, and is answered 304 when held.
    assert packed.headers["ETag"] != plain.headers["ETag"]
    held = client.get(path, headers={"Accept-Encoding": "gzip",
                                     "If-None-Match": packed.headers["ETag"]})
    assert held.status_code == 304
    # An encoding the referee does not write is not used.
    assert "Content-Encoding" not in client.get(path, headers={"Accept-Encoding": "br"}).headers


@pytest.mark.parametrize("accepted", ["gzip;q=0", "GZIP;Q=0.000", "gzip;q=0, *", "*;q=0",
                                      "gzip;q=abc", "gzip;q=-1", "gzip;q=nan", "gzip;q=2",
                                      "identity"])
@pytest.mark.parametrize("path", ["/v1/games", "/openapi.yaml"])
def test_a_coding_refused_by_a_weight_of_zero_or_one_that_does_not_read_is_not_used(
        client, path, accepted):
    # RFC 9110, 12.5.3: "gzip;q=0" says gzip is not acceptable; identity always is.
    answer = client.get(path, headers={"Accept-Encoding": accepted})
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers
    assert "Accept-Encoding" in answer.headers["Vary"]
    assert answer.data == client.get(path).data


@pytest.mark.parametrize("accepted", ["gzip;q=0.001", "*", "br, *;q=0.5", "identity, GZip"])
def test_a_coding_accepted_with_any_weight_above_zero_is_used(client, accepted):
    answer = client.get("/openapi.yaml", headers={"Accept-Encoding": accepted})
    assert answer.headers["Content-Encoding"] == "gzip"


def match_answer(client, **headers):
    return client.post("/v1/games/huit-americain/matches", headers=headers, json={
        "players": ["ann", "bob", "cy", "dee", "eve"], "seed": "big"})


def test_a_match_answer_past_the_threshold_is_gzipped_and_one_below_it_is_not(client):
    plain = match_answer(client)
    assert 1024 < len(plain.data) < 4096
    # Under the default threshold (4096 bytes) the answer goes as it is...
    assert "Content-Encoding" not in match_answer(client, **{"Accept-Encoding": "gzip"}).headers
    # ...and past a threshold of 1024 bytes it is gzipped, the same bytes once unpacked.
    low = referee.create_app({"STATE_KEYS": [], "COMPRESS_MIN_BYTES": 1024}).test_client()
    packed = match_answer(low, **{"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    small = low.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers and small.get_json()["status"] == "ok"


def test_compression_is_off_with_a_threshold_of_zero():
    client = referee.create_app({"STATE_KEYS": [], "COMPRESS_MIN_BYTES": 0}).test_client()
    answer = client.get("/openapi.yaml", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in answer.headers and answer.data.startswith(b"openapi")
    assert answer.headers["ETag"]


def test_the_threshold_setting_is_read_and_a_negative_one_refused():
    from referee.http import settings
    assert settings.from_environment({})["COMPRESS_MIN_BYTES"] == 4096
    assert settings.from_environment({"REFEREE_COMPRESS_MIN_BYTES": "0"})[
        "COMPRESS_MIN_BYTES"] == 0
    with pytest.raises(ValueError, match="REFEREE_COMPRESS_MIN_BYTES"):
        settings.from_environment({"REFEREE_COMPRESS_MIN_BYTES": "-1"})


@pytest.mark.parametrize("encoding", [None, "gzip", "br"])
def test_every_answer_says_it_varies_with_accept_encoding_asked_or_not(encoding):
    """An answer without Accept-Encoding skips flask-compress but keeps its Vary header,
    after any Vary already set."""
    headers = {"Accept-Encoding": encoding} if encoding else {}
    app = referee.create_app({"STATE_KEYS": []})

    @app.get("/varies-with-origin")
    def varies():
        return Response("{}", mimetype="application/json", headers={"Vary": "Origin"})

    client = app.test_client()
    assert client.get("/healthz", headers=headers).headers["Vary"] == "Accept-Encoding"
    assert match_answer(client, **headers).headers["Vary"] == "Accept-Encoding"
    assert client.get("/varies-with-origin", headers=headers).headers["Vary"] == \
        "Origin, Accept-Encoding"
