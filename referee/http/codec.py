"""From request bodies to engine values and back: JSON parsing with limits, states in open
and sealed mode, and the outcome a client receives."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import msgspec

from referee.core import contributions, rng
from referee.core.contributions import Contribution, Fairness
from referee.core.engine import PENALTY_EVENT, Engine, Event
from referee.core.errors import GameOver, InvalidState, NotYourTurn, RefereeError, TamperedState
from referee.core.hints import Seating
from referee.core.outcome import describe, progress

from .problems import Problem
from .schemas import ValidationError, load_move
from .sealing import SEAT, SEED, Sealer


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
    # Only containers are pushed: a hand of cards is one list, not fifty stack entries. (A
    # plain loop: a generator per container cost more than the walk itself.)
    stack = [(data, 1)] if isinstance(data, (dict, list)) else []
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        for child in (value.values() if type(value) is dict else value):
            if type(child) is dict or type(child) is list:
                stack.append((child, depth + 1))
    return False


@dataclasses.dataclass(frozen=True)
class Match:
    """What a posted state carries: the game's state, and the table's seating (who is a bot,
    whether hints are allowed), which the service keeps beside the game's state under the
    wire form's `seating` key; the engines never see it."""

    state: Any
    seating: Seating = Seating()
    # The server seed and the contributed seeds, when seeds were contributed (the game's
    # state then holds their key as its `seed`); None: the state's seed is the server's.
    fairness: Fairness | None = None

    @property
    def server_seed(self) -> str:
        return self.state.seed if self.fairness is None else self.fairness.seed


class StateCodec:
    """Open mode (no sealer): the state is its documented JSON object, checked in full.
    Sealed mode: the state is a token; once it authenticates it is decoded without
    re-checking, since only this referee could have made it."""

    def __init__(self, sealer: Sealer | None):
        self.sealer = sealer

    def load(self, engine: Engine, wire: Any) -> Any:
        """The game's state alone."""
        return self.load_match(engine, wire).state

    def load_match(self, engine: Engine, wire: Any) -> Match:
        if self.sealer is None:
            if not isinstance(wire, dict):
                raise InvalidState("this referee runs in open mode: the state is a JSON object")
            data = dict(wire)
            if SEATING not in data:
                raise InvalidState(f"the state is not as the referee wrote it: {SEATING}: "
                                   "missing", problems=[f"{SEATING}: missing"])
            seating = _seating(data.pop(SEATING))
            if FAIRNESS not in data:
                raise InvalidState(f"the state is not as the referee wrote it: {FAIRNESS}: "
                                   "missing (null when no seed was contributed)",
                                   problems=[f"{FAIRNESS}: missing"])
            fairness = _fairness(data.pop(FAIRNESS))
            state = engine.decode(data)
            problems = seating.problems(state.players)
            if fairness is not None:
                problems += contributions.problems(fairness, state.players, state.seed,
                                                   state.step)
            if problems:
                raise InvalidState("the state breaks the rules: " + "; ".join(problems),
                                   problems=problems)
            return Match(state, seating, fairness)
        if not isinstance(wire, str):
            raise TamperedState("this referee runs in sealed mode: the state is the token it "
                                "issued")
        try:
            plaintext = self.sealer.open(engine.id, wire)
        except TamperedState:
            if self._opens_as_seat(engine, wire):
                raise Problem("seat_token_not_allowed", "this is a seat token: it stands for "
                              "one player's rights, never for the state (the game's back end "
                              "keeps the state token)") from None
            raise
        # The JSON the token holds is read in one pass straight into the game's state with
        # the table beside it (no plain objects are built on the way). Only a token this type
        # refuses is read again as plain JSON, by what reads an open-mode state, so it is
        # refused as before.
        try:
            return _sealed_match(engine.state_type, plaintext)
        except msgspec.DecodeError:
            return _plain_sealed_match(engine, plaintext)

    def dump(self, engine: Engine, match: Match) -> Any:
        if self.sealer is None:
            return _wire(engine, match)
        return self.sealer.seal(engine.id, _wire_json(engine, match))

    def _opens_as_seat(self, engine: Engine, token: str) -> bool:
        assert self.sealer is not None
        return self.sealer.opens(engine.id, token, purpose=SEAT)

    def seat_token(self, engine: Engine, match: Match, player: str, *, now: float,
                   ttl: int | None) -> str | None:
        """A token giving `player`'s rights over this match at this step, and no others (a
        spectator's when he is not seated); None in open mode, where nothing is sealed."""
        if self.sealer is None:
            return None
        seat = SeatGrant(_wire(engine, match), player, None if ttl is None else now + ttl)
        return self.sealer.seal(engine.id, msgspec.json.encode(seat), purpose=SEAT)

    def load_seat(self, engine: Engine, token: Any, *, now: float) -> Seat:
        """The match and the seat a seat token grants, refused once it has expired."""
        if self.sealer is None:
            raise Problem("tampered_seat_token", "this referee runs in open mode: it issues "
                          "no seat tokens")
        if not isinstance(token, str):
            raise Problem("tampered_seat_token", "a seat token is the string the referee "
                          "issued")
        try:
            grant = msgspec.json.decode(self.sealer.open(engine.id, token, purpose=SEAT),
                                        type=SeatGrant)
        except (TamperedState, msgspec.DecodeError):
            raise Problem("tampered_seat_token", "the seat token is not one this referee "
                          f"issued for {engine.id}, or it was altered") from None
        if grant.expires is not None and now >= grant.expires:
            raise Problem("seat_token_expired", "the seat token has expired: ask the game for "
                          "a fresh one")
        data = dict(grant.state)
        seating = msgspec.convert(data.pop(SEATING, {}), Seating, strict=True)
        fairness = _trusted_fairness(data.pop(FAIRNESS, None))
        return Seat(Match(engine.decode(data, trusted=True), seating, fairness), grant.player)

    def seed_token(self, engine: Engine, seed: str) -> str:
        """A server seed for a match not created yet, sealed for this game: the commitment
        can be shown before anyone contributes. Open mode seals nothing: the token is the
        seed itself."""
        if self.sealer is None:
            return seed
        return self.sealer.seal(engine.id, seed.encode("utf-8"), purpose=SEED)

    def open_seed_token(self, engine: Engine, token: Any) -> str:
        if not isinstance(token, str) or not token:
            raise Problem("tampered_seed_token", "a seed token is the string the referee "
                          "issued")
        if self.sealer is None:
            return token  # nothing is secret in open mode: the token is the seed
        try:
            return self.sealer.open(engine.id, token, purpose=SEED).decode("utf-8")
        except (TamperedState, UnicodeDecodeError):
            raise Problem("tampered_seed_token", "the seed token is not one this referee "
                          f"issued for {engine.id}, or it was altered") from None


