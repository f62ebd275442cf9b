"""The routes: the catalogue, every declared operation (referee.http.operations) and the
service's own endpoints (health, readiness, metrics, the contract). A route reads the game
and the checked envelope, runs the operation's use case and writes its answer; every refusal
becomes a problem response in the application's error handler."""

from __future__ import annotations

import re

from flask import Blueprint, Response, request

from referee.core import preparation
from referee.core.errors import NotPrepared
from referee.core.wire import FIRST_VERSION, VERSION_PATTERN, known_to, version
from referee.service.preparer import RETRY_AFTER

from . import caching, metrics
from .context import JSON, json_response, load, served
from .operations import CONTRACT_VERSION, OPERATIONS, SVG, Operation
from .problems import Problem

# An SVG opened on its own is a document: it may run nothing and load nothing.
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"

v1 = Blueprint("v1", __name__, url_prefix="/v1")
operations = Blueprint("operations", __name__)
meta = Blueprint("meta", __name__)

# What a web page may call: the catalogue, and what a seat token may ask. Creation and moves
# stay with the game's back end, which holds the state token.
BROWSER_ROUTES = re.compile(
    r"/v1/games(/[^/]+(/("
    + "|".join(re.escape(op.segment) for op in OPERATIONS
               if op.by_seat and op.games is None)
    + r"))?)?\Z")


# -- catalogue ---------------------------------------------------------------------------------
@v1.get("/games")
def list_games():
    where = served()
    return caching.fixed(where.catalog_body, JSON, where.etags[where.catalog_body])


@v1.get("/games/<game_id>")
def show_game(game_id: str):
    where = served()
    where.service.game(game_id)
    body = where.detail_bodies[game_id]
    return caching.fixed(body, JSON, where.etags[body])


# -- the declared operations -------------------------------------------------------------------
def _picture(body: str | bytes, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    if mimetype == SVG:
        response.headers["Content-Security-Policy"] = SVG_POLICY
    return response


def caller_version() -> tuple[int, ...]:
    """The contract version the request names in its header, else the first one."""
    named = request.headers.get(CONTRACT_VERSION, FIRST_VERSION)
    try:
        return version(named)
    except ValueError:
        raise Problem("validation_error", f"{CONTRACT_VERSION} is a version such as "
                      f"{FIRST_VERSION}", errors={CONTRACT_VERSION: [
                          f"Must match {VERSION_PATTERN}."]}) from None


def _view(op: Operation, fixed_game: str | None):
    """The view of `op` on the game its path names (or on `fixed_game`); an answer's events
    as the caller's contract version knows them."""
    def answer(game_id: str | None = None) -> Response:
        game_id = fixed_game or game_id
        where = served()
        engine = where.service.game(game_id)
        caller = caller_version() if op.answers_events else None
        try:
            with preparation.serving():
                result = op.run(where.service, engine, load(where, op.request, engine.id))
        except NotPrepared as missing:
            where.preparer.ask(missing)
            raise Problem("not_prepared", f"{missing.detail}: ask again in a few seconds",
                          retry_after=RETRY_AFTER) from None
        if caller is not None:
            result["events"] = known_to(result["events"], engine.event_types, caller)
        if op.media == JSON:
            return json_response(result, op.status)
        return _picture(result, op.media, op.filename.format(game_id=game_id))
    return answer


def _declare_operations() -> None:
    for op in OPERATIONS:
        for rule, game in op.rules():
            operations.add_url_rule(rule, op.endpoint + (f"_{game}" if game else ""),
                                    _view(op, game), methods=["POST"])


_declare_operations()


# -- service endpoints -------------------------------------------------------------------------
@meta.get("/healthz")
def healthz():
    """Liveness: the process answers. Nothing here may fail but the process itself."""
    return json_response({"status": "ok", "games": sorted(served().games)})


@meta.get("/readyz")
def readyz():
    """Readiness: the engines are registered, the contract is generated and, in sealed mode,
    every configured key seals and opens a probe; and the mode served, open or sealed."""
    where = served()
    checks = where.readiness()
    if all(checks.values()):
        mode = "open" if where.codec.sealer is None else "sealed"
        return json_response({"status": "ready", "mode": mode, "checks": checks})
    failing = sorted(name for name, ok in checks.items() if not ok)
    raise Problem("not_ready", f"not ready: {', '.join(failing)}", checks=checks)


@meta.get("/metrics")
def metrics_exposition():
    body, content_type = metrics.exposition()
    return Response(body, content_type=content_type)


@meta.get("/.well-known/jwks.json")
def published_keys():
    """The public keys that verify the referee's signed results (docs/RESULTS.md): a JWK Set,
    empty when results are not signed."""
    where = served()
    return caching.fixed(where.jwks_body, "application/jwk-set+json",
                         where.etags[where.jwks_body])


@meta.get("/openapi.yaml")
def openapi_document():
    where = served()
    return caching.fixed(where.contract, "application/yaml", where.contract_etag)


BLUEPRINTS: tuple[Blueprint, ...] = (v1, operations, meta)
