"""Hints for the game of any declared sheet (Yacht's), read from the sheet itself:
`advise(engine, view, moves, level)`, which a sheet's game package wires into its engine.

Levels, each a way to play a turn with at least one roll made:
  easy    a beginner's habits: a hand that scores in a free box of fixed value (a
          combination) is written there at once, where it pays most; otherwise he keeps every
          die of his highest face; after the last roll he writes the box that pays most now
          (the later box on a tie)
  medium  a club player's rule of thumb: the best turn when each box is worth its points less
          its par, what a turn aimed at that box brings on average (`worth`), so a box is
          filled when the dice beat what it usually brings
  hard    the exact optimum of the expected final score (`sheetsolver.SheetSolver`: 166.955
          on an empty Yacht sheet)
  win     the best chance of finishing on top against the other players' sheets, every later
          turn played as `hard` plays (`sheetwin`); between choices of the same chance (a
          match won or lost whatever the dice), the best expected final score

The advice of `easy`, `medium` and `hard` is valued as the `hard` one is: the expected final
score of each move ("expected_final_score", the points on the sheet plus what a player who
plays best from there still scores on average); the `win` level's by its chance of winning
("win_probability"). The advice reads only the view and the moves; nothing is sampled. The
tables are made once per sheet and box values (`sheetsolver.solver_for`,
`sheetfutures.futures_for`, through `core.preparation`), so the service's warm-up makes them
and no request waits for them; a hint reads the values of its turn's choices from the
solver's `box_table`.

Generala's own hints (`hints`, `advice`) are the Generala sheet's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from referee.core.engine import Engine, Move
from referee.core.hints import Advice, Alternative
from referee.core.memo import BoundedMemo

from . import dicetables as dt
from .hands import MAX_ROLLS
from .sheetfutures import futures_for, win_tables_ready
from .sheetsolver import SheetSolver, solver_for
from .sheetwin import win_plan
from .turnplan import TIE, TurnPlan, first_best
from .worth import worth_of

ALTERNATIVES = 3
EXPECTED = "expected_final_score"
WINNING = "win_probability"
PLANS_KEPT = 64


def hard_plan(solver: SheetSolver, state: int) -> TurnPlan:
    """The values of every choice of a turn from a sheet state, as the optimum weighs them
    (the solver's `box_table`: each box's points and what the sheet after still brings).
    Kept, since a turn asks up to three times with the same sheet."""
    return HARD_PLANS.get((solver, state), make_hard_plan)


def make_hard_plan(key: tuple[SheetSolver, int]) -> TurnPlan:
    solver, state = key
    plain, servida = (solver.box_table(np.array([state]), s).transpose(2, 1, 0) for s in (0, 1))
    return TurnPlan(plain, servida, dt.FIRST_ROLL)


HARD_PLANS: BoundedMemo[tuple[SheetSolver, int], TurnPlan] = BoundedMemo(PLANS_KEPT)


class Turn:
    """The player's turn as his view shows it, in the solver's terms: the sheet and its box
    values, his filled boxes, the rolls made and his hand."""

    def __init__(self, engine: Engine, view: dict[str, Any]):
        options = engine.options_type(**view["options"])
        self.scoring = options.sheet
        self.values = options.values
        self.boxes = self.scoring.boxes
        self.view = view
        self.sheet = dict(view["sheets"][view["you"]])
        self.banked = self.points_won(view["you"])
        self.rolls = view["rolls"]
        self.dice = tuple(sorted(view["dice"]))
        self.solver = solver_for(self.scoring.declaration, self.values)
        self.state = self.solver.state_of(self.sheet)

    def points_won(self, player: str) -> int:
        """A player's points so far: his boxes, the upper bonus and the Yahtzee bonuses
        (counted beside the boxes by a game that pays them)."""
        repeat = self.scoring.declaration.repeat_bonus
        bonuses = self.view.get("yahtzee_bonuses", {}).get(player, 0)
        return self.scoring.declaration.total(self.view["sheets"][player]) + (
            bonuses * repeat.amount if repeat is not None else 0)

    def win_plan(self) -> TurnPlan:
        """The turn of the best chance of winning against the others' sheets, in seat order."""
        opponents = tuple((self.solver.state_of(self.view["sheets"][p]), self.points_won(p))
                          for p in self.view["players"] if p != self.view["you"])
        return win_plan(futures_for(self.solver), self.state, self.banked, opponents)

    @property
    def hand(self) -> int:
        return dt.hand_index(self.dice)

    def points(self, box: str) -> int:
        return self.scoring.box_score(box, self.dice, self.rolls == 1, self.sheet, self.values)

    def free(self) -> list[str]:
        """The free boxes this hand may fill (a joker only those its reading allows)."""
        return list(self.scoring.allowed_boxes(self.hand, self.sheet))

    def box_choice(self, box: str) -> int:
        return self.boxes.index(box)

    def keep_choice(self, keep) -> int:
        """The solver's number for rolling again keeping `keep` (see `TurnPlan.choices`)."""
        position = np.flatnonzero(dt.SUBKEEPS[self.hand] == dt.keep_index(keep))[0]
        return len(self.boxes) + int(position)

    def choice_of_move(self, move: Move) -> int:
        if move["type"] == "score":
            return self.box_choice(move["box"])
        return self.keep_choice(move.get("keep") or ())

    def describe(self, choice: int) -> str:
        if choice < len(self.boxes):
            box = self.boxes[choice]
            points = self.points(box)
            return f"fill {box} for {points} point{'s' if points != 1 else ''}"
        keep = dt.KEEPS[dt.SUBKEEPS[self.hand, choice - len(self.boxes)]]
        if not keep:
            return "roll all five dice"
        return f"keep {'-'.join(map(str, keep))} and roll {dt.DICE - len(keep)}"


