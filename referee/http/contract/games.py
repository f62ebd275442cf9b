"""One game's schemas in the contract: its options (from its `Option` declarations), its
moves (from the marshmallow schemas the referee checks moves with), its state, events, view
and scores (from its declared types, through msgspec's JSON Schema generator), its request
envelopes and its answers."""

from __future__ import annotations

import copy
import typing
from collections.abc import Iterator
from typing import Any, Union

import msgspec

from referee.core.engine import MAX_COUNTER, MAX_OPTION_TEXT, Engine

from .base import REF, Builder, GameNames, ref


# What a hint's `value` estimates (Advice.measure); open, a game may bring a new one.
HINT_MEASURES = ("expected_final_score", "win_probability", "win_share", "expected_points",
                 "none")


def components(b: Builder, engine: Engine, names: GameNames, moves: dict[str, Any]) -> None:
    _options(b, engine, names)
    _moves(b, engine, moves, names)
    _declared(b, engine, names)
    _envelopes(b, engine, names)
    _answers(b, engine, names)


def _options(b: Builder, engine: Engine, names: GameNames) -> None:
    properties = {}
    for option in engine.options:
        # The catalogue's description of the option, its choices an `enum`.
        prop = {"enum" if key == "choices" else key: value
                for key, value in option.describe().items() if key != "name"}
        if option.kind == "string" and option.choices is None:
            prop["maxLength"] = MAX_OPTION_TEXT
        properties[option.name] = prop
    rules = list(engine.option_rules)
    description = f"{engine.name}'s options; an absent option takes its default."
    if rules:
        description += " Rules between options: " + " ".join(rules)
    options_schema = {"type": "object", "additionalProperties": False,
                      "properties": properties, "description": description}
    if rules:
        options_schema["x-option-rules"] = rules
    b.schema(names("Options"), options_schema)
    b.schema(names("ResolvedOptions"), {
        "type": "object", "additionalProperties": False,
        "properties": copy.deepcopy(properties), "required": list(properties),
        "description": f"{engine.name}'s options as a match holds them: every option, "
                       "resolved."})


def _moves(b: Builder, engine: Engine, moves: dict[str, Any], names: GameNames) -> None:
    mapping = {}
    for move_type in engine.move_types:
        name = names.move(move_type.type)
        body = b.converter.schema2jsonschema(moves[move_type.type])
        body["description"] = move_type.description
        body["additionalProperties"] = False
        body["properties"]["player"] = ref("PlayerId")
        b.schema(name, body)
        mapping[move_type.type] = REF.format(name=name)
    b.schema(names("Move"), {
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
        "description": f"A move of {engine.name}, by its `type`."})


def _declared(b: Builder, engine: Engine, names: GameNames) -> None:
    """The state, events, view and scores, from the game's declared types."""
    event_union = Union[tuple(engine.event_types)]  # type: ignore[valid-type]
    roots = [engine.state_type, event_union, engine.view_type, engine.scores_type]
    (_, events, _, _), components = msgspec.json.schema_components(roots, ref_template=REF)
    rename = {old: names.declared(old) for old in components}
    rename[engine.state_type.__name__] = names("State")
    # The state's options (a plain dataclass) are the resolved options, whose schema the
    # option declarations give with their ranges and choices.
    options_type = typing.get_type_hints(engine.state_type)["options"]
    rename[options_type.__name__] = names("ResolvedOptions")
    components = {rename[name]: _renamed(body, rename)
                  for name, body in components.items() if name != options_type.__name__}
    events = _renamed(events, rename)
    # Every field of a state is required: a posted state carries them all.
    _require_everything(components, names("State"))
    state_schema = components[names("State")]
    # The table travels beside the game's state (referee.service.codec.Match).
    state_schema["properties"].update(
        seating=ref("Seating"), fairness={"oneOf": [ref("Fairness"), {"type": "null"}]})
    state_schema["required"] += ["seating", "fairness"]
    # A match seats as many players as the game takes.
    state_schema["properties"]["players"].update(minItems=engine.min_players,
                                                 maxItems=engine.max_players)
    # The bound on a state's counters, where clients can read it.
    state_schema["x-max-counter"] = MAX_COUNTER
    for counter in engine.counter_fields:
        state_schema["properties"][counter].update(minimum=-MAX_COUNTER, maximum=MAX_COUNTER)
    for name, body in components.items():
        b.schema(name, body)
    known = list(events["discriminator"]["mapping"])
    b.schema(names("OtherEvent"), {
        "type": "object", "required": ["type"],
        "properties": {"type": {"type": "string", "not": {"enum": known}}},
        "additionalProperties": True,
        "description": "An event of a type this contract does not know yet: a client "
                       "shows or ignores it, and must not fail on it."})
    b.schema(names("Event"), {
        "oneOf": [*events["anyOf"], ref(names("OtherEvent"))],
        "description": f"Something a move of {engine.name} caused, by its `type` ("
                       + ", ".join(f"`{k}`" for k in known) + "; more may come)."})


