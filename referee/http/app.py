"""The Flask application factory and the v1 routes."""

from __future__ import annotations

import functools
import io
import logging
import re
import time
from typing import Any, Callable

import msgspec
from flask import Blueprint, Flask, Response, current_app, request
from flask import g as flask_g
from flask_cors import CORS
from marshmallow import ValidationError
from werkzeug.exceptions import ClientDisconnected, HTTPException, RequestEntityTooLarge

from referee.core import contributions, rng
from referee.core.contributions import Contribution, Fairness
from referee.core.engine import Engine
from referee.core.errors import RefereeError
from referee.core.hints import Seating
from referee.core.outcome import progress
from referee.games import REGISTRY

from . import caching, contract, explorer, metrics, observability, settings, verifier
from .codec import (Match, StateCodec, contributed, hint, outcome, parse_json, player_view,
                    verdict, wire_state_schema)
from .problems import Problem, from_referee_error, problem_response
from .schemas import (envelope_schemas, envelope_structs, load_move, move_schemas,
                      move_structs, typed_load)
from .sealing import Sealer

JSON = "application/json"
MOVES_RULE = "/v1/games/<game_id>/moves"

log = logging.getLogger("referee")
v1 = Blueprint("v1", __name__, url_prefix="/v1")
meta = Blueprint("meta", __name__)


class Referee:
    """What the routes share, built once per application."""

    def __init__(self, config: dict[str, Any], games: dict[str, Engine],
                 clock: Callable[[], float]):
        keys = config["STATE_KEYS"]
        self.codec = StateCodec(Sealer(keys) if keys else None)
        self.games = games
        self.clock = clock
        self.max_depth = config["MAX_JSON_DEPTH"]
        self.max_body = config["MAX_BODY_BYTES"]
        max_id, max_items = config["MAX_PLAYER_ID_LENGTH"], config["MAX_LIST_ITEMS"]
        self.envelopes = envelope_schemas(max_id, max_items)
        self.moves = {gid: move_schemas(engine, max_id, max_items)
                      for gid, engine in games.items()}
        # The hot path's typed decoders; what they refuse goes on to the schemas above.
        self.typed_envelopes = envelope_structs(max_id)
        self.typed_moves = {gid: move_structs(engine, max_id, max_items)
                            for gid, engine in games.items()}
        self.catalog = {gid: _catalog_entry(engine) for gid, engine in games.items()}
        # The counter of each game's moves, looked up once (`labels()` costs microseconds).
        self.moves_applied = {gid: metrics.MOVES.labels(gid) for gid in games}
        self.details = {gid: {**self.catalog[gid],
                              "move_types": [m.describe() for m in engine.move_types],
                              "state_schema": wire_state_schema(engine)}
                        for gid, engine in games.items()}
        self.max_id, self.max_items = max_id, max_items
        self.catalog_body = msgspec.json.encode({"games": list(self.catalog.values())})
        self.detail_bodies = {gid: msgspec.json.encode(detail)
                              for gid, detail in self.details.items()}
        self.etags = {body: caching.etag_of(body)
                      for body in (self.catalog_body, *self.detail_bodies.values())}

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
        return _contract_text(tuple(self.games.items()), self.max_id, self.max_items)


@functools.lru_cache(maxsize=8)
def _contract_text(games: tuple[tuple[str, Engine], ...], max_id: int, max_items: int) -> bytes:
    document = contract.generate(dict(games), {"MAX_PLAYER_ID_LENGTH": max_id,
                                               "MAX_LIST_ITEMS": max_items})
    return contract.to_yaml(document).encode("utf-8")


