"""A dice-sheet game's table (Generala, Yacht, Yams): the dice on the table, the roll, and every
player's sheet, its rows the boxes of the sheet the game plays (`sheet_scene`), with the rows of
the bonuses the match's sheet pays (Yams': the upper bonus, the Yahtzee bonus under its
preset)."""

from __future__ import annotations

from typing import Any, Callable

from referee.games.generala_dice.engine import DiceSheetGame
from referee.games.generala_dice.scoring import BOXES

from . import pieces
from .canvas import Group, Line, Text, fit
from .sheet import BONUS_LABELS, BOX_NAMES, box_label, rows_of
from .table import Scene, seats, winners_line

ROW_H = 17.0
NAME_W = 100.0
SceneBuilder = Callable[[dict[str, Any], dict[str, Any], list[str], bool], Scene]


def sheet_scene(game: str, boxes: tuple[str, ...], labels: dict[str, str],
                options_type: type | None = None) -> SceneBuilder:
    """The scene of a game whose sheets have these boxes, written as `labels` says; with the
    game's options type, the rows of the bonuses the match's sheet pays too."""

    def scene(view: dict[str, Any], scores: dict[str, Any], to_act: list[str],
              finished: bool) -> Scene:
        players = view["players"]
        rows = (boxes if options_type is None
                else tuple(rows_of(options_type(**view["options"]).sheet.declaration)))
        totals = {p: f"{s['total']} pts" for p, s in scores["players"].items()}
        tags = [(p, "winner") for p in scores["winners"] if finished and not scores["draw"]]
        if finished:
            status = winners_line(scores)
        else:
            rolls = view["rolls"]
            status = (f"{view['current']} to play \u00b7 "
                      + (f"roll {rolls} of 3 made" if rolls else "no roll yet this turn"))

        def center(x: float, y: float, width: float) -> tuple[list[Any], float]:
            items: list[Any] = [pieces.die(value, x + i * 50, y)
                                for i, value in enumerate(view["dice"])]
            if view["dice"]:
                items.append(Text(x + 5 * 50 + 10, y + 26, f"after roll {view['rolls']} of 3",
                                  11, fill="#444444"))
            else:
                items.append(Text(x, y + 26, "No dice rolled yet this turn.", 11,
                                  fill="#444444"))
            items += _sheets(view, scores, rows, labels, x, y + 62, width)
            return items, 62 + ROW_H * (len(rows) + 2)

        return Scene(game=game, viewer=view["you"], seated=view["you"] in players,
                     status=status, seats=seats(players, to_act, scores=totals, tags=tags),
                     center=center)

    return scene


def game_scene(engine: DiceSheetGame) -> SceneBuilder:
    """The scene of a dice-sheet game other than Generala, read from the sheet it plays."""
    boxes = engine.options_type.sheet.boxes
    return sheet_scene(engine.name, boxes, {box: box_label(box) for box in boxes} | BONUS_LABELS,
                       engine.options_type)


scene = sheet_scene("Generala (dice)", BOXES, BOX_NAMES)


def _sheets(view: dict[str, Any], scores: dict[str, Any], boxes: tuple[str, ...],
            labels: dict[str, str], x: float, y: float, width: float) -> list[Any]:
    players = view["players"]
    column = min(80.0, (width - NAME_W) / len(players))
    middles = [x + NAME_W + column * (i + 0.5) for i in range(len(players))]
    items: list[Any] = [Text(middle, y + 12, fit(player, 9, column - 4, bold=True), 9,
                             bold=True, anchor="middle")
                        for middle, player in zip(middles, players)]
    for row, box in enumerate(boxes, start=1):
        base = y + ROW_H * row + 12
        cells: list[Any] = [Text(x, base, labels[box], 9.5)]
        for middle, player in zip(middles, players):
            points = (view["sheets"].get(player, {}).get(box) if box not in BONUS_LABELS
                      else scores["players"][player].get(box) or None)  # blank until earned
            if points is not None:
                cells.append(Text(middle, base, "\u2716 0" if points == 0 else str(points), 9.5,
                                  anchor="middle", fill="#888888" if points == 0 else "#111111"))
        items.append(Group(tuple(cells), data=(("bonus" if box in BONUS_LABELS else "box", box),)))
    base = y + ROW_H * (len(boxes) + 1) + 12
    items.append(Text(x, base, "Total", 9.5, bold=True))
    items += [Text(middle, base, str(scores["players"][player]["total"]), 9.5, bold=True,
                   anchor="middle") for middle, player in zip(middles, players)]
    right = x + NAME_W + column * len(players)
    items += [Line(x, y + ROW_H + 2, right, y + ROW_H + 2, stroke="#999999", line=0.5),
              Line(x, y + ROW_H * (len(boxes) + 1) + 2, right, y + ROW_H * (len(boxes) + 1) + 2,
                   stroke="#999999", line=0.5)]
    return items
