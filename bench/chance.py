"""The cost of one chance event with the random source of docs/FAIRNESS.md (HMAC-SHA256
words, rejection sampling, Fisher-Yates), beside the source it replaced: Python's Mersenne
Twister seeded with SHA-256(seed ":" step), which no other language reproduces."""

from __future__ import annotations

import hashlib
import random
import time

from referee.core import cards, rng

ONE_DECK = cards.standard_deck(jokers=2)
TWO_DECKS = cards.standard_deck(jokers=2, decks=2)


def twister(seed: str, step: int) -> random.Random:
    """The former source, kept here only to measure against."""
    digest = hashlib.sha256(f"{seed}:{step}".encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _five_dice(rnd: random.Random) -> tuple[int, ...]:
    return tuple(rnd.randint(1, 6) for _ in range(5))


EVENTS = {
    "5 dice": (lambda s, n: rng.stream(s, n).dice(5),
               lambda s, n: _five_dice(twister(s, n))),
    "dealer among 4": (lambda s, n: rng.stream(s, n).below(4),
                       lambda s, n: twister(s, n).randrange(4)),
    "shuffle 54 cards": (lambda s, n: cards.shuffled(ONE_DECK, s, n),
                         lambda s, n: twister(s, n).shuffle(list(ONE_DECK))),
    "shuffle 108 cards": (lambda s, n: cards.shuffled(TWO_DECKS, s, n),
                          lambda s, n: twister(s, n).shuffle(list(TWO_DECKS))),
}


def per_event(draw, seconds: float) -> float:
    """Microseconds per chance event, each at a new step as in a match."""
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            draw("bench-seed", count)
            count += 1
    return (time.perf_counter() - start) / count * 1e6


def report(seconds: float) -> None:
    share = max(0.2, seconds / (2 * len(EVENTS)))
    for name, (portable, former) in EVENTS.items():
        now, before = per_event(portable, share), per_event(former, share)
        print(f"{name:18s} {now:8.1f} µs per event (Mersenne Twister before: {before:6.1f} µs, "
              f"x{now / before:.2f})")
