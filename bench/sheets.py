"""The dice sheets' exact solitaire optima (`referee.games.generala_dice.sheetsolver`), one row
per sheet: the optimum, the time and peak memory its tables take to compute, the reachable
states solved, and beside it the mean of seeded solitaire games played by the optimal policy
(`sheetplay`) with its 95 % interval.

Published anchors: Yahtzee under the American rules 254.5896 (Verhoeff, with the free-choice
joker of his optimal player; the official forced joker gives 254.5877, both 254.59), Yahtzee
with neither Yahtzee bonus nor joker 245.87; Generala 162.47 (its own solver's figure).

Yams (the `yams` game): its French sheet (237.03), and its Yahtzee preset twice: the solver's
own simulation, and `yams-engine`, solitaire games played through the `yams` engine itself
(its `hard` hints choosing every move, its dice from the seeded `referee.core.dice`), so the
engine's rules, bonus and joker included, are checked against the exact optimum.

The sheets a game plays also show what their `win` level's tables take (`sheetfutures`: the
variance of the optimum's future at every state, the exact distributions of the last turns),
and the `*-duel` rows set `win` against `hard` at two-player tables through the engine: each
seed played with `win` in either seat and with `hard` in both, a draw counting half; the `win`
level meets its aim when it wins more often than `hard` in the same seat and dice, by more
than the 95 % interval of that difference.

Run alone: `python -m bench.sheets [--games N] [--engine-games N] [--duels N] [--sheets ...]`.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
import tracemalloc

import numpy as np

from referee.games.dice_sheets.declaration import Sheet
from referee.games.dice_sheets.generala import GENERALA
from referee.games.dice_sheets.yacht import YACHT
from referee.games.dice_sheets.yahtzee import YAHTZEE, YAHTZEE_FREE_JOKER
from referee.games.dice_sheets.yams import YAMS, YAMS_ALL_DICE, YAMS_YAHTZEE
from referee.games import REGISTRY
from referee.games.generala_dice.scoring import SheetScoring
from referee.games.generala_dice.sheetfutures import Futures
from referee.games.generala_dice.sheetplay import play
from referee.games.generala_dice.sheetsolver import SheetSolver, solver_for
from referee.games.generala_dice.state import Options
from referee.games.yams import ENGINE as YAMS_ENGINE
from referee.games.yams.engine import Options as YamsOptions

SHEETS: dict[str, tuple[Sheet, dict[str, int], str]] = {
    "generala": (GENERALA, Options().values, "Generala's solver: 162.47"),
    "yacht": (YACHT, YACHT.values(), "no published figure"),
    "yahtzee-plain": (dataclasses.replace(YAHTZEE, repeat_bonus=None, joker=None),
                      YAHTZEE.values(), "published 245.87, no Yahtzee bonus or joker"),
    "yahtzee": (YAHTZEE, YAHTZEE.values(), "official forced joker; published 254.59"),
    "yahtzee-free-joker": (YAHTZEE_FREE_JOKER, YAHTZEE.values(),
                           "free-choice joker; Verhoeff's published 254.5896"),
    "yams": (YAMS, YamsOptions().values, "the French sheet, the game's default"),
    "yams-all-dice": (YAMS_ALL_DICE, YamsOptions(rules="yams_all_dice").values,
                      "the French sheet, Brelan and Carre on all five dice"),
    "yams-yahtzee": (YAMS_YAHTZEE, YamsOptions(rules="yahtzee").values,
                     "the game's Yahtzee preset; published 254.59"),
}
ENGINE_ROWS = {"yams-engine": "yahtzee"}  # played through the engine, by its options' rules
WIN_ROWS = {"yacht", "yams", "yams-all-dice", "yams-yahtzee"}  # sheets a `win` level reads
DUEL_ROWS = {"yacht-duel": "yacht", "yams-duel": "yams"}  # win against hard, default options
SEED = 2026


def solve(sheet: Sheet, values: dict[str, int]) -> tuple[SheetSolver, float, float, int]:
    """The solver, its wall time, its CPU time and the peak bytes allocated while solving."""
    tracemalloc.start()
    wall, cpu = time.perf_counter(), time.process_time()
    solver = SheetSolver(SheetScoring(sheet), values)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return solver, wall, cpu, peak


def futures_of(solver: SheetSolver) -> tuple[Futures, float, float, int]:
    """The `win` level's tables of a solver, their wall and CPU time and peak bytes."""
    tracemalloc.start()
    wall, cpu = time.perf_counter(), time.process_time()
    futures = Futures(solver)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return futures, wall, cpu, peak


def duel_match(game_id: str, levels: dict[str, str], seed: str) -> dict[str, int]:
    """The totals of a two-player match of the game, each seat playing its level's hints."""
    engine = REGISTRY[game_id]
    state = engine.new_match(tuple(levels), engine.resolve_options({}), seed, now=0)
    while not engine.is_finished(state):
        player = engine.to_act(state, now=0)[0]
        mine = [m for m in engine.legal_moves(state, now=0) if m["player"] == player]
        advice = engine.advise(engine.view(state, player), mine, levels[player])
        state, _ = engine.apply(state, advice.move, now=0)
    return {p: v["total"] for p, v in engine.scores(state)["players"].items()}


