"""Générala (cards): the trick on the table, each player's card count, who is out."""

from __future__ import annotations

from typing import Any

from . import pieces
from .canvas import Text
from .table import Scene, seats, winners_line


def scene(view: dict[str, Any], scores: dict[str, Any], to_act: list[str],
          finished: bool) -> Scene:
    players = view["players"]
    tags = [(view["dealer"], "dealer"), (view["leader"], "leads the trick"),
            *((p, "out of this deal") for p in view["out_of_deal"]),
            *((p, f"lost deal {deal}, out of the match")
              for p, deal in view["out_of_match"].items()),
            (view["winner"], "winner")]
    survived = {p: f"{s['total']} survived" for p, s in scores["players"].items()}
    status = (winners_line(scores) if finished
              else f"Deal {view['deal']} \u00b7 {view['to_act']} to play")

    def center(x: float, y: float, width: float) -> tuple[list[Any], float]:
        trick = view["trick"]
        if not trick:
            return [Text(x, y + 20, "The trick is empty.", 11, fill="#444444")], 40
        step = min(pieces.CARD_W + 26, width / len(trick))
        items: list[Any] = [pieces.face(play["card"], x + i * step, y,
                                        note=play["player"][:12])
                            for i, play in enumerate(trick)]
        return items, pieces.CARD_H + 16

    return Scene(game="Générala (cards)", viewer=view["you"], seated=view["you"] in players,
                 status=status, seats=seats(players, to_act, cards=view["cards"],
                                            scores=survived, tags=tags),
                 center=center, hand=tuple(view["hand"]))
