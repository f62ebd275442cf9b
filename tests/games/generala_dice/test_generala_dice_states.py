"""Generala (dice): hand-made states that break an invariant are refused as `invalid_state`.

Each row takes a sound state, breaks one thing in its wire form, and checks that
`Engine.decode` raises `InvalidState` (code `invalid_state`) naming the problem.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.errors import InvalidState
from referee.games.generala_dice import ENGINE
from referee.games.generala_dice.scoring import BOXES
from referee.games.generala_dice.state import Options, State
from tests.support import edited_wire

SOUND = State(
    players=("ann", "bob", "cy"), options=Options(), seed="seed", step=9, current=1, rolls=2,
    dice=(4, 4, 4, 2, 2),
    sheets=({"ones": 3, "generala": 50}, {"sixes": 24}, {"escalera": 0}),
    deadline=1_030.0,
)


def wire(**changes):
    return edited_wire(ENGINE, SOUND, **changes)


def test_the_sound_state_decodes_to_itself():
    assert ENGINE.problems(SOUND) == []
    assert ENGINE.decode(ENGINE.encode(SOUND)) == SOUND


BROKEN = [
    # a box holding a value it can never score
    ("fives holds 7", wire(sheets__0__fives=7), "fives box holds 7"),
    ("ones holds minus one", wire(sheets__0__ones=-1), "ones box holds -1"),
    ("sixes holds 36", wire(sheets__1__sixes=36), "sixes box holds 36"),
    ("escalera holds 21", wire(sheets__2__escalera=21), "escalera box holds 21"),
    ("full holds 40", wire(sheets__2={"full": 40}), "full box holds 40"),
    ("poker holds 41", wire(sheets__2={"poker": 41}), "poker box holds 41"),
    ("a servida generala holds 55", wire(sheets__0={"ones": 3, "generala": 55}),
     "generala box holds 55"),
    ("doble holds 50", wire(sheets__0={"generala": 50, "doble_generala": 50}),
     "doble_generala box holds 50"),
    ("an unknown box", wire(sheets__2={"chance": 0}), "unknown box 'chance'"),
    # a box scored twice: a sheet can hold a box only once, so a second scoring shows as one
    # box too many for the turns played
    ("a box scored twice for one turn", wire(sheets__1={"sixes": 24, "fives": 0}),
     "do not fit the turn order"),
    # the dice
    ("six dice", wire(dice=[1, 2, 3, 4, 5, 6]), "6 dice after 2 roll(s)"),
    ("four dice", wire(dice=[1, 2, 3, 4]), "4 dice after 2 roll(s)"),
    ("dice before the first roll", wire(rolls=0), "5 dice after 0 roll(s)"),
    ("no dice after a roll", wire(dice=[]), "0 dice after 2 roll(s)"),
    ("a die showing 7", wire(dice=[4, 4, 4, 2, 7]), "face outside 1-6"),
    ("a die showing 0", wire(dice=[0, 4, 4, 2, 2]), "face outside 1-6"),
    ("four rolls", wire(rolls=4), "4 rolls in a turn"),
    ("negative rolls", wire(rolls=-1), "-1 rolls in a turn"),
    # the turn
    ("turn index past the players", wire(current=3), "turn index 3 is past the players"),
    ("negative turn index", wire(current=-1), "turn index -1 is past the players"),
    ("boxes filled ahead of turn order", wire(sheets__2={"escalera": 0, "ones": 0}),
     "do not fit the turn order"),
    ("boxes filled behind turn order", wire(sheets__0={}), "do not fit the turn order"),
    ("turn index not at the seat behind", wire(current=0), "do not fit the turn order"),
    ("dice rolled in a finished match",
     wire(sheets=[{b: 0 for b in BOXES}] * 3), "dice are rolled in a finished match"),
    # the Doble Generala
    ("doble without generala",
     wire(sheets__0={"ones": 3, "doble_generala": 100}), "Doble Generala scored without"),
    ("doble with a scratched generala",
     wire(sheets__0={"generala": 0, "doble_generala": 100}), "Doble Generala scored without"),
    ("doble with a generala worth nothing under house values",
     wire(options__generala=0, sheets__0={"generala": 0, "doble_generala": 100}),
     "Doble Generala scored without"),
    # players, options, seed, clock
    ("one player", wire(players=["ann"], sheets=[{}], current=0), "1 players"),
    ("seven players", wire(players=[f"p{i}" for i in range(7)], sheets=[{}] * 7, current=0,
                           rolls=0, dice=[]), "7 players"),
    ("duplicate player ids", wire(players=["ann", "bob", "ann"]), "unique"),
    ("an empty player id", wire(players=["ann", "", "cy"]), "unique"),
    ("a sheet missing", wire(sheets=[{}, {}]), "one score sheet per player"),
    ("negative turn clock", wire(options__turn_seconds=-1), "options.turn_seconds"),
    ("poker value too big", wire(options__poker=1001), "options.poker"),
    ("an empty seed", wire(seed=""), "seed is empty"),
    ("a negative step", wire(step=-1), "step is negative"),
    ("a deadline without a clock", wire(options__turn_seconds=0), "clock is off"),
    ("a clock without a deadline", wire(deadline=None), "no deadline is set"),
    # the instant-win house rule
    ("instant winner not a player",
     wire(options__servida_generala_wins=True, instant_winner="zed", rolls=1,
          dice=[4, 4, 4, 4, 4]), "instant winner is not a player"),
    ("instant winner without the house rule",
     wire(instant_winner="bob", rolls=1, dice=[4, 4, 4, 4, 4]), "house rule"),
    ("instant winner not the player to roll",
     wire(options__servida_generala_wins=True, instant_winner="ann", rolls=1,
          dice=[4, 4, 4, 4, 4]), "instant winner"),
    ("instant winner without five of a kind",
     wire(options__servida_generala_wins=True, instant_winner="bob", rolls=1),
     "instant winner"),
    ("instant winner after a second roll",
     wire(options__servida_generala_wins=True, instant_winner="bob", dice=[4, 4, 4, 4, 4]),
     "instant winner"),
]


@pytest.mark.parametrize("data,needle", [(c[1], c[2]) for c in BROKEN],
                         ids=[c[0] for c in BROKEN])
def test_a_hand_made_state_that_breaks_an_invariant_is_an_invalid_state(data, needle):
    with pytest.raises(InvalidState) as refused:
        ENGINE.decode(data)
    assert refused.value.code == "invalid_state"
    assert any(needle in p for p in refused.value.problems), refused.value.problems


@pytest.mark.parametrize("changes", [
    {"rolls": 0, "dice": ()}, {"rolls": 3}, {"dice": (1, 1, 6, 6, 6)},
], ids=["no roll yet", "the third roll", "faces one and six"])
def test_a_sound_state_at_the_edge_of_a_check_decodes(changes):
    # Each sits on a bound (rolls from 0 to 3, faces from 1 to 6): a check that slid by one
    # would refuse it.
    edge = dataclasses.replace(SOUND, **changes)
    assert ENGINE.decode(ENGINE.encode(edge)) == edge


def test_a_sound_instant_win_decodes():
    data = wire(options__servida_generala_wins=True, instant_winner="bob", rolls=1,
                dice=[4, 4, 4, 4, 4], deadline=None)
    assert ENGINE.decode(data).instant_winner == "bob"


def test_a_sealed_state_is_trusted_without_the_invariant_checks():
    assert ENGINE.decode(wire(current=3), trusted=True).current == 3


def test_several_broken_invariants_are_reported_at_once():
    with pytest.raises(InvalidState) as refused:
        ENGINE.decode(wire(current=7, rolls=5, seed=""))
    assert len(refused.value.problems) == 3


@pytest.mark.parametrize("data", [
    wire(dice=[1.5, 2, 3, 4, 5]), wire(sheets__0__ones="3"), wire(players="ann"),
    wire(current=None), {"players": ["ann", "bob"]},
], ids=["a die not an integer", "a score as text", "players not a list", "no turn index",
        "fields missing"])
def test_a_state_that_does_not_parse_is_an_invalid_state(data):
    with pytest.raises(InvalidState):
        ENGINE.decode(data)


FACE = st.integers(-1, 8)
SHEET = st.dictionaries(st.sampled_from(BOXES + ("chance",)), st.integers(-5, 130), max_size=12)
STATES = st.builds(
    State,
    players=st.lists(st.sampled_from(["ann", "bob", "cy", ""]), max_size=8).map(tuple),
    options=st.builds(Options, turn_seconds=st.integers(-2, 60), servida_generala_wins=st.booleans(),
                      generala=st.integers(-1, 60), doble_generala=st.integers(-1, 120)),
    seed=st.sampled_from(["", "s"]), step=st.integers(-2, 50), current=st.integers(-2, 8),
    rolls=st.integers(-1, 5), dice=st.lists(FACE, max_size=7).map(tuple),
    sheets=st.lists(SHEET, max_size=8).map(tuple),
    deadline=st.none() | st.floats(0, 2e9), instant_winner=st.none() | st.sampled_from(["ann", "zed"]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STATES)
def test_problems_never_raises_on_any_state_that_parses(state):
    problems = ENGINE.problems(state)
    assert isinstance(problems, list) and all(isinstance(p, str) for p in problems)
