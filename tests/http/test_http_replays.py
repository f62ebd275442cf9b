"""Replays (`/replays`): a whole match in one request answers what posting its moves one by
one answers: the same final outcome, or, at the first move refused, the same problem with
that move's index and the outcome reached before it. Bounded in moves and bytes, checked as
any request, and in sealed mode it reveals no more than the moves posted one by one would."""

from __future__ import annotations

import copy
import json
import random

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.http import metrics
from tests.support import ROOT, SEALING_KEYS

START = 1_000_000.0
MAX_MOVES = 400  # a random match of two players at these options ends well before


def creation_of(game: str, seed: str) -> dict:
    return {"players": ["ann", "bob"], "seed": seed}


def played_one_by_one(client, clock, game: str, creation: dict, moves: list[dict],
                      instants: list[float]):
    """Each move posted on the state the last answer gave, at its instant: the answers up to
    the first refusal, and that refusal (or None)."""
    clock.now = START
    answer = client.post(f"/v1/games/{game}/matches", json=creation)
    assert answer.status_code == 201
    answers = [answer.get_json()]
    for move, at in zip(moves, instants):
        clock.now = at
        answer = client.post(f"/v1/games/{game}/moves",
                             json={"state": answers[-1]["state"], "move": move})
        if answer.status_code != 200:
            return answers, answer
        answers.append(answer.get_json())
    return answers, None


def random_match(client, clock, game: str, rnd: random.Random):
    """A random whole match (at most MAX_MOVES moves), with its moves' instants: now and then
    a long pause, so that a turn's clock may run out and a timeout be claimed."""
    engine = REGISTRY[game]
    creation = creation_of(game, str(rnd.randrange(10**6)))
    clock.now = START
    outcome = client.post(f"/v1/games/{game}/matches", json=creation).get_json()
    moves, instants, now = [], [], START
    while outcome["status"] != "finished" and len(moves) < MAX_MOVES:
        now += rnd.choice((0, 1, 5, 200)) if rnd.random() < 0.1 else 0
        clock.now = now
        legal = client.post(f"/v1/games/{game}/legal-moves",
                            json={"state": outcome["state"]}).get_json()["legal_moves"]
        move = random_move(engine, legal, rnd)
        outcome = client.post(f"/v1/games/{game}/moves",
                              json={"state": outcome["state"], "move": move}).get_json()
        moves.append(move)
        instants.append(now)
    return creation, moves, instants


def altered(move: dict, other: dict, how: int) -> dict:
    """The move changed: made by someone else, replaced by another move of the match, given a
    field of the wrong type, or of a type the game does not have."""
    changed = copy.deepcopy(move)
    if how == 0:
        changed["player"] = "bob" if move["player"] == "ann" else "ann"
    elif how == 1:
        changed = copy.deepcopy(other)
    elif how == 2:
        changed["player"] = 7
    else:
        changed["type"] = "no_such_move"
    return changed


def without_result(answer: dict) -> dict:
    """A replay's answer less its `result`, which it has exactly when the match finished
    (tests/http/test_http_signed_results.py checks it)."""
    assert ("result" in answer) == (answer["status"] == "finished")
    return {k: v for k, v in answer.items() if k != "result"}


def standing_at(client, game: str, answer: dict, viewer: str | None = None) -> dict:
    """`answer` with who acts and the legal moves as `/legal-moves` gives them for its state
    (to `viewer`, when named) by the clock as it is now: where a replay's answer says the
    match stands."""
    asked = {"state": answer["state"], **({"player": viewer} if viewer else {})}
    now = client.post(f"/v1/games/{game}/legal-moves", json=asked)
    return {**answer, "to_act": now.get_json()["to_act"],
            "legal_moves": now.get_json()["legal_moves"]}


def replayed(client, clock, game, creation, moves, instants):
    clock.now = instants[-1] if instants else START
    return client.post(f"/v1/games/{game}/replays", json={
        "creation": creation, "created_at": START,
        "moves": [{"move": m, "at": at} for m, at in zip(moves, instants)]})


@pytest.mark.parametrize("game", sorted(REGISTRY))
@settings(max_examples=3, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), where=st.floats(0, 1), how=st.integers(0, 3))
def test_a_replay_answers_what_posting_the_moves_one_by_one_answers(client, clock, game, seed,
                                                                    where, how):
    rnd = random.Random(seed)
    creation, moves, instants = random_match(client, clock, game, rnd)

    answers, refusal = played_one_by_one(client, clock, game, creation, moves, instants)
    assert refusal is None
    whole = replayed(client, clock, game, creation, moves, instants)
    assert whole.status_code == 200, whole.get_json()
    assert without_result(whole.get_json()) == {**answers[-1], "moves_applied": len(moves)}

    # One move altered: the replay refuses where posting them one by one first refuses,
    # with the same problem, and answers the outcome reached before it.
    index = min(int(where * len(moves)), len(moves) - 1)
    changed = [*moves[:index], altered(moves[index], moves[(index + 1) % len(moves)], how),
               *moves[index + 1:]]
    answers, refusal = played_one_by_one(client, clock, game, creation, changed, instants)
    answer = replayed(client, clock, game, creation, changed, instants)
    if refusal is None:  # the altered move happened to be legal, and every one after it
        assert answer.status_code == 200
        assert without_result(answer.get_json()) == {**answers[-1],
                                                      "moves_applied": len(moves)}
        return
    problem = answer.get_json()
    assert answer.status_code == refusal.status_code
    assert answer.mimetype == "application/problem+json"
    refused_at = len(answers) - 1
    assert problem.pop("move_index") == refused_at >= index
    assert problem.pop("reached") == {**standing_at(client, game, answers[-1]),
                                      "moves_applied": refused_at}
    assert problem == refusal.get_json()


