"""A real request for every operation of every game, for the contract; their answers are the
service's own (referee.http.contract.paths runs each through its use case).

They are computed, not written: a match is created with a fixed seed and clock and played one
legal move, its state written by the codec given (open mode for the committed contract; a
sealed server's contract seals it with that server's keys). A test posts each request to the
running app at the same clock and checks that it answers exactly the example.

A time the server sets in an answer (a turn's deadline in a state, a seat token's expiry) is
the examples' clock's, EXAMPLE_CLOCK plus the option or lifetime that sets it: an app given
that clock answers it to the second, and a server on today's clock answers the same
requests with its own times (a test posts every example to one: each is accepted, since no
deadline of an example comes before 2037). The one answer drawn at random, the server's seed
of `/seeds`, is documented as a form (operations.Operation.example_answer).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from referee.core import rng
from referee.core.engine import Engine, Move
from referee.service.codec import StateCodec
from referee.service.referee import Referee

# The clock the examples are made at: 2037-01-01T00:00:00Z, so that a turn's deadline in an
# example lies ahead of a live server's clock and the example stays valid to post (and below
# 2^31, the bound of every number a state holds).
EXAMPLE_CLOCK = 2_114_380_800.0
EXAMPLE_SEED = "example"
EXAMPLE_PLAYERS = ("ann", "bob", "cleo", "dan", "eve", "fay")
EXAMPLE_CONTRIBUTION = "my-own-seed"

Example = tuple[dict[str, Any], dict[str, Any] | None]


@dataclasses.dataclass(frozen=True)
class ExampleMatch:
    """The example match of one game, just created: its creation request and answer, its
    state as posted, and the first legal move of the first player to act."""

    creation: dict[str, Any]
    created: dict[str, Any]
    wire: dict[str, Any] | str
    mover: str
    move: Move
    seed_token: str  # the example seed as `/seeds` hands it out


def example_match(engine: Engine, codec: StateCodec) -> ExampleMatch:
    """The example match, its state written by `codec`: open, or sealed (a sealed server's
    contract carries examples sealed with its keys)."""
    players = EXAMPLE_PLAYERS[:engine.min_players]
    creation: dict[str, Any] = {"players": list(players), "seed": EXAMPLE_SEED}
    if engine.hint_levels:
        # The last player is a bot: the others, alone against bots, may ask for hints.
        creation["bots"] = list(players[-1:])
    service = Referee({engine.id: engine}, codec, lambda: EXAMPLE_CLOCK, lambda _, move: move)
    created = service.create(engine, {"options": {}, "contributions": [], "bots": [],
                                      "hints_allowed": False, **creation})
    mover = created["to_act"][0]
    move = next(m for m in created["legal_moves"] if m["player"] == mover)
    return ExampleMatch(creation, created, created["state"], mover, move,
                        codec.seed_token(engine, EXAMPLE_SEED))


# -- each operation's example request ----------------------------------------------------------
def creation(match: ExampleMatch) -> dict[str, Any]:
    return match.creation


def posting(match: ExampleMatch) -> dict[str, Any]:
    return {"state": match.wire, "move": match.move, "viewer": match.mover}


def asking(match: ExampleMatch) -> dict[str, Any]:
    """The state, and the player whose turn it is (legal moves, views)."""
    return {"state": match.wire, "player": match.mover}


def dry_run(match: ExampleMatch) -> dict[str, Any]:
    return {"state": match.wire, "move": match.move}


def nothing(match: ExampleMatch) -> dict[str, Any]:
    return {}


def committed_seed(match: ExampleMatch) -> dict[str, Any]:
    """The answer to `/seeds`: a seed token in open mode is the seed itself, and the one drawn
    for the example is fixed."""
    return {"seed_commitment": rng.commitment(EXAMPLE_SEED), "seed_token": match.seed_token}


def contribution(match: ExampleMatch) -> dict[str, Any]:
    """The player whose turn it is adds his seed (refused where the draws at creation
    already concerned him: the card games' deal)."""
    return {"state": match.wire, "player": match.mover, "seed": EXAMPLE_CONTRIBUTION}


def hint_request(match: ExampleMatch) -> dict[str, Any]:
    return {"state": match.wire, "player": match.mover, "level": "hard"}


def view_image_request(match: ExampleMatch) -> dict[str, Any]:
    """The example match's view, with its creation events."""
    return {**asking(match), "events": match.created["events"]}


def replay(match: ExampleMatch) -> dict[str, Any]:
    """The example match replayed from its creation: its first move. No instants: a replay's
    instants default to the referee's clock, and an instant past it is refused, so an example
    naming one would be refused by a server whose clock has not reached it yet."""
    return {"creation": match.creation, "moves": [{"move": match.move}], "viewer": match.mover}
