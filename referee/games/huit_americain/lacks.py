"""The public record of what the players lacked (`State.lacks`, `state.Lack`).

When a player in turn cannot lay, the whole table sees that none of his cards follows the
suit and rank in force, nor is laid on anything. The record keeps that fact, with how many
cards came into his hand since (drawn or given): at most that many of his cards can be of what
he lacked. Facts about the same player with the same count are merged; a fact about as many
cards as he now holds (or more) says nothing and is dropped; a new deal drops them all; hands
that change owners take their facts along. No rule of play reads the record: the hints do.
"""

from __future__ import annotations

from referee.core.cards import SUITS
from referee.core.memo import BoundedMemo

from .rules import EFFECT_RANKS, Rules
from .state import Lack

Lacks = tuple[Lack, ...]

def _suits_with(key: tuple[str, str]) -> str:
    suits, suit = key
    return "".join(s for s in SUITS if s in suits or s == suit)


def _ranks_with(key: tuple[str, str]) -> str:
    ranks, rank = key
    return "".join(r for r in EFFECT_RANKS if r in ranks or r == rank)


# (letters, letter) -> the letters with that one too, in the order of the suits or ranks:
# the suits' merges and the commoner ranks' (most facts hold a few).
_SUITS_WITH: BoundedMemo[tuple[str, str], str] = BoundedMemo(1024)
_RANKS_WITH: BoundedMemo[tuple[str, str], str] = BoundedMemo(8192)


def with_lack(lacks: Lacks, seat: int, suit: str, rank: str | None, arrived: int) -> Lacks:
    """`lacks` with one more fact (the player at `seat` lacked `suit` and `rank`, and
    `arrived` cards came to him since), merged into his fact of the same count."""
    for k, lack in enumerate(lacks):
        if lack.seat == seat and lack.arrived == arrived:
            suits = lack.suits if suit in lack.suits else _SUITS_WITH.get(
                (lack.suits, suit), _suits_with)
            ranks = lack.ranks if rank is None or rank in lack.ranks else _RANKS_WITH.get(
                (lack.ranks, rank), _ranks_with)
            if suits == lack.suits and ranks == lack.ranks:
                return lacks
            return lacks[:k] + (Lack(seat, arrived, suits, ranks),) + lacks[k + 1:]
    return lacks + (Lack(seat, arrived, suit, rank or ""),)


def after_arrivals(lacks: Lacks, seat: int, count: int) -> Lacks:
    """The facts once `count` cards came into the hand of the player at `seat`."""
    return tuple(Lack(seat, lack.arrived + count, lack.suits, lack.ranks)
                 if lack.seat == seat else lack for lack in lacks)


def still_telling(lacks: Lacks, seat: int, held: int) -> Lacks:
    """The facts left once the player at `seat` holds `held` cards: one about as many cards
    as he holds or more says nothing."""
    for lack in lacks:
        if lack.seat == seat and lack.arrived >= held:
            return tuple(lack for lack in lacks if lack.seat != seat or lack.arrived < held)
    return lacks


def moved(lacks: Lacks, new_seat: dict[int, int]) -> Lacks:
    """The facts once hands changed owners: the hand of seat s now at `new_seat[s]`."""
    return tuple(Lack(new_seat.get(lack.seat, lack.seat), lack.arrived, lack.suits, lack.ranks)
                 for lack in lacks)


def lacked(card: str, lack: Lack, rules: Rules) -> bool:
    """Whether `card` is one of those the fact says he lacked."""
    return card[1] in lack.suits or card[0] in lack.ranks or card[0] in rules.wild


def lack_problems(players: tuple[str, ...], hands, lacks: Lacks, rules: Rules) -> list[str]:
    """What is wrong with the record: each fact must name a player, suits and ranks, say
    something (fewer cards arrived than he holds) and hold of his hand; one fact per player
    and count."""
    problems = []
    seen = set()
    for lack in lacks:
        where = f"lacks: seat {lack.seat}, {lack.arrived} arrived"
        if not 0 <= lack.seat < len(players):
            problems.append(f"{where}: the seat is past the players")
            continue
        if not (_distinct_of(lack.suits, SUITS) and _distinct_of(lack.ranks, EFFECT_RANKS)):
            problems.append(f"{where}: suits {lack.suits!r} and ranks {lack.ranks!r} must be "
                            "distinct suits and ranks")
            continue
        hand = hands[lack.seat]
        if (lack.seat, lack.arrived) in seen:
            problems.append(f"{where}: facts with the same count are one fact")
        seen.add((lack.seat, lack.arrived))
        if not 0 <= lack.arrived < len(hand):
            problems.append(f"{where}: a fact says something only while fewer cards arrived "
                            f"than the {len(hand)} held")
            continue
        held = sum(1 for card in hand if lacked(card, lack, rules))
        if held > lack.arrived:
            problems.append(f"{where}: {players[lack.seat]} holds {held} cards of "
                            f"{lack.suits or '-'} / {lack.ranks or '-'} or wild, more than "
                            "arrived since he lacked them")
    return problems


def _distinct_of(letters: str, alphabet: tuple[str, ...]) -> bool:
    return len(set(letters)) == len(letters) and all(c in alphabet for c in letters)
