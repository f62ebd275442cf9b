"""Whole matches through HTTP: outcomes, fairness, the turn clock, dry runs, views, viewers."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from referee.core import dice as dice_source
from referee.core.playout import random_move
from referee.games import REGISTRY

DICE = "/v1/games/generala-dice"
OUTCOME_KEYS = {"state", "status", "to_act", "legal_moves", "scores", "events", "seed_commitment"}


def create(client, game="generala-dice", players=("ann", "bob"), **extra):
    body = {"players": list(players), **extra}
    response = client.post(f"/v1/games/{game}/matches", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def post(client, game, state, move, **extra):
    response = client.post(f"/v1/games/{game}/moves", json={"state": state, "move": move, **extra})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def play_out(client, game, outcome, pick, limit=20_000, **extra):
    engine = REGISTRY[game]
    for _ in range(limit):
        if outcome["status"] == "finished":
            return outcome
        assert outcome["legal_moves"], "a match in progress offers legal moves"
        move = random_move(engine, outcome["legal_moves"], pick)
        outcome = post(client, game, outcome["state"], move, **extra)
    raise AssertionError("the match did not end")


def test_creation_answers_a_full_outcome_with_a_seed_commitment(client):
    outcome = create(client, seed="table-7")
    assert OUTCOME_KEYS <= set(outcome)
    assert outcome["status"] == "in_progress" and outcome["to_act"] == ["ann"]
    assert outcome["seed_commitment"] == hashlib.sha256(b"table-7").hexdigest()
    assert "seed" not in outcome
    assert outcome["events"][0]["type"] == "match_created"
    assert set(outcome["scores"]["players"]) == {"ann", "bob"}
    assert all(p["total"] == 0 for p in outcome["scores"]["players"].values())


def test_a_finished_match_reveals_the_seed_and_every_roll_can_be_replayed(client):
    pick = random.Random(5)
    outcome = create(client, seed="replay-me", options={"turn_seconds": 0})
    commitment = outcome["seed_commitment"]
    rolls = []
    while outcome["status"] != "finished":
        step = outcome["state"]["step"]
        outcome = post(client, "generala-dice", outcome["state"], pick.choice(outcome["legal_moves"]))
        rolls += [(step, e["rolled"]) for e in outcome["events"] if e["type"] == "dice_rolled"]
    assert hashlib.sha256(outcome["seed"].encode()).hexdigest() == commitment
    for step, rolled in rolls:
        assert list(dice_source.roll(outcome["seed"], step, len(rolled))) == rolled
    assert outcome["scores"]["winners"]
    assert any(e["type"] == "game_finished" for e in outcome["events"])


def test_posting_the_same_state_twice_cannot_reroll_the_dice(client):
    outcome = create(client)
    move = {"type": "roll", "player": "ann", "keep": []}
    first = post(client, "generala-dice", outcome["state"], move)
    second = post(client, "generala-dice", outcome["state"], move)
    assert first["state"]["dice"] == second["state"]["dice"]


def test_the_same_seed_gives_the_same_match(client):
    a = create(client, seed=99)
    b = create(client, seed=99)
    move = {"type": "roll", "player": "ann", "keep": []}
    assert post(client, "generala-dice", a["state"], move)["state"]["dice"] == \
        post(client, "generala-dice", b["state"], move)["state"]["dice"]


def test_without_a_seed_each_match_gets_a_secret_one(client):
    assert create(client)["seed_commitment"] != create(client)["seed_commitment"]


def test_after_the_deadline_any_player_may_post_timeout(client, clock):
    outcome = create(client, options={"turn_seconds": 45})
    assert all(m["type"] != "timeout" for m in outcome["legal_moves"])
    clock.now += 46
    listed = client.post(f"{DICE}/legal-moves", json={"state": outcome["state"]}).get_json()
    assert {"type": "timeout", "player": "bob"} in listed["legal_moves"]
    after = post(client, "generala-dice", outcome["state"], {"type": "timeout", "player": "bob"})
    kinds = [e["type"] for e in after["events"]]
    assert kinds[:3] == ["timeout", "dice_rolled", "box_scored"]
    assert after["to_act"] == ["bob"]
    assert after["state"]["deadline"] == clock.now + 45


def test_the_dry_run_says_legal_or_why_not_and_reveals_no_roll(client):
    outcome = create(client)
    yes = client.post(f"{DICE}/validations", json={
        "state": outcome["state"], "move": {"type": "roll", "player": "ann", "keep": []}})
    assert yes.get_json() == {"legal": True}
    no = client.post(f"{DICE}/validations", json={
        "state": outcome["state"], "move": {"type": "roll", "player": "bob", "keep": []}})
    assert no.get_json()["legal"] is False and no.get_json()["code"] == "not_your_turn"
    bad = client.post(f"{DICE}/validations", json={
        "state": outcome["state"], "move": {"type": "roll", "player": "ann", "keep": "x"}})
    # A move that does not fit its schema is a bad request, as it is when posted.
    assert bad.status_code == 422 and bad.get_json()["code"] == "validation_error"
    assert "keep" in bad.get_json()["errors"]["move"]
    rule = client.post(f"{DICE}/validations", json={
        "state": outcome["state"], "move": {"type": "score", "player": "ann", "box": "full"}})
    assert rule.get_json()["rule"] == "roll_before_scoring"


def test_legal_moves_for_one_player_and_the_view_endpoint(client):
    outcome = create(client)
    listed = client.post(f"{DICE}/legal-moves", json={"state": outcome["state"], "player": "bob"})
    assert listed.get_json()["legal_moves"] == []
    view = client.post(f"{DICE}/views", json={"state": outcome["state"], "player": "ann"}).get_json()
    assert view["player"] == "ann" and view["legal_moves"] == outcome["legal_moves"]
    assert "seed" not in json.dumps(view["view"])


def test_anyone_not_seated_is_a_spectator_who_sees_public_information_and_has_no_moves(client):
    outcome = client.post("/v1/games/huit-americain/matches",
                          json={"players": ["ann", "bob"], "seed": 3, "viewer": "zed"})
    assert outcome.status_code == 201
    body = outcome.get_json()
    assert body["view"]["you"] == "zed" and body["view"]["hand"] == []
    assert body["legal_moves"] == []
    dealt = [e for e in body["events"] if e["type"] == "cards_dealt"]
    assert dealt and all("cards" not in e for e in dealt)
    state = client.post("/v1/games/huit-americain/matches",
                        json={"players": ["ann", "bob"], "seed": 3}).get_json()["state"]
    view = client.post("/v1/games/huit-americain/views", json={"state": state, "player": "zed"})
    assert view.status_code == 200
    assert view.get_json()["view"]["hand"] == [] and view.get_json()["legal_moves"] == []
    assert view.get_json()["view"]["hand_counts"] == {"ann": 10, "bob": 10}
    listed = client.post("/v1/games/huit-americain/legal-moves",
                         json={"state": state, "player": "zed"})
    assert listed.status_code == 200 and listed.get_json()["legal_moves"] == []


def test_a_viewer_sees_only_his_own_legal_moves_and_a_view(client):
    outcome = create(client, viewer="bob")
    assert outcome["legal_moves"] == [] and outcome["view"]["you"] == "bob"
    after = post(client, "generala-dice", outcome["state"],
                 {"type": "roll", "player": "ann", "keep": []}, viewer="ann")
    assert after["legal_moves"] and all(m["player"] == "ann" for m in after["legal_moves"])


# The most seats a random match is played at: five, unless a game's random matches run too long
# to play over HTTP. L'Empereur's random players draw and pass for ever more moves from four
# seats on: with its playout options, of 300 seeded matches at two to five seats the longest
# 1 % ran past 17,000 moves and one past this test's 20,000, where at three seats the longest
# of 400 took 1,382 moves and at two 104. Played with random seeds (outside CI), four or five
# seats now and then failed this test, after minutes of shrinking.
MOST_SEATS = {"empereur": 3}


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
@given(seed=st.integers(0, 2**31))
# The client fixture holds no state between requests (the referee keeps none), so sharing it
# across generated examples is safe.
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_whole_matches_through_http_end_with_winners(client, game_id, seed):
    engine = REGISTRY[game_id]
    pick = random.Random(seed)
    most = min(engine.max_players, MOST_SEATS.get(game_id, 5))
    players = [f"p{i}" for i in range(pick.randint(engine.min_players, most))]
    outcome = create(client, game_id, players, seed=seed, options=engine.playout_options)
    final = play_out(client, game_id, outcome, pick)
    assert final["scores"]["winners"] and final["legal_moves"] == [] and final["to_act"] == []
    refused = client.post(f"/v1/games/{game_id}/moves", json={
        "state": final["state"], "move": {"type": engine.move_types[0].type, "player": players[0]}})
    assert refused.status_code in (409, 422)


def test_the_dry_run_says_a_punished_move_is_not_legal(client):
    outcome = create(client, "huit-americain", ("ann", "bob"), seed=3,
                     options={"draw_penalty_on_error": True})
    waiting = [p for p in ("ann", "bob") if p not in outcome["to_act"]][0]
    move = {"type": "pass", "player": waiting}
    verdict = client.post("/v1/games/huit-americain/validations",
                          json={"state": outcome["state"], "move": move}).get_json()
    assert verdict["legal"] is False and verdict["penalty"] is True
    assert verdict["code"] == "not_your_turn"
    posted = post(client, "huit-americain", outcome["state"], move)
    assert any(e["type"] == "penalty" for e in posted["events"])


def test_creation_publishes_the_first_dealer_draw_and_deals_privately(client):
    outcome = create(client, "empereur", ("ann", "bob", "cy"), seed=3, viewer="ann")
    kinds = [e["type"] for e in outcome["events"]]
    assert kinds[0] == "match_created" and "dealer_draw" in kinds
    dealt = {e["player"]: e for e in outcome["events"] if e["type"] == "hand_dealt"}
    assert set(dealt) == {"ann", "bob", "cy"}
    assert len(dealt["ann"]["cards"]) == 7 and "cards" not in dealt["bob"]
    again = create(client, "empereur", ("ann", "bob", "cy"), seed=3)
    assert [e for e in again["events"] if e["type"] == "dealer_draw"] == \
        [e for e in outcome["events"] if e["type"] == "dealer_draw"]


def test_creation_announces_the_first_deal_of_generala_cards(client):
    outcome = create(client, "generala-cards", ("ann", "bob", "cy"), seed=4, viewer="bob")
    dealt = [e for e in outcome["events"] if e["type"] == "deal_dealt"]
    assert len(dealt) == 1 and dealt[0]["deal"] == 1
    assert sum(dealt[0]["cards"].values()) == 54
    hands = {e["player"]: e for e in outcome["events"] if e["type"] == "cards_dealt"}
    assert len(hands["bob"]["cards"]) == hands["bob"]["count"]
    assert "cards" not in hands["ann"] and "cards" not in hands["cy"]


def test_creation_announces_the_first_deal_of_huit_americain(client):
    outcome = create(client, "huit-americain", ("ann", "bob"), seed=6, viewer="ann")
    started = [e for e in outcome["events"] if e["type"] == "round_started"]
    assert len(started) == 1 and started[0]["top"] == outcome["view"]["top"]
    hands = {e["player"]: e for e in outcome["events"] if e["type"] == "cards_dealt"}
    assert sorted(hands["ann"]["cards"]) == sorted(outcome["view"]["hand"])
    assert "cards" not in hands["bob"]
