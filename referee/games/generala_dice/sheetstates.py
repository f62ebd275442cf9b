"""A Generala sheet as the solver sees it: its *sheet state* (docs/rules/generala-dice.md,
clauses 9 to 11, 19 and 20).

Boxes hold no bonus and no Chance, so what a sheet will still earn depends only on which boxes
are free and on whether the Generala box holds its full value (that alone unlocks the Doble; a
Generala scratched for 0, or worth 0 under house values, never does). A sheet is therefore one
of 2**11 sets of filled boxes, times that one flag: an integer whose bit b is set when box b (in
sheet order) is filled and whose bit 11 is set when the Doble is unlocked. What the tables
depend on among a match's options (the box values and the instant-win house rule, not the
clock) is its `RuleKey`.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from referee.core.memo import BoundedMemo

from .hands import DICE
from .scoring import BOX_COUNT, BOXES, box_score
from .state import Options

BOX_BITS = {box: 1 << b for b, box in enumerate(BOXES)}
GENERALA = BOXES.index("generala")
DOBLE = BOXES.index("doble_generala")
UNLOCKED = 1 << BOX_COUNT
STATE_COUNT = 1 << (BOX_COUNT + 1)
FIVE_OF_A_KIND_HAND = (1,) * DICE
GENERALA_SCORES_KEPT = 256


@dataclasses.dataclass(frozen=True)
class RuleKey:
    """What the tables depend on among a match's options (not the clock)."""

    escalera: int
    full: int
    poker: int
    generala: int
    doble_generala: int
    servida_bonus: int
    servida_generala_wins: bool

    @classmethod
    def of(cls, options: Options | dict[str, Any]) -> "RuleKey":
        """From a match's options, as a view shows them (a dict) or as a state holds them."""
        if isinstance(options, dict):
            options = Options(**options)
        return cls(**{f.name: getattr(options, f.name) for f in dataclasses.fields(cls)})

    @functools.cached_property
    def values(self) -> dict[str, int]:
        """`Options.values` of these rules: read them, never change them."""
        return Options(**dataclasses.asdict(self)).values


def free_boxes(state: int) -> list[int]:
    return [b for b in range(BOX_COUNT) if not state >> b & 1]


def states_by_free_count() -> list[np.ndarray]:
    """Every meaningful sheet state, grouped by the number of free boxes (the Doble flag only
    where the Generala box is filled)."""
    layers: list[list[int]] = [[] for _ in range(BOX_COUNT + 1)]
    for mask in range(1 << BOX_COUNT):
        free = BOX_COUNT - bin(mask).count("1")
        layers[free].append(mask)
        if mask >> GENERALA & 1:
            layers[free].append(mask | UNLOCKED)
    return [np.array(layer, dtype=np.int64) for layer in layers]


LAYERS = states_by_free_count()


def unlocks(rules: RuleKey, generala: int) -> bool:
    """Whether a Generala box holding these points lets a five of a kind score the Doble."""
    return UNLOCKING.get((rules, generala), doble_scores)


def doble_scores(key: tuple[RuleKey, int]) -> bool:
    rules, generala = key
    return box_score("doble_generala", FIVE_OF_A_KIND_HAND, False, {"generala": generala},
                     rules.values) > 0


UNLOCKING: BoundedMemo[tuple[RuleKey, int], bool] = BoundedMemo(GENERALA_SCORES_KEPT)


def sheet_state(sheet: dict[str, int], rules: RuleKey) -> int:
    """The sheet state of a score sheet (box name -> points)."""
    state = sum(BOX_BITS[box] for box in sheet)
    if "generala" in sheet and unlocks(rules, sheet["generala"]):
        state |= UNLOCKED
    return state
