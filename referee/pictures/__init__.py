"""Pictures of matches: an SVG image of what one player sees, for every game, and the
printable Generala sheet, as SVG and as a one-page PDF.

A picture is drawn from what the referee already answers, never from the state: a view image
from a player's view answer (`view(state, player)`, the scores, who may act), so it shows no
more than that player may see, and a spectator's shows public information only; the sheet from
what every player sees of a dice match. This package is not a rules engine: it reads those
answers and lays them out (`table` for views, `sheet` for the sheet, one module per game for
the middle of its table), and `canvas` writes the result.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Iterable

from referee.core.engine import Engine
from referee.games import REGISTRY
from referee.games.generala_dice.engine import DiceSheetGame

from . import canvas, empereur, generala_cards, generala_dice, huit_americain, sheet, table
from .events import BadEvents, phrase, visible

SceneBuilder = Callable[[dict[str, Any], dict[str, Any], list[str], bool], table.Scene]

SCENES: dict[str, SceneBuilder] = {
    "generala-dice": generala_dice.scene,
    "generala-cards": generala_cards.scene,
    "huit-americain": huit_americain.scene,
    "empereur": empereur.scene,
}
# Every other dice-sheet game (Yacht) gets the dice table drawn from the sheet it plays.
SCENES.update({game_id: generala_dice.game_scene(engine) for game_id, engine in REGISTRY.items()
               if isinstance(engine, DiceSheetGame) and game_id not in SCENES})
# The printable score sheet of every dice-sheet game, by game id.
SHEET_FORMS: dict[str, sheet.SheetForm] = {
    game_id: sheet.form_of(engine) for game_id, engine in REGISTRY.items()
    if isinstance(engine, DiceSheetGame)}
# The games that have a printable score sheet.
SHEET_GAMES = tuple(SHEET_FORMS)


def view_svg(engine: Engine, answer: dict[str, Any], events: Iterable[Any] = ()) -> str:
    """The SVG of a view answer (`player`, `status`, `to_act`, `view`, `scores`), with the
    events passed as the viewer may see them. Raises BadEvents."""
    view = answer["view"]
    scene = SCENES.get(engine.id, plain_scene)(view, answer["scores"], list(answer["to_act"]),
                                               answer["status"] == "finished")
    seen = visible(engine, list(events), answer["player"])
    lines = tuple(phrase(event, view.get("players", ())) for event in seen)
    # A scene that does not name its game (`plain_scene`) is given the engine's name.
    return canvas.svg(table.picture(dataclasses.replace(scene, game=scene.game or engine.name,
                                                        events=lines)))


def plain_scene(view: dict[str, Any], scores: dict[str, Any], to_act: list[str],
                finished: bool) -> table.Scene:
    """A game without a drawing of its own: its players, scores and the viewer's hand."""
    players = list(view.get("players", ()))
    totals = {p: str(s.get("total", "")) for p, s in scores.get("players", {}).items()}
    hand = view.get("hand")

    def center(x: float, y: float, width: float) -> tuple[list[Any], float]:
        return [canvas.Text(x, y + 16, "No drawing of this game's table yet.", 11)], 30

    return table.Scene(game="", viewer=view.get("you", ""),
                       seated=view.get("you") in players,
                       status=table.winners_line(scores) if finished else "In play",
                       seats=table.seats(players, to_act, scores=totals), center=center,
                       hand=tuple(hand) if isinstance(hand, list) else None)


__all__ = ["view_svg", "SCENES", "SHEET_FORMS", "SHEET_GAMES", "BadEvents", "sheet", "canvas"]
