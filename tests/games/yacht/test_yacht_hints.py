"""Yacht's hints (docs/rules/yacht.md, "Hints"): every level answers one of the given legal
moves, valued by the exact solver of the Yacht sheet; `hard` plays its optimum (166.955 on an
empty sheet) and its self-play agrees; there is no `win` level."""

from __future__ import annotations

import statistics

import pytest

from referee.core.errors import NotPrepared
from referee.core.preparation import serving
from referee.games.dice_sheets.yacht import YACHT
from referee.games.generala_dice.scoring import SheetScoring
from referee.games.generala_dice.sheetsolver import SheetSolver, solver_for
from referee.games.yacht import ENGINE
from referee.games.yacht.engine import Options

from tests.games.dice_sheets import support
from tests.games.dice_sheets.support import NOW, sheet_positions

OPTIONS = ENGINE.resolve_options({"turn_seconds": 0})
YACHT_OPTIMUM = 166.955068


def advise(state, level):
    return support.advise(ENGINE, state, level)


def positions(count, seed):
    """Seeded positions of matches played half by `medium`, half at random."""
    return sheet_positions(ENGINE, OPTIONS, count, seed)


def test_yacht_offers_easy_medium_and_hard_but_no_win_level():
    assert ENGINE.hint_levels == ("easy", "medium", "hard")
    state = next(positions(1, 0))
    with pytest.raises(ValueError, match="unknown hint level 'win'"):
        advise(state, "win")


def test_before_the_first_roll_every_level_rolls_all_five_at_the_sheets_optimum():
    state = ENGINE.new_match(("ann", "bob"), OPTIONS, "first", now=NOW)
    for level in ENGINE.hint_levels:
        advice, _ = advise(state, level)
        assert advice.move == {"type": "roll", "player": "ann", "keep": []}
        assert advice.value == pytest.approx(YACHT_OPTIMUM, abs=1e-6)
    assert SheetSolver(SheetScoring(YACHT), YACHT.values()).start == pytest.approx(
        YACHT_OPTIMUM, abs=1e-6)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_hint_is_one_of_the_legal_moves_given_and_valued_exactly(level):
    for state in positions(80, seed=ENGINE.hint_levels.index(level)):
        advice, mine = advise(state, level)
        assert advice.move in mine
        assert all(alt.move in mine and alt.move != advice.move for alt in advice.alternatives)
        values = [alt.value for alt in advice.alternatives]
        assert values == sorted(values, reverse=True)
        if level == "hard":  # the optimum: no other move is worth more
            assert all(advice.value >= v - 1e-6 for v in values)


def test_medium_scores_a_yacht_and_easy_writes_a_made_straight_at_once():
    state = ENGINE.new_match(("ann", "bob"), OPTIONS, "made", now=NOW)
    state = ENGINE.state_type(**{**state.__dict__, "rolls": 1, "dice": (5, 5, 5, 5, 5),
                                 "step": 1})
    assert advise(state, "medium")[0].move["box"] == "yacht"
    assert advise(state, "hard")[0].move["box"] == "yacht"
    straight = ENGINE.state_type(**{**state.__dict__, "dice": (2, 3, 4, 5, 6)})
    assert advise(straight, "easy")[0].move == {"type": "score", "player": "ann",
                                                "box": "big_straight"}


def test_the_tables_are_made_once_and_never_while_a_request_is_served():
    other_values = {**Options().values, "yacht": 40}  # a sheet value no match of today asks
    with serving(), pytest.raises(NotPrepared):
        solver_for(YACHT, other_values)
    assert solver_for(YACHT, Options().values) is solver_for(YACHT, Options().values)


def test_hard_self_play_agrees_with_the_exact_optimum():
    totals = []
    for k in range(30):
        state = ENGINE.new_match(("ann", "bob"), OPTIONS, f"self-play-{k}", now=NOW)
        while not ENGINE.is_finished(state):
            state, _ = ENGINE.apply(state, advise(state, "hard")[0].move, now=NOW)
        totals += [p["total"] for p in ENGINE.scores(state)["players"].values()]
    mean, spread = statistics.mean(totals), statistics.stdev(totals) / len(totals) ** 0.5
    assert abs(mean - YACHT_OPTIMUM) < 4 * spread, (mean, spread)
