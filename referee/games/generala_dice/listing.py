"""The moves a Generala player may make, listed from tables made once per player
(docs/rules/generala-dice.md, clauses 1 to 6).

Rules listed, in plain words: before a turn's first roll only the roll of all five dice; after
a roll and before the third, a roll keeping any dice the roll shows short of all five (each
distinct keep once, fewer dice first, then by value); after any roll, the score of each free
box in sheet order.

Every roll (one per keep) and every score move of a player is a dict made once; the roll moves
each hand allows and the score moves left by each set of filled boxes (at most 2,048 sets,
each listed when first met) are tuples of them. A listing shares these, and callers only read
them (see `referee.core.engine`). A server sees few players at once, so a bounded memo keeps
the tables of the ones seen lately, per sheet (the boxes come from the sheet the match plays).
"""

from __future__ import annotations

from referee.core.engine import Move
from referee.core.memo import BoundedMemo

from .hands import HAND_KEEPS, KEEPS
from .scoring import SheetScoring

PLAYERS_KEPT = 64
# The score moves left, by filled boxes, kept for so many sets a player: a match meets one
# set a turn, and keeping all (8,192 for a sheet of 13 boxes, 6 MB a player) would let
# states posted with made-up sheets grow a worker by 400 MB over its 64 players.
FILLED_SETS_KEPT = 256


class PlayerMoves:
    """One player's moves on a sheet: `first_roll`, `rolls[hand]` (the rolls that hand allows)
    and `scores_left(filled)` (the score moves left by a frozenset of filled boxes)."""

    __slots__ = ("_scores_left", "boxes", "first_roll", "rolls", "score")

    def __init__(self, seat: tuple[str, SheetScoring]) -> None:
        player, sheet = seat
        self.boxes = sheet.boxes
        roll = {keep: {"type": "roll", "player": player, "keep": [*keep]} for keep in KEEPS}
        self.first_roll = (roll[()],)  # the first roll rolls all five dice
        self.rolls = tuple(tuple(roll[keep] for keep in keeps) for keeps in HAND_KEEPS)
        self.score = {box: {"type": "score", "player": player, "box": box} for box in self.boxes}
        self._scores_left: BoundedMemo[frozenset[str], tuple[Move, ...]] = BoundedMemo(
            FILLED_SETS_KEPT)

    def scores_left(self, filled: frozenset[str]) -> tuple[Move, ...]:
        return self._scores_left.get(filled, self.list_scores_left)

    def list_scores_left(self, filled: frozenset[str]) -> tuple[Move, ...]:
        return tuple(self.score[b] for b in self.boxes if b not in filled)


PLAYER_MOVES: BoundedMemo[tuple[str, SheetScoring], PlayerMoves] = BoundedMemo(PLAYERS_KEPT)


def moves_of(player: str, sheet: SheetScoring) -> PlayerMoves:
    return PLAYER_MOVES.get((player, sheet), PlayerMoves)