class RefereeFlask(Flask):
    """Flask, asking once per view or hook whether it is a coroutine function rather than on
    every call (`inspect` costs about 2 µs a question, and a move request asks four times)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        known = self._sync.get(func)
        if known is None:
            known = super().ensure_sync(func)
            if len(self._sync) < 1024:  # views, hooks and handlers: a fixed few
                self._sync[func] = known
        return known


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = RefereeFlask(__name__)
    conf = settings.from_environment()
    conf.update(config or {})
    conf["STATE_KEYS"] = settings.state_keys(conf["STATE_KEYS"])
    conf["CORS_ORIGINS"] = settings.cors_origins(conf.get("CORS_ORIGINS", ""))
    app.config.update(conf)
    app.config["MAX_CONTENT_LENGTH"] = conf["MAX_BODY_BYTES"]
    # Only the methods the contract names are answered; OPTIONS is a documented 405 too.
    app.config["PROVIDE_AUTOMATIC_OPTIONS"] = False
    app.extensions["referee"] = Referee(conf, conf.get("GAMES", REGISTRY),
                                        conf.get("CLOCK", time.time))
    app.register_blueprint(v1)
    app.register_blueprint(meta)
    app.register_blueprint(explorer.blueprint)
    app.register_blueprint(verifier.blueprint)
    from .pictures import blueprint as pictures  # its routes use this module's helpers
    app.register_blueprint(pictures)
    app.register_error_handler(Exception, _handle_error)
    if conf["CORS_ORIGINS"]:
        _allow_browsers(app, conf["CORS_ORIGINS"])
    caching.install(app, conf)
    recorder = observability.install(app, frozenset(app.extensions["referee"].games),
                                     conf["REQUEST_LOG"])
    observability.configure_logging(conf["LOG_LEVEL"])
    app.wsgi_app = DirectMoves(app, recorder)  # type: ignore[method-assign]
    return app


# What a web page may call: the catalogue, and what a seat token may ask. Creation and moves
# stay with the game's back end, which holds the state token.
BROWSER_ROUTES = re.compile(
    r"/v1/games(/[^/]+(/(legal-moves|validations|views|hints|images/view))?)?\Z")


def _allow_browsers(app: Flask, origins: list[str]) -> None:
    """Cross-origin calls from the listed web origins (flask-cors writes the headers, on
    problem answers too). A browser asks first with a preflight OPTIONS: it is answered for
    the routes above only, everywhere else OPTIONS stays a 405 as without CORS."""
    CORS(app, resources={BROWSER_ROUTES: {"origins": origins}}, methods=["GET", "POST"],
         allow_headers=["Content-Type", "X-Request-ID", "traceparent"],
         expose_headers=["X-Request-ID", "ETag"], max_age=PREFLIGHT_MAX_AGE)

    @app.before_request
    def _preflight():
        if (request.method == "OPTIONS" and BROWSER_ROUTES.fullmatch(request.path)
                and "Access-Control-Request-Method" in request.headers):
            return Response(status=204)
        return None


PREFLIGHT_MAX_AGE = 600  # seconds a browser may reuse a preflight's answer


def _referee() -> Referee:
    return current_app.extensions["referee"]


def _json(body: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(body), status=status, content_type=JSON)


def _handle_error(error: Exception) -> Response:
    if isinstance(error, Problem):
        return problem_response(error.code, error.detail, **error.extra)
    if isinstance(error, RefereeError):
        return from_referee_error(error)
    if isinstance(error, ValidationError):
        return problem_response("validation_error", "the request does not have the expected "
                                "shape", errors=error.messages)
    if isinstance(error, RequestEntityTooLarge):
        limit = current_app.config["MAX_BODY_BYTES"]
        return problem_response("payload_too_large", f"the body is larger than {limit} bytes")
    if isinstance(error, HTTPException):
        code = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large",
                415: "unsupported_media_type"}.get(error.code or 0)
        if code is None:
            code = "validation_error" if (error.code or 500) < 500 else "internal_error"
        response = problem_response(code, error.description or code)
        if code == "method_not_allowed" and getattr(error, "valid_methods", None):
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response
    log.exception("unexpected error on %s %s", request.method, request.path,
                  extra={"request_id": observability.request_id()})
    return problem_response("internal_error", "the referee failed on this request; "
                            "nothing was stored or changed")


def _body(referee: Referee) -> Any:
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
    return parse_json(_read_limited(environ, referee.max_body), referee.max_depth)


def _read_limited(environ: dict[str, Any], limit: int) -> bytes:
    """The body, refused past `limit` bytes. With a Content-Length, an oversized body is
    refused before it is read, and the body is read from the WSGI input at once (Werkzeug's
    request stream costs about 15 µs a request); a chunked body has none, so it is read up to
    one byte past the limit and refused if that byte comes."""
    length = environ.get("CONTENT_LENGTH")
    if (length and length.isascii() and length.isdigit()
            and "HTTP_TRANSFER_ENCODING" not in environ):
        size = int(length)
        if size > limit:
            raise Problem("payload_too_large", f"the body is larger than {limit} bytes")
        raw = environ["wsgi.input"].read(size)
        if len(raw) != size:
            raise ClientDisconnected()  # what Werkzeug's stream says of a body cut short
        return raw
    if request.content_length is not None:
        return request.get_data(cache=False)
    raw = environ["wsgi.input"].read(limit + 1)
    if len(raw) > limit:
        raise Problem("payload_too_large", f"the body is larger than {limit} bytes")
    return raw


def _load(referee: Referee, schema_name: str) -> dict[str, Any]:
    return _checked(referee, schema_name, _body(referee))


def _checked(referee: Referee, schema_name: str, data: Any) -> dict[str, Any]:
    """A parsed body held to its envelope's schema."""
    if not isinstance(data, dict):
        raise Problem("validation_error", "the body must be a JSON object",
                      errors={"_body": ["Must be an object."]})
    if "seat_token" in data and schema_name not in SEAT_ENVELOPES:
        raise Problem("seat_token_not_allowed", "a seat token only asks about its seat (legal "
                      "moves, dry runs, views, hints): moves are posted by the game's back end "
                      "with the state token")
    typed = typed_load(referee.typed_envelopes.get(schema_name), data)
    return typed if typed is not None else referee.envelopes[schema_name].load(data)


