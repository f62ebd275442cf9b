"""Huit américain: the public record of what the players lacked (`State.lacks`).

A player who cannot lay shows the table that none of his cards follows the suit and rank in
force, nor is wild; the cards that come into his hand afterwards are counted, so the fact
still bounds his hand until he holds no more cards than arrived since. Every player sees the
record in his view, and the hard hint's sampled deals keep it.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from referee.games.huit_americain import ENGINE
from referee.games.huit_americain.endless import rules_position
from referee.games.huit_americain.hints import determinize
from referee.games.huit_americain.position import position
from referee.games.huit_americain.state import Lack

NOW = 0.0


def move(state, kind, who, **fields):
    return ENGINE.apply(state, {"type": kind, "player": who, **fields}, now=NOW)


def with_last_drawn(state, card):
    """The same table with `card` on top of the stock (drawn next)."""
    return dataclasses.replace(state, stock=tuple(c for c in state.stock if c != card) + (card,))


def test_a_pass_shows_every_player_what_the_passer_lacks():
    state = position([["9H", "2C", "AS"], ["9S", "4S"], ["KD", "QD", "X1"]], ["5H", "6H"],
                     current=1)
    new, _ = move(state, "pass", "bob")
    assert new.lacks == (Lack(1, 0, "H", "6"),)
    for viewer in new.players:
        assert ENGINE.view(new, viewer)["lacks"] == [
            {"player": "bob", "arrived": 0, "suits": "H", "ranks": "6"}]
    assert ENGINE.problems(new) == []


def test_facts_seen_with_the_same_count_are_merged():
    state = dataclasses.replace(
        position([["9H", "2C", "AS"], ["9S", "4S"], ["KD", "QD", "X1"]], ["5H", "6H"],
                 current=1), lacks=(Lack(1, 0, "C", "5"),))
    new, _ = move(state, "pass", "bob")
    assert new.lacks == (Lack(1, 0, "CH", "56"),)


def test_cards_drawn_afterwards_are_counted():
    state = dataclasses.replace(
        position([["AS", "2C", "3D"], ["9C", "4D"]], ["5H", "6S"]), lacks=(Lack(1, 0, "S", "6"),))
    attacked, _ = move(state, "lay", "ann", card="AS", announce=False)
    drawn, _ = move(attacked, "draw", "bob")
    assert len(drawn.hands[1]) == 4
    assert drawn.lacks == (Lack(1, 2, "S", "6"),)
    assert ENGINE.problems(drawn) == []


def test_a_fact_is_dropped_once_it_says_nothing():
    state = dataclasses.replace(
        position([["9H", "2H", "3H"], ["9C", "4C"]], ["5C"], current=1),
        lacks=(Lack(1, 1, "H", ""), Lack(0, 0, "S", "")))
    new, _ = move(state, "lay", "bob", card="9C", announce=True)
    assert new.lacks == (Lack(0, 0, "S", ""),)


def test_a_stuck_draw_shows_what_he_lacked_before_the_card_drawn():
    state = position([["9H", "2C", "AS"], ["9S", "4S"], ["KD", "QD", "X1"]], ["5H", "6H"],
                     current=1, when_stuck="draw_one")
    useless, _ = move(with_last_drawn(state, "2D"), "draw", "bob")
    assert useless.current == 2 and useless.lacks == (Lack(1, 0, "H", "6"),)
    useful, _ = move(with_last_drawn(state, "7H"), "draw", "bob")
    assert useful.current == 1 and useful.lacks == (Lack(1, 1, "H", "6"),)
    assert ENGINE.problems(useless) == [] and ENGINE.problems(useful) == []


def test_a_lone_eight_he_may_not_finish_on_is_not_shown_as_lacked():
    """no_finish_on_eight: ann, stuck with her last card, an 8 she may not finish on, draws a
    club she can lay. The table saw only that she held one card then: the 8 may still be in
    her hand, so nothing is told of her two cards (a fact with one arrived would be false)."""
    state = position([["8S"], ["9D", "4D"]], ["6C"], when_stuck="draw_one",
                     no_finish_on_eight=True)
    new, _ = move(with_last_drawn(state, "AC"), "draw", "ann")
    assert new.hands[0] == ("8S", "AC") and new.current == 0
    assert new.lacks == ()
    assert ENGINE.problems(new) == []


def test_a_lone_eight_counts_with_the_cards_drawn_until_one_follows():
    """The same under draw_until_playable: the cards drawn before the one that follows are
    truly lacked, the 8 held before the draw may be of what she lacked: two of her cards may
    be (the 8 and the club drawn last)."""
    state = position([["8S"], ["9D", "4D"]], ["6C"], when_stuck="draw_until_playable",
                     no_finish_on_eight=True)
    stock = tuple(c for c in state.stock if c not in ("2D", "3H", "AC")) + ("AC", "3H", "2D")
    new, _ = move(dataclasses.replace(state, stock=stock), "draw", "ann")
    assert new.hands[0] == ("8S", "2D", "3H", "AC") and new.current == 0
    assert new.lacks == (Lack(0, 2, "C", "6"),)
    assert ENGINE.problems(new) == []


def test_a_new_round_forgets_the_facts():
    state = dataclasses.replace(
        position([["9H"], ["9C", "4C"]], ["5H"]), lacks=(Lack(1, 0, "H", ""),))
    new, _ = move(state, "lay", "ann", card="9H", announce=False)
    assert new.round == 2 and new.lacks == ()


def test_the_record_is_not_a_position_of_the_rules():
    """Only the rules' position decides an endless round; the record changes nothing."""
    state = position([["9H", "2C", "AS"], ["9S", "4S"], ["KD", "QD", "X1"]], ["5H", "6H"])
    assert rules_position(state) == rules_position(
        dataclasses.replace(state, lacks=(Lack(1, 0, "H", ""),)))


