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

import functools
import hashlib
import itertools
import secrets
import struct
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

SEED_BYTES = 16
WORD_RANGE = 1 << 32
WORDS_PER_BLOCK = 8
_FACES = (1, 2, 3, 4, 5, 6)  # a die's face for each draw below 6
# _LIMITS[n]: the largest multiple of n that fits in 32 bits, the words below which a draw
# below n accepts, for every n a die or a deck of cards needs (two decks: 108 cards).
_LIMITS = tuple(WORD_RANGE - WORD_RANGE % n if n else 0 for n in range(256))
_EVERY_WORD = range(WORD_RANGE)  # the value of each word drawn below 2**32: the word itself

T = TypeVar("T")


def new_seed() -> str:
    """A fresh secret seed: 128 random bits as 32 hex digits."""
    return secrets.token_hex(SEED_BYTES)


@functools.lru_cache(maxsize=1024)
def commitment(seed: str) -> str:
    """The public commitment published at creation: SHA-256 over the seed's UTF-8 bytes.
    Every answer of a match carries it again, so the last ones made are remembered."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


# HMAC-SHA256 (RFC 2104) is SHA-256(key ^ opad || SHA-256(key ^ ipad || message)), the key
# first hashed when longer than SHA-256's 64-byte block and padded with zeros to it.
_HASH_BLOCK = 64
_INNER_PAD = bytes(x ^ 0x36 for x in range(256))
_OUTER_PAD = bytes(x ^ 0x5C for x in range(256))


def hmac_pads(key: bytes) -> tuple[Any, Any]:
    """The two hashes HMAC-SHA256 keyed on `key` starts from, each already fed its padded key:
    HMAC(key, m) is `outer.copy()` fed the digest of `inner.copy()` fed m. Under a key used
    many times this costs two copies and two short hashes, not the key's padding and two
    more compressions each time. The hashes are only ever copied, never fed."""
    if len(key) > _HASH_BLOCK:
        key = hashlib.sha256(key).digest()
    key = key.ljust(_HASH_BLOCK, b"\0")
    return (hashlib.sha256(key.translate(_INNER_PAD)),
            hashlib.sha256(key.translate(_OUTER_PAD)))


def hmac_from_pads(pads: tuple[Any, Any], message: bytes) -> bytes:
    """HMAC-SHA256(key, message) from the key's `hmac_pads`."""
    inner = pads[0].copy()
    inner.update(message)
    outer = pads[1].copy()
    outer.update(inner.digest())
    return outer.digest()


@functools.lru_cache(maxsize=1024)
def _keyed(seed: str) -> tuple[Any, Any]:
    """The HMAC pads of a match's seed: a match draws every chance event under one key."""
    return hmac_pads(seed.encode("utf-8"))


