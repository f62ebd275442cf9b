"""The contract every game engine keeps, and the declarations the service reads from it.

An engine is pure: it knows nothing of HTTP, reads no clock and draws no random number of its
own. The time (for games with a turn clock) comes in as `now`, in seconds since the epoch, and
chance comes from the seed and step stored in the state (`referee.core.rng`).

States are frozen dataclasses, never changed in place: `apply` returns a new one. A move is a
plain dict with at least `type` and `player`; `legal_moves` returns exactly the dicts `apply`
accepts, sorted the same way every time. The listed moves may be shared between calls (an
engine may list them from tables made once), so callers read them and never change them.
Events are plain dicts with a `type`; a detail meant for one player only (a drawn card) goes
under `private` (see `referee.core.outcome`).
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar

import msgspec

from .errors import GameOver, InvalidOptions, InvalidState, NotYourTurn
from .memo import BoundedMemo
from .numbers import integral, integral_everywhere

Move = dict[str, Any]
Event = dict[str, Any]
# What a game package wires into its engine to answer hints: given the engine, a player's view,
# his legal moves and a level, the advice (a `referee.core.hints.Advice`).
Advisor = Callable[["Engine", dict[str, Any], list[Move], str], Any]

# Under a house rule that punishes a wrong move instead of refusing it, the engine applies the
# punishment and reports it with an event of this type carrying the refusal's `code`, `rule`
# and `detail`; a dry run then still answers that the move is not legal.
PENALTY_EVENT = "penalty"
# No counter of a real match (a step, a round, a deal) comes near this; a state that claims
# more is refused rather than carried along, so a state's size stays bounded.
MAX_COUNTER = 2**31
# The longest text an option may hold (a player id, a preset's name).
MAX_OPTION_TEXT = 64


def fields_setter(cls: type) -> Callable[[Any, dict[str, Any]], None]:
    """The setter of the attribute dictionary of `cls`'s instances. Given a new instance
    (`object.__new__(cls)`) and a dict of every field of the frozen dataclass `cls`, in
    declaration order, it makes that dict the instance's own (taken, not copied): what
    `cls(**fields)` gives, without `__init__` setting the fields one by one through
    `object.__setattr__`. For states and their parts, whose values were checked when they were
    made and which have no `__post_init__`."""
    return next(vars(k)["__dict__"] for k in cls.__mro__ if "__dict__" in vars(k)).__set__


_setters: dict[type, Callable[[Any, dict[str, Any]], None]] = {}


def evolve(state: Any, **changes: Any) -> Any:
    """A copy of a frozen dataclass state with some fields changed, the original untouched:
    what `dataclasses.replace` gives, without running `__init__` again over every field."""
    fields = dict(state.__dict__)
    fields.update(changes)
    cls = type(state)
    new = object.__new__(cls)
    (_setters.get(cls) or _setters.setdefault(cls, fields_setter(cls)))(new, fields)
    return new


@dataclasses.dataclass(frozen=True)
class Option:
    """One declared option of a game: its type, default and the values it admits."""

    name: str
    kind: str  # "integer", "boolean" or "string"
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def problem(self, value: Any) -> str | None:
        """Why `value` is not acceptable for this option, or None if it is."""
        expected = {"integer": int, "boolean": bool, "string": str}[self.kind]
        if not isinstance(value, expected) or (isinstance(value, bool) and self.kind != "boolean"):
            return f"must be {self.kind}"
        if isinstance(value, str) and len(value) > MAX_OPTION_TEXT:
            return f"must be at most {MAX_OPTION_TEXT} characters"
        if self.choices is not None and value not in self.choices:
            return "must be one of " + ", ".join(map(str, self.choices))
        if self.minimum is not None and value < self.minimum:
            return f"must be at least {self.minimum}"
        if self.maximum is not None and value > self.maximum:
            return f"must be at most {self.maximum}"
        return None

    def describe(self) -> dict[str, Any]:
        return described(self, {"name": self.name, "type": self.kind, "default": self.default,
                                "description": self.description})


@dataclasses.dataclass(frozen=True)
class Field:
    """One field of a move besides `type` and `player`.

    kinds: "string", "player" (a player's id), "integer", "boolean", "card" (a card string),
    "cards" (a list of card strings), "integers" (a list of integers)."""

    name: str
    kind: str
    description: str
    required: bool = True
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    max_items: int | None = None

    def describe(self) -> dict[str, Any]:
        return described(self, {"name": self.name, "type": self.kind, "required": self.required,
                                "description": self.description})


def described(declared: Option | Field, head: dict[str, Any]) -> dict[str, Any]:
    """`head` and the bounds `declared` sets: its choices (as a list), minimum, maximum and,
    for a move's field, its max_items."""
    for key in ("choices", "minimum", "maximum", "max_items"):
        value = getattr(declared, key, None)
        if value is not None:
            head[key] = list(value) if key == "choices" else value
    return head


@dataclasses.dataclass(frozen=True)
class MoveType:
    type: str
    description: str
    fields: tuple[Field, ...] = ()

    def describe(self) -> dict[str, Any]:
        return {"type": self.type, "description": self.description,
                "fields": [f.describe() for f in self.fields]}


class Engine(ABC):
    """One game. Subclasses declare the class attributes and implement the abstract methods."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]]
    move_types: ClassVar[tuple[MoveType, ...]]
    state_type: ClassVar[type]
    # The declared shapes of what the engine answers (see referee.core.wire): its event
    # structs (tagged by `type`), its view and its scores.
    event_types: ClassVar[tuple[type, ...]]
    view_type: ClassVar[type]
    scores_type: ClassVar[type]
    # Options that keep a random playout short and independent of any clock, for tests,
    # benchmarks and soak runs (a match of L'Empereur to 500 points can take a random player
    # 100,000 moves; Generala's turn clock would run out on states posted later). Not a preset.
    playout_options: ClassVar[dict[str, Any]] = {}
    # Option sets besides the defaults whose hint tables are made ahead, where the service is
    # built (`python -m referee.service.tables`, the image): a game whose options pick one of a
    # few readings of its rules names each, so that no caller of one waits while a worker
    # spends half a minute making its tables (docs/OPERATIONS.md). Each is a creation's options.
    prepared_options: ClassVar[tuple[dict[str, Any], ...]] = ()
    # Rules between options (or between options and the players) that a creation must keep,
    # in words: the contract lists them beside the options, since not all of them can be
    # written as JSON Schema. Breaking one is `invalid_options`.
    option_rules: ClassVar[tuple[str, ...]] = ()
    # The hint levels this game answers (`advise`; see referee.core.hints): every game that
    # gives hints answers "easy", "medium" and "hard", and may add its own. None: no hints.
    hint_levels: ClassVar[tuple[str, ...]] = ()

    # -- options ---------------------------------------------------------------------------
    def resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """Defaults filled in, every value checked; all problems are reported at once."""
        declared = {o.name: o for o in self.options}
        problems = [f"{name}: unknown option" for name in given if name not in declared]
        resolved = {}
        for name, option in declared.items():
            value = integral(given.get(name, option.default)) if option.kind == "integer" \
                else given.get(name, option.default)
            problem = option.problem(value)
            if problem:
                problems.append(f"{name}: {problem}")
            resolved[name] = value
        if problems:
            raise InvalidOptions("; ".join(problems), problems=problems)
        return self.check_option_combination(resolved)

    def creation_constraints(self) -> list[dict[str, Any]]:
        """The rules between a creation's fields that JSON Schema can state (`if`/`then` on
        the creation request: `players` and `options`), for the contract."""
        return []

    def check_option_combination(self, options: dict[str, Any]) -> dict[str, Any]:
        """Hook for rules between options (presets, options that need others)."""
        return options

    def player_range(self, options: dict[str, Any]) -> tuple[int, int]:
        """How many players a match with these (resolved) options takes: the service refuses
        a creation with another count before `new_match`, and `common_problems` a state.
        Games where the options change it (more decks seat more players) override this."""
        return self.min_players, self.max_players

    # -- the rules ---------------------------------------------------------------------------
    @abstractmethod
    def new_match(self, players: tuple[str, ...], options: dict[str, Any], seed: str,
                  *, now: float) -> Any: ...

    def chance_began_for(self, state: Any, player: str) -> bool:
        """Whether a chance event concerning `player` has been drawn: from then on he may no
        longer add his own seed. In the card games every draw (the deal above all) concerns
        every player, and the first comes at creation; a game whose draws belong to one player
        (a dice roll) overrides this."""
        return state.step > 0

    def opening_events(self, state: Any) -> list[Event]:
        """What setting up the match did that players should see (a dealer drawn, hands
        dealt), for the creation outcome. `new_match` returns only the state, so an engine
        whose setup is eventful recomputes it here from the state's seed."""
        return []

    @abstractmethod
    def legal_moves(self, state: Any, *, now: float) -> list[Move]: ...

    @abstractmethod
    def apply(self, state: Any, move: Move, *, now: float,
              told: bool = True) -> tuple[Any, list[Event]]:
        """The new state and the move's events. Not `told`, the caller reads none of the
        events (a replay answers with its last move's only): the engine may leave them out,
        and gives the same state and refusals."""

    @abstractmethod
    def to_act(self, state: Any, *, now: float) -> list[str]: ...

    @abstractmethod
    def is_finished(self, state: Any) -> bool: ...

    @abstractmethod
    def scores(self, state: Any) -> dict[str, Any]: ...

    @abstractmethod
    def view(self, state: Any, player: str) -> dict[str, Any]: ...

    def __init__(self, advisor: "Advisor | None" = None):
        # The engine knows nothing of advice: its game package hands it the advisor, so the
        # hints may import the engine's modules and nothing imports back.
        self._advisor = advisor
        self._option_verdicts: BoundedMemo = BoundedMemo(1024)

    def advise(self, view: dict[str, Any], moves: list[Move], level: str) -> Any:
        """Advice for the player whose `view` this is, choosing among `moves` (his legal
        moves): a `referee.core.hints.Advice`. It must depend on nothing but its arguments."""
        if self._advisor is None:
            raise NotImplementedError(f"{self.name} gives no hints yet")
        return self._advisor(self, view, moves, level)

    @abstractmethod
    def problems(self, state: Any) -> list[str]:
        """Every invariant the state breaks (an empty list for a sound state)."""

    # -- shared checks -----------------------------------------------------------------------
    def _option_verdict(self, options: Any) -> tuple[tuple[str, ...], tuple[int, int]]:
        """The problems of a state's options and the player range they allow. A match's
        options never change and every request of it re-checks them, so the verdict is
        remembered per options value (frozen dataclasses hash by value)."""
        try:
            return self._option_verdicts.get(options, self._judge_options)
        except TypeError:  # an unhashable value slipped in: judge it, remember nothing
            return self._judge_options(options)

    def _judge_options(self, options: Any) -> tuple[tuple[str, ...], tuple[int, int]]:
        problems = tuple(f"options.{o.name}: {p}" for o in self.options
                         if (p := o.problem(getattr(options, o.name, None))))
        if problems:
            return problems, (self.min_players, self.max_players)
        values = {name: getattr(options, name) for name in record_fields(type(options))}
        return problems, self.player_range(values)

    def common_problems(self, state: Any) -> list[str]:
        """The invariants every state shares: declared option values, a player count the
        options allow, unique non-empty player ids, a seed and a step. Engines start their
        `problems` with these."""
        option_problems, (fewest, most) = self._option_verdict(state.options)
        if option_problems:
            return list(option_problems)  # the player range depends on sound options
        problems: list[str] = []
        players = state.players
        if not fewest <= len(players) <= most:
            problems.append(f"{len(players)} players: {self.name} takes {fewest} to {most} "
                            "with these options")
        if len(set(players)) != len(players) or any(not p for p in players):
            problems.append("player ids must be unique and non-empty")
        if not state.seed:
            problems.append("the seed is empty")
        if state.step < 0:
            problems.append("the random step is negative")
        problems += [f"{name} is {getattr(state, name)}, beyond any real match"
                     for name in self.counter_fields
                     if not -MAX_COUNTER <= getattr(state, name) <= MAX_COUNTER]
        return problems

    @functools.cached_property
    def counter_fields(self) -> tuple[str, ...]:
        """The state's top-level integer fields (step, turn, round...)."""
        hints = typing.get_type_hints(self.state_type)
        return tuple(f.name for f in dataclasses.fields(self.state_type)
                     if hints.get(f.name) is int)

    def check_seated(self, state: Any, move: Move) -> None:
        """Refuses a move in a finished match or by someone not seated at it."""
        if self.is_finished(state):
            raise GameOver("the match has finished")
        if move["player"] not in state.players:
            raise NotYourTurn(f"{move['player']!r} is not a player of this match")

    def check_can_move(self, state: Any, move: Move, *, now: float) -> None:
        """The refusals common to every game: a finished match, a stranger, not his turn."""
        self.check_seated(state, move)
        if move["player"] not in self.to_act(state, now=now):
            raise NotYourTurn(f"it is not {move['player']}'s turn")

    # -- wire form ---------------------------------------------------------------------------
    def encode(self, state: Any) -> dict[str, Any]:
        return msgspec.to_builtins(state)

    def encode_json(self, state: Any) -> bytes:
        """The JSON text of `encode(state)`, written from the state itself without building
        plain objects on the way (what a sealed token holds); an engine that changes
        `encode` changes this with it."""
        return msgspec.json.encode(state)

    def state_schema(self) -> dict[str, Any]:
        """The JSON Schema of the open-mode state as `decode` reads it: every field of every
        record required, nothing else allowed."""
        schema = msgspec.json.schema(self.state_type)
        for record in schema.get("$defs", {}).values():
            if "properties" in record:
                record["required"] = sorted(record["properties"])
                record["additionalProperties"] = False
        return schema

    def decode(self, data: Any, *, trusted: bool = False) -> Any:
        """A state from its wire form. Types are checked strictly. Unless the state comes
        from a sealed token (`trusted`), it must also be complete, exactly as the referee
        wrote it (every field and every resolved option present, nothing unknown: a missing
        option must not quietly become its default in the middle of a match), and every
        invariant is checked; each check lists all it finds."""
        if not trusted:
            missing_or_unknown = shape_problems(data, self.state_type)
            if missing_or_unknown:
                raise InvalidState("the state is not as the referee wrote it: "
                                   + "; ".join(missing_or_unknown), problems=missing_or_unknown)
        try:
            state = msgspec.convert(data, self.state_type, strict=True)
        except (msgspec.ValidationError, TypeError, ValueError):
            # Read again with its whole numbers as integers (3.0 is 3: referee.core.numbers);
            # only a state the strict reading refuses is walked for them.
            data = integral_everywhere(data)
            try:
                state = msgspec.convert(data, self.state_type, strict=True)
            except (msgspec.ValidationError, TypeError, ValueError) as exc:
                problems = [] if trusted else type_problems(data, self.state_type)
                problems = problems or [str(exc)]
                raise InvalidState("the state does not parse: " + "; ".join(problems),
                                   problems=problems) from None
        if not trusted:
            try:
                problems = self.problems(state)
            except (KeyError, IndexError, ValueError, TypeError, AttributeError) as exc:
                problems = [f"the state is inconsistent ({type(exc).__name__}: {exc})"]
            if problems:
                raise InvalidState("the state breaks the rules: " + "; ".join(problems),
                                   problems=problems)
        return state


