"""Whole matches of every game, open and sealed, through the `python` client openapi-generator
generates from the committed contract (with the settings shipped in clients/), and through
nothing else: a seed is a plain integer or string, every answer is parsed into the generated
models (events included, each picked by its `type`), and an answer's state and legal move are
posted back as they are, with no re-wrap. Then the same client, unchanged, plays a newer
referee whose game has one more event type: it reads that event as the generic `other` one.

The generated client speaks HTTP through urllib3, so each referee is served on a local port.
"""

from __future__ import annotations

import importlib
import random
import sys
import threading
import typing

import pytest
from werkzeug.serving import make_server

import referee
from referee.games import REGISTRY
from referee.http.contract import generate
from referee.http.settings import from_environment
from tests.support import SEALING_KEYS

from .support import CONTRACT, ROOT, newer_generala, openapi_generator, pascal, snake

PACKAGE = "referee_generated_client"
MAX_MOVES = 5_000


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The package openapi-generator generates (models and APIs, no docs or tests), imported."""
    out = tmp_path_factory.mktemp("openapi-generator-python")
    run = openapi_generator(
        "generate", "-g", "python", "-i", str(CONTRACT), "-o", str(out), "--package-name", PACKAGE,
        "-c", str(ROOT / "clients" / "openapi-generator-python.yaml"),
        "--global-property", "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false")
    assert run.returncode == 0, run.stdout + run.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


class Served:
    """A referee application served on a free local port, until `close`."""

    def __init__(self, config: dict[str, typing.Any]):
        self.server = make_server("127.0.0.1", 0, referee.create_app(
            {"REQUEST_LOG": False, **config}), threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join()


@pytest.fixture(scope="module")
def servers():
    served = {"open": Served({"STATE_KEYS": []}), "sealed": Served({"STATE_KEYS": SEALING_KEYS})}
    yield served
    for one in served.values():
        one.close()


class Game:
    """One game's generated API and models."""

    def __init__(self, package, url: str, game_id: str):
        self.api_client = package.ApiClient(package.Configuration(host=url))
        self.api = getattr(package, f"{pascal(game_id)}Api")(self.api_client)
        self.prefix, self.snake, self.models = pascal(game_id), snake(game_id), package.models

    def model(self, name: str):
        return getattr(self.models, f"{self.prefix}{name}")

    def call(self, operation: str, body):
        return getattr(self.api, f"{self.snake}_{operation}")(body)

    def shaped(self, name: str, shape: str, **fields):
        """A request that comes in two shapes (the state, or a seat token): the shape chosen,
        as the request's model (openapi-generator's model of a `oneOf`) holds it."""
        return self.model(name)(self.model(f"{name}{shape}")(**fields))


def play(game: Game, engine, seed, pick: random.Random):
    """A whole match, each move one of the answer's own legal moves; every outcome."""
    players = [f"p{i}" for i in range(engine.min_players)]
    outcome = game.call("create_match", game.model("CreateMatchRequest")(
        players=players, options=game.model("Options").from_dict(engine.playout_options),
        seed=seed, viewer=players[0]))
    outcomes = [outcome]
    first_type = engine.move_types[0].type
    for _ in range(MAX_MOVES):
        if outcome.status.value == "finished":
            break
        listed = game.call("list_legal_moves", game.shaped("LegalMovesRequest", "WithState",
                                                           state=outcome.state))
        progress = [m for m in listed.legal_moves if m.actual_instance.type == first_type]
        move = pick.choice(progress if progress and pick.random() < 0.75 else listed.legal_moves)
        assert game.call("validate_move", game.shaped("ValidationRequest", "WithState",
                                                      state=outcome.state, move=move)).legal
        outcome = game.call("post_move", game.model("MoveRequest")(
            state=outcome.state, move=move, viewer=move.actual_instance.player))
        outcomes.append(outcome)
    return outcomes


@pytest.mark.parametrize("mode", ["open", "sealed"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_generated_client_plays_a_whole_match(generated, servers, game_id, mode):
    game = Game(generated, servers[mode].url, game_id)
    engine = REGISTRY[game_id]
    # A seed is the language's own value: an integer here, a string in the sealed match.
    seed = 42 if mode == "open" else "client"
    outcomes = play(game, engine, seed, random.Random(7))
    last = outcomes[-1]
    assert last.status.value == "finished" and last.seed == str(seed)
    # The state an answer gives is the very type a request posts back.
    assert isinstance(last.state, game.model("PostedState"))
    assert (game.model("MoveRequest").model_fields["state"].annotation
            is game.model("Outcome").model_fields["state"].annotation)
    state = last.state.actual_instance
    assert isinstance(state, str if mode == "sealed" else game.model("State"))
    declared = {e.__struct_config__.tag for e in engine.event_types}
    for outcome in outcomes:
        assert isinstance(outcome.view, game.model("View")) and outcome.events
        for event in outcome.events:
            member = event.actual_instance
            assert member.type in declared
            assert type(member).__name__ != f"{game.prefix}OtherEvent"


def test_an_event_is_picked_by_its_type(generated):
    """L'Empereur's stock_rebuilt lists the pile, stock_not_rebuilt counts it: each event of
    the union parses as its own type, never as another with a field of the same name."""
    events = generated.models.EmpereurEvent
    counted = events.from_json('{"type": "stock_not_rebuilt", "pile": 6}').actual_instance
    assert isinstance(counted, generated.models.EmpereurStockNotRebuilt) and counted.pile == 6
    listed = events.from_json(
        '{"type": "stock_rebuilt", "count": 1, "pile": [{"card": "7H", "rank": "7"}],'
        ' "chance": {"step": 3, "draw": "shuffle", "items": ["7H"]}}').actual_instance
    assert isinstance(listed, generated.models.EmpereurStockRebuilt)
    assert listed.pile[0].card == "7H"


def test_a_client_of_this_contract_reads_a_newer_referee(generated):
    newer = newer_generala()
    games = {"generala-dice": newer}
    # The newer referee's contract declares the new type, with the version that brought it.
    document = generate(games, from_environment({}))
    schemas = document["components"]["schemas"]
    mapping = schemas["GeneralaDiceEvent"]["discriminator"]["mapping"]
    assert mapping["dice_counted"] == "#/components/schemas/GeneralaDiceDiceCounted"
    assert schemas["GeneralaDiceDiceCounted"]["x-since"] == "9.0.0"
    assert "GeneralaDiceDiceCounted" not in CONTRACT.read_text()
    server = Served({"STATE_KEYS": [], "GAMES": games})
    try:
        # The client generated from this contract plays it whole, naming no version.
        game = Game(generated, server.url, "generala-dice")
        outcomes = play(game, newer, 42, random.Random(3))
        assert outcomes[-1].status.value == "finished"
        later = [e.actual_instance for o in outcomes for e in o.events
                 if e.actual_instance.type == "other"]
        assert later and all(isinstance(e, generated.models.GeneralaDiceOtherEvent)
                             and e.name == "dice_counted" and 1 <= e.data["count"] <= 5
                             for e in later)
    finally:
        server.close()