# The requests a player's device may send with its seat token instead of the state.
SEAT_ENVELOPES = frozenset({"legal_moves", "validation", "view", "hint", "view_image"})


def _game(referee: Referee, game_id: str) -> Engine:
    engine = referee.games.get(game_id)
    if engine is None:
        raise Problem("unknown_game", f"no game {game_id!r}; see /v1/games")
    return engine


def _move(referee: Referee, game_id: str, move: dict[str, Any]) -> dict[str, Any]:
    kind = move.get("type")
    if type(kind) is str:
        typed = typed_load(referee.typed_moves[game_id].get(kind), move)
        if typed is not None:
            return typed
    try:
        return load_move(referee.moves[game_id], move)
    except ValidationError as exc:
        raise Problem("validation_error", "the move does not have the expected shape",
                      errors={"move": exc.messages}) from None


# -- catalogue ---------------------------------------------------------------------------------
def _catalog_entry(engine: Engine) -> dict[str, Any]:
    return {
        "id": engine.id,
        "name": engine.name,
        "summary": engine.summary,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "options": [o.describe() for o in engine.options],
    }


@v1.get("/games")
def list_games():
    referee = _referee()
    return caching.fixed(referee.catalog_body, JSON, referee.etags[referee.catalog_body])


@v1.get("/games/<game_id>")
def show_game(game_id: str):
    referee = _referee()
    _game(referee, game_id)
    body = referee.detail_bodies[game_id]
    return caching.fixed(body, JSON, referee.etags[body])


