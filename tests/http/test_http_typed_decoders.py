"""The move endpoint's typed decoders (msgspec Structs, referee.http.schemas) against the
marshmallow schemas generated from the same declarations, a replay's moves decoded in one
pass against the same moves checked one by one, and the replay's envelope against its schema.

What a Struct accepts, its schema accepts with the same result; what a schema accepts, the
Struct accepts too unless it is spelt in one of the rarer ways the Struct leaves to the schema
(an integer written 3.0). What either refuses is answered by the
schema, so every refusal keeps its message."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from marshmallow import ValidationError

from referee.core.errors import RefereeError
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.http.checks import RequestChecks
from referee.http.typed_replays import replay_struct, typed_replay
from referee.http.schemas import (MAX_SEAT_TTL, envelope_schemas, envelope_structs,
                                  move_schemas, move_structs, typed_load)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
MAX_ID, MAX_ITEMS = 8, 5  # small limits, so that the examples cross them
NOW = 1_000_000.0


def _examples():
    return settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _rare_spelling(value) -> bool:
    """A value the typed decoders leave to the schemas on purpose: a number spelt as a
    float, a card followed by a newline (which the card pattern's `$` lets through)."""
    if isinstance(value, float):
        return True
    if isinstance(value, str):
        return value.endswith("\n")
    if isinstance(value, dict):
        return any(_rare_spelling(v) for v in value.values())
    if isinstance(value, list):
        return any(_rare_spelling(v) for v in value)
    return False


def _same_answer(struct, schema, data) -> None:
    typed = typed_load(struct, data)
    try:
        loaded = schema.load(data)
    except ValidationError:
        assert typed is None, (data, typed)
        return
    if typed is None:
        assert struct is None or _rare_spelling(data), data
    else:
        assert typed == loaded, (data, typed, loaded)
        assert list(typed) == list(loaded), "the fields come in the schema's order"


def _declared_values(engine):
    """Values near every declared field's limits: choices, bounds, cards, players, lists."""
    values = [None, True, False, 0, 1, -1, 6, 7, 2**64, 3.0, 2.5, "", "p0", "p" * MAX_ID,
              "p" * (MAX_ID + 1), "AS", "X1", "X3", "AS\n", "1S", "TH", "as", [], ["AS"],
              ["AS"] * (MAX_ITEMS + 1), [1, 2], [1] * (MAX_ITEMS + 1), [7], [1.0], {},
              {"a": 1}, "é"]
    for move_type in engine.move_types:
        values.append(move_type.type)
        for spec in move_type.fields:
            values += list(spec.choices or ())
            values += [v for v in (spec.minimum, spec.maximum) if v is not None]
            values += [v + d for v in (spec.minimum, spec.maximum) if v is not None
                       for d in (-1, 1)]
    return values


def _valid_values(spec) -> list:
    """Values a field of this declaration accepts, at and inside its limits."""
    if spec.choices is not None:
        return list(spec.choices)
    bounds = [v for v in (spec.minimum, spec.maximum) if v is not None] or [0, 3]
    pools = {
        "string": ["", "x", "x" * MAX_ID], "player": ["p0", "p" * MAX_ID, "é"],
        "integer": bounds, "boolean": [True, False], "card": ["AS", "X1", "TH", "2C"],
        "cards": [[], ["AS"], ["AS", "KD"], ["AS"] * (spec.max_items or MAX_ITEMS)],
        "integers": [[], bounds, bounds * MAX_ITEMS][:2 + (len(bounds) * MAX_ITEMS
                                                           <= (spec.max_items or MAX_ITEMS))],
    }
    return pools[spec.kind]


def _moves_near_their_limits(engine):
    """A move of each of the game's types (its type, and the strategy of its moves), its
    fields mostly accepted, so that one bad field at a time is tried too."""
    values = _declared_values(engine)
    anything = st.one_of(st.sampled_from(values), st.integers(), st.text(max_size=10),
                         st.lists(st.sampled_from(values), max_size=MAX_ITEMS + 2))

    def field(valid: list):
        return st.one_of(st.sampled_from(valid), st.sampled_from(valid), anything)

    def move(move_type):
        optional = {spec.name: field(_valid_values(spec)) for spec in move_type.fields}
        optional["unknown"] = anything
        return st.fixed_dictionaries(
            {"type": st.sampled_from([move_type.type] * 4 + ["other", 1])},
            optional={"player": field(["p0", "p" * MAX_ID]), **optional})

    return st.one_of([st.tuples(st.just(m.type), move(m)) for m in engine.move_types])


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_move_structs_answer_as_the_move_schemas(game_id):
    engine = REGISTRY[game_id]
    schemas = move_schemas(engine, MAX_ID, MAX_ITEMS)
    structs = move_structs(engine, MAX_ID, MAX_ITEMS)

    @_examples()
    @given(_moves_near_their_limits(engine))
    def check(case):
        kind, data = case
        _same_answer(structs[kind], schemas[kind], data)

    check()


def _each_checked(checks: RequestChecks, game_id: str, moves: list) -> list | None:
    """The moves as the move check gives them one by one; None when one is refused."""
    try:
        return [checks.move(game_id, move) for move in moves]
    except RefereeError:
        return None


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_replay_s_moves_checked_in_one_pass_are_the_moves_checked_one_by_one(game_id):
    """A replay's moves decoded in one pass are each move as the move check gives it, its
    fields in the same order; when one does not fit (or is spelt in a rarer way the typed
    decoders leave to the schemas), none is given: each is checked on its own as it is
    played, and refused at its index."""
    engine = REGISTRY[game_id]
    checks = RequestChecks({game_id: engine}, MAX_ID, MAX_ITEMS)
    assert checks.typed_move_lists[game_id] is not None

    @_examples()
    @given(st.lists(_moves_near_their_limits(engine).map(lambda case: case[1]), max_size=4))
    def check(moves):
        together = checks.replay_moves(game_id, moves)
        one_by_one = _each_checked(checks, game_id, moves)
        if together is None:
            assert one_by_one is None or _rare_spelling(moves), moves
        else:
            assert together == one_by_one, moves
            assert [list(m) for m in together] == [list(m) for m in one_by_one]

    check()


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_legal_move_takes_the_typed_path(game_id):
    """The hot path is the one taken: every legal move of random matches decodes typed, as
    its schema decodes it."""
    engine = REGISTRY[game_id]
    schemas = move_schemas(engine, 64, 256)
    structs = move_structs(engine, 64, 256)
    checks = RequestChecks({game_id: engine}, 64, 256)
    for seed in range(3):
        pick = random.Random(seed)
        state = engine.new_match(("p0", "p1", "p2")[:max(engine.min_players, 2)],
                                 engine.resolve_options(engine.playout_options), f"t{seed}",
                                 now=NOW)
        moves = []
        for _ in range(60):
            if engine.is_finished(state):
                break
            move = random_move(engine, engine.legal_moves(state, now=NOW), pick)
            typed = typed_load(structs[move["type"]], move)
            assert typed is not None, move
            assert typed == schemas[move["type"]].load(move)
            moves.append(typed)
            state, _ = engine.apply(state, move, now=NOW)
        # A replay of them takes the one pass, which gives the same moves.
        assert checks.replay_moves(game_id, moves) == moves


def test_post_move_struct_answers_as_the_envelope_schema():
    schema = envelope_schemas(MAX_ID, MAX_ITEMS)["move"]
    struct = envelope_structs(MAX_ID, MAX_ITEMS)["move"]
    values = [None, True, 0, 1, MAX_SEAT_TTL, MAX_SEAT_TTL + 1, 5.0, -3, "", "p0",
              "p" * (MAX_ID + 1), "v2.abc", {}, {"type": "roll"}, [], [1], "é" * MAX_ID,
              ["p0"], ["p0", "p1"], ["p0", "p0"], ["p0", ""], [f"p{n}" for n in range(MAX_ITEMS)],
              [f"p{n}" for n in range(MAX_ITEMS + 1)], ["p" * (MAX_ID + 1)]]

    @_examples()
    @given(st.dictionaries(st.sampled_from(["state", "move", "viewer", "seat_token_ttl",
                                            "seat_tokens_for", "player", "unknown"]),
                           st.one_of(st.sampled_from(values), st.integers(),
                                     st.text(max_size=10)), max_size=5))
    def check(data):
        _same_answer(struct, schema, data)

    check()
    assert typed_load(struct, {"state": {"a": 1}, "move": {"type": "x"}, "viewer": "p0",
                               "seat_token_ttl": 60}) is not None
    assert typed_load(struct, {"state": "v3.abc", "move": {}, "seat_tokens_for": ["p0", "p1"]}
                      ) == {"state": "v3.abc", "move": {}, "seat_tokens_for": ["p0", "p1"]}
    # A move holding an object or a list of lists (no declared field takes either) is left to
    # the schema, which takes any object: the typed envelope's nesting stays bounded.
    for move in ({"type": "roll", "keep": {"a": 1}}, {"type": "roll", "keep": [[1]]}):
        data = {"state": "v3.abc", "move": move}
        assert typed_load(struct, data) is None
        assert schema.load(data) == data


NAMES = ["p0", "p1", "p2", "p" * MAX_ID]
# Per field of a replay (a path in it), values its schema refuses or leaves to the schema's
# own checks, and a rarer spelling or two.
REPLAY_FAULTS = {
    ("creation",): [[], "x", None],
    ("creation", "players"): [[], ["p0", "p0"], ["p0", ""], ["p" * (MAX_ID + 1)], "p0",
                              [f"p{n}" for n in range(MAX_ITEMS + 1)], [3]],
    ("creation", "options"): [[], {str(n): 1 for n in range(MAX_ITEMS + 1)}, "x"],
    ("creation", "seed"): ["", "s" * 129, -1, 2**63, 2**128 - 1, 2**128, 3.0, True, []],
    ("creation", "seed_token"): ["", 5, None, "v1.abc"],
    ("creation", "contributions"): [None, {}, [{"seed": ""}], [{"seed": "s", "other": 1}],
                                    [{"player": "p0"}], [{"seed": "a"}, {"seed": "b"}],
                                    [{"player": "p0", "seed": "a"}, {"player": "p0",
                                                                     "seed": "b"}]],
    ("creation", "bots"): [["p0", "p0"], [""], "p0", None],
    ("creation", "hints_allowed"): [1, None, "true"],
    ("creation", "viewer"): ["p0"],
    ("creation", "other"): [1],
    ("moves",): [{}, None, [{"move": {}, "other": 1}], [{"move": []}], [{"at": 1}],
                 [{"move": {}, "at": -1}], [{"move": {}, "at": True}],
                 [{"move": {}}] * (MAX_ITEMS + 1)],
    ("created_at",): [-1, True, None, "1"],
    ("viewer",): ["", "p" * (MAX_ID + 1), 1],
    ("seat_token_ttl",): [0, MAX_SEAT_TTL + 1, 5.0, True],
    ("other",): [1],
}


@st.composite
def _replays(draw):
    """A replay its schema accepts, then often one field made wrong (or dropped)."""
    players = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True))
    creation = {"players": players}
    if draw(st.booleans()):
        creation["options"] = draw(st.dictionaries(st.sampled_from("abcde"), st.sampled_from(
            [1, "x", None, [1], {"k": 1}]), max_size=MAX_ITEMS))
    seed = draw(st.sampled_from([None, "s", "s" * 128, 0, 7, 2**63 - 1, "absent", "token"]))
    if seed == "token":
        creation["seed_token"] = "v1.abc"
    elif seed != "absent":
        creation["seed"] = seed
    if draw(st.booleans()):
        contributors = draw(st.lists(st.sampled_from([*players, None]), max_size=3,
                                     unique=True))
        creation["contributions"] = [{"seed": "c"} if c is None else {"player": c, "seed": "c"}
                                     for c in contributors]
    if draw(st.booleans()):
        creation["bots"] = draw(st.lists(st.sampled_from(players), unique=True))
    if draw(st.booleans()):
        creation["hints_allowed"] = draw(st.booleans())
    entry = st.fixed_dictionaries({"move": st.sampled_from([{"type": "roll", "player": "p0"},
                                                            {}])},
                                  optional={"at": st.sampled_from([0, 5, 2.5])})
    data = {"creation": creation, "moves": draw(st.lists(entry, max_size=MAX_ITEMS))}
    for name, values in (("created_at", [0, 1_000_000, 2.5]), ("viewer", NAMES),
                         ("seat_token_ttl", [1, 60, MAX_SEAT_TTL])):
        if draw(st.booleans()):
            data[name] = draw(st.sampled_from(values))
    fault = draw(st.sampled_from([None, *REPLAY_FAULTS]))
    if fault is not None:
        *outer, name = fault
        where = data["creation"] if outer else data
        if draw(st.integers(0, 4)) == 0:
            where.pop(name, None)
        else:
            where[name] = draw(st.sampled_from(REPLAY_FAULTS[fault]))
    return data


