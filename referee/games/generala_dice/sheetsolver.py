"""The exact solitaire optimum of any declared dice sheet: the expected final score of a player
who plays every turn to maximise it (the `hard` level's measure), for a sheet declaration
(`referee.games.dice_sheets`) and its box values.

What the rest of the game depends on, besides which boxes are free, is the sheet's *state*:
  - with an upper bonus, the upper subtotal so far, capped at the threshold (beyond it, more
    points in the upper boxes change nothing more);
  - with an `Unlock` rule (Generala's Doble), whether the guarding box holds its full value.
A state is numbered `(upper * unlock_states + unlocked) << boxes | filled`, filled being the
set of filled boxes as bits in sheet order. `expected[state]` is found by backward induction
over the layers of states with 0, 1, ... free boxes, and within a turn by `turnplan.TurnPlan`
over the 252 hands, the rolls left and the keeps. The upper bonus is paid by the box that
reaches the threshold. Scores come from the sheet's own scorers (`scoring.SheetScoring`), so
the tables cannot disagree with the engine about what a box is worth.

Measured: on the Generala declaration it finds Generala's 162.47 state by state; on the
Yahtzee sheet without its Yahtzee bonus and joker (upper bonus 35 at 63) it finds 245.87, the
published optimum for those rules, but in about 8 minutes over its 524,288 states, most of
them upper subtotals no sheet can reach with its filled boxes: pruning them is next.

Not yet here (see `solver` for Generala's): the `hard` choices and the `win` level, the
repeat bonus and the joker rule, and a house rule that ends a match at once.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from referee.core.memo import BoundedMemo
from referee.core.preparation import prepared
from referee.games.dice_sheets.declaration import Sheet

from . import dicetables as dt
from .scoring import SheetScoring
from .turnplan import TurnPlan

CHUNK = 512  # states planned at once: a stop table is CHUNK x 252 x boxes floats
SOLVERS_KEPT = 8  # a handful of sheets and box values are kept


class SheetSolver:
    """`expected[state]` and `start` (the empty sheet's expected final score) of one sheet
    with these box values (`values`, as a game's options give them)."""

    def __init__(self, scoring: SheetScoring, values: dict[str, int]):
        sheet = scoring.declaration
        self.boxes = scoring.boxes
        self.box_count = n = scoring.box_count
        hands = [tuple(hand) for hand in dt.HANDS]
        # points[servida, box, hand], the unlocked box scored as unlocked
        unlock = sheet.unlock
        opened = {unlock.by: values[unlock.by]} if unlock is not None else {}
        self.points = np.array([[[scoring.box_score(box, hand, servida, opened, values)
                                  for hand in hands] for box in self.boxes]
                                for servida in (False, True)], dtype=np.int64)
        upper = sheet.upper_bonus
        self.upper_boxes = {self.boxes.index(b) for b in upper.boxes} if upper else set()
        self.threshold = upper.threshold if upper else 0
        self.bonus = upper.amount if upper else 0
        self.unlocked_box = self.boxes.index(unlock.box) if unlock else -1
        self.unlocking_box = self.boxes.index(unlock.by) if unlock else -1
        self.unlocking_value = values[unlock.by] if unlock else 0
        self.unlock_states = 2 if unlock else 1
        self.state_count = (self.threshold + 1) * self.unlock_states << n
        self.expected = np.zeros(self.state_count)
        states = np.arange(self.state_count)
        free = n - np.array([bin(m).count("1") for m in range(1 << n)])[states & ((1 << n) - 1)]
        for free_boxes in range(1, n + 1):
            layer = states[free == free_boxes]
            for start in range(0, len(layer), CHUNK):
                chunk = layer[start:start + CHUNK]
                self.expected[chunk] = self.plan(chunk).start

    @property
    def start(self) -> float:
        """The empty sheet's expected final score."""
        return float(self.expected[0])

    def state_of(self, filled: dict[str, int]) -> int:
        """The state of a score sheet (box name -> points)."""
        mask = sum(1 << self.boxes.index(box) for box in filled)
        upper = min(self.threshold, sum(filled[self.boxes[b]] for b in self.upper_boxes
                                        if self.boxes[b] in filled))
        unlocked = (self.unlocking_box >= 0 and self.unlocking_value > 0
                    and filled.get(self.boxes[self.unlocking_box]) == self.unlocking_value)
        return (upper * self.unlock_states + int(unlocked)) << self.box_count | mask

    def plan(self, states: np.ndarray) -> TurnPlan:
        stops = [np.stack([self.box_value(states, b, servida) for b in range(self.box_count)],
                          axis=2) for servida in (0, 1)]
        return TurnPlan(stops[0], stops[1], dt.FIRST_ROLL)

    def box_table(self, states: np.ndarray, servida: int) -> np.ndarray:
        """value[box, h, s]: `box_value` laid out for every box (what a hint weighs)."""
        return np.stack([self.box_value(states, b, servida).T for b in range(self.box_count)])

    def box_value(self, states: np.ndarray, box: int, servida: int) -> np.ndarray:
        """value[state, hand]: the points of filling `box` with the hand, and what the sheet
        after still brings; -inf where the box is filled."""
        n = self.box_count
        filled = states & ((1 << n) - 1)
        rest = states >> n
        unlocked, upper = rest % self.unlock_states, rest // self.unlock_states
        points = np.broadcast_to(self.points[servida, box][None, :], (len(states), len(dt.HANDS)))
        if box == self.unlocked_box:
            points = points * unlocked[:, None]
        reward = points
        new_upper = np.broadcast_to(upper[:, None], points.shape)
        if box in self.upper_boxes:
            new_upper = np.minimum(self.threshold, upper[:, None] + points)
            crossed = (upper[:, None] < self.threshold) & (new_upper >= self.threshold)
            reward = points + self.bonus * crossed
        new_unlocked = np.broadcast_to(unlocked[:, None], points.shape)
        if box == self.unlocking_box:
            made = (points == self.unlocking_value) & (self.unlocking_value > 0)
            new_unlocked = np.maximum(new_unlocked, made)
        child = (new_upper * self.unlock_states + new_unlocked) << n | (filled | 1 << box)[:, None]
        closed = np.where(filled >> box & 1 == 1, -np.inf, 0.0)[:, None]
        return reward + self.expected[child] + closed


SolverKey = tuple[Sheet, tuple[tuple[str, int], ...]]
SOLVERS: BoundedMemo[SolverKey, SheetSolver] = BoundedMemo(SOLVERS_KEPT)


def solver_for(sheet: Sheet, values: Mapping[str, int]) -> SheetSolver:
    """The solver of a sheet with these box values, built on first use and kept
    (`SOLVERS_KEPT`); a request does not build it but has it built (core.preparation)."""
    key = (sheet, tuple(sorted(values.items())))
    return prepared(SOLVERS, key, build_solver, "the exact tables of this sheet")


def build_solver(key: SolverKey) -> SheetSolver:
    sheet, values = key
    return SheetSolver(SheetScoring(sheet), dict(values))
