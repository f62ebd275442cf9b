"""The state of an Empereur match: plain frozen data, the wire form of open mode."""

from __future__ import annotations

import dataclasses
import functools

import msgspec

MODES = ("normal", "elite", "mirror_normal", "mirror_elite")
PHASES = ("exchange", "play", "finished")
# Roles a player holds in a round: "" while he still plays, then one of these.
ROLES = ("emperor", "subject", "elect", "outcast")
# The exchanges that open a round from the second on, in the order they happen, by mode
# (« Règle des modes Elite et Miroir Elite », then « Règle des modes Miroir »). Each has two
# stages: the forced gifts of highest cards, then the free gifts.
EXCHANGES = {
    "normal": (),
    "elite": ("emperor",),
    "mirror_normal": ("outcast",),
    "mirror_elite": ("emperor", "outcast"),
}


# A frozen msgspec Struct, as every game's options: built, hashed and compared in C when a
# request's state is read (docs/ENGINE_GUIDE.md, "States").
class Options(msgspec.Struct, frozen=True, dict=True):
    jokers: int = 2
    mode: str = "normal"
    rounds: int = 3
    target_points: int = 500

    # Worked out once per options object and kept in its attribute dictionary (not a field:
    # neither the wire form, equality nor the hash sees it): the rules ask on every play.
    @functools.cached_property
    def mirror(self) -> bool:
        return self.mode.startswith("mirror")

    @functools.cached_property
    def elite(self) -> bool:
        return self.mode.endswith("elite")


@dataclasses.dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    options: Options
    seed: str
    step: int  # the next chance event uses this step
    round: int  # 1-based number of the round being played (or the last one, once finished)
    phase: str  # "exchange" (gifts before play), "play", or "finished"
    dealer: int  # index into players of this round's dealer
    hands: tuple[tuple[str, ...], ...]  # per player, sorted by strength
    stock: tuple[str, ...]  # face down; index 0 is the top (the next card drawn)
    # Where the stock's cards come from (docs/FAIRNESS.md, "Drawn cards"). Its last
    # `stock_known` cards are cleared piles laid face down under it, in the public order they
    # were laid; the cards above them are the rest of one shuffle: the shuffle of step
    # `stock_step` (-1: not recorded, as in a hand-made state) of `stock_shuffled` (the sorted
    # cards of a rebuilt stock; None: the whole deck of the options, a deal), `stock[0]` lying
    # at position `stock_start` of its shuffled order.
    stock_step: int
    stock_shuffled: tuple[str, ...] | None
    stock_start: int
    stock_known: int
    pile: tuple[str, ...]  # face up; the last card is the top
    pile_ranks: tuple[str, ...]  # the rank each pile card counts as (a joker: its named rank)
    last_player: int | None  # who laid the pile's last cards; None when the pile is empty
    current: int  # index of the player whose turn it is (meaningful in the play phase)
    drawn: bool  # the current player has drawn his one card this turn
    roles: tuple[str, ...]  # this round: "" still playing, else one of ROLES
    previous_roles: tuple[str, ...]  # the roles of the last finished round ("" before any)
    gifts: tuple[tuple[int, int], ...]  # exchange: (giver, receiver) gifts still due this stage
    # 0 outside an exchange; else the stage among the mode's exchanges (EXCHANGES): 1 and 2 the
    # first exchange's forced highest cards and free gifts, 3 and 4 the second's (Mirror Elite)
    exchange_stage: int
    rounds_won: tuple[int, ...]  # rounds as Emperor (Normal, Elite) or Elect (Mirror modes)
    rounds_lost: tuple[int, ...]  # rounds as Subject (Normal, Elite) or Outcast (Mirror modes)
    points: tuple[int, ...]  # Elite modes' points; always 0 in the Normal modes
    # This round's Emperor, in every mode: the first player to empty his hand without a joker
    # (in Normal and Elite also the last one left when the others went out by joker); None
    # until then, and for a Mirror round ended by a joker finish before anyone went out. In
    # the Mirror modes he is an Elect as well; everyone else is his Subject.
    emperor: int | None = None
    previous_emperor: int | None = None  # the last finished round's Emperor