def test_the_replay_struct_answers_as_the_replay_schema():
    """A replay's envelope read by its Struct is the schema's reading, key for key and in the
    schema's order; what the Struct leaves to the schema is a refusal, a rarer spelling (3.0
    for 3) or an integer seed past the bounds msgspec checks (2^63 - 1)."""
    schema = envelope_schemas(MAX_ID, MAX_ITEMS, MAX_ITEMS)["replay"]
    struct = replay_struct(MAX_ID, MAX_ITEMS, MAX_ITEMS)

    @_examples()
    @given(st.one_of(_replays(), st.sampled_from([None, [], {}, "x"])))
    def check(data):
        typed = typed_replay(struct, data)
        try:
            loaded = schema.load(data)
        except ValidationError:
            assert typed is None, (data, typed)
            return
        if typed is None:
            seed = data["creation"].get("seed")
            assert _rare_spelling(data) or (type(seed) is int and seed >= 2**63), data
        else:
            assert typed == loaded, (data, typed, loaded)
            assert list(typed) == list(loaded)
            assert list(typed["creation"]) == list(loaded["creation"])
            assert [list(c) for c in typed["creation"]["contributions"]] == \
                [list(c) for c in loaded["creation"]["contributions"]]

    check()
    # An ordinary replay takes the typed path.
    ordinary = {"creation": {"players": ["p0", "p1"], "seed": 3, "bots": ["p1"]},
                "moves": [{"move": {"type": "roll", "player": "p0"}, "at": 5}]}
    assert typed_replay(struct, ordinary) == schema.load(ordinary)
