"""The card games' hint levels, measured: `hard` against `medium` and `medium` against `easy`,
head to head (two seats, each level in each seat half the time) and at a four-seat table (one
seat of the stronger level, three of the weaker, its seat going round). Every match is played
from a named seed, so every run plays the same matches; two processes share them. The deals
are duplicate: each seed is played once per seat of the table, the stronger level in each
seat in turn (matches k and k+1 head to head are one deal with the seats swapped), so the
luck of the deal cancels out. A win rate is the stronger level's share of the wins (a tie
split), with a 95 % interval from the spread of the deals: the matches of one deal are not
independent (when both levels would play a deal alike, the stronger wins it in exactly one
seat of `table`), the deals are, so the interval is the mean of the deals' shares give or take
1.96 standard errors of that mean. The Wilson interval, which treats every match as
independent and so errs on the wide side, is printed beside it; the verdict reads the
deals' interval.

The `hard` measured is the one served: the same budget as `POST /v1/games/<game>/hints`.

Run alone: `python -m bench.hints [--matches N] [--games id,id] [--pairings hard-medium,...]
[--tables 2,4] [--record shares.json]`.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from referee.core.selfplay import play_match
from referee.games import REGISTRY

GAMES = ("generala-cards", "empereur", "huit-americain")
# One match of each game as the bench plays it: a deal of Générala decides a two-player
# match (four players play three deals); L'Empereur and Huit américain are played one round.
BENCH_OPTIONS = {"generala-cards": {}, "empereur": {"mode": "normal", "rounds": 1},
                 "huit-americain": {"target": 1}}
PAIRINGS = (("hard", "medium"), ("medium", "easy"))
# The margins the stronger level must show: its lower 95 % bound above the even share.
EVEN = {2: 0.5, 4: 0.25}
# Tables whose matches end after fewer moves than selfplay's limit, the fewest cards held
# winning (`referee.core.selfplay.play_match`). L'Empereur at four seats: every two laid makes
# each other player draw, and of 20 seeded rounds of four `medium` players 10 still ran after
# 3,000 moves; a match to 2,000 moves with `hard` thinking on a quarter of them costs half a
# minute of CPU. 400 moves is about a hundred turns each.
MOVE_LIMIT = {("empereur", 4): 400}
# Rows played longer than the others, as a multiple of `--matches`: where the stronger level's
# edge is small beside the spread of the deals. Huit américain at four seats: `hard` wins about
# 27 % against 25 % even, and a round of six cards each is mostly the deal's luck; over 1,000
# matches the deals' interval is 2.0 points either side, over 3,000 about 1.2.
LONGER = {("huit-americain", "hard", "medium", 4): 3}


def one_match(job: tuple[str, str, str, int, int]) -> float:
    """The stronger level's share of match k of a row: it sits in seat k % table, and one deal
    (one seed) is played `table` matches in a row, once per seat of the stronger."""
    game_id, strong, weak, table, k = job
    seat = k % table
    levels = tuple(strong if s == seat else weak for s in range(table))
    limit = MOVE_LIMIT.get((game_id, table))
    shares = play_match(REGISTRY[game_id], levels, BENCH_OPTIONS[game_id],
                        f"hints-bench-{game_id}-{strong}-{weak}-{table}-deal-{k // table}",
                        **({"max_moves": limit} if limit else {}))
    return shares[seat]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def deal_interval(shares: list[float], table: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval of the mean share over whole deals (`table` matches in a row, one per
    seat of the stronger level): the deals' mean shares give or take z standard errors."""
    deals = [statistics.fmean(shares[i:i + table])
             for i in range(0, len(shares) - table + 1, table)]
    if len(deals) < 2:
        return 0.0, 1.0
    centre = statistics.fmean(deals)
    half = z * statistics.stdev(deals) / math.sqrt(len(deals))
    return max(0.0, centre - half), min(1.0, centre + half)


