"""One game's schemas in the contract: its options (from its `Option` declarations), its
moves (from the marshmallow schemas the referee checks moves with), its state, events, view
and scores (from its declared types, through msgspec's JSON Schema generator), its request
envelopes and its answers."""

from __future__ import annotations

import copy
import json
import typing
from collections.abc import Iterator
from typing import Any, Union

import msgspec

from referee.core.engine import MAX_COUNTER, MAX_OPTION_TEXT, Engine
from referee.core.wire import FIRST_VERSION, OTHER_EVENT
from referee.http.operations import seeds_after_creation

from .base import REF, Builder, GameNames, pascal, ref


# What a hint's `value` estimates (Advice.measure); open, a game may bring a new one.
HINT_MEASURES = ("expected_final_score", "win_probability", "win_share", "expected_points",
                 "none")


def components(b: Builder, engine: Engine, names: GameNames, moves: dict[str, Any]) -> None:
    _options(b, engine, names)
    _moves(b, engine, moves, names)
    _declared(b, engine, names)
    _envelopes(b, engine, names)
    _answers(b, engine, names)
    _replays(b, engine, names)


def _options(b: Builder, engine: Engine, names: GameNames) -> None:
    properties = {}
    for option in engine.options:
        # The catalogue's description of the option, its choices an `enum`. Its default is
        # said in words, not as a `default` keyword: a generated client fills every property
        # that has one, and would send all the defaults it was generated with (the referee
        # applies its own, which may change). The catalogue answers the defaults too.
        described_option = option.describe()
        prop = {"enum" if key == "choices" else key: value
                for key, value in described_option.items() if key not in ("name", "default")}
        prop["description"] = (f"{option.description.rstrip('.')}. Default: "
                               f"{json.dumps(option.default)}.")
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
    _name_nullable_choices(components, names)
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
    # One schema for the state an answer gives and a request posts back, so that a generated
    # client's answer state is the very type its requests take.
    b.schema(names("PostedState"), {
        "oneOf": [ref(names("State")), ref("SealedState")],
        "description": "The match's state as answers give it and requests post it back: "
                       "open mode, the state object; sealed mode, its token."})
    mapping = events["discriminator"]["mapping"]
    known = list(mapping)
    assert OTHER_EVENT not in known, f"{engine.id} declares an event `{OTHER_EVENT}`"
    for struct in engine.event_types:
        if struct.since != FIRST_VERSION:
            target = mapping[struct.__struct_config__.tag].rsplit("/", 1)[1]
            b.spec.components.schemas[target]["x-since"] = struct.since
    other = names("OtherEvent")
    b.schema(other, {
        "type": "object", "required": ["type", "name", "data"],
        "additionalProperties": False,
        "properties": {
            "type": {"type": "string", "const": OTHER_EVENT},
            "name": {"type": "string", "minLength": 1,
                     "description": "The event's own type, one this contract does not "
                                    "declare yet."},
            "data": {"type": "object", "additionalProperties": True,
                     "description": "The event's other fields, as the version that "
                                    "declares its type gives them."}},
        "description": "An event of a type declared by a later version of the contract than "
                       "the one the request named (`Referee-Contract-Version`): a client "
                       "shows or ignores it."})
    b.schema(names("Event"), {
        "oneOf": [*events["anyOf"], ref(other)],
        "discriminator": {"propertyName": "type",
                          "mapping": {**mapping, OTHER_EVENT: REF.format(name=other)}},
        "description": f"Something a move of {engine.name} caused, by its `type` ("
                       + ", ".join(f"`{k}`" for k in known) + f"; `{OTHER_EVENT}`: a type "
                       "of a later version)."})


