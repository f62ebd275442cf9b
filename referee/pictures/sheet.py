"""The printable score sheet of a dice-sheet game: its boxes with their values, a column per
player. The Generala sheet first; every other dice-sheet game's (Yacht's) is read from the
sheet declaration it plays (`SheetForm`, `form_of`).

Blank, for a given number of players (one to six, with or without their names), or filled from
what a match shows everyone (its view and scores): each box's points, the scratched boxes
crossed out, the totals, whose turn it is or who won. The Generala sheet's box names are the
Spanish ones of the rule text (Escalera, Full, Póker, Generala, Doble Generala); it names the
six number boxes only as « cases de chiffres », so they are headed by their face, 1 to 6;
another sheet's boxes are written out from their names (four_of_a_kind: Four of a Kind). The
values come from the match's options, so a sheet of a house game shows the house values; a
Servida column only where the sheet pays a servida bonus. A sheet with an upper bonus (Yams')
has a Bonus row under its number boxes, and one paying the Yahtzee bonus (Yams' Yahtzee
preset) a Yahtzee bonus row above the totals, each filled with what a player earned.

The page is A4 or US Letter, portrait, with room to write by hand in every box.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from referee.games.dice_sheets.scorers import Face, KindTotal, dice_total
from referee.games.generala_dice.engine import DiceSheetGame
from referee.games.generala_dice.scoring import BOXES
from referee.games.generala_dice.state import Options, SheetOptions

from .canvas import Group, Line, Picture, Rect, Text, fit
from .table import winners_line

BOX_NAMES = {
    "ones": "1", "twos": "2", "threes": "3", "fours": "4", "fives": "5", "sixes": "6",
    "escalera": "Escalera", "full": "Full", "poker": "Póker", "generala": "Generala",
    "doble_generala": "Doble Generala",
}
# Words a box's name keeps in lower case when it is written out (Four of a Kind), and the
# words a wire name spells without their accent (Yams' Carré).
SMALL_WORDS = frozenset({"of", "a", "the"})
ACCENTED = {"carre": "carré"}
# The bonus rows, by the key a player's scores give each under, and how each is headed.
BONUS_LABELS = {"upper_bonus": "Bonus", "yahtzee_bonus": "Yahtzee bonus"}


def rows_of(sheet) -> list[str]:
    """The rows of a sheet above its totals: the boxes in sheet order, with the Bonus row
    (`upper_bonus`) under the number boxes of a sheet with an upper bonus, the Yahtzee bonus
    row (`yahtzee_bonus`) last on a sheet paying it."""
    rows = list(sheet.box_names)
    if sheet.upper_bonus is not None:
        rows.insert(rows.index(sheet.upper_bonus.boxes[-1]) + 1, "upper_bonus")
    if sheet.repeat_bonus is not None:
        rows.append("yahtzee_bonus")
    return rows


def box_label(name: str) -> str:
    """A box as a sheet writes it, from its name: four_of_a_kind -> Four of a Kind."""
    words = [ACCENTED.get(w, w) for w in name.split("_")]
    return " ".join(w if i and w in SMALL_WORDS else w.capitalize() for i, w in enumerate(words))


@dataclasses.dataclass(frozen=True)
class SheetForm:
    """The printed form of one game's sheet: its title, its boxes in sheet order and how each
    is headed, and its options' type (which reads the sheet declaration and the house values)."""

    title: str
    boxes: tuple[str, ...]
    labels: dict[str, str]
    options_type: type[SheetOptions]

    @property
    def declaration(self):
        return self.options_type.sheet.declaration

    @property
    def faces(self) -> dict[str, int]:
        """The number boxes and their faces."""
        return {box.name: box.dice.face for box in self.declaration.boxes
                if isinstance(box.dice, Face)}

    @property
    def servida_boxes(self) -> frozenset[str]:
        return self.options_type.sheet.servida_boxes


GENERALA_FORM = SheetForm("Generala", BOXES, BOX_NAMES, Options)


def form_of(engine: DiceSheetGame) -> SheetForm:
    """The printed form of a dice-sheet game's sheet (Generala's own, or read from the sheet
    the game plays)."""
    if engine.options_type is Options:
        return GENERALA_FORM
    boxes = engine.options_type.sheet.boxes
    return SheetForm(engine.name, boxes, {box: box_label(box) for box in boxes},
                     engine.options_type)


# Page sizes in points, with the printed size for SVG.
PAGES = {
    "a4": (595.28, 841.89, ("210mm", "297mm")),
    "letter": (612.0, 792.0, ("8.5in", "11in")),
}
MAX_COLUMNS = 6

