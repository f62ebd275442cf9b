"""Hints over HTTP: the table's rule (bots and a human alone with bots may ask, two humans may
not unless the match allows it), what a hint may be asked for, and that a hint is one of the
player's legal moves, the same every time, from what he sees."""

from __future__ import annotations

import random

import pytest

import referee
from referee.games import REGISTRY
from tests.support import SEALING_KEYS

DICE = "/v1/games/generala-dice"
HINTED = sorted(game_id for game_id, engine in REGISTRY.items() if engine.hint_levels)


def create(client, game="generala-dice", **body):
    answer = client.post(f"/v1/games/{game}/matches",
                         json={"players": ["ann", "bob"], "seed": 5, **body})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def ask(client, state, player="ann", level="hard", game="generala-dice"):
    return client.post(f"/v1/games/{game}/hints",
                       json={"state": state, "player": player, "level": level})


def test_two_humans_get_no_hint_unless_the_match_allows_it(client):
    humans = create(client)
    refused = ask(client, humans["state"])
    assert refused.status_code == 403 and refused.get_json()["code"] == "hint_not_allowed"
    allowed = create(client, hints_allowed=True)
    assert ask(client, allowed["state"]).status_code == 200


def test_a_human_alone_against_bots_and_every_bot_may_ask(client):
    against_a_bot = create(client, bots=["bob"])
    assert against_a_bot["state"]["seating"] == {"bots": ["bob"], "hints_allowed": False}
    assert ask(client, against_a_bot["state"], "ann").status_code == 200
    three = client.post(f"{DICE}/matches", json={"players": ["ann", "bob", "cpu"],
                                                 "bots": ["cpu"], "seed": 5}).get_json()
    assert ask(client, three["state"], "ann").get_json()["code"] == "hint_not_allowed"
    # The bot's turn comes after the two humans': play them through.
    state = three["state"]
    for player in ("ann", "bob"):
        state = client.post(f"{DICE}/moves", json={"state": state, "move": {
            "type": "roll", "player": player, "keep": []}}).get_json()["state"]
        state = client.post(f"{DICE}/moves", json={"state": state, "move": {
            "type": "score", "player": player, "box": "ones"}}).get_json()["state"]
    assert ask(client, state, "cpu").status_code == 200


@pytest.mark.parametrize("body,status,code", [
    ({"player": "bob"}, 409, "not_your_turn"),
    ({"player": "zed"}, 409, "not_your_turn"),
    ({"level": "grandmaster"}, 422, "validation_error"),
    ({"level": ""}, 422, "validation_error"),
], ids=["not his turn", "a spectator", "an unknown level", "an empty level"])
def test_a_hint_is_refused_when_there_is_nothing_to_advise(client, body, status, code):
    state = create(client, hints_allowed=True)["state"]
    answer = client.post(f"{DICE}/hints", json={"state": state, "player": "ann", "level": "hard",
                                                **body})
    assert answer.status_code == status and answer.get_json()["code"] == code


def test_a_finished_match_has_no_hint(client):
    state = create(client, hints_allowed=True, options={"turn_seconds": 0})["state"]
    for _ in range(22):
        turn = client.post(f"{DICE}/legal-moves", json={"state": state}).get_json()
        player = turn["to_act"][0]
        hinted = ask(client, state, player, "easy").get_json()
        state = client.post(f"{DICE}/moves", json={"state": state, "move": hinted["move"]}
                            ).get_json()["state"]
        if client.post(f"{DICE}/legal-moves", json={"state": state}).get_json()["status"] == "finished":
            break
        # the second move of the turn: score after a roll, or roll again
        hinted = ask(client, state, player, "easy").get_json()
        while hinted["move"]["type"] == "roll":
            state = client.post(f"{DICE}/moves", json={"state": state, "move": hinted["move"]}
                                ).get_json()["state"]
            hinted = ask(client, state, player, "easy").get_json()
        state = client.post(f"{DICE}/moves", json={"state": state, "move": hinted["move"]}
                            ).get_json()["state"]
    over = ask(client, state, "ann")
    assert over.status_code == 409 and over.get_json()["code"] == "game_over"


