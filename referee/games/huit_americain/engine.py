"""The Huit américain engine: the declarations callers read, and the contract's methods, each
handing over to the module that holds its rules (docs/rules/huit-americain.md):

- `options`: the options and moves declared, an options value compiled once;
- `listing`: the legal moves and who may act; `laying`: which cards a player may lay;
- `moves`: each move's rule (its checks, then what it does), the penalty for an error;
- `effects`: a card laid and its effect; `table`: drawing, passing, scoring, dealing;
- `endless`: a round locked in a loop is blocked; `invariants`: a sound state's checks.

Here: a move refused under draw_penalty_on_error becomes its penalty; only a stranger or a
finished match is refused outright. The scores and the views are read off the state.
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.core.engine import Engine
from referee.core.errors import GameOver, IllegalMove, InvalidOptions, NotYourTurn
from referee.core.memo import BoundedMemo

from . import endless, invariants, listing, wire
from .moves import MOVE_RULES, penalty, unknown_move
from .options import MOVE_TYPES, OPTION_RULES, OPTIONS, compiled_options, options_key
from .rules import max_players
from .state import OVER, State
from .table import opening

# Option sets already accepted, by value and type (`options.options_key`): a new match
# resolves the same few again and again.
_RESOLVED: BoundedMemo[tuple, dict[str, Any]] = BoundedMemo(256)


class HuitAmericain(Engine):
    id = "huit-americain"
    name = "Huit américain"
    summary = ("Crazy Eights with jokers: follow the suit or rank, attack with aces and jokers, "
               "change suit with an 8; the lowest total wins when someone reaches 100.")
    min_players = 2
    max_players = max_players(2)
    state_type = State
    event_types = wire.EVENTS
    view_type = wire.View
    scores_type = wire.Scores
    hint_levels = ("easy", "medium", "hard")
    options = OPTIONS
    option_rules = OPTION_RULES
    move_types = MOVE_TYPES

    # -- options and creation ----------------------------------------------------------------
    def resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """`Engine.resolve_options`, remembered for the option sets already accepted; a
        fresh dict every time."""
        key = options_key(given)
        if key is None:
            return Engine.resolve_options(self, given)
        return dict(_RESOLVED.get(key, lambda _: Engine.resolve_options(self, given)))

    def creation_constraints(self) -> list[dict[str, Any]]:
        """The rules between a creation's players and options that JSON Schema can state."""
        one_deck = {"properties": {"options": {"properties": {"decks": {"const": 1}}}}}
        return [
            {"if": one_deck,
             "then": {"properties": {"players": {"maxItems": max_players(1)}}}},
            {"if": {"properties": {"options": {
                "properties": {"on_the_fly": {"const": True}}, "required": ["on_the_fly"]}},
                "required": ["options"]},
             "then": {"properties": {"options": {
                 "properties": {"decks": {"const": 2}}, "required": ["decks"]}}}},
        ]

    def check_option_combination(self, options: dict[str, Any]) -> dict[str, Any]:
        problems = compiled_options(options).rules.problems
        if problems:
            raise InvalidOptions("; ".join(problems), problems=list(problems))
        return options

    def player_range(self, options: dict[str, Any]) -> tuple[int, int]:
        """Two decks seat more players: as many as leave a stock after the deal."""
        return 2, max_players(options.get("decks", 1))

    def new_match(self, players, options, seed, *, now):
        opts = compiled_options(options)
        problems = list(opts.rules.problems)
        most = max_players(opts.decks)
        if not 2 <= len(players) <= most:
            problems.append(f"players: {len(players)} players, but {opts.decks} deck(s) "
                            f"leave a stock for 2 to {most}")
        if problems:
            raise InvalidOptions("; ".join(problems), problems=problems)
        return opening(tuple(players), opts, seed, told=False).outcome()[0]

    def opening_events(self, state):
        # The first deal, replayed from the seed: the same shuffle, so the same hands.
        return opening(state.players, state.options, state.seed, told=True).events

    # -- queries -----------------------------------------------------------------------------
    def is_finished(self, state: State) -> bool:
        return state.phase == OVER

    def to_act(self, state, *, now):
        if state.phase == OVER:
            return []
        return [state.players[seat] for seat in listing.to_act(state)]

    def legal_moves(self, state, *, now):
        if state.phase == OVER:
            return []
        return listing.legal_moves(state)

    def scores(self, state):
        players = {
            p: {"total": state.totals[j], "cards": len(state.hands[j]),
                "round_points": state.round_points[j]}
            for j, p in enumerate(state.players)
        }
        over, low = state.phase == OVER, min(state.totals)
        winners = [p for p, total in zip(state.players, state.totals) if over and total == low]
        return {"players": players, "winners": winners, "draw": len(winners) == len(state.players),
                "round": state.round, "target": state.options.target}

    def view(self, state, player):
        seat = state.players.index(player) if player in state.players else None
        u = state.unannounced
        return {
            "you": player,
            "players": list(state.players),
            "round": state.round,
            "current": state.players[state.current],
            "phase": state.phase,
            "hand": list(state.hands[seat]) if seat is not None else [],
            "top": state.pile[-1],
            "suit": state.suit,
            "rank": state.rank,
            "direction": state.direction,
            "attack": state.attack,
            "hand_counts": {p: len(h) for p, h in zip(state.players, state.hands)},
            "stock_count": len(state.stock),
            "pile_count": len(state.pile),
            "pile": list(state.pile),
            "unannounced": state.players[u] if u >= 0 else None,
            "give_to": state.players[state.give_to] if state.give_to >= 0 else None,
            "give_left": state.give_left,
            "passes": state.passes,
            "totals": dict(zip(state.players, state.totals)),
            "options": msgspec.structs.asdict(state.options),
            "lacks": [{"player": state.players[lack.seat], "arrived": lack.arrived,
                       "suits": lack.suits, "ranks": lack.ranks} for lack in state.lacks],
        }

    # -- applying a move ---------------------------------------------------------------------
    def apply(self, state, move, *, now, told=True):
        if state.phase == OVER:
            raise GameOver("the match has finished")
        player = move["player"]
        try:
            seat = state.players.index(player)
        except ValueError:
            raise NotYourTurn(f"{player!r} is not a player of this match") from None
        rules = state.options.rules
        rule = MOVE_RULES.get(move["type"], unknown_move)
        try:
            outcome = rule(state, move, rules, seat, told)
        except (NotYourTurn, IllegalMove) as refused:
            if not rules.penalise:
                raise
            outcome = penalty(state, rules, seat, refused, told)
        if outcome[0].step != state.step and endless.may_close_a_loop(state, outcome):
            return endless.ended_if_endless(outcome, rules)
        return outcome

    # -- invariants --------------------------------------------------------------------------
    def problems(self, state):
        return invariants.problems(state, self.common_problems(state))
