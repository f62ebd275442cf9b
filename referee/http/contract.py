"""The OpenAPI contract, generated from the code that enforces it.

Nothing here is written by hand twice: each game's options come from its `Option`
declarations, its moves from the marshmallow schemas the referee validates moves with
(through apispec's marshmallow plugin), its state from the state dataclass and its events,
view and scores from the structs of its `wire` module (through msgspec's JSON Schema
generator); the request envelopes come from the marshmallow envelope schemas. The committed
`openapi.yaml` is this module's output (`make contract` rewrites it; a test compares them),
and the running service serves what it generates for its own registry and settings.

Each game has its own operations (`POST /v1/games/generala-dice/moves` takes a
`GeneralaDiceMoveRequest` and answers a `GeneralaDiceOutcome`), so a generated client is
typed end to end. The `{game_id}` form of those paths is still served, but not documented: a
typed client has no use for it, and listing both would give every client two methods per
operation. The catalogue keeps `GET /v1/games/{game_id}`, which is the same for every game.

Values that may grow (game ids, problem codes, event types) are open: a client generated
today must still parse an answer that carries a value added later. Game ids and problem
codes are plain strings whose known values are listed in `x-extensible-enum`; each game's
event list ends with an `...OtherEvent` that matches any event type not known today.
"""

from __future__ import annotations

import copy
import re
import typing
from typing import Any, Union

import msgspec
import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from referee import __version__
from referee.core.engine import MAX_COUNTER, Engine
from referee.core.wire import CARD_PATTERN
from referee.pictures import SHEET_GAMES

from .examples import EXAMPLE_CLOCK, EXAMPLE_PLAYERS, EXAMPLE_SEED, Example, game_examples
from .problems import CATALOGUE
from .schemas import SHEET_COLUMNS, SeedField, StateField, envelope_schemas, move_schemas
from .sealing import TOKEN_PATTERN

REF = "#/components/schemas/{name}"
DESCRIPTION = """\
The referee keeps nothing between requests. A client creates a match, keeps the `state` it
receives, and posts it back with each move; the referee validates the move, applies it and
answers with the new state, the legal moves, the scores and what happened.

Every game has its own typed operations (tagged with the game's id): its options, each move
type, its state, its events, its view and its scores are schemas of their own, so a generated
client is typed end to end.

In open mode (the default) a state is the game's documented JSON object, for trusted back
ends that store it themselves; a posted state must carry every field exactly as the referee
wrote it. In sealed mode (`REFEREE_STATE_KEYS` set) a state is an opaque token that a client
can neither read nor alter undetected. The referee authenticates nobody: the game's back end
keeps the state token and posts every move. When it names a `viewer`, a sealed answer also
carries a `seat_token`: that viewer's rights over the match at that step and nothing more,
for the back end to hand to the player's own device. Sent instead of the state, a seat token
lists its seat's legal moves, dry-runs its seat's moves, shows its seat's view and asks its
seat's hints (a spectator's: public information only); it is refused when it names another
player (`not_your_seat`), when posted as a move or a state (`seat_token_not_allowed`) and once
past the life the back end gave it (`seat_token_expired`). A deployment may let web pages of
chosen origins call those routes from a browser (CORS, off unless configured).

Every answer carries an `X-Request-ID`: the one the request sent (up to 128 letters, digits
and `._:-`), else the trace id of its W3C `traceparent` (which is sent back too), else a new
one; the referee's log lines name it. Large answers are gzipped when `Accept-Encoding` asks.

Every error is `application/problem+json` (RFC 9457) with a stable machine-readable `code`
(see `x-error-codes`). Chance comes only from a seed carried in the state: the same state and
move always give the same answer, and a finished match reveals its seed so every roll and
shuffle can be checked against the `seed_commitment` published at creation.

Open values: game ids, problem codes and event types may grow. A client must accept a value
it does not know (the schemas say so: plain strings with their known values in
`x-extensible-enum`, and an `OtherEvent` at the end of every game's events); answers may gain
fields, so a client ignores fields it does not know. A counter of a state (step, round,
turn...) never exceeds {max_counter}.
"""

OPERATIONS = ("matches", "moves", "legal-moves", "validations", "views")
PROBLEM_STATUSES = {
    "matches": ("400", "403", "404", "413", "415", "422"),
    "moves": ("400", "403", "404", "409", "413", "415", "422"),
    "legal-moves": ("400", "403", "404", "413", "415", "422"),
    "validations": ("400", "403", "404", "413", "415", "422"),
    "views": ("400", "403", "404", "413", "415", "422"),
    "hints": ("400", "403", "404", "409", "413", "415", "422"),
}
# What a hint's `value` estimates (Advice.measure); open, a game may bring a new one.
HINT_MEASURES = ("expected_final_score", "win_probability", "win_share", "expected_points",
                 "none")
PICTURE_PROBLEM_STATUSES = ("400", "403", "404", "413", "415", "422")
SVG_MEDIA = "image/svg+xml"
# Refusals a dry run answers with `legal: false` instead of a problem response.
VERDICT_CODES = ("illegal_move", "not_your_turn", "game_over")
EXAMPLE_SUMMARY = (f"A real request: players {', '.join(EXAMPLE_PLAYERS[:2])}..., seed "
                   f"{EXAMPLE_SEED!r}, default options, the clock at {EXAMPLE_CLOCK:.0f}")


def pascal(game_id: str) -> str:
    """`generala-dice` -> `GeneralaDice`: the prefix of a game's schema names."""
    return "".join(part.capitalize() for part in re.split(r"[-_]", game_id))


def camel(game_id: str) -> str:
    name = pascal(game_id)
    return name[0].lower() + name[1:]


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


