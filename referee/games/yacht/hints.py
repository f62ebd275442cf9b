"""Hints and bots for Yacht: the dice-sheet engine's hints for any declared sheet
(`referee.games.generala_dice.sheethints`), read from the Yacht sheet: `easy`, `medium`,
`hard` (the exact optimum of the expected final score, 166.955 on an empty sheet) and `win`
(the best chance of finishing on top; docs/rules/yacht.md, "Hints")."""

from __future__ import annotations

from typing import Any

from referee.core.engine import Engine, Move
from referee.core.hints import Advice


def advise(engine: Engine, view: dict[str, Any], moves: list[Move], level: str) -> Advice:
    # Imported on the first hint, not with the game: the hint tables need numpy, which moves
    # and views do not (the README's promise).
    from referee.games.generala_dice import sheethints
    return sheethints.advise(engine, view, moves, level)
