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
from typing import Any, Callable

from referee.core.cards import standard_deck
from referee.core.engine import Move

from .state import Lack, Options, State


def determinize(view: dict[str, Any], moves: list[Move], rng: random.Random) -> State:
    """A round consistent with the view: the discard pile as it lies (laid face up, seen by
    all), and the cards neither in the hand nor in the pile shuffled into the other hands and
    the stock, as many as counted, keeping what the table saw each opponent lack (`lacks`). A
    card already laid is never dealt to an opponent."""
    return deals(view, moves)(rng)


def deals(view: dict[str, Any], moves: list[Move]) -> Callable[[random.Random], State]:
    """What samples the rounds consistent with the view (see `determinize`): what is the same
    for every sampled round (the unseen cards, the other hands' sizes and facts, the state's
    seen fields) is read off the view once, and each call with a random source deals one."""
    options = Options(**view["options"])
    players = tuple(view["players"])
    seat = {p: s for s, p in enumerate(players)}
    me = seat[view["you"]]
    hand = tuple(view["hand"])
    pile = tuple(view["pile"])
    unseen = unseen_cards(options.decks, hand, pile)
    sizes = {s: view["hand_counts"][p] for s, p in enumerate(players) if s != me}
    lacks = tuple(Lack(seat[f["player"]], f["arrived"], f["suits"], f["ranks"])
                  for f in view["lacks"])
    parts = parts_keeping_lacks(unseen, sizes, lacks, options.rules.wild)
    seen = dict(
        players=players, options=options, step=0, round=view["round"],
        stock_step=-1, stock_shuffled=None, stock_start=0,
        pile=pile, suit=view["suit"], rank=view["rank"],
        current=seat[view["current"]], direction=view["direction"], phase=view["phase"],
        attack=view["attack"], passes=view["passes"],
        unannounced=seat[view["unannounced"]] if view["unannounced"] else -1,
        totals=tuple(view["totals"][p] for p in players), round_points=(0,) * len(players),
        give_to=seat[view["give_to"]] if view["give_to"] else -1, give_left=view["give_left"],
        lacks=lacks)

    def deal(rng: random.Random) -> State:
        dealt, stock = deal_parts(unseen, parts, sizes, rng)
        hands = tuple(hand if s == me else dealt[s] for s in range(len(players)))
        return State(seed=f"{rng.getrandbits(64):016x}", hands=hands, stock=stock, **seen)

    return deal


def unseen_cards(decks: int, hand: tuple[str, ...], pile: tuple[str, ...]) -> tuple[str, ...]:
    """The cards of `decks` deck(s) neither in `hand` nor in `pile`, sorted."""
    deck = Counter(standard_deck(jokers=2, decks=decks))
    return tuple(sorted((deck - Counter(hand) - Counter(pile)).elements()))


# Fresh shuffles tried before a deal that breaks a fact is accepted (the facts are true of the
# real hands, so deals keeping them exist; 6,575 sampled deals along 60 matches of two to four
# players all kept them).
DEAL_TRIES = 20


# One part of an opponent's hand: (how restricted, seat, part, count, the unseen cards it may
# take); a part that lacks nothing may take any (None).
Part = tuple[int, int, int, int, frozenset[str] | None]


def parts_keeping_lacks(unseen: tuple[str, ...], sizes: dict[int, int],
                        lacks: tuple[Lack, ...], wild: frozenset[str]) -> tuple[Part, ...]:
    """The parts the other hands (`sizes`: seat -> count) are dealt in from the `unseen`
    cards, each hand keeping its facts, the most restricted first. A player's facts, oldest
    first (the most cards arrived since), split his hand by when its cards came: those held
    before the oldest fact are of none of the facts' cards; those that came between two facts
    are of none of the later facts' cards; the last ones, as many as arrived since the newest
    fact, are free. (The split supposes he kept every card that arrived since: it asks the
    least of his hand the facts allow.) Facts that name no suit restrict nothing."""
    parts = []
    for s, size in sizes.items():
        facts = sorted((f for f in lacks if f.seat == s), key=lambda f: -f.arrived)
        held = size
        for k, fact in enumerate(facts):
            later = facts[k:]
            suits = frozenset("".join(f.suits for f in later))
            ranks = frozenset("".join(f.ranks for f in later)) | wild
            count = held - fact.arrived
            may_take = frozenset(c for c in unseen if c[1] not in suits
                                 and c[0] not in ranks) if suits else None
            parts.append((-(13 * len(suits) + 4 * len(ranks)), s, k, count, may_take))
            held = fact.arrived
        parts.append((1, s, len(facts), held, None))
    parts.sort(key=lambda d: (d[0], d[1], d[2]))
    return tuple(parts)


def deal_parts(unseen: tuple[str, ...], parts: tuple[Part, ...], sizes: dict[int, int],
               rng: random.Random) -> tuple[dict[int, tuple[str, ...]], tuple[str, ...]]:
    """The unseen cards dealt at random into the other hands' `parts`
    (`parts_keeping_lacks`), the rest into the stock: each part from the shuffled cards it
    may take, a fresh shuffle when one cannot be filled (the last try fills it anyway)."""
    for attempt in range(DEAL_TRIES):
        cards = list(unseen)
        rng.shuffle(cards)
        dealt: dict[tuple[int, int], list[str]] = {}
        kept = True
        for _, s, k, count, may_take in parts:
            if may_take is None:
                taken = cards[:count]
                del cards[:count]
            else:
                taken, rest = [], []
                for card in cards:
                    if len(taken) < count and card in may_take:
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
            dealt[(s, k)] = taken
        if kept or attempt == DEAL_TRIES - 1:
            break
    hands = {s: tuple(c for k in range(len(parts)) for c in dealt.get((s, k), ()))
             for s in sizes}
    return hands, tuple(cards)