def _envelopes(b: Builder, engine: Engine, names: GameNames) -> None:
    state = {**names.posted_state(),
             "description": "Open mode: the state object; sealed mode: the token."}
    # The envelopes' fields whose schema the contract writes itself, by name.
    written = {
        "state": state, "move": ref(names("Move")), "seed": SEED,
        "viewer": ref("PlayerId"), "player": ref("PlayerId"),
        "seat_token": {**ref("SeatToken"), "description": (
            "Instead of `state`, from a player's device: the request acts as the token's seat "
            "and no other.")},
        "level": {"type": "string", "enum": list(engine.hint_levels),
                  "description": "How strong a player the hint plays as: easy, medium, hard "
                                 "(and the game's own levels)."},
    }
    for kind, name in (("create", "CreateMatchRequest"), ("move", "MoveRequest"),
                       ("legal_moves", "LegalMovesRequest"), ("validation", "ValidationRequest"),
                       ("view", "ViewRequest"), ("hint", "HintRequest")):
        if kind == "hint" and not engine.hint_levels:
            continue
        body = b.converter.schema2jsonschema(b.envelopes[kind])
        body["additionalProperties"] = False
        props = body["properties"]
        props.update({field: written[field] for field in props if field in written})
        if kind == "create":
            props["players"] = {
                "type": "array", "items": ref("PlayerId"), "uniqueItems": True,
                "minItems": engine.min_players, "maxItems": engine.max_players,
                "description": "Unique player ids in seating order."}
            props["options"] = ref(names("Options"))
            props["bots"] = {
                "type": "array", "items": ref("PlayerId"), "uniqueItems": True,
                "maxItems": engine.max_players,
                "description": "The players who are bots (each must be one of `players`): "
                               "a bot may always ask for hints."}
            props["viewer"] = {**ref("PlayerId"), "description": (
                "Who the answer is for: a player sees his view; anyone not seated is a "
                "spectator and sees public information only.")}
            props["seed_token"] = {**ref("SeedToken"), "description": (
                "Instead of `seed`: the server seed `/seeds` committed to, which "
                "contributed seeds need.")}
            props["contributions"] = {
                "type": "array", "maxItems": engine.max_players + 1,
                "items": ref("SeedAtCreation"),
                "description": "Seeds mixed into the server seed before anything is "
                               "drawn: one per player at most (`player`), and one of the "
                               "back end (no `player`). They need `seed_token` (or "
                               "`seed`): `seed_token_required` otherwise."}
            constraints = [*engine.creation_constraints(), *SEED_CONSTRAINTS]
            body["allOf"] = constraints
        b.shaped(names(name), body, kind, STATE_OR_SEAT)
    b.schema(names("ContributionRequest"), {
        "type": "object", "required": ["state", "player", "seed"],
        "additionalProperties": False,
        "properties": {"state": state, "player": ref("PlayerId"),
                       "seed": ref("ContributedSeed")}})


