"""A posted open-mode state is complete, exactly as the referee wrote it, or it is refused.

A missing option must not quietly become its default in the middle of a match (a Générala
state posted with `"options": {"variant": "braille"}` would otherwise be played with the
French booleans while still saying braille), and a field the referee never writes must not be
carried along as if it meant something. For every game, real states of a random match lose
each field and each option in turn, or gain an unknown one, and must be `invalid_state` naming
the problem; the problems of one state are listed all at once.
"""

from __future__ import annotations

import copy
import dataclasses
import random

import msgspec
import pytest

from referee.core.engine import is_record, record_fields
from referee.core.errors import InvalidState
from referee.core.playout import random_move
from referee.games import REGISTRY

GAMES = sorted(REGISTRY)
NOW = 1_000_000.0


def wire_of(engine, state) -> dict:
    """The state as a client receives it: JSON, not Python tuples."""
    return msgspec.json.decode(msgspec.json.encode(engine.encode(state)))


def real_states(engine, seed: int = 5) -> list:
    """States of one random match: its first, middle and last, and for every field holding
    a list of records (the plays of a trick) the first state where that list is not empty."""
    pick = random.Random(seed)
    players = tuple(f"p{i}" for i in range(min(3, engine.max_players)))
    options = engine.resolve_options(engine.playout_options)
    state = engine.new_match(players, options, f"shape-{seed}", now=NOW)
    seen = [state]
    for _ in range(20_000):
        if engine.is_finished(state):
            break
        moves = engine.legal_moves(state, now=NOW)
        state = engine.apply(state, random_move(engine, moves, pick), now=NOW)[0]
        seen.append(state)
    chosen = [seen[0], seen[len(seen) // 2], seen[-1]]
    for f in dataclasses.fields(engine.state_type):
        holding = next((s for s in seen if _records(getattr(s, f.name))), None)
        if holding is not None:
            chosen.append(holding)
    return chosen


def _records(value) -> bool:
    return isinstance(value, tuple) and bool(value) and is_record(type(value[0]))


def paths(value, prefix: str = ""):
    """The wire path of every field of a state, of its options and of the records it holds,
    spelt as the problems spell them: `options.variant`, `trick[0].card`."""
    for name in record_fields(type(value)):
        here = f"{prefix}{name}"
        yield here
        child = getattr(value, name)
        if is_record(type(child)):
            yield from paths(child, here + ".")
        elif _records(child):
            for k, item in enumerate(child):
                yield from paths(item, f"{here}[{k}].")


def remove(data: dict, path: str) -> dict:
    broken = copy.deepcopy(data)
    target = broken
    *parents, last = path.replace("[", ".").replace("]", "").split(".")
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    del target[last]
    return broken


def refusal(engine, data) -> list[str]:
    with pytest.raises(InvalidState) as refused:
        engine.decode(data)
    assert refused.value.code == "invalid_state"
    return refused.value.problems


@pytest.mark.parametrize("game_id", GAMES)
def test_a_posted_state_missing_any_field_or_option_is_invalid_state(game_id):
    engine = REGISTRY[game_id]
    for state in real_states(engine):
        data = wire_of(engine, state)
        assert engine.decode(data) == state  # as written, it is accepted
        for path in paths(state):
            assert f"{path}: missing" in refusal(engine, remove(data, path)), path


@pytest.mark.parametrize("game_id", GAMES)
def test_a_posted_state_with_an_unknown_field_or_option_is_invalid_state(game_id):
    engine = REGISTRY[game_id]
    for state in real_states(engine):
        data = wire_of(engine, state)
        data["colour"] = "blue"
        data["options"]["house_rule"] = True
        problems = refusal(engine, data)
        assert "colour: unknown field" in problems
        assert "options.house_rule: unknown field" in problems


@pytest.mark.parametrize("game_id", GAMES)
def test_a_posted_state_with_no_options_lists_every_option_missing(game_id):
    # `options: {}` is not "the defaults": the match was created with options of its own.
    engine = REGISTRY[game_id]
    data = wire_of(engine, real_states(engine)[0])
    data["options"] = {}
    assert sorted(refusal(engine, data)) == sorted(f"options.{o.name}: missing"
                                                   for o in engine.options)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_posted_state_with_values_of_the_wrong_type_lists_each_of_them(game_id):
    engine = REGISTRY[game_id]
    data = wire_of(engine, real_states(engine)[0])
    first_option = engine.options[0].name
    data["seed"] = 7
    data["step"] = "7"
    data["options"][first_option] = [first_option]
    problems = refusal(engine, data)
    assert len(problems) == 3, problems
    for path in ("seed", "step", f"options.{first_option}"):
        assert any(p.startswith(f"{path}: ") for p in problems), (path, problems)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("options", [None, [], 3, "defaults"], ids=repr)
def test_a_posted_state_whose_options_are_not_an_object_is_invalid_state(game_id, options):
    engine = REGISTRY[game_id]
    data = wire_of(engine, real_states(engine)[0])
    data["options"] = options
    assert refusal(engine, data) == ["options: must be an object"]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_state_options_are_exactly_the_declared_option_table(game_id):
    # What "unknown to the option table" means: the state's options record has one field per
    # declared option, no more and no fewer.
    engine = REGISTRY[game_id]
    record = engine.new_match(("a", "b"), engine.resolve_options({}), "s", now=NOW).options
    assert sorted(record_fields(type(record))) == sorted(o.name for o in engine.options)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_sealed_state_is_read_as_written_without_the_shape_checks(game_id):
    # A sealed token can only come from this referee; its state is decoded as it stands.
    engine = REGISTRY[game_id]
    state = real_states(engine)[0]
    assert engine.decode(wire_of(engine, state), trusted=True) == state
