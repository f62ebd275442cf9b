"""What an operator watches the referee with: request ids, metrics and one JSON log line per
request.

- Request ids: an incoming `X-Request-ID` (a short token) is kept; else the trace id of a W3C
  `traceparent`; else a fresh random one. It is answered in `X-Request-ID` (and a received
  `traceparent` is answered as it came), and written in every log line of the request.
- Metrics (referee.http.metrics): requests by route, game and status; problems by code;
  latency by route. The route is the rule (`/v1/games/<game_id>/moves`), never the raw path,
  and a game id outside the registry counts as `unknown`, so no client can grow the series.
- Logs: one JSON line per request on standard error (`RequestLog`), with the fields of the
  logging module's JSON lines (python-json-logger: `configure_logging`, gunicorn.conf.py),
  whose other lines (errors, gunicorn's own) are written as they come.
"""

from __future__ import annotations

import logging
import os
import random
import re
import select
import sys
import threading
import time
from collections import deque
from typing import Any, Callable, Container, NamedTuple

import msgspec
from flask import Flask, Response, g, request
from pythonjsonlogger.msgspec import MsgspecFormatter

from referee.core.memo import BoundedMemo

from . import background, metrics

REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
TRACEPARENT = re.compile(r"[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}")
NO_TRACE = "0" * 32
UNMATCHED = "unmatched"
# The fields of every JSON log line, renamed for readers (time, level, logger, message).
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
LOG_RENAMES = {"asctime": "time", "levelname": "level", "name": "logger"}

# The request lines are written by RequestLog, not through this logger's handlers; its level
# still says whether they are written (REFEREE_LOG_LEVEL: from WARNING up, none).
requests_log = logging.getLogger("referee.requests")
# How many request lines may wait for the flusher: past that, the request that adds one
# writes them itself, so memory stays bounded when standard error is not read (that request
# then waits, as it would for a line written at once).
MOST_PENDING = 10_000


def json_formatter() -> MsgspecFormatter:
    """The logging module's JSON lines (errors, and gunicorn's own lines: gunicorn.conf.py),
    by python-json-logger's msgspec formatter."""
    return MsgspecFormatter(LOG_FORMAT, rename_fields=LOG_RENAMES)


class RequestLine(msgspec.Struct, kw_only=True):
    """A request's log line: the four fields every JSON line has, then the request's."""

    time: str
    level: str = "INFO"
    logger: str = "referee.requests"
    message: str = "request"
    request_id: str
    method: str
    route: str
    game: str | None
    status: int
    code: str | None
    # Whole microseconds, in milliseconds: rounded to an integer of microseconds, which costs
    # next to nothing, rather than to three decimals of milliseconds (`round(x, 3)` goes
    # through the number's decimal digits, a microsecond of a request); the same digits.
    duration_ms: float


ENCODER = msgspec.json.Encoder()


class RequestLog:
    """This process's request lines, on standard error. A request queues its line (the
    time's text is made once a second); the background flusher (referee.http.background)
    encodes the queue in one msgspec call and writes it every second and at exit. A request
    thus pays neither the logging module's record, formatter and handler lock nor a system
    call, and never waits on the stream (docs/PERFORMANCE.md has the instructions a line
    costs, either way)."""

    def __init__(self, fd: int = 2):
        self.fd = fd
        self.forget()
        # A forked child's queue starts empty: the parent's queued lines are the parent's.
        os.register_at_fork(after_in_child=self.forget)

    def forget(self) -> None:
        self.pending: deque[RequestLine] = deque()
        self.writing = threading.Lock()
        self.clock: tuple[int, str] = (0, "")

    def write(self, line: RequestLine) -> None:
        """Queue `line`. Until the flusher runs, or when MOST_PENDING lines wait (standard
        error not read), the request writes them itself, so memory stays bounded."""
        self.pending.append(line)
        if not background.FLUSHER.running or len(self.pending) > MOST_PENDING:
            self.flush()

    def flush(self) -> None:
        """Write every queued line, in writes of whole lines of at most PIPE_BUF bytes: such
        a write to a pipe is never interleaved with another process's (the workers share
        standard error)."""
        with self.writing:
            lines = ENCODER.encode_lines([self.pending.popleft()
                                          for _ in range(len(self.pending))])
            start = 0
            while start < len(lines):
                # The last line end within PIPE_BUF bytes (a longer line goes alone).
                end = (lines.rfind(b"\n", start, start + select.PIPE_BUF) + 1
                       or lines.index(b"\n", start) + 1)
                self.write_all(lines[start:end])
                start = end

    def write_all(self, data: bytes) -> None:
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError:
            pass  # standard error is gone: there is nowhere left to say so

    def now(self) -> str:
        """The time as the logging module writes `asctime` (local, milliseconds after a
        comma)."""
        now = time.time()
        second, text = self.clock
        if int(now) != second:
            second = int(now)
            text = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(second))
            self.clock = (second, text)
        return f"{text},{int((now - second) * 1000):03d}"


