"""A random player for tests, benchmarks and soak runs: not a rule, a way to finish matches.

Uniform choice among legal moves does not finish every game: in L'Empereur a player may draw
and pass instead of laying cards, so random play hoards cards and a round can run for ever.
This player picks among the moves of the game's first declared move type (its way of making
progress: lay, play, roll) three times out of four when it has any, and uniformly otherwise.
"""

from __future__ import annotations

import random

from .engine import Engine, Move

PROGRESS_SHARE = 0.75


def random_move(engine: Engine, moves: list[Move], rnd: random.Random) -> Move:
    progress_type = engine.move_types[0].type
    progress = [m for m in moves if m["type"] == progress_type]
    if progress and rnd.random() < PROGRESS_SHARE:
        return rnd.choice(progress)
    return rnd.choice(moves)
