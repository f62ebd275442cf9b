"""Five dice as numbers for the hint tables: the chances between the keeps and the hands that
`hands` numbers (the order the engine lists its moves). These tables do not depend on the
match's options; the box scores built on them do (`referee.games.generala_dice.solver`).

  TRANSITION[k, i]  the chance that keeping KEEPS[k] and rolling the rest gives HANDS[i]
  FIRST_ROLL[i]     the chance that a turn's first roll (all five dice) gives HANDS[i]
  SUBKEEPS[i]       the keeps a player holding HANDS[i] may choose, ascending, padded with 0
                    (the empty keep, always allowed), so a maximum over the row is the best keep

`best_keep` finds that maximum for many rows at once through the keeps one die smaller, four
times less work than a maximum over SUBKEEPS; `first_keep_reaching` finds the first allowed keep
worth a threshold without the padding.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np

from .hands import DICE, FACES, HAND_INDEX, HAND_KEEPS, HANDS, KEEP_INDEX, KEEPS, hand_index

__all__ = ["DICE", "FACES", "HANDS", "HAND_INDEX", "KEEPS", "KEEP_INDEX", "hand_index",
           "keep_index", "TRANSITION", "FIRST_ROLL", "SUBKEEPS", "FIVE_OF_A_KIND", "best_keep",
           "first_keep_reaching"]


def keep_index(keep) -> int:
    return KEEP_INDEX[tuple(sorted(keep))]


def _transition() -> np.ndarray:
    table = np.zeros((len(KEEPS), len(HANDS)))
    for k, keep in enumerate(KEEPS):
        rolled = DICE - len(keep)
        for faces in itertools.combinations_with_replacement(FACES, rolled):
            orders = math.factorial(rolled)  # the ordered rolls that show these faces
            for count in Counter(faces).values():
                orders //= math.factorial(count)
            table[k, hand_index(keep + faces)] += orders / 6 ** rolled
    return table


def _subkeeps() -> np.ndarray:
    rows = [sorted(KEEP_INDEX[k] for k in keeps) for keeps in HAND_KEEPS]
    width = max(map(len, rows))
    return np.array([row + [0] * (width - len(row)) for row in rows], dtype=np.intp)


def _one_die_less(multisets) -> np.ndarray:
    """For each multiset, the keeps left by putting back one of its dice (padded by repeats)."""
    rows = [sorted({KEEP_INDEX[m[:j] + m[j + 1:]] for j in range(len(m))}) for m in multisets]
    width = max(map(len, rows))
    return np.array([row + row[:1] * (width - len(row)) for row in rows], dtype=np.intp)


TRANSITION = _transition()
FIRST_ROLL = TRANSITION[KEEP_INDEX[()]].copy()
SUBKEEPS = _subkeeps()
# Hands of five of a kind, which some rules treat apart (Generala, the instant-win house rule).
FIVE_OF_A_KIND = np.array([len(set(hand)) == 1 for hand in HANDS])
_KEEPS_OF_SIZE = [np.array([k for k, keep in enumerate(KEEPS) if len(keep) == size], dtype=np.intp)
                  for size in range(DICE)]
_SMALLER_KEEPS = [None] + [_one_die_less([KEEPS[k] for k in _KEEPS_OF_SIZE[size]])
                           for size in range(1, DICE)]
_HAND_KEEPS = _one_die_less(HANDS)


def best_keep(keep_values: np.ndarray) -> np.ndarray:
    """best[:, i] = the largest keep_values[:, k] over the keeps k allowed with HANDS[i]."""
    best = keep_values.copy()
    for size in range(1, DICE):
        these = _KEEPS_OF_SIZE[size]
        best[:, these] = np.maximum(best[:, these], best[:, _SMALLER_KEEPS[size]].max(axis=2))
    return best[:, _HAND_KEEPS].max(axis=2)


# The allowed keeps of every hand one after another (SUBKEEPS without its padding): hand i's
# are _ALLOWED_KEEPS[_ALLOWED_START[i]:_ALLOWED_START[i + 1]], at SUBKEEPS positions 0, 1, ...
_ALLOWED_COUNT = [1 + int((row != 0).sum()) for row in SUBKEEPS]
_ALLOWED_START = np.concatenate([[0], np.cumsum(_ALLOWED_COUNT)[:-1]]).astype(np.intp)
_ALLOWED_KEEPS = np.concatenate([row[:n] for row, n in zip(SUBKEEPS, _ALLOWED_COUNT)])
_ALLOWED_HANDS = np.repeat(np.arange(len(HANDS)), _ALLOWED_COUNT)
_ALLOWED_POSITION = np.concatenate([np.arange(n) for n in _ALLOWED_COUNT])


def first_keep_reaching(keep_values: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    """position[:, i]: the first SUBKEEPS[i] position whose keep_values[:, k] reach
    threshold[:, i] (SUBKEEPS.shape[1] when none does)."""
    reached = keep_values[:, _ALLOWED_KEEPS] >= threshold[:, _ALLOWED_HANDS]
    positions = np.where(reached, _ALLOWED_POSITION, SUBKEEPS.shape[1])
    return np.minimum.reduceat(positions, _ALLOWED_START, axis=1)


for _table in (TRANSITION, FIRST_ROLL, SUBKEEPS, FIVE_OF_A_KIND):
    _table.flags.writeable = False
