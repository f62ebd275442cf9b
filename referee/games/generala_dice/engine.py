"""The Generala engine: options, legal moves, applying a move, scores, views, invariants."""

from __future__ import annotations

import dataclasses
import functools

from referee.core import chance
from referee.core import dice as dice_source
from referee.core.engine import Engine, Event, Field, Move, MoveType, Option, evolve
from referee.core.errors import GameOver, IllegalMove, NotYourTurn

from .hands import HAND_HOLDS, HAND_KEEPS, HAND_OF, KEEPS
from .scoring import BOXES, SCORERS, giving_up_cost, is_generala, possible_scores
from . import wire
from .state import Options, State

DICE = 5
MAX_ROLLS = 3
BOX_COUNT = len(BOXES)
FIRST_ROLL_KEEPS: tuple[tuple[int, ...], ...] = ((),)  # the first roll rolls all five dice
VALUE_LIMIT = 1000


def _value_option(name: str, default: int, what: str) -> Option:
    return Option(name, "integer", default, f"points for {what} (house rules change it)",
                  minimum=0, maximum=VALUE_LIMIT)


class GeneralaDice(Engine):
    id = "generala-dice"
    name = "Generala (dice)"
    summary = "Five dice, three rolls a turn, eleven boxes; the highest total wins."
    min_players = 2
    max_players = 6
    state_type = State
    event_types = wire.EVENTS
    view_type = wire.View
    scores_type = wire.Scores
    hint_levels = ("easy", "medium", "hard", "win")
    # Random playouts (tests, benchmarks, soak and load runs) post their states to servers
    # whose clock has moved on since: without the turn clock, no move of theirs is late.
    playout_options = {"turn_seconds": 0}
    options = (
        Option("turn_seconds", "integer", 45,
               "seconds on the turn clock, shared by the rolls and the scoring; 0 disables it",
               minimum=0, maximum=86400),
        Option("servida_generala_wins", "boolean", False,
               "house rule: five of a kind on a turn's first roll wins the match at once"),
        _value_option("escalera", 20, "an Escalera"),
        _value_option("full", 30, "a Full"),
        _value_option("poker", 40, "a Póker"),
        _value_option("generala", 50, "a Generala"),
        _value_option("doble_generala", 100, "a Doble Generala"),
        _value_option("servida_bonus", 5, "the servida bonus on Escalera, Full and Póker"),
    )
    move_types = (
        MoveType("roll", "roll the dice not kept (all five on a turn's first roll)", (
            Field("keep", "integers", "the values of the dice to keep; empty on the first roll",
                  required=False, minimum=1, maximum=6, max_items=DICE - 1),
        )),
        MoveType("score", "fill a free box with what the dice are worth there (0 scratches it)", (
            Field("box", "string", "the box to fill", choices=BOXES),
        )),
        MoveType("timeout", "once the turn clock has run out, any player may end the turn: "
                 "one roll if none was made, then the free box that scores most"),
    )

    # -- creation ----------------------------------------------------------------------------
    def new_match(self, players, options, seed, *, now):
        opts = Options(**options)
        return State(
            players=tuple(players), options=opts, seed=seed, step=0, current=0, rolls=0,
            dice=(), sheets=tuple({} for _ in players), deadline=self._deadline(opts, now),
        )

    @staticmethod
    def _deadline(options: Options, now: float) -> float | None:
        return now + options.turn_seconds if options.turn_seconds else None

    # -- queries -----------------------------------------------------------------------------
    def is_finished(self, state: State) -> bool:
        # Seats fill in turn order, so the last sheet is the last to fill: read it first (here,
        # since a match asks this at every step and nearly always stops there).
        sheets = state.sheets
        return state.instant_winner is not None or (
            (not sheets or len(sheets[-1]) == BOX_COUNT) and _all_filled(sheets))

    def chance_began_for(self, state: State, player: str) -> bool:
        """Each roll belongs to the player whose turn it is: his first roll is the first
        chance event concerning him (a filled box means he has rolled)."""
        seat = state.players.index(player)
        return bool(state.sheets[seat]) or (seat == state.current and state.rolls > 0)

    def to_act(self, state, *, now):
        if self.is_finished(state):
            return []
        if self.clock_expired(state, now):
            # The game now plays the turn: anyone seated may post the `timeout` that does it.
            return list(state.players)
        return [state.players[state.current]]

    def clock_expired(self, state: State, now: float) -> bool:
        return state.deadline is not None and now >= state.deadline

    def legal_moves(self, state, *, now):
        if self.is_finished(state):
            return []
        if self.clock_expired(state, now):
            # « la partie lance les dés à votre place … puis inscrit la case »: only the
            # game's own turn is left, which any player may trigger.
            return [{"type": "timeout", "player": p} for p in state.players]
        listed = _moves_of(state.players[state.current])
        rolls = state.rolls
        moves: list[Move] = []
        if rolls < MAX_ROLLS:
            moves = [*(listed.rolls[HAND_OF[state.dice]] if state.dice else listed.first_roll)]
        if rolls > 0:
            moves += listed.scores_left[frozenset(state.sheets[state.current])]
        return moves

    def scores(self, state):
        totals = {p: sum(s.values()) for p, s in zip(state.players, state.sheets)}
        players = {p: {"total": totals[p], "boxes": dict(s)}
                   for p, s in zip(state.players, state.sheets)}
        winners: list[str] = []
        draw = False
        if state.instant_winner is not None:
            winners = [state.instant_winner]
        elif self.is_finished(state):
            top = max(totals.values())
            winners = [p for p in state.players if totals[p] == top]
            draw = len(winners) == len(state.players)
        return {"players": players, "winners": winners, "draw": draw}

    def view(self, state, player):
        # Dice games hide nothing but the seed: a view is the table as everyone sees it, the
        # match's options (box values, house rules) included, since they decide good play.
        return {
            "players": list(state.players),
            "current": state.players[state.current],
            "rolls": state.rolls,
            "dice": list(state.dice),
            "sheets": {p: dict(s) for p, s in zip(state.players, state.sheets)},
            "deadline": state.deadline,
            "options": dataclasses.asdict(state.options),
            "you": player,
        }

    def advise(self, view, moves, level):
        # Imported on first use: the hint tables need numpy, which moves and views do not.
        from .hints import advise
        return advise(view, moves, level)

    # -- applying a move ---------------------------------------------------------------------
    def apply(self, state, move, *, now):
        kind = move["type"]
        if kind == "timeout":
            self._check_timeout(state, move, now)
            return self._timeout(state, move, now)
        # The refusals of `check_can_move`, with the clock read once: a finished match, a
        # stranger, then a player out of turn (everyone may act once the clock has run out,
        # but only through `timeout`).
        if self.is_finished(state):
            raise GameOver("the match has finished")
        player = move["player"]
        players = state.players
        if player not in players:
            raise NotYourTurn(f"{player!r} is not a player of this match")
        expired = self.clock_expired(state, now)
        if player != players[state.current]:
            if not expired:
                raise NotYourTurn(f"it is not {player}'s turn")
            raise NotYourTurn(f"it is {state.players[state.current]}'s turn; others may only "
                              "post timeout once the clock has run out")
        if expired:
            raise IllegalMove("clock_ran_out", f"the turn clock ran out at {state.deadline}: "
                              "the game now rolls and scores this turn; post `timeout`")
        if kind == "roll":
            return self._roll(state, move.get("keep") or [], now)
        if kind == "score":
            return self._score(state, move["box"], now)
        raise IllegalMove("move_type", f"{kind!r} is not a move of {self.name}")

    def _check_timeout(self, state: State, move: Move, now: float) -> None:
        self.check_seated(state, move)
        if not self.clock_expired(state, now):
            raise IllegalMove("turn_clock", "the turn clock has not run out"
                              if state.deadline is not None else "this match has no turn clock")

    def _roll(self, state: State, keep: list[int], now: float) -> tuple[State, list[Event]]:
        rolls = state.rolls
        if rolls >= MAX_ROLLS:
            raise IllegalMove("three_rolls", "a turn has at most three rolls: score a box")
        if keep:
            if rolls == 0:
                raise IllegalMove("first_roll_all_dice",
                                  "the first roll of a turn rolls all five dice")
            if not _holds(state.dice, keep):
                raise IllegalMove("keep_from_dice",
                                  f"cannot keep {keep}: the dice show {list(state.dice)}")
            if len(keep) >= DICE:
                raise IllegalMove("roll_at_least_one", "a roll must roll at least one die")
        step = state.step
        count = DICE - len(keep)
        rolled = dice_source.roll(state.seed, step, count)
        new_dice = (*keep, *rolled)
        player = state.players[state.current]
        rolls += 1
        events: list[Event] = [{"type": "dice_rolled", "player": player, "roll": rolls,
                                "kept": [*keep], "rolled": [*rolled], "dice": [*new_dice],
                                "chance": chance.dice(step, count)}]
        if rolls == 1 and state.options.servida_generala_wins and is_generala(new_dice):
            state = evolve(state, step=step + 1, rolls=rolls, dice=new_dice,
                           instant_winner=player, deadline=None)
            events.append({"type": "servida_generala", "player": player})
            events.append(self._finished_event(state))
        else:
            state = evolve(state, step=step + 1, rolls=rolls, dice=new_dice)
        return state, events

    def _score(self, state: State, box: str, now: float) -> tuple[State, list[Event]]:
        rolls = state.rolls
        if rolls == 0:
            raise IllegalMove("roll_before_scoring", "roll the dice before filling a box")
        if box not in BOXES:
            raise IllegalMove("unknown_box", f"{box!r} is not a box of the sheet")
        current = state.current
        sheet = state.sheets[current]
        if box in sheet:
            raise IllegalMove("box_filled", f"the {box} box is already filled")
        servida = rolls == 1
        options = state.options
        values = options.values
        scorer, hand = SCORERS[box], HAND_OF[state.dice]
        points = scorer(hand, servida, sheet, values)
        # the servida bonus actually paid: none outside Escalera, Full and Póker, none for a
        # hand that does not make the box
        bonus = points - scorer(hand, False, sheet, values) if servida else 0
        players = state.players
        filled = list(state.sheets)
        filled[current] = {**sheet, box: points}
        sheets = tuple(filled)
        events: list[Event] = [{"type": "box_scored", "player": players[current], "box": box,
                                "points": points, "servida": servida, "bonus": bonus}]
        # A match goes on until the scoring fills the last sheet (no instant winner here: a
        # match won at once takes no more moves).
        if _all_filled(sheets):
            state = evolve(state, sheets=sheets, rolls=0, dice=(), deadline=None)
            events.append(self._finished_event(state))
        else:
            current = (current + 1) % len(players)
            deadline = self._deadline(options, now)
            state = evolve(state, sheets=sheets, rolls=0, dice=(), current=current,
                           deadline=deadline)
            events.append({"type": "turn_passed", "player": players[current],
                           "deadline": deadline})
        return state, events

    def _timeout(self, state: State, move: Move, now: float) -> tuple[State, list[Event]]:
        events: list[Event] = [{"type": "timeout", "player": move["player"],
                                "for": state.players[state.current]}]
        if state.rolls == 0:
            state, rolled = self._roll(state, [], now)
            events += rolled
            if self.is_finished(state):
                return state, events
        state, scored = self._score(state, self.timeout_box(state), now)
        return state, events + scored

    @staticmethod
    def timeout_box(state: State) -> str:
        """The box a timeout fills: the free box that scores most with the dice shown; among
        those that score the same, the one whose loss costs the player least (a dead box
        first, see `scoring.still_worth`), then the first in sheet order."""
        sheet = state.sheets[state.current]
        values = state.options.box_values()
        servida = state.rolls == 1

        hand = HAND_OF[state.dice]

        def preference(box: str) -> tuple[int, float, int]:
            points = SCORERS[box](hand, servida, sheet, values)
            return points, -giving_up_cost(box, points, sheet, values), -BOXES.index(box)

        return max((b for b in BOXES if b not in sheet), key=preference)

    def _finished_event(self, state: State) -> Event:
        result = self.scores(state)
        return {"type": "game_finished", "winners": result["winners"], "draw": result["draw"]}

    # -- invariants --------------------------------------------------------------------------
    def problems(self, state):
        problems = self.common_problems(state)
        players = state.players
        if not 0 <= state.current < len(players):
            problems.append(f"the turn index {state.current} is past the players")
        if not 0 <= state.rolls <= MAX_ROLLS:
            problems.append(f"{state.rolls} rolls in a turn: at most three")
        if len(state.dice) != (DICE if state.rolls else 0):
            problems.append(f"{len(state.dice)} dice after {state.rolls} roll(s)")
        if any(not 1 <= d <= 6 for d in state.dice):
            problems.append("a die shows a face outside 1-6")
        if len(state.sheets) != len(players):
            problems.append("there must be one score sheet per player")
        if problems:
            return problems
        values, scores = _sheet_rules(state.options)
        for player, sheet in zip(players, state.sheets):
            for box, points in sheet.items():
                if box not in BOXES:
                    problems.append(f"{player}'s sheet has an unknown box {box!r}")
                elif points not in scores[box]:
                    problems.append(f"{player}'s {box} box holds {points}, which it cannot score")
            # A Generala box worth 0 (house values) never unlocks the Doble, as in _doble.
            unlocked = values["generala"] > 0 and sheet.get("generala") == values["generala"]
            if sheet.get("doble_generala", 0) > 0 and not unlocked:
                problems.append(f"{player}'s Doble Generala scored without a Generala of "
                                f"{values['generala']}")
        problems += self._turn_order_problems(state)
        if state.instant_winner is not None:
            problems += self._instant_win_problems(state)
        if state.options.turn_seconds == 0 and state.deadline is not None:
            problems.append("a deadline is set but the turn clock is off")
        if state.options.turn_seconds and state.deadline is None and not self.is_finished(state):
            problems.append("the turn clock is on but no deadline is set")
        return problems

    def _instant_win_problems(self, state: State) -> list[str]:
        # Only the house rule ends a match at once, and only on the roll that stopped it: the
        # player to act, on the first roll of his turn, showing five of a kind.
        if state.instant_winner not in state.players:
            return ["the instant winner is not a player"]
        problems = []
        if not state.options.servida_generala_wins:
            problems.append("an instant winner is set but the servida Generala house rule is off")
        if (state.instant_winner != state.players[state.current] or state.rolls != 1
                or not is_generala(state.dice)):
            problems.append("the instant winner must be the player to act, showing five of a "
                            "kind on the first roll of the turn")
        return problems

    def _turn_order_problems(self, state: State) -> list[str]:
        # Turns go round in seat order, so everyone before the current seat has filled one box
        # more than everyone from it on; a finished match has every sheet full.
        filled = [len(s) for s in state.sheets]
        if state.instant_winner is not None:
            return []
        if all(n == len(BOXES) for n in filled):
            return [] if state.rolls == 0 else ["dice are rolled in a finished match"]
        base = filled[state.current]
        expected = [base + 1 if i < state.current else base for i in range(len(filled))]
        if filled != expected:
            return [f"boxes filled per player {filled} do not fit the turn order "
                    f"(expected {expected})"]
        return []


