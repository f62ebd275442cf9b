"""The Yahtzee sheet (the American rules, the Yams preset to come) as a declaration: its thirteen
boxes, what each scores, the upper bonus, the Yahtzee bonus and the joker rule under its two
published readings (the official forced joker, and the free choice of Verhoeff's player)."""

from __future__ import annotations

import pytest

from referee.games.dice_sheets.scorers import counts_of
from referee.games.dice_sheets.yahtzee import NUMBER_BOXES, YAHTZEE, YAHTZEE_FREE_JOKER

LOWER = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight",
         "chance")


def points(box: str, dice) -> int:
    return YAHTZEE.box(box).points(counts_of(dice))


def test_the_yahtzee_sheet_has_thirteen_boxes_and_thirteen_turns():
    assert YAHTZEE.box_names == (*NUMBER_BOXES, "three_of_a_kind", "four_of_a_kind",
                                 "full_house", "small_straight", "large_straight", "yahtzee",
                                 "chance")
    assert YAHTZEE.turns == 13
    assert YAHTZEE.values() == {"full_house": 25, "small_straight": 30, "large_straight": 40,
                                "yahtzee": 50}


@pytest.mark.parametrize("box,dice,score", [
    ("aces", (1, 1, 3, 1, 6), 3), ("sixes", (6, 2, 6, 6, 6), 24),
    ("three_of_a_kind", (4, 4, 4, 1, 2), 15), ("three_of_a_kind", (4, 4, 3, 1, 2), 0),
    ("four_of_a_kind", (4, 4, 4, 4, 2), 18), ("four_of_a_kind", (4, 4, 4, 1, 2), 0),
    ("four_of_a_kind", (5, 5, 5, 5, 5), 25),
    ("full_house", (2, 2, 6, 6, 6), 25), ("full_house", (5, 5, 5, 5, 5), 0),
    ("small_straight", (1, 2, 3, 4, 6), 30), ("small_straight", (3, 4, 5, 6, 6), 30),
    ("small_straight", (1, 2, 3, 5, 6), 0), ("small_straight", (2, 3, 4, 5, 6), 30),
    ("large_straight", (5, 4, 3, 2, 1), 40), ("large_straight", (1, 2, 3, 4, 6), 0),
    ("yahtzee", (3, 3, 3, 3, 3), 50), ("yahtzee", (3, 3, 3, 3, 4), 0),
    ("chance", (1, 2, 3, 4, 6), 16),
])
def test_each_yahtzee_box_scores_as_the_american_rules_read(box, dice, score):
    assert points(box, dice) == score


def test_the_upper_bonus_is_35_once_the_number_boxes_reach_63():
    three_each = {name: 3 * face for face, name in enumerate(NUMBER_BOXES, start=1)}
    assert YAHTZEE.total(three_each) == 63 + 35
    assert YAHTZEE.total({**three_each, "aces": 2}) == 62


def test_the_yahtzee_bonus_watches_the_yahtzee_box_and_the_readings_differ_only_in_the_joker():
    assert (YAHTZEE.repeat_bonus.box, YAHTZEE.repeat_bonus.amount) == ("yahtzee", 100)
    assert YAHTZEE.joker.forced and not YAHTZEE_FREE_JOKER.joker.forced
    assert YAHTZEE_FREE_JOKER.boxes == YAHTZEE.boxes


def test_a_joker_scores_a_lower_box_at_its_full_value():
    fives = counts_of((5,) * 5)
    full = {name: YAHTZEE.box(name).joker_points(fives) for name in LOWER}
    assert full == {"three_of_a_kind": 25, "four_of_a_kind": 25, "full_house": 25,
                    "small_straight": 30, "large_straight": 40, "chance": 25}
    assert YAHTZEE.box("fives").joker_points(fives) == 25
    assert YAHTZEE.box("twos").joker_points(fives) == 0


def test_the_forced_joker_takes_its_number_box_then_a_lower_box_then_a_number_box_for_0():
    free = set(YAHTZEE.box_names) - {"yahtzee"}
    assert YAHTZEE.joker_boxes(4, free) == ("fours",)
    assert YAHTZEE.joker_boxes(4, free - {"fours"}) == LOWER
    assert YAHTZEE.joker_boxes(4, {"aces", "full_house"}) == ("full_house",)
    assert YAHTZEE.joker_boxes(4, {"aces", "sixes"}) == ("aces", "sixes")


def test_the_free_choice_joker_takes_any_free_box():
    assert YAHTZEE_FREE_JOKER.joker_boxes(4, {"fours", "chance", "aces"}) == (
        "aces", "fours", "chance")
    assert YAHTZEE_FREE_JOKER.joker_boxes(4, {"aces", "full_house"}) == ("aces", "full_house")


def test_a_joker_scores_full_values_only_once_its_number_box_is_filled():
    for sheet in (YAHTZEE, YAHTZEE_FREE_JOKER):
        assert not sheet.joker_scores_full(4, {"fours", "full_house"})
        assert sheet.joker_scores_full(4, {"aces", "full_house"})
