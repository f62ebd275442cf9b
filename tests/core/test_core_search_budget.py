"""A card game's `hard` hint makes at most its search's budget of playout moves (plus the
one world under way when it is spent), whatever the house rules make a playout last."""

from __future__ import annotations

import random

from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.games.huit_americain.hints import SEARCH

HUIT = REGISTRY["huit-americain"]
# The table that made the costliest hints before the budget: up to 22,300 playout moves.
HEAVY = {"when_stuck": "draw_until_playable", "attack_returns": True, "effect_swap_hands": "3",
         "effect_rotate_hands": "4", "effect_give_two": "5", "effect_all_draw_one": "6"}


def test_a_hard_hint_at_the_heaviest_table_keeps_to_its_budget_of_playout_moves(monkeypatch):
    applied = []
    apply = type(HUIT).apply

    def counted(engine, state, move, *, now, told=True):
        applied.append(move)
        return apply(engine, state, move, now=now, told=told)

    state = HUIT.new_match(("ann", "bob", "cyd"), HUIT.resolve_options(HEAVY), "h0", now=0)
    rng = random.Random(0)
    made = []
    for step in range(91):
        moves = HUIT.legal_moves(state, now=0)
        player = HUIT.to_act(state, now=0)[0]
        mine = [m for m in moves if m["player"] == player]
        if step % 30 == 0 and len(mine) > 1:
            applied.clear()
            monkeypatch.setattr(type(HUIT), "apply", counted)
            HUIT.advise(HUIT.view(state, player), mine, "hard")
            monkeypatch.setattr(type(HUIT), "apply", apply)
            one_world = len(mine) * (SEARCH.horizon + 1)
            assert len(applied) <= SEARCH.steps + one_world
            made.append(len(applied))
        state, _ = HUIT.apply(state, random_move(HUIT, moves, rng), now=0)
    assert len(made) >= 3 and max(made) >= SEARCH.steps, made  # the budget stopped one
