"""The state of a Huit américain match: plain frozen data, the wire form of open mode."""

from __future__ import annotations

import dataclasses
import functools

import msgspec

from .rules import DEFAULT_POINTS, EFFECTS, compiled_rules

# Phases of the player in turn (`State.phase`).
PLAY = "play"  # lay a card that follows, or deal with being stuck (pass / draw)
AGAIN = "again"  # he has just laid a "play again" card (10): lay another card or draw one
ATTACK = "attack"  # a draw attack is pending on him: answer it, stop it, or draw the penalty
HUNT = "hunt"  # a suit hunt is on him: he must draw until he gets the named suit
GIVE = "give"  # he has just laid a give-two card: he gives cards of his hand, one at a time
OVER = "over"  # the match has finished
PHASES = (PLAY, AGAIN, ATTACK, HUNT, GIVE, OVER)


# The options: the seed's choices and the house rules, then the effect table (`effect_<name>`:
# the rank that carries the effect, "off" to switch it off) and the points table
# (`points_<rank>`: what a card of that rank left in hand costs at the end of a round), their
# fields and defaults read off the rules' own tables. `rules` holds the rule tables the value
# compiles to, kept on the value (not a field: not encoded, not compared) so that every move
# of a match reads them at once. A msgspec Struct rather than a dataclass: every request reads
# the options from its state's JSON and looks their rules up by value, and a Struct of these
# 33 fields is built, hashed and compared in C, several microseconds less a request.
Options = msgspec.defstruct("Options", [
    ("decks", int, 1), ("when_stuck", str, "pass"), ("target", int, 100),
    ("draw_penalty_on_error", bool, False), ("on_the_fly", bool, False),
    ("no_finish_on_eight", bool, False), ("attack_returns", bool, False),
    *((f"effect_{name}", str, rank) for name, (rank, _) in EFFECTS.items()),
    *((f"points_{rank}", int, points) for rank, points in DEFAULT_POINTS.items()),
], namespace={"rules": functools.cached_property(compiled_rules)}, module=__name__,
    frozen=True, dict=True)


# A msgspec Struct, like the options: the facts of a hand are made again at each card that
# comes to it, and a Struct is built in C (its wire form is the same object). Its docstring
# is the contract's description of a fact.
class Lack(msgspec.Struct, frozen=True):
    """What the table saw a player lack: once, in turn, he could not lay, so none of his
    cards then was of `suits`, of `ranks` or wild (a card laid on anything). Since then
    `arrived` cards came into his hand (drawn or given), so at most `arrived` of the cards he
    holds now are of them. Facts seen with the same count since are merged; one that no
    longer says anything (as many arrived as he holds) is dropped, and a new deal drops all."""

    seat: int  # index of the player
    arrived: int
    suits: str  # the suits he lacked, e.g. "HS"
    ranks: str  # the ranks he lacked besides the wild ones, e.g. "7K" ("" after a named suit)


@dataclasses.dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    options: Options
    seed: str
    step: int  # the random step of the next chance event (deal, reshuffle)
    round: int  # the round being played (or the last one, once finished), from 1
    hands: tuple[tuple[str, ...], ...]  # each in the order its cards arrived
    stock: tuple[str, ...]  # face down; the last card is drawn first
    # Where the stock's cards come from (docs/FAIRNESS.md, "Drawn cards"): the shuffle of step
    # `stock_step` (-1: not recorded, as in a hand-made state) of `stock_shuffled` (the sorted
    # cards of a reshuffled pile; None: the whole deck(s) of the options, a deal), `stock[k]`
    # lying at position `stock_start + k` of its shuffled order.
    stock_step: int
    stock_shuffled: tuple[str, ...] | None
    stock_start: int
    pile: tuple[str, ...]  # face up; the last card is the top
    suit: str | None  # the suit in force (named by an 8, or the top's); None: anything goes
    rank: str | None  # the rank that also follows; None after a named suit
    current: int  # index of the player in turn
    direction: int  # 1: seat order, -1: reversed
    phase: str  # one of PHASES
    attack: int  # cards the pending attack makes the player in turn draw (0 if none)
    passes: int  # consecutive turns ended stuck with nothing laid and nothing drawn
    unannounced: int  # index of the player who laid his next-to-last card without "Carte", or -1
    totals: tuple[int, ...]  # match totals per player
    round_points: tuple[int, ...]  # points of the last round that ended (zeros before)
    give_to: int = -1  # GIVE phase: index of the player who receives the cards, else -1
    give_left: int = 0  # GIVE phase: cards still to give (1 or 2), else 0
    # What every player saw the others lack, from their stuck turns this round (public).
    lacks: tuple[Lack, ...] = ()
