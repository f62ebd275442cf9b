"""The declared shapes of L'Empereur's events, view and scores (see referee.core.wire)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from referee.core.wire import (Card, Chance, Count, Declared, Event, PlayerId,
                                match_created_event, private)

from .ranks import RANK_ORDER
from .state import MODES, PHASES, ROLES, Options

Round = Annotated[int, msgspec.Meta(ge=1, description="A round's number, from 1.")]
Rank = Literal[RANK_ORDER]  # type: ignore[valid-type]
Role = Literal[ROLES]  # type: ignore[valid-type]
Mode = Literal[MODES]  # type: ignore[valid-type]
Phase = Literal[PHASES]  # type: ignore[valid-type]
Stage = Annotated[int, msgspec.Meta(ge=1, le=4, description=(
    "1 and 3: the forced gifts of highest cards; 2 and 4: the free gifts in return (3 and 4: "
    "Mirror Elite's second exchange, the Outcast's)."))]
Exchange = Annotated[Literal["emperor", "outcast"], msgspec.Meta(description=(
    "Whose exchange: the Emperor's (Elite modes) or the Outcast's (Mirror modes)."))]


class DealerCard(Declared):
    player: PlayerId
    card: Card


class Gift(Declared):
    giver: PlayerId = msgspec.field(name="from")
    to: PlayerId


class PileCard(Declared):
    card: Card
    rank: Annotated[Rank, msgspec.Meta(description="The rank it counts as (a joker: the rank "
                                                   "named for it).")]


class RoundStarted(Event, tag="round_started"):
    round: Round


class DealerDraw(Event, tag="dealer_draw"):
    """Each contender drew a card; the highest deals (ties draw again)."""

    round: Round
    draws: list[DealerCard]
    tied: list[PlayerId]
    chance: Chance


class DealerChosen(Event, tag="dealer_chosen"):
    round: Round
    player: PlayerId


class HandDealt(Event, tag="hand_dealt"):
    player: PlayerId
    count: Count
    cards: Annotated[list[Card], private("The cards dealt, for their owner.")] = msgspec.UNSET
    chance: Annotated[Chance, private("The shuffle those cards came from.")] = msgspec.UNSET


class StockFormed(Event, tag="stock_formed"):
    count: Count


class ExchangeStarted(Event, tag="exchange_started"):
    """Before play, cards change hands: the gifts due at this stage."""

    stage: Stage
    exchange: Exchange
    gifts: list[Gift]


class CardGiven(Event, tag="card_given"):
    player: PlayerId
    to: PlayerId
    stage: Stage
    exchange: Exchange
    card: Annotated[Card, private("The card, for the giver and the receiver.")] = msgspec.UNSET


class ExchangeFinished(Event, tag="exchange_finished"):
    round: Round


class Turn(Event, tag="turn"):
    """It is this player's turn."""

    player: PlayerId


class CardsPlayed(Event, tag="cards_played"):
    player: PlayerId
    cards: list[Card]
    rank: Rank


class TwoPlayed(Event, tag="two_played"):
    """A two: every other player still in draws a card, then the pile is cleared."""

    player: PlayerId


class PenaltyDrawn(Event, tag="penalty"):
    """A run of one rank on the pile: the next player draws one card per card of it but one."""

    player: PlayerId
    count: Count
    run: Count
    rank: Rank


class CardsDrawn(Event, tag="cards_drawn"):
    player: PlayerId
    count: Count
    wanted: Count
    reason: Literal["turn", "two", "penalty"]
    source: Annotated[Literal["shuffle", "under_stock"], msgspec.Meta(description=(
        "Where the cards came from: the shuffled part of the stock (its `chance` names the "
        "shuffle and positions), or the cleared cards laid face down under it, in a public "
        "order (not chance). A draw taking from both, or from a stock rebuilt on the way, "
        "is told by one event per part, in order; absent when nothing was drawn."))] = \
        msgspec.UNSET
    cards: Annotated[list[Card], private("The cards drawn, for the drawer.")] = msgspec.UNSET
    chance: Annotated[Chance, msgspec.Meta(description=(
        "Where those cards lie in the shuffle they came from (a shuffled part only): public, "
        "the cards it names being shown to the drawer alone."))] = msgspec.UNSET


