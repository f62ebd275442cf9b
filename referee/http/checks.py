"""A request body's checks before any use case sees it: the JSON itself (valid, not nested
too deep), its envelope (the fields each operation takes, and whether a seat token may come
instead of the state) and a move's fields (its type's declared fields).

Each envelope and move is checked by a typed msgspec decoder first (the hot path) and, when
that refuses it, by its marshmallow schema, whose refusal names every bad field (see
referee.http.schemas). A game's replay is decoded from its JSON text with its moves typed in
one pass, and read as any body when that pass refuses it (referee.http.typed_replays). The
JSON's depth is walked only where a schema judges, and in a replay's creation: what a typed
envelope accepts cannot nest deeper than its type."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from typing import Any

import msgspec
import msgspec.inspect as typeinfo
from marshmallow import ValidationError

from referee.core.engine import Engine
from referee.core.memo import BoundedMemo
from referee.service.errors import Refused, bad_request

from .operations import SEAT_ENVELOPES
from .problems import Problem
from .schemas import MAX_REPLAY_MOVES, envelope_schemas, envelope_structs, load_move, \
    move_schemas, move_structs, move_union, typed_load
from .typed_replays import decoded_replay, replay_struct, typed_entry, typed_replay


def parse_json(body: bytes, max_depth: int) -> Any:
    """The body's JSON: bytes that are not JSON in UTF-8 (a syntax error, a byte sequence
    UTF-8 forbids inside a string, a lone surrogate escape) are `malformed_json`; JSON deeper
    than the decoder itself takes is a `validation_error`, as any JSON that nests deeper than
    `max_depth` (`refuse_too_deep`). Either is the caller's mistake, answered as a problem and
    logged as any refusal, never as the referee's failure."""
    try:
        return msgspec.json.decode(body)
    except RecursionError:
        raise too_deep(max_depth) from None
    except msgspec.DecodeError as exc:
        raise Problem("malformed_json", f"the body is not valid JSON: {why_not(body, exc)}") \
            from None
    except UnicodeDecodeError as exc:
        # msgspec checks UTF-8 only when it builds a string, and says so with Python's error.
        raise Problem("malformed_json", "the body is not valid JSON: a string holds bytes "
                      f"that are not UTF-8 (byte {exc.start} of the string)") from None


