"""What every route of an application shares (`Served`, built once per application and kept
in its extensions), and the reading of a request's body: its media type, its size limit, its
JSON and its envelope."""

from __future__ import annotations

import functools
import logging
from typing import Any, Callable

import msgspec
from flask import Response, current_app, request
from werkzeug.exceptions import ClientDisconnected, HTTPException

from referee.core.engine import Engine
from referee.core.memo import BoundedMemo
from referee.service.answers import wire_state_schema
from referee.service.codec import StateCodec
from referee.service.preparer import PREPARER
from referee.service.referee import Referee

from . import caching, contract, metrics
from .checks import request_checks
from .operations import JSON
from .problems import Problem
from .schemas import MAX_REPLAY_MOVES
from .sealing import ExampleSealer, Sealer
from .signing import ResultSigner, jwks

log = logging.getLogger("referee")


class Served:
    """The service and what the HTTP layer adds to it: the request checks, the catalogue's
    fixed answers, the contract, the counters of moves applied."""

    def __init__(self, config: dict[str, Any], games: dict[str, Engine],
                 clock: Callable[[], float]):
        keys = config["STATE_KEYS"]
        self.keys = tuple(keys)
        self.games = games
        self.max_depth = config["MAX_JSON_DEPTH"]
        self.max_body = config["MAX_BODY_BYTES"]
        self.max_id, self.max_items = config["MAX_PLAYER_ID_LENGTH"], config["MAX_LIST_ITEMS"]
        self.max_moves = config.get("MAX_REPLAY_MOVES", MAX_REPLAY_MOVES)
        self.checks = request_checks(games, self.max_id, self.max_items, self.max_moves)
        # The counter of each game's moves, looked up once (`labels()` costs microseconds).
        self.moves_applied = {gid: metrics.MOVES.labels(gid) for gid in games}
        codec = StateCodec(Sealer(keys) if keys else None, self.max_id)
        result_keys = config.get("RESULT_KEYS", [])
        self.signer = ResultSigner(result_keys) if result_keys else None
        self.jwks_body = msgspec.json.encode(jwks(self.signer))
        self.service = Referee(games, codec, clock, self.checks.move, self.count_move,
                               signer=self.signer, check_moves=self.checks.replay_moves)
        self.preparer = PREPARER
        PREPARER.start()
        catalog = {gid: catalog_entry(engine) for gid, engine in games.items()}
        self.catalog_body = msgspec.json.encode({"games": list(catalog.values())})
        self.detail_bodies = {gid: _DETAILS.get(engine, detail_body)
                              for gid, engine in games.items()}
        self.etags = {body: caching.etag_of(body)
                      for body in (self.catalog_body, *self.detail_bodies.values(),
                                   self.jwks_body)}

    def count_move(self, game_id: str, moves: int = 1) -> None:
        self.moves_applied[game_id].inc(moves)

    @property
    def codec(self) -> StateCodec:
        return self.service.codec

    def readiness(self) -> dict[str, bool]:
        checks = {"engines": bool(self.games)}
        try:
            checks["contract"] = bool(self.contract)
        except Exception:  # noqa: BLE001 - any failure to build it means not ready
            log.exception("the contract could not be generated")
            checks["contract"] = False
        checks["sealing"] = self.codec.sealer is None or self.codec.sealer.usable()
        return checks

    @functools.cached_property
    def contract_etag(self) -> str:
        return caching.etag_of(self.contract)

    @functools.cached_property
    def contract(self) -> bytes:
        """The contract for this registry and these limits, generated once (see
        referee.http.contract); with the defaults it is the committed openapi.yaml."""
        return contract_text(tuple(self.games.items()), self.max_id, self.max_items,
                             self.keys, self.max_moves)


@functools.lru_cache(maxsize=8)
def contract_text(games: tuple[tuple[str, Engine], ...], max_id: int, max_items: int,
                  keys: tuple[str, ...] = (), max_moves: int = MAX_REPLAY_MOVES) -> bytes:
    """The contract; with sealing keys, its examples' states are sealed with them (by an
    ExampleSealer, so every worker serves the same document)."""
    codec = StateCodec(ExampleSealer(list(keys)) if keys else None, max_id)
    document = contract.generate(dict(games), {"MAX_PLAYER_ID_LENGTH": max_id,
                                               "MAX_LIST_ITEMS": max_items,
                                               "MAX_REPLAY_MOVES": max_moves}, codec)
    return contract.to_yaml(document).encode("utf-8")


