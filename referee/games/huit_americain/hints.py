"""Hints and bots for Huit américain: `advise(engine, view, moves, level)`, which the package
wires into its engine (`ENGINE.advise(view, moves, level)` asks it).

Levels:
  easy    a uniformly random legal move.
  medium  a player's rules of thumb:
          - say "Contre-carte" whenever an opponent forgot "Carte" (he draws two), and always
            say "Carte" when laying the next-to-last card;
          - under an attack, pass it on or stop it with a card if one is held, else draw;
          - lay rather than draw, and among the cards that may be laid keep the wild ones (8s,
            jokers) for when nothing else goes, prefer a card whose suit stays longest in the
            hand (the next turns follow it), then the one that costs most points if held at the
            end of the round;
          - a card that names a suit names the suit held most; a card aimed at a player aims at
            the one holding fewest cards (of equals, the first in seat order); a card given
            away is the costliest one.
  hard    determinized Monte-Carlo (`referee.core.search`): the discard pile kept as the
          view shows it (every laid card is seen by all), the unseen cards dealt at random
          into the other hands and the stock (each as many as the view counts), each
          opponent's hand keeping what the table saw him lack (`lacks`: when he could not
          lay, none of his cards followed; only the cards that came to him since may); every
          move worth weighing (a lay without "Carte" where one with it is legal is not) is
          played in each sampled deal and the round played on by the rules of thumb for
          every seat (a horizon cuts long ones, then a cheaper hand than the others' counts
          as ahead). The search starts from the rules of thumb, preferring among the cards
          they would lay as readily one that leaves the next player a suit and rank he
          surely lacks, and overrules that move with one that wins more of the same sampled
          rounds by a standard error of the paired difference ("win_share": the round's
          lowest penalty wins, ties shared). At a table of four or more, where one player
          in four wins and a candidate's win or loss changes in few sampled rounds, the
          playouts stop after four turns round the table and score the race instead: each
          seat weighted exp(-cards held), the player's share of the weights (a round played
          out still scores the win); twice the deals (128, 1,024 playouts).

A hint reads only the view and the moves: the other hands, the stock's order and the seed are
never read, and the sampling is seeded from the view.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

from referee.core.engine import Engine, Move
from referee.core.hints import Advice
from referee.core.search import CardSearch, advise_at_level

from .rules import hand_points
# `determinize`, one sampled round, is the game's public name for it beside `deals`.
from .sampling import deals, determinize  # noqa: F401
from .state import OVER, Options, State


def advise(engine: Engine, view: dict[str, Any], moves: list[Move], level: str) -> Advice:
    """Advice at `level` for the player whose `view` this is, among `moves` (his legal
    moves); the search plays its sampled rounds with `engine`."""
    rules = hard_move if level == "hard" else medium_move
    search = TABLE_SEARCH if len(view["players"]) >= TABLE else SEARCH
    return advise_at_level(engine, search, view, moves, level, describe, rules)


def sure_lacks(view: dict[str, Any], player: str) -> tuple[str, str]:
    """The suits and ranks `player` surely lacks (a fact with no card arrived since)."""
    return next(((fact["suits"], fact["ranks"]) for fact in view["lacks"]
                 if fact["player"] == player and fact["arrived"] == 0), ("", ""))


def hard_move(view: dict[str, Any], moves: list[Move]) -> tuple[Move, str]:
    """Where the hard search starts (see the module's docstring); a card that names a suit
    names one the next player surely lacks and the player holds."""
    move, why = medium_move(view, moves)
    if move["type"] != "lay" or view["phase"] == "attack":
        return move, why
    players = view["players"]
    nxt = players[(players.index(view["you"]) + view["direction"]) % len(players)]
    suits, ranks = sure_lacks(view, nxt)
    if not suits:
        return move, why
    rules = Options(**view["options"]).rules
    plain_suit = rules.plain_suit
    held = {plain_suit[c] for c in view["hand"]}  # the suits of his plain cards (and None)

    def blocks(m: Move) -> bool:
        card = m["card"]
        if "suit" in m:
            return m["suit"] in suits and m["suit"] in held
        if plain_suit[card] is None:
            return False
        return card[1] in suits and card[0] in ranks

    wild = plain_suit[move["card"]] is None
    same = [m for m in moves if m["type"] == "lay" and (plain_suit[m["card"]] is None) == wild
            and m.get("announce") == move.get("announce")]
    blocking = [m for m in same if blocks(m)]
    if not blocking or blocks(move):
        return move, why
    return rules_of_thumb(rules, view["hand"], view["phase"], nxt, blocking)[0], (
        f"{nxt} surely lacks what it leaves in force")


def shortlist(moves: list[Move]) -> list[Move]:
    """The moves worth searching: a lay without "Carte" is left out where the same lay with
    it is legal (it only risks a challenge)."""
    said = {(m["type"], m["card"], m.get("suit"), m.get("target"))
            for m in moves if m.get("announce")}
    return [m for m in moves if m.get("announce") is not False
            or (m["type"], m["card"], m.get("suit"), m.get("target")) not in said]


def describe(move: Move) -> str:
    kind = move["type"]
    if kind in ("lay", "lay_out_of_turn"):
        text = f"lay {move['card']}"
        if "suit" in move:
            text += f" naming {move['suit']}"
        if "target" in move:
            text += f" aimed at {move['target']}"
        if move.get("announce"):
            text += ", saying \"Carte\""
        return text + (" out of turn" if kind == "lay_out_of_turn" else "")
    if kind == "give":
        return f"give {move['card']}"
    return {"draw": "draw", "pass": "pass", "challenge": "say \"Contre-carte\""}[kind]


def medium_move(view: dict[str, Any], moves: list[Move]) -> tuple[Move, str]:
    players, counts = view["players"], view["hand_counts"]
    fewest = fewest_held(players, [counts[p] for p in players], players.index(view["you"]))
    return rules_of_thumb(Options(**view["options"]).rules, view["hand"], view["phase"],
                          fewest, moves)


def fewest_held(players: list[str] | tuple[str, ...], counts: list[int], seat: int) -> str:
    """The player a card aimed at one is aimed at: of the players but the one at `seat`, the
    one holding fewest cards (`counts`, in seat order), the first in seat order of equals."""
    return players[min((n, s) for s, n in enumerate(counts) if s != seat)[1]]


def rules_of_thumb(rules: Any, hand: list[str] | tuple[str, ...], phase: str,
                   fewest: str | None, moves: list[Move]) -> tuple[Move, str]:
    """The medium player's move among `moves` (his own), and why, chosen in one pass over
    them: the first "Contre-carte"; else the costliest card to give; else the lay preferred
    (one saying "Carte" if any does; under attack the first such, else by `lay_preference`;
    of equals the first `lay` listed, then the first `lay_out_of_turn`); else the first draw,
    else the first pass."""
    points = rules.card_points
    held = None  # the plain suits of his hand (`lay_preference`), read once a lay is weighed
    lay = lay_key = give = draw = pass_ = None
    for m in moves:
        kind = m["type"]
        if kind == "lay" or kind == "lay_out_of_turn":
            if phase == "attack":
                key: tuple = (bool(m.get("announce")), kind == "lay")
            else:
                if held is None:
                    held = list(map(rules.plain_suit.get, hand))
                key = (bool(m.get("announce")), lay_preference(rules, held, fewest, m),
                       kind == "lay")
            if lay is None or key > lay_key:
                lay, lay_key = m, key
        elif kind == "challenge":
            return m, "an opponent forgot \"Carte\": he draws two"
        elif kind == "give":
            if give is None or points[m["card"]] > points[give["card"]]:
                give = m
        elif kind == "draw":
            draw = draw or m
        elif kind == "pass":
            pass_ = pass_ or m
    if give is not None:
        return give, "give away the card that costs most"
    if lay is None:
        return draw or pass_ or moves[0], "nothing to lay"
    if phase == "attack":
        return lay, "pass the attack on rather than draw"
    if rules.plain_suit[lay["card"]] is None:
        return lay, "only a wild card goes"
    return lay, ("keep the wild cards, follow with the suit held longest and shed the costliest "
                 "card")


def lay_preference(rules: Any, held: list[str | None], fewest: str | None, m: Move) -> tuple:
    """How much the rules of thumb like the lay `m`, from a hand whose plain suits are `held`
    (None for a wild card): a plain card before a wild one (kept for when nothing else goes),
    then the suit that stays longest in the hand, the card that costs most, the suit named
    that is held most, the player aimed at who holds fewest cards (`fewest`)."""
    card = m["card"]
    plain = rules.plain_suit[card] is not None
    return (plain, held.count(card[1]) - plain, rules.card_points[card],
            held.count(m["suit"]) if "suit" in m else 0, m.get("target") == fewest)


# -- the search's part -----------------------------------------------------------------------
def playout(engine: Engine, state: State, moves: list[Move],
            rng: random.Random | None) -> Move:
    """The medium player's rules of thumb for whoever is in turn: the sampled opponents play
    like people, not like dice. (Each playout follows the rules of thumb exactly, so a sampled
    deal's playout changes only with the candidate move: playing one move in ten at random
    instead added noise to every comparison: 54.5 % against 60.8 % of the same 200 duplicate
    matches against `medium`.) A single legal move leaves nothing to weigh: it is played."""
    if len(moves) == 1:
        return moves[0]
    seat = state.current
    player = state.players[seat]
    # Anyone else's moves (a challenge, a lay out of turn) may be listed among his.
    mine = [m for m in moves if m["player"] == player] or moves
    rules = state.options.rules
    # The player a lay may aim at is weighed only between lays that aim at one: the others
    # are equal in that respect, whoever holds fewest cards.
    fewest = None
    if rules.targeted and any("target" in m for m in mine):
        fewest = fewest_held(state.players, [len(hand) for hand in state.hands], seat)
    return rules_of_thumb(rules, state.hands[seat], state.phase, fewest, mine)[0]


def settled(before: State, after: State) -> bool:
    return after.round != before.round or after.phase == OVER


def value(world: State, state: State, player: str) -> float:
    """A round played out: 1 for the lowest penalty (shared when tied), else 0; a round cut
    short by the horizon: the share of the others whose hands cost more than his (ties
    half), as a blocked round is decided."""
    seat = state.players.index(player)
    if settled(world, state):
        points = state.round_points
        low = min(points)
        return 1 / points.count(low) if points[seat] == low else 0.0
    held = [hand_points(hand, state.options.rules.card_points) for hand in state.hands]
    mine = held[seat]
    others = [x for s, x in enumerate(held) if s != seat]
    return sum(1.0 if x > mine else 0.5 if x == mine else 0.0 for x in others) / len(others)


# The listing budget binds under house rules that list many moves a turn (moves aimed at each
# player, lays out of turn): the hints of seeded matches with the default options list at most
# some 37,000 (two to eight seats), and came out the same with it; at eleven seats with two
# decks, `on_the_fly` and the effects aimed at a player, up to 133,000, in 265-288 ms of CPU
# before it (the cost ceiling of docs/OPERATIONS.md is 250 ms).
SEARCH = CardSearch(deals=deals, playout=playout, settled=settled, value=value,
                    measure="win_share", worlds=64, horizon=60, playouts=512,
                    confidence=1.0, shortlist=shortlist, playout_draws=False, listed=60_000)


# How strongly a card more in the hand lowers the chance to go out first, at the horizon.
CARD_WEIGHT = 1.0


def race_value(world: State, state: State, player: str) -> float:
    """A round played out: 1 for the lowest penalty (shared when tied), else 0; a round cut
    short by the horizon: where the player stands in the race to empty his hand, each seat
    weighted exp(-cards held) and his the share of the weights (even hands give each an equal
    share, an empty hand nearly all of it)."""
    if settled(world, state):
        return value(world, state, player)
    weights = [math.exp(-CARD_WEIGHT * len(hand)) for hand in state.hands]
    return weights[state.players.index(player)] / sum(weights)


# From four seats on, `TABLE_SEARCH` (see the module's docstring): the hands' sizes tell
# something on every deal. On the same 200 duplicate four-seat matches against `medium`:
# 27.5 % against 26.8 % (64 deals, 16 moves: 27.0 %; 8 moves: 24.5 %; the whole round scored
# by the players' rank in penalty points: 23.8 %; 160 deals of whole rounds scored by the
# win: 24.0 %). Head to head the same search lost ground (56.0 % against 60.8 % of 200
# matches), so two and three seats keep `SEARCH`.
TABLE = 4
TABLE_SEARCH = dataclasses.replace(SEARCH, value=race_value, worlds=128, horizon=16,
                                   playouts=1024)
