"""Endless rounds are blocked (docs/rules/huit-americain.md, "Endless rounds").

Cards laid come back to the hands only through a stock rebuilt from the pile, and a stock
rebuilt from two cards or more is chance, which the next shuffle may change: so only a
reshuffle of a single card can close a loop nobody can break. After a move that made one, the
referee plays on ahead while each position has exactly one legal move for anyone and the round
neither ends nor reshuffles two cards or more; if a position comes back (all of it but the
random step, which a one-card shuffle does not use), the round ends blocked at the position
the move reached, `round_ended.endless` true.
"""

from __future__ import annotations

import dataclasses

from .listing import legal_moves
from .moves import MOVE_RULES, Outcome
from .rules import Rules
from .state import OVER, State
from .table import Table, end_round

# How many forced moves ahead the referee plays, from a position a one-card reshuffle led to,
# looking for a position that comes back. The loops met in random play last 4 to 6 moves.
LOOP_PROBE = 1_000


def rules_position(state: State) -> State:
    """The state as far as the rest of the round is concerned: all of it but the random step
    (and the stock's record of it) and the public record of what the players lacked (which no
    rule reads)."""
    return dataclasses.replace(state, step=0, stock_step=0, lacks=())


def may_close_a_loop(before: State, outcome: Outcome) -> bool:
    """Whether the move reshuffled a single card (only a reshuffle or a deal takes a random
    step, which `apply` looks at first; a deal starts a round afresh)."""
    after, events = outcome
    return after.step != before.step and after.phase != OVER and any(
        event["type"] == "reshuffled" and event["count"] == 1 for event in events)


def ended_if_endless(outcome: Outcome, rules: Rules) -> Outcome:
    """The outcome of a move that reshuffled a single card, its round blocked if the forced
    moves from there bring a position back."""
    state, events = outcome
    seen = {rules_position(state)}
    ahead = state
    for _ in range(LOOP_PROBE):
        moves = legal_moves(ahead)
        if len(moves) != 1:
            return outcome  # someone has a choice
        move = moves[0]
        # told: the probe reads what each forced move did
        ahead, happened = MOVE_RULES[move["type"]](ahead, move, rules,
                                                   ahead.players.index(move["player"]), True)
        if any(e["type"] == "round_ended" or (e["type"] == "reshuffled" and e["count"] > 1)
               for e in happened):
            return outcome  # the round ends, or chance enters
        position = rules_position(ahead)
        if position in seen:
            table = Table(state, rules)
            table.events = list(events)
            end_round(table, blocked=True, endless=True)
            return table.outcome()
        seen.add(position)
    return outcome
