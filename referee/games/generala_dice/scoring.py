"""What five dice are worth in each box of the Generala sheet: a table from box to scorer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

FACE_BOXES = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
COMBINATION_BOXES = ("escalera", "full", "poker", "generala", "doble_generala")
BOXES = tuple(FACE_BOXES) + COMBINATION_BOXES

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


Scorer = Callable[[tuple[int, ...], bool, dict[str, int], dict[str, int]], int]


def _face(face: int) -> Scorer:
    return lambda dice, servida, sheet, values: face * dice.count(face)


def _fixed(box: str, test: Callable[[tuple[int, ...]], bool]) -> Scorer:
    def score(dice, servida, sheet, values):
        if not test(dice):
            return 0
        bonus = values["servida_bonus"] if servida and box in SERVIDA_BOXES else 0
        return values[box] + bonus
    return score


def _doble(dice, servida, sheet, values):
    # Only a Generala box that holds its full value unlocks the Doble; a scratched one never does.
    unlocked = values["generala"] > 0 and sheet.get("generala") == values["generala"]
    return values["doble_generala"] if unlocked and is_generala(dice) else 0


SCORERS: dict[str, Scorer] = {
    **{box: _face(face) for box, face in FACE_BOXES.items()},
    "escalera": _fixed("escalera", is_escalera),
    "full": _fixed("full", is_full),
    "poker": _fixed("poker", is_poker),
    "generala": _fixed("generala", is_generala),
    "doble_generala": _doble,
}


def box_score(box: str, dice: tuple[int, ...], servida: bool, sheet: dict[str, int],
              values: dict[str, int]) -> int:
    return SCORERS[box](dice, servida, sheet, values)


def possible_scores(box: str, values: dict[str, int]) -> frozenset[int]:
    """Every value a box can hold on a sheet: used to check a caller's state."""
    if box in FACE_BOXES:
        return frozenset(FACE_BOXES[box] * n for n in range(6))
    if box in SERVIDA_BOXES:
        return frozenset({0, values[box], values[box] + values["servida_bonus"]})
    return frozenset({0, values[box]})
