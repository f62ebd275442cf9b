"""The exact solitaire optimum of any declared dice sheet: the expected final score of a player
who plays every turn to maximise it (the `hard` level's measure), for a sheet declaration
(`referee.games.dice_sheets`) and its box values.

What the rest of the game depends on, besides which boxes are free, is the sheet's *state*:
  - with an upper bonus, the upper subtotal so far, capped at the threshold (beyond it, more
    points in the upper boxes change nothing more);
  - one flag per box whose full value other rules watch: Generala's box, which unlocks the
    Doble (`Unlock`), Yahtzee's, which earns the Yahtzee bonus (`RepeatBonus`).
A state is numbered `(upper << flag_count | flags) << boxes | filled`, filled being the set of
filled boxes as bits in sheet order. Only the states a game can reach are solved: an upper
subtotal the filled upper boxes can add up to, a flag only once its box is filled.
`expected[state]` is found by backward induction over the layers of states with 0, 1, ... free
boxes, a chunk of states at a time, the turn's three rolls and keeps as numpy tables over the
252 hands and 210 keeps (`keep_values`: rolling a die averages over its six faces, so a keep
of k dice is worth the mean of the six keeps of k + 1 dice it can become).

Rules as the solver reads them (scores from the sheet's own scorers, `scoring.SheetScoring`, so
the tables cannot disagree with the engine about what a box is worth):
  - the upper bonus is paid by the box that reaches the threshold;
  - the repeat bonus (Yahtzee's 100) is paid for a five of a kind rolled while its box holds
    its value, whatever box the hand then fills;
  - a joker (`Joker`: a five of a kind once the Yahtzee box is filled) fills the boxes the
    declaration's reading allows (`Sheet.joker_boxes`), at full value once the number box of
    its face is filled (`Sheet.joker_scores_full`).

Measured (`python -m bench.sheets` prints it, with times and memory): Generala 162.4695, state
by state the same as Generala's own solver; Yacht 166.9551; Yahtzee without its Yahtzee bonus
and joker 245.8708 (published: 245.87); Yahtzee under the American rules 254.5877 with the
official forced joker (`YAHTZEE`) and 254.5896 with the free choice of Verhoeff's player
(`YAHTZEE_FREE_JOKER`), Verhoeff's published 254.5896: both 254.59 to two decimals. Yahtzee's
536,448 reachable states (of 1,048,576 numbered) take about 6 s of CPU and 26 MB at peak.

`solver_for` keeps the solvers of a few sheets and values (core.preparation), their expected
values filed in the table store (core.tables) so that a later process reads them back;
`hard_choices` says what the optimum plays at a state (`sheetplay` plays games by
`TurnChoices`). The `win` level reads the optimum's futures (`sheetfutures`, `sheetwin`). Not
here (see `solver` for Generala's): a house rule that ends a match at once.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from referee.core.memo import BoundedMemo
from referee.core.preparation import prepared
from referee.core.tables import STORE, source_fingerprint
from referee.games import dice_sheets
from referee.games.dice_sheets.declaration import Sheet

from . import dicetables as dt
from .scoring import HAND_COUNTS, SheetScoring

TIE = 1e-9  # choices this close are equally good: the earlier is played (turnplan's order)
CHUNK = 1024  # states solved at once: a few arrays of 252 x CHUNK floats
# A handful of sheets and box values are kept, each up to about 14 MB (Yahtzee's: its
# expected values over 2**20 numbered states, its reachable states, its joker tables).
SOLVERS_KEPT = 8
KEEPS_OF_SIZE = [np.array([k for k, keep in enumerate(dt.KEEPS) if len(keep) == size])
                 for size in range(dt.DICE)]


def one_die_more(size: int) -> np.ndarray:
    """[j, f]: the j-th keep of `size` dice with a die showing FACES[f] added, as a hand
    (HANDS) for keeps of four dice, else as a keep (KEEPS)."""
    index = dt.HAND_INDEX if size == dt.DICE - 1 else dt.KEEP_INDEX
    return np.array([[index[tuple(sorted(dt.KEEPS[k] + (face,)))] for face in dt.FACES]
                     for k in KEEPS_OF_SIZE[size]])


def one_die_less(multisets) -> np.ndarray:
    """[j]: the keeps left by putting back one die of the j-th multiset (padded by repeats)."""
    rows = [sorted({dt.KEEP_INDEX[m[:i] + m[i + 1:]] for i in range(len(m))}) for m in multisets]
    width = max(map(len, rows))
    return np.array([row + row[:1] * (width - len(row)) for row in rows])


ONE_DIE_MORE = [one_die_more(size) for size in range(dt.DICE)]
ONE_DIE_LESS = [None] + [one_die_less([dt.KEEPS[k] for k in KEEPS_OF_SIZE[size]])
                         for size in range(1, dt.DICE)]
HAND_ONE_DIE_LESS = one_die_less(dt.HANDS)
# the hands of five of a kind, by face
FIVE_OF_A_KIND_HANDS = np.array([dt.HAND_INDEX[(face,) * dt.DICE] for face in dt.FACES])


# Tables run hand-major (a row per hand or keep, a column per state) so that every lookup of a
# hand or keep copies a whole row of states at once.
def keep_values(hand_values: np.ndarray) -> np.ndarray:
    """keep[k, s]: the expected hand_values[h, s] after keeping KEEPS[k] and rolling the rest."""
    keep = np.empty((len(dt.KEEPS),) + hand_values.shape[1:])
    above = hand_values
    for size in reversed(range(dt.DICE)):
        more = ONE_DIE_MORE[size]
        total = above[more[:, 0]]
        for face in range(1, len(dt.FACES)):
            total += above[more[:, face]]
        keep[KEEPS_OF_SIZE[size]] = total / len(dt.FACES)
        above = keep
    return keep


def best_keep(keep_values: np.ndarray) -> np.ndarray:
    """best[h, s]: the largest keep_values[k, s] over the keeps k that HANDS[h] allows, found
    through the keeps one die smaller (the best below a keep is the best below those)."""
    best = keep_values.copy()
    for size in range(1, dt.DICE):
        these = KEEPS_OF_SIZE[size]
        best[these] = largest_of(best, ONE_DIE_LESS[size], best[these])
    return largest_of(best, HAND_ONE_DIE_LESS, best[HAND_ONE_DIE_LESS[:, 0]])


def largest_of(values: np.ndarray, rows: np.ndarray, out: np.ndarray) -> np.ndarray:
    """out[j] = the largest of out[j] and values[rows[j, i]] over i (one pass per column, no
    three-dimensional copy)."""
    for column in rows.T:
        np.maximum(out, values[column], out=out)
    return out


class TurnValues:
    """The values of a turn's choices for a batch of states, from best_plain[h, s] and
    best_servida[h, s] (the best box for hand h after a later roll / after the first one):
    keep_third[k, s] and keep_second[k, s] (keeping KEEPS[k] after the second / first roll)
    and start[s] (the turn before its first roll)."""

    def __init__(self, best_plain: np.ndarray, best_servida: np.ndarray):
        self.keep_third = keep_values(best_plain)
        after_second = np.maximum(best_plain, best_keep(self.keep_third))
        self.keep_second = keep_values(after_second)
        after_first = np.maximum(best_servida, best_keep(self.keep_second))
        self.start = dt.FIRST_ROLL @ after_first


class TurnChoices:
    """A turn's choices for a batch of states (columns), as the optimum plays them: the boxes'
    values stop_plain[box, h, s] and stop_servida[box, h, s] (`SheetSolver.box_table`) and the
    keeps' (`values`, a TurnValues)."""

    def __init__(self, solver: "SheetSolver", states: np.ndarray):
        self.box_count = solver.box_count
        self.stop_plain = solver.box_table(states, 0)
        self.stop_servida = solver.box_table(states, 1) if solver.servida else self.stop_plain
        self.values = TurnValues(self.stop_plain.max(axis=0), self.stop_servida.max(axis=0))

    def choose(self, rolls_made: int, hands: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """choice[g] after `rolls_made` rolls (1 to 3) showing hands[g] at the state of column
        columns[g]: a box (below box_count) or box_count plus the position of a keep in
        SUBKEEPS[hands[g]], as `turnplan.TurnPlan.choices` numbers them; the first within TIE
        of the best, boxes before keeps."""
        stops = self.stop_servida if rolls_made == 1 else self.stop_plain
        values = stops[:, hands, columns]
        top = values.max(axis=0)
        box = np.argmax(values >= top - TIE, axis=0)
        keeps = {1: self.values.keep_second, 2: self.values.keep_third}.get(rolls_made)
        if keeps is None:
            return box
        options = keeps[dt.SUBKEEPS[hands], columns[:, None]]
        best = np.maximum(top, options.max(axis=1))
        kept = np.argmax(options >= best[:, None] - TIE, axis=1)
        return np.where(top >= best - TIE, box, self.box_count + kept)


class SheetSolver:
    """`expected[state]` and `start` (the empty sheet's expected final score) of one sheet
    with these box values (`values`, as a game's options give them)."""

    def __init__(self, scoring: SheetScoring, values: dict[str, int],
                 expected: np.ndarray | None = None):
        """`expected`: the values a solver of the same sheet, values and code found before
        (`solver_for` keeps them in the table store); found again when not given."""
        sheet = self.declaration = scoring.declaration
        self.values = dict(values)
        self.boxes = scoring.boxes
        self.box_count = n = scoring.box_count
        hands = [tuple(hand) for hand in dt.HANDS]
        # points[servida, box, hand], the unlocked box scored as unlocked
        unlock = sheet.unlock
        opened = {unlock.by: values[unlock.by]} if unlock is not None else {}
        self.points = np.array([[[scoring.box_score(box, hand, servida, opened, values)
                                  for hand in hands] for box in self.boxes]
                                for servida in (False, True)], dtype=np.int64)
        # the hands grouped by what they score in each box: groups[servida][box] = (points, group)
        self.groups = [[np.unique(row, return_inverse=True) for row in self.points[servida]]
                       for servida in (0, 1)]
        self.servida = sheet.servida is not None
        upper = sheet.upper_bonus
        self.upper_boxes = {self.boxes.index(b) for b in upper.boxes} if upper else set()
        self.threshold = upper.threshold if upper else 0
        self.bonus = upper.amount if upper else 0
        repeat, joker = sheet.repeat_bonus, sheet.joker
        watched = [rule for rule in (unlock and unlock.by, repeat and repeat.box) if rule]
        self.watched = list(dict.fromkeys(self.boxes.index(name) for name in watched))
        self.held_value = {b: values[self.boxes[b]] for b in self.watched}
        self.flag_count = len(self.watched)
        self.unlocked_box = self.boxes.index(unlock.box) if unlock else -1
        self.unlock_flag = self.flag_of(unlock.by) if unlock else 0
        self.repeat_flag = self.flag_of(repeat.box) if repeat else 0
        self.repeat_amount = repeat.amount if repeat else 0
        self.joker_box = self.boxes.index(joker.box) if joker else -1
        if joker:
            faces = [HAND_COUNTS[h] for h in FIVE_OF_A_KIND_HANDS]
            # joker_points[box, face - 1], what a joker scores once it scores full values
            self.joker_points = np.array([[box.joker_points(counts, values.get(box.name))
                                           for counts in faces] for box in sheet.boxes])
            self.joker_allowed, self.joker_full = self.joker_tables()
        self.state_count = (self.threshold + 1) << self.flag_count << n
        self.layers = self.reachable_layers()
        self.expected = self.solve() if expected is None else expected

    def solve(self) -> np.ndarray:
        """expected[state], by backward induction over the layers of reachable states."""
        expected = self.expected = np.zeros(self.state_count)
        for layer in self.layers[1:]:
            for start in range(0, len(layer), CHUNK):
                chunk = layer[start:start + CHUNK]
                expected[chunk] = self.turn(chunk).start
        return expected

    @property
    def fingerprint(self) -> str:
        """What the solver's tables are computed from: the sheet, its values and the code of
        the dice games (`core.tables`)."""
        return table_fingerprint(self.declaration, self.values)

    @property
    def start(self) -> float:
        """The empty sheet's expected final score."""
        return float(self.expected[0])

    @property
    def reachable_count(self) -> int:
        return sum(len(layer) for layer in self.layers)

    def flag_of(self, name: str) -> int:
        """The flag bit of a watched box (as `flags` numbers them)."""
        return 1 << self.watched.index(self.boxes.index(name))

    def state_of(self, filled: dict[str, int]) -> int:
        """The state of a score sheet (box name -> points)."""
        mask = sum(1 << self.boxes.index(box) for box in filled)
        upper = min(self.threshold, sum(filled[self.boxes[b]] for b in self.upper_boxes
                                        if self.boxes[b] in filled))
        flags = sum(1 << i for i, b in enumerate(self.watched)
                    if self.held_value[b] > 0 and filled.get(self.boxes[b]) == self.held_value[b])
        return self.compose(upper, flags, mask)

    def compose(self, upper, flags, mask):
        return (upper << self.flag_count | flags) << self.box_count | mask

    def split(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(filled, upper, flags) of each state."""
        n = self.box_count
        rest = states >> n
        return states & ((1 << n) - 1), rest >> self.flag_count, rest & ((1 << self.flag_count) - 1)

    # -- which states a game reaches ------------------------------------------------------------
    def reachable_layers(self) -> list[np.ndarray]:
        """The reachable states, grouped by their number of free boxes."""
        n = self.box_count
        subtotals = self.upper_subtotals()
        upper_bits = sum(1 << b for b in self.upper_boxes)
        layers: list[list[np.ndarray]] = [[] for _ in range(n + 1)]
        for mask in range(1 << n):
            flag_sets = [0]
            for i, b in enumerate(self.watched):
                if mask >> b & 1 and self.held_value[b] > 0:
                    flag_sets += [flags | 1 << i for flags in flag_sets]
            uppers = np.array(sorted(subtotals[mask & upper_bits]))
            states = self.compose(uppers[:, None], np.array(flag_sets)[None, :], mask)
            layers[n - mask.bit_count()].append(states.ravel())
        return [np.concatenate(layer).astype(np.int64) for layer in layers]

    def upper_subtotals(self) -> dict[int, set[int]]:
        """The capped upper subtotals each set of filled upper boxes (as bits) can add up to."""
        possible = {b: set(self.points[:, b].ravel().tolist()) for b in self.upper_boxes}
        if self.joker_box >= 0:
            for b in self.upper_boxes:
                possible[b] |= set(self.joker_points[b].tolist())
        subtotals = {0: {0}}
        for size in range(1, len(self.upper_boxes) + 1):
            for chosen in itertools.combinations(sorted(self.upper_boxes), size):
                last, rest = chosen[-1], sum(1 << b for b in chosen[:-1])
                subtotals[rest | 1 << last] = {min(self.threshold, before + points)
                                               for before in subtotals[rest]
                                               for points in possible[last]}
        return subtotals

    def joker_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """For every set of filled boxes holding the Yahtzee box, and every face (in `Sheet`'s
        words): allowed[filled, face - 1, box], whether a joker may fill the box
        (`joker_boxes`), and full[filled, face - 1], whether it scores full values there
        (`joker_scores_full`)."""
        n = self.box_count
        allowed = np.zeros((1 << n, len(dt.FACES), n), dtype=bool)
        full = np.zeros((1 << n, len(dt.FACES)), dtype=bool)
        for mask in range(1 << n):
            if mask >> self.joker_box & 1:
                free = {name for b, name in enumerate(self.boxes) if not mask >> b & 1}
                for face in dt.FACES:
                    full[mask, face - 1] = self.declaration.joker_scores_full(face, free)
                    for name in self.declaration.joker_boxes(face, free):
                        allowed[mask, face - 1, self.boxes.index(name)] = True
        return allowed, full

    # -- one turn -------------------------------------------------------------------------------
    def turn(self, states: np.ndarray) -> TurnValues:
        plain = self.best_box(states, 0)
        return TurnValues(plain, self.best_box(states, 1) if self.servida else plain)

    def hard_choices(self, state: int) -> np.ndarray:
        """choice[r - 1, h]: the optimum's choice after r rolls showing hand h at this state
        (`TurnChoices.choose`): what the `hard` level plays."""
        turn = TurnChoices(self, np.array([state]))
        hands = np.arange(len(dt.HANDS))
        return np.stack([turn.choose(r, hands, np.zeros_like(hands)) for r in (1, 2, 3)])

    def best_box(self, states: np.ndarray, servida: int) -> np.ndarray:
        """best[h, s]: the best of `box_values` (states with a free box only)."""
        best = None
        for _, values in self.box_values(states, servida):  # each a new array: reused
            best = values if best is None else np.maximum(best, values, out=best)
        return best

    def box_table(self, states: np.ndarray, servida: int) -> np.ndarray:
        """value[box, h, s]: `box_values` laid out for every box."""
        table = np.full((self.box_count, len(dt.HANDS), len(states)), -np.inf)
        for box, values in self.box_values(states, servida):
            table[box] = values
        return table

    def box_children(self, states: np.ndarray, servida: int) -> np.ndarray:
        """child[box, h, s]: the state after filling `box` with hand h at state s (meaningless
        where box_table says -inf). A joker's points differ from its dice's own only in boxes
        outside the upper section, whose points no state counts, so the hand's own points
        give the state after a joker too."""
        filled, upper, flags = self.split(states)
        children = np.empty((self.box_count, len(dt.HANDS), len(states)), dtype=np.int64)
        for box in range(self.box_count):
            points, group = self.groups[servida][box]
            child = self.outcome(filled, upper, flags, box, points[:, None])[1]
            children[box] = np.broadcast_to(child, (len(points), len(states)))[group]
        return children

    def box_values(self, states: np.ndarray, servida: int):
        """(box, value[h, s]) for each box free somewhere among the states: what filling it
        with hand h at state s scores, bonuses included, plus what the sheet after still
        brings; -inf where the rules forbid it (a filled box, a box the joker's reading rules
        out)."""
        filled, upper, flags = self.split(states)
        jokers = np.nonzero(self.joker_applies(filled))[0]
        here = filled[jokers], upper[jokers], flags[jokers]
        repeat = self.repeat_bonus(flags)
        for box in range(self.box_count):
            closed = filled >> box & 1 == 1
            if closed.all():
                continue
            points, group = self.groups[servida][box]
            by_points = self.after(filled, upper, flags, box, points[:, None])
            by_points[:, closed] = -np.inf
            values = by_points[group]
            if len(jokers):
                joker = self.after(*here, box, self.joker_scores(here[0], box, servida))
                values[FIVE_OF_A_KIND_HANDS[:, None], jokers] = np.where(
                    self.joker_allowed[here[0], :, box].T, joker, -np.inf)
            if self.repeat_amount:
                values[FIVE_OF_A_KIND_HANDS] += repeat
            yield box, values

    def joker_applies(self, filled: np.ndarray) -> np.ndarray:
        """Whether a five of a kind is a joker (the Yahtzee box is filled), per state."""
        if self.joker_box < 0:
            return np.zeros(filled.shape, dtype=bool)
        return filled >> self.joker_box & 1 == 1

    def joker_scores(self, filled: np.ndarray, box: int, servida: int) -> np.ndarray:
        """points[face - 1, s]: what a joker of each face scores in `box` (full values or the
        dice's own, as `Sheet.joker_scores_full` says), at states where the joker applies."""
        return np.where(self.joker_full[filled].T, self.joker_points[box][:, None],
                        self.points[servida, box, FIVE_OF_A_KIND_HANDS][:, None])

    def repeat_bonus(self, flags: np.ndarray) -> np.ndarray:
        """What a five of a kind adds wherever it is scored, per state (`RepeatBonus`)."""
        return self.repeat_amount * ((flags & self.repeat_flag) != 0)

    def after(self, filled, upper, flags, box: int, points: np.ndarray) -> np.ndarray:
        """value[g, s]: filling `box` with points[g, s or 0] at state s (given split), the upper
        bonus included, plus the expected points of the sheet after."""
        reward, child = self.outcome(filled, upper, flags, box, points)
        return reward + self.expected[child]

    def outcome(self, filled, upper, flags, box: int, points: np.ndarray):
        """(reward, child): what filling `box` with `points` at a state (given split) scores,
        the upper bonus included, and the state after; shapes broadcast."""
        if box == self.unlocked_box:  # it scores only while the box it waits for is held
            points = points * ((flags & self.unlock_flag) != 0)
        reward, new_upper, new_flags = points, upper, flags
        if box in self.upper_boxes:
            new_upper = np.minimum(self.threshold, upper + points)
            reached = (upper < self.threshold) & (new_upper >= self.threshold)
            reward = points + self.bonus * reached
        if box in self.held_value:
            held = (points == self.held_value[box]) & (self.held_value[box] > 0)
            new_flags = flags | held * self.flag_of(self.boxes[box])
        return reward, self.compose(new_upper, new_flags, filled | 1 << box)


SolverKey = tuple[Sheet, tuple[tuple[str, int], ...]]
SOLVERS: BoundedMemo[SolverKey, SheetSolver] = BoundedMemo(SOLVERS_KEPT)


def solver_key(sheet: Sheet, values: Mapping[str, int]) -> SolverKey:
    return sheet, tuple(sorted(values.items()))


def has_solver(sheet: Sheet, values: Mapping[str, int]) -> bool:
    """Whether the solver of this sheet and values is made (and kept)."""
    return solver_key(sheet, values) in SOLVERS


def solver_for(sheet: Sheet, values: Mapping[str, int]) -> SheetSolver:
    """The solver of a sheet with these box values, built on first use and kept
    (`SOLVERS_KEPT`); a request does not build it but has it built (core.preparation)."""
    return prepared(SOLVERS, solver_key(sheet, values), build_solver,
                    "the exact tables of this sheet")


def build_solver(key: SolverKey) -> SheetSolver:
    """The solver, its expected values read from the table store when it holds them."""
    sheet, values = key
    name = f"sheet-{sheet.name}"
    fingerprint = table_fingerprint(sheet, dict(values))
    stored = STORE.load(name, fingerprint)
    solver = SheetSolver(SheetScoring(sheet), dict(values),
                         expected=None if stored is None else stored["expected"])
    if stored is None:
        STORE.save(name, fingerprint, {"expected": solver.expected})
    return solver


def table_fingerprint(sheet: Sheet, values: Mapping[str, int]) -> str:
    """The sheet as declared (its scorers by name), the values, and the source of the dice
    games' packages, digested."""
    declared = re.sub(r" at 0x[0-9a-f]+", "", repr(sheet))
    digest = hashlib.sha256(f"{declared}|{sorted(values.items())}|".encode())
    digest.update(dice_source().encode())
    return digest.hexdigest()


@functools.cache
def dice_source() -> str:
    """The digest of the dice games' source: this package's and the sheet declarations'."""
    return source_fingerprint(Path(__file__).parent, Path(dice_sheets.__file__).parent)
