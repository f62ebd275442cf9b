"""The values of a Generala turn's choices: the recursion over its three rolls and the keeps
between them (docs/rules/generala-dice.md, clauses 1 to 5, 15 and 18).

Rules followed, in plain words: the first roll rolls all five dice; after it and after the
second, the player either fills a box or keeps any dice the hand allows (short of all five) and
rolls the rest; after the third he fills a box. A box filled after the first roll is servida.
Whatever a stop is worth (expected points for the `hard` level, a chance of winning for `win`),
the value of a hand after a roll is the better of its best box and its best keep:

  after the last roll      the best box
  with one roll left       the better of the best box and the best keep's expected value
  after the first roll     the same, with the servida bonus on the boxes that have one
  turn start               the first roll's hands weighed by their chances

Two choices within `TIE` of each other are equally good; the earlier in the order of
preference (a box before a keep, boxes in sheet order, keeps of fewer dice first) is chosen, so
every computation asking the same question gets the same answer.
"""

from __future__ import annotations

import numpy as np

from . import dicetables as dt

TIE = 1e-9
KEEP_CHOICES = dt.SUBKEEPS.shape[1]


def first_best(values: np.ndarray, axis: int = -1) -> np.ndarray:
    """Index of the first value within TIE of the largest along `axis`."""
    top = values.max(axis=axis, keepdims=True)
    return np.argmax(values >= top - TIE, axis=axis)


class TurnPlan:
    """The value of every choice of a turn, for a batch of sheet states.

    stop_plain[s, h, b], stop_servida[s, h, b]: filling box b with hand h after a later roll /
    after the first roll (-inf for a filled box), whatever a stop is worth; keep_third[s, k],
    keep_second[s, k]: keeping KEEPS[k] after the second roll / after the first roll; start[s]:
    the turn's value before its first roll (the turn's recursion, in `__init__`).
    `choices(rolls_made)` lays out every choice after that many rolls in the order of
    preference between equals: the boxes in sheet order, then the keeps the hand allows
    (SUBKEEPS order: fewer dice first)."""

    def __init__(self, stop_plain: np.ndarray, stop_servida: np.ndarray, first: np.ndarray):
        self.stop_plain = stop_plain
        self.stop_servida = stop_servida
        best_plain = stop_plain.max(axis=2)
        self.keep_third = best_plain @ dt.TRANSITION.T
        after_second = np.maximum(best_plain, dt.best_keep(self.keep_third))
        self.keep_second = after_second @ dt.TRANSITION.T
        after_first = np.maximum(stop_servida.max(axis=2), dt.best_keep(self.keep_second))
        self.start = after_first @ first

    def _parts(self, rolls_made: int) -> tuple[np.ndarray, np.ndarray | None]:
        """The boxes' values and the keeps' values (None after the last roll)."""
        if rolls_made == 1:
            return self.stop_servida, self.keep_second
        return self.stop_plain, self.keep_third if rolls_made == 2 else None

    def choices(self, rolls_made: int) -> np.ndarray:
        """values[s, h, c]: choice c (box c if c < the sheet's box count, else the keep
        SUBKEEPS[h, c - box count]) after `rolls_made` rolls (1 to 3) showing hand h."""
        stop, keep = self._parts(rolls_made)
        if keep is None:
            keeps = np.full(stop.shape[:2] + (KEEP_CHOICES,), -np.inf)
        else:
            keeps = keep[:, dt.SUBKEEPS]
        return np.concatenate([stop, keeps], axis=2)

    def decide(self, rolls_made: int) -> np.ndarray:
        """choice[s, h]: the first of `choices(rolls_made)[s, h]` within TIE of the best, found
        without laying every keep out beside the boxes."""
        stop, keep = self._parts(rolls_made)
        top = stop.max(axis=2)
        if keep is not None:
            top = np.maximum(top, dt.best_keep(keep))
        threshold = (top - TIE)[..., None]
        good_box = stop >= threshold
        box = np.argmax(good_box, axis=2)
        if keep is None:
            return box
        kept = dt.first_keep_reaching(keep, threshold[..., 0])
        return np.where(good_box.any(axis=2), box, stop.shape[2] + kept)

    def decide_hand(self, rolls_made: int, hand: int) -> int:
        """`decide(rolls_made)[0, hand]`, for one hand only."""
        return int(first_best(self.choices(rolls_made)[0, hand]))
