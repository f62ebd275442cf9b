"""Every bound a game declares or shares, tried at its value and one past it: player counts,
option ranges, and the counters of a state (the random step, round and deal numbers, seat
indexes...), which every game bounds by the same published number, `MAX_COUNTER`."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from referee.core.engine import MAX_COUNTER
from referee.core.errors import InvalidOptions, InvalidState
from referee.games import REGISTRY
from referee.http.contract import pascal
from referee.service.errors import Refused
from tests.support import committed_contract, created, edited_wire

NOW = 1_000_000.0
SPEC = committed_contract()


def counters(game_id: str) -> list[str]:
    """The top-level integer fields of a game's state: what the contract calls its counters."""
    state_type = REGISTRY[game_id].state_type
    hints = typing.get_type_hints(state_type)
    return [f.name for f in dataclasses.fields(state_type) if hints[f.name] is int]


def sound_state(game_id: str):
    engine = REGISTRY[game_id]
    return engine.new_match(("ann", "bob"), engine.resolve_options({}), "counters", now=NOW)


def beyond(problems: list[str], field: str) -> list[str]:
    return [p for p in problems if p.startswith(f"{field} is ") and "beyond any real match" in p]


CASES = [pytest.param(game_id, field, id=f"{game_id}-{field}")
         for game_id in sorted(REGISTRY) for field in counters(game_id)]


def test_the_contract_publishes_the_counter_bound():
    assert MAX_COUNTER == 2**31
    for game_id in REGISTRY:
        state = SPEC["components"]["schemas"][f"{pascal(game_id)}State"]
        assert state["x-max-counter"] == MAX_COUNTER
        for field in counters(game_id):
            assert state["properties"][field]["maximum"] == MAX_COUNTER, (game_id, field)
            assert state["properties"][field]["minimum"] == -MAX_COUNTER, (game_id, field)


@pytest.mark.parametrize("game_id,field", CASES)
def test_a_counter_at_the_bound_passes_it_and_one_past_is_refused(game_id, field):
    """The bound alone is judged here: a seat index of 2^31 breaks other rules of the game,
    but not this one."""
    engine = REGISTRY[game_id]
    state = sound_state(game_id)
    for inside in (MAX_COUNTER, -MAX_COUNTER):
        assert beyond(engine.problems(dataclasses.replace(state, **{field: inside})), field) == []
    for outside in (MAX_COUNTER + 1, -MAX_COUNTER - 1):
        with pytest.raises(InvalidState) as err:
            engine.decode(edited_wire(engine, state, **{field: outside}))
        assert beyond(err.value.problems, field) == [
            f"{field} is {outside}, beyond any real match"]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_largest_random_step_is_a_sound_state_and_the_next_is_invalid(game_id):
    engine = REGISTRY[game_id]
    state = sound_state(game_id)
    largest = edited_wire(engine, state, step=MAX_COUNTER)
    assert engine.decode(largest) == dataclasses.replace(state, step=MAX_COUNTER)
    with pytest.raises(InvalidState):
        engine.decode(edited_wire(engine, state, step=MAX_COUNTER + 1))


# -- player counts and options -------------------------------------------------------------------
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_fewest_and_most_players_are_seated_and_one_fewer_or_more_are_refused(game_id):
    engine = REGISTRY[game_id]
    options = engine.resolve_options({})
    fewest, most = engine.player_range(options)
    for count in (fewest, most):
        assert created(engine, count)["status"] == "in_progress"
        players = tuple(f"p{i}" for i in range(count))
        state = engine.new_match(players, options, "bounds", now=NOW)
        assert state.players == players
        assert engine.decode(engine.encode(state)) == state  # the state's own check agrees
    for count in (fewest - 1, most + 1):
        with pytest.raises(Refused, match=f"takes {fewest} to {most} players") as refused:
            created(engine, count)
        assert refused.value.code == "validation_error"


OPTION_EDGES = [
    pytest.param(game_id, option.name, edge, past, id=f"{game_id}-{option.name}-{side}")
    for game_id in sorted(REGISTRY) for option in REGISTRY[game_id].options
    for side, edge, past in (("minimum", option.minimum, (option.minimum or 0) - 1),
                             ("maximum", option.maximum, (option.maximum or 0) + 1))
    if edge is not None
]


@pytest.mark.parametrize("game_id,name,edge,past", OPTION_EDGES)
def test_an_option_at_its_declared_bound_is_taken_and_one_past_is_refused(game_id, name, edge,
                                                                          past):
    engine = REGISTRY[game_id]
    assert engine.resolve_options({name: edge})[name] == edge
    with pytest.raises(InvalidOptions) as err:
        engine.resolve_options({name: past})
    assert [p.split(":")[0] for p in err.value.problems] == [name]
