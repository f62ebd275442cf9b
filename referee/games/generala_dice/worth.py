"""What a free box of a sheet is still worth: the timeout's tie-break (docs/rules/generala-dice.md,
"What a box is still worth").

The timeout fills the free box that scores most; among boxes scoring the same it gives up the
one the player loses least by. A free box is worth the points it brings, on average, when one
whole turn is aimed at it: three rolls, keeping the best dice for it, stopping once it is made.
  - a box of fixed value: its value times the chance of making it in such a turn, plus the
    servida bonus times the chance of making it on the first roll, where the sheet pays one;
  - a number box: its face times 5 x (1 - (5/6)^3), the dice showing the aimed face;
  - any other box the dice count: the best average of its points over such a turn;
  - a box another unlocks (Generala's Doble): its value times its chance, times the chance of
    the unlocking box too while that one is free; nothing once the unlocking box is scratched
    or worth nothing (a dead box).
Filling a box loses its own worth and what it changes in another (scratching the Generala also
loses the Doble's). The chances are exact: a dynamic program over the 252 hands in integers,
rounded to the nearest float once, so every sheet's figures are what the rule says and no less.
"""

from __future__ import annotations

import itertools
from collections import Counter

from referee.core.memo import BoundedMemo
from referee.games.dice_sheets.scorers import Face

from .hands import DICE, FACES, HAND_INDEX, HAND_KEEPS, HANDS, KEEPS, MAX_ROLLS
from .scoring import GENERALA_SCORING, SheetScoring

AIMED_FACE_COUNT = 5 * (1 - (5 / 6) ** 3)  # dice showing the aimed face after three rolls
SHEETS_KEPT = 16


def keep_outcomes() -> dict[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """For each keep, the hands rolling the other dice can give and in how many of the
    6**rolled ordered rolls each comes."""
    outcomes = {}
    for keep in KEEPS:
        rolled = Counter(HAND_INDEX[tuple(sorted(keep + roll))]
                         for roll in itertools.product(FACES, repeat=DICE - len(keep)))
        outcomes[keep] = tuple(sorted(rolled.items()))
    return outcomes


def aimed_average(points: list[int], outcomes) -> float:
    """The best average of points[hand] over one turn of three rolls, stopping after any roll
    and keeping any dice before the next, as the nearest float to the exact value. Values are
    kept as integers over 6**(5 x the rolls counted): a keep's value, over 6**(rolled dice),
    is brought to 6**5 by the dice it keeps."""
    best = list(points)
    scale = 1
    for _ in range(MAX_ROLLS - 1):
        keep_value = {keep: 6 ** len(keep) * sum(n * best[h] for h, n in outcomes[keep])
                      for keep in KEEPS}
        scale *= 6 ** DICE
        best = [max(points[h] * scale, *(keep_value[k] for k in HAND_KEEPS[h]))
                for h in range(len(HANDS))]
    return sum(n * best[h] for h, n in outcomes[()]) / (scale * 6 ** DICE)


class SheetWorth:
    """The figures of one sheet: `aimed_chance[box]` and `first_roll_chance[box]` for the
    boxes of fixed value, `aimed_points[box]` for the boxes the dice count."""

    def __init__(self, scoring: SheetScoring):
        self.scoring = scoring
        sheet = scoring.declaration
        self.unlock = sheet.unlock
        outcomes = keep_outcomes()
        first = dict(outcomes[()])
        self.aimed_chance: dict[str, float] = {}
        self.first_roll_chance: dict[str, float] = {}
        self.aimed_points: dict[str, float] = {}
        for box in sheet.boxes:
            name = box.name
            if box.fixed:
                made = [int(name in makes) for makes in scoring.hand_makes]
                self.aimed_chance[name] = aimed_average(made, outcomes)
                self.first_roll_chance[name] = sum(
                    n for h, n in first.items() if made[h]) / 6 ** DICE
            elif isinstance(box.dice, Face):
                self.aimed_points[name] = box.dice.face * AIMED_FACE_COUNT
            else:
                self.aimed_points[name] = aimed_average(list(scoring.hand_points[name]),
                                                        outcomes)

    def still_worth(self, box: str, filled: dict[str, int], values: dict[str, int]) -> float:
        """What the free `box` of this sheet may still bring: 0 for a dead box (one that can
        only ever hold 0, such as the Doble once the Generala is scratched)."""
        if box in self.aimed_points:
            return self.aimed_points[box]
        unlock = self.unlock
        if unlock is not None and box == unlock.box:
            full_value = values[unlock.by]
            if full_value <= 0 or filled.get(unlock.by, full_value) != full_value:
                return 0.0  # never unlocked: a box worth nothing, or scratched
            # unlocked already, or still to be unlocked in another turn
            unlocking = 1.0 if unlock.by in filled else self.aimed_chance[unlock.by]
            return values[box] * self.aimed_chance[box] * unlocking
        worth = values[box] * self.aimed_chance[box]
        if box in self.scoring.servida_boxes:
            worth += values["servida_bonus"] * self.first_roll_chance[box]
        return worth

    def sheet_worth(self, filled: dict[str, int], values: dict[str, int]) -> float:
        """What the free boxes of a sheet may still bring, together."""
        return sum(self.still_worth(b, filled, values) for b in self.scoring.boxes
                   if b not in filled)

    def giving_up_cost(self, box: str, points: int, filled: dict[str, int],
                       values: dict[str, int]) -> float:
        """What filling the free `box` with `points` loses of the sheet's future: its own
        worth, and what it changes in another box (scratching the Generala kills the Doble;
        filling it with its value unlocks it, a negative cost)."""
        return (self.sheet_worth(filled, values)
                - self.sheet_worth({**filled, box: points}, values))


def worth_of(scoring: SheetScoring) -> SheetWorth:
    """The figures of a sheet, worked out on its first timeout (a fraction of a second) and
    kept."""
    return WORTHS.get(scoring, SheetWorth)


WORTHS: BoundedMemo[SheetScoring, SheetWorth] = BoundedMemo(SHEETS_KEPT)


def still_worth(box: str, filled: dict[str, int], values: dict[str, int]) -> float:
    """`SheetWorth.still_worth` on the Generala sheet."""
    return worth_of(GENERALA_SCORING).still_worth(box, filled, values)


def giving_up_cost(box: str, points: int, filled: dict[str, int],
                   values: dict[str, int]) -> float:
    """`SheetWorth.giving_up_cost` on the Generala sheet."""
    return worth_of(GENERALA_SCORING).giving_up_cost(box, points, filled, values)
