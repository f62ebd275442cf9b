"""What five dice are worth in each box of a sheet: a sheet declaration
(`referee.games.dice_sheets`) compiled over the 252 hands, once per sheet (`SheetScoring`).

Rules enforced, in plain words: a box pays what its declaration says (a fixed value when the
dice make its pattern, or the points its scorer counts), house values replacing the fixed ones;
a hand filled after the first roll (servida) adds the servida bonus in the boxes the sheet
names, when the hand makes the box; a box unlocked by another (Generala's Doble) scores only
while that box holds its full value above 0. Under a joker rule (Yahtzee's), a five of a kind
once the joker's box is filled may fill only the boxes the rule's reading allows
(`allowed_boxes`), at full value once the number box of its face is filled; a repeat bonus
(the Yahtzee bonus) is paid for a five of a kind while its box holds its value
(`repeat_bonus`). The Generala sheet's names below (`BOXES`,
`FACE_BOXES`, ...) serve the parts still written for it alone: pictures, hints, the solver.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.games.dice_sheets.declaration import Box, Sheet
from referee.games.dice_sheets.generala import ESCALERAS, GENERALA
from referee.games.dice_sheets.scorers import Counts, Face, counts_of

from .hands import HAND_OF, HANDS, hand_index

# A scorer takes the index of the hand shown (see `hands`), whether the hand is servida, the
# player's filled boxes and the box values of the match's options.
Scorer = Callable[[int, bool, dict[str, int], dict[str, int]], int]
HAND_COUNTS: tuple[Counts, ...] = tuple(counts_of(hand) for hand in HANDS)


class SheetScoring:
    """A sheet declaration (`declaration`) as the engine plays it: `boxes` (the names, in sheet order),
    `scorers[box]`, and the tables they read, worked out once from the declaration's own
    patterns and scorers: `hand_makes[hand]` (the fixed-value boxes the hand makes) and
    `hand_points[box][hand]` (what the dice count in a box scored by the dice)."""

    def __init__(self, sheet: Sheet):
        self.declaration = sheet
        self.boxes = sheet.box_names
        self.box_count = len(self.boxes)
        servida = sheet.servida
        self.servida_boxes = servida.boxes if servida is not None else frozenset()
        self.joker = sheet.joker
        self.hand_makes = tuple(frozenset(box.name for box in sheet.boxes
                                          if box.fixed and box.made(counts))
                                for counts in HAND_COUNTS)
        self.hand_points = {box.name: tuple(box.points(counts) for counts in HAND_COUNTS)
                            for box in sheet.boxes if not box.fixed}
        # the face of each hand that is a five of a kind, else 0
        self.five_of_a_kind = tuple(next((f for f in range(1, 7) if counts[f] == 5), 0)
                                    for counts in HAND_COUNTS)
        self.scorers: dict[str, Scorer] = {box.name: self.scorer(box) for box in sheet.boxes}

    def scorer(self, box: Box) -> Scorer:
        unlock = self.declaration.unlock
        if unlock is not None and unlock.box == box.name:
            return self.unlocked_scorer(box.name, unlock.by)
        scorer = self.fixed_scorer(box.name) if box.fixed else self.counted_scorer(box.name)
        if self.joker is not None and box.name not in self.declaration.number_boxes.values():
            return self.joker_scorer(box, scorer)
        return scorer

    def joker_scorer(self, box: Box, plain: Scorer) -> Scorer:
        """A box other than a number box on a sheet with a joker rule: a five of a kind, once
        the joker's box and the number box of its face are filled, scores the box's full
        value (or what the dice count there) as if it made the box's pattern."""
        joker_box, faces, sheet = self.joker.box, self.five_of_a_kind, self.declaration
        counts = {face: counts_of((face,) * 5) for face in range(1, 7)}

        def score(hand, servida, filled, values):
            face = faces[hand]
            if face and joker_box in filled and sheet.number_box(face) in filled:
                return box.joker_points(counts[face], values.get(box.name))
            return plain(hand, servida, filled, values)
        return score

    def allowed_boxes(self, hand: int, filled: dict[str, int]) -> tuple[str, ...]:
        """The free boxes this hand may fill, in sheet order: all of them, unless the hand is a
        joker (a five of a kind once the joker's box is filled), which fills only those the
        joker rule's reading allows (`Sheet.joker_boxes`)."""
        joker, face = self.joker, self.five_of_a_kind[hand]
        if joker is not None and face and joker.box in filled:
            free = [box for box in self.boxes if box not in filled]
            return self.declaration.joker_boxes(face, free)
        return tuple(box for box in self.boxes if box not in filled)

    def closed_boxes(self, hand: int, filled: dict[str, int]) -> frozenset[str]:
        """The boxes this hand may not fill: the filled ones, and under a joker rule those its
        reading rules out."""
        if self.joker is None:
            return frozenset(filled)
        return frozenset(self.boxes).difference(self.allowed_boxes(hand, filled))

    def repeat_bonus(self, hand: int, filled: dict[str, int], values: dict[str, int]) -> int:
        """The repeat bonus (the Yahtzee bonus) this hand earns, wherever it is scored: the
        amount for a five of a kind while the bonus's box holds its value above 0."""
        repeat = self.declaration.repeat_bonus
        if repeat is None or not self.five_of_a_kind[hand]:
            return 0
        held = values[repeat.box]
        return repeat.amount if held > 0 and filled.get(repeat.box) == held else 0

    def counted_scorer(self, name: str) -> Scorer:
        points = self.hand_points[name]
        if name in self.servida_boxes:
            def score(hand, servida, filled, values):
                counted = points[hand]
                return counted + values["servida_bonus"] if servida and counted else counted
            return score
        return lambda hand, servida, filled, values: points[hand]

    def fixed_scorer(self, name: str) -> Scorer:
        makes = self.hand_makes
        has_bonus = name in self.servida_boxes

        def score(hand, servida, filled, values):
            if name not in makes[hand]:
                return 0
            return values[name] + values["servida_bonus"] if servida and has_bonus else values[name]
        return score

    def unlocked_scorer(self, name: str, by: str) -> Scorer:
        makes = self.hand_makes

        def score(hand, servida, filled, values):
            # Only a box `by` holding its full value unlocks it; a scratched one never does.
            full = values[by]
            unlocked = full > 0 and filled.get(by) == full
            return values[name] if unlocked and name in makes[hand] else 0
        return score

    def box_score(self, box: str, dice, servida: bool, filled: dict[str, int],
                  values: dict[str, int]) -> int:
        return self.scorers[box](hand_of(dice), servida, filled, values)

    def possible_scores(self, box: str, values: dict[str, int]) -> frozenset[int]:
        """Every value a box can hold on a sheet: used to check a caller's state."""
        bonus = values["servida_bonus"] if box in self.servida_boxes else 0
        if box in self.hand_points:  # the bonus comes with points the dice count
            counted = set(self.hand_points[box])
            return frozenset(counted | {p + bonus for p in counted if p})
        return frozenset({0, values[box], values[box] + bonus})

    def unlocks(self, filled: dict[str, int], values: dict[str, int]) -> bool:
        """Whether the box an `Unlock` rule guards is open on this sheet."""
        unlock = self.declaration.unlock
        return unlock is not None and values[unlock.by] > 0 and (
            filled.get(unlock.by) == values[unlock.by])


