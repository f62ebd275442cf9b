"""Positions and matches of the card games for the hint tests: seeded, the same every run."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import math
import random
from collections.abc import Iterator

from referee.core.selfplay import play_match
from referee.games import REGISTRY

CARD_GAMES = ("generala-cards", "empereur", "huit-americain")
NOW = 0.0

# A match of each game as the strength tests play it: one deal or round between two players.
ONE_ROUND = {"generala-cards": {}, "empereur": {"mode": "normal", "rounds": 1},
             "huit-americain": {"target": 1}}


def hints_of(game_id: str):
    return importlib.import_module(f"referee.games.{game_id.replace('-', '_')}.hints")


def positions(game_id: str, matches: int, moves: int, seed: int = 0):
    """(state, player, his legal moves) along seeded matches of random and medium play."""
    engine = REGISTRY[game_id]
    pick = random.Random(f"{game_id}-{seed}")
    for k in range(matches):
        players = tuple(f"p{i}" for i in range(2 + k % 3))
        state = engine.new_match(players, engine.resolve_options(engine.playout_options),
                                 f"hint-test-{seed}-{k}", now=NOW)
        for _ in range(moves):
            if engine.is_finished(state):
                break
            player = engine.to_act(state, now=NOW)[0]
            mine = [m for m in engine.legal_moves(state, now=NOW) if m["player"] == player]
            yield state, player, mine
            move = (engine.advise(engine.view(state, player), mine, "medium").move
                    if pick.random() < 0.7 else pick.choice(mine))
            state, _ = engine.apply(state, move, now=NOW)


def shares(game_id: str, strong: str, weak: str, options) -> Iterator[float]:
    """The stronger level's share of the win in each of a run of seeded matches, the seats
    alternating."""
    engine = REGISTRY[game_id]
    for k in itertools.count():
        levels = (strong, weak) if k % 2 == 0 else (weak, strong)
        yield play_match(engine, levels, options,
                         f"strength-{game_id}-{strong}-{k}")[levels.index(strong)]


def duplicate_shares(game_id: str, strong: str, weak: str, options) -> Iterator[float]:
    """The stronger level's share of the win in each match of a run of duplicate deals: each
    seed played twice, the levels swapping seats, so the luck of the deal cancels out."""
    engine = REGISTRY[game_id]
    for d in itertools.count():
        for levels in ((strong, weak), (weak, strong)):
            yield play_match(engine, levels, options,
                             f"duplicate-{game_id}-{d}")[levels.index(strong)]


@dataclasses.dataclass(frozen=True)
class FixedTest:
    """A strength test of a fixed number of matches: it passes when the stronger level wins
    at least `wins_needed` of the first `matches`. `run` stops drawing matches once the
    verdict is settled, the wins needed reached or out of reach of the matches left: the
    verdict of all the matches played, without the matches that cannot change it."""

    matches: int
    wins_needed: float

    def run(self, results: Iterator[float]) -> tuple[bool, int, float]:
        """(passed, matches played, wins) over `results`, the stronger level's share of
        each match's win."""
        wins, played = 0.0, 0
        while wins < self.wins_needed and wins + (self.matches - played) >= self.wins_needed:
            wins, played = wins + next(results), played + 1
        return wins >= self.wins_needed, played, wins


def error_rates(matches: int, wins_needed: float) -> tuple[float, float]:
    """The error rates of a strength test that passes when the stronger level wins at least
    `wins_needed` of `matches` matches, taken as independent: the chance that a level no
    stronger than the other (a share of 0.5) passes, and the chance that one whose share is
    0.6 fails."""
    needed = math.ceil(wins_needed)

    def at_least(share: float) -> float:
        return sum(math.comb(matches, k) * share ** k * (1 - share) ** (matches - k)
                   for k in range(needed, matches + 1))

    return at_least(0.5), 1 - at_least(0.6)


@dataclasses.dataclass(frozen=True)
class SequentialTest:
    """Wald's sequential test of a share of 0.5 against one of 0.6, with a cap: after every
    `look` matches, the log of the likelihood ratio of the wins so far (0.6 against 0.5)
    passes the test at `upper` or more and fails it at `lower` or less; at `most` matches it
    passes with `final` wins or more. It stops as soon as either bound is met, so a level far
    stronger or no stronger is told in fewer matches than a fixed count would need."""

    upper: float
    lower: float
    most: int
    final: float
    look: int = 1

    def ratio(self, wins: float, matches: int) -> float:
        return wins * math.log(0.6 / 0.5) + (matches - wins) * math.log(0.4 / 0.5)

    def verdict(self, wins: float, matches: int) -> bool | None:
        """True (passed), False (failed) or None (play on) after `matches`."""
        if matches >= self.most:
            return wins >= self.final
        if matches % self.look:
            return None
        ratio = self.ratio(wins, matches)
        return True if ratio >= self.upper else False if ratio <= self.lower else None

    def run(self, results: Iterator[float]) -> tuple[bool, int, float]:
        """(passed, matches played, wins) over `results`, the stronger level's share of
        each match's win, drawn only as long as the test needs."""
        wins, matches = 0.0, 0
        for result in results:
            wins, matches = wins + result, matches + 1
            passed = self.verdict(wins, matches)
            if passed is not None:
                return passed, matches, wins
        raise ValueError("the results ran out before the test ended")

    def outcome(self, share: float) -> tuple[float, float]:
        """The chance that the test passes and the mean number of matches it plays, when
        each match is won with chance `share`, independently."""
        passing = mean = 0.0
        running = {0: 1.0}  # wins so far -> chance of having played on to here
        for matches in range(1, self.most + 1):
            after: dict[int, float] = {}
            for wins, chance in running.items():
                after[wins + 1] = after.get(wins + 1, 0.0) + chance * share
                after[wins] = after.get(wins, 0.0) + chance * (1 - share)
            running = {}
            for wins, chance in after.items():
                passed = self.verdict(wins, matches)
                if passed is None:
                    running[wins] = chance
                else:
                    passing += chance * passed
                    mean += chance * matches
        return passing, mean

    def error_rates(self) -> tuple[float, float]:
        """The chance that a level no stronger (a share of 0.5) passes, and the chance that
        one whose share is 0.6 fails, the matches taken as independent."""
        return self.outcome(0.5)[0], 1 - self.outcome(0.6)[0]
