"""The state of a Générala (cards) match: plain frozen data, the wire form of open mode.

Seats are indexes into `players`; the player to a seat's right (counter-clockwise, the way
cards are dealt and play goes) is the next index, wrapping round.
"""

from __future__ import annotations

import dataclasses

import msgspec


# A frozen msgspec Struct, as every game's options: built, hashed and compared in C when a
# request's state is read (docs/ENGINE_GUIDE.md, "States").
class Options(msgspec.Struct, frozen=True, dict=True):
    variant: str = "french"
    lead_last_dealt_card: bool = False
    no_joker_after_joker: bool = False
    dealer: str = ""
    several_out_no_loser: bool = False
    two_player_deal_decides: bool = True
    tie_dealt_by_last_card: bool = False


@dataclasses.dataclass(frozen=True)
class Play:
    """One card laid in the current trick."""

    seat: int
    card: str


@dataclasses.dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    options: Options
    seed: str
    step: int
    deal: int  # number of the current deal, from 1
    dealer: int  # seat of the current deal's dealer (he plays only if still in the match)
    hands: tuple[tuple[str, ...], ...]  # per seat, in the order the cards came to the hand
    trick: tuple[Play, ...]  # the cards of the unfinished trick, in the order laid
    leader: int  # seat who leads (or led) the current trick
    current: int  # seat to act; -1 once the match has finished
    discards: tuple[str, ...]  # face down out of the game in this deal
    eliminated: tuple[int, ...]  # per seat: 0 while in the match, else the deal he lost
    first_lead: str | None = None  # the leader's last-dealt card until the deal's first lead
