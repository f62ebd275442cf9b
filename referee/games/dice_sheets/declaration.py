"""A dice sheet as a declaration: what a five-dice score sheet is, with no turn in it.

A sheet declares its boxes in sheet order, what each scores, the fixed values, its bonuses and
its special rules; the number of turns is the number of boxes (one box filled a turn). The turn
itself (three rolls, keeping any dice, filling one box, the clock, the timeout, sealed dice) is
the dice game's, written once for every sheet (`referee.games.generala_dice.turns`).

  Box          a box: a pattern the dice must make (`made`) and either a fixed `value` paid
               then, or a `dice` scorer counting the points (`scorers`)
  UpperBonus   `amount` when the boxes of `boxes` add up to at least `threshold` (Yams: 35
               at 63)
  RepeatBonus  `amount` for each further five of a kind while `box` holds its value (the
               Yahtzee bonus of 100)
  Servida      a hand filled after a turn's first roll adds `bonus` to the `boxes` it makes
               (Generala: +5 on Escalera, Full, Póker)
  Unlock       `box` scores only while box `by` holds its full value above 0 (Generala's
               Doble Generala: a second five of a kind, after a Generala of 50)
  Joker        a five of a kind, once `box` is filled (with its value or 0), is a joker: once
               the number box of its face is filled too, it scores a box other than a number
               box at that box's full value, as if it made the box's pattern (Yahtzee's joker
               rule). Two readings are published: `forced` (the official rules, the default):
               it fills the number box of its face if free, else any free box other than a
               number box, else a free number box (for 0); not forced ("free choice", the
               rules of Verhoeff's optimal player): any free box, the full values still only
               once its number box is filled

Only the rules a sheet plays are declared; every other field stays None.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Collection, Mapping

from .scorers import Counts, Face, Pattern, Scorer, anything


@dataclasses.dataclass(frozen=True)
class Box:
    name: str
    made: Pattern = anything
    value: int | None = None  # the fixed value, or None for a box the dice count
    dice: Scorer | None = None

    def __post_init__(self) -> None:
        if (self.value is None) == (self.dice is None):
            raise ValueError(f"box {self.name!r} needs either a fixed value or a dice scorer")

    @property
    def fixed(self) -> bool:
        return self.value is not None

    def joker_points(self, counts: Counts, value: int | None = None) -> int:
        """What a joker (`Joker`) scores here: the points as if the dice made the pattern."""
        if self.dice is not None:
            return self.dice(counts)
        return self.value if value is None else value

    def points(self, counts: Counts, value: int | None = None) -> int:
        """What these dice score here, the fixed value replaced by `value` when given (house
        values), with no bonus and no special rule."""
        if not self.made(counts):
            return 0
        if self.dice is not None:
            return self.dice(counts)
        return self.value if value is None else value


@dataclasses.dataclass(frozen=True)
class UpperBonus:
    boxes: tuple[str, ...]
    threshold: int
    amount: int


@dataclasses.dataclass(frozen=True)
class RepeatBonus:
    box: str
    amount: int


@dataclasses.dataclass(frozen=True)
class Servida:
    boxes: frozenset[str]
    bonus: int


@dataclasses.dataclass(frozen=True)
class Unlock:
    box: str
    by: str


@dataclasses.dataclass(frozen=True)
class Joker:
    box: str
    forced: bool = True


@dataclasses.dataclass(frozen=True)
class Sheet:
    name: str
    boxes: tuple[Box, ...]
    upper_bonus: UpperBonus | None = None
    repeat_bonus: RepeatBonus | None = None
    servida: Servida | None = None
    unlock: Unlock | None = None
    joker: Joker | None = None

    def __post_init__(self) -> None:
        names = self.box_names
        if len(set(names)) != len(names):
            raise ValueError(f"sheet {self.name!r} declares a box twice")
        named = [*(self.upper_bonus.boxes if self.upper_bonus else ()),
                 *(self.servida.boxes if self.servida else ()),
                 *((self.unlock.box, self.unlock.by) if self.unlock else ()),
                 *((self.repeat_bonus.box,) if self.repeat_bonus else ()),
                 *((self.joker.box,) if self.joker else ())]
        unknown = sorted(set(named) - set(names))
        if unknown:
            raise ValueError(f"sheet {self.name!r} has rules for unknown boxes {unknown}")

    @property
    def box_names(self) -> tuple[str, ...]:
        return tuple(box.name for box in self.boxes)

    @property
    def turns(self) -> int:
        """One box is filled a turn, so a player has as many turns as boxes."""
        return len(self.boxes)

    def box(self, name: str) -> Box:
        return next(box for box in self.boxes if box.name == name)

    @functools.cached_property
    def number_boxes(self) -> dict[int, str]:
        """The boxes counting the dice of one face (Aces to Sixes), by face."""
        return {box.dice.face: box.name for box in self.boxes if isinstance(box.dice, Face)}

    def number_box(self, face: int) -> str | None:
        return self.number_boxes.get(face)

    def joker_scores_full(self, face: int, free: Collection[str]) -> bool:
        """Whether a joker of five `face`s scores the boxes at their full value (`Joker`):
        once the number box of its face is filled (or the sheet has none)."""
        return self.number_box(face) not in free

    def joker_boxes(self, face: int, free: Collection[str]) -> tuple[str, ...]:
        """The boxes, in sheet order, a joker of five `face`s may fill among the `free` ones
        (the `Joker` rule's reading); the caller checks that the joker applies."""
        assert self.joker is not None
        free_boxes = [name for name in self.box_names if name in free]
        if not self.joker.forced:
            return tuple(free_boxes)
        own = self.number_box(face)
        if own in free:
            return (own,)
        others = tuple(name for name in free_boxes if name not in self.number_boxes.values())
        return others or tuple(free_boxes)

    def values(self) -> dict[str, int]:
        """The fixed values, by box name, and the servida bonus if the sheet has one: the
        defaults that house values (a game's options) may replace."""
        values = {box.name: box.value for box in self.boxes if box.value is not None}
        if self.servida is not None:
            values["servida_bonus"] = self.servida.bonus
        return values

    def total(self, filled: Mapping[str, int]) -> int:
        """A sheet's total: its boxes, plus the upper bonus once earned. (The repeat bonus,
        counted per five of a kind, is kept beside the boxes by the game that plays it.)"""
        total = sum(filled.values())
        upper = self.upper_bonus
        if upper is not None and sum(filled.get(b, 0) for b in upper.boxes) >= upper.threshold:
            total += upper.amount
        return total
