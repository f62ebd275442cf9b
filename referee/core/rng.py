"""The one random source every game draws from.

A match carries a secret `seed` and a `step` counter in its state. Each chance event (a roll,
a shuffle, a deal, a dealer draw) asks for the generator of the current step and then stores
step + 1, so the same state always gives the same outcome, a replayed request cannot re-roll,
and anyone holding the revealed seed can recompute every outcome afterwards
(see `scripts/verify_match.py`).
"""

from __future__ import annotations

import functools
import hashlib
import random
import secrets

SEED_BYTES = 16


def new_seed() -> str:
    """A fresh secret seed: 128 random bits as 32 hex digits."""
    return secrets.token_hex(SEED_BYTES)


def normalise_seed(seed: str | int | None) -> str:
    """Turn a caller's seed (any string or integer) into the canonical seed string."""
    if seed is None:
        return new_seed()
    return str(seed)


@functools.lru_cache(maxsize=1024)
def commitment(seed: str) -> str:
    """The public commitment published at creation: SHA-256 over the seed's UTF-8 bytes.
    Every answer of a match carries it again, so the last ones made are remembered."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def generator(seed: str, step: int) -> random.Random:
    """The generator for one chance event: Python's Mersenne Twister seeded with
    SHA-256(seed ":" step), so each step's draws are independent of how many numbers the
    previous steps consumed."""
    digest = hashlib.sha256(f"{seed}:{step}".encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest, "big"))
