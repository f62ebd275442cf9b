"""What a seat may not know, read from the referee's own state, and every string an answer
holds: the checks of the views and of the seat tokens."""

from __future__ import annotations

from collections import Counter


def strings(value):
    """Every string leaf of a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, child in value.items():
            yield key
            yield from strings(child)
    elif isinstance(value, (list, tuple)):
        for child in value:
            yield from strings(child)


def secret_cards(state, seat: int | None) -> set[str]:
    """Cards the player at `seat` (None: a spectator) must not learn: other hands, the stock
    and face-down cards, less any copy he may legitimately see (his own hand, the cards face
    up on the table)."""
    hidden: Counter = Counter()
    for other, hand in enumerate(getattr(state, "hands", ())):
        if other != seat:
            hidden.update(hand)
    for face_down in ("stock", "discards", "out_of_play"):
        hidden.update(getattr(state, face_down, ()))
    seen = Counter(state.hands[seat] if seat is not None and hasattr(state, "hands") else ())
    for face_up in ("pile", "table"):
        seen.update(getattr(state, face_up, ()))
    seen.update(play.card for play in getattr(state, "trick", ()))
    seen.update(under_stock(state))
    return {card for card in hidden if card not in seen}


def shuffled_inputs_left_out(event: dict) -> dict:
    """The event without the cards its chance object says were shuffled: a rebuilt or
    reshuffled stock's cards were face up on the pile, in everyone's sight, when they were
    shuffled, and their list tells nothing of where they lie (docs/FAIRNESS.md)."""
    chance = event.get("chance")
    if isinstance(chance, dict) and chance.get("draw") == "shuffle":
        return {**event, "chance": {k: v for k, v in chance.items() if k != "items"}}
    return event


def under_stock(state) -> tuple[str, ...]:
    """The cards under a stock that everyone saw laid (Empereur's cleared piles)."""
    known = getattr(state, "stock_known", 0)
    return state.stock[len(state.stock) - known:] if known else ()