MARGIN = 40.0
NAME_W, VALUE_W, SERVIDA_W = 104.0, 56.0, 50.0
MAX_PLAYER_W = 88.0
HEADER_H = 42.0
TITLE_H = 78.0
FOOTER_H = 78.0
INK, GREY, LIGHT, WIN = "#111111", "#666666", "#eeeeee", "#fff2b3"


@dataclasses.dataclass(frozen=True)
class SheetData:
    """What the sheet shows. `names` has one entry per column ("" for a blank header);
    `sheets` and `totals` are empty for a blank sheet."""

    names: tuple[str, ...]
    options: dict[str, Any]
    sheets: dict[str, dict[str, int]] = dataclasses.field(default_factory=dict)
    totals: dict[str, int] = dataclasses.field(default_factory=dict)
    # per player, the bonuses earned (upper_bonus, yahtzee_bonus), where the scores tell them
    bonuses: dict[str, dict[str, int]] = dataclasses.field(default_factory=dict)
    current: str | None = None
    winners: tuple[str, ...] = ()
    draw: bool = False
    finished: bool = False
    form: SheetForm = GENERALA_FORM

    @property
    def values(self) -> dict[str, int]:
        """The box values these options pay (the sheet's, or house values)."""
        return self.form.options_type(**self.options).values

    @property
    def declaration(self):
        """The sheet these options play (Yams' `rules` pick one; others have only one)."""
        return self.form.options_type(**self.options).sheet.declaration

    def rows(self) -> list[str]:
        return rows_of(self.declaration)


def blank(columns: int, names: list[str], options: dict[str, Any],
          form: SheetForm = GENERALA_FORM) -> SheetData:
    if not 1 <= columns <= MAX_COLUMNS or len(names) > columns:
        raise ValueError("a sheet has one to six columns, and no more names than columns")
    return SheetData(names=tuple(names) + ("",) * (columns - len(names)), options=options,
                     form=form)


def from_view(view: dict[str, Any], scores: dict[str, Any], form: SheetForm = GENERALA_FORM, *,
              finished: bool) -> SheetData:
    """The sheet of a match, from what every player sees of it."""
    return SheetData(
        names=tuple(view["players"]), options=view["options"], sheets=view["sheets"],
        totals={p: s["total"] for p, s in scores["players"].items()},
        bonuses={p: {k: s[k] for k in BONUS_LABELS if k in s}
                 for p, s in scores["players"].items()},
        current=None if finished else view["current"],
        winners=tuple(scores["winners"]), draw=scores["draw"], finished=finished, form=form)


def box_values(data: SheetData, box: str) -> tuple[str, str]:
    """What a box pays, and what it pays servida (a dash where servida adds nothing)."""
    form = data.form
    if box in form.faces:
        return f"{form.faces[box]} per die", "\u2014"
    counted = form.declaration.box(box).dice
    if counted is not None:  # a box the dice count: what of the dice
        return counted_words(counted), "\u2014"
    values = data.values
    value = values[box]
    bonus = values.get("servida_bonus", 0)
    return str(value), str(value + bonus) if box in form.servida_boxes and bonus else "\u2014"


def counted_words(scorer: Any) -> str:
    """A scorer of the dice in the sheet's few words (Yacht's Full House, Four of a Kind)."""
    if scorer is dice_total:
        return "dice total"
    if isinstance(scorer, KindTotal):
        return f"{scorer.count} alike"
    return "the dice"


