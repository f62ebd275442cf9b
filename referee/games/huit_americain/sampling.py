"""The deals the hard hint samples (`hints`, level `hard`): rounds consistent with what one
player sees. The discard pile lies as the view shows it (every laid card is seen
by all); the cards neither in his hand nor in the pile are shuffled into the other hands and
the stock, as many as the view counts, each opponent's hand keeping what the table saw him
lack (`lacks`: when he could not lay, none of his cards followed; only the cards that came to
him since may). A card already laid is never dealt to an opponent.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from referee.core.cards import standard_deck
from referee.core.engine import Move
from referee.core.memo import BoundedMemo

from .state import Lack, Options, State


def determinize(view: dict[str, Any], moves: list[Move], rng: random.Random) -> State:
    """A round consistent with the view: the discard pile as it lies (laid face up, seen by
    all), and the cards neither in the hand nor in the pile shuffled into the other hands and
    the stock, as many as counted, keeping what the table saw each opponent lack (`lacks`). A
    card already laid is never dealt to an opponent."""
    options = Options(**view["options"])
    players = tuple(view["players"])
    seat = {p: s for s, p in enumerate(players)}
    me = seat[view["you"]]
    pile = tuple(view["pile"])
    unseen = _UNSEEN.get((options.decks, tuple(view["hand"]), pile), unseen_cards)
    sizes = {s: view["hand_counts"][p] for s, p in enumerate(players) if s != me}
    lacks = tuple(Lack(seat[f["player"]], f["arrived"], f["suits"], f["ranks"])
                  for f in view["lacks"])
    dealt, stock = deal_keeping_lacks(unseen, sizes, lacks, options.rules.wild, rng)
    hands = tuple(tuple(view["hand"]) if s == me else dealt[s] for s in range(len(players)))
    return State(
        players=players, options=options, seed=f"{rng.getrandbits(64):016x}", step=0,
        round=view["round"], hands=hands, stock=stock,
        stock_step=-1, stock_shuffled=None, stock_start=0,
        pile=pile, suit=view["suit"], rank=view["rank"],
        current=seat[view["current"]], direction=view["direction"], phase=view["phase"],
        attack=view["attack"], passes=view["passes"],
        unannounced=seat[view["unannounced"]] if view["unannounced"] else -1,
        totals=tuple(view["totals"][p] for p in players), round_points=(0,) * len(players),
        give_to=seat[view["give_to"]] if view["give_to"] else -1, give_left=view["give_left"],
        lacks=lacks)


def unseen_cards(key: tuple[int, tuple[str, ...], tuple[str, ...]]) -> tuple[str, ...]:
    """The cards of `decks` deck(s) neither in `hand` nor in `pile` (key: decks, hand, pile),
    sorted."""
    decks, hand, pile = key
    deck = Counter(standard_deck(jokers=2, decks=decks))
    return tuple(sorted((deck - Counter(hand) - Counter(pile)).elements()))


# Every sampled deal of a hint deals the same unseen cards: they are counted once a view.
_UNSEEN: BoundedMemo[tuple, tuple[str, ...]] = BoundedMemo(64)


# Fresh shuffles tried before a deal that breaks a fact is accepted (the facts are true of the
# real hands, so deals keeping them exist; 6,575 sampled deals along 60 matches of two to four
# players all kept them).
DEAL_TRIES = 20


def deal_keeping_lacks(unseen: tuple[str, ...], sizes: dict[int, int],
                       lacks: tuple[Lack, ...], wild: frozenset[str], rng: random.Random
                       ) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...]]:
    """The unseen cards dealt at random into the other hands (`sizes`: seat -> count), the
    rest into the stock, each hand keeping its facts. A player's facts, oldest first (the most
    cards arrived since), split his hand by when its cards came: those held before the oldest fact
    are of none of the facts' cards; those that came between two facts are of none of the
    later facts' cards; the last ones, as many as arrived since the newest fact, are free.
    (The split supposes he kept every card that arrived since: it asks the least of his hand
    the facts allow.) The most restricted parts are dealt first, each from the shuffled
    cards it may take."""
    demands = []  # (how restricted, seat, part, count, suits, ranks)
    for s, size in sizes.items():
        facts = sorted((f for f in lacks if f.seat == s), key=lambda f: -f.arrived)
        held = size
        for k, fact in enumerate(facts):
            later = facts[k:]
            suits = frozenset("".join(f.suits for f in later))
            ranks = frozenset("".join(f.ranks for f in later)) | wild
            count = held - fact.arrived
            demands.append((-(13 * len(suits) + 4 * len(ranks)), s, k, count, suits, ranks))
            held = fact.arrived
        demands.append((1, s, len(facts), held, frozenset(), frozenset()))
    demands.sort(key=lambda d: (d[0], d[1], d[2]))
    for attempt in range(DEAL_TRIES):
        cards = list(unseen)
        rng.shuffle(cards)
        parts: dict[tuple[int, int], list[str]] = {}
        kept = True
        for _, s, k, count, suits, ranks in demands:
            if not suits:
                taken = cards[:count]
                del cards[:count]
            else:
                taken, rest = [], []
                for card in cards:
                    if len(taken) < count and card[1] not in suits and card[0] not in ranks:
                        taken.append(card)
                    else:
                        rest.append(card)
                if len(taken) < count:
                    kept = False
                    if attempt < DEAL_TRIES - 1:
                        break
                    short = count - len(taken)
                    taken += rest[:short]
                    rest = rest[short:]
                cards = rest
            parts[(s, k)] = taken
        if kept or attempt == DEAL_TRIES - 1:
            break
    hands = {s: tuple(c for k in range(len(lacks) + 1) for c in parts.get((s, k), ()))
             for s in sizes}
    return hands, tuple(cards)
