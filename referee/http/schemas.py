"""Marshmallow schemas for the request envelopes and for each game's moves.

Move schemas are built once per game from its declared `MoveType`s, so the catalogue the
clients read and the checks the referee makes come from the same declaration. An envelope
that comes in two shapes (the state or a seat token; a sheet of a match or a blank one)
declares them (`Shape`), and its check holds a body to exactly one: the contract states the
same shapes as a `oneOf`. What no schema can state is in referee.http.rules.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Callable, Literal, Union

import msgspec
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from referee.core.cards import standard_deck
from referee.core.contributions import MAX_SEED_CHARS
from referee.core.engine import Engine, Field, MoveType
from referee.core.numbers import integral
from referee.core.wire import CARD_PATTERN
from referee.pictures.sheet import MAX_COLUMNS as SHEET_COLUMNS
from referee.pictures.sheet import PAGES

from .sealing import MAX_TOKEN_CHARS


class StrictInteger(fields.Integer):
    """An integer that is really one: no strings, booleans or fractions (3.0 is 3)."""

    def _deserialize(self, value, attr, data, **kwargs):
        value = integral(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError("Not a valid integer.")
        return value


class StrictBoolean(fields.Boolean):
    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean.")
        return value


class StateField(fields.Field):
    """A state: a JSON object in open mode, a sealed token string in sealed mode."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, (dict, str)):
            raise ValidationError("A state is a JSON object (open mode) or a string (sealed mode).")
        return value


# Every integer below it is a double (a JSON number with a fraction or exponent) exactly.
EXACT_DOUBLES = 2**53


class SeedField(fields.Field):
    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is float and EXACT_DOUBLES <= value < 2**128:
            # 9007199254740993.0 reads as ...992: the match would have another seed.
            raise ValidationError("An integer seed of 2^53 or more is written without a "
                                  "fraction or exponent.")
        value = integral(value)
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValidationError("A seed is a string or an integer.")
        if isinstance(value, str) and not 1 <= len(value) <= 128:
            raise ValidationError("A seed string has 1 to 128 characters.")
        if isinstance(value, int) and not 0 <= value < 2**128:
            raise ValidationError("An integer seed is between 0 and 2^128 - 1.")
        return value


# The longest life a seat token may be given, in seconds (30 days).
MAX_SEAT_TTL = 30 * 24 * 3600


def seat_ttl() -> StrictInteger:
    return StrictInteger(validate=validate.Range(min=1, max=MAX_SEAT_TTL), metadata={
        "description": "Sealed mode: the answer's `seat_token` stops being honoured this many "
                       "seconds after it is issued (by the referee's clock). Without it, the "
                       "token does not expire."})


@dataclasses.dataclass(frozen=True)
class Shape:
    """One of the shapes an envelope comes in: the fields it requires and the fields of the
    envelope it goes without. The contract gives each shape a schema of its own and the
    envelope as `oneOf` them; the envelope's check (`validates_schema` below) holds a body
    to exactly one of them."""

    name: str  # the shape's component name is the envelope's, then this
    requires: tuple[str, ...]
    without: tuple[str, ...]


# A request of the game's back end, with the state; or of a player's device, with his seat
# token, which stands for the match and the seat (naming another player is `not_your_seat`).
WITH_STATE = Shape("WithState", ("state",), ("seat_token",))
WITH_STATE_FOR_A_PLAYER = Shape("WithState", ("state", "player"), ("seat_token",))
WITH_SEAT_TOKEN = Shape("WithSeatToken", ("seat_token",), ("state",))
# The Generala sheet: of a match (its players and options come from the state), or blank.
OF_A_MATCH = Shape("OfAMatch", ("state",), ("players", "names", "options"))
BLANK = Shape("Blank", (), ("state",))


class StateOrSeat(Schema):
    """A request that a player's device may send: the state (from the game's back end) or the
    seat token the back end handed the device, never both."""

    shapes = (WITH_STATE, WITH_SEAT_TOKEN)

    state = StateField()
    seat_token = fields.String()

    @validates_schema
    def _state_or_seat(self, data, **kwargs):
        if "state" in data and "seat_token" in data:
            raise ValidationError({"seat_token": ["Send the state or a seat token, not both."]})
        if "state" not in data and "seat_token" not in data:
            raise ValidationError({"state": ["Missing data for required field (or send "
                                             "seat_token)."]})
        shape = self.shapes[0] if "state" in data else self.shapes[1]
        missing = [name for name in shape.requires if name not in data]
        if missing:
            raise ValidationError({name: ["Missing data for required field."]
                                   for name in missing})


