"""`/verify`: a static page that checks a match record in the player's own browser
(docs/FAIRNESS.md). Its three files are in `static/`; it loads nothing from elsewhere and sends
nothing anywhere, which its Content-Security-Policy enforces."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, send_from_directory

STATIC = Path(__file__).resolve().parent / "static"
SCRIPTS = ("fairness.js", "verify.js")
# Scripts only from this server, inline style only, no request the page could make.
POLICY = ("default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
          "base-uri 'none'; form-action 'none'")

blueprint = Blueprint("verifier", __name__)


def _served(name: str, mimetype: str):
    response = send_from_directory(STATIC, name, mimetype=mimetype, max_age=3600)
    response.headers["Content-Security-Policy"] = POLICY
    return response


@blueprint.get("/verify")
def page():
    return _served("verify.html", "text/html")


@blueprint.get("/verify/<script>")
def script(script: str):
    if script not in SCRIPTS:
        abort(404)
    return _served(script, "text/javascript")
