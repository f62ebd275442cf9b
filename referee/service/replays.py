"""Replays: a whole match checked in one request. What the match was created with and its
moves in order are played by the rules as posting them one by one would be, each move's
shape checked as a posted move's and each applied at its instant; the answer is the final
outcome, or the first move refused with the problem posting it would have got and the outcome
as far as the match got.

A replay is bounded by the request's checks (at most REFEREE_MAX_REPLAY_MOVES moves, and the
body's size like any request), and each move costs its check and the engine's apply (not
told: only the last move's events are answered), with none of a request's round trip, state
sealing or answer in between."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from referee.core.engine import Engine, Event
from referee.core.errors import RefereeError

from .codec import Match
from .errors import bad_request

MoveCheck = Callable[[str, dict[str, Any]], dict[str, Any]]

# The key of a replay's checked envelope that says its moves were held to their types already,
# in the pass that read the body: each is the move as the move check gives it.
MOVES_CHECKED = "moves_checked"


class ReplayRefused(RefereeError):
    """The replay's move `index` (from 0) was refused with `error`, the problem posting it
    would have got; `reached` is the outcome as far as the match got, before that move."""

    def __init__(self, index: int, error: RefereeError, reached: dict[str, Any]):
        super().__init__(error.detail, problems=error.problems)
        self.code = error.code
        self.index = index
        self.error = error
        self.reached = reached


class Played(NamedTuple):
    """How far a replay's moves got: the match, the last move's events (none before the
    first), and the first move refused (its index and the refusal) or None."""

    match: Match
    events: list[Event]
    refused: tuple[int, RefereeError] | None


def instants(moves: list[dict[str, Any]], created_at: float, now: float) -> list[float]:
    """The instant each move was made at: its `at`, or the one before it (the creation's
    first). Instants never go back and never pass the referee's clock: a match replayed is
    one already played."""
    if created_at > now:
        raise bad_request("the match was created after the referee's clock",
                          created_at=[f"Must be at most the referee's clock ({now})."])
    made, last = [], created_at
    for index, entry in enumerate(moves):
        at = entry.get("at", last)
        if not last <= at <= now:
            raise bad_request(f"move {index} is dated before the move or creation before it, "
                              "or after the referee's clock",
                              moves={str(index): {"at": [
                                  f"Must be between {last} and {now}."]}})
        made.append(at)
        last = at
    return made


def played(engine: Engine, start: Match, created_at: float, moves: list[dict[str, Any]],
           made_at: list[float], check_move: MoveCheck | None) -> Played:
    """The match after every move, or up to the first move refused. Each move is held to its
    type by `check_move` before the rules judge it (None: the moves were held to it when the
    body was read). The referee played every state on the way, so none is checked again (as
    a sealed state is not). The answer tells the last move's events only: the others are not
    asked for, and when a move is refused the one before it is played again from the state
    before it, to tell its events."""
    state, now, events = start.state, created_at, []
    earlier = state  # the state before the last move played
    last = len(moves) - 1
    for index, (move, at) in enumerate(zip(moves, made_at)):
        try:
            if check_move is not None:
                move = check_move(engine.id, move)
            after, events = engine.apply(state, move, now=at, told=index == last)
        except RefereeError as error:
            if index:
                before = moves[index - 1]
                if check_move is not None:
                    before = check_move(engine.id, before)
                events = engine.apply(earlier, before, now=now)[1]
            return Played(start.after(state, moves=index), events, (index, error))
        earlier, state, now = state, after, at
    return Played(start.after(state, moves=len(moves)), events, None)
