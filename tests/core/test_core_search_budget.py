"""A card game's `hard` hint makes at most its search's budget of playout moves, and lists at
most its budget of legal moves (plus, each, the one world under way when it is spent),
whatever the house rules make a playout last or list."""

from __future__ import annotations

import random

from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.games.huit_americain.hints import SEARCH, TABLE, TABLE_SEARCH

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


# Two decks at eleven seats, lays out of turn and every effect aimed at a player: a playout
# move lists some eleven moves (two or three with the default options), and a hint spent its
# 12,000 playout moves in 265-288 ms of CPU, past the ceiling of docs/OPERATIONS.md.
CROWDED = {"decks": 2, "on_the_fly": True, "effect_swap_hands": "X", "effect_rotate_hands": "J",
           "effect_give_two": "K", "effect_all_draw_one": "7", "effect_suit_hunt": "6",
           "effect_draw_four": "off", "effect_draw_two": "2", "effect_stop": "J",
           "effect_change_suit": "3", "effect_reverse": "9", "effect_skip": "8",
           "effect_play_again": "off"}


def listed_by_hints(monkeypatch, players: int, options: dict, seed: str, every: int = 10):
    """(moves listed by each hard hint along a seeded random match, the most one playout
    world of it may list past the budget), a hint every `every` moves."""
    listing = type(HUIT).legal_moves
    counts: list[int] = []

    def counted(engine, state, *, now=0.0):
        legal = listing(engine, state, now=now)
        counts.append(len(legal))
        return legal

    state = HUIT.new_match(tuple(f"p{i}" for i in range(players)),
                           HUIT.resolve_options(options), seed, now=0)
    rng = random.Random(seed)
    found = []
    for step in range(40):
        if HUIT.is_finished(state):
            break
        moves = listing(HUIT, state, now=0)
        player = moves[0]["player"]
        mine = [m for m in moves if m["player"] == player]
        if step % every == 0 and len(mine) > 1:
            search = TABLE_SEARCH if players >= TABLE else SEARCH
            counts.clear()
            monkeypatch.setattr(type(HUIT), "legal_moves", counted)
            HUIT.advise(HUIT.view(state, player), mine, "hard")
            monkeypatch.setattr(type(HUIT), "legal_moves", listing)
            one_world = len(mine) * search.horizon * max(counts)
            found.append((sum(counts), one_world))
        state, _ = HUIT.apply(state, random_move(HUIT, moves, rng), now=0)
    return found


def test_a_hard_hint_at_a_crowded_table_keeps_to_its_budget_of_moves_listed(monkeypatch):
    found = listed_by_hints(monkeypatch, 11, CROWDED, "crowded")
    assert len(found) >= 3
    assert all(listed <= SEARCH.listed + one_world for listed, one_world in found), found
    assert max(listed for listed, _ in found) >= SEARCH.listed, found  # the budget stopped one


def test_with_the_default_options_the_budget_of_moves_listed_is_never_reached(monkeypatch):
    # So it changes no hint there: the moves made are what stops the costliest ones.
    for players in (2, 4, 8):
        found = listed_by_hints(monkeypatch, players, {}, f"plain-{players}", every=7)
        assert found and all(listed < SEARCH.listed / 1.5 for listed, _ in found), found
