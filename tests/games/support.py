"""Positions and matches of the card games for the hint tests: seeded, the same every run."""

from __future__ import annotations

import importlib
import math
import random

from referee.core.selfplay import play_match
from referee.games import REGISTRY

CARD_GAMES = ("generala-cards", "empereur", "huit-americain")
NOW = 0.0

# A match of each game as the strength tests play it: one deal or round between two players.
ONE_ROUND = {"generala-cards": {}, "empereur": {"mode": "normal", "rounds": 1},
             "huit-americain": {"target": 1}}


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


def win_share(game_id: str, strong: str, weak: str, matches: int, options) -> float:
    """The stronger level's share of the wins over seeded matches, the seats alternating."""
    engine = REGISTRY[game_id]
    won = 0.0
    for k in range(matches):
        levels = (strong, weak) if k % 2 == 0 else (weak, strong)
        shares = play_match(engine, levels, options, f"strength-{game_id}-{strong}-{k}")
        won += shares[levels.index(strong)]
    return won / matches


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


def error_rates(matches: int, wins_needed: float) -> tuple[float, float]:
    """The error rates of a strength test that passes when the stronger level wins at least
    `wins_needed` of `matches` matches, taken as independent: the chance that a level no
    stronger than the other (a share of 0.5) passes, and the chance that one whose share is
    0.6 fails."""
    needed = math.ceil(wins_needed)

    def at_least(share: float) -> float:
        return sum(math.comb(matches, k) * share ** k * (1 - share) ** (matches - k)
                   for k in range(needed, matches + 1))

    return at_least(0.5), 1 - at_least(0.6)
