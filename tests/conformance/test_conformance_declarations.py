"""Every event, view and score an engine gives fits the shapes its `wire` module declares
(the shapes the contract publishes), for every game, over random matches with option sets
drawn from each game's declared options, as every seated player, a spectator and a trusted
caller see them. And every declared event type is one the engine really emits."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Union

import msgspec
import pytest

from referee.core.engine import Engine
from referee.core.errors import InvalidOptions
from referee.core.outcome import event_for
from referee.core.playout import random_move
from referee.games import REGISTRY

MATCHES = 16
# Seconds between moves: mostly quick, now and then slow enough for a turn clock to run out.
CLOCK_STEPS = (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 120.0)
MAX_MOVES = 3_000


# Short matches that still reach every event: L'Empereur's exchanges open its second round,
# its Elite modes end at a target, and Generala's turn clock can run out.
SHORT = {"rounds": 2, "target_points": 60, "turn_seconds": 30}


def random_options(engine, pick: random.Random) -> dict:
    """A random set of declared options on top of the short-playout ones; one the game
    refuses as a combination falls back to the playout options."""
    options = dict(engine.playout_options)
    for option in engine.options:
        if pick.random() < 0.5:
            continue
        if option.choices is not None:
            options[option.name] = pick.choice(option.choices)
        elif option.kind == "boolean":
            options[option.name] = pick.random() < 0.5
        elif option.name in SHORT:
            options[option.name] = SHORT[option.name]
    try:
        return engine.resolve_options(options)
    except InvalidOptions:
        return engine.resolve_options(dict(engine.playout_options))


def events_holder(engine) -> type:
    """A struct of one field, `event`, of the game's declared event types: msgspec reads a
    struct's field types once and keeps them, but reads a bare union anew at every check
    (15 µs an event rather than 0.5)."""
    return msgspec.defstruct("Events", [("event", Union[tuple(engine.event_types)])])


def check(value, declared, where: str) -> None:
    try:
        msgspec.convert(value, declared, strict=True)
    except msgspec.ValidationError as exc:
        raise AssertionError(f"{where} does not fit its declaration: {exc}\n{value}") from None


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_events_views_and_scores_fit_their_declarations(game_id):
    engine = REGISTRY[game_id]
    event_holder = events_holder(engine)
    pick = random.Random(game_id)
    for match in range(MATCHES):
        count = pick.randint(engine.min_players, min(engine.max_players, 5))
        players = tuple(f"p{i}" for i in range(count))
        options = random_options(engine, pick)
        now = 0.0
        state = engine.new_match(players, options, f"decl-{match}", now=now)
        events = [{"type": "match_created", "players": list(players), "options": options},
                  *engine.opening_events(state)]
        for _ in range(MAX_MOVES):
            for event in events:
                # An event with nothing private is the very same object for every viewer:
                # each distinct object is checked once.
                shown = {id(form): form for form in (event_for(event, viewer)
                                                      for viewer in (None, *players, "spectator"))}
                for form in shown.values():
                    check({"event": form}, event_holder, f"{event['type']} event")
            for viewer in (*players, "spectator"):
                check(engine.view(state, viewer), engine.view_type, "the view")
            check(engine.scores(state), engine.scores_type, "the scores")
            if engine.is_finished(state):
                break
            now += pick.choice(CLOCK_STEPS)
            state, events = engine.apply(
                state, random_move(engine, engine.legal_moves(state, now=now), pick), now=now)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_declared_event_type_is_emitted_by_the_game(game_id):
    engine = REGISTRY[game_id]
    # The packages of the engine's classes: a game played by another game's engine (Yacht by
    # the dice-sheet engine) emits its events from that engine's modules.
    packages = {Path(sys.modules[kind.__module__].__file__).parent
                for kind in type(engine).__mro__ if issubclass(kind, Engine) and kind is not Engine}
    source = "\n".join(p.read_text() for package in sorted(packages)
                       for p in package.glob("*.py") if p.name != "wire.py")
    # the match_created event comes from the service, which creates every match
    source += (Path(__file__).resolve().parents[2] / "referee" / "service" / "referee.py").read_text()
    for declared in engine.event_types:
        tag = declared.__struct_config__.tag
        assert re.search(rf'"type": "{tag}"|"{tag}"', source), (game_id, tag)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_random_matches_meet_most_declared_event_types(game_id):
    """The matches above are varied enough to mean something: they meet most of the game's
    event types (the rarest, such as a house rule's penalty, may escape a given run)."""
    engine = REGISTRY[game_id]
    pick = random.Random(game_id)
    met: set[str] = set()
    for match in range(MATCHES):
        count = pick.randint(engine.min_players, min(engine.max_players, 5))
        players = tuple(f"p{i}" for i in range(count))
        options = random_options(engine, pick)
        now = 0.0
        state = engine.new_match(players, options, f"decl-{match}", now=now)
        met |= {e["type"] for e in engine.opening_events(state)}
        for _ in range(MAX_MOVES):
            if engine.is_finished(state):
                break
            now += pick.choice(CLOCK_STEPS)
            state, events = engine.apply(
                state, random_move(engine, engine.legal_moves(state, now=now), pick), now=now)
            met |= {e["type"] for e in events}
    declared = {t.__struct_config__.tag for t in engine.event_types} - {"match_created"}
    assert len(met & declared) >= 0.75 * len(declared), sorted(declared - met)
