"""/verify in a real browser: a record of a real match, pasted or linked, is checked with Web
Crypto in the page (every chance event confirmed), an altered one is flagged, and the page
loads nothing but its own three files."""

from __future__ import annotations

import base64
import json

import pytest

import referee
from referee.games import REGISTRY
from tests.fairness.records import (EMPEREUR, HUIT, altered, chance_events, record_match,
                                    seen_draws, unseen_draws)
from tests.fairness.script import verify_match


@pytest.fixture(scope="module")
def records():
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    return {game_id: record_match(client, game_id, 21, viewer="p0") for game_id in REGISTRY}


@pytest.fixture
def verify_page(browser, served_app):
    page = browser.new_page()
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    yield page
    page.close()
    assert set(requested) <= {f"{served_app}/verify", f"{served_app}/verify/fairness.js",
                              f"{served_app}/verify/verify.js"} | {
        u for u in requested if u.startswith(f"{served_app}/verify#")}, requested


def checked(page) -> dict:
    page.wait_for_selector("#summary[data-status='confirmed'], #summary[data-status='failed']",
                           timeout=30_000)
    summary = page.locator("#summary")
    return {"status": summary.get_attribute("data-status"),
            "confirmed": int(summary.get_attribute("data-confirmed")),
            "checks": int(summary.get_attribute("data-checks")),
            "text": summary.inner_text(),
            "failed_rows": page.locator("#checks tr[data-ok='false']").count()}


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_pasted_record_is_confirmed_event_by_event(verify_page, served_app, records, game_id):
    record = records[game_id]
    verify_page.goto(f"{served_app}/verify")
    verify_page.fill("#record", json.dumps(record))
    verify_page.click("#check")
    result = checked(verify_page)
    assert result["status"] == "confirmed", result["text"]
    assert result["confirmed"] == result["checks"] == len(chance_events(record)) > 0
    assert "matches its commitment" in result["text"]


def test_an_altered_record_is_flagged(verify_page, served_app, records):
    for change, doctored in altered(records["huit-americain"]).items():
        verify_page.goto(f"{served_app}/verify")
        verify_page.fill("#record", json.dumps(doctored))
        verify_page.click("#check")
        result = checked(verify_page)
        assert result["status"] == "failed", change
        if change == "wrong seed":
            assert "does NOT match its commitment" in result["text"]
        else:
            assert result["failed_rows"] == 1, change


@pytest.fixture(scope="module")
def drawing():
    """Players' own records of matches with many draws (tests/fairness/test_fairness_draws)."""
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    out = {}
    for setup in (EMPEREUR, HUIT):
        setup = dict(setup)
        game_id, seed = setup.pop("game_id"), setup.pop("seed")
        out[game_id] = record_match(client, game_id, seed, viewer="p0", **setup)
    return out


@pytest.mark.parametrize("game_id", ["empereur", "huit-americain"])
def test_the_page_confirms_the_viewers_draws_and_lists_the_others_as_unseen(
        verify_page, served_app, drawing, game_id):
    record = drawing[game_id]
    assert seen_draws(record) and unseen_draws(record)
    verify_page.goto(f"{served_app}/verify")
    verify_page.fill("#record", json.dumps(record))
    verify_page.click("#check")
    result = checked(verify_page)
    assert result["status"] == "confirmed", result["text"]
    rows = verify_page.locator("#checks tbody tr")
    drawn = [rows.nth(k).get_attribute("data-ok") for k in range(rows.count())
             if "cards_drawn" in rows.nth(k).inner_text()]
    assert drawn.count("true") == len(seen_draws(record))
    assert drawn.count("unseen") == len(unseen_draws(record))
    assert f"{len(unseen_draws(record))} draws by other players" in result["text"]


def test_a_client_links_to_the_page_with_the_record(verify_page, served_app, records):
    record = records["generala-dice"]
    encoded = base64.urlsafe_b64encode(json.dumps(record).encode()).decode().rstrip("=")
    verify_page.goto(f"{served_app}/verify#record={encoded}")
    result = checked(verify_page)
    assert result["status"] == "confirmed" and result["confirmed"] == len(chance_events(record))


def test_a_second_record_link_in_an_open_tab_is_checked_too(verify_page, served_app, records):
    """Following another record link changes only the address's fragment (no reload): the
    page reads and checks the new record."""
    first, second = records["generala-dice"], records["empereur"]
    for record in (first, second):
        encoded = base64.urlsafe_b64encode(json.dumps(record).encode()).decode().rstrip("=")
        verify_page.goto(f"{served_app}/verify#record={encoded}")
        verify_page.wait_for_function(
            "text => document.querySelector('#record').value === text", arg=json.dumps(record))
        result = checked(verify_page)
        assert result["status"] == "confirmed"
        assert result["confirmed"] == len(chance_events(record))


def test_a_record_that_is_not_json_is_said_so(verify_page, served_app):
    verify_page.goto(f"{served_app}/verify")
    verify_page.fill("#record", "{not json")
    verify_page.click("#check")
    result = checked(verify_page)
    assert result["status"] == "failed" and "not JSON" in result["text"]


@pytest.fixture(scope="module")
def contributed():
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    return {game_id: record_match(client, game_id, 22, viewer="p0", contribute=True)
            for game_id in ("generala-dice", "empereur")}


@pytest.mark.parametrize("game_id", ["generala-dice", "empereur"])
def test_a_record_with_contributed_seeds_is_confirmed_and_its_alterations_flagged(
        verify_page, served_app, contributed, game_id):
    record = contributed[game_id]
    encoded = base64.urlsafe_b64encode(json.dumps(record).encode()).decode().rstrip("=")
    verify_page.goto(f"{served_app}/verify#record={encoded}")
    result = checked(verify_page)
    assert result["status"] == "confirmed", result["text"]
    assert result["confirmed"] == result["checks"] == len(chance_events(record)) > 0
    count = len(record["contributions"])
    assert f"with {count} contributed seeds mixed in" in result["text"]
    for change, doctored in altered(record).items():
        verify_page.goto(f"{served_app}/verify")
        verify_page.fill("#record", json.dumps(doctored))
        verify_page.click("#check")
        assert checked(verify_page)["status"] == "failed", change


def test_the_link_verify_match_builds_opens_the_checked_record(verify_page, served_app,
                                                               contributed):
    record = contributed["generala-dice"]
    verify_page.goto(verify_match.verify_link(served_app, record))
    result = checked(verify_page)
    assert result["status"] == "confirmed" and result["confirmed"] == len(chance_events(record))
