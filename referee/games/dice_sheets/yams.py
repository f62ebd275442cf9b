"""The Yams sheet, the classic French one (docs/rules/yams.md): As to Six with a bonus of 35
when they reach 63, Brelan and Carré (the three or four matching dice), Full 25, Petite suite
30 (four in a run), Grande suite 40 (five in a run), Yams 50 (five of a kind) and Chance (the
sum of the dice); thirteen boxes, thirteen turns.

Its readings, the commonest where the French sheets differ (docs/rules/yams.md says why):
Brelan and Carré score the matching dice only (three or four times the face), a Full scores
its fixed 25 and five of a kind is no Full, no Yams bonus and no joker. `YAMS_ALL_DICE` is the
other common reading of Brelan and Carré: the sum of all five dice, the sheet otherwise the
same.

`YAMS_YAHTZEE` is the American rules' preset (`referee.games.dice_sheets.yahtzee.YAHTZEE`
under French names): Brelan and Carré score all five dice, each further Yams scores 100 more
while the Yams box holds its 50, and the joker rule's official (forced) reading;
`YAMS_YAHTZEE_FREE_JOKER` takes the free-choice reading of Verhoeff's optimal player instead.
"""

from __future__ import annotations

import dataclasses

from .declaration import Box, Joker, RepeatBonus, Sheet, UpperBonus
from .scorers import (Face, KindTotal, OfAKind, Straight, dice_total, five_of_a_kind,
                      full_house)
from .yahtzee import LARGE_STRAIGHTS, SMALL_STRAIGHTS

NUMBER_BOXES = ("as", "deux", "trois", "quatre", "cinq", "six")
NUMBERS = tuple(Box(name, dice=Face(face)) for face, name in enumerate(NUMBER_BOXES, start=1))
LOWER_ENDS = (
    Box("full", full_house, value=25),
    Box("petite_suite", Straight(SMALL_STRAIGHTS), value=30),
    Box("grande_suite", Straight(LARGE_STRAIGHTS), value=40),
    Box("yams", five_of_a_kind, value=50),
    Box("chance", dice=dice_total),
)
UPPER_BONUS = UpperBonus(NUMBER_BOXES, threshold=63, amount=35)

YAMS = Sheet(
    name="yams",
    boxes=(*NUMBERS, Box("brelan", dice=KindTotal(3)), Box("carre", dice=KindTotal(4)),
           *LOWER_ENDS),
    upper_bonus=UPPER_BONUS,
)

KINDS_ON_ALL_DICE = (Box("brelan", OfAKind(3), dice=dice_total),
                     Box("carre", OfAKind(4), dice=dice_total))

YAMS_ALL_DICE = Sheet(
    name="yams-all-dice",
    boxes=(*NUMBERS, *KINDS_ON_ALL_DICE, *LOWER_ENDS),
    upper_bonus=UPPER_BONUS,
)

YAMS_YAHTZEE = Sheet(
    name="yams-yahtzee",
    boxes=(*NUMBERS, *KINDS_ON_ALL_DICE, *LOWER_ENDS),
    upper_bonus=UPPER_BONUS,
    repeat_bonus=RepeatBonus("yams", amount=100),
    joker=Joker("yams", forced=True),
)

YAMS_YAHTZEE_FREE_JOKER = dataclasses.replace(
    YAMS_YAHTZEE, name="yams-yahtzee-free-joker", joker=Joker("yams", forced=False))