class Passed(Event, tag="passed"):
    player: PlayerId


class StockRebuilt(Event, tag="stock_rebuilt"):
    """The empty stock became the pile less its highest cards, shuffled."""

    count: Count
    pile: list[PileCard]
    chance: Chance


class StockNotRebuilt(Event, tag="stock_not_rebuilt"):
    """The stock is empty and the pile holds only its highest cards: nothing to draw."""

    pile: Count


class PileCleared(Event, tag="pile_cleared"):
    reason: Literal["two", "returned"]
    count: Count


class PlayerOut(Event, tag="player_out"):
    player: PlayerId
    role: Role
    joker_finish: bool
    emperor: Annotated[bool, msgspec.Meta(description="He is this round's Emperor.")]


class RoundResult(Event, tag="round_result"):
    round: Round
    emperor: PlayerId | None
    roles: dict[PlayerId, Role]
    hand_values: dict[PlayerId, Count]
    cards_left: dict[PlayerId, Count]
    points_gained: dict[PlayerId, Count]
    points: dict[PlayerId, Count]


class MatchResult(Event, tag="match_result"):
    winners: list[PlayerId]
    losers: list[PlayerId]


EVENTS = (match_created_event(Options), RoundStarted, DealerDraw, DealerChosen, HandDealt,
          StockFormed, ExchangeStarted, CardGiven, ExchangeFinished, Turn, CardsPlayed,
          TwoPlayed, PenaltyDrawn, CardsDrawn, Passed, StockRebuilt, StockNotRebuilt,
          PileCleared, PlayerOut, RoundResult, MatchResult)


class View(Declared):
    """What one player sees: his hand, the pile, everyone's counts, roles and scores."""

    you: PlayerId
    players: list[PlayerId]
    mode: Mode
    jokers: Annotated[int, msgspec.Meta(ge=0, le=2)]
    rounds: Count
    target_points: Count
    round: Round
    phase: Phase
    dealer: PlayerId
    current: PlayerId | None
    drawn: bool
    to_act: list[PlayerId]
    hand: list[Card]
    hand_counts: dict[PlayerId, Count]
    stock_count: Count
    stock_shuffled_count: Annotated[Count, msgspec.Meta(description=(
        "The stock's top cards that are the rest of a shuffle, in an order nobody knows."))]
    under_stock: Annotated[list[Card], msgspec.Meta(description=(
        "The rest of the stock, under its shuffled cards: the cleared piles laid face down, "
        "in the order they will be drawn (everyone saw them laid)."))]
    pile: list[PileCard]
    last_player: PlayerId | None
    roles: dict[PlayerId, Role | None]
    previous_roles: dict[PlayerId, Role | None]
    emperor: PlayerId | None
    previous_emperor: PlayerId | None
    gifts_due: list[Gift]
    exchange_stage: Annotated[int, msgspec.Meta(ge=0, le=4)]
    exchange: Exchange | None
    points: dict[PlayerId, Count]
    rounds_won: dict[PlayerId, Count]
    rounds_lost: dict[PlayerId, Count]


class PlayerScore(Declared):
    total: Annotated[Count, msgspec.Meta(description=(
        "Points in the Elite modes, rounds won otherwise."))]
    cards: Count
    role: Role | None
    previous_role: Role | None
    roles: Annotated[list[Role], msgspec.Meta(description=(
        "Every title he holds this round (a Mirror round's Emperor is also an Elect)."))]
    previous_roles: list[Role]
    rounds_won: Count
    rounds_lost: Count
    points: Count


class Scores(Declared):
    players: dict[PlayerId, PlayerScore]
    winners: list[PlayerId]
    losers: list[PlayerId]
    draw: bool
    round: Round
    mode: Mode
