"""What a chance event drew from, carried on the event as its `chance` object
(docs/FAIRNESS.md, "Chance events"), so that checking it needs the revealed seed and the event
alone, not the game's rules:

- dice:    {"step", "draw": "dice", "count", "field"}: event[field] is stream.dice(count);
- pick:    {"step", "draw": "pick", "items", "field"}: event[field] is
           items[stream.below(len(items))];
- shuffle: {"step", "draw": "shuffle", "items" (sorted) or "deck", "positions", "field"}:
           the cards the event shows in `field` are, in order, the shuffled order at
           `positions` (no positions and no field when the event shows none of the cards, as
           a reshuffled stock). A whole deck is named, not listed ({"jokers", "copies"}: the
           52 natural cards and the first `jokers` of X1 X2, `copies` times), which every
           player knows and which tells nothing of where the cards went.

A field written "name[].key" is the `key` of each element of the list `name`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any


def dice(step: int, count: int, field: str = "rolled") -> dict[str, Any]:
    return {"step": step, "draw": "dice", "count": count, "field": field}


def pick(step: int, items: Sequence[str], field: str) -> dict[str, Any]:
    return {"step": step, "draw": "pick", "items": list(items), "field": field}


def shuffle(step: int, items: Iterable[str], positions: Iterable[int] = (),
            field: str | None = None) -> dict[str, Any]:
    described: dict[str, Any] = {"step": step, "draw": "shuffle", "items": sorted(items)}
    return _shown(described, positions, field)


def deck_shuffle(step: int, jokers: int, copies: int, positions: Iterable[int] = (),
                 field: str | None = None) -> dict[str, Any]:
    """The shuffle of a whole deck (`cards.standard_deck(jokers=, decks=copies)`)."""
    described = {"step": step, "draw": "shuffle", "deck": {"jokers": jokers, "copies": copies}}
    return _shown(described, positions, field)


def _shown(described: dict[str, Any], positions: Iterable[int], field: str | None):
    positions = list(positions)
    if positions:
        described["positions"] = positions
        described["field"] = field
    return described


def stock_draw(step: int, shuffled: Sequence[str] | None, jokers: int, copies: int,
               positions: Iterable[int]) -> dict[str, Any]:
    """Cards drawn from a stock's shuffled part, shown in the event's `cards`: the stock came
    from the shuffle of a whole deck (`shuffled` None: the deal) or of the cards listed, which
    the state keeps sorted already (its origin check refuses them otherwise)."""
    if shuffled is None:
        return deck_shuffle(step, jokers, copies, positions, "cards")
    described = {"step": step, "draw": "shuffle", "items": list(shuffled)}
    return _shown(described, positions, "cards")


def stock_origin_problems(shuffled_part: Sequence[str], step: int,
                          shuffled_cards: Sequence[str] | None, start: int, deck_size: int,
                          next_step: int, dealt: int, *, drawn_first: str) -> list[str]:
    """What is inconsistent in the recorded origin of a stock's shuffled part (docs/FAIRNESS.md,
    "Drawn cards"): `shuffled_part[k]` is position `start + k` of the shuffle of step `step`
    (-1: not recorded) of `shuffled_cards` (None: the whole deck of `deck_size` cards, whose
    first `dealt` positions the deal gave out). `drawn_first` says which end of the part is
    drawn first: "front" (what remains is the end of the order, drawn onwards, so the part
    reaches the order's last position) or "back" (it is drawn from its end down, so its first
    card stays where the shuffle put it: right after the dealt cards, or the order's first)."""
    if step == -1:
        return [] if shuffled_cards is None and start == 0 else [
            "a stock whose shuffle is not recorded (stock_step -1) names no shuffled cards "
            "and no start"]
    if not 0 <= step < next_step:
        return [f"stock_step {step}: the stock's shuffle comes before the next step "
                f"{next_step}"]
    total, first = (deck_size, dealt) if shuffled_cards is None else (len(shuffled_cards), 0)
    if drawn_first == "front":
        if not first <= start or start + len(shuffled_part) != total:
            return [f"stock_start {start}: the stock's {len(shuffled_part)} shuffled cards "
                    f"are the end of the {total} shuffled, past the {first} dealt"]
    elif start != first or start + len(shuffled_part) > total:
        return [f"stock_start {start}: the stock's {len(shuffled_part)} cards are the "
                f"{total} shuffled but the {first} dealt, less those drawn"]
    if shuffled_cards is not None:
        if list(shuffled_cards) != sorted(shuffled_cards):
            return ["stock_shuffled: the shuffled cards are listed sorted"]
        distinct = set(shuffled_part)  # one deck: no card twice, a set is the cheap check
        if (not distinct.issubset(shuffled_cards) if len(distinct) == len(shuffled_part)
                else Counter(shuffled_part) - Counter(shuffled_cards)):
            return ["the stock holds cards its shuffle did not shuffle"]
    return []
