"""Seeds that players and the back end add to a match's server seed (docs/FAIRNESS.md,
"Contributions"), so that neither the server nor a player can choose a roll or a deal.

The server's seed is committed first; each contribution then changes the key every later
step's stream is drawn under:

    key_0 = server seed;  key_(i+1) = lowercase hex of HMAC-SHA256(key = UTF-8(key_i),
                                                                  message = UTF-8(seed_i))

A contribution made at step s applies to step s and every step after it, so the stream of
step t is keyed on key_n, n being how many contributions were made at a step <= t (each chance
object names that n). The engines only ever draw at the current step or later, so they hold
the current key as their state's `seed`; the service keeps the server seed and the
contributions beside the game's state (its `fairness`), and reveals both when the match ends.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Annotated, Any

import msgspec

# A contribution's seed: any string a person or a program can type or draw.
MAX_SEED_CHARS = 128
ContributedSeed = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_SEED_CHARS)]


class Contribution(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One seed added to the match: by a player (`player`) or the back end (null), mixed in
    from step `step` on."""

    player: Annotated[str | None, msgspec.Meta(
        description="The player who contributed it; null: the game's back end.")] = None
    seed: Annotated[ContributedSeed, msgspec.Meta(description="The contributed seed.")]
    step: Annotated[int, msgspec.Meta(ge=0, description=(
        "The first step whose stream it keys (0: at creation)."))]


class Fairness(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Kept beside the game's state when seeds were contributed: the server's own seed and
    the contributions in the order they were made."""

    seed: Annotated[str, msgspec.Meta(min_length=1, description="The server's seed.")]
    contributions: list[Contribution]


def mix(key: str, seed: str) -> str:
    """The key after one more contribution."""
    return hmac.new(key.encode("utf-8"), seed.encode("utf-8"), hashlib.sha256).hexdigest()


def key(seed: str, contributed: Iterable[str]) -> str:
    """The key after mixing the contributed seeds, in order, into the server seed."""
    for one in contributed:
        seed = mix(seed, one)
    return seed


def current_key(fairness: Fairness) -> str:
    return key(fairness.seed, (c.seed for c in fairness.contributions))


def used_at(fairness: Fairness, step: int) -> int:
    """How many contributions key the stream of `step`."""
    return sum(1 for c in fairness.contributions if c.step <= step)


def problems(fairness: Fairness, players: tuple[str, ...], state_seed: str,
             state_step: int) -> list[str]:
    """What an open-mode fairness record gets wrong against its game's state."""
    found = []
    if not fairness.contributions:
        found.append("fairness.contributions: empty (a match without contributions has none)")
    steps = [c.step for c in fairness.contributions]
    if steps != sorted(steps) or any(s > state_step for s in steps):
        found.append("fairness.contributions: steps out of order or ahead of the state")
    who = [c.player for c in fairness.contributions]
    if len(set(who)) != len(who):
        found.append("fairness.contributions: one contributor twice")
    strangers = [p for p in who if p is not None and p not in players]
    if strangers:
        found.append(f"fairness.contributions: {strangers[0]!r} is not a player")
    if not found and current_key(fairness) != state_seed:
        found.append("seed: not the key of fairness.seed and its contributions")
    return found


def annotate(events: list[dict[str, Any]], fairness: Fairness | None) -> list[dict[str, Any]]:
    """The events with each chance object naming how many contributions keyed its step
    (a new dict wherever one changes: events may share their chance objects)."""
    if fairness is None:
        return events
    return [_annotated(e, fairness) for e in events]


def _annotated(event: dict[str, Any], fairness: Fairness) -> dict[str, Any]:
    out = event
    if isinstance(event.get("chance"), dict):
        out = {**event, "chance": _counted(event["chance"], fairness)}
    private = event.get("private")
    if isinstance(private, dict) and isinstance(private.get("chance"), dict):
        out = {**out, "private": {**private, "chance": _counted(private["chance"], fairness)}}
    return out


def _counted(described: dict[str, Any], fairness: Fairness) -> dict[str, Any]:
    used = used_at(fairness, described["step"])
    return {**described, "contributions": used} if used else described
