"""Hints and bots: advice for one player, computed from what that player sees.

A hint is a player like any other: it receives the player's `view` (what
`Engine.view(state, player)` returns) and that player's legal moves (which depend only on what
he sees), never the state. It answers one of those moves, postable as it is, with what the
advice is worth in the game's terms. The same view, moves and level always give the same
advice: any sampling is seeded from the view itself (`seed_from_view`), never from the
match's seed, so asking twice cannot fish for a different answer and a hint cannot leak the
deck's order.

Levels: `easy`, `medium`, `hard` for every game; a game may declare more (see
`Engine.hint_levels`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import msgspec

from .engine import Move

LEVELS = ("easy", "medium", "hard")


@dataclasses.dataclass(frozen=True)
class Alternative:
    """A move the advice weighed, and what it is worth by the advice's `measure`."""

    move: Move
    value: float


@dataclasses.dataclass(frozen=True)
class Advice:
    """What a hint answers.

    measure: what `value` estimates, in the game's terms, e.g. "expected_final_score" (dice),
      "win_share" (share of sampled playouts won), "expected_points"; "none" when the level
      does not estimate (a uniformly random pick).
    value: the estimate for `move` (None when the measure is "none").
    alternatives: the best other moves weighed, best first, with their estimates.
    reason: one sentence in the game's terms saying why.
    """

    move: Move
    measure: str
    value: float | None
    reason: str
    alternatives: tuple[Alternative, ...] = ()

    def describe(self) -> dict[str, Any]:
        return msgspec.json.decode(msgspec.json.encode(self))


def seed_from_view(view: dict[str, Any], level: str, salt: str = "") -> int:
    """A sampling seed that depends only on what the player sees (and the level asked), so
    the same request always gives the same hint and two states the player cannot tell apart
    give the same hint."""
    canonical = msgspec.json.encode(view, order="sorted")
    digest = hashlib.sha256(canonical + b"\x00" + level.encode() + b"\x00" + salt.encode())
    return int.from_bytes(digest.digest()[:8], "big")


@dataclasses.dataclass(frozen=True)
class Seating:
    """Who sits at a match's table: which players are bots, and whether its humans may ask for
    hints. A hint is a bot's move and a beginner's help; it is not for a human playing other
    humans, unless whoever runs the match decides otherwise (`hints_allowed`)."""

    bots: tuple[str, ...] = ()
    hints_allowed: bool = False

    def may_advise(self, players: tuple[str, ...], player: str) -> bool:
        """A bot always may; a human may when hints are allowed or when he has no other human
        at the table to play against."""
        return (player in self.bots or self.hints_allowed
                or sum(1 for p in players if p not in self.bots) < 2)

    def problems(self, players: tuple[str, ...]) -> list[str]:
        problems = [f"seating: the bot {bot!r} is not a player" for bot in self.bots
                    if bot not in players]
        if len(set(self.bots)) != len(self.bots):
            problems.append("seating: a bot is named twice")
        return problems
