"""A player's rules of thumb (not part of the rules), one implementation for the medium hint,
the hard hint's playouts and the random-match bot:

  - at an exchange, give the weakest card allowed;
  - go out when a play empties the hand without a joker (going out on a joker loses the
    round);
  - else lay the lowest rank that goes with natural cards, all of them at once (a doubled
    rank also makes the next player draw), keeping jokers, and twos when `keep_twos`, for
    when nothing else goes;
  - with nothing natural to lay, draw; after drawing, lay a play chosen by `after_drawing`
    among those left rather than pass, or pass.

The hints keep twos and lay the weakest play left after drawing (the defaults). The bot of the
random-match tests, `sensible_move`, lays twos like any rank and a play picked at random after
drawing (its seeded matches stay as they always were), and with probability `wander` any legal
move instead, so random matches still visit every rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from referee.core.engine import Move

from .ranks import CARD_STRENGTH, JOKERS, RANK_ORDER, STRENGTH, TWO


def jokers_in(move: Move) -> int:
    """How many jokers a play lays (the cards of a listed play are distinct)."""
    return len(JOKERS.intersection(move["cards"]))


def weakest_play(plays: list[Move]) -> Move:
    """The play of fewest jokers, then of the lowest rank."""
    return min(plays, key=lambda m: (jokers_in(m), STRENGTH[m["rank"]]))


def rules_of_thumb(held: int, moves: list[Move], *, keep_twos: bool = True,
                   after_drawing: Callable = weakest_play) -> tuple[Move, str]:
    """The move among `moves` of a player holding `held` cards, and why. The moves are read
    in one pass, each play's jokers looked at once: the gifts, the first draw or pass, the
    first natural play that goes out, and the natural play to lay (of the lowest rank, the
    first of the most cards)."""
    gifts: list[Move] = []
    turn_end = going_out = lowest = None
    low, most = len(RANK_ORDER), 0  # the lowest natural play's strength and card count
    for m in moves:
        kind = m["type"]
        if kind == "play":
            cards = m["cards"]
            if not JOKERS.isdisjoint(cards):  # jokers are kept
                continue
            count = len(cards)
            if count == held and going_out is None:
                going_out = m
            rank = m["rank"]
            if keep_twos and rank == TWO:
                continue
            strength = STRENGTH[rank]
            if strength < low or (strength == low and count > most):
                lowest, low, most = m, strength, count
        elif kind == "give":
            gifts.append(m)
        elif turn_end is None:  # a draw or a pass: the first one counts
            turn_end = m
    if gifts:
        return (min(gifts, key=lambda m: (CARD_STRENGTH[m["card"]], m["card"])),
                "give the weakest card allowed")
    if going_out is not None:
        return going_out, "go out without a joker"
    if lowest is not None:
        return lowest, "lay the lowest rank, all of it, keeping twos and jokers"
    if turn_end["type"] == "draw":
        return turn_end, "nothing natural to lay: draw"
    # after drawing: the plays are gathered only here, the one way they are needed
    plays = [m for m in moves if m["type"] == "play"]
    if not plays:
        return turn_end, "nothing to lay: pass"
    return after_drawing(plays), "after drawing, lay the weakest play left rather than pass"


def sensible_move(engine: Any, state: Any, rnd: random.Random, wander: float = 0.2,
                  moves: list[dict] | None = None) -> dict:
    """A move among `moves` (the state's legal moves, computed if not given)."""
    if moves is None:
        moves = engine.legal_moves(state, now=0.0)
    if rnd.random() < wander:
        return rnd.choice(moves)
    return rules_of_thumb(len(state.hands[state.current]), moves, keep_twos=False,
                          after_drawing=rnd.choice)[0]
