"""Browsers: cross-origin calls from the configured web origins only, off by default, and a
preflight answered for the routes a seat token may ask (and the catalogue) only."""

from __future__ import annotations

import pytest

import referee
from tests.support import SEALING_KEYS

EIGHT = "/v1/games/huit-americain"
PAGE = "https://play.example.com"
PREFLIGHT = {"Origin": PAGE, "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "content-type"}


@pytest.fixture
def browser_client(clock):
    return referee.create_app({"CLOCK": clock, "STATE_KEYS": SEALING_KEYS,
                               "CORS_ORIGINS": f"{PAGE}, http://localhost:5173"}).test_client()


def seat_token(client):
    return client.post(f"{EIGHT}/matches", json={"players": ["ann", "bob"], "seed": 1,
                                                 "viewer": "ann"}).get_json()["seat_token"]


def test_without_the_setting_no_origin_is_allowed(sealed_client):
    answer = sealed_client.post(f"{EIGHT}/views", json={"seat_token": seat_token(sealed_client)},
                                headers={"Origin": PAGE})
    assert answer.status_code == 200 and "Access-Control-Allow-Origin" not in answer.headers
    preflight = sealed_client.options(f"{EIGHT}/views", headers=PREFLIGHT)
    assert preflight.status_code == 405 and "Access-Control-Allow-Origin" not in preflight.headers


@pytest.mark.parametrize("segment", ["legal-moves", "validations", "views", "hints",
                                     "images/view"])
def test_a_listed_page_may_preflight_the_seat_routes(browser_client, segment):
    preflight = browser_client.options(f"{EIGHT}/{segment}", headers=PREFLIGHT)
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == PAGE
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "content-type" in preflight.headers["Access-Control-Allow-Headers"].lower()


def test_a_listed_page_reads_answers_and_problems(browser_client):
    token = seat_token(browser_client)
    seen = browser_client.post(f"{EIGHT}/views", json={"seat_token": token},
                               headers={"Origin": PAGE})
    assert seen.status_code == 200 and seen.headers["Access-Control-Allow-Origin"] == PAGE
    refused = browser_client.post(f"{EIGHT}/views", json={"seat_token": token, "player": "bob"},
                                  headers={"Origin": PAGE})
    assert refused.get_json()["code"] == "not_your_seat"
    assert refused.headers["Access-Control-Allow-Origin"] == PAGE
    listed = browser_client.get("/v1/games", headers={"Origin": "http://localhost:5173"})
    assert listed.headers["Access-Control-Allow-Origin"] == "http://localhost:5173"


def test_an_unlisted_page_is_not_allowed(browser_client):
    other = {**PREFLIGHT, "Origin": "https://evil.example.net"}
    preflight = browser_client.options(f"{EIGHT}/views", headers=other)
    assert "Access-Control-Allow-Origin" not in preflight.headers
    answer = browser_client.post(f"{EIGHT}/views", json={"seat_token": seat_token(browser_client)},
                                 headers={"Origin": "https://evil.example.net"})
    assert "Access-Control-Allow-Origin" not in answer.headers


@pytest.mark.parametrize("path", [f"{EIGHT}/moves", f"{EIGHT}/matches",
                                  "/v1/games/generala-dice/sheets/svg", "/healthz",
                                  "/openapi.yaml", "/v1/nowhere"])
def test_no_preflight_for_the_back_end_routes_or_undocumented_ones(browser_client, path):
    preflight = browser_client.options(path, headers=PREFLIGHT)
    assert preflight.status_code in (404, 405)
    assert "Access-Control-Allow-Origin" not in preflight.headers
    assert "Access-Control-Allow-Methods" not in preflight.headers


@pytest.mark.parametrize("origins", ["https://play.example.com/", "play.example.com",
                                     "https://*.example.com", "ftp://x.example.com"])
def test_an_origin_a_browser_would_never_send_is_refused_at_startup(origins):
    with pytest.raises(ValueError):
        referee.create_app({"STATE_KEYS": [], "CORS_ORIGINS": origins})


def test_the_setting_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("REFEREE_CORS_ORIGINS", PAGE)
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    assert client.options(f"{EIGHT}/views", headers=PREFLIGHT).headers[
        "Access-Control-Allow-Origin"] == PAGE


def test_a_page_may_send_a_request_id_and_read_the_one_answered(browser_client):
    """A web client traces its calls like a back end: the preflight allows the request id
    and trace headers, and the answer lets the page's script read the id back."""
    preflight = browser_client.options(f"{EIGHT}/views", headers={
        **PREFLIGHT, "Access-Control-Request-Headers": "content-type, x-request-id, traceparent"})
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert "x-request-id" in allowed and "traceparent" in allowed
    seen = browser_client.post(f"{EIGHT}/views", json={"seat_token": seat_token(browser_client)},
                               headers={"Origin": PAGE, "X-Request-ID": "page-call-1"})
    assert seen.headers["X-Request-ID"] == "page-call-1"
    assert "x-request-id" in seen.headers["Access-Control-Expose-Headers"].lower()
