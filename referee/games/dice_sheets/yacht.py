"""The Yacht sheet, the original game's twelve categories: Ones to Sixes (no upper bonus), Full
House and Four of a Kind scored by the dice, Little Straight (1-5) and Big Straight (2-6) at 30,
Choice (the sum of the dice) and Yacht (five of a kind) at 50. One box a turn, twelve turns.

Readings taken where the usual texts differ (the commonest, written down here until the
sheet has its rules document): a Full House is three of one face and two of another, so five
of a kind is none, and scores the sum of all five dice; Four of a Kind needs at least four
dice of one face (five of a kind counts) and scores those four dice, not the fifth; no joker,
no bonus, no servida. Declared, scored and solved; not yet a game of the catalogue.
"""

from __future__ import annotations

from .declaration import Box, Sheet
from .scorers import Face, KindTotal, Straight, dice_total, five_of_a_kind, full_house

YACHT = Sheet(
    name="yacht",
    boxes=(
        Box("ones", dice=Face(1)),
        Box("twos", dice=Face(2)),
        Box("threes", dice=Face(3)),
        Box("fours", dice=Face(4)),
        Box("fives", dice=Face(5)),
        Box("sixes", dice=Face(6)),
        Box("full_house", full_house, dice=dice_total),
        Box("four_of_a_kind", dice=KindTotal(4)),
        Box("little_straight", Straight((frozenset({1, 2, 3, 4, 5}),)), value=30),
        Box("big_straight", Straight((frozenset({2, 3, 4, 5, 6}),)), value=30),
        Box("choice", dice=dice_total),
        Box("yacht", five_of_a_kind, value=50),
    ),
)
