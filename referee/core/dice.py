"""Dice: faces 1 to 6, rolled from the match's random source."""

from __future__ import annotations

from .rng import generator


def roll(seed: str, step: int, count: int) -> tuple[int, ...]:
    rnd = generator(seed, step)
    return tuple(rnd.randint(1, 6) for _ in range(count))
