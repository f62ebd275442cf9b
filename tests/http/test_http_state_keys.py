"""Sealing keys are checked when the referee starts: a setting that holds no key (`","`,
`" "`), or a key that is not a secret (too short, too few different characters, a short
string repeated), stops it with a message naming the key and the rule, rather than starting
an open-mode server or one whose tokens anyone could forge. `/readyz` says which mode runs."""

from __future__ import annotations

import pytest

import referee
from bench.__main__ import BENCH_KEY
from referee.http.settings import MIN_KEY_CHARACTERS, MIN_KEY_LENGTH, key_weakness
from tests.support import SEALING_KEYS

GOOD = "Zq3vN8pL0sX2wE7rT5yU1iO9aS4dF6gH"  # 32 characters, as a generator gives them

NOT_KEYS = {
    "a lone comma": ",",
    "a blank": " ",
    "blanks and commas": " , ,",
    "an empty key after a good one": GOOD + ",",
    "an empty key between good ones": GOOD + ",," + GOOD,
    "one character repeated": "a" * 32,
    "one character repeated at length": "x" * 200,
    "too few different characters": "abcabcabcabcabcabcabcabcabcabcabcX",
    "a short pattern repeated": "abcdefgh" * 4,
    "a longer pattern repeated": "Zq3vN8pL0sX2wE7r" * 2,
    "one character short": GOOD[:-1],
    "a weak key after a good one": GOOD + "," + "a" * 32,
}


@pytest.mark.parametrize("keys", NOT_KEYS.values(), ids=NOT_KEYS.keys())
def test_a_setting_that_holds_a_weak_or_no_key_stops_the_referee(monkeypatch, keys):
    monkeypatch.setenv("REFEREE_STATE_KEYS", keys)
    with pytest.raises(ValueError, match=r"STATE_KEYS: key #\d+ of \d+ ") as refused:
        referee.create_app()
    assert "at least 32 characters" in str(refused.value)
    with pytest.raises(ValueError, match="STATE_KEYS"):
        referee.create_app({"STATE_KEYS": keys.split(",")})


def test_the_message_names_the_key_and_what_is_wrong(monkeypatch):
    monkeypatch.setenv("REFEREE_STATE_KEYS", GOOD + ", ")
    with pytest.raises(ValueError, match="key #2 of 2 is empty"):
        referee.create_app()
    monkeypatch.setenv("REFEREE_STATE_KEYS", "a" * 32)
    with pytest.raises(ValueError, match=f"key #1 of 1 has fewer than {MIN_KEY_CHARACTERS} "
                                         "different characters"):
        referee.create_app()


def test_empty_is_open_mode_and_readiness_says_so(monkeypatch):
    for empty in ("", []):
        app = referee.create_app({"STATE_KEYS": empty})
        answer = app.test_client().get("/readyz").get_json()
        assert answer["status"] == "ready" and answer["mode"] == "open"
    monkeypatch.setenv("REFEREE_STATE_KEYS", "")
    assert referee.create_app().test_client().get("/readyz").get_json()["mode"] == "open"


def test_good_keys_start_a_sealed_referee_and_readiness_says_so(monkeypatch):
    monkeypatch.setenv("REFEREE_STATE_KEYS", f" {GOOD} , {SEALING_KEYS[0]}\n")
    client = referee.create_app().test_client()
    answer = client.get("/readyz").get_json()
    assert answer["mode"] == "sealed" and answer["checks"]["sealing"] is True
    created = client.post("/v1/games/generala-dice/matches", json={"players": ["ann", "bob"]})
    assert isinstance(created.get_json()["state"], str)


@pytest.mark.parametrize("key", [GOOD, *SEALING_KEYS, BENCH_KEY])
def test_the_keys_of_the_tests_and_the_bench_are_keys(key):
    assert key_weakness(key) is None


def test_the_rule_is_as_documented():
    assert MIN_KEY_LENGTH == 32 and MIN_KEY_CHARACTERS == 8
    assert key_weakness("") == "is empty"
    assert key_weakness("abcdefgh" * 3 + "abcdefgX") is None  # no repetition: a key