def hand_of(dice) -> int:
    """The index of the hand five dice show, in any order."""
    try:
        return HAND_OF[dice]
    except (KeyError, TypeError):  # a list, or dice not yet made a tuple
        return hand_index(dice)


# -- the Generala sheet --------------------------------------------------------------------------
GENERALA_SCORING = SheetScoring(GENERALA)
BOXES = GENERALA_SCORING.boxes
BOX_COUNT = GENERALA_SCORING.box_count
FACE_BOXES = {box.name: box.dice.face for box in GENERALA.boxes if isinstance(box.dice, Face)}
SERVIDA_BOXES = GENERALA_SCORING.servida_boxes
SCORERS = GENERALA_SCORING.scorers
assert ESCALERAS == GENERALA.box("escalera").made.runs


def makes(box: str, dice) -> bool:
    """Whether the dice make the pattern of a Generala box."""
    return GENERALA.box(box).made(counts_of(dice))


def is_escalera(dice) -> bool:
    return makes("escalera", dice)


def is_full(dice) -> bool:
    return makes("full", dice)


def is_poker(dice) -> bool:
    return makes("poker", dice)


def is_generala(dice) -> bool:
    return "generala" in GENERALA_SCORING.hand_makes[hand_of(dice)]


def box_score(box: str, dice: tuple[int, ...], servida: bool, sheet: dict[str, int],
              values: dict[str, int]) -> int:
    return GENERALA_SCORING.box_score(box, dice, servida, sheet, values)


def possible_scores(box: str, values: dict[str, int]) -> frozenset[int]:
    return GENERALA_SCORING.possible_scores(box, values)