def measure(game_id: str, strong: str, weak: str, table: int, matches: int, pool,
            played: list[float], keep: Callable[[list[float]], None]
            ) -> tuple[float, tuple[float, float], tuple[float, float]]:
    """The stronger level's share over `matches`, with its interval over the deals and its
    Wilson interval, telling the share so far every 100 matches (a whole number of deals: a
    long run on a loaded machine says where it stands). `played`: the shares of the first
    matches, already played by this same code (they are seeded, so playing them again gives
    them again); `keep` is handed the shares so far every 100 matches and at the end."""
    shares = played[:matches]
    jobs = [(game_id, strong, weak, table, k) for k in range(len(shares), matches)]
    for share in pool.imap(one_match, jobs, chunksize=table * 2):
        shares.append(share)
        if len(shares) % 100 == 0 and len(shares) < matches:
            keep(shares)
            low, high = deal_interval(shares, table)
            print(f"    ... {len(shares)} matches: {100 * sum(shares) / len(shares):.1f} % "
                  f"[{100 * low:.1f}, {100 * high:.1f}]", flush=True)
    keep(shares)
    return sum(shares) / matches, deal_interval(shares, table), wilson(sum(shares), matches)


def hint_time(game_id: str, level: str = "hard", positions: int = 200) -> float:
    """The median time of one hint over positions of seeded medium-played matches, in ms."""
    engine = REGISTRY[game_id]
    times: list[float] = []
    k = 0
    while len(times) < positions:
        players = tuple(f"p{i}" for i in range(2 + k % 3))
        state = engine.new_match(players, engine.resolve_options(BENCH_OPTIONS[game_id]),
                                 f"hints-time-{k}", now=0.0)
        k += 1
        while not engine.is_finished(state) and len(times) < positions:
            player = engine.to_act(state, now=0.0)[0]
            mine = [m for m in engine.legal_moves(state, now=0.0) if m["player"] == player]
            view = engine.view(state, player)
            start = time.process_time()
            engine.advise(view, mine, level)
            times.append(time.process_time() - start)
            state, _ = engine.apply(state, engine.advise(view, mine, "medium").move, now=0.0)
    return 1000 * statistics.median(times)


def report(matches: int = 1000, games: tuple[str, ...] = GAMES,
           pairings: tuple[tuple[str, str], ...] = PAIRINGS,
           tables: tuple[int, ...] = (2, 4), record: str | None = None) -> None:
    """Print the strength rows. `record`: a JSON file keeping each row's match shares as they
    come (a variant measured on the same seeds can then be compared deal by deal); a row
    found there goes on from the matches it holds, so a long run cut short is resumed rather
    than played again (with the same code: the file does not know which code played it)."""
    file = Path(record) if record else None
    recorded: dict[str, list[float]] = (json.loads(file.read_text())
                                        if file and file.exists() else {})

    def keeper(row: str) -> Callable[[list[float]], None]:
        def keep(shares: list[float]) -> None:
            if file:
                recorded[row] = shares
                file.write_text(json.dumps(recorded))
        return keep

    with multiprocessing.Pool(2) as pool:
        for game_id in games:
            p50 = hint_time(game_id)
            print(f"{game_id}: hard hint p50 {p50:.1f} ms CPU over 200 positions")
            for strong, weak in pairings:
                for table in tables:
                    start = time.perf_counter()
                    row = f"{game_id} {strong}-{weak} {table}"
                    count = matches * LONGER.get((game_id, strong, weak, table), 1)
                    played = recorded.get(row, [])
                    if played:
                        print(f"    ({len(played)} matches recorded in {record}: going on "
                              "from there)", flush=True)
                    rate, (low, high), independent = measure(
                        game_id, strong, weak, table, count, pool, played=played,
                        keep=keeper(row))
                    verdict = "beats" if low > EVEN[table] else "does NOT beat"
                    label = "head to head" if table == 2 else f"one of {table} seats"
                    print(f"  {strong:6s} vs {weak:6s} {label:16s} {count:5d} matches: "
                          f"win rate {100 * rate:5.1f} % [{100 * low:.1f}, {100 * high:.1f}] "
                          f"over the deals (Wilson [{100 * independent[0]:.1f}, "
                          f"{100 * independent[1]:.1f}]) "
                          f"(even {100 * EVEN[table]:.0f} %: {verdict}) "
                          f"({time.perf_counter() - start:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--pairings", default=",".join("-".join(p) for p in PAIRINGS),
                        help="stronger-weaker level pairs, e.g. hard-medium")
    parser.add_argument("--tables", default="2,4", help="seats per table: 2, 4 or both")
    parser.add_argument("--record", help="a JSON file keeping each row's match shares; a row "
                        "found there goes on from the matches it holds")
    args = parser.parse_args()
    pairings = tuple(tuple(p.split("-")) for p in args.pairings.split(",") if p)
    report(args.matches, tuple(g for g in args.games.split(",") if g), pairings,
           tuple(int(t) for t in args.tables.split(",")), args.record)


if __name__ == "__main__":
    main()
