"""Cards and dice as shapes. A card shown face up carries its code (`data-card="TH"`), so a
script, a style sheet or a test can tell which card it is; a card face down carries nothing."""

from __future__ import annotations

from typing import Any

from referee.core.cards import JOKERS

from .canvas import Circle, Group, Rect, Text

SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RED = "#c0182b"
CARD_W, CARD_H = 46.0, 66.0
BACK, BACK_EDGE = "#2f5d9e", "#dfe8f5"
# Pips of a die face on a 3 x 3 grid (column, row).
PIPS = {1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
        4: ((0, 0), (2, 0), (0, 2), (2, 2)), 5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
        6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2))}


def label(card: str) -> str:
    """How a card reads: 10♥, Q♠, Joker."""
    if card in JOKERS:
        return "Joker"
    rank = "10" if card[0] == "T" else card[0]
    return rank + SYMBOLS[card[1]]


def colour(card: str) -> str:
    return RED if card in JOKERS or card[1] in "DH" else "#111111"


def face(card: str, x: float, y: float, note: str = "", w: float = CARD_W,
         h: float = CARD_H) -> Group:
    ink = colour(card)
    items: list[Any] = [Rect(x, y, w, h, fill="#ffffff", stroke="#555555", radius=5)]
    if card in JOKERS:
        items += [Text(x + 5, y + 14, "J", 12, bold=True, fill=ink),
                  Text(x + w / 2, y + h / 2 + 9, "\u2605", 26, anchor="middle", fill=ink),
                  Text(x + w / 2, y + h - 6, "joker", 8, anchor="middle", fill=ink)]
    else:
        rank = "10" if card[0] == "T" else card[0]
        items += [Text(x + 5, y + 15, rank, 13, bold=True, fill=ink),
                  Text(x + 5, y + 27, SYMBOLS[card[1]], 11, fill=ink),
                  Text(x + w / 2 + 4, y + h / 2 + 14, SYMBOLS[card[1]], 26, anchor="middle",
                       fill=ink)]
    if note:
        items.append(Text(x + w / 2, y + h + 12, note, 9, anchor="middle", fill="#444444"))
    return Group(tuple(items), data=(("card", card),))


def back(x: float, y: float, w: float = CARD_W, h: float = CARD_H) -> Group:
    if w < 20:  # a small mark beside a count
        shapes = (Rect(x, y, w, h, fill=BACK, stroke="#1d3c6a", line=0.5, radius=1.5),)
    else:
        shapes = (Rect(x, y, w, h, fill=BACK, stroke="#1d3c6a", radius=5),
                  Rect(x + 4, y + 4, w - 8, h - 8, stroke=BACK_EDGE, line=0.8, radius=3))
    return Group(shapes, data=(("card", "face-down"),))


def stack(x: float, y: float, count: int, caption: str, w: float = CARD_W,
          h: float = CARD_H) -> list[Any]:
    """A face-down pile and how many cards it holds."""
    items: list[Any] = [back(x + 2 * i, y - 2 * i, w, h) for i in reversed(range(min(3, count)))]
    if not count:
        items.append(Rect(x, y, w, h, stroke="#999999", line=0.8, radius=5))
    items.append(Text(x + w / 2, y + h + 12, caption, 9, anchor="middle", fill="#444444"))
    return items


def die(value: int, x: float, y: float, size: float = 40.0) -> Group:
    step = size / 4
    pips = [Circle(x + step * (column + 1), y + step * (row + 1), size / 11)
            for column, row in PIPS[value]]
    return Group((Rect(x, y, size, size, fill="#ffffff", stroke="#333333", line=1.2,
                       radius=size / 6), *pips), data=(("die", str(value)),))