class StateOrSeatForAPlayer(StateOrSeat):
    """Asked with the state, the request names the player it is for."""

    shapes = (WITH_STATE_FOR_A_PLAYER, WITH_SEAT_TOKEN)


# The most moves a replay may hold (REFEREE_MAX_REPLAY_MOVES): eight times the longest whole
# match of `make bench`'s at four players; L'Empereur, which sets no turn limit, can pass it
# (docs/RESULTS.md).
MAX_REPLAY_MOVES = 2000


def finite_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and 0 <= value < float("inf"))


class Instant(fields.Field):
    """An instant on the referee's clock: seconds since the Unix epoch, a number >= 0."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            instant = float(value) if finite_number(value) else None
        except OverflowError:  # a whole number past a float's range (10**309) is none either
            instant = None
        if instant is None:
            raise ValidationError("An instant is a number of seconds since the epoch, >= 0.")
        return instant


# An instant as the typed decoders read it (the schema's `Instant`).
TYPED_INSTANT = Annotated[float, msgspec.Meta(ge=0)]


class ReplayedMove(msgspec.Struct, forbid_unknown_fields=True):
    """One move of a replay: the move (its own fields are checked when it is played, as a
    posted move's are, so that a move that does not fit its type is refused at its index
    with the problem posting it would get) and the instant it was made at."""

    move: Any  # any JSON value: one that is not a move is refused at its index
    at: TYPED_INSTANT | msgspec.UnsetType = msgspec.UNSET


class ReplayedMoves(fields.Field):
    """A replay's moves, `[{"move": {...}, "at": instant?}, ...]`, at most `max_moves`: read
    in one pass (a replay's cost per move is the engine's, not its envelope's)."""

    def __init__(self, max_moves: int, **kwargs):
        super().__init__(**kwargs)
        self.max_moves = max_moves

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise ValidationError("Not a valid list.")
        if len(value) > self.max_moves:
            raise ValidationError(f"Longer than maximum length {self.max_moves}.")
        try:
            moves = msgspec.convert(value, list[ReplayedMove], strict=True)
        except msgspec.ValidationError as exc:
            raise ValidationError("Each move is an object with `move` and `at` "
                                  f"(optional, a number of seconds >= 0): {exc}") from None
        return as_given(moves)


def as_given(moves: list[ReplayedMove]) -> list[dict[str, Any]]:
    """A replay's moves as the service reads them: each `{"move"}`, with its `at` if given."""
    return [{"move": m.move} if m.at is msgspec.UNSET else {"move": m.move, "at": m.at}
            for m in moves]


def player_id(max_length: int) -> fields.String:
    return fields.String(validate=validate.Length(min=1, max=max_length))


def seat_token_holders(max_id: int, max_items: int) -> fields.List:
    """Whose seat tokens the answer is to carry (the service bounds them to the game's
    seats)."""
    return fields.List(player_id(max_id), validate=[validate.Length(max=max_items), _unique],
                       metadata={"description": "Sealed mode: the players whose seat tokens "
                                 "the answer carries, in `seat_tokens`."})


def _unique(values: list[str]) -> None:
    if len(set(values)) != len(values):
        raise ValidationError("Player ids must be unique.")


def contributed_seed() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=MAX_SEED_CHARS),
                         metadata={"description": "A seed of the contributor's own choosing "
                                   "(best: drawn at random on his device)."})


# What any declared field of a move holds (FIELD_KINDS): a JSON scalar or a list of them.
JSON_SCALAR = Union[str, int, float, bool, None]
MOVE_OBJECT = dict[str, Union[JSON_SCALAR, list[JSON_SCALAR]]]


def move_request_fields(max_id: int, max_items: int) -> dict[str, tuple[fields.Field, Any]]:
    """The move request's envelope, field by field: the schema field that checks it, and its
    typed form on the hot path. Both the envelope's schema and its Struct are made from it."""
    return {
        "state": (StateField(required=True), Any),
        # The move's own schema checks its fields next; here it only has to be an object
        # (typed: of the values its declared fields can take, which bounds its nesting).
        "move": (fields.Dict(required=True), MOVE_OBJECT),
        "viewer": (player_id(max_id), player_type(max_id)),
        "seat_token_ttl": (seat_ttl(), Annotated[int, msgspec.Meta(ge=1, le=MAX_SEAT_TTL)]),
        # Its ids' uniqueness is the schema's to judge (typed_load leaves repeats to it).
        "seat_tokens_for": (seat_token_holders(max_id, max_items), Annotated[
            list[player_type(max_id)], msgspec.Meta(max_length=max_items)]),
    }


