"""The dice sheets' exact solitaire optima (`referee.games.generala_dice.sheetsolver`), one row
per sheet: the optimum, the time and peak memory its tables take to compute, the reachable
states solved, and beside it the mean of seeded solitaire games played by the optimal policy
(`sheetplay`) with its 95 % interval.

Published anchors: Yahtzee under the American rules 254.5896 (Verhoeff, with the free-choice
joker of his optimal player; the official forced joker gives 254.5877, both 254.59), Yahtzee
with neither Yahtzee bonus nor joker 245.87; Generala 162.47 (its own solver's figure).

Run alone: `python -m bench.sheets [--games N] [--sheets name,name]`.
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
from referee.games.generala_dice.scoring import SheetScoring
from referee.games.generala_dice.sheetplay import play
from referee.games.generala_dice.sheetsolver import SheetSolver
from referee.games.generala_dice.state import Options

SHEETS: dict[str, tuple[Sheet, dict[str, int], str]] = {
    "generala": (GENERALA, Options().values, "Generala's solver: 162.47"),
    "yacht": (YACHT, YACHT.values(), "no published figure"),
    "yahtzee-plain": (dataclasses.replace(YAHTZEE, repeat_bonus=None, joker=None),
                      YAHTZEE.values(), "published 245.87, no Yahtzee bonus or joker"),
    "yahtzee": (YAHTZEE, YAHTZEE.values(), "official forced joker; published 254.59"),
    "yahtzee-free-joker": (YAHTZEE_FREE_JOKER, YAHTZEE.values(),
                           "free-choice joker; Verhoeff's published 254.5896"),
}
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


def report(games: int = 10_000, names: tuple[str, ...] = tuple(SHEETS)) -> None:
    for name in names:
        sheet, values, anchor = SHEETS[name]
        solver, wall, cpu, peak = solve(sheet, values)
        start = time.perf_counter()
        totals = play(solver, games, SEED)
        mean = totals.mean()
        half = 1.96 * totals.std(ddof=1) / np.sqrt(games)
        verdict = "within" if abs(mean - solver.start) <= half else "OUTSIDE"
        print(f"{name:18s} optimum {solver.start:.4f} ({anchor}); solved in {wall:.1f} s "
              f"({cpu:.1f} s CPU), peak {peak / 2**20:.0f} MB, table "
              f"{solver.expected.nbytes / 2**20:.2f} MB, "
              f"{solver.reachable_count:,} reachable states; {games:,} games played by it: mean "
              f"{mean:.2f}, 95 % interval {mean - half:.2f} to {mean + half:.2f}, the optimum "
              f"{verdict} ({time.perf_counter() - start:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--sheets", default=",".join(SHEETS))
    args = parser.parse_args()
    report(args.games, tuple(name for name in args.sheets.split(",") if name))


if __name__ == "__main__":
    main()
