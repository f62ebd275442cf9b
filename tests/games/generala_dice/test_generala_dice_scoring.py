"""Generala (dice): what five dice are worth in each box, checked through the engine.

Every table row builds a state by hand (the dice on the table, how many rolls were made, the
player's sheet) and posts a `score` move; the points come back in the `box_scored` event.
The exact numbers of the seed (servida counts out of 7,776 rolls, the 360 ceiling) are derived
here by formula and compared with what the engine's own scorers give.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import lru_cache

import pytest

from referee.games.generala_dice import ENGINE
from referee.games.generala_dice.scoring import (
    BOXES, FACE_BOXES, GENERALA_SCORING, box_score, is_escalera, is_full, is_generala, is_poker,
    possible_scores,
)
from referee.games.generala_dice.state import Options, State
from referee.games.generala_dice.worth import (
    AIMED_FACE_COUNT, giving_up_cost, still_worth, worth_of,
)

AIMED_CHANCE = worth_of(GENERALA_SCORING).aimed_chance
FIRST_ROLL_CHANCE = worth_of(GENERALA_SCORING).first_roll_chance

NOW = 1_000.0
ALL_ROLLS = list(itertools.product(range(1, 7), repeat=5))  # the 7,776 ordered rolls


def table(dice, rolls=2, sheet=None, options=None, players=("ann", "bob")):
    """A state where ann is to score `dice` after `rolls` rolls, her sheet as given."""
    options = options or Options()
    sheet = dict(sheet or {})
    # Keep the turn order sound: everyone after ann has filled as many boxes as she has.
    others = [dict(itertools.islice(((b, 0) for b in BOXES if b != "doble_generala"), len(sheet)))
              for _ in players[1:]]
    state = State(players=players, options=options, seed="seed", step=7, current=0, rolls=rolls,
                  dice=tuple(dice), sheets=(sheet, *others),
                  deadline=NOW + 30 if options.turn_seconds else None)
    assert ENGINE.problems(state) == []
    return state


def scored(state, box):
    new, events = ENGINE.apply(state, {"type": "score", "player": "ann", "box": box}, now=NOW)
    event = events[0]
    assert event["type"] == "box_scored" and event["box"] == box
    assert new.sheets[0][box] == event["points"]
    return event["points"]


# -- the six number boxes --------------------------------------------------------------------

FACE_CASES = [
    ("ones", (1, 1, 2, 3, 1), 3),
    ("twos", (2, 2, 2, 2, 5), 8),
    ("threes", (1, 2, 4, 5, 6), 0),
    ("fours", (4, 4, 4, 4, 4), 20),
    ("fives", (5, 1, 5, 2, 3), 10),
    ("sixes", (6, 6, 6, 1, 1), 18),
]


@pytest.mark.parametrize("box,dice,points", FACE_CASES, ids=[c[0] for c in FACE_CASES])
def test_a_number_box_counts_only_the_dice_showing_its_face(box, dice, points):
    assert scored(table(dice), box) == points


@pytest.mark.parametrize("box,dice,points", FACE_CASES, ids=[c[0] for c in FACE_CASES])
def test_a_number_box_gets_no_servida_bonus(box, dice, points):
    assert scored(table(dice, rolls=1), box) == points


# -- the combination boxes -------------------------------------------------------------------

COMBINATION_CASES = [
    # box, dice, points after the 2nd/3rd roll
    ("escalera", (1, 2, 3, 4, 5), 20, "escalera 1-5"),
    ("escalera", (6, 5, 4, 3, 2), 20, "escalera 2-6 in any order"),
    ("escalera", (3, 4, 5, 6, 1), 20, "escalera 3-4-5-6-1"),
    ("escalera", (4, 5, 6, 1, 2), 0, "4-5-6-1-2 is no escalera"),
    ("escalera", (5, 6, 1, 2, 3), 0, "5-6-1-2-3 is no escalera"),
    ("escalera", (1, 2, 3, 4, 4), 0, "a pair is no escalera"),
    ("full", (2, 2, 2, 5, 5), 30, "full three 2s two 5s"),
    ("full", (6, 1, 6, 1, 6), 30, "full in any order"),
    ("full", (4, 4, 4, 4, 4), 0, "five of a kind is no full"),
    ("full", (3, 3, 3, 3, 5), 0, "four of a kind is no full"),
    ("full", (3, 3, 5, 5, 1), 0, "two pairs is no full"),
    ("poker", (5, 5, 5, 5, 2), 40, "poker four of a kind flat not the sum"),
    ("poker", (1, 1, 1, 1, 1), 40, "poker five of a kind counts"),
    ("poker", (5, 5, 5, 2, 2), 0, "a full is no poker"),
    ("generala", (3, 3, 3, 3, 3), 50, "generala five of a kind"),
    ("generala", (3, 3, 3, 3, 4), 0, "four of a kind is no generala"),
]


@pytest.mark.parametrize("box,dice,points,_", COMBINATION_CASES,
                         ids=[c[3] for c in COMBINATION_CASES])
def test_a_combination_box_scores_its_fixed_value_or_zero(box, dice, points, _):
    assert scored(table(dice, rolls=2), box) == points
    assert scored(table(dice, rolls=3), box) == points


SERVIDA_CASES = [
    ("escalera", (2, 3, 4, 5, 6), 25, "servida escalera 25"),
    ("full", (1, 1, 4, 4, 4), 35, "servida full 35"),
    ("poker", (6, 6, 2, 6, 6), 45, "servida poker 45"),
    ("poker", (6, 6, 6, 6, 6), 45, "servida five of a kind in poker 45"),
    ("generala", (6, 6, 6, 6, 6), 50, "servida generala stays 50"),
    ("escalera", (4, 5, 6, 1, 2), 0, "servida non escalera still 0"),
    ("full", (2, 2, 2, 2, 2), 0, "servida five of a kind in full still 0"),
]


@pytest.mark.parametrize("box,dice,points,_", SERVIDA_CASES, ids=[c[3] for c in SERVIDA_CASES])
def test_a_hand_scored_after_the_first_roll_is_servida_and_adds_five_to_escalera_full_poker(
        box, dice, points, _):
    state = table(dice, rolls=1)
    new, events = ENGINE.apply(state, {"type": "score", "player": "ann", "box": box}, now=NOW)
    assert events[0]["points"] == points
    assert events[0]["servida"] is True


@pytest.mark.parametrize("rolls", [2, 3], ids=["after two rolls", "after three rolls"])
def test_a_hand_rerolled_even_once_is_no_longer_servida(rolls):
    state = table((1, 1, 4, 4, 4), rolls=rolls)
    new, events = ENGINE.apply(state, {"type": "score", "player": "ann", "box": "full"}, now=NOW)
    assert (events[0]["points"], events[0]["servida"]) == (30, False)


def test_five_of_a_kind_servida_is_worth_more_in_generala_than_in_poker():
    dice = (2, 2, 2, 2, 2)
    assert scored(table(dice, rolls=1), "poker") == 45
    assert scored(table(dice, rolls=1), "generala") == 50


# -- the Doble Generala ----------------------------------------------------------------------

DOBLE_CASES = [
    ({"generala": 50}, (4, 4, 4, 4, 4), 2, 100, "five of a kind with generala 50 scores 100"),
    ({"generala": 50}, (4, 4, 4, 4, 4), 1, 100, "servida five of a kind scores 100 no bonus"),
    ({"generala": 50}, (4, 4, 4, 4, 4), 3, 100, "on the third roll too"),
    ({"generala": 0}, (4, 4, 4, 4, 4), 2, 0, "a scratched generala never unlocks it"),
    ({}, (4, 4, 4, 4, 4), 2, 0, "an empty generala box does not unlock it"),
    ({"generala": 50}, (4, 4, 4, 4, 1), 2, 0, "four of a kind is no doble"),
]


@pytest.mark.parametrize("sheet,dice,rolls,points,_", DOBLE_CASES,
                         ids=[c[4] for c in DOBLE_CASES])
def test_the_doble_generala_scores_100_only_while_the_generala_box_holds_50(
        sheet, dice, rolls, points, _):
    assert scored(table(dice, rolls=rolls, sheet=sheet), "doble_generala") == points


def test_a_second_five_of_a_kind_may_be_scored_in_any_other_free_box():
    state = table((5, 5, 5, 5, 5), rolls=2, sheet={"generala": 50})
    assert scored(state, "fives") == 25
    assert scored(state, "poker") == 40


@pytest.mark.parametrize("box", BOXES)
def test_any_free_box_may_be_chosen_even_when_it_scores_nothing(box):
    dice = (1, 2, 2, 3, 6)  # worth nothing in every combination box
    expected = {"ones": 1, "twos": 4, "threes": 3, "sixes": 6}.get(box, 0)
    assert scored(table(dice, rolls=2), box) == expected


# -- house rules: other box values ----------------------------------------------------------

HOUSE_VALUES = Options(escalera=15, full=25, poker=35, generala=60, doble_generala=120,
                       servida_bonus=10)

HOUSE_CASES = [
    ("escalera", (1, 2, 3, 4, 5), 2, {}, 15),
    ("escalera", (1, 2, 3, 4, 5), 1, {}, 25),
    ("full", (3, 3, 1, 1, 1), 2, {}, 25),
    ("poker", (3, 3, 3, 3, 1), 1, {}, 45),
    ("generala", (3, 3, 3, 3, 3), 1, {}, 60),
    ("doble_generala", (3, 3, 3, 3, 3), 2, {"generala": 60}, 120),
    ("doble_generala", (3, 3, 3, 3, 3), 2, {"generala": 0}, 0),
]


@pytest.mark.parametrize("box,dice,rolls,sheet,points", HOUSE_CASES,
                         ids=[f"{c[0]} after {c[2]} roll(s) is {c[4]}" for c in HOUSE_CASES])
def test_house_box_values_replace_the_sheet_values(box, dice, rolls, sheet, points):
    assert scored(table(dice, rolls=rolls, sheet=sheet, options=HOUSE_VALUES), box) == points


# -- the rule text's numbers ------------------------------------------------------------------

def test_the_servida_counts_out_of_7776_rolls_match_the_combinatorial_counts():
    assert len(ALL_ROLLS) == 6 ** 5 == 7776
    counted = {
        "escalera": sum(map(is_escalera, ALL_ROLLS)),
        "full": sum(map(is_full, ALL_ROLLS)),
        "poker": sum(map(is_poker, ALL_ROLLS)),
        "generala": sum(map(is_generala, ALL_ROLLS)),
    }
    runs = 3  # 1-2-3-4-5, 2-3-4-5-6, 3-4-5-6-1
    derived = {
        "escalera": runs * math.factorial(5),  # each run in any of 5! orders
        # face of the three, face of the two, which 3 of the 5 positions hold the three
        "full": 6 * 5 * math.comb(5, 3),
        # four of a kind: face, the odd face, the odd die's position; plus the six Generalas
        "poker": 6 * 5 * math.comb(5, 1) + 6,
        "generala": 6,
    }
    assert counted == derived == {"escalera": 360, "full": 300, "poker": 156, "generala": 6}


def test_the_servida_points_over_all_7776_first_rolls_follow_the_counts():
    """Scored through box_score as servida, each combination box pays its servida value on
    exactly the rolls counted above and 0 on all others."""
    values = Options().values
    for box, value, count in [("escalera", 25, 360), ("full", 35, 300), ("poker", 45, 156),
                              ("generala", 50, 6)]:
        paid = Counter(box_score(box, roll, True, {}, values) for roll in ALL_ROLLS)
        assert paid == Counter({value: count, 0: 7776 - count}), box


def test_the_best_value_of_every_box_adds_up_to_the_360_ceiling():
    values = Options().values
    best_from_possible = {box: max(possible_scores(box, values)) for box in BOXES}
    # The best each box can actually be paid by the scorers, over every roll, servida or not,
    # with a Generala of 50 already on the sheet (the Doble needs it).
    best_from_scorers = {
        box: max(box_score(box, roll, servida, {"generala": 50}, values)
                 for roll in ALL_ROLLS for servida in (True, False))
        for box in BOXES
    }
    derived = {**{b: 5 * f for b, f in zip(BOXES[:6], range(1, 7))},
               "escalera": 20 + 5, "full": 30 + 5, "poker": 40 + 5, "generala": 50,
               "doble_generala": 100}
    assert best_from_possible == best_from_scorers == derived
    assert sum(derived.values()) == 105 + 255 == 360


# -- the rule text's chase probabilities (engine's is_generala as the judge) -------------------

def _chase(dice: tuple[int, ...], rolls_left: int) -> Fraction:
    """Chance of five of a kind keeping the most frequent face before each reroll."""
    return _chase_sorted(tuple(sorted(dice)), rolls_left)


@lru_cache(maxsize=None)
def _chase_sorted(dice: tuple[int, ...], rolls_left: int) -> Fraction:
    if is_generala(dice):
        return Fraction(1)
    if rolls_left == 0:
        return Fraction(0)
    face, count = max(Counter(dice).items(), key=lambda fc: (fc[1], fc[0]))
    keep = (face,) * count
    outcomes = list(itertools.product(range(1, 7), repeat=5 - count))
    return sum((_chase(keep + o, rolls_left - 1) for o in outcomes), Fraction(0)) / len(outcomes)


def test_chasing_a_generala_over_three_rolls_succeeds_about_4_6_percent_of_the_time():
    chance = sum((_chase(r, 2) for r in ALL_ROLLS), Fraction(0)) / len(ALL_ROLLS)
    assert round(float(chance) * 100, 1) == 4.6
    assert round(1 / float(chance)) == 22


@pytest.mark.parametrize("rolls_left,percent,exact", [
    (1, 16.7, Fraction(1, 6)),
    (2, 30.6, 1 - Fraction(5, 6) ** 2),
], ids=["one roll left 1 in 6", "two rolls left 30.6 percent"])
def test_four_of_a_kind_becomes_a_generala_with_the_seed_chances(rolls_left, percent, exact):
    chance = _chase((2, 2, 2, 2, 5), rolls_left)
    assert chance == exact
    assert round(float(chance) * 100, 1) == percent


# -- what the servida bonus was --------------------------------------------------------------

BONUS_CASES = [
    ("escalera", (2, 3, 4, 5, 6), 1, Options(), 5, "a servida escalera earns it"),
    ("poker", (6, 6, 2, 6, 6), 1, Options(servida_bonus=10), 10, "a house bonus of 10"),
    ("ones", (1, 1, 2, 3, 1), 1, Options(), 0, "a servida ones box earns none"),
    ("generala", (4, 4, 4, 4, 4), 1, Options(), 0, "a servida generala earns none"),
    ("escalera", (4, 5, 6, 1, 2), 1, Options(), 0, "a servida hand that is no escalera"),
    ("full", (1, 1, 4, 4, 4), 2, Options(), 0, "a full after two rolls is not servida"),
]


@pytest.mark.parametrize("box,dice,rolls,options,bonus,_", BONUS_CASES,
                         ids=[c[5] for c in BONUS_CASES])
def test_box_scored_says_what_servida_bonus_was_paid(box, dice, rolls, options, bonus, _):
    # `servida` says when the box was filled (after the first roll); `bonus` what it paid for
    # that, so a client never shows a bonus that did not exist.
    state = table(dice, rolls=rolls, options=options)
    _, events = ENGINE.apply(state, {"type": "score", "player": "ann", "box": box}, now=NOW)
    assert events[0]["servida"] is (rolls == 1)
    assert events[0]["bonus"] == bonus
    unbonused = box_score(box, dice, False, {}, options.values)
    assert events[0]["points"] == unbonused + bonus


# -- what a free box is still worth (the timeout's tie-break) ---------------------------------

SORTED_ROLLS = {n: Counter(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=n))
                for n in range(6)}


def _aimed(value) -> Fraction:
    """The best average of `value(dice)` over one turn of three rolls, stopping after any
    roll and keeping any dice before the next: a dynamic program over the 252 sets of dice."""
    @lru_cache(maxsize=None)
    def best(dice, rolls_left):
        if rolls_left == 0:
            return Fraction(value(dice))
        keeps = {tuple(sorted(k)) for size in range(5)
                 for k in itertools.combinations(dice, size)}
        return max([Fraction(value(dice))] + [rolled(k, rolls_left - 1) for k in keeps])

    @lru_cache(maxsize=None)
    def rolled(keep, rolls_left):
        outcomes = SORTED_ROLLS[5 - len(keep)]
        total = sum(outcomes.values())
        return sum((Fraction(n, total) * best(tuple(sorted(keep + o)), rolls_left)
                    for o, n in outcomes.items()), Fraction(0))

    return rolled((), 2)


@pytest.mark.parametrize("box,made", [("escalera", is_escalera), ("full", is_full),
                                      ("poker", is_poker), ("generala", is_generala)])
def test_the_chance_of_making_a_combination_in_a_turn_aimed_at_it_is_exact(box, made):
    assert float(_aimed(lambda dice: made(dice))) == pytest.approx(AIMED_CHANCE[box], abs=1e-12)
    first = sum(made(r) for r in ALL_ROLLS) / len(ALL_ROLLS)
    assert FIRST_ROLL_CHANCE[box] == pytest.approx(first, abs=1e-15)


def test_a_turn_aimed_at_a_face_keeps_every_die_of_it_on_average():
    aimed = _aimed(lambda dice: dice.count(6))
    assert aimed == 5 * (1 - Fraction(5, 6) ** 3)
    assert AIMED_FACE_COUNT == pytest.approx(float(aimed), abs=1e-15)


DEFAULT_VALUES = Options().values
WORTH_CASES = [
    ("ones", {}, 2.106), ("sixes", {}, 12.639),
    ("escalera", {}, 6.656), ("full", {}, 11.079), ("poker", {}, 11.732),
    ("generala", {}, 2.301),
    ("doble_generala", {"generala": 50}, 4.603),
    ("doble_generala", {}, 0.212),
    ("doble_generala", {"generala": 0}, 0.0),
]


@pytest.mark.parametrize("box,sheet,worth", WORTH_CASES,
                         ids=[f"{c[0]} {c[1]}" for c in WORTH_CASES])
def test_what_a_free_box_is_still_worth_is_its_average_when_a_turn_is_aimed_at_it(
        box, sheet, worth):
    assert round(still_worth(box, sheet, DEFAULT_VALUES), 3) == worth


def test_a_box_that_can_only_ever_hold_zero_is_worth_nothing():
    house = Options(escalera=0, servida_bonus=0, generala=0).values
    assert still_worth("escalera", {}, house) == 0  # worth nothing, made or not
    assert still_worth("generala", {}, house) == 0
    assert still_worth("doble_generala", {}, house) == 0  # a Generala of 0 never unlocks it
    assert still_worth("escalera", {}, Options(escalera=0).values) > 0  # the bonus


def test_scratching_the_generala_also_loses_what_the_doble_was_worth():
    cost = giving_up_cost("generala", 0, {}, DEFAULT_VALUES)
    assert cost == pytest.approx(still_worth("generala", {}, DEFAULT_VALUES)
                                 + still_worth("doble_generala", {}, DEFAULT_VALUES))
    # filling it with its value unlocks the Doble: the sheet gains
    assert giving_up_cost("generala", 50, {}, DEFAULT_VALUES) < 0


# The order in which the timeout gives up boxes that score the same (docs/rules/generala-dice.md
# writes it down): cheapest loss first, on the default sheet.
SACRIFICE_ORDER = {
    "generala free": ({}, ["doble_generala", "ones", "generala", "twos", "threes", "escalera",
                           "fours", "fives", "full", "poker", "sixes"]),
    "generala made": ({"generala": 50}, ["ones", "twos", "doble_generala", "threes",
                                         "escalera", "fours", "fives", "full", "poker",
                                         "sixes"]),
    "generala scratched": ({"generala": 0}, ["doble_generala", "ones", "twos", "threes",
                                             "escalera", "fours", "fives", "full", "poker",
                                             "sixes"]),
}


@pytest.mark.parametrize("sheet,order", SACRIFICE_ORDER.values(), ids=list(SACRIFICE_ORDER))
def test_the_order_in_which_boxes_are_given_up_on_a_scratch(sheet, order):
    free = [b for b in BOXES if b not in sheet]
    assert sorted(free, key=lambda b: giving_up_cost(b, 0, sheet, DEFAULT_VALUES)) == order
    assert set(FACE_BOXES) <= set(order)


def test_the_hand_tables_agree_with_the_dice_of_every_ordered_roll():
    """The engine reads rolls through `hands`: every one of the 7,776 ordered rolls maps to
    its sorted hand, holds exactly the multisets its own dice hold, and scores in each box what
    counting its dice gives."""
    from referee.games.generala_dice.hands import HAND_HOLDS, HAND_KEEPS, HAND_OF, HANDS

    values = Options().values
    for roll in ALL_ROLLS:
        i = HAND_OF[roll]
        assert HANDS[i] == tuple(sorted(roll))
        held = {tuple(sorted(c)) for n in range(6) for c in itertools.combinations(roll, n)}
        assert HAND_HOLDS[i] == held
        assert set(HAND_KEEPS[i]) == {k for k in held if len(k) < 5}
        counts = sorted(Counter(roll).values())
        for face, box in zip(range(1, 7), FACE_BOXES):
            assert box_score(box, roll, False, {}, values) == face * roll.count(face)
        assert (box_score("full", roll, False, {}, values) > 0) == (counts == [2, 3])
        assert (box_score("poker", roll, False, {}, values) > 0) == (counts[-1] >= 4)
        assert (box_score("generala", roll, False, {}, values) > 0) == (counts == [5])
