"""What the `win` level reads of a sheet's future under the optimum (`sheetfutures`,
`sheetwin`): the exact distributions of the last turns agree with the solver's means and the
backward pass's variances, found independently; the variance of a whole game agrees with
seeded solitaire games; a future summarised by its mean and variance keeps both."""

from __future__ import annotations

import numpy as np
import pytest

from referee.games.dice_sheets.declaration import Box, Joker, RepeatBonus, Sheet, UpperBonus
from referee.games.dice_sheets.scorers import Face, dice_total, five_of_a_kind, full_house
from referee.games.dice_sheets.yacht import YACHT
from referee.games.generala_dice.scoring import SheetScoring
from referee.games.generala_dice.sheetfutures import EXACT_FREE, Futures
from referee.games.generala_dice.sheetplay import play
from referee.games.generala_dice.sheetsolver import SheetSolver
from referee.games.generala_dice.sheetwin import future_law

# Every rule a future can hold: an upper bonus, a repeat bonus and a joker, on five boxes.
SMALL = Sheet("small", (Box("aces", dice=Face(1)), Box("threes", dice=Face(3)),
                        Box("full_house", full_house, value=25), Box("chance", dice=dice_total),
                        Box("yahtzee", five_of_a_kind, value=50)),
              upper_bonus=UpperBonus(("aces", "threes"), threshold=9, amount=20),
              repeat_bonus=RepeatBonus("yahtzee", 100), joker=Joker("yahtzee"))


@pytest.fixture(scope="module", params=[SMALL, YACHT], ids=lambda sheet: sheet.name)
def futures(request) -> Futures:
    return Futures(SheetSolver(SheetScoring(request.param), request.param.values()))


def test_the_last_turns_distributions_agree_with_the_means_and_the_variances(futures):
    solver = futures.solver
    states = np.concatenate(solver.layers[1:EXACT_FREE + 1])
    # kept in single precision: good to about a ten-millionth of each chance
    laws = futures.distributions[futures.exact_row[states]].astype(float)
    points = np.arange(laws.shape[1])
    assert np.allclose(laws.sum(axis=1), 1.0, rtol=0, atol=1e-5) and (laws >= 0).all()
    mean = laws @ points
    assert np.allclose(mean, solver.expected[states], rtol=0, atol=1e-4)
    # the backward pass picks the first of keeps worth the same by another order than the
    # turn's choices: between such keeps the variances may differ a little
    variance = laws @ points ** 2 - mean ** 2
    assert np.allclose(variance, futures.variance[states], rtol=1e-4, atol=1e-2)
    assert futures.variance[states].max() > 10  # the last turns do vary


def test_the_variance_of_a_whole_game_agrees_with_solitaire_games(futures):
    totals = play(futures.solver, 20_000, seed=11)
    deviations = totals - totals.mean()
    variance = deviations.var(ddof=1)
    error = np.sqrt(((deviations ** 2 - variance) ** 2).mean() / len(totals))
    assert abs(variance - futures.variance[0]) < 4 * error, (variance, futures.variance[0])


def test_a_future_read_as_a_bell_curve_keeps_its_mean_and_variance(futures):
    solver = futures.solver
    start = solver.layers[-1][0]
    assert futures.distribution(start) is None  # the empty sheet is no last turn
    first, law = future_law(futures, start, 40)
    points = first + np.arange(len(law))
    mean = law @ points
    assert law.sum() == pytest.approx(1.0)
    assert mean == pytest.approx(40 + solver.expected[start], abs=0.01)
    # whole points add a twelfth of a point squared (Sheppard's correction)
    assert law @ (points - mean) ** 2 == pytest.approx(futures.variance[start] + 1 / 12,
                                                       rel=1e-3)
