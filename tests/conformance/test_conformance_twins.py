"""What anyone is told depends only on what he may know: twin states that differ only in what
a player cannot see (the other hands, the stock, the discards, the seed and so the next cards
and dice) give that player, and a spectator, the same answers.

Every game and every option set of the behaviour digests (the modes and the house rules that
change play), along seeded random matches: at a sample of steps, for each seated player, a twin
is dealt from his view (the card games' `determinize`, which the hints search with; for the
dice game another seed, since every die on the table is public). Compared on both states:
his view, his legal moves, who acts, the scores while the match runs, and a spectator's view;
and over HTTP (open mode) `/views` for him and for a spectator, answered whole.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.games.generala_dice.engine import DiceSheetGame

from ..games.support import hints_of
from .digests import CASES, NOW

SPECTATOR = "watcher"
STEPS = 120
EVERY = 9  # steps between two sampled positions
SEEDS = (1, 2)


def twin_for(game_id: str, state, player: str, mine: list, rng: random.Random):
    """A state the player cannot tell from `state`."""
    if isinstance(REGISTRY[game_id], DiceSheetGame):  # the dice hide nothing but the seed
        return dataclasses.replace(state, seed=f"{state.seed}-twin-{rng.random()}")
    engine = REGISTRY[game_id]
    twin = hints_of(game_id).determinize(engine.view(state, player), mine, rng)
    if game_id == "huit-americain":
        # The last round's points are public (in the scores) but not in the view, which the
        # hints' twin is dealt from: they are the table's record, not a hidden card.
        twin = dataclasses.replace(twin, round_points=state.round_points)
    return twin


def seen_by(engine, state, player: str) -> dict:
    """Everything the engine tells `player` (and everyone) of `state`."""
    moves = [m for m in engine.legal_moves(state, now=NOW) if m["player"] == player]
    finished = engine.is_finished(state)
    return {"view": engine.view(state, player), "moves": moves,
            "to_act": engine.to_act(state, now=NOW), "finished": finished,
            "scores": None if finished else engine.scores(state),
            "spectator": engine.view(state, SPECTATOR)}


def wire(engine, state) -> dict:
    return {**engine.encode(state), "seating": {"bots": [], "hints_allowed": False},
            "fairness": None}


def cases():
    for game_id, named in sorted(CASES.items()):
        for name, (options, sizes) in named.items():
            yield pytest.param(game_id, options, max(sizes), id=f"{game_id}/{name}")


@pytest.mark.parametrize("game_id, options, size", list(cases()))
def test_a_player_and_a_spectator_cannot_tell_twin_states_apart(game_id, options, size, client):
    engine = REGISTRY[game_id]
    compared = 0
    for seed in SEEDS:
        rng = random.Random(f"{game_id}-{seed}")
        players = tuple(f"p{i}" for i in range(size))
        state = engine.new_match(players, engine.resolve_options(options), f"twins-{seed}",
                                 now=NOW)
        for step in range(STEPS):
            if engine.is_finished(state):
                break
            moves = engine.legal_moves(state, now=NOW)
            if step % EVERY == 0:
                for player in players:
                    mine = [m for m in moves if m["player"] == player]
                    twin = twin_for(game_id, state, player, mine, rng)
                    assert engine.problems(twin) == []
                    assert seen_by(engine, twin, player) == seen_by(engine, state, player)
                    compared += 1
                    if step % (EVERY * 4) == 0:
                        for asking in (player, SPECTATOR):
                            answers = [client.post(f"/v1/games/{game_id}/views", json={
                                "state": wire(engine, s), "player": asking}) for s in (state, twin)]
                            assert answers[0].status_code == 200, answers[0].get_json()
                            assert answers[0].get_json() == answers[1].get_json()
            state, _ = engine.apply(state, random_move(engine, moves, rng), now=NOW)
    assert compared >= 2 * size
