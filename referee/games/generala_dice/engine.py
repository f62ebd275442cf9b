"""The dice-sheet engine: the service's entry points for a game played on one dice sheet
(`DiceSheetGame`), each handing the rule it asks to the module that enforces it, and Generala,
the game of the Generala sheet (`GeneralaDice`; docs/rules/generala-dice.md). Another sheet's
game (Yacht) is a subclass that declares its sheet's options, state and wire: the turn is this
one, written once.

  listing     the moves a player may make, from tables made once per player
  turns       rolling, scoring, the turn clock, the end of the match
  scoring     what the dice are worth in each box
  invariants  what a posted state must satisfy

A move is refused, in this order, in a finished match, from a stranger, out of turn, once the
clock has run out (only `timeout` then, by anyone seated), or against the rule of a turn it
breaks (named by the refusal). Dice hide nothing but the seed: a view is the whole table.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from referee.core.engine import Engine, Field, Move, MoveType, Option
from referee.core.errors import GameOver, IllegalMove, NotYourTurn

from . import invariants, turns, wire
from .hands import DICE, HAND_OF, MAX_ROLLS
from .listing import moves_of
from .scoring import SheetScoring
from .state import Options, SheetOptions, SheetState, State

VALUE_LIMIT = 1000
TURN_CLOCK = Option("turn_seconds", "integer", 45,
                    "seconds on the turn clock, shared by the rolls and the scoring; "
                    "0 disables it", minimum=0, maximum=86400)


def value_option(name: str, default: int, what: str) -> Option:
    return Option(name, "integer", default, f"points for {what} (house rules change it)",
                  minimum=0, maximum=VALUE_LIMIT)


def sheet_move_types(sheet: SheetScoring) -> tuple[MoveType, ...]:
    """The moves of a sheet's game, the `score` move naming the sheet's boxes."""
    return (
        MoveType("roll", "roll the dice not kept (all five on a turn's first roll)", (
            Field("keep", "integers", "the values of the dice to keep; empty on the first roll",
                  required=False, minimum=1, maximum=6, max_items=DICE - 1),
        )),
        MoveType("score", "fill a free box with what the dice are worth there (0 scratches it)", (
            Field("box", "string", "the box to fill", choices=sheet.boxes),
        )),
        MoveType("timeout", "once the turn clock has run out, any player may end the turn: "
                 "one roll if none was made, then the free box that scores most"),
    )


class DiceSheetGame(Engine):
    """A game of one dice sheet: a subclass declares its id, names, options (`options_type`,
    whose `sheet` is the sheet it plays, and `options`), its state type and its wire (made by
    `wire.declare` from the sheet)."""

    options_type: ClassVar[type[SheetOptions]]
    state_type: ClassVar[type[SheetState]]
    min_players = 2
    max_players = 6
    # Random playouts (tests, benchmarks, soak and load runs) post their states to servers
    # whose clock has moved on since: without the turn clock, no move of theirs is late.
    playout_options = {"turn_seconds": 0}

    # -- creation ----------------------------------------------------------------------------
    def new_match(self, players, options, seed, *, now):
        opts = self.options_type(**options)
        return self.state_type(
            players=tuple(players), options=opts, seed=seed, step=0, current=0, rolls=0,
            dice=(), sheets=tuple({} for _ in players), deadline=turns.deadline(opts, now),
            **self.counted_beside_the_boxes(players),
        )

    def counted_beside_the_boxes(self, players) -> dict[str, tuple[int, ...]]:
        """What a new match counts per player beside the boxes: nothing, unless the game's
        state declares it (Yams' Yahtzee bonuses)."""
        return {}

    # -- queries -----------------------------------------------------------------------------
    def is_finished(self, state: SheetState) -> bool:
        return turns.is_finished(state)

    def chance_began_for(self, state: SheetState, player: str) -> bool:
        """Each roll belongs to the player whose turn it is: his first roll is the first
        chance event concerning him (a filled box means he has rolled)."""
        seat = state.players.index(player)
        return bool(state.sheets[seat]) or (seat == state.current and state.rolls > 0)

    def to_act(self, state, *, now):
        if turns.is_finished(state):
            return []
        if turns.clock_expired(state, now):
            # The game now plays the turn: anyone seated may post the `timeout` that does it.
            return list(state.players)
        return [state.players[state.current]]

    def clock_expired(self, state: SheetState, now: float) -> bool:
        return turns.clock_expired(state, now)

    def legal_moves(self, state, *, now):
        if turns.is_finished(state):
            return []
        if turns.clock_expired(state, now):
            # « la partie lance les dés à votre place … puis inscrit la case »: only the
            # game's own turn is left, which any player may trigger.
            return [{"type": "timeout", "player": p} for p in state.players]
        listed = moves_of(state.players[state.current], state.options.sheet)
        moves: list[Move] = []
        if state.rolls < MAX_ROLLS:
            moves = [*(listed.rolls[HAND_OF[state.dice]] if state.dice else listed.first_roll)]
        if state.rolls > 0:
            moves += listed.scores_left(state.options.sheet.closed_boxes(
                HAND_OF[state.dice], state.sheets[state.current]))
        return moves

    def scores(self, state):
        return turns.scores(state)

    def view(self, state, player):
        view = {
            "players": list(state.players),
            "current": state.players[state.current],
            "rolls": state.rolls,
            "dice": list(state.dice),
            "sheets": {p: dict(s) for p, s in zip(state.players, state.sheets)},
            "deadline": state.deadline,
            "options": msgspec.structs.asdict(state.options),
            "you": player,
        }
        if state.yahtzee_bonuses is not None:
            view["yahtzee_bonuses"] = dict(zip(state.players, state.yahtzee_bonuses))
        return view

    # -- applying a move ---------------------------------------------------------------------
    def apply(self, state, move, *, now, told=True):
        # Not told, no event is made: they cost about a sixth of a roll.
        kind = move["type"]
        if kind == "timeout":
            self.check_seated(state, move)
            if not turns.clock_expired(state, now):
                raise IllegalMove("turn_clock", "the turn clock has not run out"
                                  if state.deadline is not None
                                  else "this match has no turn clock")
            return turns.timeout(state, move["player"], now, told=told)
        # The refusals of `check_can_move`, with the clock read once: a finished match, a
        # stranger, then a player out of turn (everyone may act once the clock has run out,
        # but only through `timeout`).
        if turns.is_finished(state):
            raise GameOver("the match has finished")
        player = move["player"]
        players = state.players
        if player not in players:
            raise NotYourTurn(f"{player!r} is not a player of this match")
        expired = turns.clock_expired(state, now)
        if player != players[state.current]:
            if not expired:
                raise NotYourTurn(f"it is not {player}'s turn")
            raise NotYourTurn(f"it is {state.players[state.current]}'s turn; others may only "
                              "post timeout once the clock has run out")
        if expired:
            raise IllegalMove("clock_ran_out", f"the turn clock ran out at {state.deadline}: "
                              "the game now rolls and scores this turn; post `timeout`")
        if kind == "roll":
            return turns.roll(state, move.get("keep") or [], told=told)
        if kind == "score":
            return turns.score(state, move["box"], now, told=told)
        raise IllegalMove("move_type", f"{kind!r} is not a move of {self.name}")

    # -- invariants --------------------------------------------------------------------------
    def problems(self, state):
        problems = self.common_problems(state) + invariants.shape_problems(state)
        if problems:
            return problems
        return invariants.play_problems(state)


GENERALA_WIRE = wire.declare(Options.sheet, Options, instant_win=True)


class GeneralaDice(DiceSheetGame):
    id = "generala-dice"
    name = "Generala (dice)"
    summary = "Five dice, three rolls a turn, eleven boxes; the highest total wins."
    options_type = Options
    state_type = State
    event_types = GENERALA_WIRE.events
    view_type = GENERALA_WIRE.view
    scores_type = GENERALA_WIRE.scores
    hint_levels = ("easy", "medium", "hard", "win")
    options = (
        TURN_CLOCK,
        Option("servida_generala_wins", "boolean", False,
               "house rule: five of a kind on a turn's first roll wins the match at once"),
        value_option("escalera", 20, "an Escalera"),
        value_option("full", 30, "a Full"),
        value_option("poker", 40, "a Póker"),
        value_option("generala", 50, "a Generala"),
        value_option("doble_generala", 100, "a Doble Generala"),
        value_option("servida_bonus", 5, "the servida bonus on Escalera, Full and Póker"),
    )
    prepared_options = ({"servida_generala_wins": True},)
    move_types = sheet_move_types(Options.sheet)
