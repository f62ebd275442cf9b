"""What an operator watches the referee with: request ids, metrics and one JSON log line per
request.

- Request ids: an incoming `X-Request-ID` (a short token) is kept; else the trace id of a W3C
  `traceparent`; else a fresh random one. It is answered in `X-Request-ID` (and a received
  `traceparent` is answered as it came), and written in every log line of the request.
- Metrics (referee.http.metrics): requests by route, game and status; problems by code;
  latency by route. The route is the rule (`/v1/games/<game_id>/moves`), never the raw path,
  and a game id outside the registry counts as `unknown`, so no client can grow the series.
- Logs: one line per request on the `referee.requests` logger, in JSON through
  python-json-logger (see `configure_logging` and gunicorn.conf.py).
"""

from __future__ import annotations

import logging
import os
import re
import sys
import time

from flask import Flask, Response, g, request
from pythonjsonlogger.json import JsonFormatter

from . import metrics

REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
TRACEPARENT = re.compile(r"[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}")
NO_TRACE = "0" * 32
UNMATCHED = "unmatched"
# The fields of every JSON log line, renamed for readers (time, level, logger, message).
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
LOG_RENAMES = {"asctime": "time", "levelname": "level", "name": "logger"}

requests_log = logging.getLogger("referee.requests")


def json_formatter() -> JsonFormatter:
    return JsonFormatter(LOG_FORMAT, rename_fields=LOG_RENAMES)


def configure_logging(level: str) -> None:
    """JSON lines on standard error, unless logging is already set up (gunicorn.conf.py sets
    the same shape for gunicorn's lines and the referee's; pytest captures its own)."""
    root = logging.getLogger()
    if root.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(json_formatter())
    root.addHandler(handler)
    root.setLevel(level)


def request_id() -> str:
    """This request's id (a fresh one outside a request's hooks)."""
    return getattr(g, "request_id", None) or os.urandom(16).hex()


def _incoming_id() -> tuple[str, str | None]:
    given = request.headers.get("X-Request-ID")
    if given and REQUEST_ID.fullmatch(given):
        return given, None
    parent = request.headers.get("traceparent")
    trace = TRACEPARENT.fullmatch(parent.strip().lower()) if parent else None
    if trace and trace.group(1) != NO_TRACE and not parent.startswith("ff"):
        return trace.group(1), parent
    return os.urandom(16).hex(), None


def _start() -> None:
    g.started = time.perf_counter()
    g.request_id, g.traceparent = _incoming_id()


def _finish(response: Response) -> Response:
    elapsed = time.perf_counter() - g.get("started", time.perf_counter())
    if "request_id" not in g:
        g.request_id, g.traceparent = _incoming_id()
    rule = request.url_rule
    route = rule.rule if rule is not None else UNMATCHED
    game = ""
    if request.view_args and "game_id" in request.view_args:
        game = request.view_args["game_id"]
        if game not in _games():
            game = "unknown"
    status = response.status_code
    code = getattr(response, "problem_code", None)
    metrics.REQUESTS.labels(route, game, str(status)).inc()
    metrics.LATENCY.labels(route).observe(elapsed)
    if code:
        metrics.PROBLEMS.labels(code).inc()
    response.headers["X-Request-ID"] = g.request_id
    if g.traceparent:
        response.headers["traceparent"] = g.traceparent
    if requests_log.isEnabledFor(logging.INFO):
        requests_log.info("request", extra={
            "request_id": g.request_id, "method": request.method, "route": route,
            "game": game or None, "status": status, "code": code,
            "duration_ms": round(elapsed * 1000, 3)})
    return response


def _games():
    from flask import current_app
    return current_app.extensions["referee"].games


def install(app: Flask) -> None:
    """Runs first before every request and last after it."""
    app.before_request_funcs.setdefault(None, []).insert(0, _start)
    # After-request functions run last-registered first: this one goes last, after any
    # compression, so the time counted is the whole answer's.
    app.after_request_funcs.setdefault(None, []).insert(0, _finish)
