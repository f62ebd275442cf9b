"""The one random source every game draws from, specified in docs/FAIRNESS.md.

A match carries a secret `seed` and a `step` counter in its state. Each chance event (a roll,
a shuffle, a deal, a dealer draw) opens the stream of the current step and then stores
step + 1, so the same state always gives the same outcome, a replayed request cannot re-roll,
and anyone holding the revealed seed can recompute every outcome afterwards.

The stream is defined only with HMAC-SHA256, so any language (and a browser's Web Crypto)
can recompute it: block i of step s is HMAC-SHA256(key = seed, message = "s:i"); the blocks
are read as big-endian 32-bit words; an integer below n is drawn by rejection (no modulo
bias) and a shuffle is Fisher-Yates from the last position down. The JavaScript twin is
`referee/http/static/fairness.js`; both are checked against the vectors of docs/FAIRNESS.md.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Iterable
from typing import TypeVar

SEED_BYTES = 16
WORD_RANGE = 1 << 32
WORDS_PER_BLOCK = 8
_WORDS = struct.Struct(">8I")

T = TypeVar("T")


def new_seed() -> str:
    """A fresh secret seed: 128 random bits as 32 hex digits."""
    return secrets.token_hex(SEED_BYTES)


def normalise_seed(seed: str | int | None) -> str:
    """Turn a caller's seed (any string or integer) into the canonical seed string."""
    if seed is None:
        return new_seed()
    return str(seed)


def commitment(seed: str) -> str:
    """The public commitment published at creation: SHA-256 over the seed's UTF-8 bytes."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Stream:
    """The draws of one chance event: the words of HMAC-SHA256(seed, "step:i") for i = 0, 1..."""

    __slots__ = ("_key", "_prefix", "_words")

    def __init__(self, seed: str, step: int) -> None:
        self._key = seed.encode("utf-8")
        self._prefix = f"{int(step)}:"
        self._words = self._all_words()

    def block(self, index: int) -> bytes:
        """Block `index` of this stream (32 bytes); the words are read from these in order."""
        message = (self._prefix + str(index)).encode("ascii")
        return hmac.digest(self._key, message, "sha256")

    def _all_words(self):
        index = 0
        while True:
            words = _WORDS.unpack(self.block(index))
            index += 1
            yield from words

    def word(self) -> int:
        """The next big-endian 32-bit word of the stream."""
        return next(self._words)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), 1 <= n <= 2**32: words at or above the largest multiple
        of n that fits in 32 bits are skipped, so every value is equally likely."""
        if not 1 <= n <= WORD_RANGE:
            raise ValueError(f"below({n}): n must be between 1 and 2**32")
        limit = WORD_RANGE - WORD_RANGE % n
        for word in self._words:
            if word < limit:
                return word % n
        raise AssertionError("the stream never ends")

    def die(self) -> int:
        """One die: 1 to 6."""
        return 1 + self.below(6)

    def dice(self, count: int) -> tuple[int, ...]:
        return tuple(self.die() for _ in range(count))

    def shuffle(self, items: Iterable[T]) -> list[T]:
        """A new list: Fisher-Yates over `items` in the order given, swapping position i with
        below(i + 1) for i from the last position down to 1 (below inlined: a shuffle is the
        most frequent and longest draw)."""
        pile = list(items)
        words = self._words
        for i in range(len(pile) - 1, 0, -1):
            n = i + 1
            limit = WORD_RANGE - WORD_RANGE % n
            for word in words:
                if word < limit:
                    break
            j = word % n
            pile[i], pile[j] = pile[j], pile[i]
        return pile


def stream(seed: str, step: int) -> Stream:
    """The stream of draws of the chance event at `step` of the match seeded with `seed`."""
    return Stream(seed, step)
