"""Dealing a Générala (cards) deal (docs/rules/generala-cards.md, clauses 3, 5, 6 and 7).

Rules enforced, in plain words: the first dealer is named by the `dealer` option or drawn from
the seed. Every deal, all 54 cards, shuffled, go one at a time counter-clockwise (to the next
seat) to the players still in the match, starting at the dealer's right, so hands differ by one
card at most; a dealer out of the match deals without playing. The player to the dealer's right
leads the deal's first trick, and the card he was dealt last is kept (`first_lead`) for the
German rule that he leads with it.
"""

from __future__ import annotations

from referee.core import chance, rng
from referee.core.cards import shuffled
from referee.core.engine import Event
from referee.core.errors import InvalidOptions

from .deck import DECK
from .declarations import dealer_seat
from .state import Options

Hands = tuple[tuple[str, ...], ...]


def first_dealer(players: tuple[str, ...], options: Options, seed: str) -> tuple[int, int]:
    """The first deal's dealer and the random step its shuffle takes: the dealer named by the
    option (the shuffle at step 0), or drawn at step 0 (the shuffle at step 1)."""
    if options.dealer:
        dealer = dealer_seat(players, options.dealer)
        if dealer is None:
            raise InvalidOptions(f"dealer: {options.dealer!r} is not a player nor a seat",
                                 problems=["dealer: must name a player or a seat index"])
        return dealer, 0
    return rng.stream(seed, 0).below(len(players)), 1


def dealing_order(n: int, eliminated: tuple[int, ...], dealer: int) -> list[int]:
    """The seats still in the match, counter-clockwise from the dealer's right."""
    return [(dealer + i) % n for i in range(1, n + 1) if eliminated[(dealer + i) % n] == 0]


def deal(n: int, eliminated: tuple[int, ...], dealer: int, seed: str,
         step: int) -> tuple[Hands, int, str]:
    """All 54 cards, shuffled at `step`, one at a time counter-clockwise to the players still
    in the match, starting at the dealer's right. Returns the hands, the first leader (the
    dealer's right) and the card he was dealt last."""
    order = dealing_order(n, eliminated, dealer)
    deck = shuffled(DECK, seed, step)
    hands: list[list[str]] = [[] for _ in range(n)]
    k = len(order)
    for i, card in enumerate(deck):
        hands[order[i % k]].append(card)
    leader = order[0]
    return tuple(tuple(h) for h in hands), leader, hands[leader][-1]


def deal_events(players: tuple[str, ...], eliminated: tuple[int, ...], dealer: int, leader: int,
                hands: Hands, deal_number: int, step: int) -> list[Event]:
    """The announcement of a deal: who deals (and whether he plays), who leads, how many cards
    each player holds; then each player's cards, told to him alone, with the shuffle they came
    from."""
    events: list[Event] = [{
        "type": "deal_dealt", "deal": deal_number, "dealer": players[dealer],
        "dealer_plays": eliminated[dealer] == 0, "leader": players[leader],
        "cards": {players[s]: len(h) for s, h in enumerate(hands) if eliminated[s] == 0}}]
    order = dealing_order(len(players), eliminated, dealer)
    for s, h in enumerate(hands):
        if h:
            # Card i of the shuffled deck went to order[i % len(order)].
            positions = [i for i in range(len(DECK)) if order[i % len(order)] == s]
            events.append({"type": "cards_dealt", "player": players[s], "count": len(h),
                           "private": {"player": players[s], "cards": list(h),
                                       "chance": chance.deck_shuffle(step, 2, 1, positions,
                                                                     "cards")}})
    return events
