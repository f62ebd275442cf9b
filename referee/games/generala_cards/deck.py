"""The Générala deck and the strength of its cards (docs/rules/generala-cards.md, clauses 1, 4
and 12).

Rules enforced, in plain words: 54 cards, the 52 of the standard deck and two jokers. Ranks
low to high: 2 3 4 5 6 7 8 9 10 J Q K A, then the joker above the ace; suits have no order.
Of two jokers in one trick the first laid is the stronger (the trick rules read the order of
play for that, see `tricks`).
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.core.cards import JOKERS, RANKS, standard_deck

DECK = standard_deck(jokers=2)
DECK_SET = frozenset(DECK)
JOKER_SET = frozenset(JOKERS)
# Display and listing order: by suit (clubs, diamonds, hearts, spades), then rank, jokers last.
ORDER = {card: i for i, card in enumerate(DECK)}
# Strength of a card, low to high: 2 .. 10 J Q K A, then the joker above the ace.
JOKER_STRENGTH = len(RANKS)
STRENGTH = {card: (JOKER_STRENGTH if card in JOKER_SET else RANKS.index(card[0]))
            for card in DECK}


def in_card_order(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)