class Stream:
    """The draws of one chance event: the words of HMAC-SHA256(seed, "step:i") for i = 0, 1...

    The words made so far are one tuple, read from position `_read` on. Block 0 is made with
    the stream, since every event reads it and most read nothing else (a roll of five dice
    reads five of its eight words). A read past the words made makes every block it needs at
    once (a shuffle of a deck needs seven), one HMAC after another and one unpacking for all
    of their words."""

    __slots__ = ("_pads", "_read", "_step", "_words")

    def __init__(self, seed: str, step: int) -> None:
        self._pads = pads = _keyed(seed)
        self._step = step = int(step)
        self._words = _BLOCK_WORDS.unpack(_block(pads, step, 0))
        self._read = 0

    def _take(self, count: int) -> tuple[int, ...]:
        """The next `count` words of the stream, read."""
        start = self._read
        end = self._read = start + count
        words = self._words
        if end > len(words):
            words = self._words = words + _blocks_words(
                self._pads, self._step, len(words) // WORDS_PER_BLOCK,
                -(-end // WORDS_PER_BLOCK))
        return words[start:end]

    def _next_word(self) -> int:
        return self._take(1)[0]

    def block(self, index: int) -> bytes:
        """Block `index` of this stream (32 bytes); the words are read from these in order."""
        return _block(self._pads, self._step, index)

    def word(self) -> int:
        """The next big-endian 32-bit word of the stream: a draw below 2**32, which accepts
        every word as it is."""
        return self._draw(WORD_RANGE, 1, _EVERY_WORD)[0]

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), 1 <= n <= 2**32: words at or above the largest multiple
        of n that fits in 32 bits are skipped, so every value is equally likely."""
        return self.draws(n, 1)[0]

    def draws(self, n: int, count: int) -> list[int]:
        """`count` draws of `below(n)` one after another (a roll of several dice at once)."""
        return self._draw(n, count, range(n))

    def die(self) -> int:
        """One die: 1 to 6."""
        return self.dice(1)[0]

    def dice(self, count: int) -> tuple[int, ...]:
        """`count` dice, each 1 + below(6)."""
        return tuple(self._draw(6, count, _FACES))

    def _draw(self, n: int, count: int, values: Sequence[T]) -> list[T]:
        """`values[below(n)]` drawn `count` times one after another. Each word gives at most
        one draw, so the words still to read are at least the draws still to make: those are
        read at once, and again for the ones refused (a word too high to draw evenly), until
        every draw is made."""
        if not 1 <= n <= WORD_RANGE:
            raise ValueError(f"below({n}): n must be between 1 and 2**32")
        limit = _limit(n)
        drawn: list[T] = []
        while (wanted := count - len(drawn)) > 0:
            drawn += [values[word % n] for word in self._take(wanted) if word < limit]
        return drawn

    def shuffle(self, items: Iterable[T]) -> list[T]:
        """A new list: Fisher-Yates over `items` in the order given, swapping position i with
        below(i + 1) for i from the last position down to 1 (below inlined: a shuffle is the
        most frequent and longest draw). Each swap reads the next word; one refused (too high
        to draw evenly) reads the one after it, and the next swap reads on from there. The
        words of every swap are read at once, then one more for each word refused."""
        pile = list(items)
        swaps = _swaps(len(pile))
        words = itertools.chain(self._take(len(swaps)), iter(self._next_word, None))
        for (i, n, limit), word in zip(swaps, words):
            while word >= limit:
                word = next(words)
            j = word % n
            pile[i], pile[j] = pile[j], pile[i]
        return pile


def _formatted(step: int, index: int) -> bytes:
    return b"%d:%d" % (step, index)


# Block 0's message for the steps a match reaches, made once: every chance event reads its
# block 0, and formatting the message costs more than the rest of the Python around a roll.
_FIRST_STEPS = 4096
_FIRST_MESSAGES = tuple(_formatted(step, 0) for step in range(_FIRST_STEPS))


def _message(step: int, index: int) -> bytes:
    """The message of block `index` of the stream of `step`: "step:index" in ASCII."""
    if not index and 0 <= step < _FIRST_STEPS:
        return _FIRST_MESSAGES[step]
    return _formatted(step, index)


def _block(pads: tuple[Any, Any], step: int, index: int) -> bytes:
    """Block `index` of the stream of `step` under the seed's pads: HMAC(seed, "step:index")."""
    return hmac_from_pads(pads, _message(step, index))


def _blocks_words(pads: tuple[Any, Any], step: int, first: int, end: int) -> tuple[int, ...]:
    """The words of blocks `first` to `end` - 1 of the stream of `step` under the seed's pads."""
    blocks = b"".join([_block(pads, step, index) for index in range(first, end)])
    return _words_of(end - first).unpack(blocks)


@functools.cache
def _words_of(blocks: int) -> struct.Struct:
    """The big-endian 32-bit words of this many blocks, read at once."""
    return struct.Struct(f">{WORDS_PER_BLOCK * blocks}I")


_BLOCK_WORDS = _words_of(1)  # one block's, which every stream reads first


def _limit(n: int) -> int:
    """The words below which a draw below n accepts: the largest multiple of n in 32 bits."""
    return _LIMITS[n] if n < len(_LIMITS) else WORD_RANGE - WORD_RANGE % n


@functools.lru_cache(maxsize=64)
def _swaps(size: int) -> tuple[tuple[int, int, int], ...]:
    """Fisher-Yates over `size` items: (position i, the count i + 1 drawn below, the words
    below which a draw accepts), from the last position down to 1."""
    return tuple((i, i + 1, _limit(i + 1)) for i in range(size - 1, 0, -1))


# stream(seed, step): the stream of draws of the chance event at `step` of the match seeded
# with `seed` (the class itself, called as a function: a roll makes one per chance event).
stream = Stream
