"""Yacht's engine: the dice-sheet engine (`referee.games.generala_dice.engine.DiceSheetGame`)
playing the Yacht sheet declared in `referee.games.dice_sheets.yacht` (docs/rules/yacht.md).

Nothing of the turn is written here: this module only declares what makes Yacht a game of its
own, its sheet, its options (the turn clock alone: the sheet has no house values and no
house rule), its state and its wire, the last two made from the sheet's box names.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from referee.games.dice_sheets.yacht import YACHT
from referee.games.generala_dice.engine import TURN_CLOCK, DiceSheetGame, sheet_move_types
from referee.games.generala_dice.scoring import SheetScoring
from referee.games.generala_dice.state import SheetOptions, SheetState
from referee.games.generala_dice.wire import declare


class Options(SheetOptions, frozen=True, dict=True):
    """Yacht's options: the turn clock."""

    sheet: ClassVar[SheetScoring] = SheetScoring(YACHT)


@dataclasses.dataclass(frozen=True)
class State(SheetState):  # a Yacht match (no docstring: the contract describes none)
    options: Options


WIRE = declare(Options.sheet, Options, instant_win=False)


class Yacht(DiceSheetGame):
    id = "yacht"
    name = "Yacht"
    summary = "Five dice, three rolls a turn, twelve boxes; the highest total wins."
    options_type = Options
    state_type = State
    event_types = WIRE.events
    view_type = WIRE.view
    scores_type = WIRE.scores
    hint_levels = ("easy", "medium", "hard", "win")
    options = (TURN_CLOCK,)
    move_types = sheet_move_types(Options.sheet)
