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

from .ranks import CARD_STRENGTH, STRENGTH, TWO


def jokers_in(move: Move) -> int:
    return sum(card[0] == "X" for card in move["cards"])


def weakest_play(plays: list[Move]) -> Move:
    """The play of fewest jokers, then of the lowest rank."""
    return min(plays, key=lambda m: (jokers_in(m), STRENGTH[m["rank"]]))


def rules_of_thumb(held: int, moves: list[Move], *, keep_twos: bool = True,
                   after_drawing: Callable = weakest_play) -> tuple[Move, str]:
    """The move among `moves` of a player holding `held` cards, and why."""
    gifts = [m for m in moves if m["type"] == "give"]
    if gifts:
        return (min(gifts, key=lambda m: (CARD_STRENGTH[m["card"]], m["card"])),
                "give the weakest card allowed")
    plays = [m for m in moves if m["type"] == "play"]
    for m in plays:
        if len(m["cards"]) == held and not jokers_in(m):
            return m, "go out without a joker"
    natural = [m for m in plays if not jokers_in(m) and not (keep_twos and m["rank"] == TWO)]
    if natural:
        low = min(STRENGTH[m["rank"]] for m in natural)
        return (max((m for m in natural if STRENGTH[m["rank"]] == low),
                    key=lambda m: len(m["cards"])),
                "lay the lowest rank, all of it, keeping twos and jokers")
    other = next(m for m in moves if m["type"] in ("draw", "pass"))
    if other["type"] == "draw" or not plays:
        return other, ("nothing natural to lay: draw" if other["type"] == "draw"
                       else "nothing to lay: pass")
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
