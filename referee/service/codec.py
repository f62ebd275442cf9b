"""States on the wire, in open and sealed mode: a posted state (or a seat or seed token)
read into the game's state and its table (seating and fairness), and written back.

Open mode: the state is its documented JSON object, checked in full. Sealed mode: the state
is a token; once it authenticates it is decoded without re-checking, since only this referee
could have made it. The sealing itself is the sealer's (`referee.http.sealing.Sealer` is the
one the service runs with); this module only names the purpose each token serves."""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Iterable
from typing import Any, NamedTuple, Protocol

import msgspec

from referee.core import contributions, numbers
from referee.core.contributions import Fairness
from referee.core.engine import Engine, shape_problems
from referee.core.errors import InvalidState, TamperedState
from referee.core.hints import Seating
from referee.core.memo import BoundedMemo

from .errors import Refused

# What a token stands for, bound into it: a token of one purpose never opens as another.
STATE, SEAT, SEED = "state", "seat", "seed"


class Sealer(Protocol):
    """Authenticated encryption of tokens, per game and purpose (TamperedState when a token
    does not open)."""

    def seal(self, game_id: str, plaintext: bytes, purpose: str = STATE) -> str: ...

    def open(self, game_id: str, token: str, purpose: str = STATE) -> bytes: ...

    def opens(self, game_id: str, token: str, purpose: str = STATE) -> bool: ...

    def usable(self) -> bool: ...


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
    # The moves applied since the match was created, when the referee counted them all: a
    # match it created or replayed, and a sealed state (the token carries the count). None:
    # an open-mode state posted (its caller could have written any count), or a token
    # sealed before the count was kept.
    moves: int | None = None

    @property
    def server_seed(self) -> str:
        return self.state.seed if self.fairness is None else self.fairness.seed

    def after(self, state: Any, moves: int = 1) -> Match:
        """The match once `moves` more moves have made `state`: the same table, counted on."""
        return Match(state, self.seating, self.fairness,
                     None if self.moves is None else self.moves + moves)


