"""Rank order and card values of L'Empereur (docs/rules/empereur.md, clauses 2, 3, 17, 19):
3 low ... A, then 2 highest; jokers above all when drawn for the deal or given as a highest
card, and worth 20 in the Elite count. Suits never matter to the rules; they only put a hand
in a fixed order."""

from __future__ import annotations

# Ranks in the game's order, low to high (the rank characters of referee.core.cards).
RANK_ORDER = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2")
STRENGTH = {r: i for i, r in enumerate(RANK_ORDER)}
JOKER_STRENGTH = len(RANK_ORDER)  # a joker outranks every natural card (deal draw, exchange)
TWO = "2"
SUIT_ORDER = {"C": 0, "D": 1, "H": 2, "S": 3}
VALUES = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12,
          "K": 13, "A": 14, "2": 15, "X": 20}

# Sort position of every card of the deck: by strength, then suit (jokers X1 before X2).
CARD_KEY = {r + s: STRENGTH[r] * 4 + SUIT_ORDER[s] for r in RANK_ORDER for s in SUIT_ORDER}
CARD_KEY.update({"X1": JOKER_STRENGTH * 4, "X2": JOKER_STRENGTH * 4 + 1})
JOKERS = frozenset(("X1", "X2"))  # the deck's jokers (0 to 2 of them, by the options)
# The strength of every card of the deck in hand: its rank's place, jokers highest.
CARD_STRENGTH = {card: key // 4 for card, key in CARD_KEY.items()}


def sort_hand(cards) -> tuple[str, ...]:
    """Cards in hand order (only cards of the deck: check them first)."""
    return tuple(sorted(cards, key=CARD_KEY.__getitem__))


def value(card: str) -> int:
    return VALUES[card[0]]
