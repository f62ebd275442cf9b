"""Playing cards as short canonical strings.

A card is its rank character followed by its suit character: ranks `2 3 4 5 6 7 8 9 T J Q K A`,
suits `C D H S` (clubs, diamonds, hearts, spades), so `TH` is the ten of hearts and `AS` the ace of
spades. The two jokers are `X1` and `X2`. With two decks the same string appears twice; a deck
is then a multiset, and conservation is checked with counts.
"""

from __future__ import annotations

import functools
from collections import Counter
from itertools import chain
from collections.abc import Iterable

from . import rng

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
JOKERS = ("X1", "X2")
JOKER_RANK = "X"


def is_joker(card: str) -> bool:
    return card[0] == JOKER_RANK


@functools.lru_cache(maxsize=16)
def standard_deck(*, jokers: int = 2, decks: int = 1) -> tuple[str, ...]:
    """52 natural cards plus `jokers` jokers, repeated `decks` times, in a fixed order."""
    one = tuple(r + s for s in SUITS for r in RANKS) + JOKERS[:jokers]
    return one * decks


def shuffled(cards: Iterable[str], seed: str, step: int) -> tuple[str, ...]:
    """The cards in the order the stream of `step` gives: sorted first, so the outcome depends
    only on which cards are shuffled and anyone can recompute it from the sorted list alone."""
    return tuple(rng.stream(seed, step).shuffle(sorted(cards)))


@functools.lru_cache(maxsize=16)
def _sorted(deck: tuple[str, ...]) -> list[str]:
    return sorted(deck)


def conservation_problems(places: dict[str, Iterable[str]], deck: Iterable[str]) -> list[str]:
    """Every way the cards found in `places` differ from `deck` (as multisets): a card missing,
    a card too many, or something that is not a card of this deck at all."""
    pool = sorted(chain.from_iterable(places.values()))
    if pool == _sorted(tuple(deck)):
        return []
    expected = Counter(deck)
    found = Counter(pool)
    problems = [f"{where} holds {card!r}, which is not a card of this deck"
                for where, cards in places.items() for card in cards if card not in expected]
    problems += [f"card {card} is missing ({count} short)"
                 for card, count in sorted((expected - found).items())]
    problems += [f"card {card} appears {count} time(s) too many"
                 for card, count in sorted((found - expected).items()) if card in expected]
    return problems
