"""What a move produced, shaped for a caller: status, who acts, legal moves, scores, events.

Events may carry a `private` part: `{"player": id, ...fields}` (or `{"players": [ids], ...}`
for a fact shared by a few, such as a card given in an exchange) holding what only those
players may learn. A trusted caller (no viewer) sees it merged into the event; a viewer sees
it only if he is named; everyone else gets the event without it.
"""

from __future__ import annotations

from typing import Any

from .engine import Engine, Event


def event_for(event: Event, viewer: str | None) -> Event:
    private = event.get("private")
    if private is None:
        return event
    public = {k: v for k, v in event.items() if k != "private"}
    if viewer is None or private.get("player") == viewer or viewer in private.get("players", ()):
        public.update({k: v for k, v in private.items() if k not in ("player", "players")})
    return public


def events_for(events: list[Event], viewer: str | None) -> list[Event]:
    return [event_for(e, viewer) for e in events]


def progress(engine: Engine, state: Any, *, now: float,
             player: str | None = None) -> dict[str, Any]:
    """Where the match stands: its status, who may act, and the legal moves (only
    `player`'s when one is named)."""
    finished = engine.is_finished(state)
    moves = engine.legal_moves(state, now=now)
    if player is not None:
        moves = [m for m in moves if m["player"] == player]
    return {
        "status": "finished" if finished else "in_progress",
        "to_act": [] if finished else engine.to_act(state, now=now),
        "legal_moves": moves,
    }


def describe(engine: Engine, state: Any, events: list[Event], *, now: float,
             viewer: str | None = None) -> dict[str, Any]:
    """Everything of an outcome except the state's wire form, which the service adds."""
    out = progress(engine, state, now=now, player=viewer)
    out["scores"] = engine.scores(state)
    out["events"] = events_for(events, viewer)
    if viewer is not None:
        out["view"] = engine.view(state, viewer)
    return out
