"""The `win` level of any declared sheet: the turn that gives the best chance of finishing on top,
for a player at a sheet state with some points, against opponents between their turns.

As Generala's `win` level (`solver.Tables.win_plan`): every later turn, his own and the
opponents', is taken to follow the exact optimum of the expected score (the `hard` level), and
this turn's choices are the best against those futures: one step of policy improvement over
`hard`. A tie on top counts half: a choice is worth P(no one above) + P(no one level) halved,
over final scores that are independent between players.

A future is read from `sheetfutures.Futures`: exactly at the last turns' states, elsewhere as
the whole-point bell curve of its mean and variance (the normal law's chance of each point,
from a table of its distribution function). So at the last two turns of a player, and for
opponents as near the end, the chances are exact; earlier they are close estimates.
"""

from __future__ import annotations

import math

import numpy as np

from referee.core.memo import BoundedMemo

from . import dicetables as dt
from .sheetfutures import TAIL_WIDTHS, Futures
from .turnplan import TurnPlan

# The standard normal distribution function, tabulated finely enough that reading it between
# two entries is off by less than a millionth.
Z_STEP = 1 / 256
Z = np.arange(-TAIL_WIDTHS - 1, TAIL_WIDTHS + 1 + Z_STEP / 2, Z_STEP)
NORMAL_CDF = np.array([0.5 * math.erfc(-z / math.sqrt(2)) for z in Z])
PLANS_KEPT = 64

Law = tuple[int, np.ndarray]  # (first point, the chance of each point from there)


def future_law(futures: Futures, state: int, total: int) -> Law:
    """The law of a player's final score: `total` plus what he still scores from `state`."""
    exact = futures.distribution(state)
    if exact is not None:
        return total, exact
    mean = total + float(futures.solver.expected[state])
    spread = math.sqrt(futures.variance[state])
    if spread < 1e-6:  # a future that cannot vary: its mean, a whole number
        return round(mean), np.ones(1)
    first = max(0, math.floor(mean - TAIL_WIDTHS * spread))
    last = math.ceil(mean + TAIL_WIDTHS * spread)
    edges = (np.arange(first, last + 2) - 0.5 - mean) / spread
    below = np.interp(edges, Z, NORMAL_CDF)
    below[0], below[-1] = 0.0, 1.0  # the tails go to the end points
    return first, np.diff(below)


def winning_chance(opponents: list[Law], size: int) -> np.ndarray:
    """chance[z]: a final score of z finishing on top (a tie on top half), for z below `size`."""
    at_most = np.ones(size)
    below = np.ones(size)
    for first, law in opponents:
        cumulative = np.zeros(size)
        cumulative[first:first + len(law)] = np.cumsum(law)[:max(0, size - first)]
        cumulative[first + len(law):] = 1.0
        at_most *= cumulative
        below *= np.concatenate([[0.0], cumulative[:-1]])
    return (at_most + below) / 2


def win_plan(futures: Futures, state: int, total: int,
             opponents: tuple[tuple[int, int], ...]) -> TurnPlan:
    """The turn of the best chance of winning for a player at `state` with `total` points
    against `opponents` (sheet state, points), kept: a turn asks up to three times."""
    return WIN_PLANS.get((futures, state, total, opponents), make_win_plan)


def make_win_plan(key) -> TurnPlan:
    futures, state, total, opponents = key
    solver = futures.solver
    laws = [future_law(futures, s, t) for s, t in opponents]
    reach = max(first + len(law) for first, law in laws)
    stops = {}
    for servida in futures.servida_kinds:
        values = solver.box_table(np.array([state]), servida)[:, :, 0]
        children = solver.box_children(np.array([state]), servida)[:, :, 0]
        allowed = np.isfinite(values)
        points = np.rint(np.where(allowed, values - solver.expected[children], 0)).astype(int)
        # one chance per (sheet after, points), however many hands and boxes lead there
        ends, where = np.unique(np.stack([children[allowed], points[allowed]]), axis=1,
                                return_inverse=True)
        mine = [future_law(futures, int(child), total + int(p)) for child, p in ends.T]
        size = max(reach, max(first + len(law) for first, law in mine)) + 1
        chance = winning_chance(laws, size)
        worth = np.array([law @ chance[first:first + len(law)] for first, law in mine])
        stop = np.full(values.shape, -np.inf)
        stop[allowed] = worth[where.ravel()]
        stops[servida] = stop.T[None]  # [state, hand, box], as TurnPlan reads them
    return TurnPlan(stops[0], stops[futures.servida_kinds[-1]], dt.FIRST_ROLL)


WIN_PLANS: BoundedMemo[tuple, TurnPlan] = BoundedMemo(PLANS_KEPT)
