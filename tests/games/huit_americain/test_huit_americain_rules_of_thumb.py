"""Huit américain's rules of thumb (the `medium` hint, and every seat of the hard search's
playouts): a card aimed at a player aims at the one holding fewest cards, the first in seat
order of equals, whether the rules read a player's view or the playout's whole state."""

from __future__ import annotations

from referee.games.huit_americain import ENGINE
from referee.games.huit_americain.hints import medium_move, playout
from referee.games.huit_americain.position import position

# Seated dee, cy, bob, ann: the seat order is not the names' order. cy and ann hold two cards
# each, bob five; dee lays his 3 of hearts, which swaps hands with the player it names.
HANDS = [["3H", "3S"], ["9S", "4S"], ["KD", "QD", "3C", "4D", "6S"], ["TC", "JC"]]
PLAYERS = ("dee", "cy", "bob", "ann")


def test_a_card_aimed_at_a_player_aims_at_the_first_in_seat_order_of_those_holding_fewest():
    state = position(HANDS, ["5H"], players=PLAYERS, effect_swap_hands="3")
    legal = ENGINE.legal_moves(state, now=0.0)
    mine = [m for m in legal if m["player"] == "dee"]
    assert {m.get("target") for m in mine if m["type"] == "lay"} == {"cy", "bob", "ann"}
    move, _ = medium_move(ENGINE.view(state, "dee"), mine)
    assert move["card"] == "3H" and move["target"] == "cy"
    assert playout(ENGINE, state, legal, None) == move
