"""Yams' pictures (docs/rules/yams.md, "Pictures"): the printable sheet and the view image
read from the sheet the match's `rules` pick, with a Bonus row under the number boxes (35 at
63) and, under the Yahtzee preset, a Yahtzee bonus row, each filled with what a player earned;
the French box names written out (Carré with its accent); one page of PDF."""

from __future__ import annotations

import io

import pypdf

from referee.games import REGISTRY
from referee.games.yams.engine import Options, State
from referee.pictures import SHEET_FORMS, canvas, sheet, view_svg

from .support import groups, parse, texts

ENGINE = REGISTRY["yams"]
FORM = SHEET_FORMS["yams"]
UPPER = ("as", "deux", "trois", "quatre", "cinq", "six")


def finished(rules):
    """A finished two-player match: ann reached 63 and scored three Yams under the preset."""
    ann = {**{b: 3 * face for face, b in enumerate(UPPER, start=1)}, "brelan": 20, "carre": 20,
           "full": 25, "petite_suite": 30, "grande_suite": 40, "yams": 50, "chance": 20}
    if rules == "yams":
        ann.update(brelan=12, carre=16)
    bob = {**{b: 0 for b in ann}, "chance": 5}
    return State(players=("ann", "bob"), options=Options(turn_seconds=0, rules=rules),
                 seed="s", step=1, current=0, rolls=0, dice=(), sheets=(ann, bob),
                 deadline=None, yahtzee_bonuses=(2 if rules != "yams" else 0, 0))


def sheet_of(state):
    return sheet.from_view(ENGINE.view(state, "someone"), ENGINE.scores(state), FORM,
                           finished=ENGINE.is_finished(state))


def test_a_blank_yams_sheet_has_its_french_boxes_and_the_bonus_row_under_the_numbers():
    root = parse(canvas.svg(sheet.picture(sheet.blank(6, [], ENGINE.resolve_options({}),
                                                      FORM))))
    rows = {g.get("data-box"): texts(g) for g in groups(root, "data-box")}
    assert rows["carre"] == ["Carré", "4 alike"] and rows["brelan"] == ["Brelan", "3 alike"]
    assert rows["petite_suite"] == ["Petite Suite", "30"] and rows["yams"] == ["Yams", "50"]
    bonuses = [(g.get("data-bonus"), g.get("data-value")) for g in groups(root, "data-value")
               if g.get("data-bonus")]
    assert bonuses == [("upper_bonus", "35 at 63")]  # no Yahtzee bonus on the French sheet
    written = texts(root)
    assert "13 turns each; the highest total wins" in written
    assert not any(t.startswith(("Joker", "Yahtzee bonus:")) for t in written)


def test_the_yahtzee_preset_sheet_shows_both_bonuses_earned_and_the_joker_rule():
    state = finished("yahtzee")
    root = parse(canvas.svg(sheet.picture(sheet_of(state))))
    earned = {(g.get("data-player"), g.get("data-bonus")): g.get("data-points")
              for g in groups(root, "data-points") if g.get("data-bonus")}
    assert earned == {("ann", "upper_bonus"): "35", ("ann", "yahtzee_bonus"): "200"}
    totals = {g.get("data-player"): g.get("data-total") for g in groups(root, "data-total")}
    assert totals == {p: str(s["total"]) for p, s in ENGINE.scores(state)["players"].items()}
    assert totals["ann"] == str(63 + 35 + 20 + 20 + 25 + 30 + 40 + 50 + 20 + 200)
    written = texts(root)
    assert any(t.startswith("Joker: once the Yams box is filled") for t in written)
    assert any(t.startswith("Yahtzee bonus: 100 for each further Yams") for t in written)


def test_the_view_image_shows_the_bonus_rows_of_the_match_sheet():
    for rules, kinds in (("yams", ["upper_bonus"]), ("yahtzee", ["upper_bonus",
                                                                 "yahtzee_bonus"])):
        state = finished(rules)
        seen = {"view": ENGINE.view(state, "ann"), "scores": ENGINE.scores(state),
                "to_act": [], "status": "finished", "player": "ann"}
        root = parse(view_svg(ENGINE, seen))
        rows = groups(root, "data-bonus")
        assert [row.get("data-bonus") for row in rows] == kinds
        assert texts(rows[0]) == ["Bonus", "35"]  # ann's 35; bob's blank
        if rules == "yahtzee":
            assert texts(rows[1]) == ["Yahtzee bonus", "200"]


def test_the_yams_pdf_is_one_page():
    document = pypdf.PdfReader(io.BytesIO(canvas.pdf(sheet.picture(sheet_of(
        finished("yahtzee"))))))
    assert len(document.pages) == 1
    text = document.pages[0].extract_text()
    for word in ("Yams", "Carré", "Bonus", "Yahtzee bonus", "ann", "Total"):
        assert word in text
