"""Yams' engine: the dice-sheet engine (`referee.games.generala_dice.engine.DiceSheetGame`)
playing the Yams sheet declared in `referee.games.dice_sheets.yams` (docs/rules/yams.md).

Nothing of the turn is written here: this module only declares what makes Yams a game of its
own: its options (the turn clock, and `rules`, which picks the sheet's reading: the French
classic, with Brelan and Carré on their matching dice or on all five, or the American rules of Yahtzee as one preset, with its official or its free-choice
joker), its state (which counts each player's Yahtzee bonuses beside the boxes) and its wire,
made from the sheet's box names, which every reading shares.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Literal

from referee.core.engine import Option
from referee.games.dice_sheets.yams import (YAMS, YAMS_ALL_DICE, YAMS_YAHTZEE,
                                            YAMS_YAHTZEE_FREE_JOKER)
from referee.games.generala_dice.engine import TURN_CLOCK, DiceSheetGame, sheet_move_types
from referee.games.generala_dice.scoring import SheetScoring
from referee.games.generala_dice.state import SheetOptions, SheetState
from referee.games.generala_dice.wire import declare

Rules = Literal["yams", "yams_all_dice", "yahtzee", "yahtzee_free_joker"]
# The sheet each reading plays: compiled once, shared by every match.
SHEETS: dict[str, SheetScoring] = {
    "yams": SheetScoring(YAMS),
    "yams_all_dice": SheetScoring(YAMS_ALL_DICE),
    "yahtzee": SheetScoring(YAMS_YAHTZEE),
    "yahtzee_free_joker": SheetScoring(YAMS_YAHTZEE_FREE_JOKER),
}


class Options(SheetOptions, frozen=True, dict=True):
    """Yams' options: the turn clock and the rules the sheet is read by."""

    # The French sheet's, which names the boxes every reading shares (the contract's); a
    # match's own options read their sheet by `rules` (`__post_init__`).
    sheet: ClassVar[SheetScoring] = SHEETS["yams"]

    rules: Rules = "yams"

    def __post_init__(self) -> None:
        # Kept in the instance's dictionary, outside the fields, as `values` is: equality,
        # hashing and the wire form never see it.
        self.__dict__["sheet"] = SHEETS[self.rules]


@dataclasses.dataclass(frozen=True)
class State(SheetState):  # a Yams match (no docstring: the contract describes none)
    options: Options
    # Per player, the Yahtzee bonuses earned (only the Yahtzee preset pays them); a field of
    # its own, required, though the shared state names the attribute None for other games.
    yahtzee_bonuses: tuple[int, ...] = dataclasses.field()


WIRE = declare(Options.sheet, Options, instant_win=False, yahtzee_bonus=True)


class Yams(DiceSheetGame):
    id = "yams"
    name = "Yams"
    summary = ("Five dice, three rolls a turn, thirteen boxes and a bonus at 63; the highest "
               "total wins.")
    options_type = Options
    state_type = State
    event_types = WIRE.events
    view_type = WIRE.view
    scores_type = WIRE.scores
    hint_levels = ("easy", "medium", "hard", "win")
    options = (
        TURN_CLOCK,
        Option("rules", "string", "yams",
               "the rules the sheet is read by: `yams`, the French classic (Brelan and Carré "
               "score their matching dice, no Yams bonus, no joker); `yams_all_dice`, the same "
               "with Brelan and Carré scoring all five dice; `yahtzee`, the American "
               "rules (Brelan and Carré score all five dice, 100 for each further Yams while "
               "the Yams box holds 50, the official forced joker); `yahtzee_free_joker`, the "
               "same with the free-choice joker of Verhoeff's optimal player",
               choices=("yams", "yams_all_dice", "yahtzee", "yahtzee_free_joker")),
    )
    prepared_options = tuple({"rules": rules} for rules in SHEETS if rules != Options().rules)
    move_types = sheet_move_types(Options.sheet)

    def counted_beside_the_boxes(self, players) -> dict[str, tuple[int, ...]]:
        return {"yahtzee_bonuses": (0,) * len(players)}
