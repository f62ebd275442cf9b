"""The Yacht sheet as a declaration: its twelve boxes in order, what each scores (read from the
original categories), and no bonus or special rule."""

from __future__ import annotations

import pytest

from referee.games.dice_sheets.scorers import counts_of
from referee.games.dice_sheets.yacht import YACHT


def points(box: str, dice) -> int:
    return YACHT.box(box).points(counts_of(dice))


def test_the_yacht_sheet_has_the_twelve_original_categories_and_twelve_turns():
    assert YACHT.box_names == ("ones", "twos", "threes", "fours", "fives", "sixes",
                               "full_house", "four_of_a_kind", "little_straight",
                               "big_straight", "choice", "yacht")
    assert YACHT.turns == 12


def test_the_yacht_sheet_has_no_bonus_and_no_special_rule():
    assert YACHT.upper_bonus is None and YACHT.repeat_bonus is None
    assert YACHT.servida is None and YACHT.unlock is None and YACHT.joker is None
    six_each = {name: 5 * face for face, name in enumerate(YACHT.box_names[:6], start=1)}
    assert YACHT.total(six_each) == 105  # no upper bonus however high the upper section


@pytest.mark.parametrize("box,dice,score", [
    ("ones", (1, 1, 3, 1, 6), 3), ("sixes", (6, 2, 6, 6, 6), 24), ("fours", (1, 2, 3, 5, 6), 0),
    # Full House: three and two of two faces, scored by the dice; five of a kind is none
    ("full_house", (2, 2, 6, 6, 6), 22), ("full_house", (5, 5, 5, 5, 5), 0),
    ("full_house", (2, 2, 6, 6, 5), 0),
    # Four of a Kind: the four dice, not the fifth; five of a kind counts
    ("four_of_a_kind", (3, 3, 3, 3, 6), 12), ("four_of_a_kind", (5, 5, 5, 5, 5), 20),
    ("four_of_a_kind", (3, 3, 3, 6, 6), 0),
    ("little_straight", (5, 4, 3, 2, 1), 30), ("little_straight", (2, 3, 4, 5, 6), 0),
    ("big_straight", (6, 5, 4, 3, 2), 30), ("big_straight", (1, 2, 3, 4, 5), 0),
    ("big_straight", (2, 3, 4, 5, 5), 0),
    ("choice", (1, 2, 3, 4, 6), 16), ("choice", (6, 6, 6, 6, 6), 30),
    ("yacht", (4, 4, 4, 4, 4), 50), ("yacht", (4, 4, 4, 4, 3), 0),
])
def test_each_yacht_box_scores_as_its_category_reads(box, dice, score):
    assert points(box, dice) == score


def test_the_yacht_fixed_values_are_the_straights_and_the_yacht():
    assert YACHT.values() == {"little_straight": 30, "big_straight": 30, "yacht": 50}