# -- matches and moves -------------------------------------------------------------------------
@v1.post("/games/<game_id>/matches")
def create_match(game_id: str):
    referee = _referee()
    engine = _game(referee, game_id)
    body = _load(referee, "create")
    players = tuple(body["players"])
    options = engine.resolve_options(body["options"])
    fewest, most = engine.player_range(options)
    if not fewest <= len(players) <= most:
        raise Problem("validation_error", f"{engine.name} takes {fewest} to {most} players "
                      f"with these options, not {len(players)}",
                      errors={"players": [f"Between {fewest} and {most} players."]})
    viewer = body.get("viewer")
    seating = Seating(bots=tuple(body["bots"]), hints_allowed=body["hints_allowed"])
    strangers = [bot for bot in seating.bots if bot not in players]
    if strangers:
        raise Problem("validation_error", f"{strangers[0]!r} is named a bot but is not a "
                      "player of this match", errors={"bots": ["Bots must be players."]})
    now = referee.clock()
    seed, fairness = _creation_seed(referee, engine, body, players)
    state = engine.new_match(players, options, seed, now=now)
    events = [{"type": "match_created", "players": list(players), "options": options},
              *engine.opening_events(state)]
    return _json(outcome(referee.codec, engine, Match(state, seating, fairness), events,
                         now=now, viewer=viewer, seat_ttl=body.get("seat_token_ttl")), 201)


def _creation_seed(referee: Referee, engine: Engine, body: dict[str, Any],
                   players: tuple[str, ...]) -> tuple[str, Fairness | None]:
    """The key the new match draws under, and what it was made of when seeds were
    contributed. Contributions need a server seed fixed before them (a seed token, or the
    caller's own seed): a seed drawn after seeing them could be drawn again and again until
    the deal suited the server."""
    if "seed_token" in body:
        seed = referee.codec.open_seed_token(engine, body["seed_token"])
    elif body["seed"] is None and body["contributions"]:
        raise Problem("seed_token_required", "seeds contributed at creation are mixed into "
                      f"a server seed committed before them: ask /v1/games/{engine.id}/seeds "
                      "for a seed token first and send it with them")
    else:
        seed = rng.normalise_seed(body["seed"])
    given = body["contributions"]
    if not given:
        return seed, None
    strangers = [c["player"] for c in given if c.get("player", players[0]) not in players]
    if strangers:
        raise Problem("validation_error", f"{strangers[0]!r} contributes a seed but is not a "
                      "player of this match", errors={"contributions": [
                          "A contribution names one of the players, or none (the back end)."]})
    fairness = Fairness(seed=seed, contributions=[
        Contribution(player=c.get("player"), seed=c["seed"], step=0) for c in given])
    return contributions.current_key(fairness), fairness


@v1.post("/games/<game_id>/seeds")
def new_seed(game_id: str):
    """A server seed drawn now and committed, for a match to be created later with seeds
    contributed by its players or its back end."""
    referee = _referee()
    engine = _game(referee, game_id)
    _load(referee, "seed")
    seed = rng.new_seed()
    return _json({"seed_commitment": rng.commitment(seed),
                  "seed_token": referee.codec.seed_token(engine, seed)}, 201)


@v1.post("/games/<game_id>/contributions")
def contribute(game_id: str):
    """A player adds his own seed before the first chance event that concerns him: every
    later step's stream is keyed on it too."""
    referee = _referee()
    engine = _game(referee, game_id)
    body = _load(referee, "contribute")
    match = referee.codec.load_match(engine, body["state"])
    player = body["player"]
    new_match = contributed(engine, match, player, body["seed"])
    added = new_match.fairness.contributions[-1]
    return _json({"state": referee.codec.dump(engine, new_match),
                  "seed_commitment": rng.commitment(match.server_seed),
                  "contribution": {"player": player, "step": added.step}})


def _with_state(game_id: str, schema_name: str, who: str | None = None, *,
                named: bool = False):
    """What every request about a match starts with: the referee, the game, the checked body,
    the decoded match (its state and seating) and, when the body names one (`who`), the
    player (or spectator) the answer is for. Anyone not seated is a spectator: he sees public
    information only and has no legal moves, so naming him can only ever reveal less.

    With a seat token instead of the state, the match is the one sealed in the token and the
    player is the token's seat, whoever the body names: naming another is `not_your_seat`."""
    referee = _referee()
    engine = _game(referee, game_id)
    body = _load(referee, schema_name)
    if "seat_token" in body:
        seat = referee.codec.load_seat(engine, body["seat_token"], now=referee.clock())
        other = body.get(who) if who else None
        if other is not None and other != seat.player:
            raise _not_your_seat(seat.player, f"{who} {other!r}")
        return referee, engine, body, seat.match, seat.player
    if named and who not in body:
        # With the state (from a back end) the body says whom the answer is for.
        raise Problem("validation_error", "the request does not have the expected shape",
                      errors={who: ["Missing data for required field."]})
    match = referee.codec.load_match(engine, body["state"])
    player = body.get(who) if who else None
    return referee, engine, body, match, player


