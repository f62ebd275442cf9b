"""Huit américain: the stock, the pile's top card and what it asks for, each hand's size."""

from __future__ import annotations

from typing import Any

from . import pieces
from .canvas import Text
from .table import Scene, seats, winners_line

PHASES = {
    "play": "to lay a card or deal with being stuck",
    "again": "to lay another card (play again) or draw",
    "attack": "under a draw attack",
    "hunt": "hunting for the named suit",
    "give": "giving cards",
}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def scene(view: dict[str, Any], scores: dict[str, Any], to_act: list[str],
          finished: bool) -> Scene:
    players = view["players"]
    tags = [(view["unannounced"], "one card, not announced"),
            *((p, "winner") for p in scores["winners"] if finished)]
    points = {p: f"{s['total']} pts" for p, s in scores["players"].items()}
    if finished:
        status = winners_line(scores) + " (the fewest penalty points)"
    else:
        status = (f"Round {view['round']} \u00b7 {view['current']} "
                  f"{PHASES.get(view['phase'], view['phase'])} \u00b7 play goes "
                  + ("in seat order" if view["direction"] == 1 else "against seat order"))

    def center(x: float, y: float, width: float) -> tuple[list[Any], float]:
        items = pieces.stack(x, y, view["stock_count"], f"stock: {view['stock_count']}")
        items.append(pieces.face(view["top"], x + 90, y,
                                 note=f"pile: {view['pile_count']}"))
        notes = []
        suit, rank = view["suit"], view["rank"]
        if suit and rank:
            notes.append(f"To follow: {pieces.SYMBOLS[suit]} {SUIT_NAMES[suit]} or a "
                         + ("10" if rank == "T" else rank))
        elif suit:
            notes.append(f"Suit named: {pieces.SYMBOLS[suit]} {SUIT_NAMES[suit]}")
        else:
            notes.append("Any card follows")
        if view["attack"]:
            notes.append(f"Draw attack pending: {view['attack']} cards")
        if view["give_to"]:
            notes.append(f"Giving {view['give_left']} more card(s) to {view['give_to']}")
        for i, note in enumerate(notes):
            items.append(Text(x + 170, y + 16 + 18 * i, note, 11))
        return items, max(pieces.CARD_H + 16, 18 * len(notes) + 8)

    return Scene(game="Huit américain", viewer=view["you"], seated=view["you"] in players,
                 status=status, seats=seats(players, to_act, cards=view["hand_counts"],
                                            scores=points, tags=tags),
                 center=center, hand=tuple(view["hand"]))
