"""A dice sheet is a declaration: the scorers each box is built from, the checks a declaration
must pass, and the Generala sheet declared as the generala-dice game plays it (its boxes, values
and special rules, the same as the wire format's and the options')."""

from __future__ import annotations

import itertools
import typing

import pytest

from referee.games.dice_sheets.declaration import Box, Sheet, Unlock, UpperBonus
from referee.games.dice_sheets.generala import GENERALA
from referee.games.dice_sheets.scorers import (Face, KindTotal, OfAKind, Straight, counts_of,
                                               dice_total, five_of_a_kind, full_house)
from referee.games.generala_dice import ENGINE
from referee.games.generala_dice.state import Options

HANDS = list(itertools.combinations_with_replacement(range(1, 7), 5))


@pytest.mark.parametrize("dice,face,points", [
    ((3, 3, 1, 3, 6), 3, 9), ((3, 3, 1, 3, 6), 2, 0), ((6, 6, 6, 6, 6), 6, 30)])
def test_a_face_scorer_counts_only_the_dice_showing_its_face(dice, face, points):
    assert Face(face)(counts_of(dice)) == points


def test_dice_total_adds_all_five_dice():
    assert dice_total(counts_of((1, 2, 3, 4, 6))) == 16


@pytest.mark.parametrize("dice,made", [
    ((2, 2, 5, 5, 5), True), ((5, 5, 5, 5, 5), False), ((2, 2, 5, 5, 6), False)])
def test_a_full_house_is_three_of_one_face_and_two_of_another(dice, made):
    assert full_house(counts_of(dice)) is made


@pytest.mark.parametrize("count,dice,made", [
    (3, (4, 4, 4, 1, 2), True), (3, (4, 4, 4, 4, 2), True), (4, (4, 4, 4, 1, 2), False),
    (4, (4, 4, 4, 4, 4), True)])
def test_of_a_kind_needs_at_least_that_many_dice_of_one_face(count, dice, made):
    assert OfAKind(count)(counts_of(dice)) is made


def test_five_of_a_kind_is_five_dice_of_one_face():
    assert five_of_a_kind(counts_of((2,) * 5))
    assert not five_of_a_kind(counts_of((2, 2, 2, 2, 3)))


def test_a_straight_is_one_of_its_runs_in_any_order():
    big = Straight((frozenset(range(1, 6)), frozenset(range(2, 7))))
    assert big(counts_of((5, 3, 1, 2, 4))) and big(counts_of((6, 2, 3, 5, 4)))
    assert not big(counts_of((1, 2, 3, 4, 6)))
    small = Straight((frozenset({1, 2, 3, 4}), frozenset({2, 3, 4, 5}), frozenset({3, 4, 5, 6})))
    assert small(counts_of((1, 2, 3, 4, 4))) and small(counts_of((6, 3, 5, 4, 1)))
    assert not small(counts_of((1, 2, 3, 5, 6)))


@pytest.mark.parametrize("dice,points", [
    ((3, 3, 3, 3, 6), 12), ((3, 3, 3, 3, 3), 12), ((3, 3, 3, 6, 6), 0)])
def test_kind_total_counts_only_the_dice_of_the_kind(dice, points):
    assert KindTotal(4)(counts_of(dice)) == points


def test_a_box_has_either_a_fixed_value_or_a_dice_scorer():
    with pytest.raises(ValueError):
        Box("both", full_house, value=25, dice=dice_total)
    with pytest.raises(ValueError):
        Box("neither", full_house)
    assert Box("full", full_house, value=25).points(counts_of((1, 1, 2, 2, 2))) == 25
    assert Box("full", full_house, value=25).points(counts_of((1, 1, 2, 2, 2)), value=7) == 7
    assert Box("full", full_house, dice=dice_total).points(counts_of((1, 1, 2, 2, 2))) == 8
    assert Box("full", full_house, dice=dice_total).points(counts_of((1, 1, 2, 2, 3))) == 0


def test_a_sheet_names_each_box_once_and_rules_only_for_its_boxes():
    ones = Box("ones", dice=Face(1))
    with pytest.raises(ValueError):
        Sheet("twice", (ones, ones))
    with pytest.raises(ValueError):
        Sheet("stray", (ones,), unlock=Unlock("doble", by="ones"))
    with pytest.raises(ValueError):
        Sheet("stray", (ones,), upper_bonus=UpperBonus(("ones", "twos"), 3, 35))


def test_a_sheet_lasts_one_turn_per_box():
    assert GENERALA.turns == 11 == len(GENERALA.boxes)


def test_the_upper_bonus_is_added_once_the_threshold_is_reached():
    upper = tuple(f"f{face}" for face in range(1, 7))
    sheet = Sheet("yams-like", tuple(Box(name, dice=Face(face))
                                     for face, name in enumerate(upper, start=1)),
                  upper_bonus=UpperBonus(upper, threshold=63, amount=35))
    three_each = {name: 3 * face for face, name in enumerate(upper, start=1)}  # 63
    assert sheet.total(three_each) == 63 + 35
    assert sheet.total({**three_each, "f1": 2}) == 62
    assert GENERALA.total({"ones": 5, "generala": 50}) == 55  # no bonus on Generala's sheet


# -- the Generala sheet, as the game plays it -------------------------------------------------
def test_the_generala_declaration_names_the_boxes_of_the_wire_format_and_the_moves():
    box_scored = next(e for e in ENGINE.event_types if e.__struct_config__.tag == "box_scored")
    assert GENERALA.box_names == typing.get_args(typing.get_type_hints(box_scored)["box"])
    score = next(m for m in ENGINE.move_types if m.type == "score")
    assert tuple(score.fields[0].choices) == GENERALA.box_names
    assert Options().sheet.declaration is GENERALA


def test_the_generala_declaration_holds_the_default_options_values():
    assert GENERALA.values() == Options().values


def test_the_generala_declaration_has_servida_and_the_doble_and_no_other_rule():
    assert GENERALA.servida.boxes == {"escalera", "full", "poker"}
    assert GENERALA.servida.bonus == 5
    assert (GENERALA.unlock.box, GENERALA.unlock.by) == ("doble_generala", "generala")
    assert GENERALA.upper_bonus is None and GENERALA.repeat_bonus is None
    assert GENERALA.joker is None


@pytest.mark.parametrize("hand", HANDS, ids=lambda h: "".join(map(str, h)))
def test_the_generala_boxes_score_every_hand_as_the_rule_text_reads(hand):
    faces = set(hand)
    most = max(hand.count(f) for f in faces)
    runs = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}, {3, 4, 5, 6, 1})
    expected = {
        **{name: face * hand.count(face) for face, name in enumerate(
            ("ones", "twos", "threes", "fours", "fives", "sixes"), start=1)},
        "escalera": 20 if faces in runs else 0,
        "full": 30 if sorted(hand.count(f) for f in faces) == [2, 3] else 0,
        "poker": 40 if most >= 4 else 0,
        "generala": 50 if most == 5 else 0,
        "doble_generala": 100 if most == 5 else 0,  # before its unlock rule
    }
    counts = counts_of(hand)
    assert {box.name: box.points(counts) for box in GENERALA.boxes} == expected
