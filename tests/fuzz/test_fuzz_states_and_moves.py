"""Mutated states and moves thrown at every game's decoder and rules, in process and over HTTP.

The only acceptable outcomes are a valid answer or a documented problem code: never an
unexpected exception, never a 500. `make test` runs a bounded number of examples;
`make fuzz` runs many more (FUZZ_EXAMPLES)."""

from __future__ import annotations

import copy
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import referee
from referee.core.errors import RefereeError
from referee.core.playout import random_move
from referee.games import REGISTRY

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
NOW = 1_000_000.0
DOCUMENTED = {200, 400, 404, 409, 413, 415, 422}
APP = referee.create_app({"STATE_KEYS": [], "CLOCK": lambda: NOW})
CLIENT = APP.test_client()

ODD_VALUES = [None, True, False, 0, -1, 1, 2**70, -(2**70), 1.5, float("1e308"), "", "X1",
              "AS", "p0", "zz", "\u0000", "é" * 3, [], {}, [1, 2], {"a": 1}, ["AS", "AS"]]


def sample_states(game_id: str, count: int = 6) -> list[tuple[dict, list[dict]]]:
    """States met along a few random matches, each with its legal moves."""
    engine = REGISTRY[game_id]
    found = []
    for seed in range(count):
        pick = random.Random(seed)
        players = tuple(f"p{i}" for i in range(engine.min_players + seed % 2))
        state = engine.new_match(players, engine.resolve_options(engine.playout_options),
                                 f"fuzz-{seed}", now=NOW)
        for _ in range(pick.randint(0, 60)):
            if engine.is_finished(state):
                break
            move = random_move(engine, engine.legal_moves(state, now=NOW), pick)
            state = engine.apply(state, move, now=NOW)[0]
        found.append((json.loads(json.dumps(engine.encode(state))), engine.legal_moves(state, now=NOW)))
    return found


SAMPLES = {game_id: sample_states(game_id) for game_id in REGISTRY}


def paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, prefix + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths(child, prefix + (index,))


@st.composite
def mutated(draw, document):
    """A document with one to three random edits: a value replaced, a key or item removed,
    an item duplicated, or two items swapped."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in paths(doc) if p]
        if not places:
            break
        place = draw(st.sampled_from(places))
        parent = doc
        for key in place[:-1]:
            parent = parent[key]
        last = place[-1]
        action = draw(st.sampled_from(["replace", "remove", "duplicate", "swap"]))
        if action == "replace":
            parent[last] = copy.deepcopy(draw(st.sampled_from(ODD_VALUES)))
        elif action == "remove":
            del parent[last]
        elif isinstance(parent, list) and parent:
            if action == "duplicate":
                parent.append(copy.deepcopy(parent[last]))
            else:
                other = draw(st.integers(0, len(parent) - 1))
                parent[last], parent[other] = parent[other], parent[last]
    return doc


def fuzz_settings():
    return settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
@given(data=st.data())
@fuzz_settings()
def test_mutated_states_are_decoded_soundly_or_refused_as_invalid_state(game_id, data):
    engine = REGISTRY[game_id]
    wire, moves = data.draw(st.sampled_from(SAMPLES[game_id]))
    broken = data.draw(mutated(wire))
    try:
        state = engine.decode(broken)
    except RefereeError as refused:
        assert refused.code == "invalid_state"
        return
    # Whatever the decoder lets through must be a state the rules can work on.
    assert engine.problems(state) == []
    listed = engine.legal_moves(state, now=NOW)
    engine.scores(state)
    for player in state.players:
        json.dumps(engine.view(state, player))
    for move in listed[:5] + moves[:5]:
        try:
            engine.apply(state, move, now=NOW)
        except RefereeError:
            assert move not in listed, f"a listed move was refused: {move}"


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
@given(data=st.data())
@fuzz_settings()
def test_mutated_requests_get_a_documented_answer_over_http(game_id, data):
    wire, moves = data.draw(st.sampled_from(SAMPLES[game_id]))
    move = data.draw(st.sampled_from(moves)) if moves else {"type": "x", "player": "p0"}
    body = {"state": wire, "move": move}
    body = data.draw(mutated(body))
    endpoint = data.draw(st.sampled_from(["moves", "validations", "legal-moves", "views"]))
    if endpoint == "views":
        body.setdefault("player", "p0")
    if endpoint in ("legal-moves", "views"):
        body.pop("move", None)
    response = CLIENT.post(f"/v1/games/{game_id}/{endpoint}", json=body)
    assert response.status_code in DOCUMENTED, response.get_data(as_text=True)
    if response.status_code >= 400:
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["code"] != "internal_error"
