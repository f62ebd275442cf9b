"""The exact solver generalised to any declared sheet (`sheetsolver.SheetSolver`): it reproduces
Generala's solver on the Generala declaration, and figures worked out by hand on small sheets
(Chance alone, one number box, an upper bonus, a Yacht alone)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from referee.core.errors import NotPrepared
from referee.core.preparation import serving
from referee.games.dice_sheets.declaration import Box, Sheet, UpperBonus
from referee.games.dice_sheets.scorers import Face, dice_total, five_of_a_kind
from referee.games.dice_sheets.yacht import YACHT
from referee.games.generala_dice.scoring import GENERALA_SCORING, SheetScoring
from referee.games.generala_dice.sheetsolver import SheetSolver, solver_for
from referee.games.generala_dice.sheetstates import LAYERS
from referee.games.generala_dice.solver import DEFAULT_RULES, tables_for
from referee.games.generala_dice.state import Options
from referee.games.generala_dice.worth import worth_of

ONE_DIE_KEPT = 1 - (5 / 6) ** 3  # a die rerolled up to three times until it shows one face


def solve(*boxes, **rules) -> SheetSolver:
    sheet = Sheet("small", boxes, **rules)
    return SheetSolver(SheetScoring(sheet), sheet.values())


def test_on_the_generala_declaration_it_finds_generalas_own_optimum():
    generic = SheetSolver(GENERALA_SCORING, Options().values)
    tables = tables_for(DEFAULT_RULES)
    assert generic.start == pytest.approx(162.4694684, abs=1e-6)
    states = np.concatenate(LAYERS)  # the same numbering: filled boxes, then the unlock bit
    assert np.allclose(generic.expected[states], tables.expected[states], atol=1e-9)


def test_chance_alone_is_worth_five_dice_each_kept_from_five_up_then_four_up():
    # one die: the third roll is worth 3.5, so keep 4-6 on the second (4.25), then 5-6 (14/3)
    assert solve(Box("chance", dice=dice_total)).start == pytest.approx(5 * 14 / 3, abs=1e-9)


def test_one_number_box_keeps_every_die_of_its_face():
    assert solve(Box("sixes", dice=Face(6))).start == pytest.approx(
        6 * 5 * ONE_DIE_KEPT, abs=1e-9)


def test_the_upper_bonus_is_paid_by_the_box_that_reaches_the_threshold():
    solver = solve(Box("ones", dice=Face(1)),
                   upper_bonus=UpperBonus(("ones",), threshold=3, amount=35))
    p = ONE_DIE_KEPT
    at_least_three = sum(math.comb(5, k) * p ** k * (1 - p) ** (5 - k) for k in range(3, 6))
    assert solver.start == pytest.approx(5 * p + 35 * at_least_three, abs=1e-9)


def test_the_state_counts_the_upper_subtotal_capped_at_the_threshold():
    solver = solve(Box("ones", dice=Face(1)), Box("twos", dice=Face(2)),
                   upper_bonus=UpperBonus(("ones", "twos"), threshold=6, amount=10))
    assert solver.state_of({"ones": 4}) == 4 << 2 | 0b01
    assert solver.state_of({"ones": 5, "twos": 10}) == 6 << 2 | 0b11
    # the threshold reached by the twos, the ones bring their points and no more bonus
    assert solver.expected[solver.state_of({"twos": 6})] == pytest.approx(5 * ONE_DIE_KEPT)
    assert solver.expected[solver.state_of({"twos": 4})] > 5 * ONE_DIE_KEPT


def test_a_yacht_box_alone_is_worth_50_times_the_chance_of_five_of_a_kind():
    assert solve(Box("yacht", five_of_a_kind, value=50)).start == pytest.approx(
        50 * worth_of(GENERALA_SCORING).aimed_chance["generala"], abs=1e-9)


def test_the_yacht_sheet_has_an_exact_optimum():
    # Computed by this solver (a regression figure, not a published one): the twelve boxes
    # without bonus, each scored by the declaration's own scorers.
    solver = SheetSolver(SheetScoring(YACHT), YACHT.values())
    assert solver.start == pytest.approx(166.955068, abs=1e-5)
    assert solver.state_count == 1 << 12


def test_the_timeout_worth_of_a_box_the_dice_count_is_its_solitaire_optimum():
    # worth.SheetWorth's integer dynamic program and the solver agree on one-box sheets
    yacht = worth_of(SheetScoring(YACHT))
    assert yacht.aimed_points["choice"] == pytest.approx(5 * 14 / 3, abs=1e-12)
    for name in ("four_of_a_kind", "full_house"):
        alone = solve(YACHT.box(name))
        assert yacht.aimed_points[name] == pytest.approx(alone.start, abs=1e-9)
    assert yacht.aimed_chance["yacht"] == worth_of(GENERALA_SCORING).aimed_chance["generala"]


def test_a_sheets_solver_is_built_once_and_never_on_a_requests_path():
    sheet = Sheet("kept", (Box("sixes", dice=Face(6)),))
    with serving(), pytest.raises(NotPrepared):
        solver_for(sheet, sheet.values())
    first = solver_for(sheet, sheet.values())
    with serving():
        assert solver_for(sheet, {}) is first
    assert solver_for(Sheet("kept", (Box("sixes", dice=Face(6)),)), {}) is first  # by value


def test_on_the_generala_declaration_it_plays_generalas_hard_choices():
    generic = SheetSolver(GENERALA_SCORING, Options().values)
    tables = tables_for(DEFAULT_RULES)
    for layer in LAYERS[1:]:
        for state in layer[:: max(1, len(layer) // 6)]:
            assert np.array_equal(generic.hard_choices(int(state)),
                                  tables.state_hard_choices(int(state))), state
