"""The Generala sheet: its boxes and values, blank or filled from a match, as an SVG that
parses and a one-page PDF of the right paper size."""

from __future__ import annotations

import io
import random

import msgspec
import pypdf
import pytest

from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.games.generala_dice.scoring import BOXES
from referee.games.generala_dice.state import Options
from referee.pictures import canvas, sheet

from .support import groups, parse, texts

ENGINE = REGISTRY["generala-dice"]
DEFAULTS = msgspec.structs.asdict(Options())
# The rule text's boxes, values and servida values (« Escalera 25, Full 35, Póker 45 »).
SEED_BOXES = {"escalera": ("Escalera", "20", "25"), "full": ("Full", "30", "35"),
              "poker": ("Póker", "40", "45"), "generala": ("Generala", "50", "\u2014"),
              "doble_generala": ("Doble Generala", "100", "\u2014")}
POINTS_PER_PAGE = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def play(players: tuple[str, ...], seed: str, moves: int | None = None):
    """A match of random moves: `moves` of them, or to its end."""
    pick = random.Random(seed)
    state = ENGINE.new_match(players, ENGINE.resolve_options({"turn_seconds": 0}), seed, now=0)
    while not ENGINE.is_finished(state) and (moves is None or moves > 0):
        state, _ = ENGINE.apply(state, random_move(ENGINE, ENGINE.legal_moves(state, now=0),
                                                   pick), now=0)
        moves = None if moves is None else moves - 1
    return state


def sheet_of(state) -> sheet.SheetData:
    return sheet.from_view(ENGINE.view(state, "someone"), ENGINE.scores(state),
                           finished=ENGINE.is_finished(state))


def svg_root(data: sheet.SheetData, page: str = "a4"):
    return parse(canvas.svg(sheet.picture(data, page)))


def test_a_blank_sheet_names_every_box_with_its_values_and_servida_values():
    root = svg_root(sheet.blank(6, [], DEFAULTS))
    rows = {g.get("data-box"): g for g in groups(root, "data-box")}
    assert list(rows) == list(BOXES)
    for box, (name, value, servida) in SEED_BOXES.items():
        assert texts(rows[box]) == [name, value, servida]
    for face, box in enumerate(BOXES[:6], start=1):
        assert texts(rows[box]) == [str(face), f"{face} per die", "\u2014"]
    assert len(groups(root, "data-column")) == 6
    assert not groups(root, "data-points") and not groups(root, "data-total")


def test_the_values_come_from_the_options():
    house = {**DEFAULTS, "escalera": 25, "poker": 60, "servida_bonus": 10,
             "servida_generala_wins": True}
    root = svg_root(sheet.blank(2, [], house))
    rows = {g.get("data-box"): texts(g) for g in groups(root, "data-box")}
    assert rows["escalera"] == ["Escalera", "25", "35"] and rows["poker"] == ["Póker", "60", "70"]
    assert any("servida Generala wins" in t for t in texts(root))
    no_bonus = svg_root(sheet.blank(2, [], {**DEFAULTS, "servida_bonus": 0}))
    rows = {g.get("data-box"): texts(g) for g in groups(no_bonus, "data-box")}
    assert rows["full"] == ["Full", "30", "\u2014"]


@pytest.mark.parametrize("columns,names", [(1, []), (4, ["ann", "bob"]), (6, list("abcdef"))])
def test_a_blank_sheet_has_a_column_per_player_headed_by_the_names_given(columns, names):
    root = svg_root(sheet.blank(columns, names, DEFAULTS))
    headers = groups(root, "data-column")
    assert [h.get("data-player") for h in headers] == names + [""] * (columns - len(names))
    for name in names:
        assert name in texts(root)


@pytest.mark.parametrize("columns,names", [(0, []), (7, []), (2, ["a", "b", "c"])])
def test_a_sheet_has_one_to_six_columns_and_no_more_names_than_columns(columns, names):
    with pytest.raises(ValueError):
        sheet.blank(columns, names, DEFAULTS)


