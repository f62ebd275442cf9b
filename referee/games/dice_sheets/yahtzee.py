"""The Yahtzee sheet, the American rules: Aces to Sixes with a bonus of 35 when they reach 63,
Three and Four of a Kind (the sum of all five dice), Full House 25, Small Straight 30 (four
in a run), Large Straight 40 (five in a run), Yahtzee 50 (five of a kind) and Chance (the sum
of the dice); thirteen boxes, thirteen turns. Its two special rules:

  - the Yahtzee bonus: each further five of a kind scores 100 more while the Yahtzee box holds
    its 50 (none once it holds a 0);
  - the joker rule: once the Yahtzee box is filled, a further five of a kind fills, under the
    official ("forced") reading, the number box of its face if free, else any free lower box
    at its full value (Full House 25, Small Straight 30, Large Straight 40; the Kinds and
    Chance the sum of the dice), else a free number box for 0. `YAHTZEE_FREE_JOKER` is the
    other published reading, that of Verhoeff's optimal player: the joker fills any free box,
    at full value once the number box of its face is filled.

The two readings' exact solitaire optima (`referee.games.generala_dice.sheetsolver`, printed
by `python -m bench.sheets`): 254.5877 under the official forced joker, 254.5896 under the
free choice, which is Verhoeff's published 254.5896; both are 254.59 to two decimals.

This is the American preset of the Yams sheet to come (the French classic has the same boxes);
declared, scored and solved, not yet a game of the catalogue. A Full House is three of one
face and two of another: five of a kind makes one only as a joker.
"""

from __future__ import annotations

import dataclasses

from .declaration import Box, Joker, RepeatBonus, Sheet, UpperBonus
from .scorers import Face, OfAKind, Straight, dice_total, five_of_a_kind, full_house

NUMBER_BOXES = ("aces", "twos", "threes", "fours", "fives", "sixes")
SMALL_STRAIGHTS = tuple(frozenset(range(low, low + 4)) for low in (1, 2, 3))
LARGE_STRAIGHTS = tuple(frozenset(range(low, low + 5)) for low in (1, 2))

YAHTZEE = Sheet(
    name="yahtzee",
    boxes=(
        *(Box(name, dice=Face(face)) for face, name in enumerate(NUMBER_BOXES, start=1)),
        Box("three_of_a_kind", OfAKind(3), dice=dice_total),
        Box("four_of_a_kind", OfAKind(4), dice=dice_total),
        Box("full_house", full_house, value=25),
        Box("small_straight", Straight(SMALL_STRAIGHTS), value=30),
        Box("large_straight", Straight(LARGE_STRAIGHTS), value=40),
        Box("yahtzee", five_of_a_kind, value=50),
        Box("chance", dice=dice_total),
    ),
    upper_bonus=UpperBonus(NUMBER_BOXES, threshold=63, amount=35),
    repeat_bonus=RepeatBonus("yahtzee", amount=100),
    joker=Joker("yahtzee", forced=True),
)

YAHTZEE_FREE_JOKER = dataclasses.replace(YAHTZEE, joker=Joker("yahtzee", forced=False))
