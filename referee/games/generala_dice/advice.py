"""The Generala advice worked out from the exact tables (see `hints` for the levels and what
the advice says).

An advice answers the move its level plays, one of the given legal moves as it is, and what it
and the best other moves are worth: for easy, medium and hard the expected final score
("expected_final_score": the points on the sheet plus what a player who plays best from there
still scores on average), for win the chance of winning ("win_probability", a tie on top
counting half) when everyone plays the `hard` policy after this turn. Under the
`servida_generala_wins` house rule both are taken over the matches that run to their end (see
`solver`).

The advice reads only the view (sheets, dice, rolls, options, whose turn) and the moves, so
the same view gives the same advice; nothing is sampled.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from referee.core.engine import Engine, Move
from referee.core.hints import Advice, Alternative

from . import dicetables as dt
from .sheetstates import RuleKey, sheet_state
from .solver import tables_for
from .strategies import STRATEGIES, Choice, Table, choice_index, win_plan

ALTERNATIVES = 3
EXPECTED = "expected_final_score"
WINNING = "win_probability"


def advise(engine: Engine, view: dict[str, Any], moves: list[Move], level: str) -> Advice:
    if level not in engine.hint_levels:
        raise ValueError(f"unknown hint level {level!r}: one of {', '.join(engine.hint_levels)}")
    me = view["you"]
    turn = [m for m in moves if m["player"] == me and m["type"] in ("roll", "score")]
    if not turn:
        return _outside_the_turn(view, moves, me)
    players = list(view["players"])
    table = Table(rules=RuleKey.of(view["options"]),
                  sheets=tuple(dict(view["sheets"][p]) for p in players),
                  seat=players.index(me), rolls=view["rolls"], dice=tuple(sorted(view["dice"])))
    measure = WINNING if level == "win" else EXPECTED
    if table.rolls == 0:
        # Nothing to choose before the first roll: all five dice roll.
        move = next(m for m in turn if m["type"] == "roll")
        value = _start_value(table, measure)
        return Advice(move, measure, value, f"roll all five dice: {_worth(measure, value)}")
    hand = dt.hand_index(table.dice)
    values = _choice_values(table, measure)
    chosen = STRATEGIES[level](table)
    priced = sorted(((float(values[choice_index(_choice_of_move(m), hand)]), i, m)
                     for i, m in enumerate(turn)), key=lambda item: (-item[0], item[1]))
    move = next((m for m in turn if _choice_of_move(m) == chosen), None)
    if move is None:
        raise ValueError(f"the {level} choice, {chosen.describe()}, is not among the moves given")
    value = float(values[choice_index(chosen, hand)])
    others = [Alternative(m, round(v, 6)) for v, _, m in priced if m is not move][:ALTERNATIVES]
    return Advice(move, measure, round(value, 6), _reason(table, chosen, measure, value, others),
                  tuple(others))


def _outside_the_turn(view: dict[str, Any], moves: list[Move], me: str) -> Advice:
    timeouts = [m for m in moves if m["player"] == me and m["type"] == "timeout"]
    if not timeouts:
        raise ValueError(f"{me} has no move to advise")
    return Advice(timeouts[0], "none", None,
                  f"{view['current']}'s turn clock has run out: end the turn")


def _choice_of_move(move: Move) -> Choice:
    if move["type"] == "score":
        return Choice(box=move["box"])
    return Choice(keep=tuple(sorted(move.get("keep") or ())))


def _start_value(table: Table, measure: str) -> float:
    if measure == WINNING:
        return round(float(win_plan(table).start[0]), 6)
    tables = tables_for(table.rules)
    state = sheet_state(table.sheet, table.rules)
    return round(float(tables.expected[state]) + sum(table.sheet.values()), 6)


def _choice_values(table: Table, measure: str) -> np.ndarray:
    """Every choice's value (as `TurnPlan.choices` lays them out) for this table's hand."""
    hand = dt.hand_index(table.dice)
    if measure == WINNING:
        return win_plan(table).choices(table.rolls)[0, hand]
    tables = tables_for(table.rules)
    plan = tables.state_plan(sheet_state(table.sheet, table.rules))
    return plan.choices(table.rolls)[0, hand] + sum(table.sheet.values())


def _worth(measure: str, value: float) -> str:
    if measure == WINNING:
        return f"chance of winning {100 * value:.1f} %"
    return f"expected final score {value:.1f}"


def _reason(table: Table, chosen: Choice, measure: str, value: float,
            others: list[Alternative]) -> str:
    what = chosen.describe()
    if chosen.box is not None:
        points = table.points(chosen.box)
        what += f" for {points} point{'s' if points != 1 else ''}"
        if table.servida and points:
            what += " (servida)"
    reason = f"{what}: {_worth(measure, value)}"
    if others:
        best = others[0]
        label = _choice_of_move(best.move).describe()
        reason += f"; best other choice, {label}: {_worth(measure, best.value)}"
    return reason