def test_creation_refuses_a_bot_who_is_not_a_player(client):
    answer = client.post(f"{DICE}/matches", json={"players": ["ann", "bob"], "bots": ["cpu"]})
    assert answer.status_code == 422 and "bots" in answer.get_json()["errors"]


@pytest.mark.parametrize("seating,problem", [
    ({"bots": ["cpu"], "hints_allowed": False}, "seating: the bot 'cpu' is not a player"),
    ({"bots": []}, "seating.hints_allowed: missing"),
    ({"bots": [], "hints_allowed": False, "extra": 1}, "seating.extra: unknown field"),
    ("all", "seating: must be an object"),
], ids=["a stranger as bot", "a field missing", "an unknown field", "not an object"])
def test_a_posted_seating_is_checked_like_the_state(client, seating, problem):
    state = {**create(client)["state"], "seating": seating}
    answer = client.post(f"{DICE}/legal-moves", json={"state": state})
    assert answer.status_code == 422 and answer.get_json()["code"] == "invalid_state"
    assert problem in answer.get_json()["problems"]
    missing = {k: v for k, v in create(client)["state"].items() if k != "seating"}
    answer = client.post(f"{DICE}/legal-moves", json={"state": missing})
    assert answer.get_json()["problems"] == ["seating: missing"]


@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
def test_the_seating_survives_every_move(sealed):
    app = referee.create_app({"STATE_KEYS": SEALING_KEYS if sealed else []})
    client = app.test_client()
    state = create(client, bots=["bob"])["state"]
    for _ in range(6):
        moves = client.post(f"{DICE}/legal-moves", json={"state": state}).get_json()
        state = client.post(f"{DICE}/moves", json={"state": state,
                                                   "move": moves["legal_moves"][0]}
                            ).get_json()["state"]
        seating = app.extensions["referee"].codec.load_match(
            REGISTRY["generala-dice"], state).seating
        assert seating.bots == ("bob",) and not seating.hints_allowed


@pytest.mark.parametrize("game_id", HINTED)
def test_every_hint_is_a_legal_move_and_the_same_every_time(game_id, sealed_client):
    engine = REGISTRY[game_id]
    players = [f"p{i}" for i in range(engine.min_players)]
    body = sealed_client.post(f"/v1/games/{game_id}/matches", json={
        "players": players, "bots": players, "seed": 9,
        "options": engine.playout_options}).get_json()
    pick = random.Random(game_id)
    for step in range(60):
        if body["status"] == "finished":
            break
        player = body["to_act"][0]
        level = engine.hint_levels[step % len(engine.hint_levels)]
        first = ask(sealed_client, body["state"], player, level, game_id)
        assert first.status_code == 200, first.get_json()
        advice = first.get_json()
        mine = sealed_client.post(f"/v1/games/{game_id}/legal-moves", json={
            "state": body["state"], "player": player}).get_json()["legal_moves"]
        assert advice["move"] in mine
        assert all(alt["move"] in mine for alt in advice["alternatives"])
        # Asked again, with a token of the same state sealed anew, the same answer.
        codec = sealed_client.application.extensions["referee"].codec
        resealed = codec.dump(engine, codec.load_match(engine, body["state"]))
        assert resealed != body["state"]
        again = ask(sealed_client, resealed, player, level, game_id).get_json()
        assert again == advice
        move = advice["move"] if pick.random() < 0.8 else pick.choice(mine)
        body = sealed_client.post(f"/v1/games/{game_id}/moves", json={
            "state": body["state"], "move": move}).get_json()


@pytest.mark.parametrize("level", REGISTRY["generala-dice"].hint_levels)
def test_a_dice_hint_does_not_depend_on_what_the_player_cannot_see(client, level):
    """Two states that differ only in the seed and the random step (the dice not yet rolled)
    give the same hint."""
    body = create(client, hints_allowed=True, options={"turn_seconds": 0})
    state = client.post(f"{DICE}/moves", json={"state": body["state"], "move": {
        "type": "roll", "player": "ann", "keep": []}}).get_json()["state"]
    other = {**state, "seed": "another secret", "step": state["step"] + 17}
    first, second = ask(client, state, level=level), ask(client, other, level=level)
    assert first.status_code == second.status_code == 200
    assert first.get_json() == second.get_json()
