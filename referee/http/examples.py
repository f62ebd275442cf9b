"""A real request and its real answer for every operation of every game, for the contract.

They are computed, not written: a match is created with a fixed seed and clock and played one
legal move, through the same functions the routes use (open mode). A test posts each request
to the running app at the same clock and checks that it answers exactly the example.
"""

from __future__ import annotations

from typing import Any

from referee.core import rng
from referee.core.engine import Engine
from referee.core.hints import Seating
from referee.core.outcome import progress

from .codec import Match, StateCodec, contributed, hint, outcome, player_view, verdict
from .problems import Problem
from .schemas import move_schemas

EXAMPLE_CLOCK = 1_767_225_600.0  # 2026-01-01T00:00:00Z: the clock the examples were made at
EXAMPLE_SEED = "example"
EXAMPLE_PLAYERS = ("ann", "bob", "cleo", "dan", "eve", "fay")

Example = tuple[dict[str, Any], dict[str, Any]]


def game_examples(engine: Engine, max_id: int, max_items: int) -> dict[str, Example]:
    """Operation (the path's last segment) -> (request body, answer body)."""
    codec = StateCodec(None)
    now = EXAMPLE_CLOCK
    players = EXAMPLE_PLAYERS[:engine.min_players]
    # The last player is a bot: the others, alone against bots, may ask for hints.
    seating = Seating(bots=players[-1:]) if engine.hint_levels else Seating()
    create = {"players": list(players), "seed": EXAMPLE_SEED}
    if seating.bots:
        create["bots"] = list(seating.bots)
    options = engine.resolve_options({})
    state = engine.new_match(players, options, rng.normalise_seed(EXAMPLE_SEED), now=now)
    events = [{"type": "match_created", "players": list(players), "options": options},
              *engine.opening_events(state)]
    created = outcome(codec, engine, Match(state, seating), events, now=now, viewer=None)
    wire = created["state"]
    mover = created["to_act"][0]
    move = next(m for m in created["legal_moves"] if m["player"] == mover)
    after, move_events = engine.apply(state, move, now=now)
    posted = outcome(codec, engine, Match(after, seating), move_events, now=now, viewer=mover)
    schemas = move_schemas(engine, max_id, max_items)
    examples = {
        "matches": (create, created),
        "moves": ({"state": wire, "move": move, "viewer": mover}, posted),
        "legal-moves": ({"state": wire, "player": mover},
                        progress(engine, state, now=now, player=mover)),
        "validations": ({"state": wire, "move": move},
                        verdict(engine, schemas, state, move, now=now)),
        "views": ({"state": wire, "player": mover},
                  player_view(engine, state, mover, now=now)),
    }
    # A seed token in open mode is the seed itself; the one drawn for the example is fixed.
    examples["seeds"] = ({}, {"seed_commitment": rng.commitment(EXAMPLE_SEED),
                              "seed_token": EXAMPLE_SEED})
    examples["contributions"] = _contribution(engine, codec, Match(state, seating), mover)
    if engine.hint_levels:
        examples["hints"] = ({"state": wire, "player": mover, "level": "hard"},
                             hint(engine, Match(state, seating), mover, "hard", now=now))
    return examples


EXAMPLE_CONTRIBUTION = "my-own-seed"


def _contribution(engine: Engine, codec: StateCodec, match: Match,
                  player: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The player whose turn it is adds his seed; None for the answer where the draws at
    creation already concerned him (the card games' deal): the request is then refused."""
    request = {"state": codec.dump(engine, match), "player": player,
               "seed": EXAMPLE_CONTRIBUTION}
    try:
        added = contributed(engine, match, player, EXAMPLE_CONTRIBUTION)
    except Problem:
        return request, None
    return request, {"state": codec.dump(engine, added),
                     "seed_commitment": rng.commitment(match.server_seed),
                     "contribution": {"player": player, "step": match.state.step}}
