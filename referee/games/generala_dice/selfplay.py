"""Whole games between strategies, with dice from a caller's `random.Random`: what `make bench`
and the strength tests measure. Not a rule and not the referee: the match's own random source
is for matches; a simulation owns its dice so that its figures stay reproducible on their own.

A turn here is the rules' turn (up to three rolls, the first one of all five dice, servida on
the first roll, every box scored by `scoring.box_score`); the engine's tests prove the rules,
and `tests/games/generala_dice/test_generala_dice_hints.py` plays the strategies through the
engine itself.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

from .hands import DICE, MAX_ROLLS
from .scoring import BOXES, box_score, is_generala
from .sheetstates import RuleKey
from .strategies import Strategy, Table


@dataclasses.dataclass
class Result:
    """Each seat's total; `instant_winner` is the seat that won on a servida Generala under
    the house rule (the totals are then the sheets so far)."""

    totals: list[int]
    instant_winner: int | None = None

    def winners(self) -> list[int]:
        if self.instant_winner is not None:
            return [self.instant_winner]
        top = max(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == top]


class MatchDice:
    """The dice of one match, drawn before it starts: five for each roll of each turn of each
    seat, a roll of n dice showing the first n of its five. Every roll is still fair dice
    independent of all else, but two matches drawn alike meet the same luck whoever plays
    them (common random numbers), so comparing two strategies over the same draws is far
    sharper than over fresh ones."""

    def __init__(self, rnd: random.Random, seats: int):
        self.faces = [[[tuple(1 + int(6 * rnd.random()) for _ in range(DICE))
                        for _ in range(MAX_ROLLS)] for _ in BOXES] for _ in range(seats)]

    def roll(self, seat: int, turn: int, roll: int, count: int) -> tuple[int, ...]:
        return self.faces[seat][turn][roll][:count]


def play_turn(strategy: Strategy, rules: RuleKey, sheets: list[dict[str, int]], seat: int,
              turn: int, match_dice: MatchDice) -> bool:
    """Turn `turn` of `seat`; fills a box of his sheet. True when a servida Generala ends the
    match at once (house rule), in which case no box is filled."""
    dice = tuple(sorted(match_dice.roll(seat, turn, 0, DICE)))
    if rules.servida_generala_wins and is_generala(dice):
        return True
    rolls = 1
    frozen = tuple(sheets)
    while True:
        choice = strategy(Table(rules, frozen, seat, rolls, dice))
        if choice.box is not None:
            sheet = sheets[seat]
            if choice.box in sheet:
                raise ValueError(f"{choice.box} is already filled")
            sheets[seat] = {**sheet, choice.box: box_score(
                choice.box, dice, rolls == 1, sheet, rules.values)}
            return False
        if rolls >= MAX_ROLLS or len(choice.keep) >= DICE or Counter(choice.keep) - Counter(dice):
            raise ValueError(f"{choice} is not a roll allowed with {dice} after {rolls} rolls")
        dice = tuple(sorted(choice.keep + match_dice.roll(seat, turn, rolls,
                                                          DICE - len(choice.keep))))
        rolls += 1


def play_match(strategies: Sequence[Strategy], rules: RuleKey,
               dice: MatchDice | random.Random) -> Result:
    """A whole match, seats playing in order, eleven turns each, with these dice (or dice
    drawn from this generator)."""
    if isinstance(dice, random.Random):
        dice = MatchDice(dice, len(strategies))
    sheets: list[dict[str, int]] = [{} for _ in strategies]
    for turn in range(len(BOXES)):
        for seat, strategy in enumerate(strategies):
            if play_turn(strategy, rules, sheets, seat, turn, dice):
                return Result([sum(s.values()) for s in sheets], instant_winner=seat)
    return Result([sum(s.values()) for s in sheets])


def head_to_head(challenger: Strategy, reference: Strategy, rules: RuleKey, games: int,
                 seed: int, first: int = 0) -> "HeadToHead":
    """Two-player matches `first` to `first + games - 1` of `challenger` against
    `reference`, seats alternating, each paired with the match of `reference` against itself
    over the same dice (match n's dice come from the seed and n alone, so a run split in
    parts plays the same matches)."""
    outcome = HeadToHead()
    for game in range(first, first + games):
        dice = MatchDice(random.Random(f"{seed}:{game}"), 2)
        seat = game % 2
        pair = [reference, reference]
        pair[seat] = challenger
        outcome.add(play_match(pair, rules, dice), play_match([reference] * 2, rules, dice), seat)
    return outcome


@dataclasses.dataclass
class HeadToHead:
    """Results of `head_to_head`: the challenger's wins, draws and losses, his totals, and per
    game the difference between his result and the reference's own in the same seat over the
    same dice (1 a win, 0.5 a draw, 0 a loss): its mean is the challenger's edge."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    totals: list[int] = dataclasses.field(default_factory=list)
    differences: list[float] = dataclasses.field(default_factory=list)

    def add(self, match: Result, baseline: Result, seat: int) -> None:
        self.totals.append(match.totals[seat])
        result = _result(match, seat)
        self.wins += result == 1.0
        self.draws += result == 0.5
        self.losses += result == 0.0
        self.differences.append(result - _result(baseline, seat))

    def merge(self, other: "HeadToHead") -> None:
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.totals += other.totals
        self.differences += other.differences

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def share(self) -> float:
        """Wins plus half the draws, over the games."""
        return (self.wins + self.draws / 2) / self.games


def _result(match: Result, seat: int) -> float:
    winners = match.winners()
    if seat not in winners:
        return 0.0
    return 1.0 if len(winners) == 1 else 0.5


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The sample mean and its standard error."""
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, (variance / n) ** 0.5
