"""Huit américain: `apply` gives what the working copy's rules give for the same move.

`apply` checks a move and then runs the one implementation of its rule on `_Table`, the
working copy; nothing on the way (the checks, the dispatch by move type and phase, the fields
handed over) may change the outcome. Random matches over random options compare both at every
step, for every listed move of the player in turn.
"""

from __future__ import annotations

import random

import pytest

from referee.core.errors import InvalidOptions
from referee.games.huit_americain import ENGINE
from referee.games.huit_americain.engine import _Table
from referee.games.huit_americain.rules import EFFECT_RANKS, EFFECTS, OFF, rules_of
from referee.games.huit_americain.state import AGAIN, ATTACK

NOW = 0.0


def random_options(pick: random.Random) -> dict:
    decks = pick.choice([1, 2])
    given = {"decks": decks, "when_stuck": pick.choice(["pass", "draw_one", "draw_until_playable"]),
             "target": pick.choice([30, 100]), "no_finish_on_eight": pick.random() < 0.3,
             "attack_returns": pick.random() < 0.3}
    for name in EFFECTS:
        if pick.random() < 0.25:
            given["effect_" + name] = pick.choice(EFFECT_RANKS + (OFF,))
    try:
        return ENGINE.resolve_options(given)
    except InvalidOptions:
        return ENGINE.resolve_options({"decks": decks})


def through_table(state, move):
    """The move applied by `_Table` alone; None for the moves that always go that way."""
    rules = rules_of(state.options)
    seat = state.players.index(move["player"])
    t = _Table.of(state, rules)
    kind = move["type"]
    if kind == "lay":
        target = move.get("target")
        t.lay(seat, move["card"], move.get("suit"),
              state.players.index(target) if target is not None else -1,
              bool(move.get("announce", False)), False)
    elif kind == "pass":
        t.pass_turn(seat)
    elif kind == "draw" and state.phase == ATTACK:
        count = t.attack
        got = t.draw(seat, count, "attack")
        t.events.append({"type": "effect", "effect": "attack_taken", "player": move["player"],
                         "penalty": count, "drawn": len(got)})
        t.attack = 0
        t.end_turn(seat, 1)
        t.over_if_someone_out()
    elif kind == "draw" and state.phase == AGAIN:
        t.draw(seat, 1, "play_again")
        t.end_turn(seat, 1)
    else:
        return None
    return t.freeze(), t.events


@pytest.mark.parametrize("seed", range(24), ids=lambda s: f"match-{s}")
def test_apply_gives_the_state_and_events_the_working_copy_gives(seed):
    pick = random.Random(seed)
    options = ENGINE.resolve_options({}) if seed % 4 == 0 else random_options(pick)
    players = tuple(f"p{i}" for i in range(pick.randint(2, 6)))
    state = ENGINE.new_match(players, options, f"shortcuts-{seed}", now=NOW)
    steps = 0
    while not ENGINE.is_finished(state) and steps < 400:
        moves = ENGINE.legal_moves(state, now=NOW)
        for move in moves:
            if move["player"] != state.players[state.current]:
                continue
            expected = through_table(state, move)
            if expected is None:
                continue
            got = ENGINE.apply(state, move, now=NOW)
            assert got == expected, move
            assert ENGINE.encode(got[0]) == ENGINE.encode(expected[0])
            assert list(vars(got[0])) == list(vars(expected[0]))  # same fields, same order
        state, _ = ENGINE.apply(state, pick.choice(moves), now=NOW)
        steps += 1
