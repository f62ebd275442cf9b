"""Solitaire games played by the sheet solver's policy (`sheetplay`): seeded, so the same every
run; their mean agrees with the exact optimum; a box filled pays every bonus and the joker."""

from __future__ import annotations

import numpy as np
import pytest

from referee.games.dice_sheets.declaration import Box, Joker, RepeatBonus, Sheet, UpperBonus
from referee.games.dice_sheets.scorers import Face, five_of_a_kind, full_house
from referee.games.generala_dice import dicetables as dt
from referee.games.generala_dice.scoring import SheetScoring
from referee.games.generala_dice.sheetplay import fill, play, roll
from referee.games.generala_dice.sheetsolver import SheetSolver

SHEET = Sheet("small", (Box("aces", dice=Face(1)), Box("threes", dice=Face(3)),
                        Box("full_house", full_house, value=25),
                        Box("yahtzee", five_of_a_kind, value=50)),
              upper_bonus=UpperBonus(("aces", "threes"), threshold=9, amount=20),
              repeat_bonus=RepeatBonus("yahtzee", 100), joker=Joker("yahtzee"))


@pytest.fixture(scope="module")
def solver() -> SheetSolver:
    return SheetSolver(SheetScoring(SHEET), SHEET.values())


def test_games_are_seeded_and_their_mean_agrees_with_the_optimum(solver):
    totals = play(solver, 4000, seed=5)
    assert np.array_equal(totals, play(solver, 4000, seed=5))
    error = totals.std(ddof=1) / np.sqrt(len(totals))
    assert abs(totals.mean() - solver.start) < 4 * error


def test_a_roll_keeps_the_kept_dice_and_rolls_the_others():
    rng = np.random.default_rng(3)
    keeps = np.full(500, dt.KEEP_INDEX[(2, 2, 6)])
    hands = roll(rng, keeps)
    for hand in set(hands.tolist()):
        assert dt.HANDS[hand].count(2) >= 2 and dt.HANDS[hand].count(6) >= 1
    assert len(set(hands.tolist())) > 10  # the two other dice vary


def test_a_joker_pays_the_yahtzee_bonus_and_the_full_value_of_the_full_house(solver):
    state = solver.state_of({"yahtzee": 50, "threes": 9})
    fives_of_three = dt.HAND_INDEX[(3,) * 5]
    box = np.array([SHEET.box_names.index("full_house")])
    points, after = fill(solver, np.array([state]), box, np.array([fives_of_three]),
                         np.array([False]))
    assert points.tolist() == [25 + 100]
    assert after.tolist() == [solver.state_of({"yahtzee": 50, "threes": 9, "full_house": 25})]


def test_a_five_of_a_kind_into_its_number_box_pays_the_upper_bonus_it_reaches(solver):
    state = solver.state_of({"yahtzee": 0, "aces": 3})
    box = np.array([SHEET.box_names.index("threes")])
    points, after = fill(solver, np.array([state]), box, np.array([dt.HAND_INDEX[(3,) * 5]]),
                         np.array([True]))
    assert points.tolist() == [15 + 20]  # no Yahtzee bonus: the box holds 0
    assert after.tolist() == [solver.state_of({"yahtzee": 0, "aces": 3, "threes": 15})]
