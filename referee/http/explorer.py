"""`/docs`: the contract in Swagger UI, served offline.

The assets come from the `swagger-ui-py` package, which bundles a maintained Swagger UI
release; nothing is fetched from elsewhere, so the page works on a closed network. The page
reads `/openapi.yaml` from the same server, and its "Try it out" posts to the same server
(the contract's `servers` is `/`).
"""

from __future__ import annotations

import functools
import html
import mimetypes
from pathlib import Path

import swagger_ui
from flask import Blueprint, abort

from referee.version import __version__

from .caching import ASSET_MAX_AGE, etag_of, fixed

ASSETS = Path(swagger_ui.__file__).resolve().parent / "static"
# Only what the page loads is served from the package's folder.
SERVED_ASSETS = ("swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js",
                 "favicon-32x32.png", "favicon-16x16.png")

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>referee {version}: API explorer</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/static/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="/docs/static/swagger-ui-standalone-preset.js"></script>
<script>
window.onload = function () {{
  window.ui = SwaggerUIBundle({{
    url: "/openapi.yaml",
    dom_id: "#swagger-ui",
    deepLinking: true,
    tryItOutEnabled: true,
    displayOperationId: true,
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "BaseLayout"
  }});
}};
</script>
</body>
</html>
"""

blueprint = Blueprint("explorer", __name__)


PAGE_BODY = PAGE.format(version=html.escape(__version__)).encode("utf-8")
PAGE_ETAG = etag_of(PAGE_BODY)


@blueprint.get("/docs")
def page():
    return fixed(PAGE_BODY, "text/html", PAGE_ETAG)


@functools.lru_cache(maxsize=len(SERVED_ASSETS))
def _asset(name: str) -> tuple[bytes, str, str]:
    body = (ASSETS / name).read_bytes()
    mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return body, mimetype, etag_of(body)


@blueprint.get("/docs/static/<asset>")
def asset(asset: str):
    if asset not in SERVED_ASSETS:
        abort(404)
    body, mimetype, etag = _asset(asset)
    return fixed(body, mimetype, etag, ASSET_MAX_AGE)
