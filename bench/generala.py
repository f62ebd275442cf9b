"""Generala's hint levels, measured: table build times, the `hard` policy's mean over
solitaire games beside the exact value, `easy` and `medium` over two-player games beside the
seed's bots, and `win` head-to-head against `hard`. Dice come from seeded generators, so every
run plays the same games; two processes share the head-to-head.

Run alone: `python -m bench.generala [--solitaire N] [--two-player N] [--head-to-head N]`.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time

from referee.games.generala_dice.selfplay import (HeadToHead, head_to_head, mean_and_error,
                                                  play_match)
from referee.games.generala_dice.solver import DEFAULT_RULES, RuleKey, Tables, tables_for
from referee.games.generala_dice.state import Options
from referee.games.generala_dice.strategies import STRATEGIES, hard, win

# What the seed's players measured against its bots (800 two-player games per level).
SEED_BOTS = {"easy": 113, "medium": 158, "hard": 160}
HOUSE_VALUES = {"escalera": 25, "full": 35, "poker": 45, "generala": 60, "doble_generala": 120,
                "servida_bonus": 10}


def build_times() -> None:
    for label, options in (("sheet values", {}), ("house values", HOUSE_VALUES),
                           ("instant-win rule", {"servida_generala_wins": True})):
        rules = RuleKey.of(Options(**options))
        wall, cpu = time.perf_counter(), time.process_time()
        tables = Tables(rules)
        expected_wall, expected_cpu = time.perf_counter() - wall, time.process_time() - cpu
        wall, cpu = time.perf_counter(), time.process_time()
        tables.hard_play
        play_wall, play_cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"tables, {label:16s}: expected values {expected_wall:.2f} s ({expected_cpu:.2f} s "
              f"CPU; all easy/medium/hard hints need), choices and distributions "
              f"{play_wall:.2f} s ({play_cpu:.2f} s CPU; the win level); exact mean "
              f"{tables.expected[0]:.2f}")


def solitaire(games: int) -> None:
    tables = tables_for(DEFAULT_RULES)
    tables.hard_play
    rnd = random.Random(2026)
    start = time.perf_counter()
    totals = [play_match([hard], DEFAULT_RULES, rnd).totals[0] for _ in range(games)]
    mean, error = mean_and_error(totals)
    exact = tables.expected[0]
    verdict = "within" if abs(mean - exact) <= 3 * error else "OUTSIDE"
    print(f"hard, {games:,} solitaire games: mean {mean:.2f} ± {error:.2f} (standard error), "
          f"exact {exact:.2f}: {verdict} 3 standard errors; seed's bots: "
          + ", ".join(f"{level} {points}" for level, points in SEED_BOTS.items())
          + f" ({time.perf_counter() - start:.0f} s)")


def two_player(games: int) -> None:
    for level in ("easy", "medium", "hard"):
        outcome = head_to_head(STRATEGIES[level], hard, DEFAULT_RULES, games, seed=17)
        mean, error = mean_and_error(outcome.totals)
        print(f"{level:6s} {games} two-player games against hard: mean {mean:6.2f} ± {error:.2f} "
              f"(seed's bot: {SEED_BOTS[level]}); won {outcome.wins}, drew {outcome.draws}, "
              f"lost {outcome.losses}")


def _part(bounds: tuple[int, int]) -> HeadToHead:
    tables_for(DEFAULT_RULES).hard_play
    first, games = bounds
    return head_to_head(win, hard, DEFAULT_RULES, games, seed=29, first=first)


def versus_hard(games: int) -> None:
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        outcome, other = pool.map(_part, [(0, games // 2), (games // 2, games - games // 2)])
    outcome.merge(other)
    edge, error = mean_and_error(outcome.differences)
    verdict = "meets" if outcome.share > 0.5 else "BELOW"
    print(f"win against hard, {games:,} two-player games (seats alternating): won "
          f"{outcome.wins}, drew {outcome.draws}, lost {outcome.losses}: "
          f"{100 * outcome.share:.1f} % of the points ({verdict} the 50 % target); against "
          f"hard's own result in the same seat with the same dice, {100 * edge:+.1f} ± "
          f"{100 * error:.1f} % ({time.perf_counter() - start:.0f} s)")


def report(solitaire_games: int = 20_000, two_player_games: int = 800,
           head_to_head_games: int = 10_000) -> None:
    build_times()
    solitaire(solitaire_games)
    two_player(two_player_games)
    versus_hard(head_to_head_games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--solitaire", type=int, default=20_000)
    parser.add_argument("--two-player", type=int, default=800)
    parser.add_argument("--head-to-head", type=int, default=10_000)
    args = parser.parse_args()
    report(args.solitaire, args.two_player, args.head_to_head)


if __name__ == "__main__":
    main()
