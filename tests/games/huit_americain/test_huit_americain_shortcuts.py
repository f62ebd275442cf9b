"""Huit américain: `apply` gives what the working table's rules give for the same move, and
the one rule of which cards may be laid agrees with what is listed and what is accepted.

`apply` checks a move and then runs the one implementation of its rule on `table.Table`, the
working copy; nothing on the way (the checks, the dispatch by move type and phase, the fields
handed over) may change the outcome. Random matches over random options compare both at every
step, for every listed move of the player in turn; and every card of his hand is laid (each way
the listing would) to see that `apply` accepts exactly the cards `laying.layable` gives.
"""

from __future__ import annotations

import random

import pytest

from referee.core.errors import IllegalMove, InvalidOptions
from referee.games.huit_americain import ENGINE
from referee.games.huit_americain.effects import lay_card
from referee.games.huit_americain.laying import layable
from referee.games.huit_americain.moves import draw_after_ten, take_attack
from referee.games.huit_americain.rules import EFFECT_RANKS, EFFECTS, OFF
from referee.games.huit_americain.state import AGAIN, ATTACK
from referee.games.huit_americain.table import Table, pass_turn

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
    """The move applied by `Table` alone; None for the moves that always go that way."""
    rules = state.options.rules
    seat = state.players.index(move["player"])
    t = Table(state, rules)
    kind = move["type"]
    if kind == "lay":
        target = move.get("target")
        lay_card(t, seat, move["card"], move.get("suit"),
                 state.players.index(target) if target is not None else -1,
                 bool(move.get("announce", False)), False)
    elif kind == "pass":
        pass_turn(t, seat)
    elif kind == "draw" and state.phase == ATTACK:
        take_attack(t, seat)
    elif kind == "draw" and state.phase == AGAIN:
        draw_after_ten(t, seat)
    else:
        return None
    return t.outcome()


def accepted_cards(state, moves):
    """The distinct cards of the player in turn's hand that `apply` lets him lay (each tried
    with every suit and target the listing would give it)."""
    player = state.players[state.current]
    asked = {m["card"]: m for m in moves if m["type"] == "lay"}
    accepted = []
    for card in dict.fromkeys(state.hands[state.current]):
        move = asked.get(card) or {"type": "lay", "player": player, "card": card}
        try:
            ENGINE.apply(state, move, now=NOW)
        except IllegalMove:
            continue
        accepted.append(card)
    return accepted


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
        if not state.options.rules.penalise:
            cards = layable(state.options.rules, state, state.hands[state.current])
            assert accepted_cards(state, moves) == cards
            listed = [m["card"] for m in moves if m["type"] == "lay"]
            assert list(dict.fromkeys(listed)) == cards
        state, _ = ENGINE.apply(state, pick.choice(moves), now=NOW)
        steps += 1