def picture(data: SheetData, page: str = "a4") -> Picture:
    width, height, paper = PAGES[page]
    form = data.form
    boxes = data.rows()
    # A Servida column only on a sheet that pays a servida bonus.
    servida_w = SERVIDA_W if form.servida_boxes else 0.0
    columns = len(data.names)
    player_w = min(MAX_PLAYER_W, (width - 2 * MARGIN - NAME_W - VALUE_W - servida_w) / columns)
    table_w = NAME_W + VALUE_W + servida_w + player_w * columns
    left = (width - table_w) / 2
    top = MARGIN + TITLE_H
    row_h = min(46.0, (height - 2 * MARGIN - TITLE_H - FOOTER_H - HEADER_H) / (len(boxes) + 1))
    x_players = left + NAME_W + VALUE_W + servida_w
    items = _title(data, left, table_w)
    # Header row.
    items.append(Rect(left, top, table_w, HEADER_H, fill=LIGHT, stroke=None))
    headings = [(left, NAME_W, "Box"), (left + NAME_W, VALUE_W, "Value")]
    if servida_w:
        headings.append((left + NAME_W + VALUE_W, servida_w, "Servida"))
    for x, w, label in headings:
        items.append(Text(x + w / 2, top + HEADER_H / 2 + 4, label, 10, bold=True,
                          anchor="middle"))
    for column, name in enumerate(data.names):
        items.append(_player_header(data, name, column, x_players + column * player_w, top,
                                    player_w))
    # One row per box, then the totals.
    for row, box in enumerate(boxes):
        y = top + HEADER_H + row * row_h
        if box in BONUS_LABELS:
            items += _bonus_row(data, box, left, y, row_h, x_players, player_w)
            continue
        value, servida = box_values(data, box)
        base = y + row_h / 2 + 4
        cells = [Text(left + 8, base, form.labels[box], 12, bold=True),
                 Text(left + NAME_W + VALUE_W / 2, base, value, 10, anchor="middle")]
        described = [("box", box), ("value", value)]
        if servida_w:
            cells.append(Text(left + NAME_W + VALUE_W + servida_w / 2, base, servida, 10,
                              anchor="middle", fill=INK if servida != "\u2014" else GREY))
            described.append(("servida", servida))
        items.append(Group(tuple(cells), data=tuple(described)))
        for column, name in enumerate(data.names):
            points = data.sheets.get(name, {}).get(box) if name else None
            if points is not None:
                items.append(_score_cell(name, box, points, x_players + column * player_w, y,
                                         player_w, row_h))
    totals_y = top + HEADER_H + len(boxes) * row_h
    items.append(Rect(left, totals_y, table_w, row_h, fill=LIGHT, stroke=None))
    items.append(Text(left + 8, totals_y + row_h / 2 + 5, "Total", 13, bold=True))
    for column, name in enumerate(data.names):
        if name in data.totals:
            x = x_players + column * player_w
            items.append(Group((Text(x + player_w / 2, totals_y + row_h / 2 + 6,
                                     str(data.totals[name]), 16, bold=True, anchor="middle"),),
                               data=(("player", name), ("total", str(data.totals[name])))))
    bottom = totals_y + row_h
    items += _grid(data, left, top, table_w, bottom, x_players, player_w, columns, row_h)
    items += _footer(data, left, bottom + 20, table_w)
    title = f"{form.title} sheet" + (f": {', '.join(n for n in data.names if n)}"
                                if any(data.names) else "")
    return Picture(width, height, tuple(items), title, paper)


def _title(data: SheetData, left: float, width: float) -> list[Any]:
    if data.finished:
        state = winners_line({"draw": data.draw, "winners": data.winners})
    elif data.current is not None:
        state = f"In play: {data.current} to play"
    else:
        state = f"{data.form.declaration.turns} turns each; the highest total wins"
    return [
        Text(left, MARGIN + 30, data.form.title, 28, bold=True),
        Text(left + width, MARGIN + 30, fit(state, 11, width - 170), 11, anchor="end",
             fill=GREY),
        Text(left, MARGIN + 52, "Five dice, up to three rolls a turn; fill one box each turn "
             "(0 scratches it).", 9.5, fill=GREY),
    ]


def _player_header(data: SheetData, name: str, column: int, x: float, top: float,
                   w: float) -> Group:
    items: list[Any] = []
    won = data.finished and name in data.winners and not data.draw
    if won:
        items.append(Rect(x, top, w, HEADER_H, fill=WIN, stroke=None))
    label = fit(name, 10, w - 8, bold=True) if name else ""
    note = "winner" if won else "to play" if name and name == data.current else ""
    items.append(Text(x + w / 2, top + (19 if note else HEADER_H / 2 + 4), label, 10, bold=True,
                      anchor="middle"))
    if note:
        items.append(Text(x + w / 2, top + 33, note, 8, anchor="middle", fill=GREY))
    elif not name:
        items.append(Line(x + 8, top + 30, x + w - 8, top + 30, stroke="#bbbbbb", line=0.5))
    return Group(tuple(items), data=(("column", str(column + 1)), ("player", name)))


def _score_cell(name: str, box: str, points: int, x: float, y: float, w: float,
                h: float) -> Group:
    """A filled box: its points; a scratched one (0) is crossed out."""
    middle = y + h / 2
    items: list[Any] = []
    if points == 0:
        items += [Line(x + 10, y + h - 8, x + w - 10, y + 8, stroke=INK, line=1.2),
                  Text(x + w - 6, y + h - 6, "0", 8, anchor="end", fill=GREY)]
    else:
        items.append(Text(x + w / 2, middle + 5, str(points), 14, anchor="middle"))
    return Group(tuple(items), data=(("player", name), ("box", box), ("points", str(points)),
                                     ("scratched", "true" if points == 0 else "false")))


