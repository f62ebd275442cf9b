"""Huit américain: hand-made states that break an invariant are refused as `invalid_state`.

Each row takes a sound state, breaks one thing in its wire form, and checks that
`Engine.decode` raises `InvalidState` naming the problem.
"""

from __future__ import annotations

import pytest

from referee.core.errors import InvalidState
from referee.games.huit_americain import ENGINE
from referee.games.huit_americain.position import position
from referee.games.huit_americain.state import Options
from tests.support import edited_wire

SOUND = position([["9H", "2C", "AS"], ["9S", "4S"], ["KD", "QD", "X1"]], ["5H", "6H"],
                 current=1, totals=(10, 20, 30), round_points=(0, 20, 30), round=2, step=3)
STOCK_CARD = SOUND.stock[0]


def lack(seat, arrived, suits, ranks):
    return {"seat": seat, "arrived": arrived, "suits": suits, "ranks": ranks}


def wire(**changes):
    return edited_wire(ENGINE, SOUND, **changes)


def test_the_sound_state_decodes_to_itself():
    assert ENGINE.problems(SOUND) == []
    assert ENGINE.decode(ENGINE.encode(SOUND)) == SOUND


BROKEN = [
    ("a card duplicated", wire(hands__0=["9H", "2C", "AS", "AS"]), "appears 1 time(s) too many"),
    ("a card missing", wire(hands__0=["9H", "2C"]), "card AS is missing"),
    ("a card from nowhere", wire(hands__1=["9S", "4S", "ZZ"]), "not a card of this deck"),
    ("a third joker", wire(hands__1=["9S", "4S", "X3"]), "not a card of this deck"),
    ("an empty pile", wire(pile=[], stock=list(SOUND.stock) + ["5H", "6H"]), "pile is empty"),
    ("turn index past the players", wire(current=3), "turn index 3"),
    ("negative turn index", wire(current=-1), "turn index -1"),
    ("direction two", wire(direction=2), "direction 2"),
    ("unknown phase", wire(phase="nap"), "unknown phase"),
    ("a suit that is no suit", wire(suit="Z"), "not a suit"),
    ("a rank that is no rank", wire(rank="1"), "not a rank"),
    ("a rank without a suit", wire(suit=None), "rank is in force without a suit"),
    ("attack phase with nothing pending", wire(phase="attack"), "no penalty pending"),
    ("attack pending outside the attack phase", wire(attack=2), "outside the attack phase"),
    ("attack on a plain top card", wire(phase="attack", attack=2), "top card does not attack"),
    ("negative attack", wire(attack=-2), "negative"),
    ("a hunt with no hunting card", wire(phase="hunt"), "suit hunt needs"),
    ("play again with no ten on top", wire(phase="again"), "play-again phase needs"),
    ("too many passes", wire(passes=3), "3 passes in a row"),
    ("unannounced past the players", wire(unannounced=5), "unannounced index 5"),
    ("a hand too many", wire(hands=[["9H"], ["2C", "AS"], ["9S", "4S"], ["KD", "QD", "X1"]]),
     "one entry of hands per player"),
    ("a total short", wire(totals=[10, 20]), "one entry of totals per player"),
    ("negative points", wire(totals=[-1, 20, 30]), "cannot be negative"),
    ("a total past the target in play", wire(totals=[10, 120, 30]), "but the match goes on"),
    ("over with no total at the target", wire(phase="over"), "no total reaches"),
    ("an empty hand in play", wire(hands__1=[], stock=list(SOUND.stock) + ["9S", "4S"]),
     "holds no card but the round goes on"),
    ("duplicate players", wire(players=["ann", "ann", "cy"]), "unique"),
    ("one player", wire(players=["ann"], hands=[["9H"]], totals=[0], round_points=[0]),
     "1 players"),
    ("round zero", wire(round=0), "rounds count from 1"),
    ("negative step", wire(step=-1), "random step is negative"),
    ("empty seed", wire(seed=""), "seed is empty"),
    ("an option out of range", wire(options__decks=3), "options.decks"),
    ("an unknown effect rank", wire(options__effect_skip="Z"), "options.effect_skip"),
    ("a clash in the effect table", wire(options__effect_skip="J"), "several effects"),
    ("on the fly with one deck", wire(options__on_the_fly=True), "needs two decks"),
    ("a give phase with no give-two card on top", wire(phase="give", give_to=0, give_left=2),
     "give phase needs a give-two card"),
    ("a gift to the giver", wire(phase="give", give_to=1, give_left=1), "give_to 1"),
    ("a gift to nobody", wire(phase="give", give_to=7, give_left=1), "give_to 7"),
    ("a gift of more cards than held",
     wire(phase="give", give_to=0, give_left=2, hands__1=["9S"],
          stock=list(SOUND.stock) + ["4S"]), "give_left 2"),
    ("a gift of three cards", wire(phase="give", give_to=0, give_left=3), "give_left 3"),
    ("a gift pending outside the give phase", wire(give_to=0, give_left=1),
     "outside the give phase"),
    ("a fact about a seat past the players", wire(lacks=[lack(3, 0, "H", "6")]),
     "seat is past the players"),
    ("a fact naming no suit", wire(lacks=[lack(1, 0, "Z", "6")]), "must be distinct"),
    ("a fact naming a suit twice", wire(lacks=[lack(1, 0, "HH", "6")]), "must be distinct"),
    ("a fact naming no rank", wire(lacks=[lack(1, 0, "H", "1")]), "must be distinct"),
    ("a fact with a negative count", wire(lacks=[lack(1, -1, "H", "6")]), "says something only"),
    ("a fact that says nothing any more", wire(lacks=[lack(1, 2, "H", "6")]),
     "says something only"),
    ("a fact the hand breaks by its suit", wire(lacks=[lack(0, 0, "H", "")]), "holds 1 cards"),
    ("a fact the hand breaks by a wild card", wire(lacks=[lack(2, 0, "S", "")]),
     "holds 1 cards"),
    ("a fact the hand breaks past its count", wire(lacks=[lack(0, 1, "CH", "")]),
     "holds 2 cards"),
    ("two facts with one count", wire(lacks=[lack(1, 0, "H", ""), lack(1, 0, "C", "")]),
     "same count are one fact"),
]