SEATING = "seating"
FAIRNESS = "fairness"


def contributed(engine: Engine, match: Match, player: str, seed: str) -> Match:
    """The match with `player`'s seed mixed into the key of every step from the current one
    on, refused once a chance event concerning him has been drawn (his seed could then be
    chosen to suit what is left) or when he has contributed already."""
    state = match.state
    if player not in state.players:
        raise Problem("validation_error", f"{player!r} is not a player of this match",
                      errors={"player": ["Must be one of the match's players."]})
    if engine.is_finished(state):
        raise GameOver("the match has finished")
    made = match.fairness.contributions if match.fairness else []
    if any(c.player == player for c in made):
        raise Problem("contribution_already_made", f"{player} has already added a seed to "
                      "this match; a second could be chosen after seeing what the first did")
    if engine.chance_began_for(state, player):
        raise Problem("contribution_too_late", f"a chance event concerning {player} has "
                      "already been drawn: a seed is added before the first one")
    added = Contribution(player=player, seed=seed, step=state.step)
    fairness = Fairness(seed=match.server_seed, contributions=[*made, added])
    new_state = dataclasses.replace(state, seed=contributions.mix(state.seed, seed))
    return Match(new_state, match.seating, fairness)


class SealedTable(msgspec.Struct):
    """The table a sealed state carries beside the game's state, under the wire form's
    `seating` and `fairness` keys; a token sealed before seatings existed has none (no bots,
    no hints allowed)."""

    seating: Seating = msgspec.field(default_factory=Seating)
    fairness: Fairness | None = None


def _plain_sealed_match(engine: Engine, plaintext: bytes) -> Match:
    """A sealed state's JSON read as plain JSON by what reads an open-mode state: the way
    a JSON the typed reading refuses is refused as before."""
    try:
        data = msgspec.json.decode(plaintext)
    except msgspec.DecodeError:
        raise TamperedState("the sealed state does not decode") from None
    # A token sealed before seatings existed has none: no bots, no hints allowed.
    seating = msgspec.convert(data.pop(SEATING, {}), Seating, strict=True)
    fairness = _trusted_fairness(data.pop(FAIRNESS, None))
    return Match(engine.decode(data, trusted=True), seating, fairness)


def _sealed_match(state_type: type, plaintext: bytes) -> Match:
    """The match a sealed state's JSON holds, read in one pass: the JSON is decoded as the
    game's state type extended with the table's fields (`_sealed_type`), whose decoded
    value then drops those fields and becomes the game's state itself, the same object the
    state type alone decodes. Raises msgspec.DecodeError exactly when the state type or
    the table (`SealedTable`) refuses the JSON: each skips the other's keys, and the
    extended type reads every key with the type and default of the one it belongs to."""
    decoded = _sealed_decoder(state_type).decode(plaintext)
    # Read as attributes: a field left out of the JSON whose default is a plain value is
    # not put in the object's dict, its class holds it (as for the state's own fields).
    match = Match(decoded, decoded.seating, decoded.fairness)
    fields = decoded.__dict__
    fields.pop(SEATING, None)
    fields.pop(FAIRNESS, None)
    # The extended type adds fields and nothing else (no slots, no methods that run), so the
    # value is the state's class with the state's fields: it becomes one, not copied.
    object.__setattr__(decoded, "__class__", state_type)
    return match


@functools.cache
def _sealed_decoder(state_type: type) -> msgspec.json.Decoder:
    """The decoder of a sealed state's JSON, one per game's state type."""
    return msgspec.json.Decoder(_sealed_type(state_type), strict=True)