class StateCodec:
    """Reads and writes states and tokens; open mode without a sealer, sealed with one. An
    open-mode state's player ids are at most `max_id` characters, as a request's are (None:
    the referee's own states, unbounded), and its seed at most as long as a seed given."""

    def __init__(self, sealer: Sealer | None, max_id: int | None = None):
        self.sealer = sealer
        self.max_id = max_id

    def _length_problems(self, state: Any) -> list[str]:
        problems = [f"players: {player[:16]!r}... is longer than {self.max_id} characters"
                    for player in state.players
                    if self.max_id is not None and len(player) > self.max_id]
        if len(state.seed) > contributions.MAX_SEED_CHARS:
            problems.append(f"seed: longer than {contributions.MAX_SEED_CHARS} characters")
        return problems

    def load(self, engine: Engine, wire: Any) -> Any:
        """The game's state alone."""
        return self.load_match(engine, wire).state

    def load_match(self, engine: Engine, wire: Any) -> Match:
        if self.sealer is None:
            if not isinstance(wire, dict):
                raise InvalidState("this referee runs in open mode: the state is a JSON object")
            data = dict(wire)
            if SEATING not in data:
                raise _not_as_written([f"{SEATING}: missing"])
            seating = _seating(data.pop(SEATING))
            if FAIRNESS not in data:
                raise InvalidState(f"the state is not as the referee wrote it: {FAIRNESS}: "
                                   "missing (null when no seed was contributed)",
                                   problems=[f"{FAIRNESS}: missing"])
            fairness = _fairness(data.pop(FAIRNESS))
            state = engine.decode(data)
            problems = self._length_problems(state) + seating.problems(state.players)
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
            if self.sealer.opens(engine.id, wire, purpose=SEAT):
                raise Refused("seat_token_not_allowed", "this is a seat token: it stands for "
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
            return plain_sealed_match(engine, plaintext)

    def dump(self, engine: Engine, match: Match) -> Any:
        if self.sealer is None:
            return _wire(engine, match)
        return self.sealer.seal(engine.id, _wire_json(engine, match))

    def seat_token(self, engine: Engine, match: Match, player: str, *, now: float,
                   ttl: int | None) -> str | None:
        """A token giving `player`'s rights over this match at this step, and no others (a
        spectator's when he is not seated); None in open mode, where nothing is sealed."""
        tokens = self.seat_tokens(engine, match, (player,), now=now, ttl=ttl)
        return None if tokens is None else tokens[player]

    def seat_tokens(self, engine: Engine, match: Match, players: Iterable[str], *,
                    now: float, ttl: int | None) -> dict[str, str] | None:
        """Each player's seat token (as `seat_token` gives it) for this match at this step,
        with the same expiry; None in open mode. Each is sealed on its own, with its own
        salt: one seat's token tells nothing of another's."""
        if self.sealer is None:
            return None
        # The state's JSON is written once, whatever the number of tokens.
        state = msgspec.Raw(_wire_json(engine, match))
        expires = None if ttl is None else now + ttl
        return {player: self.sealer.seal(engine.id, msgspec.json.encode(
                    SeatGrant(state, player, expires)), purpose=SEAT)
                for player in players}

    def load_seat(self, engine: Engine, token: Any, *, now: float) -> Seat:
        """The match and the seat a seat token grants, refused once it has expired."""
        if self.sealer is None:
            raise Refused("tampered_seat_token", "this referee runs in open mode: it issues "
                          "no seat tokens")
        if not isinstance(token, str):
            raise Refused("tampered_seat_token", "a seat token is the string the referee "
                          "issued")
        try:
            grant = msgspec.json.decode(self.sealer.open(engine.id, token, purpose=SEAT),
                                        type=SeatGrant)
        except (TamperedState, msgspec.DecodeError):
            raise Refused("tampered_seat_token", "the seat token is not one this referee "
                          f"issued for {engine.id}, or it was altered") from None
        if grant.expires is not None and now >= grant.expires:
            raise Refused("seat_token_expired", "the seat token has expired: ask the game for "
                          "a fresh one")
        return Seat(_trusted_match(engine, dict(grant.state)), grant.player)

    def seed_token(self, engine: Engine, seed: str) -> str:
        """A server seed for a match not created yet, sealed for this game: the commitment
        can be shown before anyone contributes. Open mode seals nothing: the token is the
        seed itself."""
        if self.sealer is None:
            return seed
        return self.sealer.seal(engine.id, seed.encode("utf-8"), purpose=SEED)

    def open_seed_token(self, engine: Engine, token: Any) -> str:
        if not isinstance(token, str) or not token:
            raise Refused("tampered_seed_token", "a seed token is the string the referee "
                          "issued")
        if self.sealer is None:
            return token  # nothing is secret in open mode: the token is the seed
        try:
            return self.sealer.open(engine.id, token, purpose=SEED).decode("utf-8")
        except (TamperedState, UnicodeDecodeError):
            raise Refused("tampered_seed_token", "the seed token is not one this referee "
                          f"issued for {engine.id}, or it was altered") from None


SEATING = "seating"
FAIRNESS = "fairness"
MOVES = "moves"
OPTIONS = "options"  # a field of every game's state


class SealedTable(msgspec.Struct):
    """The table a sealed state carries beside the game's state, under the wire form's
    `seating` and `fairness` keys, and the count of moves applied since creation under
    `moves` (sealed mode only: open mode keeps no count, its caller could write any); a
    token sealed before seatings existed has none (no bots, no hints allowed), and one sealed
    before the count was kept has no count."""

    seating: Seating = msgspec.field(default_factory=Seating)
    fairness: Fairness | None = None
    moves: int | None = None


def plain_sealed_match(engine: Engine, plaintext: bytes) -> Match:
    """A sealed state's JSON read as plain JSON by what reads an open-mode state: the way
    a JSON the typed reading refuses is refused as before."""
    try:
        data = msgspec.json.decode(plaintext)
    except msgspec.DecodeError:
        raise TamperedState("the sealed state does not decode") from None
    return _trusted_match(engine, data)


def _trusted_match(engine: Engine, data: dict[str, Any]) -> Match:
    """The match of a sealed state's plain JSON, which only this referee could have written
    (a token sealed before seatings existed has none: no bots, no hints allowed)."""
    seating = msgspec.convert(data.pop(SEATING, {}), Seating, strict=True)
    fairness = msgspec.convert(data.pop(FAIRNESS, None), Fairness | None, strict=True)
    moves = msgspec.convert(data.pop(MOVES, None), int | None, strict=True)
    return Match(engine.decode(data, trusted=True), seating, fairness, moves)


def _sealed_match(state_type: type, plaintext: bytes) -> Match:
    """The match a sealed state's JSON holds, read in one pass (`SealedReader`)."""
    return _sealed_reader(state_type).match(plaintext)


class SealedReader:
    """Reads a sealed state's JSON in one pass: the JSON is decoded as the game's state type
    extended with the table's fields (`_sealed_type`), whose decoded value then drops those
    fields and becomes the game's state itself, the same object the state type alone
    decodes. Raises msgspec.DecodeError exactly when the state type or the table
    (`SealedTable`) refuses the JSON: each skips the other's keys, and the extended type reads
    every key with the type and default of the one it belongs to.

    A match's options never change: every token of a match, and of every match created with
    the same options, holds the same JSON text for them (Huit américain's 33 options are
    half of its state's JSON). The extended type keeps that text as it is (`msgspec.Raw`),
    and the options value is read from it once per text (`known_options`), then shared by
    every state that holds it, with whatever it worked out once (Huit américain's compiled
    rules): only a text met for the first time is decoded, strictly, as the state type
    would decode it."""

    def __init__(self, state_type: type):
        self.state_type = state_type
        self.decoder = msgspec.json.Decoder(_sealed_type(state_type), strict=True)
        self.options_decoder = msgspec.json.Decoder(typing.get_type_hints(state_type)[OPTIONS],
                                                    strict=True)
        self.known_options: BoundedMemo[bytes, Any] = BoundedMemo(256)

    def match(self, plaintext: bytes) -> Match:
        decoded = self.decoder.decode(plaintext)
        fields = decoded.__dict__
        fields[OPTIONS] = self.known_options.get(bytes(fields[OPTIONS]),
                                                 self.options_decoder.decode)
        # Read as attributes: a field left out of the JSON whose default is a plain value is
        # not put in the object's dict, its class holds it (as for the state's own fields).
        match = Match(decoded, decoded.seating, decoded.fairness, decoded.moves)
        for name in (SEATING, FAIRNESS, MOVES):
            fields.pop(name, None)
        # The extended type adds fields and nothing else (no slots, no methods that run), so
        # the value is the state's class with the state's fields: it becomes one, not copied.
        object.__setattr__(decoded, "__class__", self.state_type)
        return match


@functools.cache
def _sealed_reader(state_type: type) -> SealedReader:
    """The reader of a sealed state's JSON, one per game's state type."""
    return SealedReader(state_type)


def _sealed_type(state_type: type) -> type:
    """The game's state type (a frozen dataclass) with its options read as their JSON text
    and the table's fields after its own, each with the type and default `SealedTable` gives
    it: what a sealed state's JSON holds."""
    assert dataclasses.is_dataclass(state_type) and "__slots__" not in vars(state_type)
    table = {f.name: f for f in msgspec.structs.fields(SealedTable)}
    assert not table.keys() & {f.name for f in dataclasses.fields(state_type)}
    sealed = dataclasses.make_dataclass(
        f"Sealed{state_type.__name__}",
        [(OPTIONS, msgspec.Raw),  # in the place the state type gives it
         *((name, f.type, dataclasses.field(default=f.default)
            if f.default is not msgspec.NODEFAULT
            else dataclasses.field(default_factory=f.default_factory))
           for name, f in table.items())],
        bases=(state_type,), frozen=True)
    sealed.__module__ = state_type.__module__
    return sealed


def _fairness(data: Any) -> Fairness | None:
    try:
        return numbers.convert(data, Fairness | None)
    except msgspec.ValidationError as exc:
        raise _not_as_written([f"{FAIRNESS}: {exc}"]) from None


def _wire(engine: Engine, match: Match) -> dict[str, Any]:
    wire = engine.encode(match.state)
    wire[SEATING] = msgspec.to_builtins(match.seating)
    wire[FAIRNESS] = (None if match.fairness is None else msgspec.to_builtins(match.fairness))
    return wire


def _wire_json(engine: Engine, match: Match) -> bytes:
    """The JSON a sealed token holds: the JSON text of `_wire(engine, match)`, the same
    bytes, then the count of moves (`moves`), written from the state and the table
    themselves: the state's object with the table's keys after its own."""
    state = engine.encode_json(match.state)
    table = _TABLE_ENCODER.encode(SealedTable(match.seating, match.fairness, match.moves))
    return state[:-1] + b"," + table[1:]


_TABLE_ENCODER = msgspec.json.Encoder()


class SeatGrant(msgspec.Struct, forbid_unknown_fields=True):
    """What a seat token seals: the match at one step (its whole state, so a stateless
    referee can answer from it), the one seat it acts as, and when it stops being honoured
    (the referee's clock, seconds since the epoch; None: never). The state is read as an
    object, and written from its JSON text (`_wire_json`)."""

    state: dict[str, Any] | msgspec.Raw
    player: str
    expires: float | None


class Seat(NamedTuple):
    """A seat token opened: the match as it stood, and who may ask about it."""

    match: Match
    player: str


def _seating(data: Any) -> Seating:
    """An open-mode seating, held to the same standard as the state: every field, nothing
    unknown, every value of its type."""
    problems = shape_problems(data, Seating, f"{SEATING}.")
    if not problems:
        try:
            return msgspec.convert(data, Seating, strict=True)
        except msgspec.ValidationError as exc:
            problems = [f"{SEATING}: {exc}"]
    raise _not_as_written(problems)


def _not_as_written(problems: list[str]) -> InvalidState:
    return InvalidState("the state is not as the referee wrote it: " + "; ".join(problems),
                        problems=problems)
