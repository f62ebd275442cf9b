"""The answers of a match's requests, from its decoded state: the outcome after a creation
or a move, a dry run's verdict, a player's view, a hint, a contributed seed; and the JSON
Schema of an open-mode state as clients post it."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec

from referee.core import contributions, rng
from referee.core.contributions import Contribution, Fairness
from referee.core.engine import MAX_COUNTER, PENALTY_EVENT, Engine, Event
from referee.core.errors import GameOver, InvalidState, NotYourTurn, RefereeError
from referee.core.hints import Seating
from referee.core.outcome import describe, progress

from .codec import FAIRNESS, SEATING, Match, StateCodec
from .errors import Refused, bad_request


def contributed(engine: Engine, match: Match, player: str, seed: str) -> Match:
    """The match with `player`'s seed mixed into the key of every step from the current one
    on, refused once a chance event concerning him has been drawn (his seed could then be
    chosen to suit what is left) or when he has contributed already."""
    state = match.state
    if player not in state.players:
        raise bad_request(f"{player!r} is not a player of this match",
                          player=["Must be one of the match's players."])
    if engine.is_finished(state):
        raise GameOver("the match has finished")
    made = match.fairness.contributions if match.fairness else []
    if any(c.player == player for c in made):
        raise Refused("contribution_already_made", f"{player} has already added a seed to "
                      "this match; a second could be chosen after seeing what the first did")
    if engine.chance_began_for(state, player):
        raise Refused("contribution_too_late", f"a chance event concerning {player} has "
                      "already been drawn: a seed is added before the first one")
    added = Contribution(player=player, seed=seed, step=state.step)
    fairness = Fairness(seed=match.server_seed, contributions=[*made, added])
    new_state = dataclasses.replace(state, seed=contributions.mix(state.seed, seed))
    return Match(new_state, match.seating, fairness, match.moves)


def outcome(codec: StateCodec, engine: Engine, match: Match, events: list[Event], *,
            now: float, viewer: str | None, seat_ttl: int | None = None,
            seats: list[str] | None = None) -> dict[str, Any]:
    """The answer after a creation or a move. Sealed, it carries the viewer's `seat_token`
    and, when `seats` names players, `seat_tokens`: each one's token, the viewer's the same
    as his `seat_token`. Open mode seals nothing and carries neither."""
    state = match.state
    body = {"state": codec.dump(engine, match)}
    events = contributions.annotate(events, match.fairness)
    body.update(describe(engine, state, events, now=now, viewer=viewer))
    if viewer is not None or seats is not None:
        # One token a holder: the viewer's serves as his entry of `seat_tokens` too.
        holders = [p for p in dict.fromkeys([viewer, *(seats or ())]) if p is not None]
        tokens = codec.seat_tokens(engine, match, holders, now=now, ttl=seat_ttl)
        if tokens is not None and viewer is not None:
            body["seat_token"] = tokens[viewer]
        if tokens is not None and seats is not None:
            body["seat_tokens"] = {player: tokens[player] for player in seats}
    body["seed_commitment"] = rng.commitment(match.server_seed)
    if body["status"] == "finished":
        # The match is over: revealing the seed (and what was mixed into it) lets anyone
        # replay every roll and shuffle.
        body["seed"] = match.server_seed
        if match.fairness is not None:
            body["contributions"] = msgspec.to_builtins(match.fairness.contributions)
    return body


def applied(engine: Engine, state: Any, move: dict[str, Any], *, now: float,
            trusted: bool, told: bool = True) -> tuple[Any, list[Event]]:
    """`engine.apply`, refused when the new state's counters (step, turn, round...) would pass
    the bound every state keeps (MAX_COUNTER): only a forged open-mode state comes near it
    (a `trusted` one, sealed by this referee, never does), and no answer may hold a state
    the contract does not allow. Not `told`, the caller reads none of the events, which
    the engine may leave out."""
    new_state, events = engine.apply(state, move, now=now, told=told)
    if trusted:
        return new_state, events
    over = [name for name in engine.counter_fields if getattr(new_state, name) > MAX_COUNTER]
    if over:
        problems = [f"{name} would pass {MAX_COUNTER}" for name in over]
        raise InvalidState("the state's counters are at their bound: " + "; ".join(problems),
                           problems=problems)
    return new_state, events


def verdict(engine: Engine, state: Any, checked: dict[str, Any], *, now: float,
            trusted: bool) -> dict[str, Any]:
    """The dry run's answer: would posting the move (`checked`: its shape already checked, as
    posting it would be) be accepted by the rules? The new state and events are dropped
    unseen, so a dry run reveals no roll or draw."""
    try:
        _, events = applied(engine, state, checked, now=now, trusted=trusted)
    except RefereeError as exc:
        answer = {"legal": False, "code": exc.code, "detail": exc.detail}
        if getattr(exc, "rule", None):
            answer["rule"] = exc.rule
        return answer
    penalty = next((e for e in events if e["type"] == PENALTY_EVENT and "code" in e
                    and e.get("player") == checked["player"]), None)
    if penalty is not None:
        return {"legal": False, "penalty": True, "code": penalty["code"],
                "rule": penalty.get("rule", ""), "detail": penalty.get("detail", "")}
    return {"legal": True}


def player_view(engine: Engine, state: Any, player: str, *, now: float) -> dict[str, Any]:
    """What one player (or a spectator: anyone not seated) may see, with his legal moves."""
    return {"player": player, **progress(engine, state, now=now, player=player),
            "view": engine.view(state, player), "scores": engine.scores(state)}


def hint(engine: Engine, match: Match, player: str, level: str, *,
         now: float) -> dict[str, Any]:
    """A hint for `player`: one of his legal moves, from what he sees. Refused when the
    match is over, when he has no move to make (a spectator has none), and when the table's
    seating does not allow him hints (a human playing other humans)."""
    state = match.state
    if level not in engine.hint_levels:
        raise bad_request(f"{engine.name} has no hint level {level!r}",
                          level=["Must be one of: " + ", ".join(engine.hint_levels) + "."])
    if engine.is_finished(state):
        raise GameOver("the match has finished")
    if player in state.players and not match.seating.may_advise(state.players, player):
        raise Refused("hint_not_allowed", f"{player} plays other humans at this table: hints "
                      "are for bots and for a human playing bots, unless the match was created "
                      "with hints_allowed")
    moves = [m for m in engine.legal_moves(state, now=now) if m["player"] == player]
    if not moves:
        raise NotYourTurn(f"{player} has no move to make now" if player in state.players
                          else f"{player!r} is not a player of this match")
    advice = engine.advise(engine.view(state, player), moves, level)
    return {"player": player, "level": level, **advice.describe()}


def wire_state_schema(engine: Engine) -> dict[str, Any]:
    """The JSON Schema of an open-mode state as clients post it: the game's state (every field
    required, nothing else allowed) with the table's seating beside it."""
    schema = engine.state_schema()
    (seating, fairness), defs = msgspec.json.schema_components(
        [Seating, Fairness], ref_template="#/$defs/{name}")
    root = schema["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    root["properties"][SEATING] = seating
    root["properties"][FAIRNESS] = {"anyOf": [fairness, {"type": "null"}]}
    root["required"] = sorted([*root["required"], SEATING, FAIRNESS])
    for body in defs.values():
        body["required"] = sorted(body["properties"])  # a Contribution's player is null
        body["additionalProperties"] = False
    schema["$defs"].update(defs)
    return schema