# Each game's detail answer, encoded once per process: its state's JSON Schema is generated
# from the state's types, some milliseconds that every application built would pay again.
_DETAILS: BoundedMemo[Engine, bytes] = BoundedMemo(64)


def detail_body(engine: Engine) -> bytes:
    """A game's detail answer: its catalogue entry, move types and open-mode state schema."""
    return msgspec.json.encode({
        **catalog_entry(engine), "move_types": [m.describe() for m in engine.move_types],
        "state_schema": wire_state_schema(engine)})


def catalog_entry(engine: Engine) -> dict[str, Any]:
    return {
        "id": engine.id,
        "name": engine.name,
        "summary": engine.summary,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "options": [o.describe() for o in engine.options],
    }


def served() -> Served:
    return current_app.extensions["referee"]


def json_response(body: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(body), status=status, content_type=JSON)


def load(where: Served, kind: str, game_id: str | None = None) -> dict[str, Any]:
    """The request's body, read and held to the envelope `kind` (of the game `game_id`)."""
    environ = request.environ
    # The Content-Type every client library sends is taken as it is; any other is parsed
    # (Werkzeug's parse costs a few microseconds a request).
    if environ.get("CONTENT_TYPE") != JSON:
        mimetype = request.mimetype
        if mimetype != JSON and not (mimetype.startswith("application/") and
                                     mimetype.endswith("+json")):
            raise Problem("unsupported_media_type", "send the body as application/json")
        if request.mimetype_params.get("charset", "utf-8").lower() not in ("utf-8", "utf8"):
            raise Problem("unsupported_media_type", "send the body as UTF-8 JSON")
    return where.checks.body(kind, read_limited(environ, where.max_body), where.max_depth,
                             game_id)


# The transfer codings a body is read through: the chunks' framing, which the server removes,
# and `identity`, no coding at all.
READ_TRANSFER_CODINGS = ("chunked", "identity")


def read_limited(environ: dict[str, Any], limit: int) -> bytes:
    """The body, refused past `limit` bytes. With a Content-Length, an oversized body is
    refused before it is read, and the body is read from the WSGI input at once (Werkzeug's
    request stream costs about 15 µs a request); a chunked body has none, so it is read up to
    one byte past the limit and refused if that byte comes.

    A body coded otherwise is refused unread: a transfer coding besides `chunked` and the
    `identity` that changes nothing (gunicorn passes `gzip`, `deflate` and `compress` on
    without decoding them, and refuses the others itself with the same problem), and any
    content coding (RFC 9110, 8.4.1: the body is JSON as it is sent, or it is not read)."""
    transfer = environ.get("HTTP_TRANSFER_ENCODING")
    if transfer is not None and any(coding.strip(" \t").lower() not in READ_TRANSFER_CODINGS
                                    for coding in transfer.split(",")):
        raise Problem("unsupported_transfer_coding", f"the transfer coding {transfer!r} is "
                      "not decoded here: send the body with chunked framing alone")
    content = environ.get("HTTP_CONTENT_ENCODING", "").strip().lower()
    if content not in ("", "identity"):
        raise Problem("unsupported_media_type", f"the content coding {content!r} is not "
                      "decoded here: send the JSON body as it is")
    length = environ.get("CONTENT_LENGTH")
    if (length and length.isascii() and length.isdigit()
            and "HTTP_TRANSFER_ENCODING" not in environ):
        size = int(length)
        if size > limit:
            raise Problem("payload_too_large", f"the body is larger than {limit} bytes")
        raw = read_body(environ["wsgi.input"].read, size)
        if len(raw) != size:
            raise ClientDisconnected()  # what Werkzeug's stream says of a body cut short
        return raw
    if request.content_length is not None:
        return read_body(lambda _: request.get_data(cache=False), size=-1)
    raw = read_body(environ["wsgi.input"].read, limit + 1)
    if len(raw) > limit:
        raise Problem("payload_too_large", f"the body is larger than {limit} bytes")
    return raw


def read_body(read: Callable[[int], bytes], size: int) -> bytes:
    """Up to `size` bytes of the request's body by `read`. The server's reader raises when
    the body's framing is broken (a chunk size that is no number, a chunk without its end):
    the client's mistake, answered as `malformed_request` rather than as the referee's
    failure. Werkzeug's own refusals (a body cut short, past the limit) go on as they are."""
    try:
        return read(size)
    except HTTPException:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever the server's reader refuses
        raise Problem("malformed_request", "the body could not be read: "
                      f"{type(exc).__name__}") from None
