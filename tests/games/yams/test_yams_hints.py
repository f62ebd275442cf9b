"""Yams' hints (docs/rules/yams.md, "Hints"): every level answers one of the given legal moves,
valued by the exact solver of the sheet the match's `rules` pick; `hard` plays its optimum
(237.03 on an empty French sheet, 254.59 under the Yahtzee preset) and its self-play agrees;
a joker is advised only into a box its reading allows; `win` plays for the best chance of
finishing on top, every bonus banked counted."""

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


def test_yams_offers_the_four_levels_and_refuses_any_other():
    assert ENGINE.hint_levels == ("easy", "medium", "hard", "win")
    with pytest.raises(ValueError, match="unknown hint level 'best'"):
        advise(next(positions(1, 0)), "best")


def test_before_the_first_roll_every_level_rolls_all_five_at_the_sheets_optimum():
    state = ENGINE.new_match(("ann", "bob"), FRENCH, "first", now=NOW)
    for level in ("easy", "medium", "hard"):
        advice, _ = advise(state, level)
        assert advice.move == {"type": "roll", "player": "ann", "keep": []}
        assert advice.value == pytest.approx(FRENCH_OPTIMUM, abs=1e-6)
    advice, _ = advise(state, "win")
    assert advice.move == {"type": "roll", "player": "ann", "keep": []}
    assert advice.measure == "win_probability" and 0.5 < advice.value < 0.51
    assert solver_for(YAMS, Options().values).start == pytest.approx(FRENCH_OPTIMUM, abs=1e-6)


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "win"])
def test_every_hint_is_one_of_the_legal_moves_given_and_valued_exactly(level):
    for state in positions(60, seed=ENGINE.hint_levels.index(level)):
        advice, mine = advise(state, level)
        assert advice.move in mine
        assert all(alt.move in mine and alt.move != advice.move for alt in advice.alternatives)
        values = [alt.value for alt in advice.alternatives]
        assert values == sorted(values, reverse=True)
        if level in ("hard", "win"):  # the best by its measure: no other move is worth more
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


def test_under_the_yahtzee_preset_win_counts_the_yahtzee_bonuses_banked():
    # Bob has finished with 80 points on his sheet and a Yahtzee bonus (100): 180. Ann, with
    # 155 and only the Yams box left, wins with a Yams alone (about 4.6 % within three rolls);
    # without Bob's bonus she would have won whatever the dice.
    bob = {box: 0 for box in YAMS.box_names} | {"chance": 30, "yams": 50}
    ann = {box: 0 for box in YAMS.box_names if box != "yams"} | {
        "chance": 30, "grande_suite": 40, "petite_suite": 30, "full": 25, "brelan": 30}
    state = State(players=("bob", "ann"), options=Options(turn_seconds=0, rules="yahtzee"),
                  seed="s", step=25, current=1,
                  rolls=0, dice=(), sheets=(bob, ann), deadline=None, yahtzee_bonuses=(1, 0))
    assert ENGINE.problems(state) == []
    advice, _ = advise(state, "win")
    assert advice.value == pytest.approx(2_783_176 / 60_466_176, abs=1e-6)
    no_bonus = State(**{**state.__dict__, "yahtzee_bonuses": (0, 0)})
    assert advise(no_bonus, "win")[0].value == 1.0
