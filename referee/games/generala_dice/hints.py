"""Hints and bots for Generala: `advise(engine, view, moves, level)`, which the package wires
into its engine (`ENGINE.advise(view, moves, level)`).

Levels, each a way to play (`strategies`):
  easy    a beginner's habits            the easy bot of the rule text scored about 113 a game
  medium  a club player's rules of thumb  its medium bot about 158
  hard    the exact optimum of the expected final score (about 162.5 with the sheet's values)
  win     the best chance to finish on top, given every opponent's sheet

What an advice holds and how it is worked out: `advice`.
"""

from __future__ import annotations

from typing import Any

from referee.core.engine import Engine, Move
from referee.core.hints import Advice


def advise(engine: Engine, view: dict[str, Any], moves: list[Move], level: str) -> Advice:
    # Imported on the first hint, not with the game: the hint tables need numpy, which moves
    # and views do not (the README's promise). `advice` imports nothing of this module.
    from . import advice
    return advice.advise(engine, view, moves, level)