def generate(games: dict[str, Engine], settings: dict[str, Any]) -> dict[str, Any]:
    """The whole OpenAPI document for these games and settings."""
    max_id, max_items = settings["MAX_PLAYER_ID_LENGTH"], settings["MAX_LIST_ITEMS"]
    spec = APISpec(
        title="referee", version=__version__, openapi_version="3.1.0",
        plugins=[MarshmallowPlugin()],
        info={"summary": "A stateless HTTP rules referee for card and dice games.",
              "description": DESCRIPTION.format(max_counter=MAX_COUNTER),
              "license": {"name": "MIT", "identifier": "MIT"}},
        servers=[{"url": "/", "description": "The server this document is served from."}],
        tags=[{"name": "catalogue", "description": "The games this referee serves."},
              *({"name": gid, "description": engine.summary} for gid, engine in games.items()),
              {"name": "service", "description": "Health and the contract itself."}],
    )
    plugin: MarshmallowPlugin = spec.plugins[0]  # type: ignore[assignment]
    converter = plugin.converter
    assert converter is not None
    builder = _Builder(spec, converter, max_id, max_items)
    builder.shared(sorted(games))
    for game_id, engine in games.items():
        builder.game(game_id, engine, move_schemas(engine, max_id, max_items),
                     game_examples(engine, max_id, max_items))
    builder.service()
    generated = spec.to_dict()
    document = {
        "openapi": generated["openapi"],
        "info": {"title": "referee", "version": __version__, **generated["info"]},
        **{k: v for k, v in generated.items() if k not in ("openapi", "info")},
    }
    document["x-error-codes"] = [
        {"code": code, "status": status, "meaning": meaning}
        for code, (status, meaning) in CATALOGUE.items()]
    document["components"]["schemas"] = _tidy(document["components"]["schemas"])
    return document


