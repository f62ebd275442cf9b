"""The OpenAPI contract, generated from the code that enforces it.

Nothing here is written by hand twice: each game's paths come from the declared operations
(referee.http.operations: their ids, words, problems and examples), its options from its
`Option` declarations, its moves from the marshmallow schemas the referee validates moves with
(through apispec's marshmallow plugin), its state from the state dataclass and its events,
view and scores from the structs of its `wire` module (through msgspec's JSON Schema
generator); the request envelopes come from the marshmallow envelope schemas. The committed
`openapi.yaml` is this package's output (`make contract` rewrites it; a test compares them),
and the running service serves what it generates for its own registry and settings.

Each game has its own operations (`POST /v1/games/generala-dice/moves` takes a
`GeneralaDiceMoveRequest` and answers a `GeneralaDiceOutcome`; see DESCRIPTION for that and
for the open values). The `{game_id}` form of those paths is still served, but not
documented: a typed client has no use for it, and listing both would give every client two
methods per operation. The catalogue keeps `GET /v1/games/{game_id}`, the same for every game.

The parts: `base` (what they share), `shared` (the components and paths every game shares),
`games` (one game's schemas), `paths` (one game's paths).
"""

from __future__ import annotations

from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from referee.version import __version__
from referee.core.engine import MAX_COUNTER, Engine
from referee.core.wire import FIRST_VERSION
from referee.games import REGISTRY
from referee.http.settings import from_environment
from referee.http.problems import CATALOGUE
from referee.http.schemas import MAX_REPLAY_MOVES, move_schemas
from referee.service.codec import StateCodec

from . import games as game_parts
from . import shared
from .base import Builder, GameNames, camel, pascal
from .paths import game_paths

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

Open values: game ids and problem codes may grow: a client must accept a value it does not
know (plain strings with their known values in `x-extensible-enum`). Event types grow with
versions of this contract: each game's events are a union discriminated by `type`, and an
event of a type declared after the version a request names in `Referee-Contract-Version`
(absent: {first_version}) comes as the generic `other` event, `{{"type": "other", "name":
<its type>, "data": <its other fields>}}`, so a client never meets a type it does not know.
Answers may gain fields, so a client ignores fields it does not know. A counter of a state
(step, round, turn...) never exceeds {max_counter}.
"""


SEALED_EXAMPLES = """
This server is in sealed mode: the states of this document's examples are tokens sealed
with its own keys (the same at every start while the keys are), so each example request is
one it accepts. The committed `openapi.yaml` carries the open-mode examples instead.
"""


def generate(games: dict[str, Engine], settings: dict[str, Any],
             codec: StateCodec | None = None) -> dict[str, Any]:
    """The whole OpenAPI document for these games and settings, its examples' states written
    by `codec` (default: open mode; a sealed server passes one that seals with its keys)."""
    codec = codec or StateCodec(None)
    description = DESCRIPTION.format(max_counter=MAX_COUNTER, first_version=FIRST_VERSION)
    if codec.sealer is not None:
        description += SEALED_EXAMPLES
    max_id, max_items = settings["MAX_PLAYER_ID_LENGTH"], settings["MAX_LIST_ITEMS"]
    max_moves = settings.get("MAX_REPLAY_MOVES", MAX_REPLAY_MOVES)
    plugin = MarshmallowPlugin()
    spec = APISpec(
        title="referee", version=__version__, openapi_version="3.1.0", plugins=[plugin],
        info={"summary": "A stateless HTTP rules referee for card and dice games.",
              "description": description,
              "license": {"name": "MIT", "identifier": "MIT"}},
        servers=[{"url": "/", "description": "The server this document is served from."}],
        tags=[{"name": "catalogue", "description": "The games this referee serves."},
              *({"name": gid, "description": engine.summary} for gid, engine in games.items()),
              {"name": "service", "description": "Health and the contract itself."}],
    )
    builder = Builder(spec, plugin.converter, max_id, max_items, max_moves)
    shared.components(builder, sorted(games))
    for game_id, engine in games.items():
        names = GameNames(pascal(game_id))
        game_parts.components(builder, engine, names, move_schemas(engine, max_id, max_items))
        game_paths(builder, engine, names, codec)
    shared.service_paths(builder)
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


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):
    """Writes multi-line texts as literal blocks, so the file reads like the texts, and
    repeats a value rather than making a YAML alias of it (not every tool reads aliases).
    libyaml's emitter when PyYAML has it (its wheels do): the same text, three times faster."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def to_yaml(document: dict[str, Any]) -> str:
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


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


def committed_document() -> str:
    """The document `openapi.yaml` holds: the registry's games, the default settings (the
    environment is not read, so the file is the same on every machine)."""
    return to_yaml(generate(REGISTRY, from_environment({})))


__all__ = ["generate", "to_yaml", "committed_document", "pascal", "camel"]
