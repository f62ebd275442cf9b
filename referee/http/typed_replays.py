"""A replay's envelope on the hot path: a msgspec Struct that reads what the replay's schema
(referee.http.schemas, `Replay`) accepts, as the move's envelope is read (`typed_load`).

It accepts a subset of what the schema accepts and gives the same result, key for key and in
the schema's order (tests/http/test_http_typed_decoders.py holds the two together): what it
refuses, and what only the schema's own checks judge (a player or a bot named twice, a seed
given with a seed token, a contributor twice, a number spelt 3.0), goes on to the schema, so
every refusal keeps its message. The replay's own fields are the schema's: the creation (a
creation's body without whom its answer is for), its instant, the moves (each an object and
its instant; the move's own fields are checked when it is played), the viewer and the seat
token's life.

A game's replay is first decoded straight from its JSON by the same Struct with the game's
typed moves in it (`decoded_replay`): one pass gives the envelope and every move as the move
check gives it. What that pass refuses (a move that does not fit its type, which must be
refused at its index after the moves before it are played, a JSON text that is not what it
seems: a key given twice where the tag picks the move's type...) is read as any body is."""

from __future__ import annotations

from typing import Annotated, Any, Union

import msgspec

from referee.core.contributions import MAX_SEED_CHARS
from referee.service.replays import MOVES_CHECKED

from .schemas import (
    MAX_SEAT_TTL,
    TYPED_INSTANT,
    UNSET,
    ReplayedMove,
    as_given,
    player_type,
)
from .sealing import MAX_TOKEN_CHARS

# The seeds a creation may name as its schema's SeedField reads them: a string of 1 to 128
# characters, or a whole number from 0 (one past 2^63 - 1, the largest bound msgspec checks,
# is left to the schema, which takes it up to 2^128 - 1).
SEED = Union[Annotated[str, msgspec.Meta(min_length=1, max_length=128)],
             Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)], None]


def typed_entry(move: Any) -> type:
    """A replay's move and its instant, as `ReplayedMove` reads them, its move of the type
    `move` (a game's moves, `referee.http.schemas.move_union`)."""
    return msgspec.defstruct("TypedReplayedMove", [
        ("move", move), ("at", Union[TYPED_INSTANT, msgspec.UnsetType], UNSET)],
        forbid_unknown_fields=True)


def replay_struct(max_id: int, max_items: int, max_moves: int,
                  entry: type = ReplayedMove) -> type:
    """The Struct of a replay's envelope for these limits, each move read by `entry`. Its
    fields are keyword-only, so that they come in the schema's order, a required one after
    an optional one."""
    player = player_type(max_id)
    players = Annotated[list[player], msgspec.Meta(max_length=max_items)]
    seed_at_creation = msgspec.defstruct("SeedAtCreation", [
        ("player", Union[player, msgspec.UnsetType], UNSET),  # none: the back end's own
        ("seed", Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_SEED_CHARS)]),
    ], forbid_unknown_fields=True, kw_only=True)
    creation = msgspec.defstruct("Creation", [
        ("players", Annotated[list[player], msgspec.Meta(min_length=1,
                                                         max_length=max_items)]),
        ("options", Annotated[dict[str, Any], msgspec.Meta(max_length=max_items)], {}),
        ("seed", SEED, None),
        ("seed_token", Union[Annotated[str, msgspec.Meta(min_length=1,
                                                         max_length=MAX_TOKEN_CHARS)],
                             msgspec.UnsetType], UNSET),
        ("contributions", Annotated[list[seed_at_creation],
                                    msgspec.Meta(max_length=max_items)], []),
        ("bots", players, []),
        ("hints_allowed", bool, False),
    ], forbid_unknown_fields=True, kw_only=True)
    return msgspec.defstruct("Replay", [
        ("creation", creation),
        ("created_at", Union[Annotated[float, msgspec.Meta(ge=0)], msgspec.UnsetType], UNSET),
        ("moves", Annotated[list[entry], msgspec.Meta(max_length=max_moves)]),
        ("viewer", Union[player, msgspec.UnsetType], UNSET),
        ("seat_token_ttl", Union[Annotated[int, msgspec.Meta(ge=1, le=MAX_SEAT_TTL)],
                                 msgspec.UnsetType], UNSET),
    ], forbid_unknown_fields=True, kw_only=True)


def typed_replay(struct: type, data: Any) -> dict[str, Any] | None:
    """`data` decoded by the replay's Struct, as the schema would read it; None when the
    Struct does not accept it or one of the schema's own checks must judge it."""
    try:
        value = msgspec.convert(data, struct, strict=True)
    except msgspec.ValidationError:
        return None
    # The moves as the schema gives them, each object as it came (its fields are checked
    # when it is played), not copied again.
    return _as_read(value, as_given(value.moves))


def decoded_replay(decoder: msgspec.json.Decoder, raw: bytes) -> dict[str, Any] | None:
    """The replay's JSON text decoded by a game's replay Struct (`typed_entry` of its moves),
    as `typed_replay` reads the same body, but each move as the move check gives it and
    marked so (MOVES_CHECKED); None when the Struct does not accept it or one of the
    schema's own checks must judge it. It is not held to a depth: its caller walks it."""
    try:
        value = decoder.decode(raw)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None
    read = _as_read(value, msgspec.to_builtins(value.moves))
    if read is not None:
        read[MOVES_CHECKED] = True
    return read


def _as_read(value: Any, moves: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A replay's Struct as the schema reads it, with its `moves`; None when one of the
    schema's own checks must judge it."""
    made = value.creation
    contributors = [None if c.player is UNSET else c.player for c in made.contributions]
    if (_repeated(made.players) or _repeated(made.bots) or _repeated(contributors)
            or (made.seed is not None and made.seed_token is not UNSET)):
        return None
    out = {"creation": msgspec.to_builtins(made)}
    if value.created_at is not UNSET:
        out["created_at"] = value.created_at
    out["moves"] = moves
    for name in ("viewer", "seat_token_ttl"):
        given = getattr(value, name)
        if given is not UNSET:
            out[name] = given
    return out


def _repeated(values: list[Any]) -> bool:
    return len(set(values)) != len(values)
