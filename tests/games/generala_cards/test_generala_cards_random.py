"""Générala (cards): random whole matches for 2 to 10 players in both presets.

At every step: each of the 54 cards is in exactly one place, the state is sound, every listed
legal move is accepted, a sample of other moves is refused (`illegal_move` or `not_your_turn`),
no view shows another player's card; and every match ends.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.errors import IllegalMove, NotYourTurn
from referee.core.outcome import event_for
from referee.games.generala_cards import ENGINE
from referee.games.generala_cards.deck import DECK

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")
FULL_DECK = Counter(DECK)
# No rule caps a match: each deal ends (see the rules document), and a deal without a loser
# is rare (about 2% in random play), so random matches end long before this many moves.
MOVE_LIMIT = 20_000


def strings_in(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(k) | strings_in(v) for k, v in value.items())) \
            if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def check_step(state, rnd: random.Random) -> None:
    places = Counter()
    for hand in state.hands:
        places.update(hand)
    places.update(p.card for p in state.trick)
    places.update(state.discards)
    assert places == FULL_DECK  # every card in exactly one place
    assert ENGINE.problems(state) == []

    moves = ENGINE.legal_moves(state, now=0.0)
    actor = state.players[state.current]
    assert moves and ENGINE.to_act(state, now=0.0) == [actor]
    assert all(m["player"] == actor for m in moves)
    for move in moves:  # every listed move is accepted as posted
        ENGINE.apply(state, dict(move), now=0.0)

    # a sample of other moves is refused
    others = [p for p in state.players if p != actor]
    stranger = {**rnd.choice(moves), "player": rnd.choice(others + ["nobody"])}
    try:
        ENGINE.apply(state, stranger, now=0.0)
        raise AssertionError(f"accepted {stranger}")
    except NotYourTurn as err:
        assert err.code == "not_your_turn"
    listed = {(m["type"], m.get("card") or m.get("take")) for m in moves}
    for _ in range(4):
        move = {"type": rnd.choice(("play", "refuse")), "player": actor}
        card = rnd.choice(DECK)
        move["card" if move["type"] == "play" else "take"] = card
        if (move["type"], card) in listed:
            continue
        try:
            ENGINE.apply(state, move, now=0.0)
            raise AssertionError(f"accepted {move}")
        except IllegalMove as err:
            assert err.code == "illegal_move" and err.rule

    # views: his own hand, never another player's card
    for seat, player in enumerate(state.players):
        view = ENGINE.view(state, player)
        assert sorted(view["hand"]) == sorted(state.hands[seat])
        seen = strings_in(view)
        for other, hand in enumerate(state.hands):
            if other != seat:
                assert not seen & set(hand), (player, seen & set(hand))
        assert "seed" not in view and "discards" not in view


def play_match(n: int, options: dict, seed: str, picks: int, *, checks: bool):
    state = ENGINE.new_match(NAMES[:n], ENGINE.resolve_options(options), seed, now=0.0)
    rnd = random.Random(picks)
    moves = 0
    deals_with_loser = 0
    potential = None
    while not ENGINE.is_finished(state):
        if not state.trick:
            # Termination of a deal: from one lead to the next within a deal, (cards held,
            # players holding cards, the leader's hand size) strictly decreases, so refusals
            # that take cards back cannot loop forever.
            now_potential = (sum(map(len, state.hands)), sum(1 for h in state.hands if h),
                             len(state.hands[state.leader]), -state.deal)
            if potential is not None and potential[3] == now_potential[3]:
                assert now_potential < potential, (potential, now_potential)
            potential = now_potential
        if checks:
            check_step(state, rnd)
        move = rnd.choice(ENGINE.legal_moves(state, now=0.0))
        state, events = ENGINE.apply(state, move, now=0.0)
        for event in events:
            if event["type"] == "deal_lost":
                deals_with_loser += 1
            if "private" in event:  # a dealt hand reaches its player only
                owner = event["private"]["player"]
                assert "cards" in event_for(event, owner)
                assert all("cards" not in event_for(event, p) for p in NAMES[:n] if p != owner)
        moves += 1
        assert moves < MOVE_LIMIT
    assert deals_with_loser == n - 1
    scores = ENGINE.scores(state)
    assert len(scores["winners"]) == 1 and len(scores["losers"]) == n - 1
    assert ENGINE.problems(state) == []
    assert ENGINE.legal_moves(state, now=0.0) == []
    return state


@settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 10), variant=st.sampled_from(["french", "braille"]),
       seed=st.text(min_size=1, max_size=12), picks=st.integers(0, 2**32))
def test_random_matches_keep_every_invariant_at_every_step(n, variant, seed, picks):
    play_match(n, {"variant": variant}, seed, picks, checks=True)


@settings(deadline=None, max_examples=150)
@given(n=st.integers(2, 10),
       options=st.fixed_dictionaries({
           "variant": st.sampled_from(["french", "braille"]),
       }, optional={"lead_last_dealt_card": st.booleans(), "no_joker_after_joker": st.booleans(),
                    "several_out_no_loser": st.booleans(),
                    "two_player_deal_decides": st.booleans(),
                    "tie_dealt_by_last_card": st.booleans()}),
       seed=st.text(min_size=1, max_size=12), picks=st.integers(0, 2**32))
def test_every_random_match_ends_with_one_winner(n, options, seed, picks):
    play_match(n, options, seed, picks, checks=False)
