"""Contributed seeds over HTTP (docs/FAIRNESS.md, "Contributions"): a committed server seed
first, contributions at creation or before a player's first chance event, each refusal a
documented problem that changes nothing, and the finished outcome revealing them all."""

from __future__ import annotations

import pytest

from referee.core import contributions, rng
from referee.games import REGISTRY
from referee.games.generala_dice.engine import DiceSheetGame

DICE = "/v1/games/generala-dice"


def committed(client, game=DICE):
    answer = client.post(f"{game}/seeds", json={})
    assert answer.status_code == 201
    return answer.get_json()


def create(client, game=DICE, **body):
    return client.post(f"{game}/matches", json={"players": ["ann", "bob"], **body})


def contribute(client, state, player, seed, game=DICE):
    return client.post(f"{game}/contributions",
                       json={"state": state, "player": player, "seed": seed})


def problem(answer, status, code):
    assert answer.status_code == status, answer.get_json()
    assert answer.mimetype == "application/problem+json"
    assert answer.get_json()["code"] == code


@pytest.mark.parametrize("mode", ["client", "sealed_client"])
def test_the_match_bears_the_commitment_shown_before_the_contributions(mode, request):
    client = request.getfixturevalue(mode)
    seed = committed(client)
    created = create(client, seed_token=seed["seed_token"],
                     contributions=[{"seed": "back end"}, {"player": "ann", "seed": "mine"}])
    assert created.status_code == 201
    assert created.get_json()["seed_commitment"] == seed["seed_commitment"]


def test_contributions_change_every_draw_and_the_key_is_the_documented_chain(client):
    token = committed(client)["seed_token"]  # open mode: the token is the seed itself
    plain = create(client, seed_token=token).get_json()
    mixed = create(client, seed_token=token, contributions=[{"seed": "s1"},
                                                            {"player": "bob", "seed": "s2"}])
    state = mixed.get_json()["state"]
    assert state["fairness"] == {"seed": token, "contributions": [
        {"player": None, "seed": "s1", "step": 0}, {"player": "bob", "seed": "s2", "step": 0}]}
    assert state["seed"] == contributions.key(token, ["s1", "s2"]) != plain["state"]["seed"]
    assert plain["state"]["fairness"] is None
    roll = {"type": "roll", "player": "ann"}
    rolled = client.post(f"{DICE}/moves", json={"state": state, "move": roll}).get_json()
    chance = rolled["events"][0]["chance"]
    assert chance["contributions"] == 2
    key = contributions.key(token, ["s1", "s2"])
    assert rolled["events"][0]["rolled"] == list(rng.stream(key, chance["step"]).dice(5))
    unmixed = client.post(f"{DICE}/moves", json={"state": plain["state"], "move": roll})
    assert "contributions" not in unmixed.get_json()["events"][0]["chance"]


def test_a_player_adds_his_seed_before_his_first_roll_and_not_after(client):
    state = create(client, seed_token=committed(client)["seed_token"]).get_json()["state"]
    answer = contribute(client, state, "bob", "bob's own")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["contribution"] == {"player": "bob", "step": 0}
    assert body["seed_commitment"] == rng.commitment(state["seed"])
    assert body["state"]["seed"] == contributions.mix(state["seed"], "bob's own")
    problem(contribute(client, body["state"], "bob", "again"), 409,
            "contribution_already_made")
    roll = {"type": "roll", "player": "ann"}
    after = client.post(f"{DICE}/moves", json={"state": state, "move": roll}).get_json()
    problem(contribute(client, after["state"], "ann", "too late"), 409,
            "contribution_too_late")
    # bob has not rolled yet: his seed still comes in time, from the current step on.
    late = contribute(client, after["state"], "bob", "bob's own").get_json()
    assert late["contribution"] == {"player": "bob", "step": 1}


def test_the_finished_outcome_reveals_the_seed_and_every_contribution(client):
    seed = committed(client)
    state = create(client, seed_token=seed["seed_token"],
                   contributions=[{"player": "ann", "seed": "a"}]).get_json()["state"]
    state = contribute(client, state, "bob", "b").get_json()["state"]
    outcome = {"status": "in_progress", "state": state}
    while outcome["status"] != "finished":
        assert "contributions" not in outcome and "seed" not in outcome
        move = next(m for m in outcome.get("legal_moves", [{"type": "roll", "player": "ann"}])
                    if m["type"] in ("roll", "score"))
        outcome = client.post(f"{DICE}/moves", json={"state": outcome["state"],
                                                     "move": move}).get_json()
    assert outcome["seed"] == seed["seed_token"]
    assert rng.commitment(outcome["seed"]) == seed["seed_commitment"]
    assert outcome["contributions"] == [{"player": "ann", "seed": "a", "step": 0},
                                        {"player": "bob", "seed": "b", "step": 0}]


@pytest.mark.parametrize("game_id", sorted(game_id for game_id, engine in REGISTRY.items()
                                            if not isinstance(engine, DiceSheetGame)))