def why_not(body: bytes, refusal: msgspec.DecodeError) -> str:
    """What is wrong with a body msgspec refused: its own words, but where they would mislead.
    A lone high surrogate escape (`"\\ud800"`, which JSON's grammar allows and Unicode does
    not) closed by the string's quote is refused as "Input data was truncated" (followed by
    other text, as an unfinished pair, which says what it is); the standard library's decoder
    takes lone surrogates, so a UTF-8 body it reads whole is complete, and was refused for one
    of them."""
    reason = str(refusal)
    if reason == "Input data was truncated":
        try:
            json.loads(body.decode("utf-8"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            return reason
        return ("a string holds an escaped surrogate (\\ud800 to \\udfff) that is not half "
                "of a pair")
    return reason


def too_deep(max_depth: int) -> Problem:
    return Problem("validation_error", f"the JSON nests deeper than {max_depth} levels",
                   errors={"_body": ["nested too deeply"]})


# An open-mode state object is decoded by a strict typed decoder that stops at the first value
# of the wrong shape, so its depth cannot hurt and is not walked: the state is most of the
# body, and walking it cost more than the rest of the request's checks. A replay's moves
# likewise: each entry and each move is read by typed decoders (or its type's schema) that
# judge a value by its shape without walking into it, no answer echoes them, and walking them
# cost more than checking them. The body's fields left aside, with the container they hold.
UNWALKED = {"state": dict, "moves": list}


def refuse_too_deep(data: Any, max_depth: int) -> None:
    """Refuse parsed JSON that nests deeper than `max_depth`, its open state and a replay's
    moves aside."""
    top = ({k: v for k, v in data.items() if not isinstance(v, UNWALKED.get(k, ()))}
           if isinstance(data, dict) else data)
    if _depth_exceeds(top, max_depth):
        raise too_deep(max_depth)


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


# The containers (an array or an object in JSON), and the types of the values each holds.
CONTAINED = {
    typeinfo.ListType: lambda t: [t.item_type],
    typeinfo.DictType: lambda t: [t.key_type, t.value_type],
    typeinfo.StructType: lambda t: [f.type for f in t.fields],
}
SCALARS = (typeinfo.StrType, typeinfo.IntType, typeinfo.FloatType, typeinfo.BoolType,
           typeinfo.NoneType, typeinfo.LiteralType)


def nesting(kind: typeinfo.Type, within: frozenset[type] = frozenset()) -> float:
    """How deep the JSON that a typed decoder of this type accepts can nest (an object or an
    array is a level, as `refuse_too_deep` counts them): infinite when it takes any value at
    all, a type not known here, or a Struct holding itself (`within`: the Structs around)."""
    if isinstance(kind, typeinfo.Metadata):
        return nesting(kind.type, within)
    if isinstance(kind, typeinfo.UnionType):
        return max(nesting(member, within) for member in kind.types)
    if isinstance(kind, SCALARS):
        return 0
    inside = CONTAINED.get(type(kind))
    if inside is None:
        return math.inf
    if isinstance(kind, typeinfo.StructType):
        if kind.cls in within:
            return math.inf
        within = within | {kind.cls}
    return 1 + max((nesting(member, within) for member in inside(kind)), default=0)


def envelope_nesting(struct: type) -> float:
    """How deep a body that the typed envelope `struct` accepts can nest, its open state
    aside (as `refuse_too_deep` leaves it aside)."""
    return 1 + max((nesting(field.type) for field in typeinfo.type_info(struct).fields
                    if field.name not in UNWALKED), default=0)


class RequestChecks:
    """The envelope and move checks for these games and limits. They are read, never
    changed, once built: `request_checks` shares one between the applications of a process
    built with the same games and limits."""

    def __init__(self, games: dict[str, Engine], max_id: int, max_items: int,
                 max_moves: int = MAX_REPLAY_MOVES):
        self.envelopes = envelope_schemas(max_id, max_items, max_moves)
        self.moves = {gid: move_schemas(engine, max_id, max_items)
                      for gid, engine in games.items()}
        # The hot path's typed decoders; what they refuse goes on to the schemas above.
        self.typed_envelopes = envelope_structs(max_id, max_items)
        self.typed_moves = {gid: move_structs(engine, max_id, max_items)
                            for gid, engine in games.items()}
        # How deep a body each typed envelope accepts can nest.
        self.typed_depths = {kind: envelope_nesting(struct)
                             for kind, struct in self.typed_envelopes.items()}
        # Each envelope's typed decoder: its Struct's, or a replay's (whose moves are typed
        # by game, later); None when the body does not fit it.
        self.typed_decoders: dict[str, Callable[[Any], dict[str, Any] | None]] = {
            **{kind: functools.partial(typed_load, struct)
               for kind, struct in self.typed_envelopes.items()},
            "replay": functools.partial(typed_replay,
                                        replay_struct(max_id, max_items, max_moves))}
        typed_moves = {gid: move_union(engine, max_id, max_items)
                       for gid, engine in games.items()}
        self.typed_move_lists = {gid: None if move is None else list[move]
                                 for gid, move in typed_moves.items()}
        # Per game whose moves are all typed, the decoder of its replays' JSON text.
        self.replay_decoders = {
            gid: msgspec.json.Decoder(replay_struct(max_id, max_items, max_moves,
                                                    typed_entry(move)))
            for gid, move in typed_moves.items() if move is not None}

    def body(self, kind: str, raw: bytes, max_depth: int,
             game_id: str | None = None) -> dict[str, Any]:
        """The request's body parsed and held to the envelope `kind` (of the game `game_id`,
        when named), refused when its JSON nests deeper than `max_depth`. A body that its
        typed envelope decodes nests no deeper than that type allows, so it is walked only
        when the type allows more than the limit; any other body is walked before its schema
        judges it. A game's replay is first decoded with its moves (`decoded_replay`), and
        then walked as it would be once parsed, its moves aside (their types bound them)."""
        decoder = self.replay_decoders.get(game_id) if kind == "replay" else None
        if decoder is not None:
            typed = decoded_replay(decoder, raw)
            if typed is not None:
                refuse_too_deep(typed, max_depth)
                return typed
        data = parse_json(raw, max_depth)
        if self.typed_depths.get(kind, math.inf) > max_depth:
            refuse_too_deep(data, max_depth)
            return self.envelope(kind, data)
        # The typed envelope takes only an object, and no field it does not declare (a seat
        # token where none may come is refused by `schema_envelope`).
        typed = self.typed_decoders[kind](data)
        if typed is not None:
            return typed
        refuse_too_deep(data, max_depth)
        return self.schema_envelope(kind, data)

    def envelope(self, kind: str, data: Any) -> dict[str, Any]:
        """A parsed body held to its envelope: its typed decoder first, then its schema."""
        decoder = self.typed_decoders.get(kind)
        typed = None if decoder is None or not isinstance(data, dict) else decoder(data)
        return typed if typed is not None else self.schema_envelope(kind, data)

    def schema_envelope(self, kind: str, data: Any) -> dict[str, Any]:
        """A parsed body held to its envelope's schema, whose refusal names every bad field."""
        if not isinstance(data, dict):
            raise bad_request("the body must be a JSON object", _body=["Must be an object."])
        if "seat_token" in data and kind not in SEAT_ENVELOPES:
            raise Refused("seat_token_not_allowed", "a seat token only asks about its seat "
                          "(legal moves, dry runs, views, hints): moves are posted by the "
                          "game's back end with the state token")
        return self.envelopes[kind].load(data)

    def move(self, game_id: str, move: Any) -> dict[str, Any]:
        """A move held to its type's declared fields (the service's move check). A replay's
        move may be any JSON value: one that is not an object is refused as the move
        envelope refuses it."""
        if not isinstance(move, dict):
            envelope = self.envelopes["move"].fields["move"].error_messages
            raise bad_request("the request does not have the expected shape", move=[
                envelope["null" if move is None else "invalid"]])
        kind = move.get("type")
        if type(kind) is str:
            typed = typed_load(self.typed_moves[game_id].get(kind), move)
            if typed is not None:
                return typed
        try:
            return load_move(self.moves[game_id], move)
        except ValidationError as exc:
            raise bad_request("the move does not have the expected shape",
                              move=exc.messages) from None

    def replay_moves(self, game_id: str,
                     moves: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """A replay's moves held to their types in one pass: each as `move` gives it, or None
        when one of them does not fit (each is then checked by `move` as it is played, so
        that its refusal comes at its index, after the moves before it)."""
        typed = self.typed_move_lists[game_id]
        if typed is None:
            return None
        try:
            return msgspec.to_builtins(msgspec.convert(moves, typed, strict=True))
        except msgspec.ValidationError:
            return None


# Each application's checks, by its games and limits: building them (a marshmallow schema and
# a msgspec Struct per envelope and move type) costs tens of milliseconds, which every
# application a process builds (a test's, each configuration's) would pay again.
_CHECKS: BoundedMemo[tuple, RequestChecks] = BoundedMemo(16)


def request_checks(games: dict[str, Engine], max_id: int, max_items: int,
                   max_moves: int = MAX_REPLAY_MOVES) -> RequestChecks:
    """The checks for these games and limits, built once per process."""
    return _CHECKS.get((tuple(games.items()), max_id, max_items, max_moves), _built)


def _built(key: tuple) -> RequestChecks:
    games, max_id, max_items, max_moves = key
    return RequestChecks(dict(games), max_id, max_items, max_moves)