def _envelopes(b: Builder, engine: Engine, names: GameNames) -> None:
    state = names.posted_state()
    # The envelopes' fields whose schema the contract writes itself, by name.
    written = {
        "state": state, "move": ref(names("Move")), "seed": SEED,
        "viewer": {**ref("PlayerId"), "description": VIEWER}, "player": ref("PlayerId"),
        "seat_token": {**ref("SeatToken"), "description": (
            "Instead of `state`, from a player's device: the request acts as the token's seat "
            "and no other.")},
        "seat_tokens_for": {
            "type": "array", "items": ref("PlayerId"), "uniqueItems": True,
            "maxItems": engine.max_players, "examples": [list(EXAMPLE_SEATS)],
            "description": (
                "Sealed mode: the players whose seat tokens the answer carries, in "
                "`seat_tokens` (one seal each, at most as many as the game's largest table "
                "seats). A bot is a seat like any other; a name not seated gets a "
                "spectator's token, as `viewer` does. Open mode issues no seat tokens and "
                "ignores it.")},
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
    if seeds_after_creation(engine):  # where `/contributions` is documented
        b.schema(names("ContributionRequest"), {
            "type": "object", "required": ["state", "player", "seed"],
            "additionalProperties": False,
            "properties": {"state": state, "player": ref("PlayerId"),
                           "seed": ref("ContributedSeed")}})


# The `viewer` of a creation or a move: the answer becomes his, legal moves included.
VIEWER = ("Who the answer is for. Naming him narrows the answer to what he may see: "
          "`legal_moves` lists his moves only (empty when he may not act now; ask "
          "ListLegalMoves with the state for everyone's), `events` leave out what only "
          "others may see, and `view` is his (sealed, with his `seat_token`). Anyone not "
          "seated is a spectator: public information only, no legal moves. Without "
          "`viewer`, the answer is the back end's: every player's legal moves and every "
          "event in full.")


def _answers(b: Builder, engine: Engine, names: GameNames) -> None:
    progress = {
        "status": ref("Status"),
        "to_act": {"type": "array", "items": ref("PlayerId"),
                   "description": "Who must or may post a move now, as far as the table can see: "
                   "a player who may act on hidden cards (a twin laid out of turn) learns it "
                   "from his own legal moves."},
        "legal_moves": {"type": "array", "items": ref(names("Move")),
                        "description": "Every move that may be posted now, each postable "
                        "as it is. When the request names a `viewer` (or a `player`, or "
                        "sends a seat token), only that player's moves: empty when he may "
                        "not act, and always empty for a spectator, since another's moves "
                        "could show what he holds. Without one, every player's."},
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
            "seat_tokens": {
                "type": "object", "propertyNames": ref("PlayerId"),
                "additionalProperties": ref("SeatToken"), "maxProperties": engine.max_players,
                "examples": [dict(zip(EXAMPLE_SEATS, EXAMPLE_SEAT_TOKENS))],
                "description": (
                    "Sealed mode, with `seat_tokens_for`: each player named there and his "
                    "seat token for the new state, bound as `seat_token` is (to him alone, "
                    "to this step, with the same `seat_token_ttl`); the viewer's is his "
                    "`seat_token`.")},
            "result": {**ref("SignedResult"), "description": (
                "Sealed mode, when the move finished the match: the referee's signed "
                "result.")},
        }})
    if seeds_after_creation(engine):
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


# The seat tokens the schemas' examples show, two players' (real ones are random bytes and
# about a thousand characters long).
EXAMPLE_SEATS = ("ann", "bob")
EXAMPLE_SEAT_TOKENS = ("v3.q7Xf0d2LrUj9cW1eYb8NkAHs3pT6vM4gZ1oQ5xEw7R",
                       "v3.Lm2Wc8sPz0aDk5JqTr1uNbG7yVf4XoE9hIt3Cw6S")


INSTANT = {"type": "number", "minimum": 0,
           "description": "An instant on the referee's clock, in seconds since the Unix epoch."}


