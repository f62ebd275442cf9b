"""gunicorn's workers, answering the requests gunicorn itself refuses as problems.

gunicorn refuses what it cannot parse before the application sees it (a bad request line,
method or version, a bad or doubled Content-Length, Content-Length beside Transfer-Encoding,
a request line too long, too many or too large header fields...) and writes its own
`text/html` page. Here each refusal is an `application/problem+json` answer with a stable
code, the status gunicorn chose, and gunicorn's one warning line and access-log line. The
worker classes are named in gunicorn.conf.py; the application never imports this module.
"""

from __future__ import annotations

import ssl
from datetime import datetime
from typing import Any

import msgspec
from gunicorn import util
from gunicorn.http.wsgi import Response, default_environ
from gunicorn.workers.gthread import ThreadWorker
from gunicorn.workers.sync import SyncWorker

from .deadline import DeadlineExceeded
from .problems import MEDIA_TYPE, problem

# gunicorn's parse errors (gunicorn.http.errors, by class name: some exist only in later
# releases), each with its answer's status, reason phrase and problem code. The first class
# of an error's MRO found here decides: a response header the application wrote is the
# application's fault, not the client's, although its class derives from a request's.
FAILED = (500, "Internal Server Error", "internal_error")
MALFORMED = (400, "Bad Request", "malformed_request")
FORBIDDEN = (403, "Forbidden", "request_forbidden")
REFUSALS: dict[str, tuple[int, str, str]] = {
    **dict.fromkeys(("InvalidResponseHeader", "InvalidResponseHeaderName",
                     "ConfigurationProblem"), FAILED),
    **dict.fromkeys(("InvalidRequestLine", "InvalidRequestMethod", "InvalidHTTPVersion",
                     "InvalidHeader", "InvalidHeaderName", "ObsoleteFolding",
                     "InvalidSchemeHeaders", "InvalidChunkSize", "ChunkMissingTerminator",
                     "InvalidChunkExtension", "InvalidH2CPreface", "InvalidProxyLine",
                     "InvalidProxyHeader"), MALFORMED),
    "ForbiddenProxyRequest": FORBIDDEN,
    "LimitRequestLine": (414, "URI Too Long", "uri_too_long"),
    "ExpectationFailed": (417, "Expectation Failed", "expectation_failed"),
    "LimitRequestHeaders": (431, "Request Header Fields Too Large", "headers_too_large"),
    "UnsupportedTransferCoding": (501, "Not Implemented", "unsupported_transfer_coding"),
}
STOPPED = (503, "Service Unavailable", "deadline_exceeded")
# What of gunicorn's message the detail keeps: it may quote the request line.
MAX_DETAIL = 200


def refusal(exc: BaseException) -> tuple[int, str, str] | None:
    """The status, reason and code gunicorn's refusal `exc` is answered with; None when it is
    no refusal of gunicorn's (a failure)."""
    for cls in type(exc).__mro__:
        if cls.__module__ == "gunicorn.http.errors" and cls.__name__ in REFUSALS:
            return REFUSALS[cls.__name__]
    if isinstance(exc, ssl.SSLError):
        return FORBIDDEN
    if isinstance(exc, DeadlineExceeded):  # stopped just as the application answered
        return STOPPED
    return None


def answer_bytes(status: int, reason: str, body: bytes) -> bytes:
    """The whole HTTP answer of a problem, the connection closed (gunicorn cannot tell where
    the next request would begin)."""
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: {MEDIA_TYPE}\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


class ProblemAnswers:
    """gunicorn's `Worker.handle_error`, the one place its refusals and failures outside the
    application are answered, writing a problem instead of an HTML page. It logs as gunicorn
    does: a refusal is one warning line (the client's mistake), a failure an error with its
    stack trace; and both get their access-log line."""

    log: Any
    cfg: Any

    def handle_error(self, req, client, addr, exc) -> None:
        started = datetime.now()
        addr = addr or ("", -1)  # a unix socket has no address
        answer = refusal(exc)
        if answer is not None and answer[2] != "internal_error":
            self.log.warning("Invalid request from ip=%s: %s", addr[0], exc)
            detail = str(exc) or answer[1]
            parsed = getattr(exc, "req", None)  # a header's error carries its request...
            if req is None and hasattr(parsed, "headers"):  # ...a request line's, the text
                req = parsed  # for the access log
        else:
            what = " ".join(str(part) for part in (getattr(req, "method", None),
                                                  getattr(req, "uri", None)) if part)
            self.log.exception("Error handling request %s", what or "(no URI read)")
            answer = answer or FAILED
            detail = "the server failed on this request; nothing was stored or changed"
        status, reason, code = answer
        body = msgspec.json.encode(problem(code, detail[:MAX_DETAIL]))
        try:
            util.write_nonblock(client, answer_bytes(status, reason, body))
        except Exception:  # noqa: BLE001 - the client may be gone; nothing more to tell it
            self.log.debug("Failed to send error message.")
        if req is not None:
            environ = default_environ(req, client, self.cfg)
            environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = addr[0], str(addr[1])
            response = Response(req, client, self.cfg)
            response.status = f"{status} {reason}"
            response.response_length = len(body)
            self.log.access(response, req, environ, datetime.now() - started)


class ProblemThreadWorker(ProblemAnswers, ThreadWorker):
    """gunicorn's gthread worker, its own refusals answered as problems."""


class ProblemSyncWorker(ProblemAnswers, SyncWorker):
    """gunicorn's sync worker, its own refusals answered as problems."""
