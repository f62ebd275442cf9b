"""The card games' hints: every hint is one of the player's legal moves, the same every time,
blind to what the player cannot see, and the levels are ordered in strength."""

from __future__ import annotations

import random

import pytest

from referee.games import REGISTRY
from tests.games.support import (CARD_GAMES, ONE_ROUND, FixedTest, SequentialTest,
                                 duplicate_shares, error_rates, hints_of, positions, shares)


@pytest.mark.parametrize("game_id", CARD_GAMES)
def test_every_level_answers_a_legal_move_the_same_every_time(game_id):
    engine = REGISTRY[game_id]
    assert engine.hint_levels == ("easy", "medium", "hard")
    asked = 0
    for number, (state, player, mine) in enumerate(positions(game_id, 4, 60)):
        levels = engine.hint_levels if number % 3 == 0 else ("easy", "medium")
        for level in levels:
            advice = engine.advise(engine.view(state, player), mine, level)
            assert advice.move in mine
            assert all(alt.move in mine for alt in advice.alternatives)
            assert advice.reason
            if advice.measure == "win_share":
                assert 0.0 <= advice.value <= 1.0
            again = engine.advise(engine.view(state, player), mine, level)
            assert again == advice
            asked += 1
    assert asked > 100


@pytest.mark.parametrize("game_id", CARD_GAMES)
def test_an_unknown_level_is_refused(game_id):
    state, player, mine = next(positions(game_id, 1, 1))
    with pytest.raises(ValueError):
        REGISTRY[game_id].advise(REGISTRY[game_id].view(state, player), mine, "grandmaster")


@pytest.mark.parametrize("game_id", CARD_GAMES)
def test_a_hint_does_not_depend_on_what_the_player_cannot_see(game_id, client):
    """The same table with the hidden cards dealt otherwise (other hands, stock, discards) and
    another seed and step: the player's view is the same, and so is every level's hint."""
    engine = REGISTRY[game_id]
    hints = hints_of(game_id)
    twins = 0
    for number, (state, player, mine) in enumerate(positions(game_id, 3, 40, seed=1)):
        if number % 7:
            continue
        view = engine.view(state, player)
        twin = hints.determinize(view, mine, random.Random(number))
        assert engine.problems(twin) == []
        assert engine.view(twin, player) == view
        me = state.players.index(player)
        others_hold = sum(map(len, state.hands)) > len(state.hands[me])
        assert twin.hands != state.hands or not others_hold
        assert twin.seed != state.seed
        seating = {"bots": list(state.players), "hints_allowed": False}
        for level in engine.hint_levels:
            answers = [client.post(f"/v1/games/{game_id}/hints", json={
                "state": {**engine.encode(s), "seating": seating, "fairness": None},
                "player": player,
                "level": level}) for s in (state, twin)]
            assert [a.status_code for a in answers] == [200, 200], answers[0].get_json()
            assert answers[0].get_json() == answers[1].get_json()
            assert answers[0].get_json()["move"] in mine
        twins += 1
    assert twins >= 3


# The strength tests below play fixed seeds, the same matches every run (the hints are
# deterministic), so they cannot flake. Each claims that one level is stronger than another
# (its share of the wins is above one half) and has two error rates, what the seeds would
# give if drawn afresh with the matches taken as independent: the chance that a level no
# stronger (a share of 0.5) would pass, and the chance that one with a share of 0.6 would
# fail. test_the_strength_tests_error_rates_are_the_ones_stated checks the figures. A fixed
# test stops playing once its verdict is settled (`FixedTest`: the wins needed reached, or out
# of reach of the matches left), which gives the verdict of all its matches.
MEDIUM_AGAINST_EASY = FixedTest(matches=120, wins_needed=66.5)  # a share above 0.55
HARD_AT_HUIT = FixedTest(matches=80, wins_needed=44)  # a share of 0.55 or more
ERROR_RATES = {  # (matches, wins needed to pass) -> (pass if no stronger, fail at 0.6)
    (120, 66.5): (0.118, 0.153),
    (30, 16.5): (0.292, 0.285),  # Générala's fixed test, which the sequential one replaced
    (80, 44): (0.217, 0.152),
}

