"""The declared shapes of what an engine answers: events, views and scores.

Each game declares its events as tagged structs (the tag is the event's `type`), and its view
and scores as structs, in its `wire` module. Engines still build plain dicts; these
declarations are what the contract's schemas are generated from, and the conformance tests
check every event, view and score of random matches against them, so the two cannot drift.

An event field that only some players may see (a card drawn) is declared as optional with a
description starting "Private": it is present for a trusted caller and for the players the
event names, absent for everyone else (see `referee.core.outcome`).

Event types may grow from one version of the contract to the next; a client generated from
an older version must still read every answer. So each event type says which contract
version first declared it (`since`), and a caller receives an event of a type its own
version does not know as the generic `other` event, `{"type": "other", "name": <its type>,
"data": <its other fields>}`, which every version declares (`known_to`).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar

import msgspec

from .cards import JOKERS, RANKS, SUITS
from .memo import BoundedMemo

# A natural card is its rank then its suit; the jokers are X1 and X2.
CARD_PATTERN = f"^(?:[{''.join(RANKS)}][{''.join(SUITS)}]|{'|'.join(JOKERS)})$"

Card = Annotated[str, msgspec.Meta(
    pattern=CARD_PATTERN,
    description="A card: rank 2-9, T, J, Q, K, A then suit C, D, H, S; jokers X1, X2.")]
Suit = Annotated[str, msgspec.Meta(pattern="^[CDHS]$", description="A suit: C, D, H or S.")]
PlayerId = Annotated[str, msgspec.Meta(min_length=1, description="A player's id.")]
Count = Annotated[int, msgspec.Meta(ge=0)]
PRIVATE = "Private: present for a trusted caller and for the players the event concerns."


def private(description: str) -> msgspec.Meta:
    """The annotation of an event field only some players see."""
    return msgspec.Meta(description=f"{PRIVATE} {description}")


# The first contract version whose events are a discriminated union with the generic
# `other` member: the version a caller that names none is served.
FIRST_VERSION = "1.1.0"
# The tag of the generic event: an event of a type the caller's version does not know.
OTHER_EVENT = "other"
VERSION_PATTERN = r"^[0-9]{1,6}\.[0-9]{1,6}\.[0-9]{1,6}$"
_VERSION = re.compile(VERSION_PATTERN)


class Event(msgspec.Struct, tag_field="type", kw_only=True, forbid_unknown_fields=True,
            omit_defaults=True):
    """Something a move caused. Every game's events derive from this; `type` is the tag, and
    `since` the contract version that first declared the type."""

    since: ClassVar[str] = FIRST_VERSION


class Declared(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A view, scores or one of their parts: a fixed set of fields."""


class ShuffledDeck(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A whole deck: the 52 natural cards and the first `jokers` of X1, X2, `copies` times."""

    jokers: Annotated[int, msgspec.Meta(ge=0, le=2)]
    copies: Annotated[int, msgspec.Meta(ge=1, le=2)]


class Chance(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """What a chance event drew from (docs/FAIRNESS.md, "Chance events"): the step, the kind
    of draw and its inputs, and the event field showing what was drawn, so that the revealed
    seed and the event alone check it."""

    step: Annotated[int, msgspec.Meta(ge=0, description="The step whose stream was drawn.")]
    draw: Annotated[str, msgspec.Meta(
        pattern="^(dice|pick|shuffle)$",
        description="dice: `count` dice; pick: one of `items`; shuffle: Fisher-Yates of "
                    "`items`.")]
    count: Annotated[int, msgspec.Meta(ge=0, description="dice: how many were rolled.")] = 0
    items: Annotated[list[str], msgspec.Meta(
        description="pick: the items in order; shuffle: the cards, sorted.")] = []
    deck: Annotated[ShuffledDeck | None, msgspec.Meta(
        description="shuffle: a whole deck, named instead of listed.")] = None
    positions: Annotated[list[Annotated[int, msgspec.Meta(ge=0)]], msgspec.Meta(
        description="shuffle: where each card the event shows lies in the shuffled order.")] = []
    field: Annotated[str, msgspec.Meta(
        description="The event field that shows what was drawn (`name[].key`: the `key` of "
                    "each element of the list `name`).")] = ""
    contributions: Annotated[int, msgspec.Meta(ge=0, description=(
        "How many of the match's contributed seeds, the first ones in the order they were "
        "made, key this step's stream (absent: none, the server seed alone)."))] = 0


def match_created_event(options_type: type) -> type:
    """The creation outcome's first event, declared per game with that game's options."""
    return msgspec.defstruct(
        "MatchCreated", [("players", list[PlayerId]), ("options", options_type)],
        bases=(Event,), tag="match_created", module=__name__)


def version(text: str) -> tuple[int, ...]:
    """`"1.10.0"` -> (1, 10, 0), which orders versions; ValueError unless major.minor.patch."""
    if not _VERSION.match(text):
        raise ValueError(f"{text!r} is not a version major.minor.patch")
    return tuple(int(part) for part in text.split("."))


def known_to(events: list[dict[str, Any]], event_types: tuple[type, ...],
             caller: tuple[int, ...]) -> list[dict[str, Any]]:
    """`events` as a caller of contract version `caller` reads them: an event of a type
    declared after that version becomes the generic `other` event, whose `name` is its type
    and `data` its other fields."""
    since = _INTRODUCED.get(event_types, _introduced)
    if not since:  # every type is as old as the first version
        return events
    return [event if since.get(event["type"], caller) <= caller
            else {"type": OTHER_EVENT, "name": event["type"],
                  "data": {k: v for k, v in event.items() if k != "type"}}
            for event in events]


def _introduced(event_types: tuple[type, ...]) -> dict[str, tuple[int, ...]]:
    """The version each event type declared after the first one was introduced in."""
    return {struct.__struct_config__.tag: version(struct.since) for struct in event_types
            if struct.since != FIRST_VERSION}


# Per game's event types (a handful of games): read on every outcome served.
_INTRODUCED: BoundedMemo[tuple[type, ...], dict[str, tuple[int, ...]]] = BoundedMemo(64)