def envelope_schemas(max_id: int, max_items: int,
                     max_moves: int = MAX_REPLAY_MOVES) -> dict[str, Schema]:
    class SeedAtCreation(Schema):
        player = player_id(max_id)
        seed = contributed_seed()

    class CreateMatch(Schema):
        players = fields.List(player_id(max_id), required=True,
                              validate=[validate.Length(min=1, max=max_items), _unique])
        options = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True),
                              load_default=dict, validate=validate.Length(max=max_items))
        seed = SeedField(load_default=None, allow_none=True)
        seed_token = fields.String(validate=validate.Length(min=1, max=MAX_TOKEN_CHARS))
        contributions = fields.List(fields.Nested(SeedAtCreation), load_default=list,
                                    validate=validate.Length(max=max_items))
        viewer = player_id(max_id)
        bots = fields.List(player_id(max_id), load_default=list,
                           validate=[validate.Length(max=max_items), _unique])
        hints_allowed = StrictBoolean(load_default=False, metadata={
            "description": "Whether the humans may ask for hints even when two or more humans "
                           "play; without it a human gets hints only when he plays bots alone."})
        seat_token_ttl = seat_ttl()
        seat_tokens_for = seat_token_holders(max_id, max_items)

        @validates_schema
        def _one_seed(self, data, **kwargs):
            if data.get("seed") is not None and "seed_token" in data:
                raise ValidationError({"seed_token": ["Send a seed or a seed token, not "
                                                      "both."]})
            named = [c.get("player") for c in data.get("contributions", ())]
            if len(set(named)) != len(named):
                raise ValidationError({"contributions": ["One seed per contributor (a "
                                                         "player, or the back end)."]})

    class NewSeed(Schema):
        pass

    class Contribute(Schema):
        state = StateField(required=True)
        player = fields.String(required=True, validate=validate.Length(min=1, max=max_id))
        seed = contributed_seed()

    post_move = Schema.from_dict({name: field for name, (field, _) in
                                  move_request_fields(max_id, max_items).items()},
                                 name="PostMove")

    class LegalMoves(StateOrSeat):
        player = player_id(max_id)

    class Validation(StateOrSeat):
        move = fields.Dict(required=True)  # an object: its own schema checks it next

    # With a seat token the player is the token's (the service's Referee.seated).
    class View(StateOrSeatForAPlayer):
        player = player_id(max_id)
        seat_token_ttl = seat_ttl()

    class Hint(StateOrSeatForAPlayer):
        player = player_id(max_id)
        level = fields.String(required=True, validate=validate.Length(min=1, max=max_id))

    class ViewImage(StateOrSeatForAPlayer):
        player = player_id(max_id)
        # Each is checked against the game's declared events when the picture is drawn.
        events = fields.List(fields.Dict(), load_default=list,
                             validate=validate.Length(max=max_items))

    class Sheet(Schema):
        shapes = (OF_A_MATCH, BLANK)

        state = StateField()
        players = StrictInteger(validate=validate.Range(min=1, max=SHEET_COLUMNS))
        names = fields.List(player_id(max_id),
                            validate=[validate.Length(max=SHEET_COLUMNS), _unique])
        options = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True),
                              validate=validate.Length(max=max_items))
        page = fields.String(load_default="a4", validate=validate.OneOf(list(PAGES)))

        @validates_schema
        def _one_kind_of_sheet(self, data, **kwargs):
            blank = [name for name in OF_A_MATCH.without if name in data]
            if "state" in data and blank:
                raise ValidationError({name: ["A sheet of a match takes its players and "
                                              "options from the state."] for name in blank})
            if len(data.get("names", ())) > data.get("players", SHEET_COLUMNS):
                raise ValidationError({"names": ["No more names than `players`."]})

    class Replay(Schema):
        # What the match was created with: a creation's body; whom the answer is for is
        # the replay's own `viewer`.
        creation = fields.Nested(CreateMatch(exclude=("viewer", "seat_token_ttl",
                                                      "seat_tokens_for")),
                                 required=True)
        created_at = Instant()
        moves = ReplayedMoves(max_moves, required=True)
        viewer = player_id(max_id)
        seat_token_ttl = seat_ttl()

    return {"create": CreateMatch(), "seed": NewSeed(), "contribute": Contribute(),
            "replay": Replay(),
            "move": post_move(), "legal_moves": LegalMoves(),
            "validation": Validation(), "view": View(), "hint": Hint(),
            "view_image": ViewImage(), "sheet": Sheet()}