def _sealed_type(state_type: type) -> type:
    """The game's state type (a frozen dataclass) with the table's fields after its own, each
    with the type and default `SealedTable` gives it: what a sealed state's JSON holds."""
    assert dataclasses.is_dataclass(state_type) and "__slots__" not in vars(state_type)
    table = {f.name: f for f in msgspec.structs.fields(SealedTable)}
    assert not table.keys() & {f.name for f in dataclasses.fields(state_type)}
    sealed = dataclasses.make_dataclass(
        f"Sealed{state_type.__name__}",
        [(name, f.type, dataclasses.field(default=f.default) if f.default is not msgspec.NODEFAULT
          else dataclasses.field(default_factory=f.default_factory))
         for name, f in table.items()],
        bases=(state_type,), frozen=True)
    sealed.__module__ = state_type.__module__
    return sealed


def _trusted_fairness(data: Any) -> Fairness | None:
    return None if data is None else msgspec.convert(data, Fairness, strict=True)


def _fairness(data: Any) -> Fairness | None:
    try:
        return msgspec.convert(data, Fairness | None, strict=True)
    except msgspec.ValidationError as exc:
        problem = f"{FAIRNESS}: {exc}"
        raise InvalidState("the state is not as the referee wrote it: " + problem,
                           problems=[problem]) from None


def _wire(engine: Engine, match: Match) -> dict[str, Any]:
    wire = engine.encode(match.state)
    wire[SEATING] = msgspec.to_builtins(match.seating)
    wire[FAIRNESS] = (None if match.fairness is None else msgspec.to_builtins(match.fairness))
    return wire


def _wire_json(engine: Engine, match: Match) -> bytes:
    """The JSON text of `_wire(engine, match)`, the same bytes, written from the state and
    the table themselves: the state's object with the table's keys after its own."""
    state = engine.encode_json(match.state)
    table = _TABLE_ENCODER.encode(SealedTable(match.seating, match.fairness))
    return state[:-1] + b"," + table[1:]


_TABLE_ENCODER = msgspec.json.Encoder()


class SeatGrant(msgspec.Struct, forbid_unknown_fields=True):
    """What a seat token seals: the match at one step (its whole state, so a stateless
    referee can answer from it), the one seat it acts as, and when it stops being honoured
    (the referee's clock, seconds since the epoch; None: never)."""

    state: dict[str, Any]
    player: str
    expires: float | None


@dataclasses.dataclass(frozen=True)
class Seat:
    """A seat token opened: the match as it stood, and who may ask about it."""

    match: Match
    player: str


SEATING_FIELDS = frozenset(f.name for f in dataclasses.fields(Seating))


def _seating(data: Any) -> Seating:
    """An open-mode seating, held to the same standard as the state: every field, nothing
    unknown, every value of its type."""
    if not isinstance(data, dict):
        problems = [f"{SEATING}: must be an object"]
    else:
        problems = [f"{SEATING}.{k}: unknown field" for k in data if k not in SEATING_FIELDS]
        problems += [f"{SEATING}.{k}: missing" for k in sorted(SEATING_FIELDS) if k not in data]
    if not problems:
        try:
            return msgspec.convert(data, Seating, strict=True)
        except msgspec.ValidationError as exc:
            problems = [f"{SEATING}: {exc}"]
    raise InvalidState("the state is not as the referee wrote it: " + "; ".join(problems),
                       problems=problems)


def outcome(codec: StateCodec, engine: Engine, match: Match, events: list[Event], *,
            now: float, viewer: str | None, seat_ttl: int | None = None) -> dict[str, Any]:
    state = match.state
    body = {"state": codec.dump(engine, match)}
    events = contributions.annotate(events, match.fairness)
    body.update(describe(engine, state, events, now=now, viewer=viewer))
    if viewer is not None:
        token = codec.seat_token(engine, match, viewer, now=now, ttl=seat_ttl)
        if token is not None:
            body["seat_token"] = token
    body["seed_commitment"] = rng.commitment(match.server_seed)
    if body["status"] == "finished":
        # The match is over: revealing the seed (and what was mixed into it) lets anyone
        # replay every roll and shuffle.
        body["seed"] = match.server_seed
        if match.fairness is not None:
            body["contributions"] = msgspec.to_builtins(match.fairness.contributions)
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


def hint(engine: Engine, match: Match, player: str, level: str, *,
         now: float) -> dict[str, Any]:
    """A hint for `player`: one of his legal moves, from what he sees. Refused when the
    match is over, when he has no move to make (a spectator has none), and when the table's
    seating does not allow him hints (a human playing other humans)."""
    state = match.state
    if level not in engine.hint_levels:
        raise Problem("validation_error", f"{engine.name} has no hint level {level!r}",
                      errors={"level": ["Must be one of: " + ", ".join(engine.hint_levels)
                                        + "."]})
    if engine.is_finished(state):
        raise GameOver("the match has finished")
    if player in state.players and not match.seating.may_advise(state.players, player):
        raise Problem("hint_not_allowed", f"{player} plays other humans at this table: hints "
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
