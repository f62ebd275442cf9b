"""Answers that change only with a new release (the catalogue, the contract, the API
explorer) carry an `ETag` and a `Cache-Control`, and a client that sends the ETag back in
`If-None-Match` gets `304 Not Modified` without the body. Large answers are gzipped when the
request's `Accept-Encoding` asks for it (flask-compress); the compressed bodies of those fixed
answers are kept, so each is compressed once per process.
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Flask, Request, Response, request
from flask_compress import Compress
from werkzeug.http import parse_accept_header

# The catalogue, the contract and the explorer's page change only with a deployment: a
# client may reuse them for five minutes, then revalidates them with its ETag.
FIXED_MAX_AGE = 300
# The explorer's script and style come from the pinned swagger-ui-py release.
ASSET_MAX_AGE = 86400
# The endpoints whose body depends on the path alone: their compressed bodies are kept.
FIXED_ENDPOINTS = frozenset({"v1.list_games", "v1.show_game", "meta.openapi_document",
                             "explorer.page", "explorer.asset"})
# The codings a large answer is compressed with.
CODINGS = ("gzip",)


def etag_of(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:32]


def fixed(body: bytes, mimetype: str, etag: str, max_age: int = FIXED_MAX_AGE) -> Response:
    """A fixed answer with its validator, answered `304` when the client holds it already."""
    response = Response(body, mimetype=mimetype)
    response.set_etag(etag)
    response.cache_control.public = True
    response.cache_control.max_age = max_age
    return response.make_conditional(request)


class _FixedBodies:
    """flask-compress's cache, holding only the compressed bodies of FIXED_ENDPOINTS (the
    key of any other answer is empty, and is neither read nor kept)."""

    def __init__(self) -> None:
        self._bodies: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        return None if key.endswith(";") else self._bodies.get(key)

    def set(self, key: str, value: bytes) -> None:
        if not key.endswith(";") and len(self._bodies) < 256:
            self._bodies[key] = value


def _fixed_key(req: Request) -> str:
    if req.method == "GET" and req.endpoint in FIXED_ENDPOINTS:
        return req.full_path
    return ""


def install(app: Flask, config: dict[str, Any]) -> None:
    min_size = config["COMPRESS_MIN_BYTES"]
    if not min_size:
        return
    app.config.update(
        COMPRESS_ALGORITHM=list(CODINGS),
        COMPRESS_LEVEL=6,
        COMPRESS_MIN_SIZE=min_size,
        COMPRESS_STREAMS=False,
        COMPRESS_MIMETYPES=["application/json", "application/problem+json",
                            "application/yaml", "text/html", "text/css", "text/javascript",
                            "text/plain", "image/svg+xml"],
        COMPRESS_CACHE_BACKEND=_FixedBodies,
        COMPRESS_CACHE_KEY=_fixed_key,
        COMPRESS_REGISTER=False,
    )
    compress = Compress(app)

    @app.after_request
    def _compress(response: Response) -> Response:
        # Without an Accept-Encoding header that accepts one of CODINGS, no coding can be
        # chosen, and flask-compress would only add the Vary header, after about 14 µs of
        # looking (a back end on a keep-alive connection often sends none): that header is
        # added here and the rest skipped. (flask-compress itself would choose a coding the
        # header refuses, `gzip;q=0`.)
        if may_compress(request.environ.get("HTTP_ACCEPT_ENCODING", "")):
            return compress.after_request(response)
        vary_on(response, "Accept-Encoding")
        return response


def may_compress(accept_encoding: str) -> bool:
    """Whether a request's `Accept-Encoding` accepts one of CODINGS: by its name or by `*`,
    with a weight above 0 (RFC 9110, 12.5.3: `gzip;q=0` refuses gzip; a weight that does not
    read, `q=abc`, accepts nothing). A header that accepts none, such as the `identity`
    Python's http.client sends, leaves a large answer as it is, with the `Vary` header
    alone added."""
    named = accept_encoding.lower()
    if "*" not in named and not any(coding in named for coding in CODINGS):
        return False  # the header's commonest forms, read without parsing it
    if ";" not in named:  # no weights: every coding named is accepted
        return True
    accepted = parse_accept_header(named)
    return any(accepted.quality(coding) > 0 for coding in CODINGS)


def vary_on(response: Response, header: str) -> None:
    """`header` named once in the answer's `Vary`, with the names already there, in one
    header line."""
    names: list[str] = []
    for line in response.headers.getlist("Vary"):
        for name in line.split(","):
            name = name.strip()
            if name and name.lower() not in {n.lower() for n in names}:
                names.append(name)
    if header.lower() not in {n.lower() for n in names}:
        names.append(header)
    response.headers["Vary"] = ", ".join(names)
