"""Every registered game through the same contract: random whole matches checked at each step.

What any engine must keep: listed moves are accepted, `apply` never changes its input, the
same state and move give the same result (told or not: an untold move gives the same state and
the same refusal), the state survives its wire form, no invariant breaks, the state does not
grow with the match, and every match ends.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from referee.core.engine import Engine
from referee.core.errors import MoveRefused
from referee.core.playout import random_move
from referee.games import REGISTRY

GAMES = sorted(REGISTRY)
# The random player (referee.core.playout) can keep a L'Empereur round going a long while:
# over 200 seeds at four players, 6 matches passed 20,000 moves and the longest took 29,950.
# The bound is there to catch a match that never ends, not a long one.
MAX_STEPS = 100_000
NOW = 1_000_000.0


def play_random_match(engine: Engine, players: int, seed: int, *, checks: bool = True):
    """Play one match with the random player; return (final state, steps, sizes)."""
    pick = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    options = engine.resolve_options(engine.playout_options)
    state = engine.new_match(names, options, f"seed-{seed}", now=NOW)
    sizes = []
    for step in range(MAX_STEPS):
        if engine.is_finished(state):
            return state, step, sizes
        moves = engine.legal_moves(state, now=NOW)
        assert moves, "a match in progress must offer a legal move"
        move = random_move(engine, moves, pick)
        if checks:
            wire = engine.encode(state)
            assert engine.decode(wire) == state
            before = json.dumps(wire, sort_keys=True)
            first = engine.apply(state, move, now=NOW)
            again = engine.apply(state, move, now=NOW)
            assert first == again, "the same state and move must give the same result"
            untold = engine.apply(state, move, now=NOW, told=False)
            assert untold[0] == first[0], "an untold move must give the same state"
            assert json.dumps(engine.encode(state), sort_keys=True) == before, "apply changed its input"
            assert engine.problems(first[0]) == []
            sizes.append(len(json.dumps(engine.encode(first[0]))))
            state = first[0]
        else:
            state = engine.apply(state, move, now=NOW)[0]
    raise AssertionError(f"no end after {MAX_STEPS} moves")


@pytest.mark.parametrize("game_id", GAMES)
@given(seed=st.integers(0, 2**32), data=st.data())
@settings(max_examples=8, deadline=None)
def test_random_matches_keep_every_engine_invariant(game_id, seed, data):
    engine = REGISTRY[game_id]
    players = data.draw(st.integers(engine.min_players, min(engine.max_players, 6)))
    state, steps, sizes = play_random_match(engine, players, seed)
    assert engine.is_finished(state)
    result = engine.scores(state)
    assert set(result["players"]) == set(state.players)
    assert result["winners"], "a finished match names its winners"


@pytest.mark.parametrize("game_id", GAMES)
def test_state_size_stays_flat_over_a_whole_match(game_id):
    engine = REGISTRY[game_id]
    state, steps, sizes = play_random_match(engine, engine.min_players, 11)
    start = len(json.dumps(engine.encode(
        engine.new_match(("p0", "p1"), engine.resolve_options(engine.playout_options), "seed-11",
                         now=NOW))))
    # No history is kept: the largest state of the match stays within a small multiple of the
    # first one, however many moves were played.
    assert max(sizes) < 4 * start + 2048, (start, max(sizes), steps)


@pytest.mark.parametrize("game_id", GAMES)
def test_moves_by_strangers_and_after_the_end_are_refused(game_id):
    engine = REGISTRY[game_id]
    state, _, _ = play_random_match(engine, engine.min_players, 3, checks=False)
    move = {"type": engine.move_types[0].type, "player": state.players[0]}
    with pytest.raises(MoveRefused) as refused:
        engine.apply(state, move, now=NOW)
    assert refused.value.code == "game_over"


def outcome_of(engine: Engine, state, move, told: bool):
    """The state a move gives, or the refusal's class and code."""
    try:
        return engine.apply(state, move, now=NOW, told=told)[0]
    except MoveRefused as refused:
        return type(refused), refused.code


@pytest.mark.parametrize("game_id", GAMES)
def test_an_untold_move_is_refused_as_a_told_one(game_id):
    engine = REGISTRY[game_id]
    pick = random.Random(5)
    names = ("p0", "p1", "p2")
    state = engine.new_match(names, engine.resolve_options(engine.playout_options), "seed-5",
                             now=NOW)
    refused = 0
    for _ in range(80):
        if engine.is_finished(state):
            break
        move = random_move(engine, engine.legal_moves(state, now=NOW), pick)
        other = names[(names.index(move["player"]) + 1) % len(names)]
        for altered in ({**move, "player": other}, {**move, "player": "stranger"},
                        {**move, "type": "no_such_move"}):
            told = outcome_of(engine, state, altered, True)
            assert outcome_of(engine, state, altered, False) == told, altered
            refused += isinstance(told, tuple)
        state = engine.apply(state, move, now=NOW)[0]
    assert refused, "some altered moves are refused"


@pytest.mark.parametrize("game_id", GAMES)
def test_catalogue_declarations_are_complete(game_id):
    engine = REGISTRY[game_id]
    assert engine.id == game_id
    assert 2 <= engine.min_players <= engine.max_players
    defaults = engine.resolve_options({})
    assert set(defaults) == {o.name for o in engine.options}
    assert engine.move_types, "a game declares its move types"
