"""Dice: faces 1 to 6, rolled from the match's random source."""

from __future__ import annotations

from . import rng


def roll(seed: str, step: int, count: int) -> tuple[int, ...]:
    return rng.stream(seed, step).dice(count)
