"""Huit américain's hard hint at a table of four or more: the search of `TABLE_SEARCH`,
whose playouts stop after four turns round the table and score the race to empty the hand."""

from __future__ import annotations

import dataclasses

from referee.core.search import best_advice
from referee.games.huit_americain import ENGINE
from referee.games.huit_americain.hints import (SEARCH, TABLE_SEARCH, describe, hard_move,
                                                race_value, value)
from referee.games.huit_americain.position import position

NOW = 0.0
HANDS = [["9H", "5H", "KS", "2C"], ["9S", "4S", "QC"], ["KD", "QD", "3C", "4D", "6S"],
         ["TC", "JC"]]


def test_a_round_cut_short_scores_the_race_by_the_hands_sizes():
    state = position(HANDS, ["5D", "6D"])
    shares = [race_value(state, state, p) for p in state.players]
    assert abs(sum(shares) - 1.0) < 1e-9
    # fewer cards, a larger share: dee (2) > bob (3) > ann (4) > cy (5)
    assert shares[3] > shares[1] > shares[0] > shares[2]
    even = position([h[:2] for h in HANDS], ["5D", "6D"])
    assert [race_value(even, even, p) for p in even.players] == [0.25] * 4


def test_a_round_played_out_scores_the_win_as_the_two_seat_search_does():
    state = position(HANDS, ["5D", "6D"])
    over = dataclasses.replace(state, round=2, round_points=(12, 0, 30, 40))
    for player in state.players:
        assert race_value(state, over, player) == value(state, over, player)
    assert race_value(state, over, "bob") == 1.0 and race_value(state, over, "ann") == 0.0


def test_four_seats_are_searched_with_the_table_search_and_two_with_the_other():
    assert (TABLE_SEARCH.horizon, TABLE_SEARCH.worlds) != (SEARCH.horizon, SEARCH.worlds)
    for hands in (HANDS, HANDS[:2]):
        state = position(hands, ["5D", "6H"])
        mine = [m for m in ENGINE.legal_moves(state, now=NOW) if m["player"] == "ann"]
        assert len(mine) > 1
        view = ENGINE.view(state, "ann")
        searched, other = (TABLE_SEARCH, SEARCH) if len(hands) >= 4 else (SEARCH, TABLE_SEARCH)
        start = hard_move(view, mine)[0]
        advice = ENGINE.advise(view, mine, "hard")
        assert advice == best_advice(ENGINE, searched, view, mine, describe, default=start)
        # the other search weighs the same moves otherwise (its estimate differs)
        assert advice != best_advice(ENGINE, other, view, mine, describe, default=start)