def _answers(b: Builder, engine: Engine, names: GameNames) -> None:
    progress = {
        "status": ref("Status"),
        "to_act": {"type": "array", "items": ref("PlayerId"),
                   "description": "Who must or may post a move now, as far as the table can see: "
                   "a player who may act on hidden cards (a twin laid out of turn) learns it "
                   "from his own legal moves."},
        "legal_moves": {"type": "array", "items": ref(names("Move")),
                        "description": "Every move that may be posted now (only the "
                        "viewer's or player's, when one is named); each can be posted "
                        "back as it is."},
    }
    b.schema(names("Outcome"), {
        "type": "object",
        "required": ["state", "status", "to_act", "legal_moves", "scores", "events",
                     "seed_commitment"],
        "properties": {
            "state": names.posted_state(),
            **progress,
            "scores": ref(names("Scores")),
            "events": {"type": "array", "items": ref(names("Event")),
                       "description": "What the move caused, in order."},
            "view": {**ref(names("View")), "description": "With `viewer`: what he may see."},
            "seed_commitment": ref("SeedCommitment"),
            "seed": ref("Seed"),
            "contributions": {
                "type": "array", "items": ref("Contribution"),
                "description": "Revealed with `seed` once the match has finished, when "
                               "seeds were contributed: every one, in the order made."},
            "seat_token": {**ref("SeatToken"), "description": (
                "Sealed mode, with `viewer`: the viewer's seat token for the new state.")},
        }})
    b.schema(names("ContributionAnswer"), {
        "type": "object", "required": ["state", "seed_commitment", "contribution"],
        "additionalProperties": False,
        "properties": {
            "state": names.posted_state(),
            "seed_commitment": ref("SeedCommitment"),
            "contribution": {
                "type": "object", "required": ["player", "step"],
                "additionalProperties": False,
                "properties": {"player": ref("PlayerId"),
                               "step": {"type": "integer", "minimum": 0, "description": (
                                   "The first step the seed keys.")}}}}})
    b.schema(names("LegalMoves"), {
        "type": "object", "required": ["status", "to_act", "legal_moves"],
        "properties": progress})
    if engine.hint_levels:
        weighed = {"type": "object", "required": ["move", "value"],
                   "properties": {"move": ref(names("Move")),
                                  "value": {"type": "number"}}}
        b.schema(names("Hint"), {
            "type": "object",
            "required": ["player", "level", "move", "measure", "value", "reason",
                         "alternatives"],
            "properties": {
                "player": ref("PlayerId"),
                "level": {"type": "string", "enum": list(engine.hint_levels)},
                "move": {**ref(names("Move")), "description": (
                    "The advised move: one of the player's legal moves, postable as it "
                    "is.")},
                "measure": {"type": "string", "x-extensible-enum": list(HINT_MEASURES),
                            "description": "What `value` estimates, in the game's terms."},
                "value": {"type": ["number", "null"],
                          "description": "The estimate for the advised move (null when "
                                         "the level does not estimate)."},
                "reason": {"type": "string", "description": "Why, in one sentence."},
                "alternatives": {"type": "array", "items": weighed,
                                 "description": "The best other moves weighed, best "
                                                "first, with their estimates."},
            }})
    b.schema(names("PlayerView"), {
        "type": "object",
        "required": ["player", "status", "to_act", "legal_moves", "view", "scores"],
        "properties": {"player": ref("PlayerId"), **progress, "view": ref(names("View")),
                       "scores": ref(names("Scores")),
                       "seat_token": {**ref("SeatToken"), "description": (
                           "Sealed mode, asked with the state: the player's seat token "
                           "for this state.")}}})


# The words of the two shapes of a request a player's device may send too.
STATE_OR_SEAT = {
    "WithState": {"description": "From the game's back end: the state (and, where the "
                                 "answer is one player's, that `player`)."},
    "WithSeatToken": {"description": "From a player's device: the seat token its back end "
                                     "handed it, instead of the state; the request acts as "
                                     "the token's seat and no other (`player`, when given, "
                                     "names that seat)."},
    "": {"description": "Either `state` (from the game's back end) or `seat_token` (from a "
                        "player's device), never both."},
}


# A creation's seed: a seed or a seed token, not both; contributions need one of them.
GIVEN_SEED = {"required": ["seed"], "properties": {"seed": {"type": ["string", "integer"]}}}
SEED_CONSTRAINTS = [
    {"not": {"allOf": [GIVEN_SEED, {"required": ["seed_token"]}]}},
    {"if": {"required": ["contributions"], "properties": {"contributions": {"minItems": 1}}},
     "then": {"anyOf": [{"required": ["seed_token"]}, GIVEN_SEED]}},
]


SEED = {
    "description": "Makes the match reproducible: a string of 1 to 128 characters or an "
                   "integer from 0 to 2^128 - 1 (used as its decimal string). Absent or "
                   "null: the referee draws a secret one.",
    "oneOf": [{"type": "string", "minLength": 1, "maxLength": 128},
              {"type": "integer", "minimum": 0, "maximum": 2**128 - 1},
              {"type": "null"}],
}


def _renamed(node: Any, rename: dict[str, str]) -> Any:
    """`node` with the references to renamed components renamed, and without the
    `items: false` with which msgspec closes a fixed-length array beside its `prefixItems`
    (`maxItems` says the same, in a form every tool reads)."""
    def target(reference: str) -> str:
        name = reference.rsplit("/", 1)[1]
        return REF.format(name=rename.get(name, name))

    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                out[key] = target(value)
            elif key == "mapping" and isinstance(value, dict):
                out[key] = {k: target(v) for k, v in value.items()}
            elif not (key == "items" and value is False and "prefixItems" in node):
                out[key] = _renamed(value, rename)
        return out
    if isinstance(node, list):
        return [_renamed(v, rename) for v in node]
    return node


def _require_everything(components: dict[str, Any], root: str) -> None:
    """Marks every property required in `root` and the components it refers to."""
    seen: set[str] = set()
    pending = [root]
    while pending:
        name = pending.pop()
        if name in seen or name not in components:
            continue
        seen.add(name)
        body = components[name]
        if "properties" in body:
            body["required"] = list(body["properties"])
        pending += _refs(body)


def _refs(node: Any) -> Iterator[str]:
    """The names of the components `node` refers to."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value.rsplit("/", 1)[1]
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)