class FieldForms:
    """What the two forms of one declared move field are made of: the marshmallow checks of
    its schema field, and the msgspec types of its typed form."""

    def __init__(self, spec: Field, max_id: int, max_items: int):
        self.spec = spec
        self.max_id = max_id
        self.max_items = spec.max_items or max_items
        # The schema field's: its choices or range, and what every field is given.
        self.checks: list[Any] = []
        if spec.choices is not None:
            self.checks.append(validate.OneOf(spec.choices))
        if spec.minimum is not None or spec.maximum is not None:
            self.checks.append(validate.Range(min=spec.minimum, max=spec.maximum))
        self.given = {"required": spec.required, "metadata": {"description": spec.description}}

    def bounded(self, kind: type) -> Any:
        """A string or an integer within the declared choices or range; None when the
        schema alone can judge it."""
        spec = self.spec
        if spec.choices is not None:
            kept = [c for c in spec.choices if type(c) is kind
                    and (spec.minimum is None or c >= spec.minimum)
                    and (spec.maximum is None or c <= spec.maximum)
                    and (kind is not str or len(c) <= self.max_id)]
            return _literal(kept) if kept else None
        if kind is str:
            if spec.minimum is not None or spec.maximum is not None:
                return None
            return Annotated[str, msgspec.Meta(max_length=self.max_id)]
        return Annotated[int, msgspec.Meta(ge=spec.minimum, le=spec.maximum)]

    def listed(self, item: Any) -> Any:
        """A list of `item` no longer than the field allows; None when `item` is."""
        return None if item is None else Annotated[list[item], msgspec.Meta(
            max_length=self.max_items)]


# A card as the typed decoders read it: one of the deck's codes, looked up (the contract's
# pattern, run as a regular expression on every card, cost more than the rest of a move's
# check). The pattern's `$` lets a card followed by a newline through too: that rarer
# spelling is left to the schema, which reads it as the pattern does.
TYPED_CARD = Literal[standard_deck()]  # type: ignore[valid-type]

# Each kind of a move's field (referee.core.engine.Field): the schema field that checks it,
# and its typed form for the hot path (None: the schema alone can judge it). The contract
# lists these kinds.
FIELD_KINDS: dict[str, tuple[Callable[[FieldForms], fields.Field],
                             Callable[[FieldForms], Any]]] = {
    "string": (lambda f: fields.String(validate=[*f.checks, validate.Length(max=f.max_id)],
                                       **f.given),
               lambda f: f.bounded(str)),
    "player": (lambda f: fields.String(validate=validate.Length(min=1, max=f.max_id),
                                       **f.given),
               lambda f: player_type(f.max_id)),
    "integer": (lambda f: StrictInteger(validate=f.checks, **f.given),
                lambda f: f.bounded(int)),
    "boolean": (lambda f: StrictBoolean(**f.given), lambda f: bool),
    "card": (lambda f: fields.String(validate=card_check(), **f.given), lambda f: TYPED_CARD),
    "cards": (lambda f: fields.List(fields.String(validate=card_check()),
                                    validate=validate.Length(max=f.max_items), **f.given),
              lambda f: f.listed(TYPED_CARD)),
    "integers": (lambda f: fields.List(StrictInteger(validate=f.checks),
                                       validate=validate.Length(max=f.max_items), **f.given),
                 lambda f: f.listed(f.bounded(int))),
}


def card_check() -> validate.Regexp:
    """A card string (the same pattern the contract gives clients)."""
    return validate.Regexp(CARD_PATTERN, error="{input!r} is not a card (rank 2-9, T, J, Q, "
                           "K, A and suit C, D, H, S, or a joker X1/X2).")


def move_schemas(engine: Engine, max_id: int, max_items: int) -> dict[str, Schema]:
    schemas = {}
    for move_type in engine.move_types:
        declared: dict[str, fields.Field] = {
            "type": fields.String(required=True, validate=validate.Equal(move_type.type)),
            "player": fields.String(required=True, validate=validate.Length(min=1, max=max_id)),
        }
        for spec in move_type.fields:
            declared[spec.name] = FIELD_KINDS[spec.kind][0](FieldForms(spec, max_id, max_items))
        schemas[move_type.type] = Schema.from_dict(declared, name=f"{engine.id}:{move_type.type}")()
    return schemas


