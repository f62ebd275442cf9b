"""What a sheet still brings a player who plays the exact optimum (`sheetsolver.SheetSolver`,
the `hard` level), beyond its mean: at every reachable state the variance of the points still
to score, and at the states of the last turns (at most `EXACT_FREE` free boxes) their exact
distribution. The `win` level weighs a turn's choices with them (`sheetwin`).

Why not every state's exact distribution, as Generala's `win` level has (`solver.HardPlay`):
a sheet with an upper bonus has hundreds of thousands of states (Yams' French sheet 357,632,
Yahtzee's 536,448), and a distribution over some 400 points at each would take more than half
a gigabyte a sheet. A mean and a variance take two numbers a state; the last turns, where a
future is furthest from a bell curve (one box left: the Yams box scores 50 or nothing), are
kept exactly, and they are few (the French sheet: 5,846 states with two free boxes or fewer).

The variance comes backward over the layers of states, as the solver finds the mean: a stop's
second moment is its value squared plus the variance of the sheet after it; a keep's, the mean
over the hands it may become; at each roll the choice is the optimum's (`TurnChoices.choose`:
the first box within TIE of the best, unless a keep is worth more; between keeps within TIE
of each other, the first `best_keep_carrying` meets).

The exact distributions come forward through each turn of the last layers: the optimum's
choices followed from the first roll, each way the turn can end adding the distribution of
the sheet after it, shifted by the points it scores (its value less the sheet after's mean:
every bonus and joker included, as the solver counts them).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from referee.core.memo import BoundedMemo
from referee.core.preparation import needed, prepared
from referee.core.tables import STORE, Arrays
from referee.games.dice_sheets.declaration import Sheet

from . import dicetables as dt
from .sheetsolver import (HAND_ONE_DIE_LESS, KEEPS_OF_SIZE, ONE_DIE_LESS, TIE, SheetSolver,
                          TurnChoices, has_solver, keep_values, solver_for, solver_key)

EXACT_FREE = 2  # the states with this many free boxes or fewer keep their exact distribution
CHUNK = 256  # states worked at once: a few arrays of boxes x 252 x CHUNK numbers
TAIL_WIDTHS = 8  # a future summarised by its mean and variance spans this many deviations
# A sheet's futures take up to about 30 MB (Yahtzee's: its variances over 2**20 numbered
# states, its exact distributions); the French sheet's about 10 MB.
FUTURES_KEPT = 4


class Futures:
    """variance[state]: the variance of what the optimum still scores from a state;
    `distribution(state)` its exact law at the last turns' states (None elsewhere)."""

    def __init__(self, solver: SheetSolver, stored: Arrays | None = None):
        """`stored`: the `tables()` of futures of the same solver found before (the table
        store keeps them); found again when not given."""
        self.solver = solver
        self.servida_kinds = (0, 1) if solver.servida else (0,)
        # the most a turn can score: a box's points, a joker's, the upper bonus, a repeat bonus
        most = solver.points.max(initial=0)
        if solver.joker_box >= 0:
            most = max(most, solver.joker_points.max(initial=0))
        self.most_a_turn = int(most) + solver.bonus + solver.repeat_amount
        exact = np.concatenate(solver.layers[:EXACT_FREE + 1])
        self.exact_row = np.full(solver.state_count, -1, dtype=np.int32)
        self.exact_row[exact] = np.arange(len(exact))
        if stored is not None:
            self.variance, self.distributions = stored["variance"], stored["distributions"]
            return
        self.variance = np.zeros(solver.state_count)
        for layer in solver.layers[1:]:
            for start in range(0, len(layer), CHUNK):
                states = layer[start:start + CHUNK]
                self.variance[states] = self.turn_variance(states)
        # single precision: chances to a ten-millionth, half the memory (Yahtzee's: 16 MB)
        self.distributions = np.zeros((len(exact), EXACT_FREE * self.most_a_turn + 1),
                                      dtype=np.float32)
        self.distributions[self.exact_row[solver.layers[0]], 0] = 1.0
        for layer in solver.layers[1:EXACT_FREE + 1]:
            for start in range(0, len(layer), CHUNK):
                states = layer[start:start + CHUNK]
                self.distributions[self.exact_row[states]] = self.turn_distribution(states)

    def tables(self) -> Arrays:
        """What the table store keeps of the futures."""
        return {"variance": self.variance, "distributions": self.distributions}

    def distribution(self, state: int) -> np.ndarray | None:
        row = self.exact_row[state]
        return None if row < 0 else self.distributions[row]

    # -- the variance, backward ---------------------------------------------------------------
    def stop_moments(self, states: np.ndarray, servida: int):
        """(value[h, s], second moment[h, s]) of the box the optimum fills with each hand: the
        first, unless a later one is worth more by more than TIE (`TurnChoices.choose` takes
        the first within TIE of the best: the same box but where values lie a few TIE apart,
        which only rounding makes). The box chosen is followed, and the variance after it
        read once: reading it after every box would cost a look-up in the whole sheet's
        variances for each box, hand and state."""
        top = chosen = None
        for box, values in self.solver.box_values(states, servida):
            if top is None:
                top, chosen = values, np.full(values.shape, box)
                continue
            larger = values > top + TIE
            np.copyto(top, values, where=larger)
            np.copyto(chosen, box, where=larger)
        children = self.solver.box_children(states, servida)
        after = np.take_along_axis(children, chosen[None], axis=0)[0]
        return top, top ** 2 + self.variance[after]

    def turn_variance(self, states: np.ndarray) -> np.ndarray:
        stops = {servida: self.stop_moments(states, servida) for servida in self.servida_kinds}
        plain, servida = stops[0], stops[self.servida_kinds[-1]]
        after_second = choosing(plain, plain)
        after_first = choosing(servida, after_second)
        mean, moment = (dt.FIRST_ROLL @ part for part in after_first)
        return np.maximum(moment - mean ** 2, 0.0)

    # -- the exact distributions, forward -----------------------------------------------------
    def turn_distribution(self, states: np.ndarray) -> np.ndarray:
        """dist[s, x]: the chance that the optimum still scores x points from each state."""
        solver, count = self.solver, len(states)
        turn = TurnChoices(solver, states)
        hands, columns = np.meshgrid(np.arange(len(dt.HANDS)), np.arange(count), indexing="ij")
        boxes = np.arange(solver.box_count)[:, None, None]
        # stopped[servida][box, h, s]: the chance that the turn ends filling box with hand h
        stopped = {servida: np.zeros((solver.box_count, len(dt.HANDS), count))
                   for servida in self.servida_kinds}
        mass = np.repeat(dt.FIRST_ROLL[:, None], count, axis=1)
        for rolls_made in (1, 2, 3):
            choice = turn.choose(rolls_made, hands.ravel(), columns.ravel()).reshape(hands.shape)
            servida = self.servida_kinds[-1] if rolls_made == 1 else 0
            stopped[servida] += (choice[None] == boxes) * mass
            if rolls_made < 3:
                keeping = choice >= solver.box_count
                keep = dt.SUBKEEPS[hands, np.where(keeping, choice - solver.box_count, 0)]
                kept = np.bincount((keep * count + columns).ravel(),
                                   weights=np.where(keeping, mass, 0.0).ravel(),
                                   minlength=len(dt.KEEPS) * count)
                mass = dt.TRANSITION.T @ kept.reshape(len(dt.KEEPS), count)
        return self.spread(states, turn, stopped)

    def spread(self, states, turn: TurnChoices, stopped) -> np.ndarray:
        """Each state's distribution from the chances of the ways its turn ends."""
        solver = self.solver
        parts = []
        for servida, chances in stopped.items():
            values = turn.stop_servida if servida else turn.stop_plain
            children = solver.box_children(states, servida)
            box, hand, column = np.nonzero(chances)
            child = children[box, hand, column]
            points = np.rint(values[box, hand, column] - solver.expected[child]).astype(np.int64)
            parts.append((column, self.exact_row[child], points, chances[box, hand, column]))
        column, row, points, chance = (np.concatenate(part) for part in zip(*parts))
        # one term per (state, sheet after, points), the chances of its ways added up
        key = (column * len(self.distributions) + row) * (self.most_a_turn + 1) + points
        key, where = np.unique(key, return_inverse=True)
        chance = np.bincount(where, weights=chance)
        points = key % (self.most_a_turn + 1)
        row = key // (self.most_a_turn + 1) % len(self.distributions)
        column = key // (self.most_a_turn + 1) // len(self.distributions)
        width = self.distributions.shape[1]
        shifted = np.arange(width)[None, :] - points[:, None]
        terms = np.where(shifted >= 0, self.distributions[row[:, None], np.maximum(shifted, 0)],
                         0.0) * chance[:, None]
        starts = np.searchsorted(column, np.arange(len(states)))
        return np.add.reduceat(terms, starts, axis=0)


