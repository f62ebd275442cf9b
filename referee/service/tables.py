"""The hints' tables of the default options made ahead, into a folder a server then reads them
from (`REFEREE_TABLE_CACHE`): `python -m referee.service.tables FOLDER [GAME ...]`, every
game when none is named.

The image makes them as it is built (Dockerfile), so that a container, whose root file system
is read-only and whose only writable folder is a small memory volume, reads them in
milliseconds instead of spending some 30 s of CPU at each start and then writing 20 MB into
a volume of 16 (deploy/referee.yaml); the test suite's controller makes the slowest ones this
way while its workers start (tests/conftest.py)."""

from __future__ import annotations

import argparse

from referee.core.tables import keep_tables_in
from referee.games import REGISTRY

from .referee import warm_up


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m referee.service.tables",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="where the tables are written")
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"the games whose tables are made (of {', '.join(REGISTRY)})")
    args = parser.parse_args(argv)
    unknown = [game for game in args.games if game not in REGISTRY]
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)}")
    keep_tables_in(args.folder)
    warm_up({game: REGISTRY[game] for game in args.games or REGISTRY})


if __name__ == "__main__":
    main()
