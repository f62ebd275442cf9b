"""Instructions per move request, counted by callgrind: the figure the machine's load does not
move. The WSGI application is called in process as `bench.inprocess` calls it, per game, open
and sealed, and the bare echo of the same bodies; `os.getppid()` marks where each count starts
and stops, for callgrind's `--dump-before=getppid`. Run from the repository root:

    valgrind --tool=callgrind --dump-before=getppid --callgrind-out-file=/tmp/cg.out \\
        python -m bench.instructions [--requests N] [--bodies DIR] [--games id,id]
    python -m bench.instructions --summary /tmp/cg.out [--requests N]

`--bodies DIR` reads the bodies from DIR/<game>-<mode>.bodies (one JSON body a line) and
writes them there first when missing, so that two checkouts are counted on the same bodies.

With `--engines` the engines are counted instead, per move, in the loops `make bench` times:
each game's seeded random matches with its playout player (legal moves listed every step;
the player's choice is counted too), Huit américain in the UNO-shaped loop of the comparison
(default options, a uniform choice) and RLCard's UNO in its own (when rlcard is installed).
Each is warmed first (tables the engines fill as they meet players and hands), then counted
over whole seeded matches of at least `--moves` moves. Run under callgrind with
`--cache-sim=yes`, the summary gives the L1 instruction and data cache misses a move as
well (`make bench-instructions` runs both steps)."""

from __future__ import annotations

import argparse
import functools
import gc
import os
import random
from pathlib import Path

from bench.__main__ import payloads, sealed
from bench.engines import NOW
from bench.echo_app import create_app as create_echo
from bench.inprocess import environs, post, referees
from referee.core.playout import random_move
from referee.games import REGISTRY

WARM = 30


def bodies_of(game_id: str, mode: str, folder: Path | None) -> list[bytes]:
    path = folder / f"{game_id}-{mode}.bodies" if folder else None
    if path and path.exists():
        return path.read_bytes().split(b"\n")
    bodies = payloads(game_id, 120)
    bodies = bodies if mode == "open" else sealed(game_id, bodies)
    if path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\n".join(bodies))
    return bodies


def measure(args) -> None:
    apps, echo = referees(), create_echo()
    folder = Path(args.bodies) if args.bodies else None
    # Every environ is built before the first mark: nothing but requests is counted.
    plan = []
    for game_id in args.games.split(","):
        for mode in ("open", "sealed"):
            bodies = bodies_of(game_id, mode, folder)
            plan += [(f"{game_id}:{mode}", apps[mode], bodies,
                      environs(f"/v1/games/{game_id}/moves", bodies)),
                     (f"{game_id}:echo-{mode}", echo, bodies, environs("/echo", bodies))]
    phases = ["setup"]
    for name, app, bodies, prepared in plan:
        for phase, requests in (("warm", range(WARM)),
                                ("measure", range(WARM, WARM + args.requests))):
            os.getppid()  # callgrind dumps here what was counted since the last mark
            phases.append(f"{name}:{phase}")
            if phase == "warm":
                gc.collect()  # each measured slice starts from the same collector's state
            post(app, prepared, bodies, requests)
    os.getppid()
    phases.append("end")
    Path(args.phases).write_text("\n".join(phases))


def engine_moves(engine, seeds, moves_wanted: int, uniform: bool) -> int:
    """Whole seeded random matches until `moves_wanted` moves are made, in the shape of
    `bench.engine_rate`'s loop (the game's playout player) or, `uniform`, of
    `bench.uniform_rate`'s (default options, a uniform choice), without their clock reads.
    The moves made."""
    options = engine.resolve_options({} if uniform else engine.playout_options)
    seats = min(engine.max_players, 4) - engine.min_players + 1
    moves = 0
    for seed in seeds:
        if moves >= moves_wanted:
            break
        players = tuple(f"p{i}" for i in range(engine.min_players + seed % seats))
        pick = random.Random(seed)
        state = engine.new_match(players, dict(options), f"bench-{seed}", now=NOW)
        while not engine.is_finished(state):
            listed = engine.legal_moves(state, now=NOW)
            move = pick.choice(listed) if uniform else random_move(engine, listed, pick)
            state, _ = engine.apply(state, move, now=NOW)
            moves += 1
    return moves


