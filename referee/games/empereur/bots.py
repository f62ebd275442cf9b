"""Simple move choosers for simulations and tests (not part of the rules).

`sensible_move` plays the way a beginner would: go out when a play empties the hand (without a
joker, which would lose the round), else lay the lowest rank it can with all its natural cards,
keep jokers and twos for when nothing else goes, and draw (then pass) only when stuck. With
probability `wander` it picks any legal move instead, so random matches still visit every rule.
"""

from __future__ import annotations

import random
from typing import Any

from .ranks import STRENGTH


def sensible_move(engine: Any, state: Any, rnd: random.Random, wander: float = 0.2,
                  moves: list[dict] | None = None) -> dict:
    """A move among `moves` (the state's legal moves, computed if not given)."""
    if moves is None:
        moves = engine.legal_moves(state, now=0.0)
    if rnd.random() < wander:
        return rnd.choice(moves)
    if state.phase != "play":
        # exchange: keep strong cards, give the weakest allowed
        return min(moves, key=lambda m: (STRENGTH.get(m["card"][0], 13), m["card"]))
    plays = [m for m in moves if m["type"] == "play"]
    hand_size = len(state.hands[state.current])
    for m in plays:
        if len(m["cards"]) == hand_size and not any(c[0] == "X" for c in m["cards"]):
            return m
    natural = [m for m in plays if not any(c[0] == "X" for c in m["cards"])]
    if natural:
        low = min(STRENGTH[m["rank"]] for m in natural)
        same = [m for m in natural if STRENGTH[m["rank"]] == low]
        return max(same, key=lambda m: len(m["cards"]))
    if plays and state.drawn:
        return rnd.choice(plays)
    return next(m for m in moves if m["type"] in ("draw", "pass"))
