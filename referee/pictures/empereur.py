"""L'Empereur: the stock, the pile (with the rank a joker stands for), titles and exchanges."""

from __future__ import annotations

from typing import Any

from . import pieces
from .canvas import Text
from .table import Scene, seats, winners_line

PILE_SHOWN = 8
MODES = {"normal": "Normal", "elite": "Elite", "mirror_normal": "Mirror Normal",
         "mirror_elite": "Mirror Elite"}


def scene(view: dict[str, Any], scores: dict[str, Any], to_act: list[str],
          finished: bool) -> Scene:
    players = view["players"]
    elite = view["mode"].endswith("elite")
    tags = [(view["dealer"], "dealer"),
            *((p, role.capitalize()) for p, s in scores["players"].items() for role in s["roles"]),
            (view["last_player"], "played last"),
            *((p, "winner") for p in scores["winners"] if finished)]
    totals = {p: (f"{s['points']} pts" if elite else f"{s['rounds_won']} won")
              for p, s in scores["players"].items()}
    mode = MODES.get(view["mode"], view["mode"])
    if finished:
        status = winners_line(scores)
    elif view["phase"] == "exchange":
        status = (f"Round {view['round']} of {view['rounds']} \u00b7 {mode} \u00b7 exchange of "
                  f"cards ({view['exchange']})")
    else:
        status = (f"Round {view['round']} of {view['rounds']} \u00b7 {mode} \u00b7 "
                  f"{view['current']} to play" + (", has drawn" if view["drawn"] else ""))

    def center(x: float, y: float, width: float) -> tuple[list[Any], float]:
        items = pieces.stack(x, y, view["stock_count"], f"stock: {view['stock_count']}")
        pile = view["pile"]
        shown = pile[-PILE_SHOWN:]
        step = min(pieces.CARD_W + 8, (width - 90) / max(1, len(shown)))
        items += [pieces.face(played["card"], x + 90 + i * step, y,
                              note=f"as {played['rank']}" if played["card"] in ("X1", "X2") else "")
                  for i, played in enumerate(shown)]
        caption = (f"pile: {len(pile)} card{'s' if len(pile) != 1 else ''}"
                   + (f", the last {len(shown)} shown" if len(shown) < len(pile) else ""))
        items.append(Text(x + 90, y + pieces.CARD_H + 28, caption, 9, fill="#444444"))
        height = pieces.CARD_H + 34
        for gift in view["gifts_due"]:
            items.append(Text(x, y + height + 14, f"{gift['from']} gives to {gift['to']}", 10))
            height += 16
        return items, height

    return Scene(game="L'Empereur", viewer=view["you"], seated=view["you"] in players,
                 status=status, seats=seats(players, to_act, cards=view["hand_counts"],
                                            scores=totals, tags=tags),
                 center=center, hand=tuple(view["hand"]))
