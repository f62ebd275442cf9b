"""The picture of one player's view of a match: a header saying whose view it is and where the
match stands, the players (whose turn, how many cards, score, titles), the table in the middle
(drawn by the game's own module), the viewer's hand, and the last events.

Each game's module turns what `view(state, player)` shows into a `Scene`; this module lays any
scene out the same way. Nothing here reads a state.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Sequence

from . import pieces
from .canvas import Group, Line, Picture, Polygon, Rect, Text, fit

WIDTH = 880.0
PAD = 24.0
SEAT_W = 300.0
SEAT_H = 40.0
CENTER_X = PAD + SEAT_W + 24
CENTER_W = WIDTH - CENTER_X - PAD
HAND_STEP = 50.0
MAX_EVENTS = 10
EVENT_H = 16.0
ACCENT, GREY, PANEL, FELT = "#1f6f43", "#555555", "#f4f4f4", "#e7f2ea"

# A game's middle of the table: given where it goes (x, y, width), its shapes and height.
Center = Callable[[float, float, float], tuple[list[Any], float]]


@dataclasses.dataclass(frozen=True)
class Seat:
    player: str
    acting: bool = False
    cards: int | None = None  # cards in hand, for card games
    score: str = ""
    tags: tuple[str, ...] = ()  # titles and states: dealer, Emperor, out, winner...


@dataclasses.dataclass(frozen=True)
class Scene:
    game: str
    viewer: str
    seated: bool
    status: str
    seats: tuple[Seat, ...]
    center: Center
    hand: tuple[str, ...] | None = None  # the viewer's cards, None for a game without hands
    events: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (line, cards it shows)


def picture(scene: Scene) -> Picture:
    items: list[Any] = []
    who = (f"seen by {scene.viewer}" if scene.seated
           else f"seen by a spectator ({scene.viewer}): public information only")
    items += [Rect(0, 0, WIDTH, 64, fill=ACCENT, stroke=None),
              Text(PAD, 30, scene.game, 20, bold=True, fill="#ffffff"),
              Text(WIDTH - PAD, 30, fit(who, 11, WIDTH - 2 * PAD - 260), 11, anchor="end",
                   fill="#ffffff"),
              Text(PAD, 52, fit(scene.status, 11, WIDTH - 2 * PAD), 11, fill="#dff0e5")]
    top = 84.0
    seats_h = _seats(items, scene, top)
    center_items, center_h = scene.center(CENTER_X + 12, top + 26, CENTER_W - 24)
    items.insert(0, Rect(CENTER_X, top, CENTER_W, max(center_h + 40, seats_h), fill=FELT,
                         stroke="#b9d4c1", radius=8))
    items.append(Text(CENTER_X + 12, top + 16, "On the table", 10, bold=True, fill=GREY))
    items += center_items
    y = top + max(center_h + 40, seats_h) + 24
    if scene.hand is not None:
        y = _hand(items, scene, y)
    if scene.events:
        y = _events(items, scene, y)
    return Picture(WIDTH, y + PAD, tuple(items), f"{scene.game}, {who}")


def _seats(items: list[Any], scene: Scene, top: float) -> float:
    items.append(Text(PAD, top + 16, "Players", 10, bold=True, fill=GREY))
    y = top + 26
    for seat in scene.seats:
        you = scene.seated and seat.player == scene.viewer
        shapes: list[Any] = [Rect(PAD, y, SEAT_W, SEAT_H - 6, fill="#fff8d6" if you else PANEL,
                                  stroke="#cccccc", radius=5)]
        if seat.acting:  # a pointer at whoever may act now
            shapes.append(Polygon((PAD + 8, y + 9, PAD + 18, y + 17, PAD + 8, y + 25),
                                  fill=ACCENT))
        name = seat.player + (" (you)" if you else "")
        shapes.append(Text(PAD + 24, y + 15, fit(name, 11, SEAT_W - 120, bold=True), 11,
                           bold=True))
        if seat.tags:
            shapes.append(Text(PAD + 24, y + 28, fit(", ".join(seat.tags), 9, SEAT_W - 120), 9,
                               fill=GREY))
        right = PAD + SEAT_W - 8
        if seat.score:
            shapes.append(Text(right, y + 15, fit(seat.score, 10, 90), 10, bold=True,
                               anchor="end"))
        if seat.cards is not None:
            shapes += [pieces.back(right - 62, y + 19, 8, 11),
                       Text(right, y + 28, f"{seat.cards} card{'s' if seat.cards != 1 else ''}",
                            9, anchor="end", fill=GREY)]
        items.append(Group(tuple(shapes), data=(("player", seat.player),
                                                ("acting", "true" if seat.acting else "false"))))
        y += SEAT_H
    return y - top


def _hand(items: list[Any], scene: Scene, y: float) -> float:
    hand = scene.hand or ()
    title = ("Your hand" if scene.seated else "A spectator sees no hand") + (
        f" ({len(hand)} card{'s' if len(hand) != 1 else ''})" if scene.seated else "")
    items.append(Text(PAD, y + 10, title, 10, bold=True, fill=GREY))
    y += 20
    if not hand:
        items.append(Text(PAD, y + 16, "no cards" if scene.seated else "", 10, fill=GREY))
        return y + 30
    # Cards overlap when there are many, keeping each one's corner readable.
    step = min(HAND_STEP, (WIDTH - 2 * PAD - pieces.CARD_W) / max(1, len(hand) - 1))
    for i, card in enumerate(hand):
        items.append(pieces.face(card, PAD + i * step, y))
    return y + pieces.CARD_H + 18


def _events(items: list[Any], scene: Scene, y: float) -> float:
    shown = scene.events[-MAX_EVENTS:]
    title = "Last events" + (f" (the last {len(shown)} of {len(scene.events)})"
                             if len(shown) < len(scene.events) else "")
    items += [Line(PAD, y, WIDTH - PAD, y, stroke="#cccccc"),
              Text(PAD, y + 18, title, 10, bold=True, fill=GREY)]
    y += 24
    for line, cards in shown:
        y += EVENT_H
        items.append(Group((Text(PAD, y, fit(line, 10, WIDTH - 2 * PAD), 10),),
                           data=(("cards", " ".join(cards)),) if cards else ()))
    return y + 8


def seats(players: list[str], to_act: list[str], *, cards: dict[str, int] | None = None,
          scores: dict[str, str] | None = None,
          tags: Sequence[tuple[str | None, str]] = ()) -> tuple[Seat, ...]:
    """The seats in order; `tags` pairs a player (None: nobody) with a tag of his, in the order
    they are shown."""
    return tuple(Seat(p, acting=p in to_act, cards=None if cards is None else cards.get(p, 0),
                      score=(scores or {}).get(p, ""),
                      tags=tuple(tag for who, tag in tags if who == p))
                 for p in players)


def winners_line(scores: dict[str, Any]) -> str:
    if scores.get("draw"):
        return "Finished: a draw"
    winners = scores.get("winners") or []
    if not winners:
        return "Finished"
    return "Finished: " + ", ".join(winners) + (" win" if len(winners) > 1 else " wins")