def test_the_sampled_deals_keep_what_the_opponents_lacked():
    """Bob lacked hearts, sixes and wild cards and one card arrived since: every sampled deal
    gives him at most one of them; without the fact, most deals give him more."""
    hands = [["9H", "2C", "AS", "KH", "3H"], ["9S", "4S", "QC", "5D", "7C", "JD"]]
    bare = position(hands, ["5H", "6H"], when_stuck="draw_one")
    told = dataclasses.replace(bare, lacks=(Lack(1, 1, "H", "6"),))
    wild = bare.options.rules.wild

    def lacked(card):
        return card[1] == "H" or card[0] == "6" or card[0] in wild

    for state, most in ((told, 1), (bare, 6)):
        view = ENGINE.view(state, "ann")
        held = []
        for k in range(200):
            twin = determinize(view, [], random.Random(k))
            assert ENGINE.problems(twin) == [] and ENGINE.view(twin, "ann") == view
            held.append(sum(map(lacked, twin.hands[1])))
        assert max(held) <= most
        if state is bare:
            assert sum(n > 1 for n in held) > 100


HUIT = "/v1/games/huit-americain"


@pytest.mark.parametrize("facts, problem", [
    ([{"seat": 1, "arrived": 0, "suits": "S", "ranks": ""}], "holds 2 cards"),
    ([{"seat": 10**30, "arrived": 0, "suits": "S", "ranks": ""}], ""),
    ([{"seat": 1, "arrived": -10**30, "suits": "S", "ranks": ""}], ""),
    ([{"seat": 1, "arrived": 0, "suits": 7, "ranks": ""}], ""),
    ([{"seat": 1, "arrived": 0, "suits": "S"}], ""),
    ([{"seat": 1, "arrived": 0, "suits": "S", "ranks": "", "more": 1}], ""),
    ({"seat": 1}, ""),
], ids=["a fact bob's hand breaks", "a huge seat", "a huge negative count", "suits not text",
        "a field missing", "a field unknown", "not a list"])
def test_a_posted_record_that_does_not_hold_is_refused_as_invalid_state(client, facts, problem):
    state = position([["9H", "2C", "AS"], ["9S", "4S"], ["KD", "QD", "X1"]], ["5H", "6H"])
    posted = {**ENGINE.encode(state), "lacks": facts,
              "seating": {"bots": [], "hints_allowed": True}, "fairness": None}
    answer = client.post(f"{HUIT}/legal-moves", json={"state": posted})
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["code"] == "invalid_state"
    assert any(problem in p for p in answer.get_json()["problems"])
    posted["lacks"] = [{"seat": 1, "arrived": 0, "suits": "H", "ranks": "6"}]
    assert client.post(f"{HUIT}/legal-moves", json={"state": posted}).status_code == 200
