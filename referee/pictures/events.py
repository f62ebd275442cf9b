"""The last events of a match as one player may see them, in a line of text each.

A caller may pass the events it received, even a trusted caller's (which carry every private
detail, such as the cards someone drew). Each event is checked against the game's declared
events, then stripped of what the viewer may not learn: a field declared private (see
`referee.core.wire.private`) stays only for the players the event concerns, the one who made
it (`player`) and the one it was given to (`to`), which is how the engines address their
private parts. Every event is of a type the game declares, or the generic `other` event,
which stands for a type of a later contract version (as the contract's discriminated union of
events says): it keeps the type it names only, since nothing says which of its fields are
private. Whatever its type, an event's
type is at most MAX_TYPE characters and each of its strings at most MAX_TEXT: a caller's
text is drawn, and drawing costs with its length.
"""

from __future__ import annotations

import functools
import re
from typing import Annotated, Any, Iterable, Literal

import msgspec

from referee.core import numbers
from referee.core.engine import Engine
from referee.core.errors import InvalidOptions
from referee.core.wire import CARD_PATTERN, OTHER_EVENT, PRIVATE

from .pieces import label

_CARD = re.compile(CARD_PATTERN)
# The first event of a match, which carries its options (see referee.core.wire).
MATCH_CREATED = "match_created"
# The fields of an event that name the players it concerns.
CONCERNED = ("player", "to")
# A type is a tag (the longest declared has 18 characters); an engine's events hold no text
# longer than a player's id (REFEREE_MAX_PLAYER_ID_LENGTH, which may not exceed MAX_TEXT).
MAX_TYPE = 64
MAX_TEXT = 256


class OtherEvent(msgspec.Struct, forbid_unknown_fields=True):
    """The generic event (referee.core.wire.known_to): a type the caller's version of the
    contract does not declare, by its name, with its fields in `data`."""

    type: Literal["other"]
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TYPE)]
    data: dict[str, Any]


class BadEvents(ValueError):
    """Events that do not fit the game's declarations: `errors` maps each one's index to
    what is wrong with it."""

    def __init__(self, errors: dict[int, list[str]]):
        super().__init__("events do not fit the game's declared events")
        self.errors = errors


@functools.lru_cache(maxsize=None)
def declarations(event_types: tuple[type, ...]) -> dict[str, tuple[type, frozenset[str]]]:
    """Each declared event type (its tag) -> its struct and its private fields' wire names."""
    out = {}
    for struct in event_types:
        info = msgspec.inspect.type_info(struct)
        private = frozenset(
            f.encode_name for f in info.fields
            if isinstance(f.type, msgspec.inspect.Metadata)
            and str((f.type.extra_json_schema or {}).get("description", "")).startswith(PRIVATE))
        out[struct.__struct_config__.tag] = (struct, private)
    return out


def visible(engine: Engine, events: list[Any], viewer: str) -> list[dict[str, Any]]:
    """`events` checked, then cut to what `viewer` may see. Raises BadEvents."""
    declared = declarations(tuple(engine.event_types))
    errors: dict[int, list[str]] = {}
    out = []
    for index, event in enumerate(events):
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            errors[index] = ["An event is an object with a string `type`."]
            continue
        if len(event["type"]) > MAX_TYPE or _too_long(event):
            errors[index] = [f"An event's `type` has at most {MAX_TYPE} characters, and each "
                             f"of its strings at most {MAX_TEXT}."]
            continue
        known = declared.get(event["type"])
        if known is None:
            problem = _not_generic(engine, event)
            if problem:
                errors[index] = [problem]
            else:
                out.append({"type": event["name"]})
            continue
        struct, private = known
        event = numbers.integral_everywhere(event)  # 3.0 is 3, as everywhere
        try:
            msgspec.convert(event, struct, strict=True)
        except msgspec.ValidationError as exc:
            errors[index] = [str(exc)]
            continue
        if event["type"] == MATCH_CREATED:
            problem = _options_problem(engine, event["options"])
            if problem:
                errors[index] = [f"options: {problem}"]
                continue
        if viewer not in {event.get(field) for field in CONCERNED}:
            event = {k: v for k, v in event.items() if k not in private}
        out.append(event)
    if errors:
        raise BadEvents(errors)
    return out


def _not_generic(engine: Engine, event: dict[str, Any]) -> str | None:
    """What is wrong with an event of a type the game does not declare: anything but the
    generic `other` event, and that one with fields that are not its own."""
    if event["type"] != OTHER_EVENT:
        return (f"{event['type']!r} is not an event type of {engine.name}; a type of a later "
                f"version of the contract comes as the generic {OTHER_EVENT!r} event.")
    try:
        msgspec.convert(event, OtherEvent, strict=True)
    except msgspec.ValidationError as exc:
        return str(exc)
    return None


def _too_long(value: Any) -> bool:
    """Whether a string in `value` (its keys too) is longer than MAX_TEXT."""
    if isinstance(value, str):
        return len(value) > MAX_TEXT
    if isinstance(value, dict):
        return any(_too_long(k) or _too_long(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_too_long(v) for v in value)
    return False


def _options_problem(engine: Engine, options: dict[str, Any]) -> str | None:
    """A match's options as the referee writes them: every option, each value acceptable
    (the engine's own checks, which the declared event type alone does not carry)."""
    try:
        resolved = engine.resolve_options(options)
    except InvalidOptions as exc:
        return exc.detail
    missing = sorted(set(resolved) - set(options))
    return f"every option is written out; missing: {', '.join(missing)}" if missing else None


def phrase(event: dict[str, Any], players: Iterable[str]) -> tuple[str, tuple[str, ...]]:
    """One line telling the event, and the cards it shows."""
    seated = set(players)
    cards: list[str] = []

    def say(value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, str):
            if value not in seated and _CARD.match(value):
                cards.append(value)
                return label(value)
            return value
        if isinstance(value, list):
            return " ".join(say(v) for v in value) if value else "none"
        if isinstance(value, dict):
            return ", ".join(f"{k} {say(v)}" for k, v in value.items())
        return str(value)

    who = event.get("player")
    head = (f"{who}: " if isinstance(who, str) else "") + event["type"].replace("_", " ")
    details = [f"{key.replace('_', ' ')} {say(value)}" for key, value in event.items()
               if key not in ("type", "player") and value is not None]
    return head + (" \u00b7 " + "; ".join(details) if details else ""), tuple(cards)
