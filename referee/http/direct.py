"""The move and replay endpoints served straight from the WSGI call (the hot path), with
Flask for everything else."""

from __future__ import annotations

import io
import re
import time
from typing import Any, Callable

import msgspec
from flask import Flask, Response
from flask import g as flask_g
from werkzeug.exceptions import ClientDisconnected

from referee.core.wire import FIRST_VERSION, known_to, version

from . import caching, observability
from .context import JSON, Served, read_body
from .operations import OPERATIONS
from .problems import Problem

FIRST = version(FIRST_VERSION)
# The operations served straight from the WSGI call, by their path's segment, with the route
# their metrics and log line name: a move, the request of every turn of every match, and a
# replay, whose cost per move is the engine's. Both answer 200.
DIRECT = {op.segment: (op, op.rules()[0][0]) for op in OPERATIONS
          if op.segment in ("moves", "replays")}


class DirectMoves:
    """The move endpoint, the request of every turn of every match, and the replay endpoint,
    served straight from the WSGI call: Flask's request context, routing, hooks and response
    object cost about as much as the rest of a move, and three times what an empty replay
    costs. The answer is computed as the route computes it (the envelope's checks, then the
    declared operation's use case, `Referee.move` or `Referee.replay`) and carries what
    Flask's hooks would add (the Vary of the compression, the request id, the metrics and the log
    line); a test holds the two ways to the same bytes. Everything else goes to Flask:
    another path or method, a game not registered, a body whose checks are Werkzeug's (a
    media type other than plain application/json, no plain Content-Length, a body past the
    limit), a contract version named in a header, an answer large enough to be compressed
    for a client whose Accept-Encoding may choose a coding (`caching.may_compress`; one
    that accepts only `identity`, as Python's http.client says by default, is answered
    here), and every refusal or failure, which Flask's error handlers
    and hooks answer from the point reached (nothing is computed twice)."""

    PATH = re.compile(r"/v1/games/([^/]+)/(moves|replays)")

    def __init__(self, app: Flask, recorder: observability.Recorder):
        self.app = app
        self.flask = app.wsgi_app
        self.served: Served = app.extensions["referee"]
        self.recorder = recorder
        self.compress_from = app.config["COMPRESS_MIN_BYTES"]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        served = self.served
        path = self.PATH.fullmatch(environ.get("PATH_INFO", ""))
        length = environ.get("CONTENT_LENGTH")
        if (path is None or environ.get("REQUEST_METHOD") != "POST"
                or path.group(1) not in served.games or environ.get("CONTENT_TYPE") != JSON
                or not (length and length.isascii() and length.isdigit())
                or int(length) > served.max_body or "HTTP_TRANSFER_ENCODING" in environ
                or "HTTP_CONTENT_ENCODING" in environ
                or "HTTP_REFEREE_CONTRACT_VERSION" in environ):
            return self.flask(environ, start_response)
        started = time.perf_counter()
        size = int(length)
        engine = served.games[path.group(1)]
        op, route = DIRECT[path.group(2)]
        try:
            raw = read_body(environ["wsgi.input"].read, size)
        except Problem as unread:
            return self._through_flask(environ, start_response, started, b"", error=unread)
        try:
            if len(raw) != size:
                raise ClientDisconnected()  # what Werkzeug's stream says of a body cut short
            body = served.checks.body(op.request, raw, served.max_depth, engine.id)
            answer = op.run(served.service, engine, body)
            if op.answers_events:
                # The events as a caller naming no contract version reads them (as the route).
                answer["events"] = known_to(answer["events"], engine.event_types, FIRST)
            payload = msgspec.json.encode(answer)
        except Exception as error:  # noqa: BLE001 - answered by Flask's own handlers
            return self._through_flask(environ, start_response, started, raw, error=error)
        if (self.compress_from and len(payload) >= self.compress_from
                and caching.may_compress(environ.get("HTTP_ACCEPT_ENCODING", ""))):
            return self._through_flask(environ, start_response, started, raw, answer=payload)
        request_id, traceparent = observability.incoming_id(environ)
        headers = [("Content-Type", JSON), ("Content-Length", str(len(payload))),
                   ("Vary", "Accept-Encoding"), ("X-Request-ID", request_id)]
        if traceparent:
            headers.append(("traceparent", traceparent))
        self.recorder.record("POST", route, engine.id, 200, None,
                             time.perf_counter() - started, request_id)
        start_response("200 OK", headers)
        return [payload]

    def _through_flask(self, environ: dict[str, Any], start_response: Callable[..., Any],
                       started: float, body: bytes, *, error: Exception | None = None,
                       answer: bytes | None = None):
        """The rest of the request as Flask's dispatch would finish it: its before-request
        hooks, then the error's handler (or the answer computed), then the after-request
        hooks (compression, request id, metrics, log line). `body` is what was read of the
        request's body, which whatever Flask sees of it reads from here."""
        environ["wsgi.input"] = io.BytesIO(body)
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
