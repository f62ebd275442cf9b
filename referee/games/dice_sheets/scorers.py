"""What five dice score in a box of a dice sheet, each rule written once as a small function of
the dice's counts (`counts[f]` is the number of dice showing face f, for f in 1..6).

Two kinds: a *pattern* says whether the dice make a combination (a box of fixed value pays its
value then, else 0), a *scorer* says how many points the dice are worth (a number box, Chance,
Yacht's Four of a Kind). Those that take a parameter are frozen records, so a sheet declaration
holding them compares, hashes and prints by value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

FACES = (1, 2, 3, 4, 5, 6)
Counts = tuple[int, ...]  # counts[0] unused, counts[f] the dice showing face f
Pattern = Callable[[Counts], bool]
Scorer = Callable[[Counts], int]


def counts_of(dice: Iterable[int]) -> Counts:
    counts = [0] * 7
    for face in dice:
        counts[face] += 1
    return tuple(counts)


# -- patterns ------------------------------------------------------------------------------------
def anything(counts: Counts) -> bool:
    """Every hand makes it (Chance, the number boxes)."""
    return True


def full_house(counts: Counts) -> bool:
    """Three of one face and two of another: five of a kind is not a full house."""
    return sorted(c for c in counts if c) == [2, 3]


def five_of_a_kind(counts: Counts) -> bool:
    return 5 in counts


@dataclasses.dataclass(frozen=True)
class OfAKind:
    """At least `count` dice showing one face (four of a kind also makes three of a kind)."""

    count: int

    def __call__(self, counts: Counts) -> bool:
        return max(counts) >= self.count


@dataclasses.dataclass(frozen=True)
class Straight:
    """The dice show all the faces of one of `runs` (each a frozenset of faces), in any order.
    A run of five needs five different dice; a run of four (a small straight) lets the fifth
    die show anything."""

    runs: tuple[frozenset[int], ...]

    def __call__(self, counts: Counts) -> bool:
        shown = {face for face in FACES if counts[face]}
        return any(run <= shown for run in self.runs)


# -- scorers -------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Face:
    """A number box: the face times the dice showing it."""

    face: int

    def __call__(self, counts: Counts) -> int:
        return self.face * counts[self.face]


def dice_total(counts: Counts) -> int:
    """The sum of all five dice (Chance, Yacht's Full House)."""
    return sum(face * counts[face] for face in FACES)


@dataclasses.dataclass(frozen=True)
class KindTotal:
    """The sum of `count` dice of one face, when `count` of them show it (Yacht's Four of a
    Kind scores the four dice, not the fifth); 0 otherwise."""

    count: int

    def __call__(self, counts: Counts) -> int:
        return next((self.count * face for face in FACES if counts[face] >= self.count), 0)