def moves_counted() -> float:
    return metrics.MOVES.labels("generala-dice")._value.get()


def test_a_move_that_does_not_fit_its_type_is_refused_at_its_index(client):
    creation = creation_of("generala-dice", "s")
    roll = {"type": "roll", "player": "ann"}
    counted = moves_counted()
    answer = client.post("/v1/games/generala-dice/replays", json={
        "creation": creation, "moves": [{"move": roll}, {"move": {**roll, "keep": "x"}}]})
    problem = answer.get_json()
    assert answer.status_code == 422
    assert problem["code"] == "validation_error" and problem["move_index"] == 1
    assert "move" in problem["errors"]
    assert problem["reached"]["moves_applied"] == 1
    assert moves_counted() == counted + 1  # the metrics count the moves applied


def test_instants_never_go_back_nor_pass_the_clock(client, clock):
    roll = {"type": "roll", "player": "ann"}
    body = {"creation": creation_of("generala-dice", "s"), "created_at": clock.now - 10}
    for moves in ([{"move": roll, "at": clock.now - 20}], [{"move": roll, "at": clock.now + 1}]):
        answer = client.post("/v1/games/generala-dice/replays", json={**body, "moves": moves})
        assert answer.status_code == 422
        assert answer.get_json()["errors"]["moves"]["0"]["at"]
    future = client.post("/v1/games/generala-dice/replays",
                         json={**body, "created_at": clock.now + 1, "moves": []})
    assert future.status_code == 422 and "created_at" in future.get_json()["errors"]


@pytest.mark.parametrize("instant", [10**309, 2**1024, 10**400], ids=["1e309", "2^1024", "1e400"])
def test_an_instant_past_a_float_s_range_is_refused_not_a_failure(client, instant):
    """A whole number too large for a float is no instant: 422 as 1e308 gets, not a 500."""
    for body in ({"created_at": instant, "moves": []},
                 {"moves": [{"move": {"type": "roll", "player": "ann"}, "at": instant}]}):
        answer = client.post("/v1/games/generala-dice/replays", data=json.dumps(
            {"creation": creation_of("generala-dice", "s"), **body}),
            content_type="application/json")
        assert answer.status_code == 422, answer.get_data(as_text=True)
        assert answer.get_json()["code"] == "validation_error"


def test_a_replay_is_bounded_in_moves_and_bytes(clock):
    app = referee.create_app({"CLOCK": clock, "STATE_KEYS": [], "MAX_REPLAY_MOVES": 3,
                              "MAX_BODY_BYTES": 2000, "REQUEST_LOG": False})
    client = app.test_client()
    roll = {"move": {"type": "roll", "player": "ann"}}
    body = {"creation": creation_of("generala-dice", "s")}
    too_many = client.post("/v1/games/generala-dice/replays", json={**body, "moves": [roll] * 4})
    assert too_many.status_code == 422 and "moves" in too_many.get_json()["errors"]
    too_big = client.post("/v1/games/generala-dice/replays",
                          json={**body, "moves": [{"move": {**roll["move"], "x": "y" * 3000}}]})
    assert too_big.status_code == 413


@pytest.mark.parametrize("move", ["x", 1, True, [], None], ids=repr)
def test_a_move_that_is_not_an_object_is_refused_at_its_index_as_posting_it_is(client, move):
    creation = creation_of("yacht", "s")
    roll = {"type": "roll", "player": "ann", "keep": []}
    answer = client.post("/v1/games/yacht/replays", json={
        "creation": creation, "moves": [{"move": roll}, {"move": move}]})
    problem = answer.get_json()
    assert answer.status_code == 422 and problem.pop("move_index") == 1
    reached = problem.pop("reached")
    posted = client.post("/v1/games/yacht/moves", json={"state": reached["state"], "move": move})
    assert posted.status_code == 422 and problem == posted.get_json()


