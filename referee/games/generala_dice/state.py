"""The state of a dice-sheet match: plain frozen data, the wire form of open mode. What every
sheet's game shares is here (`SheetOptions`, `SheetState`); the options name the sheet the
match plays (`SheetOptions.sheet`), and Generala's own options and state, with its house rules,
derive from them (`Options`, `State`)."""

from __future__ import annotations

import dataclasses
import functools
from typing import ClassVar

import msgspec

from .scoring import GENERALA_SCORING, SheetScoring


# A frozen msgspec Struct, as every game's options: built, hashed and compared in C when a
# request's state is read (docs/ENGINE_GUIDE.md, "States").
class SheetOptions(msgspec.Struct, frozen=True, dict=True):
    """The options of every sheet's game; a game's own options derive from these, naming its
    sheet and adding its house rules."""

    # The sheet these options play: the turn reads its boxes and scorers from here, so it
    # names no box of its own (a class attribute, not an option: a game plays one sheet).
    sheet: ClassVar[SheetScoring]

    turn_seconds: int = 45

    @property
    def instant_win(self) -> bool:
        """Whether five of a kind on a turn's first roll wins the match at once: a house rule
        only some sheets' games offer (Generala's `servida_generala_wins`)."""
        return False

    @functools.cached_property
    def values(self) -> dict[str, int]:
        """The sheet's fixed values and its servida bonus, each replaced by the option named
        after it where the game offers one (house values), for the scoring of every box: made
        once (a match's options never change), read it, never change it. Kept in the
        instance's dictionary, outside the fields, so equality, hashing and the wire form
        never see it."""
        return {name: getattr(self, name, value)
                for name, value in self.sheet.declaration.values().items()}


class Options(SheetOptions, frozen=True, dict=True):
    """Generala's options: the turn clock, the instant-win house rule and the house values."""

    sheet: ClassVar[SheetScoring] = GENERALA_SCORING

    servida_generala_wins: bool = False
    escalera: int = 20
    full: int = 30
    poker: int = 40
    generala: int = 50
    doble_generala: int = 100
    servida_bonus: int = 5

    @property
    def instant_win(self) -> bool:
        return self.servida_generala_wins


@dataclasses.dataclass(frozen=True)
class SheetState:
    """A match of any sheet's game; a game's own state names its options' type."""

    players: tuple[str, ...]
    options: SheetOptions
    seed: str
    step: int
    current: int  # index into players of whose turn it is
    rolls: int  # rolls made in this turn, 0 to 3
    dice: tuple[int, ...]  # empty before the first roll of a turn, else five faces
    sheets: tuple[dict[str, int], ...]  # per player: the boxes filled so far and their scores
    deadline: float | None  # epoch seconds when the turn clock runs out; None without a clock
    # No match of a game without the instant-win house rule ever has an instant winner: a
    # class attribute, not a field, so its states do not carry it.
    instant_winner = None
    # Likewise only a game whose rules may pay a repeat bonus (Yams, under the Yahtzee preset)
    # counts the bonuses each player earned: its state declares the field, others do not.
    yahtzee_bonuses = None


@dataclasses.dataclass(frozen=True)
class State(SheetState):  # a Generala match (no docstring: the contract describes none)
    options: Options
    instant_winner: str | None = None  # set when a servida Generala wins at once (house rule)
