"""The exact solver's tables against an independent, plain recomputation.

`reference_value` below solves small sheets (one to three free boxes) the slow way: ordered
dice enumerated with itertools, scores from the engine's scorer, a dict per roll. It shares
nothing with the solver but the rules, so agreement to 1e-9 says the tables' hands, keeps,
chances, servida bonus, Doble unlock and house rules are right."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter

import numpy as np
import pytest

from referee.games.generala_dice import dicetables as dt
from referee.games.generala_dice.scoring import BOXES, box_score
from referee.games.generala_dice.sheetstates import LAYERS, UNLOCKED, RuleKey, sheet_state
from referee.games.generala_dice.solver import DEFAULT_RULES, Tables, tables_for
from referee.games.generala_dice.turnplan import TIE, first_best
from referee.games.generala_dice.state import Options

FACES = range(1, 7)


def rules(**changes) -> RuleKey:
    return RuleKey.of(Options(**changes))


# -- the dice tables ---------------------------------------------------------------------------
def test_there_are_252_hands_and_210_keeps_each_listed_once_in_the_engines_order():
    assert len(dt.HANDS) == len(set(dt.HANDS)) == 252
    assert len(dt.KEEPS) == len(set(dt.KEEPS)) == 210
    assert list(dt.KEEPS) == sorted(dt.KEEPS, key=lambda k: (len(k), k))


def test_every_keep_leads_somewhere_with_certainty_and_only_to_hands_that_contain_it():
    assert np.allclose(dt.TRANSITION.sum(axis=1), 1.0)
    for k, keep in enumerate(dt.KEEPS):
        for i in np.flatnonzero(dt.TRANSITION[k]):
            assert not Counter(keep) - Counter(dt.HANDS[i])


@pytest.mark.parametrize("hand, ordered_rolls", [
    ((6, 6, 6, 6, 6), 1), ((1, 2, 3, 4, 5), 120), ((2, 2, 2, 3, 3), 10), ((1, 1, 1, 1, 2), 5),
])
def test_a_first_roll_shows_a_hand_as_often_as_its_orderings(hand, ordered_rolls):
    assert dt.FIRST_ROLL[dt.hand_index(hand)] == pytest.approx(ordered_rolls / 6 ** 5)


def test_keeping_four_of_a_kind_makes_five_one_time_in_six():
    chance = dt.TRANSITION[dt.keep_index((4, 4, 4, 4)), dt.hand_index((4,) * 5)]
    assert chance == pytest.approx(1 / 6)


def test_the_keeps_a_hand_allows_are_its_sub_multisets_of_at_most_four_dice():
    for i, hand in enumerate(dt.HANDS):
        allowed = {dt.KEEPS[k] for k in dt.SUBKEEPS[i]}
        expected = {tuple(sorted(c)) for n in range(5) for c in itertools.combinations(hand, n)}
        assert allowed == expected


def test_the_fast_best_keep_and_first_keep_agree_with_a_plain_search():
    rnd = np.random.default_rng(3)
    values = rnd.integers(0, 4, size=(5, len(dt.KEEPS))).astype(float)  # many ties
    plain_best = values[:, dt.SUBKEEPS].max(axis=2)
    assert (dt.best_keep(values) == plain_best).all()
    threshold = plain_best - 1
    plain_first = np.argmax(values[:, dt.SUBKEEPS] >= threshold[..., None], axis=2)
    assert (dt.first_keep_reaching(values, threshold) == plain_first).all()


# -- an independent solver for small sheets ----------------------------------------------------
def reference_value(free: frozenset[str], sheet: dict[str, int], key: RuleKey) -> float:
    """Expected points still to score from a turn's start with these boxes free, playing best,
    with `sheet` standing for the filled boxes (only the Generala's points matter)."""
    values = key.values

    @functools.cache
    def value(free: frozenset[str], generala: int | None) -> float:
        if not free:
            return 0.0
        held = {} if generala is None else {"generala": generala}

        def stop(dice, servida):
            best = -1e9
            for box in free:
                points = box_score(box, dice, servida, held, values)
                after = points if box == "generala" else generala
                best = max(best, points + value(free - {box}, after))
            return best

        def expect(keep, then):
            rolled = 5 - len(keep)
            total = sum(then(tuple(sorted(keep + faces)))
                        for faces in itertools.product(FACES, repeat=rolled))
            return total / 6 ** rolled

        def best_keep(dice, then):
            keeps = {tuple(sorted(c)) for n in range(5) for c in itertools.combinations(dice, n)}
            return max(expect(k, then) for k in keeps)

        @functools.cache
        def last(dice):
            return stop(dice, False)

        keep_last = functools.cache(lambda keep: expect(keep, last))

        @functools.cache
        def second(dice):
            return max(stop(dice, False), max(keep_last(k) for k in _keeps(dice)))

        keep_second = functools.cache(lambda keep: expect(keep, second))

        def first(dice):
            return max(stop(dice, True), max(keep_second(k) for k in _keeps(dice)))

        rolls = [tuple(sorted(r)) for r in itertools.product(FACES, repeat=5)]
        if key.servida_generala_wins:
            rolls = [r for r in rolls if len(set(r)) > 1]
        return sum(first(r) for r in rolls) / len(rolls)

    return value(free, sheet.get("generala"))


@functools.cache
def _keeps(dice):
    return {tuple(sorted(c)) for n in range(5) for c in itertools.combinations(dice, n)}


def full_sheet_but(free: set[str], generala: int = 0) -> dict[str, int]:
    sheet = {box: 0 for box in BOXES if box not in free}
    if "generala" in sheet:
        sheet["generala"] = generala
    return sheet


SMALL_SHEETS = [
    pytest.param({"sixes"}, 0, DEFAULT_RULES, id="sixes alone"),
    pytest.param({"escalera"}, 0, DEFAULT_RULES, id="escalera alone, servida bonus"),
    pytest.param({"full", "poker"}, 0, DEFAULT_RULES, id="full and poker"),
    pytest.param({"generala", "doble_generala"}, 0, DEFAULT_RULES,
                 id="generala unlocks the doble"),
    pytest.param({"doble_generala"}, 50, DEFAULT_RULES, id="doble unlocked"),
    pytest.param({"doble_generala", "ones"}, 0, DEFAULT_RULES, id="doble locked by a scratch"),
    pytest.param({"generala", "doble_generala"}, 0, rules(generala=0),
                 id="a generala worth nothing never unlocks"),
    pytest.param({"escalera", "full", "twos"}, 0, rules(escalera=60, full=5, servida_bonus=25),
                 id="house values"),
    pytest.param({"generala", "poker"}, 0, rules(servida_generala_wins=True),
                 id="instant-win house rule"),
]


@pytest.mark.parametrize("free, generala, key", SMALL_SHEETS)
def test_the_tables_agree_with_a_plain_recomputation_on_small_sheets(free, generala, key):
    sheet = full_sheet_but(free, generala)
    state = sheet_state(sheet, key)
    tables = tables_for(key)
    assert tables.expected[state] == pytest.approx(reference_value(frozenset(free), sheet, key),
                                                   abs=1e-9)


def test_the_default_sheet_is_worth_a_little_over_162_points_more_than_any_seed_bot():
    expected = tables_for(DEFAULT_RULES).expected[0]
    assert 162 < expected < 163
    assert expected > max(113, 158, 160)


def test_the_instant_win_rule_values_only_matches_that_run_to_their_end():
    # Five of a kind cannot start a turn of such a match, so a sheet is worth a little less.
    assert tables_for(rules(servida_generala_wins=True)).expected[0] < \
        tables_for(DEFAULT_RULES).expected[0]


def test_a_sheet_state_holds_the_filled_boxes_and_whether_the_doble_is_unlocked():
    assert sheet_state({}, DEFAULT_RULES) == 0
    assert sheet_state({"generala": 50}, DEFAULT_RULES) == 1 << BOXES.index("generala") | UNLOCKED
    assert sheet_state({"generala": 0}, DEFAULT_RULES) == 1 << BOXES.index("generala")
    assert sheet_state({"generala": 50}, rules(generala=60)) == 1 << BOXES.index("generala")


# -- the hard policy's outcome distributions ----------------------------------------------------
def test_the_future_score_distributions_have_the_tables_expected_values():
    tables = tables_for(DEFAULT_RULES)
    play = tables.hard_play
    assert play.scale == 1
    pick = random.Random(4)
    states = [0] + [int(pick.choice(layer)) for layer in LAYERS[1:] for _ in range(3)]
    for state in states:
        future = play.future[play.row[state]].astype(float)
        assert future.sum() == pytest.approx(1.0, abs=1e-5)
        mean = future @ np.arange(len(future))
        assert mean == pytest.approx(tables.expected[state], abs=1e-3)


def test_large_house_values_share_buckets_and_keep_the_mean_close():
    tables = Tables(rules(generala=1000, doble_generala=1000, poker=900))
    play = tables.hard_play
    assert play.scale > 1
    future = play.future[play.row[0]].astype(float)
    mean = play.scale * (future @ np.arange(len(future)))
    assert mean == pytest.approx(tables.expected[0], rel=0.01)


@pytest.mark.parametrize("key", [DEFAULT_RULES, rules(escalera=45, generala=0, servida_bonus=0)],
                         ids=["sheet values", "house values"])
def test_each_states_own_plan_decides_as_the_whole_table_pass_does(key):
    # A hint works out one state's plan; simulations read the table built for every state.
    tables = tables_for(key)
    play = tables.hard_play
    pick = random.Random(5)
    for layer in LAYERS[1:]:
        for state in pick.sample(list(layer), min(12, len(layer))):
            plan = tables.state_plan(int(state))
            own = np.stack([plan.decide(rolls)[0] for rolls in (1, 2, 3)])
            assert (own == play.choice[play.row[state]]).all()
            assert (tables.hard_choices(int(state)) == own).all()


def test_a_decision_is_the_first_choice_within_a_tie_of_the_best():
    tables = tables_for(DEFAULT_RULES)
    plan = tables.state_plan(0)
    for rolls in (1, 2, 3):
        values = plan.choices(rolls)
        assert (plan.decide(rolls) == first_best(values)).all()
        chosen = np.take_along_axis(values, plan.decide(rolls)[..., None], axis=2)[..., 0]
        assert (chosen >= values.max(axis=2) - TIE).all()


# -- what a box filled now costs ---------------------------------------------------------------
def box_losses(sheet, dice):
    """For each free box, the expected final score lost by filling it now (after a later
    roll) with `dice` rather than the best box, read off the turn's plan."""
    stop = tables_for(DEFAULT_RULES).state_plan(sheet_state(sheet, DEFAULT_RULES)).stop_plain
    values = stop[0, dt.hand_index(dice)]
    return {box: float(values.max() - values[b]) for b, box in enumerate(BOXES)
            if box not in sheet}


def test_box_losses_are_zero_for_the_best_box_and_the_expected_points_given_up_elsewhere():
    sheet = {"ones": 1, "twos": 4}
    dice = (3, 3, 3, 5, 5)
    losses = box_losses(sheet, dice)
    assert set(losses) == {b for b in BOXES if b not in sheet}
    assert min(losses.values()) == 0.0 and losses["full"] == 0.0
    tables = tables_for(DEFAULT_RULES)
    state = sheet_state(sheet, DEFAULT_RULES)
    threes = tables.expected[state | 1 << BOXES.index("threes")] + 9
    full = tables.expected[state | 1 << BOXES.index("full")] + 30
    assert losses["threes"] == pytest.approx(full - threes)


def test_box_losses_break_a_tie_between_boxes_scoring_nothing():
    # 2-2-4-6-6 after a reroll scores nothing in eight boxes; among those zeros, scratching
    # the Doble (which needs a Generala first) costs less than scratching the Generala.
    losses = box_losses({}, (2, 2, 4, 6, 6))
    assert losses["doble_generala"] < losses["generala"]
    assert all(loss >= 0 for loss in losses.values())
