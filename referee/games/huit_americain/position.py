"""Hand-made positions: a sound state built from the few facts a test or a tutorial cares
about (the hands and the pile), with every other card of the deck put in the stock."""

from __future__ import annotations

from collections import Counter

from referee.core.cards import JOKER_RANK, standard_deck

from .state import ATTACK, PLAY, Options, State


def position(hands, pile, *, players=None, stock=None, options=None, current=0, direction=1,
             phase=PLAY, attack=0, suit="", rank="", passes=0, unannounced=-1, totals=None,
             round_points=None, seed="seed", step=1, round=1, give_to=-1, give_left=0,
             **option_values) -> State:
    """`hands`: one sequence of cards per player; `pile`: bottom to top. The stock gets every
    other card of the deck (or exactly `stock`, last card drawn first). The suit and rank in
    force default to the top card's (the card under the jokers; nothing if all are jokers)."""
    opts = options or Options(**option_values)
    n = len(hands)
    players = tuple(players or ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy",
                                "jo", "kim")[:n])
    pile = tuple(pile)
    if stock is None:
        rest = Counter(standard_deck(jokers=2, decks=opts.decks))
        rest.subtract(Counter(c for h in hands for c in h))
        rest.subtract(Counter(pile))
        kept = []
        for card in standard_deck(jokers=2, decks=opts.decks):
            if rest[card] > 0:
                rest[card] -= 1
                kept.append(card)
        stock = tuple(kept)
    # After jokers, the card under them is in force.
    natural = [c for c in pile if c[0] != JOKER_RANK]
    top = natural[-1] if natural else None
    if suit == "":
        suit = top[1] if top else None
    if rank == "":
        rank = top[0] if top and suit == top[1] else None
    return State(
        players=players, options=opts, seed=seed, step=step, round=round,
        hands=tuple(tuple(h) for h in hands), stock=tuple(stock), pile=pile, suit=suit,
        stock_step=-1, stock_shuffled=None, stock_start=0,
        rank=rank, current=current, direction=direction,
        phase=phase if not attack or phase != PLAY else ATTACK, attack=attack, passes=passes,
        unannounced=unannounced, totals=tuple(totals or (0,) * n),
        round_points=tuple(round_points or (0,) * n), give_to=give_to, give_left=give_left,
    )