def outcome(totals: dict[str, int], seat: str) -> float:
    """1 if the seat finished on top alone, a half if level with the other, else 0."""
    mine = totals[seat]
    theirs = max(t for p, t in totals.items() if p != seat)
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def report_duel(name: str, seeds: int) -> None:
    """`win` against `hard` in each seat of each seed's match, beside `hard` against `hard`
    on the same seed: the same dice until the levels choose differently, so the difference
    of the two results in a seat measures what `win` changes with far less luck in it."""
    game_id = DUEL_ROWS[name]
    start = time.perf_counter()
    shares, gains = [], []
    for seed in range(seeds):
        match = f"duel-{SEED}-{seed}"
        plain = duel_match(game_id, {"p0": "hard", "p1": "hard"}, match)
        for seat in ("p0", "p1"):
            levels = {p: "win" if p == seat else "hard" for p in ("p0", "p1")}
            result = outcome(duel_match(game_id, levels, match), seat)
            shares.append(result)
            gains.append(result - outcome(plain, seat))
    share, half = interval(np.array(shares))
    gain, gain_half = interval(np.array(gains))
    verdict = "meets" if gain - gain_half > 0 else "not yet shown to meet"
    print(f"{name:18s} win against hard, {len(shares):,} two-player {game_id} matches (each "
          f"seed in both seats): win's share {share:.4f} ± {half:.4f}; against hard in the "
          f"same seat and dice, {gain:+.4f} ± {gain_half:.4f} (95 %): {verdict} the aim of "
          f"winning more often ({time.perf_counter() - start:.0f} s)", flush=True)


def interval(totals: np.ndarray) -> tuple[float, float]:
    """The mean and the half width of its 95 % interval."""
    return float(totals.mean()), float(1.96 * totals.std(ddof=1) / np.sqrt(len(totals)))


def engine_games(rules: str, games: int) -> np.ndarray:
    """The final scores of solitaire Yams games under these rules, every move the engine's
    `hard` hint, through the engine's own apply (its dice seeded by the game's number)."""
    options = YAMS_ENGINE.resolve_options({"turn_seconds": 0, "rules": rules})
    totals = []
    for game in range(games):
        state = YAMS_ENGINE.new_match(("solo",), options, f"bench-{SEED}-{game}", now=0)
        while not YAMS_ENGINE.is_finished(state):
            moves = YAMS_ENGINE.legal_moves(state, now=0)
            advice = YAMS_ENGINE.advise(YAMS_ENGINE.view(state, "solo"), moves, "hard")
            state, _ = YAMS_ENGINE.apply(state, advice.move, now=0)
        totals.append(YAMS_ENGINE.scores(state)["players"]["solo"]["total"])
    return np.array(totals, dtype=float)


def report_engine(name: str, games: int) -> None:
    rules = ENGINE_ROWS[name]
    wall = time.perf_counter()
    solver = solver_for(*SHEETS[f"yams-{rules}"][:2])  # the tables the hints then read
    wall = time.perf_counter() - wall
    start = time.perf_counter()
    mean, half = interval(engine_games(rules, games))
    verdict = "within" if abs(mean - solver.start) <= half else "OUTSIDE"
    print(f"{name:18s} optimum {solver.start:.4f} (rules {rules!r}, solved in {wall:.1f} s); "
          f"{games:,} solitaire games played by the engine's hard hints: mean {mean:.2f}, "
          f"95 % interval {mean - half:.2f} to {mean + half:.2f}, the optimum {verdict} "
          f"({time.perf_counter() - start:.0f} s)", flush=True)


def report(games: int = 10_000, names: tuple[str, ...] = (*SHEETS, *ENGINE_ROWS, *DUEL_ROWS),
           engine_games_played: int = 10_000, duel_pairs: int = 500) -> None:
    for name in names:
        if name in ENGINE_ROWS:
            report_engine(name, engine_games_played)
            continue
        if name in DUEL_ROWS:
            report_duel(name, duel_pairs)
            continue
        sheet, values, anchor = SHEETS[name]
        solver, wall, cpu, peak = solve(sheet, values)
        start = time.perf_counter()
        totals = play(solver, games, SEED)
        mean, half = interval(totals)
        verdict = "within" if abs(mean - solver.start) <= half else "OUTSIDE"
        print(f"{name:18s} optimum {solver.start:.4f} ({anchor}); solved in {wall:.1f} s "
              f"({cpu:.1f} s CPU), peak {peak / 2**20:.0f} MB, table "
              f"{solver.expected.nbytes / 2**20:.2f} MB, "
              f"{solver.reachable_count:,} reachable states; {games:,} games played by it: mean "
              f"{mean:.2f}, 95 % interval {mean - half:.2f} to {mean + half:.2f}, the optimum "
              f"{verdict} ({time.perf_counter() - start:.0f} s)", flush=True)
        if name in WIN_ROWS:
            futures, wall, cpu, peak = futures_of(solver)
            kept = futures.variance.nbytes + futures.distributions.nbytes
            print(f"{'':18s} win level's tables: {wall:.1f} s ({cpu:.1f} s CPU), peak "
                  f"{peak / 2**20:.0f} MB, kept {kept / 2**20:.1f} MB "
                  f"({len(futures.distributions):,} last-turn states exact)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--engine-games", type=int, default=10_000,
                        help="games of the rows played through the engine (yams-engine)")
    parser.add_argument("--duels", type=int, default=500,
                        help="seeds of the duel rows, each played three times")
    parser.add_argument("--sheets", default=",".join((*SHEETS, *ENGINE_ROWS, *DUEL_ROWS)))
    args = parser.parse_args()
    report(args.games, tuple(name for name in args.sheets.split(",") if name),
           args.engine_games, args.duels)


if __name__ == "__main__":
    main()