def choosing(stop, after_next_roll):
    """(value, second moment) per hand of what the optimum does after a roll that is not the
    last: `stop`, the box it would fill, unless a keep is worth more (a box first between
    equals, as `TurnChoices.choose`), a keep being worth the mean of `after_next_roll` over
    the hands it may become."""
    value, moment = stop
    keep_value, keep_moment = (keep_values(part) for part in after_next_roll)
    best, chosen = best_keep_carrying(keep_value, keep_moment)
    keeping = value < best - TIE
    return np.where(keeping, best, value), np.where(keeping, chosen, moment)


def best_keep_carrying(values: np.ndarray, payload: np.ndarray):
    """`sheetsolver.best_keep` of keep values[k, s], with the payload[k, s] of the keep it
    finds: (best[h, s], that keep's payload[h, s])."""
    best, carried = values.copy(), payload.copy()
    for size in range(1, dt.DICE):
        these = KEEPS_OF_SIZE[size]
        best[these], carried[these] = largest_carrying(best, carried, ONE_DIE_LESS[size],
                                                       best[these], carried[these])
    first = HAND_ONE_DIE_LESS[:, 0]
    return largest_carrying(best, carried, HAND_ONE_DIE_LESS, best[first], carried[first])


def largest_carrying(values, payload, rows, out, out_payload):
    """(out, out_payload), out[j] raised to values[rows[j, i]] over i where that is larger by
    more than TIE, the payload following the value it belongs to."""
    for column in rows.T:
        candidate = values[column]
        larger = candidate > out + TIE
        np.copyto(out, candidate, where=larger)
        np.copyto(out_payload, payload[column], where=larger)
    return out, out_payload


def futures_for(solver: SheetSolver) -> Futures:
    """The futures of a solver's sheet, made on first use and kept (`FUTURES_KEPT`); a request
    does not make them but has them made (core.preparation)."""
    return prepared(FUTURES, solver, build_futures, "the win level's tables of this sheet")


def win_tables_ready(sheet: Sheet, values: Mapping[str, int]) -> None:
    """The solver of this sheet and values and its futures, which the `win` level reads, made
    off a request's path in one piece of work (one `503` to wait for, not one a part)."""
    built = has_solver(sheet, values) and solver_for(sheet, values) in FUTURES
    needed(built, ("win", solver_key(sheet, values)),
           lambda: futures_for(solver_for(sheet, values)), "the win level's tables of this sheet")


def build_futures(solver: SheetSolver) -> Futures:
    """The futures, read from the table store when it holds them."""
    name = f"futures-{solver.declaration.name}"
    stored = STORE.load(name, solver.fingerprint)
    futures = Futures(solver, stored)
    if stored is None:
        STORE.save(name, solver.fingerprint, futures.tables())
    return futures


FUTURES: BoundedMemo[SheetSolver, Futures] = BoundedMemo(FUTURES_KEPT)
