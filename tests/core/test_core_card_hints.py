"""The card games' hints: every hint is one of the player's legal moves, the same every time,
blind to what the player cannot see, and the levels are ordered in strength."""

from __future__ import annotations

import importlib
import random

import pytest

from referee.core.selfplay import play_match
from referee.games import REGISTRY

CARD_GAMES = ("generala-cards", "empereur", "huit-americain")
NOW = 0.0


def hints_of(game_id: str):
    return importlib.import_module(f"referee.games.{game_id.replace('-', '_')}.hints")


def positions(game_id: str, matches: int, moves: int, seed: int = 0):
    """(state, player, his legal moves) along seeded matches of random and medium play."""
    engine = REGISTRY[game_id]
    pick = random.Random(f"{game_id}-{seed}")
    for k in range(matches):
        players = tuple(f"p{i}" for i in range(2 + k % 3))
        state = engine.new_match(players, engine.resolve_options(engine.playout_options),
                                 f"hint-test-{seed}-{k}", now=NOW)
        for _ in range(moves):
            if engine.is_finished(state):
                break
            player = engine.to_act(state, now=NOW)[0]
            mine = [m for m in engine.legal_moves(state, now=NOW) if m["player"] == player]
            yield state, player, mine
            move = (engine.advise(engine.view(state, player), mine, "medium").move
                    if pick.random() < 0.7 else pick.choice(mine))
            state, _ = engine.apply(state, move, now=NOW)


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


def win_share(game_id: str, strong: str, weak: str, matches: int, options) -> float:
    engine = REGISTRY[game_id]
    won = 0.0
    for k in range(matches):
        levels = (strong, weak) if k % 2 == 0 else (weak, strong)
        shares = play_match(engine, levels, options, f"strength-{game_id}-{strong}-{k}")
        won += shares[levels.index(strong)]
    return won / matches


# A match of each game as the strength tests play it: one deal or round between two players.
ONE_ROUND = {"generala-cards": {}, "empereur": {"mode": "normal", "rounds": 1},
             "huit-americain": {"target": 1}}


@pytest.mark.parametrize("game_id", CARD_GAMES)
def test_medium_beats_easy_head_to_head(game_id):
    # Fixed seeds: the same 120 matches every run. Measured shares (all >= 0.6):
    # docs/PERFORMANCE.md.
    assert win_share(game_id, "medium", "easy", 120, ONE_ROUND[game_id]) > 0.55


def test_hard_beats_medium_at_generala_cards():
    # Fixed seeds: the same 30 two-player deals every run.
    assert win_share("generala-cards", "hard", "medium", 30, {}) > 0.55


def duplicate_share(game_id: str, strong: str, weak: str, deals: int, options) -> float:
    """The stronger level's share of the wins over duplicate deals: each seed played twice,
    the levels swapping seats, so the luck of the deal cancels out."""
    engine = REGISTRY[game_id]
    won = 0.0
    for d in range(deals):
        for levels in ((strong, weak), (weak, strong)):
            shares = play_match(engine, levels, options, f"duplicate-{game_id}-{d}")
            won += shares[levels.index(strong)]
    return won / (2 * deals)


def test_hard_beats_medium_at_huit_americain_on_duplicate_deals():
    # Fixed seeds: the same 40 deals, each played twice with the seats swapped, every run (the
    # hints are deterministic): 80 matches, of which hard wins 47 (58.75 %). The bound leaves
    # three matches of margin; bench/hints.py measures hard over 1,000 matches
    # (docs/PERFORMANCE.md).
    assert duplicate_share("huit-americain", "hard", "medium", 40,
                           ONE_ROUND["huit-americain"]) >= 0.55
