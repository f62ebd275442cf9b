"""The declared shapes of Générala's events, view and scores (see referee.core.wire)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from referee.core.wire import (Card, Chance, Count, Declared, Event, PlayerId,
                                match_created_event, private)

from .state import Options

Deal = Annotated[int, msgspec.Meta(ge=1, description="A deal's number, from 1.")]


class DealDealt(Event, tag="deal_dealt"):
    """A deal begins: who dealt, whether he plays in it, who leads, how many cards each got."""

    deal: Deal
    dealer: PlayerId
    dealer_plays: bool
    leader: PlayerId
    cards: dict[PlayerId, Count]
    chance: Annotated[Chance, msgspec.Meta(
        description="The dealer's draw, when no `dealer` option named him.")] = msgspec.UNSET


class CardsDealt(Event, tag="cards_dealt"):
    """A player's hand for the deal."""

    player: PlayerId
    count: Count
    cards: Annotated[list[Card], private("The cards dealt, for their owner.")] = msgspec.UNSET
    chance: Annotated[Chance, private("The shuffle those cards came from.")] = msgspec.UNSET


class CardPlayed(Event, tag="card_played"):
    player: PlayerId
    card: Card
    joker: bool


class PlayerOut(Event, tag="player_out"):
    """The player laid his last card: he is out of this deal."""

    player: PlayerId
    deal: Deal


class TrickWon(Event, tag="trick_won"):
    """The trick is complete; `card` won it (jokers lose to everything)."""

    player: PlayerId
    card: Card
    cards: list[Card]


class CardTaken(Event, tag="card_taken"):
    """The player refused the trick and took one of its cards; the rest went face down."""

    player: PlayerId
    card: Card
    discarded: list[Card]


class TrickLedNext(Event, tag="trick_led_next"):
    player: PlayerId


class DealLost(Event, tag="deal_lost"):
    """The last player holding cards lost the deal, and leaves the match."""

    player: PlayerId
    deal: Deal
    cards: Count


class DealWithoutLoser(Event, tag="deal_without_loser"):
    """Nobody lost the deal (the players named went out together)."""

    deal: Deal
    players: list[PlayerId]


class MatchWon(Event, tag="match_won"):
    player: PlayerId
    deal: Deal


EVENTS = (match_created_event(Options), DealDealt, CardsDealt, CardPlayed, PlayerOut, TrickWon,
          CardTaken, TrickLedNext, DealLost, DealWithoutLoser, MatchWon)


class TrickCard(Declared):
    player: PlayerId
    card: Card


class View(Declared):
    """What one player sees: his own hand, the trick on the table, everyone's card counts."""

    you: PlayerId
    players: list[PlayerId]
    deal: Deal
    dealer: PlayerId
    leader: PlayerId | None
    to_act: PlayerId | None
    hand: list[Card]
    trick: list[TrickCard]
    cards: dict[PlayerId, Count]
    out_of_deal: list[PlayerId]
    out_of_match: Annotated[dict[PlayerId, Deal], msgspec.Meta(
        description="Each player out of the match, with the deal he lost.")]
    finished: bool
    winner: PlayerId | None
    options: Annotated[Options, msgspec.Meta(
        description="The match's rules, which decide good play.")]


class PlayerScore(Declared):
    total: Annotated[Count, msgspec.Meta(description="Deals survived.")]
    cards: Count
    out_of_deal: bool
    out_of_match: bool
    lost_deal: Deal | None
    deals_lost: Annotated[int, msgspec.Meta(ge=0, le=1)]


class Scores(Declared):
    players: dict[PlayerId, PlayerScore]
    winners: list[PlayerId]
    draw: bool
    losers: Annotated[list[PlayerId], msgspec.Meta(
        description="Players out of the match, in the order they lost.")]
    deal: Deal
