"""The picture routes: an SVG image of one player's view, for every game, and the printable
Generala sheet as SVG or PDF. Requests are checked like every other (the same envelopes, state
codec and problems); the drawing is `referee.pictures`'."""

from __future__ import annotations

from flask import Blueprint, Response

from referee import pictures
from referee.pictures import sheet

from .app import _game, _load, _referee, _with_state
from .codec import player_view
from .problems import Problem

SVG, PDF = "image/svg+xml", "application/pdf"
# An SVG opened on its own is a document: it may run nothing and load nothing.
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"
SHEET_FORMATS = {"svg": SVG, "pdf": PDF}

blueprint = Blueprint("pictures", __name__, url_prefix="/v1")


def _picture(body: str | bytes, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    if mimetype == SVG:
        response.headers["Content-Security-Policy"] = SVG_POLICY
    return response


@blueprint.post("/games/<game_id>/images/view")
def view_image(game_id: str):
    referee, engine, body, match, player = _with_state(game_id, "view_image", "player",
                                                       named=True)
    state = match.state
    answer = player_view(engine, state, player, now=referee.clock())
    try:
        svg = pictures.view_svg(engine, answer, body["events"])
    except pictures.BadEvents as exc:
        raise Problem("validation_error", "an event does not fit the game's declared events",
                      errors={"events": exc.errors}) from None
    return _picture(svg, SVG, f"{game_id}-view.svg")


def _sheet(page_format: str) -> Response:
    referee = _referee()
    game_id = sheet.GAME
    engine = _game(referee, game_id)
    body = _load(referee, "sheet")
    if "state" in body:
        state = referee.codec.load(engine, body["state"])
        # What everyone sees of the match: the view of someone not seated.
        spectator = "spectator"
        while spectator in state.players:
            spectator += "_"
        data = sheet.from_view(engine.view(state, spectator), engine.scores(state),
                               finished=engine.is_finished(state))
    else:
        options = engine.resolve_options(body.get("options", {}))
        names = body.get("names", [])
        data = sheet.blank(body.get("players", len(names) or sheet.MAX_COLUMNS), names, options)
    drawing = sheet.picture(data, body["page"])
    if page_format == "pdf":
        return _picture(pictures.canvas.pdf(drawing), PDF, "generala-sheet.pdf")
    return _picture(pictures.canvas.svg(drawing), SVG, "generala-sheet.svg")


for _format in SHEET_FORMATS:
    blueprint.add_url_rule(f"/games/{sheet.GAME}/sheets/{_format}",
                           endpoint=f"sheet_{_format}", view_func=lambda f=_format: _sheet(f),
                           methods=["POST"])
