"""Four ways to play a Generala turn, one per hint level (see `hints`), from what a player
sees (`Table`): `easy`, `medium`, `hard` (the solver's `Tables.hard_choices`) and `win`
(`Tables.win_plan`).

A strategy answers a `Choice` for a turn with at least one roll made: fill a box, or roll
again keeping some dice. It sees the options, every sheet, the rolls made and the dice, as any
player at the table does, and nothing else; the same table always gives the same choice.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable

import numpy as np

from referee.core.memo import BoundedMemo

from . import dicetables as dt
from .hands import MAX_ROLLS
from .scoring import BOX_COUNT, BOXES, ESCALERAS, FACE_BOXES, box_score
from .sheetstates import RuleKey, sheet_state, unlocks
from .solver import tables_for, win_tables_for
from .turnplan import TurnPlan

BOX_OF_FACE = {face: box for box, face in FACE_BOXES.items()}


@dataclasses.dataclass(frozen=True)
class Table:
    """What the player to act sees: options, every sheet in seat order, whose seat is his,
    how many rolls he has made this turn (1 to 3) and his dice (sorted)."""

    rules: RuleKey
    sheets: tuple[dict[str, int], ...]
    seat: int
    rolls: int
    dice: tuple[int, ...]

    @property
    def sheet(self) -> dict[str, int]:
        return self.sheets[self.seat]

    @property
    def free(self) -> list[str]:
        return [box for box in BOXES if box not in self.sheet]

    @property
    def servida(self) -> bool:
        return self.rolls == 1

    def points(self, box: str) -> int:
        """What the dice score in `box` now, by the rules' own scorer."""
        return box_score(box, self.dice, self.servida, self.sheet, self.rules.values)


@dataclasses.dataclass(frozen=True)
class Choice:
    """Fill `box`, or (box None) roll the dice not in `keep`."""

    box: str | None = None
    keep: tuple[int, ...] = ()

    def describe(self) -> str:
        if self.box is not None:
            return f"fill {self.box}"
        if not self.keep:
            return "roll all five dice"
        return f"keep {'-'.join(map(str, self.keep))} and roll {dt.DICE - len(self.keep)}"


Strategy = Callable[[Table], Choice]


def choice_of(index: int, hand: int) -> Choice:
    """The `Choice` a solver choice number stands for (see `TurnPlan.choices`)."""
    if index < BOX_COUNT:
        return Choice(box=BOXES[index])
    return Choice(keep=dt.KEEPS[dt.SUBKEEPS[hand, index - BOX_COUNT]])


def choice_index(choice: Choice, hand: int) -> int:
    """The solver's number for `choice` with this hand."""
    if choice.box is not None:
        return BOXES.index(choice.box)
    keep = dt.keep_index(choice.keep)
    return BOX_COUNT + int(np.flatnonzero(dt.SUBKEEPS[hand] == keep)[0])


# -- hard and win ------------------------------------------------------------------------------
def hard(table: Table) -> Choice:
    """The choice of the highest expected final score (`Tables.hard_choices`)."""
    tables = tables_for(table.rules)
    hand = dt.hand_index(table.dice)
    state = sheet_state(table.sheet, table.rules)
    return choice_of(int(tables.hard_choices(state)[table.rolls - 1, hand]), hand)


def win(table: Table) -> Choice:
    """The choice of the best chance to finish on top (`Tables.win_plan`)."""
    hand = dt.hand_index(table.dice)
    return choice_of(win_plan(table).decide_hand(table.rolls, hand), hand)


def win_plan(table: Table) -> TurnPlan:
    """`Tables.win_plan` for the player's sheet state and total against the others', in seat
    order. A turn asks up to three times with the same sheets: the plan is made once. The
    plans are remembered by option set, not by its tables: a plan kept must not keep alive
    the tables (some 7 MB) of an option set that `tables_for` has let go."""
    rules = table.rules
    others = tuple((sheet_state(s, rules), sum(s.values()))
                   for seat, s in enumerate(table.sheets) if seat != table.seat)
    mine = (sheet_state(table.sheet, rules), sum(table.sheet.values()))
    return WIN_PLANS.get((rules, *mine, others), make_win_plan)


def make_win_plan(key: tuple[RuleKey, int, int, tuple[tuple[int, int], ...]]) -> TurnPlan:
    rules, state, total, opponents = key
    return win_tables_for(rules).win_plan(state, total, list(opponents))


WIN_PLANS: BoundedMemo[tuple, TurnPlan] = BoundedMemo(64)


# -- medium --------------------------------------------------------------------------------------
# What a club player expects a box to bring in a game, as a share of its value (combination
# boxes) or in points (number boxes): filling a box is worth its points less this par.
COMBINATION_PAR = {"escalera": 0.55, "full": 0.6, "poker": 0.45, "generala": 0.3,
                   "doble_generala": 0.04}
FACE_PAR = 2.6  # points per face: about two and a half dice of that face
# Turns left below which the five-of-a-kind boxes are worth less and less.
FIVE_OF_A_KIND_HORIZON = 6


