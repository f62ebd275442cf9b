"""Huit américain, the "again" phase (a play-again card, the 10, just laid) with nothing left to
draw: the stock empty and the pile down to that one card. The player lays another card if he
holds one that follows; only when he holds none may he pass (docs/rules/huit-americain.md).

The states are made the way a client would post them: a match is started, its wire form is
edited (`engine.encode` -> edit -> `engine.decode`), and the edited state is checked sound.
Only the registry's engine is used, through its public methods.
"""

from __future__ import annotations

import pytest

from referee.core.errors import IllegalMove
from referee.games import REGISTRY
from tests.support import edited_wire

ENGINE = REGISTRY["huit-americain"]
NOW = 0.0
TOP = "TH"  # the play-again card on the pile, hearts in force


def again_with_nothing_to_draw(hand: list[str]):
    """Ann in turn in the again phase after the ten of hearts, holding `hand`; the stock empty,
    the pile that ten alone, Bob holding every other card."""
    opened = edited_wire(ENGINE, ENGINE.new_match(("ann", "bob"), {}, "again-phase", now=NOW))
    deck = [card for held in opened["hands"] for card in held] + opened["stock"] + opened["pile"]
    assert sorted(deck) == sorted(set(deck)) and TOP in deck and set(hand) <= set(deck)
    others = [card for card in deck if card != TOP and card not in hand]
    wire = dict(opened, phase="again", stock=[], pile=[TOP], suit="H", rank="T", current=0,
                hands=[list(hand), others], attack=0, passes=0, unannounced=-1, lacks=[])
    state = ENGINE.decode(wire)
    assert ENGINE.problems(state) == []
    written = edited_wire(ENGINE, state)
    assert (written["phase"], written["stock"], written["pile"]) == ("again", [], [TOP])
    return state


PASS = {"type": "pass", "player": "ann"}


@pytest.mark.parametrize("hand", [["2C", "3C"], ["2C", "3S", "KD"], ["4D", "9S"]])
def test_with_no_card_to_lay_the_only_move_is_to_pass(hand):
    state = again_with_nothing_to_draw(hand)
    assert ENGINE.legal_moves(state, now=NOW) == [PASS]
    after, events = ENGINE.apply(state, PASS, now=NOW)
    assert [e["type"] for e in events][:1] == ["passed"]
    assert ENGINE.to_act(after, now=NOW) == ["bob"]


@pytest.mark.parametrize("hand, layable", [
    (["2C", "5H"], {"5H"}),  # the suit in force
    (["2C", "TC"], {"TC"}),  # the rank in force
    (["2C", "8C"], {"8C"}),  # an eight, laid on anything
    (["2C", "X1"], {"X1"}),  # a joker, laid on anything
    (["2C", "3C", "5H", "TS"], {"5H", "TS"}),
])
def test_with_a_card_to_lay_pass_is_not_listed_and_is_refused(hand, layable):
    state = again_with_nothing_to_draw(hand)
    moves = ENGINE.legal_moves(state, now=NOW)
    assert PASS not in moves
    assert {m["type"] for m in moves} == {"lay"}  # nothing to draw either
    assert {m["card"] for m in moves} == layable
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, PASS, now=NOW)
    assert refused.value.rule == "must_lay"


@pytest.mark.parametrize("hand", [["2C", "3C"], ["2C", "5H"], ["2C", "3C", "X2"]])
def test_pass_is_listed_exactly_when_no_lay_is(hand):
    moves = ENGINE.legal_moves(again_with_nothing_to_draw(hand), now=NOW)
    lays = [m for m in moves if m["type"] == "lay"]
    assert (PASS in moves) == (not lays)
    assert moves.count(PASS) <= 1