# -- the shape of a wire state ---------------------------------------------------------------------
# A state type is a frozen dataclass whose fields hold plain values, nested records (the
# options, the plays of a trick: frozen dataclasses or msgspec Structs) or tuples of them. The
# two checks below follow that layout.

def is_record(kind: Any) -> bool:
    return dataclasses.is_dataclass(kind) or (
        isinstance(kind, type) and issubclass(kind, msgspec.Struct))


def record_fields(kind: type) -> tuple[str, ...]:
    """The field names of a record type, in order."""
    if dataclasses.is_dataclass(kind):
        return tuple(f.name for f in dataclasses.fields(kind))
    return kind.__struct_fields__


@functools.cache
def _layout(kind: type) -> tuple[tuple[str, Any, type | None, bool], ...]:
    """Per field of a dataclass: its name, its type, the dataclass it holds (None for a plain
    value) and whether it holds a tuple of them."""
    hints = typing.get_type_hints(kind)
    rows = []
    for name in record_fields(kind):
        hint = hints[name]
        args = typing.get_args(hint)
        if is_record(hint):
            rows.append((name, hint, hint, False))
        elif (typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis
              and is_record(args[0])):
            rows.append((name, hint, args[0], True))
        else:
            rows.append((name, hint, None, False))
    return tuple(rows)


