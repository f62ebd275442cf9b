"""Exact Generala for one player: the play that maximises the expected final score, and the
play that maximises the chance of winning (docs/rules/generala-dice.md; the turn's recursion is
`turnplan`, the sheet states `sheetstates`).

`Tables.expected[s]` is the exact expected number of points a player still scores from the
start of a turn at sheet state s, playing best. It is found by backward induction over the
sheets, from full ones (nothing more to score) to the empty one, and within a turn over the
252 hands, the rolls left and every keep (`turnplan.TurnPlan`).

Box values are options, so the tables are built per option set, on first use, and kept
(`tables_for`); building them takes a fraction of a second (`make bench` prints it), and the
`win` level's `hard_play` some seconds. Both are kept in the table store between processes
(referee.core.tables), filed under the option set and the dice games' source.

The house rule `servida_generala_wins` ends the match when a turn's first roll shows five of a
kind. No choice can bring that about or avoid it (a first roll always rolls all five dice and
every player has eleven turns), and when it happens the sheets no longer decide anything, so
under that rule the tables value a sheet for the matches that run to their end: every turn's
first roll is drawn among the 7,770 rolls that are not five of a kind. Expected scores are then
"expected final score, given that no servida Generala ends the match".

Scores come from the rules' own scorers (`scoring.box_score`) over the 252 hands, so the
tables cannot disagree with the engine about what a box is worth.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import numpy as np

from referee.core.memo import BoundedMemo
from referee.core.preparation import needed, prepared
from referee.core.tables import STORE

from . import dicetables as dt
from .scoring import BOX_COUNT, BOXES, box_score
from .sheetsolver import dice_source
from .sheetstates import (DOBLE, GENERALA, LAYERS, STATE_COUNT, UNLOCKED, RuleKey, free_boxes,
                          unlocks)
from .state import Options
from .turnplan import TurnPlan

DEFAULT_RULES = RuleKey.of(Options())
# Future-score distributions (the `win` level) hold one bucket per point up to this many
# points; house values that allow larger totals share a bucket between several points.
DISTRIBUTION_BUCKETS = 1024
PLANS_KEPT = 64
# A handful of option sets are kept (each up to about 20 MB once the `win` level has used it,
# most of it `hard_play`).
TABLES_KEPT = 8


StopLayout = tuple[np.ndarray, np.ndarray, np.ndarray]


@dataclasses.dataclass
class HardPlay:
    """The `hard` policy for every sheet state, and what it leads to.

    row[state]: the row of a sheet state in the arrays below (-1 for a meaningless state);
    choice[row, r - 1, h]: the choice (as `TurnPlan.choices` numbers them) after r rolls
    showing hand h; future[row, x]: the chance that the sheet still scores x * scale points
    (exactly x points when scale is 1, which the default values give)."""

    row: np.ndarray
    choice: np.ndarray
    future: np.ndarray
    scale: int

    def bucket(self, points) -> Any:
        return np.rint(np.asarray(points) / self.scale).astype(np.int64)


@dataclasses.dataclass
class Outcome:
    """How a box sorts the 252 hands by what they score there: points[g] for the hands of
    group g (hands[:, g] is 1 for them), and whether that fills the Generala box so that it
    unlocks the Doble (unlocks[g])."""

    points: np.ndarray
    hands: np.ndarray
    group: np.ndarray
    unlocks: np.ndarray

    @classmethod
    def of(cls, points: np.ndarray, unlocking: np.ndarray) -> "Outcome":
        values, group = np.unique(points, return_inverse=True)
        hands = (group[:, None] == np.arange(len(values))).astype(float)
        unlocks = np.array([unlocking[group == g].any() for g in range(len(values))])
        return cls(values, hands, group, unlocks)


class Tables:
    """Everything the solver knows for one option set (see the module's docstring)."""

    def __init__(self, rules: RuleKey):
        self.rules = rules
        values = rules.values
        self.points = self._points(values)
        # unlocking[servida, hand]: filling the Generala box with this hand unlocks the Doble
        self.unlocking = np.array([[unlocks(rules, int(p)) for p in row]
                                   for row in self.points[:, GENERALA]])
        first = dt.FIRST_ROLL.copy()
        if rules.servida_generala_wins:
            first[dt.FIVE_OF_A_KIND] = 0.0
            first /= first.sum()
        self.first = first
        self.max_total = int(self.points.max(axis=(0, 2)).sum())
        self.outcomes = [[Outcome.of(self.points[servida, box], self.unlocking[servida]
                                     if box == GENERALA else np.zeros(len(dt.HANDS), bool))
                          for box in range(BOX_COUNT)] for servida in (0, 1)]
        # groups[unlocked, servida, box, hand]: the hand's outcome group in that box (a locked
        # Doble has one: nothing)
        self.groups = np.array([[[o.group for o in row] for row in self.outcomes]] * 2)
        self.groups[0, :, DOBLE] = 0
        self.fingerprint = tables_fingerprint(rules)
        self.expected = STORE.kept("generala-expected", self.fingerprint,
                                   lambda: {"expected": self._expected_values()})["expected"]
        self._hard_play: HardPlay | None = None
        self._plans: BoundedMemo[int, TurnPlan] = BoundedMemo(PLANS_KEPT)
        self._choices: BoundedMemo[int, np.ndarray] = BoundedMemo(STATE_COUNT)
        self._layouts: BoundedMemo[int, StopLayout] = BoundedMemo(STATE_COUNT)

    def _expected_values(self) -> np.ndarray:
        expected = self.expected = np.zeros(STATE_COUNT)  # what `plan` reads as it fills it
        for layer in LAYERS[1:]:
            expected[layer] = self.plan(layer).start  # from the layers filled before
        return expected

    @staticmethod
    def _points(values: dict[str, int]) -> np.ndarray:
        """points[servida, box, hand]; the Doble's row as scored with the Doble unlocked."""
        unlocked = {"generala": values["generala"]}
        return np.array([[[box_score(box, hand, servida, unlocked, values) for hand in dt.HANDS]
                          for box in BOXES] for servida in (False, True)], dtype=np.int64)

    # -- one box ------------------------------------------------------------------------------
    def box_points(self, states: np.ndarray, box: int, servida: bool) -> np.ndarray:
        """Points each hand (columns) scores in `box` for each sheet state (rows); one row
        for all states when the state does not matter."""
        row = self.points[int(servida), box][None, :]
        if box == DOBLE:
            return row * (states & UNLOCKED != 0)[:, None]
        return row

    def box_children(self, states: np.ndarray, box: int, servida: bool) -> np.ndarray:
        """The sheet state after filling `box`, per state (rows) and, where the hand matters
        (the Generala box unlocks the Doble or not), per hand (columns)."""
        child = (states | 1 << box)[:, None]
        if box == GENERALA:
            return np.where(self.unlocking[int(servida)][None, :], child | UNLOCKED, child)
        return child

    def box_values(self, states: np.ndarray, box: int, servida: bool,
                   future: np.ndarray) -> np.ndarray:
        """What stopping in `box` is worth per state and hand: its points plus `future` of the
        sheet after; -inf where the box is already filled."""
        closed = np.where(states >> box & 1 == 1, -np.inf, 0.0)[:, None]
        return (self.box_points(states, box, servida)
                + future[self.box_children(states, box, servida)] + closed)

    def stop_values(self, states: np.ndarray, servida: bool, future: np.ndarray) -> np.ndarray:
        """stop[state, hand, box]: the value of filling each box now."""
        return np.stack([self.box_values(states, b, servida, future) for b in range(BOX_COUNT)],
                        axis=2)

    # -- the hard policy ----------------------------------------------------------------------
    def plan(self, states: np.ndarray) -> TurnPlan:
        """The turn of the best expected score, from these sheet states; values are points
        still to score, this turn's included."""
        return TurnPlan(self.stop_values(states, False, self.expected),
                        self.stop_values(states, True, self.expected), self.first)

    def state_plan(self, state: int) -> TurnPlan:
        """`plan` of one sheet state; the plans of the states met lately are kept (a turn asks
        up to three times)."""
        return self._plans.get(state, lambda _: self.plan(np.array([state])))

    def hard_choices(self, state: int) -> np.ndarray:
        """choice[r - 1, h]: the `hard` choice after r rolls showing hand h at this sheet
        state. Read from `hard_play` once that is built (simulations build it first), else
        worked out from the state's own plan and kept (3 x 252 small numbers per state): the
        same `TurnPlan.decide` over the same values either way."""
        if self._hard_play is not None:
            return self._hard_play.choice[self._hard_play.row[state]]
        return self._choices.get(state, self.state_hard_choices)

    def state_hard_choices(self, state: int) -> np.ndarray:
        plan = self.state_plan(state)
        return np.stack([plan.decide(r)[0] for r in (1, 2, 3)]).astype(np.int8)

    @property
    def has_hard_play(self) -> bool:
        return self._hard_play is not None

    @property
    def hard_play(self) -> HardPlay:
        """Built on first use, for the `win` level and simulations: a hint at the other levels
        needs no more than `expected` and one `plan`."""
        if self._hard_play is None:
            arrays = STORE.kept("generala-hard-play", self.fingerprint,
                                lambda: vars(self._build_hard_play()))
            self._hard_play = HardPlay(arrays["row"], arrays["choice"], arrays["future"],
                                       int(arrays["scale"]))
        return self._hard_play

    def _build_hard_play(self, chunk: int = 256) -> HardPlay:
        order = np.concatenate(LAYERS)
        row = np.full(STATE_COUNT, -1, dtype=np.int64)
        row[order] = np.arange(len(order))
        scale = max(1, -(-self.max_total // (DISTRIBUTION_BUCKETS - 1)))
        width = round(self.max_total / scale) + BOX_COUNT + 1  # room for rounding per box
        play = HardPlay(row, np.zeros((len(order), 3, len(dt.HANDS)), dtype=np.int8),
                        np.zeros((len(order), width), dtype=np.float32), scale)
        play.future[row[LAYERS[0]], 0] = 1.0
        for layer in LAYERS[1:]:
            for start in range(0, len(layer), chunk):
                states = layer[start:start + chunk]
                self._hard_play_of(states, play, width)
        return play

    def _hard_play_of(self, states: np.ndarray, play: HardPlay, width: int) -> None:
        """Fills the choices and future-score distributions of `states`, whose successors
        are filled already: the turn's hands are followed forward from the first roll."""
        count = len(states)
        plan = self.plan(states)
        choice = np.stack([plan.decide(r) for r in (1, 2, 3)], axis=1)
        play.choice[play.row[states]] = choice
        # stopped[servida, s, h, box]: the chance the turn ends filling box with hand h
        stopped = np.zeros((2, count, len(dt.HANDS), BOX_COUNT))
        mass = np.broadcast_to(self.first, (count, len(dt.HANDS)))
        hands = np.arange(len(dt.HANDS))[None, :]
        for rolls_made in (1, 2, 3):
            made = choice[:, rolls_made - 1]
            filled = made[..., None] == np.arange(BOX_COUNT)
            stopped[int(rolls_made == 1)] += filled * mass[..., None]
            if rolls_made < 3:
                is_box = made < BOX_COUNT
                keep = dt.SUBKEEPS[hands, np.where(is_box, 0, made - BOX_COUNT)]
                flat = np.arange(count)[:, None] * len(dt.KEEPS) + keep
                kept = np.bincount(flat.ravel(), weights=np.where(is_box, 0.0, mass).ravel(),
                                   minlength=count * len(dt.KEEPS))
                mass = kept.reshape(count, len(dt.KEEPS)) @ dt.TRANSITION
        future = np.zeros((count, width))
        locked = states & UNLOCKED == 0
        for servida in (0, 1):
            for box in range(BOX_COUNT):
                outcome = self.outcomes[servida][box]
                shares = stopped[servida, :, :, box] @ outcome.hands
                for g, p in enumerate(outcome.points):
                    child = states | 1 << box | (UNLOCKED if outcome.unlocks[g] else 0)
                    shift = int(play.bucket(p))
                    # a locked Doble scores nothing, whatever the hand
                    shifts = ((shift, ~locked), (0, locked)) if box == DOBLE else ((shift, True),)
                    for value, where in shifts:
                        rows = np.nonzero(where & (shares[:, g] > 0))[0]
                        after = play.future[play.row[child[rows]], :width - value]
                        future[rows, value:] += shares[rows, g, None] * after
        play.future[play.row[states]] = future

    # -- the win level ------------------------------------------------------------------------
    def win_plan(self, state: int, total: int, opponents: list[tuple[int, int]]) -> TurnPlan:
        """The turn that maximises the chance of winning, for a player at sheet `state` with
        `total` points, against `opponents` (sheet state, total) who are between turns.

        Every later turn, his own included, is taken to follow the `hard` policy, whose exact
        future-score distributions the tables hold (`hard_play`); this turn's choices are then
        the best against those: one step of policy improvement over `hard`, so never worse
        than it. A tie on top counts half: value = P(no one above) + P(no one level) halved.
        The opponents' futures are independent of his, so their final scores combine by
        products of their distribution functions.
        """
        play = self.hard_play
        width = play.future.shape[1]
        span = 3 * width
        at_most = np.ones(span)
        below = np.ones(span)
        for their_state, their_total in opponents:
            final = np.zeros(span)
            shift = int(play.bucket(their_total))
            final[shift:shift + width] = play.future[play.row[their_state]]
            cumulative = np.cumsum(final)
            at_most *= cumulative
            below *= np.concatenate([[0.0], cumulative[:-1]])
        # windows[z, x]: the chance of winning with z + x points in all
        windows = np.lib.stride_tricks.sliding_window_view((at_most + below) / 2, width)
        rows, shifts, first_outcome = self._layouts.get(state, self.stop_layout)
        after = windows[int(play.bucket(total)) + shifts]
        chances = np.append((play.future[rows] * after).sum(axis=1), -np.inf)
        # outcome[servida, box, hand]: the first outcome of the box plus the hand's group
        groups = self.groups[int(state & UNLOCKED != 0)]
        outcome = first_outcome[:, :, None] + groups
        outcome[first_outcome < 0] = len(rows)  # a filled box: worth -inf
        stops = chances[outcome].transpose(0, 2, 1)
        return TurnPlan(stops[0][None], stops[1][None], self.first)

    def stop_layout(self, state: int) -> StopLayout:
        """Where filling each box can lead from this sheet state, one outcome per group of
        hands scoring alike (`Outcome`): the `hard_play` rows of the sheets after and the
        points scored (in buckets); and the number of each box's first outcome, per servida
        flag (-1 for a filled box). `win_plan` keeps it per state (a few hundred bytes), since
        a `win` player meets the same sheets again and again."""
        play = self.hard_play
        rows: list[int] = []
        shifts: list[int] = []
        first_outcome = np.full((2, BOX_COUNT), -1, dtype=np.intp)
        for servida in (0, 1):
            for box in free_boxes(state):
                outcome = self.outcomes[servida][box]
                if box == DOBLE and not state & UNLOCKED:  # a locked Doble scores nothing
                    points, unlocks = [0], [False]
                else:
                    points, unlocks = outcome.points, outcome.unlocks
                first_outcome[servida, box] = len(rows)
                for p, unlock in zip(points, unlocks):
                    rows.append(play.row[state | 1 << box | (UNLOCKED if unlock else 0)])
                    shifts.append(int(play.bucket(p)))
        return np.array(rows), np.array(shifts), first_outcome


def tables_fingerprint(rules: RuleKey) -> str:
    """What the tables of an option set are filed under: its box values and house rules,
    and the source of the dice games' packages, digested."""
    return hashlib.sha256(f"{rules!r}|{dice_source()}".encode()).hexdigest()


def tables_for(rules: RuleKey) -> Tables:
    """The tables of an option set, built on first use and kept (`TABLES_KEPT`); a request
    does not build them but has them built (core.preparation)."""
    return prepared(TABLES, rules, Tables, "the hint tables for these box values")


TABLES: BoundedMemo[RuleKey, Tables] = BoundedMemo(TABLES_KEPT)


def win_tables_for(rules: RuleKey) -> Tables:
    """`tables_for`, with the `hard_play` the `win` level reads (some seconds more to build
    than the rest) built: both off a request's path, in one piece of work (one `503` to wait
    for, not one a part)."""
    built = rules in TABLES and tables_for(rules).has_hard_play
    needed(built, ("win", rules), lambda: tables_for(rules).hard_play,
           "the win level's tables for these box values")
    return tables_for(rules)
