"""L'Empereur: random whole matches in every mode, 2-6 players, 0-2 jokers (hypothesis).

At every step: the state breaks no invariant (cards conserved), the legal moves are bounded and
sorted; at regular steps every listed move is accepted and no view or event leaks a hidden card.
Every match ends."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.errors import RefereeError
from referee.core.outcome import event_for
from referee.games.empereur import ENGINE
from referee.games.empereur.bots import sensible_move
from referee.games.empereur.ranks import STRENGTH
from referee.games.empereur.state import MODES

NOW = 0.0
# By construction: per rank below the two (a naturals, j jokers) (a+1)(j+1)-1 plays, at most
# 14 with four naturals and two jokers, 12 such ranks; a two alone natural or joker; and one
# draw or pass: 12 * 14 + 2 + 1.
MOVE_BOUND = 171
STEP_CAP = 40_000  # no random match of these tests comes near it (the longest seen: ~9,000)
EVERY_MOVE_EVERY = 40  # steps between checks that each listed move is accepted
VIEW_EVERY = 15  # steps between leak checks of views


def _cards_in(value: Any) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, str) and len(v) == 2 and (v[0] in STRENGTH or v[0] == "X") \
                and v[1] in "CDHS12":
            found.add(v)
    return found


def _check_view(state, player: str) -> None:
    view = ENGINE.view(state, player)
    me = state.players.index(player)
    assert view["hand"] == list(state.hands[me])
    assert not {"seed", "step", "stock", "hands"} & set(view)
    # The cleared cards under the stock were laid face up before everyone's eyes.
    under = state.stock[view["stock_shuffled_count"]:]
    allowed = set(state.hands[me]) | set(state.pile) | set(under)
    assert _cards_in(view) <= allowed, "a view shows a card its player may not see"
    assert view["under_stock"] == list(under)
    assert view["stock_count"] == len(state.stock)
    assert sum(view["hand_counts"].values()) == sum(len(h) for h in state.hands)


HIDDEN = {"cards_drawn": "cards", "hand_dealt": "cards", "card_given": "card"}


def _check_events(events, players) -> None:
    for event in events:
        key = HIDDEN.get(event["type"])
        if key is None:
            assert "private" not in event
            continue
        # a gift is told to its giver and receiver, anything else to its player only
        told = {event["player"], event["to"]} if event["type"] == "card_given" \
            else {event["player"]}
        assert key not in event
        for viewer in players:
            shown = event_for(event, viewer)
            assert (key in shown) == (viewer in told)


def _sorted_moves(moves) -> bool:
    plays = [m for m in moves if m["type"] == "play"]
    keys = [(STRENGTH[m["rank"]], sum(c[0] != "X" for c in m["cards"]),
             sum(c[0] == "X" for c in m["cards"])) for m in plays]
    return keys == sorted(keys) and len(set(keys)) == len(keys)


class ClearedCards:
    """What everyone at the table knows of the stock's bottom, from the events alone: the
    cards laid on the pile, in order, go under the stock when it is cleared and come back
    from the top of that part when drawn; a new deal or a rebuilt stock starts afresh."""

    def __init__(self) -> None:
        self.pile: list[str] = []
        self.under: list[str] = []
        self.drawn_from_under = 0

    def follow(self, events) -> None:
        for event in events:
            kind = event["type"]
            if kind == "round_started":
                self.pile, self.under = [], []
            elif kind == "cards_played":
                self.pile += event["cards"]
            elif kind == "pile_cleared":
                assert event["count"] == len(self.pile)
                self.under += self.pile
                self.pile = []
            elif kind == "stock_rebuilt":
                assert self.under == []
                self.pile = [p["card"] for p in event["pile"]]
            elif kind == "cards_drawn" and event.get("source") == "under_stock":
                self.under = self.under[event["count"]:]
                self.drawn_from_under += 1


def play_match(mode: str, players: int, jokers: int, seed: int, wander: float,
               full_checks: bool = True) -> tuple[Any, int, int]:
    ids = tuple(f"p{i}" for i in range(players))
    options = ENGINE.resolve_options({"mode": mode, "jokers": jokers, "rounds": 2,
                                      "target_points": 80})
    state = ENGINE.new_match(ids, options, f"random-{seed}", now=NOW)
    rnd = random.Random(seed)
    steps = largest = 0
    cleared = ClearedCards()
    cleared.follow(ENGINE.opening_events(state))
    while not ENGINE.is_finished(state):
        assert ENGINE.problems(state) == []
        assert cleared.pile == list(state.pile)
        assert ENGINE.view(state, ids[steps % players])["under_stock"] == cleared.under
        moves = ENGINE.legal_moves(state, now=NOW)
        largest = max(largest, len(moves))
        assert 0 < len(moves) <= MOVE_BOUND
        assert {m["player"] for m in moves} == set(ENGINE.to_act(state, now=NOW))
        if state.phase == "play":
            assert _sorted_moves(moves)
        if full_checks and steps % EVERY_MOVE_EVERY == 0:
            for m in moves:
                ENGINE.apply(state, m, now=NOW)  # raises if a listed move is refused
        if full_checks and steps % VIEW_EVERY == 0:
            for p in ids:
                _check_view(state, p)
        move = sensible_move(ENGINE, state, rnd, wander, moves)
        state, events = ENGINE.apply(state, move, now=NOW)
        _check_events(events, ids)
        cleared.follow(events)
        steps += 1
        assert steps < STEP_CAP, "the match did not end"
    assert ENGINE.problems(state) == []
    assert ENGINE.decode(ENGINE.encode(state)) == state
    scores = ENGINE.scores(state)
    assert scores["winners"] and scores["losers"]
    assert sorted(scores["winners"] + scores["losers"]) == sorted(ids)
    return state, steps, largest


@settings(deadline=None, max_examples=24, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(MODES), players=st.integers(2, 6), jokers=st.integers(0, 2),
       seed=st.integers(0, 10**6), wander=st.sampled_from([0.05, 0.15, 0.3]))
def test_random_matches_conserve_cards_accept_listed_moves_hide_cards_and_end(
        mode, players, jokers, seed, wander):
    play_match(mode, players, jokers, seed, wander)


@settings(deadline=None, max_examples=30)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 300),
       kind=st.sampled_from(["play", "draw", "pass", "give", "hop"]),
       cards=st.lists(st.sampled_from(["5C", "X1", "X2", "2C", "ZZ", "", "AS", "TH"]),
                      max_size=6),
       rank=st.sampled_from([None, "5", "2", "X", "", "T", 5]),
       card=st.sampled_from(["5C", "X1", "ZZ", "", None]),
       to=st.sampled_from(["p0", "p1", "p9", "", None]),
       who=st.sampled_from(["p0", "p1", "p2", "zed"]))
def test_arbitrary_moves_are_refused_only_with_referee_errors(seed, steps, kind, cards, rank,
                                                              card, to, who):
    ids = ("p0", "p1", "p2")
    options = ENGINE.resolve_options({"mode": "mirror_elite", "target_points": 60})
    state = ENGINE.new_match(ids, options, f"garbage-{seed}", now=NOW)
    rnd = random.Random(seed)
    for _ in range(steps):
        if ENGINE.is_finished(state):
            break
        state, _ = ENGINE.apply(state, sensible_move(ENGINE, state, rnd, 0.2), now=NOW)
    move = {"type": kind, "player": who, "cards": cards, "card": card, "to": to}
    if rank is not None:
        move["rank"] = rank
    try:
        ENGINE.apply(state, move, now=NOW)
    except RefereeError:
        pass


def test_the_legal_move_list_stays_under_its_bound_in_many_matches():
    largest = 0
    for k in range(8):
        mode = MODES[k % 4]
        _, _, big = play_match(mode, 2 + k % 5, 2, 1000 + k, 0.3, full_checks=False)
        largest = max(largest, big)
    assert largest <= MOVE_BOUND


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_match_of_each_mode_and_table_size_ends(mode, players):
    state, steps, _ = play_match(mode, players, players % 3, 7 * players, 0.15,
                                 full_checks=False)
    assert ENGINE.is_finished(state) and steps > 0