@functools.cache
def _fields_of(kind: type) -> tuple[frozenset[str], tuple[tuple[str, type, bool], ...]]:
    """The field names of a dataclass, and its fields that hold dataclasses (one, or a tuple
    of them): what `shape_problems` compares and descends into, on every open-mode request."""
    layout = _layout(kind)
    return (frozenset(name for name, *_ in layout),
            tuple((name, nested, many) for name, _, nested, many in layout if nested is not None))


def shape_problems(data: Any, kind: type, path: str = "") -> list[str]:
    """Every field of `kind` (and of the dataclasses inside it) that `data` lacks, and every
    key it has that `kind` does not declare. Values are not judged here (`type_problems`)."""
    if not isinstance(data, dict):
        return [f"{path.rstrip('.') or 'the state'}: must be an object"]
    names, records = _fields_of(kind)
    problems: list[str] = []
    if data.keys() != names:
        problems += [f"{path}{key}: unknown field" for key in data if key not in names]
        problems += [f"{path}{name}: missing" for name, *_ in _layout(kind) if name not in data]
    for name, nested, many in records:
        if name not in data:
            continue  # reported above
        value = data[name]
        if not many:
            problems += shape_problems(value, nested, f"{path}{name}.")
        elif isinstance(value, list):
            for k, item in enumerate(value):
                problems += shape_problems(item, nested, f"{path}{name}[{k}].")
    return problems


def type_problems(data: dict[str, Any], kind: type, path: str = "") -> list[str]:
    """Every field of a complete wire state (`shape_problems` found nothing) whose value has
    the wrong type, each with the first fault msgspec finds in it."""
    problems = []
    for name, hint, nested, many in _layout(kind):
        value = data[name]
        if nested is not None and not many and isinstance(value, dict):
            problems += type_problems(value, nested, f"{path}{name}.")
            continue
        try:
            msgspec.convert(value, hint, strict=True)
        except (msgspec.ValidationError, TypeError, ValueError) as exc:
            problems.append(f"{path}{name}: " + str(exc).replace("`$", f"`{path}{name}"))
    return problems