@pytest.mark.parametrize("seed", ["one", "two", "three"])
def test_a_finished_match_fills_every_box_crosses_out_the_scratched_and_names_the_winner(seed):
    players = ("ann", "bob", "cleo")
    state = play(players, seed)
    scores = ENGINE.scores(state)
    root = svg_root(sheet_of(state))
    cells = groups(root, "data-points")
    assert len(cells) == len(players) * len(BOXES)
    for cell in cells:
        points = scores["players"][cell.get("data-player")]["boxes"][cell.get("data-box")]
        assert cell.get("data-points") == str(points)
        crossed = any(not child.tag.endswith("text") for child in cell)  # the stroke
        assert crossed == (points == 0) == (cell.get("data-scratched") == "true")
    totals = {g.get("data-player"): g.get("data-total") for g in groups(root, "data-total")}
    assert totals == {p: str(s["total"]) for p, s in scores["players"].items()}
    headers = {g.get("data-player"): texts(g) for g in groups(root, "data-column")}
    for player in players:
        assert ("winner" in headers[player]) == (player in scores["winners"]
                                                 and not scores["draw"])
    assert any(t.startswith("Finished: ") for t in texts(root))


def test_a_match_in_play_shows_the_boxes_filled_so_far_and_whose_turn_it_is():
    state = play(("ann", "bob"), "early", moves=9)
    view = ENGINE.view(state, "someone")
    root = svg_root(sheet_of(state))
    filled = {(p, box) for p, boxes in view["sheets"].items() for box in boxes}
    assert {(g.get("data-player"), g.get("data-box")) for g in groups(root, "data-points")} \
        == filled and filled
    headers = {g.get("data-player"): texts(g) for g in groups(root, "data-column")}
    assert headers[view["current"]] == [view["current"], "to play"]
    assert not groups(root, "data-total") or all(
        g.get("data-total") == str(ENGINE.scores(state)["players"][g.get("data-player")]["total"])
        for g in groups(root, "data-total"))


@pytest.mark.parametrize("page", sorted(sheet.PAGES))
def test_the_pdf_is_one_page_of_the_paper_size_and_says_the_boxes_and_names(page):
    state = play(("ann", "bob", "cleo", "dan", "eve", "fay"), "pdf")
    document = pypdf.PdfReader(io.BytesIO(canvas.pdf(sheet.picture(sheet_of(state), page))))
    assert len(document.pages) == 1
    box = document.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(POINTS_PER_PAGE[page], abs=0.01)
    text = document.pages[0].extract_text()
    for word in ("Generala", "Escalera", "Póker", "Doble Generala", "ann", "fay", "Total"):
        assert word in text


@pytest.mark.parametrize("page,size", [("a4", ("210mm", "297mm")), ("letter", ("8.5in", "11in"))])
def test_the_svg_prints_at_the_paper_size(page, size):
    root = svg_root(sheet.blank(3, [], DEFAULTS), page)
    assert (root.get("width"), root.get("height")) == size
    width, height = POINTS_PER_PAGE[page]
    assert [float(v) for v in root.get("viewBox").split()] == pytest.approx([0, 0, width, height])


def test_any_player_id_makes_a_sheet_that_parses_and_a_long_one_is_cut_to_its_column():
    odd = ["a\x01b", "x" * 64, "<&>\"'", "\ufffe\u00e9"]
    root = svg_root(sheet.blank(6, odd, DEFAULTS))
    headers = groups(root, "data-column")[:4]
    assert [g.get("data-player") for g in headers] == ["a\ufffdb", "x" * 64, "<&>\"'", "\ufffd\u00e9"]
    header_texts = [texts(g)[0] for g in headers]
    assert header_texts[0] == "a\ufffdb" and header_texts[2] == "<&>\"'"
    assert header_texts[1].endswith("\u2026") and len(header_texts[1]) < 64
    assert pypdf.PdfReader(io.BytesIO(canvas.pdf(sheet.picture(
        sheet.blank(6, odd, DEFAULTS), "a4")))).pages
