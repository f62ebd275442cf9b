"""The declared shapes of Huit américain's events, view and scores (see referee.core.wire)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from referee.core.wire import (Card, Chance, Count, Declared, Event, PlayerId, Suit,
                               match_created_event, private)

from .rules import EFFECTS
from .state import PHASES, Options

Round = Annotated[int, msgspec.Meta(ge=1, description="A round's number, from 1.")]
Direction = Annotated[int, msgspec.Meta(ge=-1, le=1, description="1: seat order; -1: reversed.")]
EffectName = Literal[tuple(EFFECTS) + ("attack_taken",)]  # type: ignore[valid-type]
Phase = Literal[PHASES]  # type: ignore[valid-type]
DrawReason = Literal["stuck", "attack", "play_again", "contre_carte", "penalty",
                     "all_draw_one", "suit_hunt"]


class RoundStarted(Event, tag="round_started"):
    """A round was dealt: who plays first, the card turned up, the deal's size."""

    round: Round
    first: PlayerId
    top: Card
    hand_size: Count
    stock_count: Count
    chance: Chance


class CardsDealt(Event, tag="cards_dealt"):
    player: PlayerId
    count: Count
    cards: Annotated[list[Card], private("The cards dealt, for their owner.")] = msgspec.UNSET
    chance: Annotated[Chance, private("The shuffle those cards came from.")] = msgspec.UNSET


class CardLaid(Event, tag="card_laid"):
    player: PlayerId
    card: Card
    suit: Suit | None
    cards_left: Count
    announce: Annotated[bool, msgspec.Meta(description="The player said « Carte ».")]
    out_of_turn: Annotated[bool, msgspec.Meta(
        description="House rule on_the_fly: laid out of turn.")] = msgspec.UNSET


class Carte(Event, tag="carte"):
    """The player announced his last card."""

    player: PlayerId


class Effect(Event, tag="effect"):
    """A special card's effect (or an attack taken). Which fields are present depends on the
    effect: `on` and `penalty` for attacks and a suit hunt's target, `suit` for a named suit,
    `direction` for reverse and rotate_hands, `skipped` for skip, `target` (and `counts`,
    `cards`) for swap_hands and give_two, `cancelled` for a stop, `drawn` for an attack
    taken."""

    effect: EffectName
    player: PlayerId
    on: PlayerId = msgspec.UNSET
    penalty: Count = msgspec.UNSET
    drawn: Count = msgspec.UNSET
    cancelled: Count = msgspec.UNSET
    suit: Suit = msgspec.UNSET
    direction: Direction = msgspec.UNSET
    skipped: PlayerId = msgspec.UNSET
    target: PlayerId = msgspec.UNSET
    counts: dict[PlayerId, Count] = msgspec.UNSET
    cards: Count = msgspec.UNSET


class Passed(Event, tag="passed"):
    player: PlayerId


class CardsDrawn(Event, tag="cards_drawn"):
    player: PlayerId
    count: Count
    reason: DrawReason
    cards: Annotated[list[Card], private("The cards drawn, for the drawer.")] = msgspec.UNSET
    chance: Annotated[Chance, msgspec.Meta(description=(
        "Where those cards lie, in the order drawn, in the shuffle the stock came from (the "
        "deal's or the last reshuffle's): public, the cards it names being shown to the "
        "drawer alone. A draw running through a reshuffle is told by one event per stock."))] \
        = msgspec.UNSET


class CardGiven(Event, tag="card_given"):
    """A card of a give-two passes to the player chosen."""

    player: PlayerId
    to: PlayerId
    cards_left: Count
    card: Annotated[Card, private("The card, for the giver and the receiver.")] = msgspec.UNSET


class Challenge(Event, tag="challenge"):
    """« Contre-carte »: the player caught `target` without his announce."""

    player: PlayerId
    target: PlayerId
    penalty: Count


class Penalty(Event, tag="penalty"):
    """House rule draw_penalty_on_error: a wrong move, punished instead of refused."""

    player: PlayerId
    code: str
    rule: str
    detail: str
    penalty: Count


class Reshuffled(Event, tag="reshuffled"):
    """The pile but its top became the new stock."""

    count: Count
    chance: Chance


class RoundEnded(Event, tag="round_ended"):
    round: Round
    blocked: Annotated[bool, msgspec.Meta(description="Nobody could lay nor draw.")]
    endless: Annotated[bool, msgspec.Meta(description=(
        "The forced moves came back to a position already met: the round ends blocked."))]
    out: list[PlayerId]
    points: dict[PlayerId, Count]
    totals: dict[PlayerId, Count]


class MatchEnded(Event, tag="match_ended"):
    winners: list[PlayerId]
    totals: dict[PlayerId, Count]


EVENTS = (match_created_event(Options), RoundStarted, CardsDealt, CardLaid, Carte, Effect, Passed,
          CardsDrawn, CardGiven, Challenge, Penalty, Reshuffled, RoundEnded, MatchEnded)


class Lacked(Declared):
    """What the table saw a player lack: once, in turn, he could not lay, so none of his
    cards then was of `suits`, of `ranks` or wild; `arrived` cards came into his hand since
    (drawn or given), so at most that many of the cards he holds now are of them."""

    player: PlayerId
    arrived: Count
    suits: Annotated[str, msgspec.Meta(pattern="^[CDHS]{1,4}$", description="Suits, e.g. HS.")]
    ranks: Annotated[str, msgspec.Meta(
        pattern="^[2-9TJQKAX]{0,14}$",
        description="Ranks besides the wild ones, e.g. 7K; empty after a named suit.")]


class View(Declared):
    """What one player sees: his hand, the top of the pile and what follows it, counts."""

    you: PlayerId
    players: list[PlayerId]
    round: Round
    current: PlayerId
    phase: Phase
    hand: list[Card]
    top: Card
    suit: Suit | None
    rank: str | None
    direction: Direction
    attack: Count
    hand_counts: dict[PlayerId, Count]
    stock_count: Count
    pile_count: Count
    pile: Annotated[list[Card], msgspec.Meta(
        description="The discard pile, bottom to top: every card laid face up since the "
                    "stock was last made from the pile, seen by all.")]
    unannounced: PlayerId | None
    give_to: PlayerId | None
    give_left: Count
    passes: Annotated[Count, msgspec.Meta(
        description="Consecutive turns ended stuck with nothing laid and nothing drawn.")]
    totals: Annotated[dict[PlayerId, Count], msgspec.Meta(
        description="Each player's match total of penalty points.")]
    options: Annotated[Options, msgspec.Meta(
        description="The match's rules, which decide good play.")]
    lacks: Annotated[list[Lacked], msgspec.Meta(
        description="What every player saw the others lack this round, from their turns "
                    "ended or begun stuck (public: the facts a sampler of their hands keeps).")]


class PlayerScore(Declared):
    total: Annotated[Count, msgspec.Meta(description="Penalty points: the lowest wins.")]
    cards: Count
    round_points: Count


class Scores(Declared):
    players: dict[PlayerId, PlayerScore]
    winners: list[PlayerId]
    draw: bool
    round: Round
    target: Count