def load_move(schemas: dict[str, Schema], move: dict[str, Any]) -> dict[str, Any]:
    """The move checked against its type's schema; a ValidationError names every bad field."""
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in schemas:
        raise ValidationError({"type": [f"Must be one of: {', '.join(schemas)}."]})
    return schemas[kind].load(move)


# -- typed decoders: the hot path ----------------------------------------------------------------
# The move endpoint decodes its envelope and its move with msgspec Structs generated from the
# same declarations as the schemas above. Each accepts a subset of what its schema accepts and
# gives the same result (tests/http/test_http_typed_decoders.py checks both with hypothesis):
# what a Struct refuses (a bad request, or a rarer spelling such as 3.0 for 3) goes on to the
# schema, so every answer, and every refusal's message, is the schema's. The card pattern is
# the schema's: msgspec searches it, marshmallow matches it, and it is anchored at its start.

UNSET = msgspec.UNSET


def player_type(max_id: int) -> Any:
    return Annotated[str, msgspec.Meta(min_length=1, max_length=max_id)]


def _literal(values: list[Any]) -> Any:
    return Literal[tuple(values)]  # type: ignore[valid-type]


def move_structs(engine: Engine, max_id: int, max_items: int) -> dict[str, type | None]:
    """Per move type, the Struct that decodes what its schema (move_schemas) would accept,
    or None when one of its fields cannot be typed alike."""
    structs: dict[str, type | None] = {}
    for move_type in engine.move_types:
        declared = _move_fields(move_type, max_id, max_items)
        structs[move_type.type] = None if declared is None else msgspec.defstruct(
            f"{engine.id}:{move_type.type}", [("type", _literal([move_type.type])),
                                              *declared], forbid_unknown_fields=True)
    return structs


def move_union(engine: Engine, max_id: int, max_items: int) -> Any:
    """A move of any of the game's types, decoded by its type's Struct (the fields of
    `move_structs`', its `type` the tag that picks it), so that a replay's moves are checked
    in one pass; None when a type cannot be typed."""
    tagged = []
    for move_type in engine.move_types:
        declared = _move_fields(move_type, max_id, max_items)
        if declared is None:
            return None
        tagged.append(msgspec.defstruct(
            f"{engine.id}:{move_type.type}", declared, forbid_unknown_fields=True,
            tag_field="type", tag=move_type.type))
    return Union[tuple(tagged)]  # type: ignore[misc]


def _move_fields(move_type: MoveType, max_id: int, max_items: int) -> list[tuple] | None:
    """A move type's Struct fields after its `type`: the player, then its declared fields,
    the required ones first as a Struct wants them (a decoded move keeps this order); None
    when one cannot be typed alike."""
    typed = [(spec, FIELD_KINDS[spec.kind][1](FieldForms(spec, max_id, max_items)))
             for spec in move_type.fields]
    if any(form is None for _, form in typed):
        return None
    declared = [("player", player_type(max_id)),
                *(_struct_field(spec.name, form, spec.required) for spec, form in typed)]
    declared.sort(key=len)
    return declared


def envelope_structs(max_id: int, max_items: int) -> dict[str, type]:
    """The envelopes decoded on the hot path (the move's), as their schemas read them."""
    post_move = msgspec.defstruct("PostMove", [
        _struct_field(name, typed, field.required)
        for name, (field, typed) in move_request_fields(max_id, max_items).items()],
        forbid_unknown_fields=True)
    return {"move": post_move}


def _struct_field(name: str, typed: Any, required: bool) -> tuple[Any, ...]:
    """A Struct's field; an optional one is left out of the answer when not given."""
    return (name, typed) if required else (name, Union[typed, msgspec.UnsetType], UNSET)


def typed_load(struct: type | None, data: Any) -> dict[str, Any] | None:
    """`data` decoded by `struct`, as a dict of the fields given; None when the struct does
    not accept it (its schema then judges)."""
    if struct is None:
        return None
    try:
        value = msgspec.convert(data, struct, strict=True)
    except msgspec.ValidationError:
        return None
    out = {}
    for name in struct.__struct_fields__:
        field = getattr(value, name)
        if field is not UNSET:
            out[name] = field
    if "state" in out and not isinstance(out["state"], (dict, str)):
        return None
    if "seat_tokens_for" in out and len(set(out["seat_tokens_for"])) != len(
            out["seat_tokens_for"]):
        return None  # a repeated id: the schema names it
    return out