@pytest.mark.parametrize("label, data, problem", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_state_is_refused_as_invalid_state(label, data, problem):
    with pytest.raises(InvalidState) as refused:
        ENGINE.decode(data)
    assert refused.value.code == "invalid_state"
    assert any(problem in p for p in refused.value.problems), refused.value.problems


GIVE_TWO = Options(effect_give_two="5")  # the 5 makes its player give two cards


def giving(**changes):
    """Bob has just laid a give-two 5 and gives to Ann."""
    state = position([["9H", "2C", "AS"], ["9S", "4S"], ["KD", "QD", "X1"]], ["6H", "5H"],
                     options=GIVE_TWO, current=1, phase="give", give_to=0, give_left=1)
    return edited_wire(ENGINE, state, **changes)


# Each state breaks exactly one invariant, so the check that names it is the only one that can
# refuse it: deleting or loosening that check lets the state through.
ALONE = [
    ("unannounced one past the players", wire(unannounced=3), "unannounced index 3"),
    ("a gift to one past the players", giving(give_to=3), "give_to 3"),
    ("a total exactly at the target in play", wire(totals=[10, 100, 30]),
     "reaches 100 but the match goes on"),
    ("every hand empty in a finished match",
     ENGINE.encode(position([[], [], []], ["5H", "6H"], phase="over", totals=(10, 120, 30),
                            round_points=(0, 20, 30))), "every hand is empty"),
]


@pytest.mark.parametrize("label, data, problem", ALONE, ids=[b[0] for b in ALONE])
def test_a_state_breaking_one_invariant_is_refused_for_that_one_alone(label, data, problem):
    with pytest.raises(InvalidState) as refused:
        ENGINE.decode(data)
    [only] = refused.value.problems
    assert problem in only


# Each sits on the edge of a check: a check that slid by one would refuse it.
SOUND_EDGES = [
    ("the first round, seat 0 to play, a total of 0",
     wire(round=1, current=0, totals=[0, 20, 30], round_points=[0, 0, 0])),
    ("a match over with a total exactly at the target",
     ENGINE.encode(position([["9H"], ["9S", "4S"], ["KD"]], ["5H", "6H"], phase="over",
                            totals=(10, 100, 30), round_points=(0, 20, 30)))),
    ("one card left to give, to seat 0", giving()),
    ("two cards to give by a player holding two", giving(give_left=2)),
    ("facts the hands keep: none of the cards, or as many as arrived",
     wire(lacks=[lack(1, 0, "CDH", "6Q"), lack(0, 1, "H", "9"), lack(0, 2, "CH", "")])),
    ("an empty hand while an attack returns to its player",
     ENGINE.encode(position([[], ["9S", "4S"], ["KD", "QD"]], ["6H", "X1"], current=1,
                            phase="attack", attack=4, attack_returns=True))),
]


@pytest.mark.parametrize("label, data", SOUND_EDGES, ids=[b[0] for b in SOUND_EDGES])
def test_a_sound_state_at_the_edge_of_a_check_decodes(label, data):
    assert ENGINE.problems(ENGINE.decode(data)) == []


@pytest.mark.parametrize("label, data", [
    ("a hand that is not a list", wire(hands__0="9H")),
    ("a card that is a number", wire(pile=[5])),
    ("a missing field", {k: v for k, v in wire().items() if k != "stock"}),
])
def test_a_state_that_does_not_parse_is_refused(label, data):
    with pytest.raises(InvalidState):
        ENGINE.decode(data)


def test_trusted_states_skip_the_invariant_checks():
    assert ENGINE.decode(wire(passes=3), trusted=True).passes == 3
