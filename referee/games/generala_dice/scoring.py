"""What five dice are worth in each box of the Generala sheet: a table from box to scorer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from .hands import HAND_OF, HANDS, hand_index

FACE_BOXES = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
COMBINATION_BOXES = ("escalera", "full", "poker", "generala", "doble_generala")
BOXES = tuple(FACE_BOXES) + COMBINATION_BOXES
BOX_COUNT = len(BOXES)

# Only these three runs are an Escalera; 4-5-6-1-2 is not (the sheet's table).
ESCALERAS = (frozenset({1, 2, 3, 4, 5}), frozenset({2, 3, 4, 5, 6}), frozenset({3, 4, 5, 6, 1}))
# The boxes where a hand scored after the first roll (servida) earns the bonus.
SERVIDA_BOXES = frozenset({"escalera", "full", "poker"})


def is_escalera(dice: tuple[int, ...]) -> bool:
    return len(set(dice)) == 5 and frozenset(dice) in ESCALERAS


def is_full(dice: tuple[int, ...]) -> bool:
    """Three of one face and two of another; five of a kind is not a Full."""
    return sorted(Counter(dice).values()) == [2, 3]


def is_poker(dice: tuple[int, ...]) -> bool:
    """Four of a kind, or five (five of a kind also counts as a Póker)."""
    return max(Counter(dice).values()) >= 4


def is_generala(dice: tuple[int, ...]) -> bool:
    return len(set(dice)) == 1


# What each of the 252 hands makes, worked out once from the predicates above: a scorer reads
# its hand's row instead of counting the dice again.
HAND_FACE_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(face * hand.count(face) for face in range(7)) for hand in HANDS)
_COMBINATION_TESTS = {"escalera": is_escalera, "full": is_full, "poker": is_poker,
                      "generala": is_generala}
HAND_MAKES: tuple[frozenset[str], ...] = tuple(
    frozenset(box for box, test in _COMBINATION_TESTS.items() if test(hand)) for hand in HANDS)

Scorer = Callable[[int, bool, dict[str, int], dict[str, int]], int]


def _face(face: int) -> Scorer:
    return lambda hand, servida, sheet, values: HAND_FACE_POINTS[hand][face]


def _fixed(box: str) -> Scorer:
    def score(hand, servida, sheet, values):
        if box not in HAND_MAKES[hand]:
            return 0
        bonus = values["servida_bonus"] if servida and box in SERVIDA_BOXES else 0
        return values[box] + bonus
    return score


def _doble(hand, servida, sheet, values):
    # Only a Generala box that holds its full value unlocks the Doble; a scratched one never does.
    unlocked = values["generala"] > 0 and sheet.get("generala") == values["generala"]
    return values["doble_generala"] if unlocked and "generala" in HAND_MAKES[hand] else 0


# Each scorer takes the index of the hand shown (see `hands`), not the dice.
SCORERS: dict[str, Scorer] = {
    **{box: _face(face) for box, face in FACE_BOXES.items()},
    **{box: _fixed(box) for box in _COMBINATION_TESTS},
    "doble_generala": _doble,
}


def hand_of(dice) -> int:
    """The index of the hand five dice show, in any order."""
    try:
        return HAND_OF[dice]
    except (KeyError, TypeError):  # a list, or dice not yet made a tuple
        return hand_index(dice)


def box_score(box: str, dice: tuple[int, ...], servida: bool, sheet: dict[str, int],
              values: dict[str, int]) -> int:
    return SCORERS[box](hand_of(dice), servida, sheet, values)


def possible_scores(box: str, values: dict[str, int]) -> frozenset[int]:
    """Every value a box can hold on a sheet: used to check a caller's state."""
    if box in FACE_BOXES:
        return frozenset(FACE_BOXES[box] * n for n in range(6))
    if box in SERVIDA_BOXES:
        return frozenset({0, values[box], values[box] + values["servida_bonus"]})
    return frozenset({0, values[box]})


# -- what a free box is still worth ------------------------------------------------------------
# The timeout fills the free box that scores most; among boxes scoring the same it gives up the
# one the player loses least by: what a box is still worth is the points it brings, on
# average, when one whole turn is aimed at it (three rolls, keeping the best dice for it).
# Exact chances, from a dynamic program over the 252 sets of five dice
# (tests/games/generala_dice/test_generala_dice_scoring.py recomputes them).
AIMED_CHANCE = {  # making the combination within three rolls, aiming at it
    "escalera": 0.3212384846364354,
    "full": 0.36288287852038137,
    "poker": 0.290793583506918,
    "generala": 0.04602864252569899,  # the rule text's « environ 4,6 % » (clause 26)
}
FIRST_ROLL_CHANCE = {  # making it on the first roll (servida): counts out of 7,776 rolls
    "escalera": 360 / 7776, "full": 300 / 7776, "poker": 156 / 7776, "generala": 6 / 7776,
}
AIMED_FACE_COUNT = 5 * (1 - (5 / 6) ** 3)  # dice showing the aimed face after three rolls


def still_worth(box: str, sheet: dict[str, int], values: dict[str, int]) -> float:
    """What the free `box` of this sheet may still bring: 0 for a dead box (one that can
    only ever hold 0, such as the Doble once the Generala is scratched)."""
    if box in FACE_BOXES:
        return FACE_BOXES[box] * AIMED_FACE_COUNT
    generala = AIMED_CHANCE["generala"]
    if box == "doble_generala":
        full_value = values["generala"]
        if full_value <= 0 or sheet.get("generala", full_value) != full_value:
            return 0.0  # never unlocked: a Generala worth nothing, or scratched
        # unlocked already, or still to be unlocked by a Generala in another turn
        return values[box] * generala * (1.0 if "generala" in sheet else generala)
    worth = values[box] * AIMED_CHANCE[box]
    if box in SERVIDA_BOXES:
        worth += values["servida_bonus"] * FIRST_ROLL_CHANCE[box]
    return worth


def sheet_worth(sheet: dict[str, int], values: dict[str, int]) -> float:
    """What the free boxes of a sheet may still bring, together."""
    return sum(still_worth(b, sheet, values) for b in BOXES if b not in sheet)


def giving_up_cost(box: str, points: int, sheet: dict[str, int], values: dict[str, int]) -> float:
    """What filling the free `box` with `points` loses of the sheet's future: its own worth,
    and what it changes in another box (scratching the Generala kills the Doble; filling it
    with its value unlocks it, a negative cost)."""
    return sheet_worth(sheet, values) - sheet_worth({**sheet, box: points}, values)
