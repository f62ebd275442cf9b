"""Every game bounds the counters of its state (the random step, round and deal numbers, seat
indexes...) by the same published number, `MAX_COUNTER`, on both sides."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest
import yaml

from referee.core.engine import MAX_COUNTER
from referee.core.errors import InvalidState
from referee.games import REGISTRY
from tests.support import edited_wire

NOW = 1_000_000.0
SPEC = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())


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
    assert SPEC["components"]["schemas"]["State"]["x-max-counter"] == MAX_COUNTER == 2**31


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