# At Générala, where `hard` thinks (most of the time is its search), the test is sequential:
# Wald's test of a share of 0.5 against 0.6 (`SequentialTest`), looking after every pair of
# matches (two seeds, the seats swapped), stops as soon as the wins so far tell the levels
# apart, at error rates no higher than the fixed test's it replaced (30 matches: 0.292,
# 0.285); the figures and the mean number of matches at the share bench/hints.py measured
# (docs/PERFORMANCE.md) are checked below. Its bounds were chosen on those error rates and
# that share alone, before the seeds were played. The same design for Huit américain (at
# most 110 matches, 0.217 and 0.149, 56 matches on average at the measured 56.8 %) was
# weighed too: on the test's seeds it would play 86 matches where the fixed test plays 80, so
# the fixed test stays. A later design of the same error rates (at most 120 matches, looking
# after each pair, 54.7 on average at 56.8 %), its bounds chosen before its seeds were
# played, was tried on a run of new seeds: it failed, hard winning 19.5 of 44 matches, so the
# fixed test still stays.
HARD_AT_GENERALA = SequentialTest(upper=0.8, lower=-1.0, most=40, final=23, look=2)
SEQUENTIAL = {  # test -> (pass if no stronger, fail at 0.6, measured share, mean matches)
    "generala-cards": (HARD_AT_GENERALA, (0.289, 0.282, 0.644, 18.7), error_rates(30, 16.5)),
}


@pytest.mark.parametrize("game_id", CARD_GAMES)
def test_medium_beats_easy_head_to_head(game_id):
    """Claim: `medium` wins more than half its matches against `easy`, shown by a share above
    0.55 over 120 seeded matches, the seats alternating (measured shares: docs/PERFORMANCE.md, all
    >= 0.6), played until the verdict is settled (the 66.5 wins needed). A level no stronger
    than `easy` would pass with a chance of 11.8 %, one with a share of 0.6 fail with a chance
    of 15.3 %."""
    passed, played, won = MEDIUM_AGAINST_EASY.run(
        shares(game_id, "medium", "easy", ONE_ROUND[game_id]))
    assert passed, (played, won)


def test_hard_beats_medium_at_generala_cards():
    """Claim: `hard` wins more than half its Générala deals against `medium`, shown by Wald's
    sequential test over seeded two-player deals, the seats alternating (at most 40). A level
    no stronger than `medium` would pass with a chance of 28.9 %, one with a share of 0.6 fail
    with a chance of 28.2 % (measured share 64.4 %: about 19 deals on average, rather than
    the 30 of a fixed test at 29.2 % and 28.5 %)."""
    passed, played, won = HARD_AT_GENERALA.run(shares("generala-cards", "hard", "medium", {}))
    assert passed, (played, won)


def test_hard_beats_medium_at_huit_americain_on_duplicate_deals():
    """Claim: `hard` wins more than half its rounds of Huit américain against `medium`, shown
    by a share of at least 0.55 over 40 seeded deals, each played twice with the seats
    swapped: 80 matches, of which hard wins 47 (58.75 %; the bound leaves three matches of
    margin; bench/hints.py measures hard over 1,000 matches, docs/PERFORMANCE.md). The verdict
    is settled at hard's 44th win, in the 76th match, where the test stops. A level no
    stronger than `medium` would pass with a chance of 21.7 %, one with a share of 0.6 fail
    with a chance of 15.2 % (the matches taken as independent, as for the tests above)."""
    passed, played, won = HARD_AT_HUIT.run(
        duplicate_shares("huit-americain", "hard", "medium", ONE_ROUND["huit-americain"]))
    assert passed, (played, won)


@pytest.mark.parametrize("matches, wins_needed", sorted(ERROR_RATES))
def test_the_strength_tests_error_rates_are_the_ones_stated(matches, wins_needed):
    passed_if_even, failed_at_edge = error_rates(matches, wins_needed)
    stated = ERROR_RATES[(matches, wins_needed)]
    assert (round(passed_if_even, 3), round(failed_at_edge, 3)) == stated


def test_a_fixed_test_stopped_once_settled_gives_the_verdict_of_all_its_matches():
    pick = random.Random(7)
    for test in (MEDIUM_AGAINST_EASY, HARD_AT_HUIT):
        assert (test.matches, test.wins_needed) in ERROR_RATES
        for _ in range(400):
            won = pick.choice((0.3, 0.5, 0.55, 0.6, 0.8))  # the chance of a match won
            results = [1.0 if pick.random() < won else 0.5 if pick.random() < 0.05 else 0.0
                       for _ in range(test.matches)]
            passed, played, wins = test.run(iter(results))
            assert passed == (sum(results) >= test.wins_needed)
            assert played <= test.matches and wins == sum(results[:played])


@pytest.mark.parametrize("game_id", sorted(SEQUENTIAL))
def test_the_sequential_tests_error_rates_and_lengths_are_the_ones_stated(game_id):
    test, (passed_if_even, failed_at_edge, share, mean), fixed = SEQUENTIAL[game_id]
    rates = test.error_rates()
    assert (round(rates[0], 3), round(rates[1], 3)) == (passed_if_even, failed_at_edge)
    assert all(rate <= bound for rate, bound in zip(rates, fixed))  # none above the fixed test's
    assert round(test.outcome(share)[1], 1) == mean