def test_in_the_card_games_the_deal_at_creation_closes_every_contribution(client, game_id):
    engine = REGISTRY[game_id]
    players = [f"p{i}" for i in range(engine.min_players)]
    base = f"/v1/games/{game_id}"
    token = client.post(f"{base}/seeds", json={}).get_json()["seed_token"]
    created = client.post(f"{base}/matches", json={
        "players": players, "seed_token": token,
        "contributions": [{"player": p, "seed": p} for p in players]}).get_json()
    dealt = [e for e in created["events"] if "chance" in e]
    assert dealt and all(e["chance"]["contributions"] == len(players) for e in dealt)
    plain = client.post(f"{base}/matches", json={"players": players, "seed_token": token})
    assert [e for e in plain.get_json()["events"] if "chance" in e] != dealt
    problem(contribute(client, plain.get_json()["state"], players[0], "late", base), 409,
            "contribution_too_late")


def test_contributions_without_a_committed_seed_are_refused(client):
    problem(create(client, contributions=[{"seed": "x"}]), 422, "seed_token_required")
    # The caller's own seed is committed too (but is no secret to him): accepted.
    assert create(client, seed="mine", contributions=[{"seed": "x"}]).status_code == 201


@pytest.mark.parametrize("body,field", [
    ({"seed": "s", "seed_token": "t"}, "seed_token"),
    ({"seed_token": "t", "contributions": [{"seed": "a"}, {"seed": "b"}]}, "contributions"),
    ({"seed_token": "t", "contributions": [{"player": "cleo", "seed": "a"}]}, "contributions"),
    ({"seed_token": "t", "contributions": [{"player": "ann", "seed": ""}]}, "contributions"),
    ({"seed_token": "t", "contributions": [{"player": "ann", "seed": "x" * 129}]},
     "contributions"),
])
def test_bad_creation_seeds_are_validation_errors(client, body, field):
    answer = create(client, **body)
    problem(answer, 422, "validation_error")
    assert field in answer.get_json()["errors"]


def test_bad_contribution_requests_are_refused_and_change_nothing(client):
    state = create(client, seed_token="t").get_json()["state"]
    problem(contribute(client, state, "cleo", "x"), 422, "validation_error")
    problem(client.post(f"{DICE}/contributions", json={"state": state, "seed": "x"}), 422,
            "validation_error")
    problem(client.post(f"{DICE}/seeds", json={"anything": 1}), 422, "validation_error")
    forged = {**state, "seed": "chosen"}  # an open state whose key is not its seeds'
    forged["fairness"] = {"seed": "t", "contributions": [
        {"player": "ann", "seed": "a", "step": 0}]}
    problem(contribute(client, forged, "bob", "x"), 422, "invalid_state")
    missing = {k: v for k, v in state.items() if k != "fairness"}
    problem(contribute(client, missing, "bob", "x"), 422, "invalid_state")


def test_a_sealed_seed_token_hides_the_seed_and_serves_its_own_game_only(sealed_client):
    seed = committed(sealed_client)
    token = seed["seed_token"]
    assert token.startswith("v3.")
    created = create(sealed_client, seed_token=token).get_json()
    assert created["seed_commitment"] == seed["seed_commitment"]
    assert "seed" not in created and isinstance(created["state"], str)
    problem(sealed_client.post("/v1/games/empereur/matches", json={
        "players": ["a", "b", "c"], "seed_token": token}), 422, "tampered_seed_token")
    # The last two characters carry the tag's last byte: replaced by another, never by the
    # same (a token ending in "AA" stays itself one time in 256).
    spoiled = token[:-2] + ("QA" if token.endswith("AA") else "AA")
    assert spoiled != token
    problem(create(sealed_client, seed_token=spoiled), 422, "tampered_seed_token")
    # A state token is no seed token, and a seed token is no state.
    problem(create(sealed_client, seed_token=created["state"]), 422, "tampered_seed_token")
    problem(contribute(sealed_client, token, "ann", "x"), 422, "tampered_state")


def test_a_sealed_contribution_is_bound_to_its_match(sealed_client):
    token = committed(sealed_client)["seed_token"]
    one = create(sealed_client, seed_token=token).get_json()["state"]
    other = create(sealed_client, seed_token=token).get_json()["state"]
    mine = contribute(sealed_client, one, "bob", "bob's").get_json()["state"]
    # The new state is sealed: it serves the match it came from and no other game.
    problem(sealed_client.post("/v1/games/empereur/contributions", json={
        "state": mine, "player": "bob", "seed": "x"}), 422, "tampered_state")
    problem(contribute(sealed_client, mine, "bob", "again"), 409, "contribution_already_made")
    # The other match from the same token did not receive it.
    assert contribute(sealed_client, other, "bob", "bob's").status_code == 200
    seat = sealed_client.post(f"{DICE}/views", json={"state": one, "player": "bob"})
    problem(contribute(sealed_client, seat.get_json()["seat_token"], "bob", "x"), 403,
            "seat_token_not_allowed")