def _not_your_seat(player: str, what: str) -> Problem:
    return Problem("not_your_seat", f"this seat token acts for {player!r} only, not for "
                   f"{what}")


@v1.post("/games/<game_id>/moves")
def post_move(game_id: str):
    referee = _referee()
    engine = _game(referee, game_id)
    return _json(_move_outcome(referee, engine, _body(referee)))


def _move_outcome(referee: Referee, engine: Engine, data: Any) -> dict[str, Any]:
    """The answer to a move, from the request's parsed body, however the request came in
    (through Flask's route, or straight from the WSGI call: see DirectMoves)."""
    body = _checked(referee, "move", data)  # a seat token is refused here
    match = referee.codec.load_match(engine, body["state"])
    move = _move(referee, engine.id, body["move"])
    now = referee.clock()
    new_state, events = engine.apply(match.state, move, now=now)
    referee.moves_applied[engine.id].inc()
    after = Match(new_state, match.seating, match.fairness)
    return outcome(referee.codec, engine, after, events, now=now, viewer=body.get("viewer"),
                   seat_ttl=body.get("seat_token_ttl"))


class DirectMoves:
    """The move endpoint, the request of every turn of every match, served straight from the
    WSGI call: Flask's request context, routing, hooks and response object cost about as much
    as the rest of a move. The answer is computed by the route's own function
    (`_move_outcome`) and carries what Flask's hooks would add (the Vary of the compression,
    the request id, the metrics and the log line); a test holds the two ways to the same
    bytes. Everything else goes to Flask: another path or method, a game not registered, a
    body whose checks are Werkzeug's (a media type other than plain application/json, no
    plain Content-Length, a body past the limit), an answer large enough to be compressed
    for a client that accepts it, and every refusal or failure, which Flask's error handlers
    and hooks answer from the point reached (nothing is computed twice)."""

    PATH = re.compile(r"/v1/games/([^/]+)/moves")

    def __init__(self, app: Flask, recorder: observability.Recorder):
        self.app = app
        self.flask = app.wsgi_app
        self.referee: Referee = app.extensions["referee"]
        self.recorder = recorder
        self.compress_from = app.config["COMPRESS_MIN_BYTES"]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        referee = self.referee
        path = self.PATH.fullmatch(environ.get("PATH_INFO", ""))
        length = environ.get("CONTENT_LENGTH")
        if (path is None or environ.get("REQUEST_METHOD") != "POST"
                or path.group(1) not in referee.games or environ.get("CONTENT_TYPE") != JSON
                or not (length and length.isascii() and length.isdigit())
                or int(length) > referee.max_body or "HTTP_TRANSFER_ENCODING" in environ):
            return self.flask(environ, start_response)
        started = time.perf_counter()
        size = int(length)
        raw = environ["wsgi.input"].read(size)
        # Whatever Flask sees of this request reads the body from here.
        environ["wsgi.input"] = io.BytesIO(raw)
        engine = referee.games[path.group(1)]
        try:
            if len(raw) != size:
                raise ClientDisconnected()  # what Werkzeug's stream says of a body cut short
            answer = _move_outcome(referee, engine, parse_json(raw, referee.max_depth))
            payload = msgspec.json.encode(answer)
        except Exception as error:  # noqa: BLE001 - answered by Flask's own handlers
            return self._through_flask(environ, start_response, started, error=error)
        if (self.compress_from and len(payload) >= self.compress_from
                and "HTTP_ACCEPT_ENCODING" in environ):
            return self._through_flask(environ, start_response, started, answer=payload)
        request_id, traceparent = observability.incoming_id(environ)
        headers = [("Content-Type", JSON), ("Content-Length", str(len(payload))),
                   ("Vary", "Accept-Encoding"), ("X-Request-ID", request_id)]
        if traceparent:
            headers.append(("traceparent", traceparent))
        self.recorder.record("POST", MOVES_RULE, engine.id, 200, None,
                             time.perf_counter() - started, request_id)
        start_response("200 OK", headers)
        return [payload]

    def _through_flask(self, environ: dict[str, Any], start_response: Callable[..., Any],
                       started: float, *, error: Exception | None = None,
                       answer: bytes | None = None):
        """The rest of the request as Flask's dispatch would finish it: its before-request
        hooks, then the error's handler (or the answer computed), then the after-request
        hooks (compression, request id, metrics, log line)."""
        app = self.app
        with app.request_context(environ):
            try:
                try:
                    response = app.preprocess_request()
                    flask_g.started = started
                    if response is None:
                        if error is not None:
                            raise error
                        response = Response(answer, content_type=JSON)
                except Exception as caught:  # noqa: BLE001 - as Flask's full_dispatch_request
                    response = app.handle_user_exception(caught)
                response = app.finalize_request(response)
            except Exception as failure:  # noqa: BLE001 - as Flask's wsgi_app
                response = app.handle_exception(failure)
            return response(environ, start_response)


