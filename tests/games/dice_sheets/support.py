"""Positions of the dice-sheet games for their hint tests: seeded, the same every run."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from referee.core.engine import Engine

NOW = 0.0


def advise(engine: Engine, state: Any, level: str):
    """The advice at `level` to the player to act, and his legal moves."""
    player = engine.to_act(state, now=NOW)[0]
    mine = [m for m in engine.legal_moves(state, now=NOW) if m["player"] == player]
    return engine.advise(engine.view(state, player), mine, level), mine


def sheet_positions(engine: Engine, options: Any, count: int, seed: int) -> Iterator[Any]:
    """Seeded positions of two-player matches played half by `medium`, half at random."""
    pick = random.Random(seed)
    state = engine.new_match(("ann", "bob"), options, f"hints-{seed}", now=NOW)
    for _ in range(count):
        if engine.is_finished(state):
            state = engine.new_match(("ann", "bob"), options, f"hints-{seed}-{pick.random()}",
                                     now=NOW)
        yield state
        advice, mine = advise(engine, state, "medium")
        move = advice.move if pick.random() < 0.5 else pick.choice(mine)
        state, _ = engine.apply(state, move, now=NOW)
