"""Seat tokens: the back end keeps the state token and hands each player's device a token of
his seat alone. With it the device lists its legal moves, dry-runs its moves, sees its view
and asks its hints, and can learn or do nothing else."""

from __future__ import annotations

import base64

import pytest

import referee
from referee.games import REGISTRY
from referee.http.sealing import SEAT, Sealer
from referee.service.referee import warm_up

DICE = "/v1/games/generala-dice"
EIGHT = "/v1/games/huit-americain"


def create(client, game=EIGHT, **extra):
    response = client.post(f"{game}/matches", json={"players": ["ann", "bob"], "seed": "s3cret",
                                                    **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def code_of(response):
    return response.get_json(force=True).get("code")


def flip(token: str, index: int) -> str:
    body = bytearray(base64.urlsafe_b64decode(token[3:] + "=" * (-len(token[3:]) % 4)))
    body[index % len(body)] ^= 0x01
    return token[:3] + base64.urlsafe_b64encode(bytes(body)).decode().rstrip("=")


@pytest.fixture
def dealt(sealed_client):
    """A match of Huit américain as its back end holds it, with ann's seat token."""
    return create(sealed_client, viewer="ann")


# -- what a phone may do -----------------------------------------------------------------------
def test_a_phone_lists_its_legal_moves_with_its_seat_token_alone(sealed_client, dealt):
    asked = sealed_client.post(f"{EIGHT}/legal-moves", json={"seat_token": dealt["seat_token"]})
    assert asked.status_code == 200
    trusted = sealed_client.post(f"{EIGHT}/legal-moves",
                                 json={"state": dealt["state"], "player": "ann"}).get_json()
    assert asked.get_json() == trusted and trusted["legal_moves"]
    assert {m["player"] for m in trusted["legal_moves"]} == {"ann"}
    named = sealed_client.post(f"{EIGHT}/legal-moves", json={"seat_token": dealt["seat_token"],
                                                             "player": "ann"})
    assert named.get_json() == trusted


def test_a_phone_dry_runs_its_own_moves(sealed_client, dealt):
    token = dealt["seat_token"]
    move = dealt["legal_moves"][0]
    verdict = sealed_client.post(f"{EIGHT}/validations", json={"seat_token": token, "move": move})
    assert verdict.get_json() == {"legal": True}
    wrong = {"type": "lay", "player": "ann", "card": "XX"}
    refused = sealed_client.post(f"{EIGHT}/validations", json={"seat_token": token, "move": wrong})
    assert code_of(refused) == "validation_error"
    held = set(dealt["view"]["hand"])
    absent = next(c for c in ("2C", "3D", "4H", "5S", "9C", "TD", "JH", "QS") if c not in held)
    verdict = sealed_client.post(f"{EIGHT}/validations", json={
        "seat_token": token, "move": {"type": "lay", "player": "ann", "card": absent,
                                      "announce": False}}).get_json()
    assert verdict["legal"] is False and verdict["code"] == "illegal_move"


def test_a_phone_sees_its_own_view(sealed_client, dealt):
    seen = sealed_client.post(f"{EIGHT}/views", json={"seat_token": dealt["seat_token"]})
    assert seen.status_code == 200
    answer = seen.get_json()
    assert answer["player"] == "ann" and answer["view"] == dealt["view"]
    assert "seat_token" not in answer and "state" not in answer


# -- what a phone may not do -------------------------------------------------------------------
@pytest.mark.parametrize("path,body", [
    ("views", {"player": "bob"}),
    ("legal-moves", {"player": "bob"}),
    ("validations", {"move": {"type": "draw", "player": "bob"}}),
    ("validations", {"move": {"type": "draw"}}),
], ids=["view", "legal-moves", "validation", "validation-without-player"])
def test_another_player_is_not_your_seat(sealed_client, dealt, path, body):
    response = sealed_client.post(f"{EIGHT}/{path}",
                                  json={"seat_token": dealt["seat_token"], **body})
    assert response.status_code == 403 and code_of(response) == "not_your_seat"


def test_a_seat_token_posts_no_move(sealed_client, dealt):
    move = dealt["legal_moves"][0]
    beside = sealed_client.post(f"{EIGHT}/moves", json={"seat_token": dealt["seat_token"],
                                                        "state": dealt["state"], "move": move})
    assert beside.status_code == 403 and code_of(beside) == "seat_token_not_allowed"
    alone = sealed_client.post(f"{EIGHT}/moves", json={"seat_token": dealt["seat_token"],
                                                       "move": move})
    assert code_of(alone) == "seat_token_not_allowed"
    # Posted where the state goes, it is recognised and refused as what it is.
    as_state = sealed_client.post(f"{EIGHT}/moves", json={"state": dealt["seat_token"],
                                                          "move": move})
    assert as_state.status_code == 403 and code_of(as_state) == "seat_token_not_allowed"
    for path, body in (("legal-moves", {}), ("views", {"player": "ann"})):
        response = sealed_client.post(f"{EIGHT}/{path}",
                                      json={"state": dealt["seat_token"], **body})
        assert code_of(response) == "seat_token_not_allowed"


def test_a_seat_token_serves_no_other_route(sealed_client, dealt):
    for path, body in ((f"{EIGHT}/matches", {"players": ["ann", "bob"]}),
                       (f"{DICE}/sheets/svg", {})):
        response = sealed_client.post(path, json={"seat_token": dealt["seat_token"], **body})
        assert response.status_code == 403 and code_of(response) == "seat_token_not_allowed"


def test_a_phone_draws_its_own_view_and_no_other(sealed_client, dealt):
    token = dealt["seat_token"]
    drawn = sealed_client.post(f"{EIGHT}/images/view", json={"seat_token": token})
    trusted = sealed_client.post(f"{EIGHT}/images/view", json={"state": dealt["state"],
                                                               "player": "ann"})
    assert drawn.status_code == 200 and drawn.mimetype == "image/svg+xml"
    assert drawn.get_data() == trusted.get_data()
    refused = sealed_client.post(f"{EIGHT}/images/view", json={"seat_token": token,
                                                               "player": "bob"})
    assert refused.status_code == 403 and code_of(refused) == "not_your_seat"


def test_a_state_token_is_no_seat_token(sealed_client, dealt):
    response = sealed_client.post(f"{EIGHT}/views", json={"seat_token": dealt["state"]})
    assert response.status_code == 422 and code_of(response) == "tampered_seat_token"


def test_state_and_seat_token_together_or_neither_are_refused(sealed_client, dealt):
    both = sealed_client.post(f"{EIGHT}/legal-moves", json={"seat_token": dealt["seat_token"],
                                                            "state": dealt["state"]})
    assert code_of(both) == "validation_error" and "seat_token" in both.get_json()["errors"]
    neither = sealed_client.post(f"{EIGHT}/legal-moves", json={})
    assert code_of(neither) == "validation_error" and "state" in neither.get_json()["errors"]
    unnamed = sealed_client.post(f"{EIGHT}/views", json={"state": dealt["state"]})
    assert code_of(unnamed) == "validation_error" and "player" in unnamed.get_json()["errors"]


@pytest.mark.parametrize("spoil", [
    lambda t: flip(t, 0), lambda t: flip(t, 20), lambda t: flip(t, -1), lambda t: t[:-5],
    lambda t: t + "AAAA", lambda t: "v1.", lambda t: "v1.!!!not-base64!!!",
], ids=["flip-nonce", "flip-body", "flip-tag", "truncated", "extended", "empty", "not-base64"])
def test_any_altered_seat_token_is_refused(sealed_client, dealt, spoil):
    for path in ("legal-moves", "views"):
        response = sealed_client.post(f"{EIGHT}/{path}",
                                      json={"seat_token": spoil(dealt["seat_token"])})
        assert response.status_code == 422 and code_of(response) == "tampered_seat_token"


def test_a_seat_token_of_another_game_is_refused(sealed_client, dealt):
    response = sealed_client.post(f"{DICE}/views", json={"seat_token": dealt["seat_token"]})
    assert code_of(response) == "tampered_seat_token"


def test_seat_tokens_and_state_tokens_are_sealed_apart(sealing_keys):
    sealer = Sealer(sealing_keys)
    from referee.core.errors import TamperedState
    with pytest.raises(TamperedState):
        sealer.open("huit-americain", sealer.seal("huit-americain", b"{}"), purpose=SEAT)
    with pytest.raises(TamperedState):
        sealer.open("huit-americain", sealer.seal("huit-americain", b"{}", purpose=SEAT))
    assert sealer.open("huit-americain",
                       sealer.seal("huit-americain", b"{}", purpose=SEAT), purpose=SEAT) == b"{}"


def test_seat_tokens_follow_key_rotation(clock, sealing_keys):
    old = referee.create_app({"CLOCK": clock, "STATE_KEYS": [sealing_keys[1]]}).test_client()
    new = referee.create_app({"CLOCK": clock, "STATE_KEYS": sealing_keys}).test_client()
    retired = referee.create_app({"CLOCK": clock, "STATE_KEYS": [sealing_keys[0]]}).test_client()
    token = create(old, viewer="ann")["seat_token"]
    assert new.post(f"{EIGHT}/views", json={"seat_token": token}).status_code == 200
    assert code_of(retired.post(f"{EIGHT}/views", json={"seat_token": token})) == \
        "tampered_seat_token"


def test_open_mode_issues_no_seat_token_and_takes_none(client, sealed_client):
    outcome = create(client, viewer="ann")
    assert "seat_token" not in outcome
    sealed_token = create(sealed_client, viewer="ann")["seat_token"]
    response = client.post(f"{EIGHT}/views", json={"seat_token": sealed_token})
    assert code_of(response) == "tampered_seat_token"


# -- its life ----------------------------------------------------------------------------------
def test_a_seat_token_expires_when_the_back_end_says(sealed_client, clock):
    token = create(sealed_client, viewer="ann", seat_token_ttl=60)["seat_token"]
    clock.now += 59
    assert sealed_client.post(f"{EIGHT}/views", json={"seat_token": token}).status_code == 200
    clock.now += 1
    expired = sealed_client.post(f"{EIGHT}/views", json={"seat_token": token})
    assert expired.status_code == 403 and code_of(expired) == "seat_token_expired"
    lasting = create(sealed_client, viewer="ann")["seat_token"]
    clock.now += 10 * 365 * 24 * 3600
    assert sealed_client.post(f"{EIGHT}/views", json={"seat_token": lasting}).status_code == 200


@pytest.mark.parametrize("ttl", [0, -1, 30 * 24 * 3600 + 1, "60", 1.5, True])
def test_a_seat_token_life_is_a_positive_number_of_seconds(sealed_client, ttl):
    response = sealed_client.post(f"{EIGHT}/matches", json={
        "players": ["ann", "bob"], "viewer": "ann", "seat_token_ttl": ttl})
    assert code_of(response) == "validation_error"


def test_a_seat_token_answers_about_its_own_step(sealed_client, dealt):
    """The referee keeps nothing, so it cannot know that the match moved on: a seat token is
    the seat's rights over the match as it stood when issued, and keeps answering about that
    step. Each outcome with a `viewer` brings that viewer a fresh one."""
    move = dealt["legal_moves"][0]
    moved = sealed_client.post(f"{EIGHT}/moves", json={"state": dealt["state"], "move": move,
                                                       "viewer": "ann"}).get_json()
    assert moved["seat_token"] != dealt["seat_token"]
    before = sealed_client.post(f"{EIGHT}/views", json={"seat_token": dealt["seat_token"]})
    after = sealed_client.post(f"{EIGHT}/views", json={"seat_token": moved["seat_token"]})
    assert before.get_json()["view"] == dealt["view"]
    assert after.get_json()["view"] == moved["view"] != dealt["view"]


def test_the_back_end_gets_any_seat_token_from_a_view(sealed_client, dealt):
    for seat in ("bob", "watcher"):
        answer = sealed_client.post(f"{EIGHT}/views", json={"state": dealt["state"],
                                                            "player": seat}).get_json()
        again = sealed_client.post(f"{EIGHT}/views",
                                   json={"seat_token": answer["seat_token"]}).get_json()
        assert again == {k: v for k, v in answer.items() if k != "seat_token"}


# -- spectators and hints ----------------------------------------------------------------------
def test_a_spectator_seat_sees_public_information_and_acts_for_nobody(sealed_client):
    token = create(sealed_client, viewer="watcher")["seat_token"]
    seen = sealed_client.post(f"{EIGHT}/views", json={"seat_token": token}).get_json()
    assert seen["player"] == "watcher" and seen["legal_moves"] == []
    assert "hand" not in seen["view"] or not seen["view"]["hand"]
    listed = sealed_client.post(f"{EIGHT}/legal-moves", json={"seat_token": token}).get_json()
    assert listed["legal_moves"] == []
    for_ann = sealed_client.post(f"{EIGHT}/validations", json={
        "seat_token": token, "move": {"type": "draw", "player": "ann"}})
    assert for_ann.status_code == 403 and code_of(for_ann) == "not_your_seat"
    own = sealed_client.post(f"{EIGHT}/validations", json={
        "seat_token": token, "move": {"type": "draw", "player": "watcher"}}).get_json()
    assert own["legal"] is False and own["code"] == "not_your_turn"


def test_a_seat_token_asks_hints_within_the_table_rule(sealed_client):
    humans = create(sealed_client, game=DICE, viewer="ann")["seat_token"]
    refused = sealed_client.post(f"{DICE}/hints", json={"seat_token": humans, "level": "easy"})
    assert refused.status_code == 403 and code_of(refused) == "hint_not_allowed"
    against_bot = create(sealed_client, game=DICE, viewer="ann", bots=["bob"])["seat_token"]
    # Generala's hint tables are built off a request's path and kept for a few option sets:
    # other tests on this worker may have pushed out the default options' (then the hint
    # would be 503 not_prepared). Prepared here, as a server's warm-up prepares them.
    warm_up({"generala-dice": REGISTRY["generala-dice"]})
    advice = sealed_client.post(f"{DICE}/hints", json={"seat_token": against_bot,
                                                        "level": "easy"})
    assert advice.status_code == 200 and advice.get_json()["move"]["player"] == "ann"
    for_bob = sealed_client.post(f"{DICE}/hints", json={"seat_token": against_bot,
                                                         "level": "easy", "player": "bob"})
    assert code_of(for_bob) == "not_your_seat"
    watcher = create(sealed_client, game=DICE, viewer="watcher", bots=["ann", "bob"])
    response = sealed_client.post(f"{DICE}/hints", json={"seat_token": watcher["seat_token"],
                                                          "level": "easy"})
    assert code_of(response) == "not_your_turn"
