"""Yams' hints (docs/rules/yams.md, "Hints"): every level answers one of the given legal moves,
valued by the exact solver of the sheet the match's `rules` pick; `hard` plays its optimum
(237.03 on an empty French sheet, 254.59 under the Yahtzee preset) and its self-play agrees;
a joker is advised only into a box its reading allows; there is no `win` level."""

from __future__ import annotations

import statistics

import pytest

from referee.games.dice_sheets.yams import YAMS, YAMS_YAHTZEE
from referee.games.generala_dice.sheetsolver import solver_for
from referee.games.yams import ENGINE
from referee.games.yams.engine import Options, State

from tests.games.dice_sheets import support
from tests.games.dice_sheets.support import NOW, sheet_positions

FRENCH = ENGINE.resolve_options({"turn_seconds": 0})
YAHTZEE = ENGINE.resolve_options({"turn_seconds": 0, "rules": "yahtzee"})
FRENCH_OPTIMUM = 237.027449
YAHTZEE_OPTIMUM = 254.587729  # the official forced joker; Verhoeff's free choice: 254.5896


def advise(state, level):
    return support.advise(ENGINE, state, level)


def positions(count, seed, options=FRENCH):
    """Seeded positions of matches played half by `medium`, half at random."""
    return sheet_positions(ENGINE, options, count, seed)


def test_yams_offers_easy_medium_and_hard_but_no_win_level():
    assert ENGINE.hint_levels == ("easy", "medium", "hard")
    with pytest.raises(ValueError, match="unknown hint level 'win'"):
        advise(next(positions(1, 0)), "win")


def test_before_the_first_roll_every_level_rolls_all_five_at_the_sheets_optimum():
    state = ENGINE.new_match(("ann", "bob"), FRENCH, "first", now=NOW)
    for level in ENGINE.hint_levels:
        advice, _ = advise(state, level)
        assert advice.move == {"type": "roll", "player": "ann", "keep": []}
        assert advice.value == pytest.approx(FRENCH_OPTIMUM, abs=1e-6)
    assert solver_for(YAMS, Options().values).start == pytest.approx(FRENCH_OPTIMUM, abs=1e-6)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_hint_is_one_of_the_legal_moves_given_and_valued_exactly(level):
    for state in positions(60, seed=ENGINE.hint_levels.index(level)):
        advice, mine = advise(state, level)
        assert advice.move in mine
        assert all(alt.move in mine and alt.move != advice.move for alt in advice.alternatives)
        values = [alt.value for alt in advice.alternatives]
        assert values == sorted(values, reverse=True)
        if level == "hard":  # the optimum: no other move is worth more
            assert all(advice.value >= v - 1e-6 for v in values)


def joker_table(sheet, bonuses=1):
    others = {b: 0 for b in YAMS.box_names[:len(sheet)]}
    return State(players=("ann", "bob"), options=Options(turn_seconds=0, rules="yahtzee"),
                 seed="s", step=3, current=0,
                 rolls=3, dice=(4, 4, 4, 4, 4), sheets=(sheet, others), deadline=None,
                 yahtzee_bonuses=(bonuses, 0))


def test_under_the_yahtzee_preset_the_hints_value_the_bonus_and_obey_the_forced_joker():
    assert solver_for(YAMS_YAHTZEE, Options(rules="yahtzee").values).start == pytest.approx(
        YAHTZEE_OPTIMUM, abs=1e-6)
    # the number box of its face is free: every level fills it, the only box allowed
    state = joker_table({"yams": 50, "chance": 20, "as": 3})
    assert ENGINE.problems(state) == []
    for level in ENGINE.hint_levels:
        advice, _ = advise(state, level)
        assert advice.move == {"type": "score", "player": "ann", "box": "quatre"}
        assert advice.alternatives == ()  # the joker allows no other box
    # the value counts what is banked: the boxes, and the Yahtzee bonus earned before (100)
    # and now (100)
    hard, _ = advise(state, "hard")
    assert hard.value > 50 + 20 + 3 + 20 + 100 + 100
    # once it is filled, the joker fills a lower box at full value: hard takes the 40
    later = joker_table({"yams": 50, "chance": 20, "as": 3, "quatre": 12})
    assert advise(later, "hard")[0].move["box"] == "grande_suite"


def test_hard_self_play_agrees_with_the_exact_optimum():
    totals = []
    for k in range(24):
        state = ENGINE.new_match(("ann", "bob"), FRENCH, f"self-play-{k}", now=NOW)
        while not ENGINE.is_finished(state):
            state, _ = ENGINE.apply(state, advise(state, "hard")[0].move, now=NOW)
        totals += [p["total"] for p in ENGINE.scores(state)["players"].values()]
    mean, spread = statistics.mean(totals), statistics.stdev(totals) / len(totals) ** 0.5
    assert abs(mean - FRENCH_OPTIMUM) < 4 * spread, (mean, spread)
