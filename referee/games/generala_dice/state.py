"""The state of a Generala match: plain frozen data, the wire form of open mode; its options
name the sheet the match plays (`Options.sheet`)."""

from __future__ import annotations

import dataclasses
import functools
from typing import ClassVar

import msgspec

from .scoring import GENERALA_SCORING, SheetScoring


# A frozen msgspec Struct, as every game's options: built, hashed and compared in C when a
# request's state is read (docs/ENGINE_GUIDE.md, "States").
class Options(msgspec.Struct, frozen=True, dict=True):
    # The sheet these options play: the turn reads its boxes and scorers from here, so it
    # names no box of its own (a class attribute, not an option: Generala plays one sheet).
    sheet: ClassVar[SheetScoring] = GENERALA_SCORING

    turn_seconds: int = 45
    servida_generala_wins: bool = False
    escalera: int = 20
    full: int = 30
    poker: int = 40
    generala: int = 50
    doble_generala: int = 100
    servida_bonus: int = 5

    @functools.cached_property
    def values(self) -> dict[str, int]:
        """The box values and the servida bonus, for the scoring of every box: made once (a
        match's options never change), read it, never change it. Kept in the instance's
        dictionary, outside the dataclass fields, so equality, hashing and the wire form
        never see it."""
        return {"escalera": self.escalera, "full": self.full, "poker": self.poker,
                "generala": self.generala, "doble_generala": self.doble_generala,
                "servida_bonus": self.servida_bonus}


@dataclasses.dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    options: Options
    seed: str
    step: int
    current: int  # index into players of whose turn it is
    rolls: int  # rolls made in this turn, 0 to 3
    dice: tuple[int, ...]  # empty before the first roll of a turn, else five faces
    sheets: tuple[dict[str, int], ...]  # per player: the boxes filled so far and their scores
    deadline: float | None  # epoch seconds when the turn clock runs out; None without a clock
    instant_winner: str | None = None  # set when a servida Generala wins at once (house rule)