def _bonus_row(data: SheetData, kind: str, left: float, y: float, row_h: float,
               x_players: float, player_w: float) -> list[Any]:
    """A bonus row: what the bonus pays, and what each player has earned of it so far."""
    sheet = data.declaration
    if kind == "upper_bonus":
        value = f"{sheet.upper_bonus.amount} at {sheet.upper_bonus.threshold}"
    else:
        value = f"{sheet.repeat_bonus.amount} each"
    base = y + row_h / 2 + 4
    items: list[Any] = [Group((Text(left + 8, base, BONUS_LABELS[kind], 12, bold=True),
                               Text(left + NAME_W + VALUE_W / 2, base, value, 10,
                                    anchor="middle")),
                              data=(("bonus", kind), ("value", value)))]
    for column, name in enumerate(data.names):
        points = data.bonuses.get(name, {}).get(kind) if name else None
        if points:  # a bonus not (yet) earned leaves its cell blank
            x = x_players + column * player_w
            items.append(Group((Text(x + player_w / 2, base + 1, str(points), 14,
                                     anchor="middle"),),
                               data=(("player", name), ("bonus", kind),
                                     ("points", str(points)))))
    return items


def _grid(data: SheetData, left: float, top: float, width: float, bottom: float,
          x_players: float, player_w: float, columns: int, row_h: float) -> list[Any]:
    form = data.form
    items: list[Any] = [Rect(left, top, width, bottom - top, stroke=INK, line=1.4)]
    rows = data.rows()
    boxes = len(rows)
    upper = len(form.faces) + ("upper_bonus" in rows)
    for row in range(boxes + 1):
        y = top + HEADER_H + row * row_h
        # A heavier rule under the header and the upper section, and above the totals.
        heavy = row in (0, upper, boxes)
        items.append(Line(left, y, left + width, y, stroke=INK, line=1.2 if heavy else 0.5))
    # the rules between the box, value and servida columns (the players' first is heavier)
    for x in (left + NAME_W, left + NAME_W + VALUE_W)[:2 if form.servida_boxes else 1]:
        items.append(Line(x, top, x, bottom, stroke=INK, line=0.5))
    for column in range(columns):
        x = x_players + column * player_w
        items.append(Line(x, top, x, bottom, stroke=INK, line=1.2 if column == 0 else 0.5))
    return items


def _footer(data: SheetData, left: float, y: float, width: float) -> list[Any]:
    """The sheet's special rules, as the declaration and the options have them."""
    form, values = data.form, data.values
    sheet = form.declaration
    labels = form.labels
    lines = []
    bonus = values.get("servida_bonus", 0)
    if form.servida_boxes and bonus:
        named = [labels[b] for b in form.boxes if b in form.servida_boxes]
        lines.append(f"Servida: a hand scored after the first roll adds {bonus} to "
                     f"{', '.join(named[:-1])} and {named[-1]}; nothing to the other boxes.")
    sheet = data.declaration
    if sheet.upper_bonus is not None:
        upper = sheet.upper_bonus
        lines.append(f"Bonus: {upper.amount} when {labels[upper.boxes[0]]} to "
                     f"{labels[upper.boxes[-1]]} add up to {upper.threshold} or more.")
    scratched = "a scratched box is crossed out (0)."
    unlock = sheet.unlock
    if unlock is not None:
        lines.append(f"{labels[unlock.box]}: {values[unlock.box]} for a second "
                     f"{labels[unlock.by]}, only while the {labels[unlock.by]} box holds "
                     f"{values[unlock.by]}; {scratched}")
    else:
        lines.append(scratched.capitalize())
    if sheet.repeat_bonus is not None:
        lines.append(f"Yahtzee bonus: {sheet.repeat_bonus.amount} for each further "
                     f"{labels[sheet.repeat_bonus.box]} while the {labels[sheet.repeat_bonus.box]}"
                     f" box holds {values[sheet.repeat_bonus.box]}.")
    if sheet.joker is not None:
        joker = labels[sheet.joker.box]
        lines.append(f"Joker: once the {joker} box is filled, a further {joker} fills "
                     + ("the number box of its face if free, else a lower box at full value, "
                        "else a number box for 0." if sheet.joker.forced else
                        "any free box, at full value once the number box of its face is "
                        "filled."))
    if form.options_type(**data.options).instant_win:
        lines.append("House rule: a servida Generala wins the match at once.")
    return [Text(left, y + i * 13, fit(line, 8.5, width), 8.5, fill=GREY)
            for i, line in enumerate(lines)]