class _Dumper(yaml.SafeDumper):
    """Writes multi-line texts as literal blocks, so the file reads like the texts, and
    repeats a value rather than making a YAML alias of it (not every tool reads aliases)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def to_yaml(document: dict[str, Any]) -> str:
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


class _Builder:
    def __init__(self, spec: APISpec, converter: Any, max_id: int, max_items: int):
        self.spec = spec
        self.converter = converter
        self.max_id = max_id
        self.max_items = max_items
        self.envelopes = envelope_schemas(max_id, max_items)

    def schema(self, name: str, body: dict[str, Any]) -> None:
        self.spec.components.schema(name, body)

    # -- shared ------------------------------------------------------------------------------
    def shared(self, game_ids: list[str]) -> None:
        codes = list(CATALOGUE)
        self.schema("Problem", {
            "type": "object",
            "description": "An RFC 9457 problem with the referee's stable `code`.",
            "required": ["type", "title", "status", "detail", "code"],
            "properties": {
                "type": {"type": "string", "description": "urn:referee:problem:<code>"},
                "title": {"type": "string"},
                "status": {"type": "integer"},
                "detail": {"type": "string"},
                "code": {"type": "string", "x-extensible-enum": codes,
                         "description": "What went wrong, for a program to branch on. Known "
                         "codes: " + ", ".join(codes) + "; more may come."},
                "errors": {"type": "object", "additionalProperties": True,
                           "description": "With validation_error: each bad field and what is "
                           "wrong with it (nested like the request)."},
                "rule": {"type": "string",
                         "description": "With illegal_move: the id of the rule the move breaks."},
                "problems": {"type": "array", "items": {"type": "string"},
                             "description": "With invalid_state or invalid_options: every "
                             "problem found."},
                "checks": ref("ReadinessChecks"),
            },
        })
        self.schema("ReadinessChecks", {
            "type": "object", "description": "Each readiness check and whether it passes.",
            "required": ["engines", "contract", "sealing"],
            "properties": {
                "engines": {"type": "boolean", "description": "At least one game is "
                            "registered."},
                "contract": {"type": "boolean", "description": "This contract is generated."},
                "sealing": {"type": "boolean", "description": "In sealed mode, every "
                            "configured key seals and opens a probe (always true in open "
                            "mode)."},
            },
        })
        self.schema("GameId", {
            "type": "string", "x-extensible-enum": game_ids,
            "description": "A game's id. Known today: " + ", ".join(game_ids) + "; more may "
            "come."})
        self.schema("PlayerId", {"type": "string", "minLength": 1, "maxLength": self.max_id,
                                 "description": "A player's id, unique in a match."})
        self.schema("SealedState", {
            "type": "string", "pattern": TOKEN_PATTERN,
            "description": "Sealed mode: the opaque token the referee issued, posted back as it "
                           "is."})
        self.schema("SeatToken", {
            "type": "string", "pattern": TOKEN_PATTERN,
            "description": "Sealed mode: one seat's rights over a match at one step (a "
                           "player's, or a spectator's), for the back end to hand to that "
                           "player's device. Sent instead of the state to the legal moves, "
                           "validations, views and hints of its game; never a state."})
        self.schema("Seating", {
            "type": "object", "required": ["bots", "hints_allowed"],
            "additionalProperties": False,
            "properties": {
                "bots": {"type": "array", "items": ref("PlayerId"), "uniqueItems": True,
                         "description": "The players who are bots."},
                "hints_allowed": {"type": "boolean", "description": (
                    "Whether humans may ask for hints even when two or more humans play.")},
            },
            "description": "Who sits at the table, kept beside the game's state: which "
                           "players are bots, and whether the humans may ask for hints."})
        self.schema("Status", {"type": "string", "enum": ["in_progress", "finished"]})
        self.schema("SeedCommitment", {
            "type": "string", "pattern": "^[0-9a-f]{64}$",
            "description": "SHA-256 (hex) of the match seed's UTF-8 bytes, published from "
                           "creation on."})
        self.schema("Seed", {
            "type": "string",
            "description": "The match seed, revealed once the match has finished."})
        self.schema("OptionValue", {"type": ["string", "integer", "boolean"]})
        self.schema("OptionDescription", {
            "type": "object", "required": ["name", "type", "default", "description"],
            "properties": {
                "name": {"type": "string"},
                "type": {"type": "string", "enum": ["integer", "boolean", "string"]},
                "default": ref("OptionValue"),
                "description": {"type": "string"},
                "choices": {"type": "array", "items": ref("OptionValue")},
                "minimum": {"type": "integer"},
                "maximum": {"type": "integer"},
            }})
        self.schema("GameSummary", {
            "type": "object",
            "required": ["id", "name", "summary", "min_players", "max_players", "options"],
            "properties": {
                "id": ref("GameId"),
                "name": {"type": "string"},
                "summary": {"type": "string"},
                "min_players": {"type": "integer"},
                "max_players": {"type": "integer"},
                "options": {"type": "array", "items": ref("OptionDescription")},
            }})
        self.schema("MoveFieldDescription", {
            "type": "object", "required": ["name", "type", "required", "description"],
            "properties": {
                "name": {"type": "string"},
                "type": {"type": "string",
                         "enum": ["string", "player", "integer", "boolean", "card", "cards",
                                  "integers"]},
                "required": {"type": "boolean"},
                "description": {"type": "string"},
                "choices": {"type": "array", "items": ref("OptionValue")},
                "minimum": {"type": "integer"},
                "maximum": {"type": "integer"},
                "max_items": {"type": "integer"},
            }})
        self.schema("MoveTypeDescription", {
            "type": "object", "required": ["type", "description", "fields"],
            "properties": {
                "type": {"type": "string"},
                "description": {"type": "string"},
                "fields": {"type": "array", "items": ref("MoveFieldDescription")},
            }})
        self.schema("GameDetail", {
            "type": "object",
            "required": ["id", "name", "summary", "min_players", "max_players", "options",
                         "move_types", "state_schema"],
            "properties": {
                "id": ref("GameId"),
                "name": {"type": "string"},
                "summary": {"type": "string"},
                "min_players": {"type": "integer"},
                "max_players": {"type": "integer"},
                "options": {"type": "array", "items": ref("OptionDescription")},
                "move_types": {"type": "array", "items": ref("MoveTypeDescription")},
                "state_schema": {
                    "type": "object", "additionalProperties": True,
                    "description": "JSON Schema of the game's open-mode state (also in this "
                    "contract as the game's State schema)."},
            }})
        self.schema("Verdict", {
            "type": "object", "required": ["legal"],
            "properties": {
                "legal": {"type": "boolean"},
                "code": {"type": "string", "x-extensible-enum": list(VERDICT_CODES),
                         "description": "Why the move would be refused: the code posting it "
                         "would answer."},
                "detail": {"type": "string"},
                "rule": {"type": "string"},
                "penalty": {"type": "boolean", "description": "Posting this move would be "
                            "accepted and punished (house rule)."},
            }})
        for status, codes_here in _statuses().items():
            self.spec.components.response(f"Problem{status}", {
                "description": ", ".join(f"`{c}`" for c in codes_here),
                "content": {"application/problem+json": {"schema": ref("Problem")}}})
        self.spec.components.parameter("GameId", "path", {
            "name": "game_id", "required": True, "schema": ref("GameId"),
            "description": "A game id from the catalogue."})
        self._catalogue()

    def _catalogue(self) -> None:
        self.spec.path("/v1/games", operations={"get": _fixed_answer({
            "operationId": "listGames", "tags": ["catalogue"],
            "summary": "The catalogue of games",
            "description": "Each game's id, name, player counts, and options with types, "
                           "defaults and a one-line description.",
            "responses": {"200": {"description": "The catalogue.", "content": {
                "application/json": {"schema": {
                    "type": "object", "required": ["games"],
                    "properties": {"games": {"type": "array", "items": ref("GameSummary")}},
                }}}}},
        })})
        self.spec.path("/v1/games/{game_id}", parameters=["GameId"],
                       operations={"get": _fixed_answer({
            "operationId": "showGame", "tags": ["catalogue"],
            "summary": "One game, with its move types",
            "responses": {
                "200": {"description": "The game's catalogue entry and its move types.",
                        "content": {"application/json": {"schema": ref("GameDetail")}}},
                "404": {"$ref": "#/components/responses/Problem404"},
            },
        })})

    # -- one game ----------------------------------------------------------------------------
    def game(self, game_id: str, engine: Engine, moves: dict[str, Any],
             examples: dict[str, Example]) -> None:
        prefix = pascal(game_id)
        names = _GameNames(prefix)
        self._options(engine, names)
        self._moves(engine, moves, names)
        self._declared(engine, names)
        self._envelopes(engine, names)
        self._answers(engine, names)
        self._paths(game_id, engine, names, examples)
        self._pictures(game_id, engine, names, examples)

    def _options(self, engine: Engine, names: _GameNames) -> None:
        properties = {}
        for option in engine.options:
            prop: dict[str, Any] = {"type": option.kind, "default": option.default,
                                    "description": option.description}
            if option.choices is not None:
                prop["enum"] = list(option.choices)
            if option.minimum is not None:
                prop["minimum"] = option.minimum
            if option.maximum is not None:
                prop["maximum"] = option.maximum
            if option.kind == "string" and option.choices is None:
                prop["maxLength"] = 64
            properties[option.name] = prop
        rules = list(engine.option_rules)
        description = f"{engine.name}'s options; an absent option takes its default."
        if rules:
            description += " Rules between options: " + " ".join(rules)
        options_schema = {"type": "object", "additionalProperties": False,
                          "properties": properties, "description": description}
        if rules:
            options_schema["x-option-rules"] = rules
        self.schema(names.options, options_schema)
        self.schema(names.resolved_options, {
            "type": "object", "additionalProperties": False,
            "properties": copy.deepcopy(properties), "required": list(properties),
            "description": f"{engine.name}'s options as a match holds them: every option, "
                           "resolved."})

    def _moves(self, engine: Engine, moves: dict[str, Any], names: _GameNames) -> None:
        mapping = {}
        for move_type in engine.move_types:
            name = names.move(move_type.type)
            body = self.converter.schema2jsonschema(moves[move_type.type])
            body["description"] = move_type.description
            body["additionalProperties"] = False
            body["properties"]["player"] = ref("PlayerId")
            self.schema(name, body)
            mapping[move_type.type] = REF.format(name=name)
        self.schema(names.move_union, {
            "oneOf": [{"$ref": target} for target in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
            "description": f"A move of {engine.name}, by its `type`."})

    def _declared(self, engine: Engine, names: _GameNames) -> None:
        """The state, events, view and scores, from the game's declared types."""
        event_union = Union[tuple(engine.event_types)]  # type: ignore[valid-type]
        roots = [engine.state_type, event_union, engine.view_type, engine.scores_type]
        (_, events, _, _), components = msgspec.json.schema_components(roots, ref_template=REF)
        rename = {old: names.declared(old) for old in components}
        rename[engine.state_type.__name__] = names.state
        # The state's options (a plain dataclass) are the resolved options, whose schema the
        # option declarations give with their ranges and choices.
        options_type = typing.get_type_hints(engine.state_type)["options"]
        rename[options_type.__name__] = names.resolved_options
        components = {rename[name]: _renamed(_closed_tuples(body), rename)
                      for name, body in components.items() if name != options_type.__name__}
        events = _renamed(events, rename)
        # Every field of a state is required: a posted state carries them all.
        _require_everything(components, names.state)
        # The bound on a state's counters, where clients can read it.
        state_schema = components[names.state]
        # The table's seating travels beside the game's state (referee.http.codec.Match).
        state_schema["properties"]["seating"] = ref("Seating")
        state_schema["required"].append("seating")
        state_schema["x-max-counter"] = MAX_COUNTER
        for counter in engine.counter_fields():
            state_schema["properties"][counter].update(minimum=-MAX_COUNTER, maximum=MAX_COUNTER)
        for name, body in components.items():
            self.schema(name, body)
        known = list(events["discriminator"]["mapping"])
        self.schema(names.other_event, {
            "type": "object", "required": ["type"],
            "properties": {"type": {"type": "string", "not": {"enum": known}}},
            "additionalProperties": True,
            "description": "An event of a type this contract does not know yet: a client "
                           "shows or ignores it, and must not fail on it."})
        self.schema(names.event_union, {
            "oneOf": [*events["anyOf"], ref(names.other_event)],
            "description": f"Something a move of {engine.name} caused, by its `type` ("
                           + ", ".join(f"`{k}`" for k in known) + "; more may come)."})

    def _envelopes(self, engine: Engine, names: _GameNames) -> None:
        state = {"oneOf": [ref(names.state), ref("SealedState")],
                 "description": "Open mode: the state object; sealed mode: the token."}
        for kind, name in (("create", names.create), ("move", names.move_request),
                           ("legal_moves", names.legal_request),
                           ("validation", names.validation_request), ("view", names.view_request),
                           ("hint", names.hint_request)):
            if kind == "hint" and not engine.hint_levels:
                continue
            body = self.converter.schema2jsonschema(self.envelopes[kind])
            body["additionalProperties"] = False
            props = body["properties"]
            for field_name, field in self.envelopes[kind].fields.items():
                if isinstance(field, StateField):
                    props[field_name] = state
                elif field_name == "move":
                    props[field_name] = ref(names.move_union)
                elif isinstance(field, SeedField):
                    props[field_name] = _seed_schema()
                elif field_name in ("viewer", "player"):
                    props[field_name] = ref("PlayerId")
                elif field_name == "seat_token":
                    props[field_name] = {**ref("SeatToken"), "description": (
                        "Instead of `state`, from a player's device: the request acts as the "
                        "token's seat and no other.")}
                elif field_name == "level":
                    props[field_name] = {
                        "type": "string", "enum": list(engine.hint_levels),
                        "description": "How strong a player the hint plays as: easy, medium, "
                                       "hard (and the game's own levels)."}
            if "seat_token" in props:
                body["description"] = (
                    "Either `state` (from the game's back end) or `seat_token` (from a "
                    "player's device), never both"
                    + ("; with `state`, `player` is required." if kind in ("view", "hint")
                       else "."))
            if kind == "create":
                props["players"] = {
                    "type": "array", "items": ref("PlayerId"), "uniqueItems": True,
                    "minItems": engine.min_players, "maxItems": engine.max_players,
                    "description": "Unique player ids in seating order."}
                props["options"] = ref(names.options)
                props["bots"] = {
                    "type": "array", "items": ref("PlayerId"), "uniqueItems": True,
                    "maxItems": engine.max_players,
                    "description": "The players who are bots (each must be one of `players`): "
                                   "a bot may always ask for hints."}
                props["viewer"] = {**ref("PlayerId"), "description": (
                    "Who the answer is for: a player sees his view; anyone not seated is a "
                    "spectator and sees public information only.")}
                constraints = engine.creation_constraints()
                if constraints:
                    body["allOf"] = constraints
            self.schema(name, body)

    def _answers(self, engine: Engine, names: _GameNames) -> None:
        progress = {
            "status": ref("Status"),
            "to_act": {"type": "array", "items": ref("PlayerId"),
                       "description": "Everyone who may post a move now."},
            "legal_moves": {"type": "array", "items": ref(names.move_union),
                            "description": "Every move that may be posted now (only the "
                            "viewer's or player's, when one is named); each can be posted "
                            "back as it is."},
        }
        self.schema(names.outcome, {
            "type": "object",
            "required": ["state", "status", "to_act", "legal_moves", "scores", "events",
                         "seed_commitment"],
            "properties": {
                "state": {"oneOf": [ref(names.state), ref("SealedState")]},
                **progress,
                "scores": ref(names.scores),
                "events": {"type": "array", "items": ref(names.event_union),
                           "description": "What the move caused, in order."},
                "view": {**ref(names.view), "description": "With `viewer`: what he may see."},
                "seed_commitment": ref("SeedCommitment"),
                "seed": ref("Seed"),
                "seat_token": {**ref("SeatToken"), "description": (
                    "Sealed mode, with `viewer`: the viewer's seat token for the new state.")},
            }})
        self.schema(names.legal_moves, {
            "type": "object", "required": ["status", "to_act", "legal_moves"],
            "properties": progress})
        if engine.hint_levels:
            weighed = {"type": "object", "required": ["move", "value"],
                       "properties": {"move": ref(names.move_union),
                                      "value": {"type": "number"}}}
            self.schema(names.hint, {
                "type": "object",
                "required": ["player", "level", "move", "measure", "value", "reason",
                             "alternatives"],
                "properties": {
                    "player": ref("PlayerId"),
                    "level": {"type": "string", "enum": list(engine.hint_levels)},
                    "move": {**ref(names.move_union), "description": (
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
        self.schema(names.player_view, {
            "type": "object",
            "required": ["player", "status", "to_act", "legal_moves", "view", "scores"],
            "properties": {"player": ref("PlayerId"), **progress, "view": ref(names.view),
                           "scores": ref(names.scores),
                           "seat_token": {**ref("SeatToken"), "description": (
                               "Sealed mode, asked with the state: the player's seat token "
                               "for this state.")}}})

    def _paths(self, game_id: str, engine: Engine, names: _GameNames,
               examples: dict[str, Example]) -> None:
        op = camel(game_id)
        base = f"/v1/games/{game_id}"
        state = {"body.state": "$response.body#/state"}
        first_move = {**state, "body.move": "$response.body#/legal_moves/0"}
        follow = {
            "PostFirstLegalMove": (f"{op}PostMove", first_move,
                                   "its state and first legal move"),
            "PostFirstLegalMoveAsItsPlayer": (
                f"{op}PostMove", {**first_move, "body.viewer": "$response.body#/legal_moves/0/player"},
                "its state and first legal move, seen by the player who makes it"),
            "ValidateFirstLegalMove": (f"{op}ValidateMove", first_move,
                                       "its state and first legal move"),
            "ListLegalMoves": (f"{op}ListLegalMoves",
                               {**state, "body.player": "$response.body#/to_act/0"},
                               "its state and the first player who may act"),
            "ShowView": (f"{op}PlayerView", {**state, "body.player": "$response.body#/to_act/0"},
                         "its state and the first player who may act"),
        }
        links = {name: {"operationId": target, "parameters": params,
                        "description": f"Follows the answer with {what} (a parameter named "
                                       "body.<field> fills that field of the request body)."}
                 for name, (target, params, what) in follow.items()}
        operations = {
            "matches": ("CreateMatch", names.create, names.outcome, "201",
                        f"Start a match of {engine.name}",
                        "Players are unique ids in seating order. Options not given take their "
                        "defaults. With `seed`, the whole match is reproducible; without it the "
                        "referee draws a secret one."),
            "moves": ("PostMove", names.move_request, names.outcome, "200",
                      f"Apply a move of {engine.name}",
                      "Validates the move against the state and answers the outcome after it. "
                      "A refused move changes nothing. With `viewer`, the answer lists only "
                      "that player's legal moves, hides what only others may see in the "
                      "events, and adds his `view` (and, sealed, his `seat_token`). A seat "
                      "token is refused here (`seat_token_not_allowed`): the back end posts "
                      "moves with the state."),
            "legal-moves": ("ListLegalMoves", names.legal_request, names.legal_moves, "200",
                            f"The legal moves of a {engine.name} state",
                            "Every move that may be posted now, for everyone or for one "
                            "`player`; with a `seat_token`, its seat's only."),
            "validations": ("ValidateMove", names.validation_request, "Verdict", "200",
                            f"Would this {engine.name} move be accepted? (dry run)",
                            "Whether the move is legal in the state, without applying it: "
                            "nothing it would roll or draw is revealed. A move the rules refuse "
                            "answers `legal: false` with the code and detail posting it would "
                            "give; under a house rule that punishes a wrong move instead of "
                            "refusing it, `legal: false` with `penalty: true`. A move that does "
                            "not fit its schema is a `validation_error` problem, as when posted. "
                            "With a `seat_token`, only its seat's moves (`not_your_seat`)."),
            "views": ("PlayerView", names.view_request, names.player_view, "200",
                      f"What one player of a {engine.name} match may see",
                      "The player's view of the state (own hand, public table, counts), with "
                      "his legal moves. Asked with the state, sealed, it carries his "
                      "`seat_token`; asked with a seat token, it is that seat's view."),
        }
        if engine.hint_levels:
            operations["hints"] = (
                "Hint", names.hint_request, names.hint, "200",
                f"A hint, or a bot's move, for a player of {engine.name}",
                "One of the player's legal moves, chosen at the level asked from what he sees "
                "(his view: never another hand, the stock's order or the seed), with what it "
                "is worth in the game's terms and the best alternatives. The same request "
                "always gives the same hint. A bot is this call. Refused as "
                "`hint_not_allowed` for a human playing other humans unless the match was "
                "created with `hints_allowed`; `not_your_turn` when the player has no move "
                "to make (a spectator never has). With a `seat_token`, for its seat only.")
        for segment, (suffix, request, answer, status, summary, text) in operations.items():
            sent, answered = examples[segment]
            example_name = f"{game_id}-{segment}"
            responses: dict[str, Any] = {status: {
                "description": summary, "content": {"application/json": {
                    "schema": ref(answer),
                    "examples": {example_name: {"summary": "The answer to the example request",
                                                "value": answered}}}}}}
            if answer == names.outcome:
                responses[status]["links"] = links
            for problem in PROBLEM_STATUSES[segment]:
                responses[problem] = {"$ref": f"#/components/responses/Problem{problem}"}
            self.spec.path(f"{base}/{segment}", operations={"post": {
                "operationId": f"{op}{suffix}", "tags": [game_id], "summary": summary,
                "description": text,
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": ref(request),
                    "examples": {example_name: {"summary": EXAMPLE_SUMMARY, "value": sent}}}}},
                "responses": responses,
            }})

    # -- pictures ----------------------------------------------------------------------------
    def _picture_request(self, kind: str, names: _GameNames) -> dict[str, Any]:
        body = self.converter.schema2jsonschema(self.envelopes[kind])
        body["additionalProperties"] = False
        body["properties"]["state"] = {
            "oneOf": [ref(names.state), ref("SealedState")],
            "description": "Open mode: the state object; sealed mode: the token."}
        if "seat_token" in body["properties"]:
            body["properties"]["seat_token"] = {**ref("SeatToken"), "description": (
                "Instead of `state`, from a player's device: the picture is of the token's "
                "seat and no other.")}
            body["description"] = ("Either `state` (from the game's back end) or `seat_token` "
                                   "(from a player's device), never both; with `state`, "
                                   "`player` is required.")
        return body

    def _picture_operation(self, game_id: str, operation_id: str, summary: str, text: str,
                           request: str, examples: dict[str, Any],
                           answers: dict[str, str]) -> dict[str, Any]:
        """A POST answered by a file: `answers` maps each media type to what it holds."""
        content = {media: {"schema": {"type": "string", "format": "binary",
                                      "contentMediaType": media, "description": what}}
                   for media, what in answers.items()}
        headers = {"Content-Disposition": {
            "description": "`inline`, with a file name for saving it.",
            "schema": {"type": "string"}}}
        if SVG_MEDIA in answers:
            headers["Content-Security-Policy"] = {
                "description": "The SVG may run nothing and load nothing when opened on its own.",
                "schema": {"type": "string"}}
        responses: dict[str, Any] = {"200": {"description": summary, "headers": headers,
                                             "content": content}}
        for problem in PICTURE_PROBLEM_STATUSES:
            responses[problem] = {"$ref": f"#/components/responses/Problem{problem}"}
        return {"post": {
            "operationId": operation_id, "tags": [game_id], "summary": summary,
            "description": text,
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": ref(request), "examples": examples}}},
            "responses": responses,
        }}

    def _pictures(self, game_id: str, engine: Engine, names: _GameNames,
                  examples: dict[str, Example]) -> None:
        op = camel(game_id)
        request = f"{names.prefix}ViewImageRequest"
        body = self._picture_request("view_image", names)
        body["properties"]["player"] = {**ref("PlayerId"), "description": (
            "Whose view: a player sees his own; anyone not seated is a spectator and sees "
            "public information only.")}
        body["properties"]["events"] = {
            "type": "array", "items": ref(names.event_union), "maxItems": self.max_items,
            "description": "Events to list under the table (the last ten are shown), as an "
                           "answer gave them. Each must fit its declared type; a detail that is "
                           "private to other players is left out of the picture, and an event "
                           "of a type this contract does not know shows its type only."}
        self.schema(request, body)
        sent, _ = examples["views"]
        created = examples["matches"][1]
        self.spec.path(f"/v1/games/{game_id}/images/view", operations=self._picture_operation(
            game_id, f"{op}ViewImage", f"A picture of what one player of a {engine.name} "
            "match sees (SVG)",
            "The view of `/views` drawn: the player's hand, the table, every player's card "
            "count, score and titles, whose turn it is, and the `events` passed. It is drawn "
            "from the player's view only, so it never shows more than he may see; a "
            "spectator's shows public information only. With a `seat_token`, the picture of "
            "its seat's view.",
            request, {f"{game_id}-view-image": {
                "summary": "The example match's view, with its creation events",
                "value": {**sent, "events": created["events"]}}},
            {SVG_MEDIA: "An SVG document, 880 points wide."}))
        if game_id in SHEET_GAMES:
            self._sheets(game_id, engine, names, examples)

    def _sheets(self, game_id: str, engine: Engine, names: _GameNames,
                examples: dict[str, Example]) -> None:
        op = camel(game_id)
        request = f"{names.prefix}SheetRequest"
        body = self._picture_request("sheet", names)
        props = body["properties"]
        props["state"]["description"] = (
            "A match to fill the sheet from (its players, box values, scores, whose turn "
            "or who won). Without it the sheet is blank.")
        props["players"].update(description=(
            "Blank sheet: how many player columns (default: as many as `names`, or "
            f"{SHEET_COLUMNS})."))
        props["names"] = {"type": "array", "items": ref("PlayerId"), "uniqueItems": True,
                          "maxItems": SHEET_COLUMNS,
                          "description": "Blank sheet: names to head the first columns with "
                                         "(no more than `players`)."}
        props["options"] = {**ref(names.options), "description": (
            "Blank sheet: the match options whose box values it shows (default: the rule "
            "text's).")}
        props["page"].update(description="The paper: A4 (210 x 297 mm) or US Letter "
                                         "(8.5 x 11 in), portrait.")
        body["description"] = ("A sheet of a match (`state`) or a blank one (`players`, "
                               "`names`, `options`); `state` goes with none of the three.")
        self.schema(request, body)
        sent, _ = examples["views"]
        sheet_examples = {
            f"{game_id}-blank-sheet": {"summary": "A blank sheet for four, two of them named",
                                       "value": {"players": 4, "names": ["ann", "bob"],
                                                 "page": "a4"}},
            f"{game_id}-match-sheet": {"summary": "The sheet of the example match, on Letter",
                                       "value": {"state": sent["state"], "page": "letter"}},
        }
        text = ("The Generala sheet: its 11 boxes (Spanish names, values and servida values "
                "from the match's options), a column per player (one to six), blank or filled "
                "from a match: each box's points, scratched boxes crossed out, the totals, "
                "whose turn it is or who won.")
        for page_format, media, what in (
                ("svg", SVG_MEDIA, "An SVG document sized for the page (in mm or inches)."),
                ("pdf", "application/pdf", "A one-page PDF of the page's size.")):
            self.spec.path(f"/v1/games/{game_id}/sheets/{page_format}",
                           operations=self._picture_operation(
                               game_id, f"{op}Sheet{page_format.capitalize()}",
                               f"The printable Generala sheet ({page_format.upper()})", text,
                               request, sheet_examples, {media: what}))

    # -- the service -------------------------------------------------------------------------
    def service(self) -> None:
        self.spec.path("/healthz", operations={"get": {
            "operationId": "health", "tags": ["service"], "summary": "Liveness",
            "responses": {"200": {"description": "The process answers.", "content": {
                "application/json": {"schema": {
                    "type": "object", "required": ["status", "games"],
                    "properties": {"status": {"type": "string", "enum": ["ok"]},
                                   "games": {"type": "array", "items": ref("GameId")}}}}}}},
        }})
        self.spec.path("/readyz", operations={"get": {
            "operationId": "readiness", "tags": ["service"], "summary": "Readiness",
            "description": "Whether this process can serve matches: the engines are "
                           "registered, the contract is generated and, in sealed mode, every "
                           "sealing key works. A load balancer sends traffic only to a ready "
                           "process; `/healthz` only says the process answers.",
            "responses": {
                "200": {"description": "Ready.", "content": {"application/json": {"schema": {
                    "type": "object", "required": ["status", "checks"],
                    "properties": {"status": {"type": "string", "enum": ["ready"]},
                                   "checks": ref("ReadinessChecks")}}}}},
                "503": {"$ref": "#/components/responses/Problem503"},
            },
        }})
        self.spec.path("/metrics", operations={"get": {
            "operationId": "metrics", "tags": ["service"], "summary": "Prometheus metrics",
            "description": "The Prometheus text exposition format (version 0.0.4), summed over "
                           "every worker process: requests by route, game and status, "
                           "problems by code, moves applied by game, latency histograms by "
                           "route, sealed tokens sealed, opened and refused.",
            "responses": {"200": {"description": "The metrics.", "content": {
                "text/plain; version=0.0.4; charset=utf-8": {"schema": {"type": "string"}}}}},
        }})
        self.spec.path("/openapi.yaml", operations={"get": _fixed_answer({
            "operationId": "openapiDocument", "tags": ["service"], "summary": "This contract",
            "responses": {"200": {"description": "The OpenAPI document.", "content": {
                "application/yaml": {"schema": {"type": "object",
                                                "additionalProperties": True}}}}},
        })})
        self.spec.path("/docs", operations={"get": _fixed_answer({
            "operationId": "apiExplorer", "tags": ["service"],
            "summary": "This contract in an API explorer (Swagger UI, served offline)",
            "responses": {"200": {"description": "An HTML page.", "content": {
                "text/html": {"schema": {"type": "string"}}}}},
        })})
        self.spec.path("/docs/static/{asset}", operations={"get": _fixed_answer({
            "operationId": "apiExplorerAsset", "tags": ["service"],
            "summary": "A file of the API explorer (Swagger UI's script, style and icons)",
            "parameters": [{"name": "asset", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {
                "200": {"description": "The file.", "content": {
                    "text/css": {"schema": {"type": "string"}},
                    "text/javascript": {"schema": {"type": "string"}},
                    "image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}},
                }},
                "404": {"$ref": "#/components/responses/Problem404"},
            },
        })})
        self.spec.path("/verify", operations={"get": {
            "operationId": "fairnessCheck", "tags": ["service"],
            "summary": "A page that checks a finished match's dice and cards in the player's "
                       "own browser (docs/FAIRNESS.md); static, offline",
            "responses": {"200": {"description": "An HTML page.", "content": {
                "text/html": {"schema": {"type": "string"}}}}},
        }})
        self.spec.path("/verify/{script}", operations={"get": {
            "operationId": "fairnessCheckScript", "tags": ["service"],
            "summary": "A script of the /verify page: fairness.js (the random source and the "
                       "check of a record) or verify.js (the page)",
            "parameters": [{"name": "script", "in": "path", "required": True,
                            "schema": {"type": "string", "enum": ["fairness.js", "verify.js"]}}],
            "responses": {
                "200": {"description": "The script.", "content": {
                    "text/javascript": {"schema": {"type": "string"}}}},
                "404": {"$ref": "#/components/responses/Problem404"},
            },
        }})


class _GameNames:
    """The component names of one game's schemas."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.options = f"{prefix}Options"
        self.resolved_options = f"{prefix}ResolvedOptions"
        self.state = f"{prefix}State"
        self.move_union = f"{prefix}Move"
        self.event_union = f"{prefix}Event"
        self.other_event = f"{prefix}OtherEvent"
        self.view = f"{prefix}View"
        self.scores = f"{prefix}Scores"
        self.create = f"{prefix}CreateMatchRequest"
        self.move_request = f"{prefix}MoveRequest"
        self.legal_request = f"{prefix}LegalMovesRequest"
        self.validation_request = f"{prefix}ValidationRequest"
        self.view_request = f"{prefix}ViewRequest"
        self.outcome = f"{prefix}Outcome"
        self.legal_moves = f"{prefix}LegalMoves"
        self.player_view = f"{prefix}PlayerView"
        self.hint_request = f"{prefix}HintRequest"
        self.hint = f"{prefix}Hint"

    def move(self, move_type: str) -> str:
        return f"{self.prefix}{pascal(move_type)}Move"

    def declared(self, name: str) -> str:
        if name in ("View", "Scores"):
            return f"{self.prefix}{name}"
        return name if name.startswith(self.prefix) else f"{self.prefix}{name}"


def _fixed_answer(operation: dict[str, Any]) -> dict[str, Any]:
    """An answer that changes only with a release: it carries an ETag and a Cache-Control,
    and is answered 304, without a body, to a client that holds the current copy."""
    validator = {"description": "The answer's version: send it back in `If-None-Match`.",
                 "schema": {"type": "string"}}
    lifetime = {"description": "How long a copy may be reused without asking "
                               "(`public, max-age=...`).", "schema": {"type": "string"}}
    responses = dict(operation["responses"])
    responses["200"] = {**responses["200"],
                        "headers": {"ETag": validator, "Cache-Control": lifetime}}
    responses["304"] = {"description": "The copy named in `If-None-Match` is current.",
                        "headers": {"ETag": validator, "Cache-Control": lifetime}}
    held = {"name": "If-None-Match", "in": "header", "required": False,
            "schema": {"type": "string"},
            "description": "The ETag of a copy the client holds."}
    return {**operation, "parameters": [*operation.get("parameters", []), held],
            "responses": responses}


def _statuses() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for code, (status, _) in CATALOGUE.items():
        out.setdefault(str(status), []).append(code)
    return out


def _seed_schema() -> dict[str, Any]:
    return {
        "description": "Makes the match reproducible: a string of 1 to 128 characters or an "
                       "integer from 0 to 2^128 - 1 (used as its decimal string). Absent or "
                       "null: the referee draws a secret one.",
        "oneOf": [{"type": "string", "minLength": 1, "maxLength": 128},
                  {"type": "integer", "minimum": 0, "maximum": 2**128 - 1},
                  {"type": "null"}],
    }


def _renamed(node: Any, rename: dict[str, str]) -> Any:
    """`node` with the references to renamed components renamed."""
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
            else:
                out[key] = _renamed(value, rename)
        return out
    if isinstance(node, list):
        return [_renamed(v, rename) for v in node]
    return node


def _closed_tuples(node: Any) -> Any:
    """msgspec closes a fixed-length array with `items: false` beside its `prefixItems`;
    `maxItems` says the same, in a form every tool reads."""
    if isinstance(node, dict):
        return {k: _closed_tuples(v) for k, v in node.items()
                if not (k == "items" and v is False and "prefixItems" in node)}
    if isinstance(node, list):
        return [_closed_tuples(v) for v in node]
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
        for target in _refs(body):
            pending.append(target)


def _refs(node: Any) -> list[str]:
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                found.append(value.rsplit("/", 1)[1])
            else:
                found += _refs(value)
    elif isinstance(node, list):
        for value in node:
            found += _refs(value)
    return found


def _tidy(node: Any) -> Any:
    """Small normalisations generators need: a string `enum` says `type: string`, and a
    one-value enum (a move's or an event's `type` tag) is a `const`, which generated clients
    check when they parse a union; msgspec's `title` (the Python class name) is dropped, the
    component name says it."""
    if isinstance(node, dict):
        out = {k: _tidy(v) for k, v in node.items() if k != "title"}
        enum = out.get("enum")
        if isinstance(enum, list) and enum and all(isinstance(v, str) for v in enum):
            out = {"type": "string", **out}
            if len(enum) == 1:  # a tag such as a move's or an event's `type`
                out["const"] = out.pop("enum")[0]
        return out
    if isinstance(node, list):
        return [_tidy(v) for v in node]
    return node


__all__ = ["generate", "to_yaml", "pascal", "camel", "CARD_PATTERN"]


def committed_document() -> str:
    """The document `openapi.yaml` holds: the registry's games, the default settings (the
    environment is not read, so the file is the same on every machine)."""
    from referee.games import REGISTRY

    from . import settings

    return to_yaml(generate(REGISTRY, settings.from_environment({})))


if __name__ == "__main__":  # `make contract`
    import sys
    from pathlib import Path

    target = Path(sys.argv[1] if len(sys.argv) > 1 else "openapi.yaml")
    target.write_text(committed_document(), encoding="utf-8")
    print(f"wrote {target}")