def uno_moves(game, pick: random.Random, moves_wanted: int) -> int:
    """RLCard's UNO games in `bench.uno_rate`'s loop until `moves_wanted` moves are made."""
    moves = 0
    while moves < moves_wanted:
        game.init_game()
        while not game.is_over():
            game.step(pick.choice(game.get_legal_actions()))
            moves += 1
    return moves


def measure_engines(args) -> None:
    plan = [(game_id, functools.partial(engine_moves, REGISTRY[game_id], uniform=False))
            for game_id in args.games.split(",")]
    plan.append(("huit-americain:uniform",
                 functools.partial(engine_moves, REGISTRY["huit-americain"], uniform=True)))
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        print("rlcard is not installed (pip install -e '.[bench]'): UNO not counted")
    else:
        game = UnoGame(num_players=2)
        game.np_random.seed(0)
        pick = random.Random(0)
        plan.append(("rlcard-uno", lambda seeds, wanted: uno_moves(game, pick, wanted)))
    phases = ["setup"]
    for name, play in plan:
        for phase, seeds, wanted in (("warm", range(10_000, 20_000), args.warm_moves),
                                     ("measure", range(1, 10_000), args.moves)):
            gc.collect()  # outside the slice: each starts from the same collector's state
            os.getppid()  # callgrind dumps here what was counted since the last mark
            phases.append(f"{name}:{phase}")
            phases[-1] += f":{play(seeds, wanted)}"
            os.getppid()  # the slice ends with its moves: what follows is no part of it
            phases.append("between")
    os.getppid()
    phases.append("end")
    Path(args.phases).write_text("\n".join(phases))


def summary(args) -> None:
    """Per measured slice, its instructions (callgrind's part after the mark that starts it)
    over the requests sent, or over the moves made (a slice of the engines names its count),
    with the L1 cache misses when callgrind simulated the caches."""
    phases = Path(args.phases).read_text().split("\n")
    parts = [f"{args.summary}.{i}" for i in range(1, len(phases))] + [args.summary]
    for phase, part in zip(phases, parts):
        name, measured, rest = phase.partition(":measure")
        if not measured:
            continue
        count, unit = (int(rest[1:]), "move") if rest else (args.requests, "request")
        totals = counts(Path(part).read_text())
        row = f"{name:28s} {totals['Ir'] / count:12,.0f} instructions/{unit}"
        if "I1mr" in totals:
            row += (f", L1 misses {totals['I1mr'] / count:7,.0f} instruction "
                    f"{totals['D1mr'] / count:7,.0f} data")
        print(row + (f" ({count:,} {unit}s)" if rest else ""))


def counts(callgrind_output: str) -> dict[str, int]:
    """The events callgrind counted and their totals in one of its output files."""
    lines = callgrind_output.splitlines()
    events = next(line.split()[1:] for line in lines if line.startswith("events:"))
    total = [line.split()[1:] for line in lines if line.startswith(("totals:", "summary:"))][-1]
    return dict(zip(events, map(int, total)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--games", default=",".join(sorted(REGISTRY)))
    parser.add_argument("--bodies", default="")
    parser.add_argument("--phases", default="/tmp/bench-instructions.phases",
                        help="where the order of the counted slices is written and read")
    parser.add_argument("--summary", default="",
                        help="callgrind's output file of a run: print its figures")
    parser.add_argument("--engines", action="store_true",
                        help="count the engines' moves instead of the HTTP requests")
    parser.add_argument("--moves", type=int, default=4000,
                        help="with --engines: the least moves counted per loop")
    parser.add_argument("--warm-moves", type=int, default=20000,
                        help="with --engines: the least moves played before counting")
    args = parser.parse_args()
    if args.summary:
        summary(args)
    else:
        measure_engines(args) if args.engines else measure(args)


if __name__ == "__main__":
    main()
