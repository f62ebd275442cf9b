"""Instructions per move request, counted by callgrind: the figure the machine's load does not
move. The WSGI application is called in process as `bench.inprocess` calls it, per game, open
and sealed, and the bare echo of the same bodies; `os.getppid()` marks where each count starts
and stops, for callgrind's `--dump-before=getppid`. Run from the repository root:

    valgrind --tool=callgrind --dump-before=getppid --callgrind-out-file=/tmp/cg.out \\
        python -m bench.instructions [--requests N] [--bodies DIR] [--games id,id]
    python -m bench.instructions --summary /tmp/cg.out [--requests N]

`--bodies DIR` reads the bodies from DIR/<game>-<mode>.bodies (one JSON body a line) and
writes them there first when missing, so that two checkouts are counted on the same bodies."""

from __future__ import annotations

import argparse
import gc
import io
import logging
import os
from pathlib import Path

from werkzeug.test import EnvironBuilder

from bench.__main__ import BENCH_KEY, payloads, sealed
from bench.echo_app import create_app as create_echo
from referee import create_app
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
    logging.getLogger("referee").setLevel(logging.WARNING)
    apps = {"open": create_app({"STATE_KEYS": ""}),
            "sealed": create_app({"STATE_KEYS": BENCH_KEY})}
    echo = create_echo()
    folder = Path(args.bodies) if args.bodies else None
    plan = []
    for game_id in args.games.split(","):
        for mode in ("open", "sealed"):
            bodies = bodies_of(game_id, mode, folder)
            plan.append((f"{game_id}:{mode}", apps[mode], f"/v1/games/{game_id}/moves", bodies))
            plan.append((f"{game_id}:echo-{mode}", echo, "/echo", bodies))
    statuses: list[str] = []

    def start_response(status, headers, exc_info=None):
        statuses.append(status)

    # Every environ is built before the first mark: nothing but requests is counted.
    prepared = [(name, app, bodies, [EnvironBuilder(path=path, method="POST", data=body,
                                                    content_type="application/json")
                                     .get_environ() for body in bodies])
                for name, app, path, bodies in plan]
    phases = ["setup"]
    for name, app, bodies, environs in prepared:
        for phase, first, count in (("warm", 0, WARM), ("measure", WARM, args.requests)):
            os.getppid()  # callgrind dumps here what was counted since the last mark
            phases.append(f"{name}:{phase}")
            if phase == "warm":
                gc.collect()  # each measured slice starts from the same collector's state
            for i in range(first, first + count):
                environ = dict(environs[i % len(environs)])
                environ["wsgi.input"] = io.BytesIO(bodies[i % len(bodies)])
                b"".join(app(environ, start_response))
    os.getppid()
    phases.append("end")
    refused = [s for s in statuses if not s.startswith("200")]
    assert not refused, refused[:3]
    Path(args.phases).write_text("\n".join(phases))


def summary(args) -> None:
    """Per game and mode, the instructions of one request: the count of its measured slice
    (callgrind's part after the mark that starts it) over the requests sent."""
    phases = Path(args.phases).read_text().split("\n")
    parts = [f"{args.summary}.{i}" for i in range(1, len(phases))] + [args.summary]
    for phase, part in zip(phases, parts):
        if not phase.endswith(":measure"):
            continue
        total = [int(line.split()[1]) for line in Path(part).read_text().splitlines()
                 if line.startswith(("totals:", "summary:"))][-1]
        print(f"{phase.removesuffix(':measure'):28s} {total / args.requests:12,.0f} "
              "instructions/request")


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
    args = parser.parse_args()
    summary(args) if args.summary else measure(args)


if __name__ == "__main__":
    main()