REQUEST_LOG = RequestLog()
background.FLUSHER.add(REQUEST_LOG.flush)


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
    return getattr(g, "request_id", None) or _fresh_id()


def _fresh_id() -> str:
    """128 random bits in hex. An id only tells requests apart, it guards nothing, so it
    comes from the random module (reseeded in every forked worker) rather than a system call
    per request."""
    return f"{random.getrandbits(128):032x}"


def incoming_id(environ: dict[str, Any]) -> tuple[str, str | None]:
    """The request's id and the traceparent to answer, if any. Read from the WSGI environ,
    where request.headers would find them, without building the headers' view."""
    given = environ.get("HTTP_X_REQUEST_ID")
    if given and REQUEST_ID.fullmatch(given):
        return given, None
    parent = environ.get("HTTP_TRACEPARENT")
    if parent:  # most requests carry none: nothing to read then
        parent = parent.strip().lower()
        trace = TRACEPARENT.fullmatch(parent)
        # Version ff and an all-zero trace id are invalid (W3C Trace Context).
        if trace and trace.group(1) != NO_TRACE and not parent.startswith("ff"):
            return trace.group(1), parent
    return _fresh_id(), None


def _start() -> None:
    state = g._get_current_object()
    state.started = time.perf_counter()
    state.request_id, state.traceparent = incoming_id(request.environ)


class Counted(NamedTuple):
    """The metrics' children that count the requests of one route, game and status."""

    requests: Any
    latency: Any

    @classmethod
    def of(cls, key: tuple[str, str, int]) -> Counted:
        route, game, status = key
        return cls(metrics.REQUESTS.labels(route, game, str(status)),
                   metrics.LATENCY.labels(route))


class Recorder:
    """What every answered request leaves: its count, latency and problem code in the
    metrics, and its log line. `games` are the registered ids (any other id is counted as
    `unknown`); `log_requests` writes the line per request."""

    def __init__(self, games: Container[str], log_requests: bool):
        self.games = games
        self.log_requests = log_requests
        # The labelled children of the per-request metrics, by route, game and status, and
        # of the problems, by code: prometheus-client's `labels()` costs a few microseconds a
        # call.
        self.counted: BoundedMemo[tuple[str, str, int], Counted] = BoundedMemo(4096)
        self.problems: BoundedMemo[str, Any] = BoundedMemo(256)

    def game_label(self, game_id: str | None) -> str:
        if game_id is None:
            return ""
        return game_id if game_id in self.games else "unknown"

    def record(self, method: str, route: str, game: str, status: int, code: str | None,
               elapsed: float, request_id: str) -> None:
        counted = self.counted.get((route, game, status), Counted.of)
        counted.requests.inc()
        counted.latency.observe(elapsed)
        if code:
            self.problems.get(code, metrics.PROBLEMS.labels).inc()
        if self.log_requests and requests_log.isEnabledFor(logging.INFO):
            REQUEST_LOG.write(RequestLine(
                time=REQUEST_LOG.now(), request_id=request_id, method=method, route=route,
                game=game or None, status=status, code=code,
                duration_ms=round(elapsed * 1_000_000) / 1000))


def _finisher(recorder: Recorder) -> Callable[[Response], Response]:
    def finish(response: Response) -> Response:
        state = g._get_current_object()
        now = time.perf_counter()
        elapsed = now - getattr(state, "started", now)
        req = request._get_current_object()
        if getattr(state, "request_id", None) is None:
            state.request_id, state.traceparent = incoming_id(req.environ)
        rule = req.url_rule
        route = rule.rule if rule is not None else UNMATCHED
        view_args = req.view_args
        game = recorder.game_label(view_args.get("game_id") if view_args else None)
        recorder.record(req.method, route, game, response.status_code,
                        getattr(response, "problem_code", None), elapsed, state.request_id)
        headers = response.headers
        headers["X-Request-ID"] = state.request_id
        if state.traceparent:
            headers["traceparent"] = state.traceparent
        return response

    return finish


def install(app: Flask, games: Container[str], log_requests: bool = True) -> Recorder:
    """Runs first before every request and last after it, with a `Recorder(games,
    log_requests)`, returned for the answers served outside Flask's dispatch."""
    recorder = Recorder(games, log_requests)
    background.FLUSHER.start()
    app.before_request_funcs.setdefault(None, []).insert(0, _start)
    # After-request functions run last-registered first: this one goes last, after any
    # compression, so the time counted is the whole answer's.
    app.after_request_funcs.setdefault(None, []).insert(0, _finisher(recorder))
    return recorder
