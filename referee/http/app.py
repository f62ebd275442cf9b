"""The Flask application factory: the settings, the routes (referee.http.routes), the error
handler that turns every refusal into a problem response, the browser (CORS) rules, caching,
observability, the move endpoint's fast path (referee.http.direct) and the requests'
deadline (referee.http.deadline)."""

from __future__ import annotations

import logging
import time
from typing import Any, Callable

from flask import Flask, Response, current_app, request
from flask_cors import CORS
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from referee.core import tables
from referee.core.errors import RefereeError
from referee.games import REGISTRY

from . import caching, explorer, observability, settings, verifier
from .deadline import Deadlines
from .context import Served
from .direct import DirectMoves
from .problems import from_referee_error, problem_response
from .routes import BLUEPRINTS, BROWSER_ROUTES

log = logging.getLogger("referee")


class RefereeFlask(Flask):
    """Flask, asking once per view or hook whether it is a coroutine function rather than on
    every call (`inspect` costs about 2 µs a question, and a move request asks four times),
    and serving each request within its deadline (the outermost layer, around `wsgi_app`)."""

    deadlines: Deadlines | None = None

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Any:
        if self.deadlines is None:
            return self.wsgi_app(environ, start_response)
        return self.deadlines(environ, start_response)

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
    conf["RESULT_KEYS"] = settings.result_keys(conf.get("RESULT_KEYS", ""))
    conf["CORS_ORIGINS"] = settings.cors_origins(conf.get("CORS_ORIGINS", ""))
    app.config.update(conf)
    tables.keep_tables_in(conf["TABLE_CACHE"])
    app.config["MAX_CONTENT_LENGTH"] = conf["MAX_BODY_BYTES"]
    # Only the methods the contract names are answered; OPTIONS is a documented 405 too.
    app.config["PROVIDE_AUTOMATIC_OPTIONS"] = False
    app.extensions["referee"] = Served(conf, conf.get("GAMES", REGISTRY),
                                       conf.get("CLOCK", time.time))
    for blueprint in (*BLUEPRINTS, explorer.blueprint, verifier.blueprint):
        app.register_blueprint(blueprint)
    app.register_error_handler(Exception, _handle_error)
    if conf["CORS_ORIGINS"]:
        _allow_browsers(app, conf["CORS_ORIGINS"])
    caching.install(app, conf)
    recorder = observability.install(app, frozenset(app.extensions["referee"].games),
                                     conf["REQUEST_LOG"])
    observability.configure_logging(conf["LOG_LEVEL"])
    app.wsgi_app = DirectMoves(app, recorder)  # type: ignore[method-assign]
    if conf["REQUEST_DEADLINE"]:
        app.deadlines = Deadlines(app.wsgi_app, conf["REQUEST_DEADLINE"])
    return app


PREFLIGHT_MAX_AGE = 600  # seconds a browser may reuse a preflight's answer


def _allow_browsers(app: Flask, origins: list[str]) -> None:
    """Cross-origin calls from the listed web origins (flask-cors writes the headers, on
    problem answers too) to the browser routes (the catalogue, and what a seat token may
    ask). A browser asks first with a preflight OPTIONS: it is answered for those routes
    only, everywhere else OPTIONS stays a 405 as without CORS.

    Whether an answer of those routes carries `Access-Control-Allow-Origin`, and which, depends
    on the request's `Origin`, with one origin listed as with several: each such answer says
    `Vary: Origin`, or a shared cache could hand one page's answer (the catalogue is public
    for five minutes) to another page, or a page the answer another caller got without CORS.
    The hook is registered before flask-cors's, so that it runs after it (Flask runs the
    after-request hooks last-registered first) and merges every `Vary` into one header."""

    @app.after_request
    def _vary_on_origin(response: Response) -> Response:
        if BROWSER_ROUTES.fullmatch(request.path):
            caching.vary_on(response, "Origin")
        return response

    CORS(app, resources={BROWSER_ROUTES: {"origins": origins}}, methods=["GET", "POST"],
         allow_headers=["Content-Type", "X-Request-ID", "traceparent"],
         expose_headers=["X-Request-ID", "ETag"], max_age=PREFLIGHT_MAX_AGE)

    @app.before_request
    def _preflight():
        if (request.method == "OPTIONS" and BROWSER_ROUTES.fullmatch(request.path)
                and "Access-Control-Request-Method" in request.headers):
            return Response(status=204)
        return None


def _handle_error(error: Exception) -> Response:
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
