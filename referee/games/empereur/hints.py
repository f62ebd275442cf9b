"""Hints for L'Empereur: `advise(engine, view, moves, level)`, wired into the engine by the
package (`ENGINE.advise(view, moves, level)`).

Levels:
  easy    a uniformly random legal move.
  medium  a player's rules of thumb (`bots.rules_of_thumb`), keeping twos and jokers for
          when nothing else goes, and after drawing laying the weakest play left (a two
          before a joker) rather than pass.
  hard    determinized Monte-Carlo (`referee.core.search`) over sampled rounds, played on by
          the rules of thumb for every seat, with no random move (a horizon cuts long rounds,
          then fewer cards than the others counts as ahead); it overrules the medium move only
          with a move that wins more of the same sampled rounds by a standard error of the
          paired difference ("win_share": the share of sampled rounds that make the player
          Emperor, or in the Mirror modes that do not make him Outcast).

A hint reads only the view and the moves: never the other hands, the stock's order or the seed.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from referee.core.engine import Engine, Move
from referee.core.hints import Advice
from referee.core.search import (
    CardSearch,
    advise_at_level,
    deal_unseen,
    fewest_cards_share,
    seated_hands,
)

from .bots import jokers_in, rules_of_thumb
from .ranks import sort_hand
from .rounds import SORTED_DECKS
from .state import Options, State


def advise(engine: Engine, view: dict[str, Any], moves: list[Move], level: str) -> Advice:
    return advise_at_level(engine, SEARCH, view, moves, level, describe, medium_move)


def describe(move: Move) -> str:
    kind = move["type"]
    if kind == "play":
        return f"lay {' '.join(move['cards'])} as {move['rank']}"
    if kind == "give":
        return f"give {move['card']} to {move['to']}"
    return kind


def medium_move(view: dict[str, Any], moves: list[Move]) -> tuple[Move, str]:
    return rules_of_thumb(len(view["hand"]), moves)


# -- the search's part -----------------------------------------------------------------------
def determinize(view: dict[str, Any], moves: list[Move], rng: random.Random) -> State:
    """A round consistent with the view: the cleared cards under the stock where the view
    shows them, and the cards neither in the hand, on the pile nor under the stock shuffled
    into the other hands and the stock's top, as many as the view counts."""
    return deals(view, moves)(rng)


def deals(view: dict[str, Any], moves: list[Move]) -> Callable[[random.Random], State]:
    """What samples the rounds consistent with the view (see `determinize`): the unseen cards,
    the places' sizes and the state's seen fields are read off the view once, and each call
    with a random source deals one."""
    options = Options(jokers=view["jokers"], mode=view["mode"], rounds=view["rounds"],
                      target_points=view["target_points"])
    players = tuple(view["players"])
    seat = {p: s for s, p in enumerate(players)}
    me = seat[view["you"]]
    hand = tuple(view["hand"])
    pile = [p["card"] for p in view["pile"]]
    under = tuple(view["under_stock"])
    # the deck's cards are distinct: the unseen ones are those seen nowhere
    seen = {*hand, *pile, *under}
    unseen = [card for card in SORTED_DECKS[options.jokers] if card not in seen]
    others = [s for s in range(len(players)) if s != me]
    sizes = [view["hand_counts"][players[s]] for s in others] + [view["stock_shuffled_count"]]

    def index(player: str | None) -> int | None:
        return None if player is None else seat[player]

    playing = view["phase"] == "play"
    shown = dict(
        players=players, options=options, step=0,
        round=view["round"], phase=view["phase"], dealer=seat[view["dealer"]],
        stock_step=-1, stock_shuffled=None, stock_start=0, stock_known=len(under),
        pile=tuple(pile), pile_ranks=tuple(p["rank"] for p in view["pile"]),
        last_player=index(view["last_player"]),
        # Outside the play the seat to the dealer's left is current, as the deal left it.
        current=seat[view["current"]] if playing else (seat[view["dealer"]] + 1) % len(players),
        drawn=view["drawn"],
        roles=tuple(view["roles"][p] or "" for p in players),
        previous_roles=tuple(view["previous_roles"][p] or "" for p in players),
        gifts=tuple((seat[g["from"]], seat[g["to"]]) for g in view["gifts_due"]),
        exchange_stage=view["exchange_stage"],
        rounds_won=tuple(view["rounds_won"][p] for p in players),
        rounds_lost=tuple(view["rounds_lost"][p] for p in players),
        points=tuple(view["points"][p] for p in players),
        emperor=index(view["emperor"]), previous_emperor=index(view["previous_emperor"]))

    def deal(rng: random.Random) -> State:
        places = deal_unseen(unseen, sizes, rng)
        hands = seated_hands(len(players), me, hand, others, places, sort_hand)
        return State(seed=f"{rng.getrandbits(64):016x}", hands=hands,
                     stock=tuple(places[-1]) + under, **shown)

    return deal


def shortlist(moves: list[Move]) -> list[Move]:
    """The moves a player weighs: drawing or passing, and for each rank the plays of natural
    cards only (one, or all he holds) or of a single joker alone; more jokers in one play are
    left to the rules of thumb."""
    kept = [m for m in moves if m["type"] != "play"
            or (not jokers_in(m) and len(m["cards"]) in (1, max_naturals(moves, m["rank"])))]
    return kept[:SHORTLIST]


def max_naturals(moves: list[Move], rank: str) -> int:
    return max(len(m["cards"]) for m in moves
               if m["type"] == "play" and m["rank"] == rank and not jokers_in(m))


SHORTLIST = 8


def playout(engine: Engine, state: State, moves: list[Move],
            rng: random.Random | None) -> Move:
    """The medium player's rules of thumb for whoever is in turn, exactly: the sampled
    opponents play like people, and a sampled round's playout changes only with the
    candidate move (random moves in the playouts add noise to every comparison)."""
    return rules_of_thumb(len(state.hands[state.current]), moves)[0]


def settled(before: State, after: State) -> bool:
    return after.round != before.round or after.phase == "finished"


def value(world: State, state: State, player: str) -> float:
    """A round played out: 1 when it made the player Emperor (in the Mirror modes: when it did
    not make him Outcast), else 0; a round cut short by the horizon: how his card count
    compares with the others'."""
    seat = state.players.index(player)
    if not settled(world, state):
        return fewest_cards_share(state.hands, seat)
    ended_now = state.round == world.round
    roles = state.roles if ended_now else state.previous_roles
    if state.options.mirror:
        return 0.0 if roles[seat] == "outcast" else 1.0
    emperor = state.emperor if ended_now else state.previous_emperor
    return 1.0 if emperor == seat else 0.0


SEARCH = CardSearch(deals=deals, playout=playout, settled=settled, value=value,
                    measure="win_share", worlds=32, horizon=30, playouts=128,
                    confidence=1.0, shortlist=shortlist, playout_draws=False)