# -- the levels ----------------------------------------------------------------------------------
def win(turn: Turn) -> int:
    """The best chance of winning; between choices as good (a match already won, or lost
    whatever the dice), the best expected final score."""
    chances = turn.win_plan().choices(turn.rolls)[0, turn.hand]
    expected = hard_plan(turn.solver, turn.state).choices(turn.rolls)[0, turn.hand]
    return int(first_best(np.where(chances >= chances.max() - TIE, expected, -np.inf)))


def hard(turn: Turn) -> int:
    return hard_plan(turn.solver, turn.state).decide_hand(turn.rolls, turn.hand)


def medium(turn: Turn) -> int:
    worth = worth_of(turn.scoring)
    par = np.array([worth.still_worth(box, turn.sheet, turn.values) for box in turn.boxes])
    hands = [tuple(hand) for hand in dt.HANDS]
    closed = np.array([[-np.inf if box in turn.scoring.closed_boxes(h, turn.sheet) else 0.0
                        for box in turn.boxes] for h in range(len(hands))])
    stops = [np.array([[turn.scoring.box_score(box, hand, servida, turn.sheet, turn.values)
                        for box in turn.boxes] for hand in hands]) - par + closed
             for servida in (False, True)]
    plan = TurnPlan(stops[0][None], stops[1][None], dt.FIRST_ROLL)
    return plan.decide_hand(turn.rolls, turn.hand)


def easy(turn: Turn) -> int:
    free = turn.free()
    fixed = [box for box in free if turn.scoring.declaration.box(box).fixed
             and turn.points(box) > 0]
    if fixed:
        return turn.box_choice(max(fixed, key=lambda box: (turn.points(box), -free.index(box))))
    if turn.rolls == MAX_ROLLS:
        return turn.box_choice(max(free, key=lambda box: (turn.points(box), free.index(box))))
    face = max(turn.dice)
    return turn.keep_choice((face,) * min(turn.dice.count(face), dt.DICE - 1))


LEVELS = {"easy": easy, "medium": medium, "hard": hard, "win": win}


# -- the advice ----------------------------------------------------------------------------------
def advise(engine: Engine, view: dict[str, Any], moves: list[Move], level: str) -> Advice:
    if level not in engine.hint_levels or level not in LEVELS:
        raise ValueError(f"unknown hint level {level!r}: one of {', '.join(engine.hint_levels)}")
    me = view["you"]
    mine = [m for m in moves if m["player"] == me and m["type"] in ("roll", "score")]
    if not mine:
        return outside_the_turn(view, moves, me)
    if level == "win":
        options = engine.options_type(**view["options"])
        win_tables_ready(options.sheet.declaration, options.values)
    turn = Turn(engine, view)
    measure = WINNING if level == "win" else EXPECTED
    if turn.rolls == 0:
        # Nothing to choose before the first roll: all five dice roll.
        value = round(start_value(turn, measure), 6)
        return Advice(next(m for m in mine if m["type"] == "roll"), measure, value,
                      f"roll all five dice: {worth(measure, value)}")
    values = choice_values(turn, measure)
    chosen = LEVELS[level](turn)
    move = next((m for m in mine if turn.choice_of_move(m) == chosen), None)
    if move is None:
        raise ValueError(f"the {level} choice, {turn.describe(chosen)}, is not among the moves "
                         "given")
    priced = sorted(((float(values[turn.choice_of_move(m)]), i, m) for i, m in enumerate(mine)),
                    key=lambda item: (-item[0], item[1]))
    others = [Alternative(m, round(v, 6)) for v, _, m in priced if m is not move][:ALTERNATIVES]
    value = round(float(values[chosen]), 6)
    reason = f"{turn.describe(chosen)}: {worth(measure, value)}"
    if others:
        best = others[0]
        reason += (f"; best other choice, {turn.describe(turn.choice_of_move(best.move))}: "
                   f"{worth(measure, best.value)}")
    return Advice(move, measure, value, reason, tuple(others))


def start_value(turn: Turn, measure: str) -> float:
    """The turn's value before its first roll."""
    if measure == WINNING:
        return float(turn.win_plan().start[0])
    return float(turn.solver.expected[turn.state]) + turn.banked


def choice_values(turn: Turn, measure: str) -> np.ndarray:
    """Every choice's value for the turn's hand, as `TurnPlan.choices` lays them out."""
    if measure == WINNING:
        return turn.win_plan().choices(turn.rolls)[0, turn.hand]
    return hard_plan(turn.solver, turn.state).choices(turn.rolls)[0, turn.hand] + turn.banked


def worth(measure: str, value: float) -> str:
    if measure == WINNING:
        return f"chance of winning {100 * value:.1f} %"
    return f"expected final score {value:.1f}"


def outside_the_turn(view: dict[str, Any], moves: list[Move], me: str) -> Advice:
    timeouts = [m for m in moves if m["player"] == me and m["type"] == "timeout"]
    if not timeouts:
        raise ValueError(f"{me} has no move to advise")
    return Advice(timeouts[0], "none", None,
                  f"{view['current']}'s turn clock has run out: end the turn")

