"""From request bodies to engine values and back: JSON parsing with limits, states in open
and sealed mode, and the outcome a client receives."""

from __future__ import annotations

from typing import Any

import msgspec

from referee.core import rng
from referee.core.engine import PENALTY_EVENT, Engine, Event
from referee.core.errors import InvalidState, RefereeError, TamperedState
from referee.core.outcome import describe, progress

from .problems import Problem
from .schemas import ValidationError, load_move
from .sealing import Sealer


def parse_json(body: bytes, max_depth: int) -> Any:
    try:
        data = msgspec.json.decode(body)
    except RecursionError:
        raise Problem("validation_error", f"the JSON nests deeper than {max_depth} levels",
                      errors={"_body": ["nested too deeply"]}) from None
    except msgspec.DecodeError as exc:
        raise Problem("malformed_json", f"the body is not valid JSON: {exc}") from None
    # An open-mode state object is decoded by a strict typed decoder that stops at the first
    # value of the wrong shape, so its depth cannot hurt and is not walked: the state is most
    # of the body, and walking it cost more than the rest of the request's checks.
    top = ({k: v for k, v in data.items() if not (k == "state" and isinstance(v, dict))}
           if isinstance(data, dict) else data)
    if _depth_exceeds(top, max_depth):
        raise Problem("validation_error", f"the JSON nests deeper than {max_depth} levels",
                      errors={"_body": ["nested too deeply"]})
    return data


def _depth_exceeds(data: Any, limit: int) -> bool:
    # Only containers are pushed: a hand of cards is one list, not fifty stack entries.
    stack = [(data, 1)] if isinstance(data, (dict, list)) else []
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        children = value.values() if type(value) is dict else value
        stack.extend((v, depth + 1) for v in children if type(v) in (dict, list))
    return False


class StateCodec:
    """Open mode (no sealer): the state is its documented JSON object, checked in full.
    Sealed mode: the state is a token; once it authenticates it is decoded without
    re-checking, since only this referee could have made it."""

    def __init__(self, sealer: Sealer | None):
        self.sealer = sealer

    def load(self, engine: Engine, wire: Any) -> Any:
        if self.sealer is None:
            if not isinstance(wire, dict):
                raise InvalidState("this referee runs in open mode: the state is a JSON object")
            return engine.decode(wire)
        if not isinstance(wire, str):
            raise TamperedState("this referee runs in sealed mode: the state is the token it "
                                "issued")
        plaintext = self.sealer.open(engine.id, wire)
        try:
            data = msgspec.json.decode(plaintext)
        except msgspec.DecodeError:
            raise TamperedState("the sealed state does not decode") from None
        return engine.decode(data, trusted=True)

    def dump(self, engine: Engine, state: Any) -> Any:
        wire = engine.encode(state)
        if self.sealer is None:
            return wire
        return self.sealer.seal(engine.id, msgspec.json.encode(wire))


def outcome(codec: StateCodec, engine: Engine, state: Any, events: list[Event], *,
            now: float, viewer: str | None) -> dict[str, Any]:
    body = {"state": codec.dump(engine, state)}
    body.update(describe(engine, state, events, now=now, viewer=viewer))
    body["seed_commitment"] = rng.commitment(state.seed)
    if body["status"] == "finished":
        # The match is over: revealing the seed lets anyone replay every roll and shuffle.
        body["seed"] = state.seed
    return body


def verdict(engine: Engine, move_schemas: dict[str, Any], state: Any, move: Any, *,
            now: float) -> dict[str, Any]:
    """The dry run's answer: would posting `move` be accepted by the rules? The new state and
    events are dropped unseen, so a dry run reveals no roll or draw. A move that does not fit
    its schema is not a question of rules: it is refused as a bad request (validation_error),
    as posting it would be."""
    try:
        checked = load_move(move_schemas, move)
    except ValidationError as exc:
        raise Problem("validation_error", "the move does not have the expected shape",
                      errors={"move": exc.messages}) from None
    try:
        _, events = engine.apply(state, checked, now=now)
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