@v1.post("/games/<game_id>/legal-moves")
def legal_moves(game_id: str):
    referee, engine, _, match, player = _with_state(game_id, "legal_moves", "player")
    return _json(progress(engine, match.state, now=referee.clock(), player=player))


@v1.post("/games/<game_id>/validations")
def validate_move(game_id: str):
    referee, engine, body, match, seat = _with_state(game_id, "validation")
    # With a seat token, `seat` is its player: he may dry-run his own moves only.
    if seat is not None:
        mover = body["move"].get("player")
        if mover != seat:
            raise _not_your_seat(seat, f"a move of {mover!r}")
    return _json(verdict(engine, referee.moves[game_id], match.state, body["move"],
                         now=referee.clock()))


@v1.post("/games/<game_id>/views")
def show_view(game_id: str):
    referee, engine, body, match, player = _with_state(game_id, "view", "player", named=True)
    now = referee.clock()
    answer = player_view(engine, match.state, player, now=now)
    if "state" in body:
        token = referee.codec.seat_token(engine, match, player, now=now,
                                         ttl=body.get("seat_token_ttl"))
        if token is not None:
            answer["seat_token"] = token
    return _json(answer)


@v1.post("/games/<game_id>/hints")
def ask_hint(game_id: str):
    referee, engine, body, match, player = _with_state(game_id, "hint", "player", named=True)
    if not engine.hint_levels:
        raise Problem("not_found", f"{engine.name} gives no hints")
    return _json(hint(engine, match, player, body["level"], now=referee.clock()))


# -- service endpoints -------------------------------------------------------------------------
@meta.get("/healthz")
def healthz():
    """Liveness: the process answers. Nothing here may fail but the process itself."""
    return _json({"status": "ok", "games": sorted(_referee().games)})


@meta.get("/readyz")
def readyz():
    """Readiness: the engines are registered, the contract is generated and, in sealed mode,
    every configured key seals and opens a probe."""
    checks = _referee().readiness()
    if all(checks.values()):
        return _json({"status": "ready", "checks": checks})
    failing = sorted(name for name, ok in checks.items() if not ok)
    raise Problem("not_ready", f"not ready: {', '.join(failing)}", checks=checks)


@meta.get("/metrics")
def metrics_exposition():
    body, content_type = metrics.exposition()
    return Response(body, content_type=content_type)


@meta.get("/openapi.yaml")
def openapi_document():
    referee = _referee()
    return caching.fixed(referee.contract, "application/yaml", referee.contract_etag)