def _replays(b: Builder, engine: Engine, names: GameNames) -> None:
    """A replay's request (a creation's body, and the moves with their instants) and its
    answer (an outcome, with how many moves were applied and the signed result)."""
    schemas = b.spec.components.schemas
    creation = copy.deepcopy(schemas[names("CreateMatchRequest")])
    for unused in ("viewer", "seat_token_ttl", "seat_tokens_for"):
        creation["properties"].pop(unused)
    creation["description"] = ("What the match was created with: a creation's body (whom "
                               "the answer is for is the replay's `viewer`).")
    b.schema(names("ReplayRequest"), {
        "type": "object", "required": ["creation", "moves"], "additionalProperties": False,
        "properties": {
            "creation": creation,
            "created_at": {**INSTANT, "description": (
                "When the match was created (default: the referee's clock); at most the "
                "referee's clock.")},
            "moves": {
                "type": "array", "maxItems": b.envelopes["replay"].fields["moves"].max_moves,
                "description": "The match's moves in order, timeouts included.",
                "items": {
                    "type": "object", "required": ["move"], "additionalProperties": False,
                    "properties": {
                        "move": ref(names("Move")),
                        "at": {**INSTANT, "description": (
                            "When the move was made (default: the instant before it): never "
                            "before it nor past the referee's clock. Where the rules read the "
                            "clock (a turn's deadline), they read this.")}}}},
            "viewer": {**ref("PlayerId"), "description": (
                "Who the answer is for: a player sees his view; anyone not seated is a "
                "spectator and sees public information only.")},
            "seat_token_ttl": schemas[names("MoveRequest")]["properties"]["seat_token_ttl"],
        }})
    outcome = copy.deepcopy(schemas[names("Outcome")])
    outcome["required"] = [*outcome["required"], "moves_applied"]
    outcome["properties"]["events"]["description"] = "What the last move caused, in order."
    outcome["properties"]["moves_applied"] = {
        "type": "integer", "minimum": 0, "description": "How many moves were played: all."}
    outcome["properties"]["result"] = {**ref("SignedResult"), "description": (
        "When the replay finished the match: the referee's signed result.")}
    b.schema(names("ReplayAnswer"), outcome)


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
GIVEN_SEED = {"required": ["seed"], "properties": {"seed": {"not": {"type": "null"}}}}
SEED_CONSTRAINTS = [
    {"not": {"allOf": [GIVEN_SEED, {"required": ["seed_token"]}]}},
    {"if": {"required": ["contributions"], "properties": {"contributions": {"minItems": 1}}},
     "then": {"anyOf": [{"required": ["seed_token"]}, GIVEN_SEED]}},
]


# A string, an integer or null, said with `if`/`then`/`else` rather than a `oneOf` or a list
# of types: generators make a wrapper class of those (openapi-generator's python client), and
# a seed is given as the language's own string or integer.
SEED = {
    "description": "Makes the match reproducible: a string of 1 to 128 characters or an "
                   "integer from 0 to 2^128 - 1 (used as its decimal string; from 2^53 on, "
                   "written without a fraction or exponent). Absent or null: the referee "
                   "draws a secret one.",
    "if": {"type": "string"},
    "then": {"minLength": 1, "maxLength": 128},
    "else": {"type": ["integer", "null"], "minimum": 0, "maximum": 2**128 - 1},
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


def _name_nullable_choices(components: dict[str, Any], names: GameNames) -> None:
    """A map whose values are one of a few strings or null (L'Empereur's roles by player)
    gets its strings as a component of its own, named after the first map that has them:
    openapi-generator's python client checks an inline list of choices in a map's values
    without letting null through, and a component's choices with it."""
    named: dict[tuple[str, ...], str] = {}
    for body in list(components.values()):
        for field, schema in body.get("properties", {}).items():
            values = schema.get("additionalProperties")
            if not isinstance(values, dict) or {"type": "null"} not in values.get("anyOf", []):
                continue
            for index, choice in enumerate(values["anyOf"]):
                if "enum" in choice:
                    name = named.setdefault(tuple(choice["enum"]),
                                            names(f"{pascal(field)}Value"))
                    components[name] = choice
                    values["anyOf"][index] = ref(name)


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
