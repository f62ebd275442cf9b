"""The printable sheet of another dice-sheet game, read from the sheet it plays: Yacht's twelve
boxes written out from their names, their values from the declaration, no Servida column,
blank or filled from a match, as an SVG that parses and a one-page PDF; and over HTTP."""

from __future__ import annotations

import io
import random

import pypdf
import pytest

from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.pictures import SHEET_FORMS, SHEET_GAMES, canvas, sheet

from .support import groups, parse, texts

ENGINE = REGISTRY["yacht"]
FORM = SHEET_FORMS["yacht"]
DEFAULTS = ENGINE.resolve_options({})
ROWS = {"ones": ("Ones", "1 per die"), "sixes": ("Sixes", "6 per die"),
        "full_house": ("Full House", "dice total"), "four_of_a_kind": ("Four of a Kind", "4 alike"),
        "little_straight": ("Little Straight", "30"), "big_straight": ("Big Straight", "30"),
        "choice": ("Choice", "dice total"), "yacht": ("Yacht", "50")}


def play(players, seed, moves=None):
    pick = random.Random(seed)
    state = ENGINE.new_match(players, ENGINE.resolve_options({"turn_seconds": 0}), seed, now=0)
    while not ENGINE.is_finished(state) and (moves is None or moves > 0):
        state, _ = ENGINE.apply(state, random_move(ENGINE, ENGINE.legal_moves(state, now=0),
                                                   pick), now=0)
        moves = None if moves is None else moves - 1
    return state


def sheet_of(state) -> sheet.SheetData:
    return sheet.from_view(ENGINE.view(state, "someone"), ENGINE.scores(state), FORM,
                           finished=ENGINE.is_finished(state))


def test_every_dice_sheet_game_has_a_printable_sheet():
    assert SHEET_GAMES == ("generala-dice", "yacht", "yams")
    assert sheet.form_of(REGISTRY["generala-dice"]) is sheet.GENERALA_FORM


def test_a_blank_yacht_sheet_names_its_twelve_boxes_with_their_values_and_no_servida():
    root = parse(canvas.svg(sheet.picture(sheet.blank(6, [], DEFAULTS, FORM))))
    rows = {g.get("data-box"): texts(g) for g in groups(root, "data-box")}
    assert list(rows) == list(ENGINE.options_type.sheet.boxes)
    for box, row in ROWS.items():
        assert rows[box] == list(row)
    written = texts(root)
    assert "Yacht" in written and "Servida" not in written
    assert "12 turns each; the highest total wins" in written
    assert not any("Doble" in t or "servida" in t.lower() for t in written)


@pytest.mark.parametrize("seed", ["one", "two"])
def test_a_finished_yacht_match_fills_every_box_and_names_the_winner(seed):
    players = ("ann", "bob", "cleo")
    state = play(players, seed)
    scores = ENGINE.scores(state)
    root = parse(canvas.svg(sheet.picture(sheet_of(state))))
    cells = groups(root, "data-points")
    assert len(cells) == len(players) * 12
    for cell in cells:
        points = scores["players"][cell.get("data-player")]["boxes"][cell.get("data-box")]
        assert cell.get("data-points") == str(points)
    totals = {g.get("data-player"): g.get("data-total") for g in groups(root, "data-total")}
    assert totals == {p: str(s["total"]) for p, s in scores["players"].items()}
    assert any(t.startswith("Finished: ") for t in texts(root))


@pytest.mark.parametrize("page", sorted(sheet.PAGES))
def test_the_yacht_pdf_is_one_page_and_says_the_boxes_and_names(page):
    state = play(("ann", "bob", "cleo", "dan", "eve", "fay"), "pdf", moves=40)
    document = pypdf.PdfReader(io.BytesIO(canvas.pdf(sheet.picture(sheet_of(state), page))))
    assert len(document.pages) == 1
    text = document.pages[0].extract_text()
    for word in ("Yacht", "Four of a Kind", "Little Straight", "Choice", "ann", "fay", "Total"):
        assert word in text


def test_the_yacht_sheet_is_served_over_http(client):
    blank = client.post("/v1/games/yacht/sheets/svg", json={"players": 2, "names": ["ann"]})
    assert blank.status_code == 200 and blank.mimetype == "image/svg+xml"
    assert 'filename="yacht-sheet.svg"' in blank.headers["Content-Disposition"]
    assert "Four of a Kind" in texts(parse(blank.get_data(as_text=True)))
    created = client.post("/v1/games/yacht/matches", json={"players": ["ann", "bob"],
                                                           "seed": 1}).get_json()
    pdf = client.post("/v1/games/yacht/sheets/pdf", json={"state": created["state"],
                                                          "page": "letter"})
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert len(pypdf.PdfReader(io.BytesIO(pdf.data)).pages) == 1
