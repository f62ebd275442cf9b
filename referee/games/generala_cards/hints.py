"""Hints and bots for Générala (cards): `advise(engine, view, moves, level)`, which the package
wires into its engine (`ENGINE.advise(view, moves, level)`).

Levels:
  easy    a uniformly random legal move.
  medium  a player's rules of thumb:
          - leading, lay the highest card of the longest suit held (jokers last): a trick won
            is a trick led again, and a long suit is the one the others run out of first, so
            they must refuse and take a card back;
          - following, lay the lowest card that beats the trick if one does, else the lowest
            card of the suit (the high cards are kept to win later tricks);
          - unable to follow, lay a joker rather than refuse (refusing adds a card to the
            hand); refusing, take the trick's highest card, which wins a later trick.
  hard    determinized Monte-Carlo (`referee.core.search`) over sampled deals, played out at
          random to their end; the move that most often keeps the player from losing the deal
          wins ("win_share": the share of sampled deals he does not lose).

A hint reads only the view and the moves: never the other hands, the discards or the seed.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

from referee.core.engine import Engine, Move
from referee.core.hints import Advice
from referee.core.search import (CardSearch, advise_at_level, deal_unseen,
                                  fewest_cards_share, seated_hands)

from .deck import DECK, STRENGTH
from .state import Options, Play, State


def advise(engine: Engine, view: dict[str, Any], moves: list[Move], level: str) -> Advice:
    return advise_at_level(engine, SEARCH, view, moves, level, describe,
                           lambda v, m: medium_move(v["hand"], v["trick"], m),
                           search_from_rules=False)


def describe(move: Move) -> str:
    if move["type"] == "play":
        return f"lay {move['card']}"
    return f"refuse, taking {move['take']}"


def medium_move(hand: list[str], trick: list[dict[str, str]],
                moves: list[Move]) -> tuple[Move, str]:
    plays = [m for m in moves if m["type"] == "play"]
    refusals = [m for m in moves if m["type"] == "refuse"]
    naturals = [m for m in plays if m["card"][0] != "X"]
    if not trick:
        if naturals:
            suits = Counter(c[1] for c in hand if c[0] != "X")
            move = max(naturals, key=lambda m: (suits[m["card"][1]], STRENGTH[m["card"]]))
            return move, "lead the highest card of the longest suit"
        return plays[0], "lead what is left"
    if naturals and not refusals and trick[0]["card"][0] != "X":
        best = max(STRENGTH[t["card"]] for t in trick)
        winners = [m for m in naturals if STRENGTH[m["card"]] > best]
        if winners:
            return (min(winners, key=lambda m: STRENGTH[m["card"]]),
                    "follow with the lowest card that wins the trick, to lead the next")
        return (min(naturals, key=lambda m: STRENGTH[m["card"]]),
                "follow low: the trick is lost, keep the high cards")
    if plays and refusals:
        return plays[0], "unable to follow: a joker rather than a card taken back"
    if refusals:
        return (max(refusals, key=lambda m: STRENGTH[m["take"]]),
                "unable to follow: take back the trick's strongest card")
    return (min(naturals or plays, key=lambda m: STRENGTH[m["card"]]),
            "after a joker lead, shed a low card")


# -- the search's part -----------------------------------------------------------------------
def determinize(view: dict[str, Any], moves: list[Move], rng: random.Random) -> State:
    """A deal consistent with the view: the cards neither in the hand nor on the table,
    shuffled into the other hands (their counts are public) and the discards."""
    return deals(view, moves)(rng)


def deals(view: dict[str, Any], moves: list[Move]) -> Callable[[random.Random], State]:
    """What samples the deals consistent with the view (see `determinize`): the unseen cards,
    the hands' sizes and the state's seen fields are read off the view once, and each call
    with a random source deals one."""
    players = tuple(view["players"])
    me = players.index(view["you"])
    hand = tuple(view["hand"])
    on_table = [t["card"] for t in view["trick"]]
    seen = Counter(view["hand"]) + Counter(on_table)
    unseen = list((Counter(DECK) - seen).elements())
    others = [s for s in range(len(players)) if s != me]
    sizes = [view["cards"][players[s]] for s in others] + [0]
    options = Options(**view["options"])
    first_lead = None
    if options.lead_last_dealt_card and not on_table and len(moves) == 1 and \
            moves[0]["type"] == "play":
        first_lead = moves[0]["card"]
    seat = {p: s for s, p in enumerate(players)}
    shown = dict(players=players, options=options, step=0,
                 deal=view["deal"], dealer=seat[view["dealer"]],
                 trick=tuple(Play(seat[t["player"]], t["card"]) for t in view["trick"]),
                 leader=seat[view["leader"]], current=seat[view["to_act"]],
                 eliminated=tuple(view["out_of_match"].get(p, 0) for p in players),
                 first_lead=first_lead)

    def deal(rng: random.Random) -> State:
        places = deal_unseen(unseen, sizes, rng)
        hands = seated_hands(len(players), me, hand, others, places)
        return State(seed=f"{rng.getrandbits(64):016x}", hands=hands,
                     discards=tuple(places[-1]), **shown)

    return deal


def playout(engine: Engine, state: State, moves: list[Move], rng: random.Random) -> Move:
    return moves[int(rng.random() * len(moves))]


def settled(before: State, after: State) -> bool:
    return after.deal != before.deal


def value(world: State, state: State, player: str) -> float:
    """1 when the player did not lose the deal, 0 when he did; a deal cut short by the
    horizon counts the share of the other holders with more cards than he has (ties half)."""
    seat = state.players.index(player)
    if state.eliminated[seat]:
        return 0.0
    if state.deal != world.deal or state.current == -1:
        return 1.0
    return fewest_cards_share(state.hands, seat)


SEARCH = CardSearch(deals=deals, playout=playout, settled=settled, value=value,
                    measure="win_share", worlds=12, horizon=40, playouts=48)
