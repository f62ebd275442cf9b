"""Yacht's hints (docs/rules/yacht.md, "Hints"): every level answers one of the given legal
moves, valued by the exact solver of the Yacht sheet; `hard` plays its optimum (166.955 on an
empty sheet) and its self-play agrees; `win` plays for the best chance of finishing on top,
exact at a player's last turns."""

from __future__ import annotations

import math
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


def test_yacht_offers_the_four_levels_and_refuses_any_other():
    assert ENGINE.hint_levels == ("easy", "medium", "hard", "win")
    state = next(positions(1, 0))
    with pytest.raises(ValueError, match="unknown hint level 'best'"):
        advise(state, "best")


def test_before_the_first_roll_every_level_rolls_all_five_at_the_sheets_optimum():
    state = ENGINE.new_match(("ann", "bob"), OPTIONS, "first", now=NOW)
    for level in ("easy", "medium", "hard"):
        advice, _ = advise(state, level)
        assert advice.move == {"type": "roll", "player": "ann", "keep": []}
        assert advice.measure == "expected_final_score"
        assert advice.value == pytest.approx(YACHT_OPTIMUM, abs=1e-6)
    # the first player's chance: about even, a little more for the player who plays for it
    advice, _ = advise(state, "win")
    assert advice.move == {"type": "roll", "player": "ann", "keep": []}
    assert advice.measure == "win_probability"
    assert 0.5 < advice.value < 0.51
    assert SheetSolver(SheetScoring(YACHT), YACHT.values()).start == pytest.approx(
        YACHT_OPTIMUM, abs=1e-6)


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "win"])
def test_every_hint_is_one_of_the_legal_moves_given_and_valued_exactly(level):
    for state in positions(80, seed=ENGINE.hint_levels.index(level)):
        advice, mine = advise(state, level)
        assert advice.move in mine
        assert all(alt.move in mine and alt.move != advice.move for alt in advice.alternatives)
        values = [alt.value for alt in advice.alternatives]
        assert values == sorted(values, reverse=True)
        if level in ("hard", "win"):  # the best by its measure: no other move is worth more
            assert all(advice.value >= v - 1e-6 for v in values)
        if level == "win":
            assert advice.measure == "win_probability" and 0 <= advice.value <= 1


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


BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes", "full_house", "four_of_a_kind",
         "little_straight", "big_straight", "choice", "yacht")
# Each die not yet showing a face becomes it within three rolls, keeping those that do.
FACE_IN_THREE_ROLLS = 1 - (5 / 6) ** 3


def end_of_match(bob, ann, rolls=0, dice=()):
    """Bob (first to play) and Ann near the end of a match, Ann to play, the sheets given."""
    state = ENGINE.new_match(("bob", "ann"), OPTIONS, "end", now=NOW)
    state = ENGINE.state_type(**{**state.__dict__, "sheets": (bob, ann), "current": 1,
                                 "rolls": rolls, "dice": dice,
                                 "step": len(bob) + len(ann) + rolls})
    assert ENGINE.problems(state) == []
    return state


def faces(count):
    """The chance of each number of dice (0 to 5) showing a face after a turn aimed at it."""
    return [math.comb(5, k) * FACE_IN_THREE_ROLLS ** k * (1 - FACE_IN_THREE_ROLLS) ** (5 - k)
            for k in range(6)][count]


def test_a_win_hint_at_the_last_turn_is_the_exact_chance_of_winning():
    # Bob has finished 25 points ahead of Ann, who has only the Yacht left: she wins with a
    # Yacht, whose chance within three rolls is 2,783,176 / 60,466,176 (about 4.6 %).
    bob = {box: 0 for box in BOXES} | {"choice": 30}
    ann = {box: 0 for box in BOXES if box != "yacht"} | {"choice": 5}
    advice, _ = advise(end_of_match(bob, ann), "win")
    assert advice.measure == "win_probability"
    assert advice.value == pytest.approx(2_783_176 / 60_466_176, abs=1e-6)


def test_a_win_hint_plays_for_the_win_where_the_best_average_does_not():
    # Bob has only the Sixes left, and 90 points; Ann, 94 points, has the Ones and the Yacht
    # left and 5-5-6-6-5 after her third roll: a zero in either box. Scratching the Ones keeps
    # the Yacht's 50 for her last turn, the best average; scratching the Yacht keeps the Ones,
    # which beat Bob's sixes more often than a Yacht comes.
    bob = {box: 0 for box in BOXES if box != "sixes"} | {
        "little_straight": 30, "choice": 30, "fives": 15, "fours": 12, "threes": 3}
    ann = {box: 0 for box in BOXES if box not in ("ones", "yacht")} | {
        "little_straight": 30, "choice": 30, "fives": 15, "sixes": 12, "fours": 4, "threes": 3}
    state = end_of_match(bob, ann, rolls=3, dice=(5, 5, 6, 6, 5))
    assert advise(state, "hard")[0].move == {"type": "score", "player": "ann", "box": "ones"}
    win, _ = advise(state, "win")
    assert win.move == {"type": "score", "player": "ann", "box": "yacht"}
    # the exact chance: Ann's ones (x) against Bob's sixes (k), a tie on 94 + x = 90 + 6k half
    chance = sum(faces(k) * faces(x) * (1.0 if 94 + x > 90 + 6 * k else
                                        0.5 if 94 + x == 90 + 6 * k else 0.0)
                 for k in range(6) for x in range(6))
    assert win.value == pytest.approx(chance, abs=1e-6)
    yacht_kept = win.alternatives[0]
    assert yacht_kept.move["box"] == "ones" and yacht_kept.value < chance - 0.05


def test_between_choices_of_the_same_chance_win_plays_the_best_average():
    # Bob, with the Sixes left, cannot catch up: whatever Ann does she wins, so she plays for
    # points.
    bob = {box: 0 for box in BOXES if box != "sixes"} | {"choice": 5}
    ann = {box: 0 for box in BOXES if box not in ("sixes", "choice")} | {
        "big_straight": 30, "little_straight": 30}
    state = end_of_match(bob, ann, rolls=1, dice=(6, 6, 6, 2, 1))
    hard, _ = advise(state, "hard")
    win, _ = advise(state, "win")
    assert win.value == 1.0
    assert win.move == hard.move