def test_a_replay_answers_where_the_match_stands_by_the_referee_s_clock(clock):
    """Moves made long ago: who acts, the legal moves and the seat token's life are the
    referee's clock's, as any request about the returned state would have them (a turn's
    clock ran out since: only timeouts can be posted), not the last move's instant's."""
    client = referee.create_app({"CLOCK": clock, "STATE_KEYS": list(SEALING_KEYS),
                                 "REQUEST_LOG": False}).test_client()
    creation = {"players": ["ann", "bob"], "seed": "stale", "options": {"turn_seconds": 45}}
    answer = client.post("/v1/games/generala-dice/replays", json={
        "creation": creation, "created_at": clock.now - 100_000,
        "moves": [{"move": {"type": "roll", "player": "ann", "keep": []}}],
        "viewer": "ann", "seat_token_ttl": 3600}).get_json()
    assert answer["legal_moves"] and {m["type"] for m in answer["legal_moves"]} == {"timeout"}
    assert answer == standing_at(client, "generala-dice", answer, "ann")
    view = client.post("/v1/games/generala-dice/views",
                       json={"seat_token": answer["seat_token"]})
    assert view.status_code == 200, view.get_json()
    posted = client.post("/v1/games/generala-dice/moves",
                         json={"state": answer["state"], "move": answer["legal_moves"][0]})
    assert posted.status_code == 200, posted.get_json()


def test_the_served_contract_states_the_replay_bound_the_server_keeps(clock):
    """A bound raised by REFEREE_MAX_REPLAY_MOVES is the one the served contract declares,
    so a client generated or validating from it takes what the server takes."""
    for bound in (3, 3000):
        app = referee.create_app({"CLOCK": clock, "STATE_KEYS": [], "MAX_REPLAY_MOVES": bound,
                                  "REQUEST_LOG": False})
        document = yaml.safe_load(app.test_client().get("/openapi.yaml").get_data())
        body = document["paths"]["/v1/games/generala-dice/replays"]["post"]["requestBody"]
        schema = body["content"]["application/json"]["schema"]
        while "$ref" in schema:
            schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        assert schema["properties"]["moves"]["maxItems"] == bound


def test_the_creation_is_checked_as_a_creation_is(client):
    bad = client.post("/v1/games/generala-dice/replays", json={
        "creation": {"players": ["ann", "bob"], "options": {"no_such_option": 1}},
        "moves": []})
    assert bad.status_code == 422 and bad.get_json()["code"] == "invalid_options"
    assert "move_index" not in bad.get_json()
    viewer_inside = client.post("/v1/games/generala-dice/replays", json={
        "creation": {"players": ["ann", "bob"], "viewer": "ann"}, "moves": []})
    assert viewer_inside.status_code == 422


@pytest.mark.parametrize("creation, field", [
    ({"players": ["ann"]}, "players"),
    ({"players": ["ann", "bob"], "bots": ["cid"]}, "bots"),
    ({"players": ["ann", "bob"], "seed": "s",
      "contributions": [{"player": "cid", "seed": "x"}]}, "contributions"),
])
def test_a_creation_refused_names_its_field_within_the_creation(client, creation, field):
    """The replay's body has `creation.players`, not `players`: a refusal names the field
    the caller wrote, as the shape's own refusals do."""
    answer = client.post("/v1/games/yams/replays", json={"creation": creation, "moves": []})
    assert answer.status_code == 422, answer.get_json()
    assert list(answer.get_json()["errors"]) == ["creation"]
    assert list(answer.get_json()["errors"]["creation"]) == [field]


def test_a_sealed_replay_reveals_the_seed_only_once_the_match_has_finished(clock):
    client = referee.create_app({"CLOCK": clock, "STATE_KEYS": list(SEALING_KEYS),
                                 "REQUEST_LOG": False}).test_client()
    token = client.post("/v1/games/generala-dice/seeds", json={}).get_json()["seed_token"]
    creation = {"players": ["ann", "bob"], "seed_token": token}
    answer = client.post("/v1/games/generala-dice/replays", json={
        "creation": creation, "moves": [{"move": {"type": "roll", "player": "ann"}}],
        "viewer": "bob"})
    body = answer.get_json()
    assert answer.status_code == 200 and body["status"] == "in_progress"
    assert isinstance(body["state"], str) and "seed" not in body and "seat_token" in body
    assert token not in answer.get_data(as_text=True)


def test_a_sealed_replay_refused_tells_what_was_reached_without_the_seed(clock):
    client = referee.create_app({"CLOCK": clock, "STATE_KEYS": list(SEALING_KEYS),
                                 "REQUEST_LOG": False}).test_client()
    token = client.post("/v1/games/generala-dice/seeds", json={}).get_json()["seed_token"]
    roll = {"type": "roll", "player": "ann"}
    answer = client.post("/v1/games/generala-dice/replays", json={
        "creation": {"players": ["ann", "bob"], "seed_token": token},
        "moves": [{"move": roll}, {"move": {**roll, "player": "bob"}}]})
    problem = answer.get_json()
    assert answer.status_code == 409 and problem["code"] == "not_your_turn"
    assert problem["move_index"] == 1 and problem["reached"]["moves_applied"] == 1
    assert isinstance(problem["reached"]["state"], str) and "seed" not in problem["reached"]


def test_the_replay_shown_in_the_results_document_is_accepted_as_it_reads(client, clock):
    # docs/RESULTS.md opens with a replay an integrator copies: it must play as written.
    text = (ROOT / "docs" / "RESULTS.md").read_text()
    shown = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    clock.now = shown["moves"][0]["at"] + 60
    answer = client.post("/v1/games/generala-dice/replays", json=shown)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["moves_applied"] == len(shown["moves"]) == 2
