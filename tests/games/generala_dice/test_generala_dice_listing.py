"""Generala (dice): the legal moves the engine lists from its tables are the ones the rules give.

Seeded random matches (2 to 6 players, default and house-rule box values, with and without the
turn clock) compare, at every step, the listed moves with the rules worked out here from the
dice and the sheet alone: before the first roll, one roll of all five dice; after a roll and
before the third, a roll keeping any sub-multiset of the dice short of all five, fewer dice
first, then by value; after a roll, every free box in sheet order. Listed moves may be shared
between calls, so the test also checks that nothing the engine does afterwards (applying,
scoring, viewing) changes a listing already given.
"""

from __future__ import annotations

import copy
import itertools
import random
import tracemalloc

import pytest

from referee.games.generala_dice import ENGINE
from referee.games.generala_dice.scoring import BOXES

NOW = 1_000_000.0
OPTION_SETS = (
    {"turn_seconds": 0},
    {"turn_seconds": 0, "servida_generala_wins": True},
    {"turn_seconds": 30, "escalera": 25, "full": 35, "poker": 45, "generala": 60,
     "doble_generala": 120, "servida_bonus": 10},
    {"turn_seconds": 0, "generala": 0, "doble_generala": 7, "servida_bonus": 0},
)


def rules_moves(state, player):
    """The moves of the player to act, from the rules rather than the engine's tables."""
    moves = []
    if state.rolls < 3:
        keeps = {tuple(sorted(kept)) for size in range(len(state.dice))
                 for kept in itertools.combinations(state.dice, size)} if state.dice else {()}
        moves += [{"type": "roll", "player": player, "keep": list(keep)}
                  for keep in sorted(keeps, key=lambda keep: (len(keep), keep))]
    if state.rolls > 0:
        sheet = state.sheets[state.current]
        moves += [{"type": "score", "player": player, "box": box} for box in BOXES
                  if box not in sheet]
    return moves


@pytest.mark.parametrize("seed", range(24))
def test_listed_moves_are_the_rules_moves_and_stay_unchanged(seed):
    pick = random.Random(seed)
    names = tuple(f"p{i}" for i in range(2 + seed % 5))
    options = ENGINE.resolve_options(OPTION_SETS[seed % len(OPTION_SETS)])
    now = NOW
    state = ENGINE.new_match(names, options, f"listing-{seed}", now=now)
    given = []  # (listing as returned, a deep copy taken then)
    while not ENGINE.is_finished(state):
        if state.deadline is not None and pick.random() < 0.05:
            now = state.deadline  # the clock runs out: only timeouts, by anyone
        moves = ENGINE.legal_moves(state, now=now)
        if ENGINE.clock_expired(state, now):
            assert moves == [{"type": "timeout", "player": p} for p in names]
        else:
            assert moves == rules_moves(state, names[state.current])
        given.append((moves, copy.deepcopy(moves)))
        move = pick.choice(moves)
        state, _ = ENGINE.apply(state, move, now=now)
        ENGINE.scores(state)
        ENGINE.view(state, names[0])
        now = NOW if state.deadline is None else min(now, state.deadline - 1)
    assert ENGINE.legal_moves(state, now=now) == []
    assert all(moves == taken for moves, taken in given)


def test_a_players_listing_keeps_a_bounded_number_of_filled_sets_whatever_sheets_come():
    # States posted with made-up sheets may fill boxes in every combination: the score moves
    # left are listed right for each, and what a player's listing keeps stays small (keeping
    # every one of a 13-box sheet's 8,192 sets took 6 MB a player, 64 players a worker).
    from referee.games.generala_dice.listing import moves_of
    from referee.games.yams.engine import Options

    sheet = Options().sheet
    boxes = list(sheet.boxes)
    listing = moves_of("a-player-of-made-up-sheets", sheet)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for size in range(len(boxes) + 1):
            for filled in itertools.combinations(boxes, size):
                left = listing.scores_left(frozenset(filled))
                assert [m["box"] for m in left] == [b for b in boxes if b not in filled]
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 1_000_000, grown