def par(table: Table, box: str) -> float:
    if box in FACE_BOXES:
        return FACE_PAR * FACE_BOXES[box]
    if box == "doble_generala" and _doble_locked(table):
        return 0.0
    share = COMBINATION_PAR[box]
    if box == "doble_generala" and "generala" in table.sheet:
        share = COMBINATION_PAR["generala"]  # unlocked: one five of a kind away, like a Generala
    if box in ("generala", "doble_generala"):
        share *= min(1.0, len(table.free) / FIVE_OF_A_KIND_HORIZON)
    return share * table.rules.values[box]


def _doble_locked(table: Table) -> bool:
    return "generala" in table.sheet and not unlocks(table.rules, table.sheet["generala"])


def _best_box_by_par(table: Table) -> str:
    return max(table.free, key=lambda box: (table.points(box) - par(table, box),
                                            -BOXES.index(box)))


def _made(table: Table, boxes: tuple[str, ...]) -> Choice | None:
    """Filling the free box of `boxes` the dice score most in, if they score in any."""
    made = [box for box in boxes if box in table.free and table.points(box) > 0]
    return Choice(box=max(made, key=table.points)) if made else None


def _useful_faces(table: Table) -> set[int]:
    """Faces worth collecting: their number box is free, or a box of a kind is."""
    free = set(table.free)
    if free & {"poker", "generala", "full"} or ("doble_generala" in free
                                                and not _doble_locked(table)):
        return set(dt.FACES)
    return {face for face, box in BOX_OF_FACE.items() if box in free}


def _straight_draw(table: Table) -> tuple[int, ...] | None:
    """Four different dice of one of the sheet's runs, when the Escalera box is free."""
    if "escalera" not in table.free:
        return None
    present = set(table.dice)
    best = max(ESCALERAS, key=lambda run: (len(run & present), sorted(run)))
    if len(best & present) >= 4:
        return tuple(sorted(best & present))[:4]
    return None


def medium(table: Table) -> Choice:
    """A club player's rules of thumb, in this order:

    1. Five of a kind goes in the Generala box, or in the Doble once it is unlocked.
    2. Four of a kind with the Generala (or an unlocked Doble) free: keep the four and roll
       the fifth, even when a servida Póker is on the table.
    3. After the first roll, a made Escalera, Full or Póker is taken at once for the servida
       bonus; after a later roll a made Escalera, Full or Póker too.
    4. Four different dice of a run with the Escalera free: keep them and roll the odd one,
       unless a pair or better shows of a face whose number box is free.
    5. Two pairs with the Full free: keep both pairs.
    6. Otherwise keep every die of the face still worth collecting that shows most often, a
       free number box counting as one die more, the higher face on a tie; with no such face,
       roll all five.
    7. After the last roll, fill the box where the dice beat that box's par (what the box
       usually brings) by most; a bad hand so scratches the box whose par is lowest. The
       Generala's and the Doble's pars shrink as the turns run out.
    """
    # (only five of a kind scores in these boxes, and in one of them at a time)
    if made := _made(table, ("generala", "doble_generala")):
        return made
    free = set(table.free)
    counts = Counter(table.dice)
    face, count = max(counts.items(), key=lambda item: (item[1], item[0]))
    chasing_generala = "generala" in free or ("doble_generala" in free
                                              and not _doble_locked(table))
    if count >= 4 and chasing_generala and table.rolls < MAX_ROLLS:
        return Choice(keep=(face,) * 4)
    if made := _made(table, ("poker", "full", "escalera")):
        return made
    if table.rolls == MAX_ROLLS:
        return Choice(box=_best_box_by_par(table))
    draw = _straight_draw(table)
    if draw and not any(n >= 2 and BOX_OF_FACE[f] in free for f, n in counts.items()):
        return Choice(keep=draw)
    pairs = sorted(f for f, n in counts.items() if n == 2)
    if len(pairs) == 2 and "full" in free:
        return Choice(keep=tuple(sorted(pairs * 2)))
    useful = _useful_faces(table)
    collected = [(n + (BOX_OF_FACE[f] in free), f) for f, n in counts.items() if f in useful]
    if not collected:
        return Choice(keep=())
    _, f = max(collected)
    return Choice(keep=(f,) * min(counts[f], 4))


# -- easy ----------------------------------------------------------------------------------------
def easy(table: Table) -> Choice:
    """A beginner's habits:

    1. Any hand that scores in a free combination box (Generala, Doble, Póker, Full,
       Escalera) is written there at once, in the box that pays most.
    2. Otherwise he keeps every die showing his highest face and rolls the rest: big faces
       make big scores, he thinks, whatever boxes are left.
    3. After the last roll he writes the box that pays most now (the later box on a tie);
       when nothing pays, he crosses out the last free box of the sheet, the Doble first,
       then the Generala: the big boxes look out of reach.
    """
    if made := _made(table, ("generala", "doble_generala", "poker", "full", "escalera")):
        return made
    if table.rolls == MAX_ROLLS:
        return Choice(box=max(table.free, key=lambda b: (table.points(b), BOXES.index(b))))
    face = max(table.dice)
    return Choice(keep=(face,) * min(table.dice.count(face), 4))


STRATEGIES: dict[str, Strategy] = {"easy": easy, "medium": medium, "hard": hard, "win": win}