def _all_filled(sheets: tuple[dict[str, int], ...]) -> bool:
    """Whether every box of every sheet is filled. Seats fill in turn order, so the last sheet
    is the last to fill: it is read first."""
    return (not sheets or len(sheets[-1]) == BOX_COUNT) and all(
        len(s) == BOX_COUNT for s in sheets)


# A player's moves are listed from a table made once per player: every roll (one per keep) and
# every score move, each a dict made once, the roll moves each hand allows, and the score
# moves left by each set of filled boxes (at most 2,048 sets, each listed when first met); a
# listing shares them, and callers only read them (see `referee.core.engine`). A server sees
# few players at once, so a bounded cache keeps the tables of the ones seen lately.
class _PlayerMoves:
    __slots__ = ("first_roll", "rolls", "scores_left")

    def __init__(self, player: str) -> None:
        self.first_roll = tuple({"type": "roll", "player": player, "keep": [*keep]}
                                for keep in FIRST_ROLL_KEEPS)
        roll = {keep: {"type": "roll", "player": player, "keep": [*keep]} for keep in KEEPS}
        self.rolls = tuple(tuple(roll[keep] for keep in keeps) for keeps in HAND_KEEPS)
        self.scores_left = _ScoresLeft(player)


class _ScoresLeft(dict):
    """The score moves of one player left by a set of filled boxes (a frozenset), in sheet
    order, listed the first time the set is asked for."""

    def __init__(self, player: str) -> None:
        super().__init__()
        self.score = {box: {"type": "score", "player": player, "box": box} for box in BOXES}

    def __missing__(self, filled: frozenset[str]) -> tuple[Move, ...]:
        moves = self[filled] = tuple(self.score[b] for b in BOXES if b not in filled)
        return moves


@functools.lru_cache(maxsize=64)
def _moves_of(player: str) -> _PlayerMoves:
    return _PlayerMoves(player)


@functools.lru_cache(maxsize=256)
def _sheet_rules(options: Options) -> tuple[dict[str, int], dict[str, frozenset[int]]]:
    """The box values of these options and every score each box can hold: a match's options
    never change, so a posted state's sheets are checked against tables made once."""
    values = options.box_values()
    return values, {box: possible_scores(box, values) for box in BOXES}


def _holds(dice: tuple[int, ...], keep: list[int]) -> bool:
    """Whether the dice shown hold every die of `keep` (as many of each face)."""
    try:
        return tuple(sorted(keep)) in HAND_HOLDS[HAND_OF[dice]]
    except TypeError:  # values that do not even compare: no die shows them
        return False
