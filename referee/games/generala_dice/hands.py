"""Five dice as table rows: the 252 hands, the 210 keeps, and what each hand allows and makes.

The order of the dice never matters to the rules, so a hand is one of the 252 multisets of five
faces and a keep (the dice held before a roll) one of the 210 multisets of zero to four faces.
Both are numbered in the order the engine lists its moves: fewer dice first, then by value.
Everything the engine asks of a roll (which keeps it allows, which combinations it makes, what
each face box counts) is read from these rows, worked out once here from the rules' own
predicates; the hint tables (`dicetables`, with numpy) are built on the same numbering.

  HANDS[i]         the i-th hand, a sorted 5-tuple
  HAND_OF[roll]    the index of the hand any ordered roll of five dice shows (7,776 rolls)
  KEEPS[k]         the k-th keep, a sorted tuple of 0 to 4 faces
  HAND_KEEPS[i]    the keeps a player holding HANDS[i] may choose, in KEEPS order
  HAND_HOLDS[i]    every sub-multiset of HANDS[i], all five dice included, as a frozenset
"""

from __future__ import annotations

import itertools
from collections import Counter

FACES = (1, 2, 3, 4, 5, 6)
DICE = 5
MAX_ROLLS = 3  # rolls in a turn

HANDS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations_with_replacement(FACES, DICE))
HAND_INDEX: dict[tuple[int, ...], int] = {hand: i for i, hand in enumerate(HANDS)}
HAND_OF: dict[tuple[int, ...], int] = {
    roll: HAND_INDEX[tuple(sorted(roll))] for roll in itertools.product(FACES, repeat=DICE)}
KEEPS: tuple[tuple[int, ...], ...] = tuple(
    keep for size in range(DICE) for keep in itertools.combinations_with_replacement(FACES, size))
KEEP_INDEX: dict[tuple[int, ...], int] = {keep: k for k, keep in enumerate(KEEPS)}


def hand_index(dice) -> int:
    return HAND_INDEX[tuple(sorted(dice))]


def sub_multisets(dice) -> list[tuple[int, ...]]:
    """Every multiset of dice that can be held out of `dice`, all of them included, each as a
    sorted tuple."""
    results: list[tuple[int, ...]] = [()]
    for face, count in sorted(Counter(dice).items()):
        results = [r + (face,) * n for r in results for n in range(count + 1)]
    return results


def allowed_keeps(dice) -> list[tuple[int, ...]]:
    """The keeps a roll allows: what the dice hold, short of all five (at least one die rolls),
    fewer dice first, then by value."""
    return sorted((r for r in sub_multisets(dice) if len(r) < DICE), key=lambda r: (len(r), r))


HAND_KEEPS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(allowed_keeps(hand)) for hand in HANDS)
HAND_HOLDS: tuple[frozenset[tuple[int, ...]], ...] = tuple(
    frozenset(sub_multisets(hand)) for hand in HANDS)
