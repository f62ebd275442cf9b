"""The hints' tables made ahead, into a folder a server then reads them from
(`REFEREE_TABLE_CACHE`): `python -m referee.service.tables FOLDER [GAME ...]`, every game when
none is named; those of the default options and of each option set a game names as worth
preparing (`Engine.prepared_options`: Yams' readings of its sheet), or with `--defaults-only`
those of the default options only.

The image makes them as it is built (Dockerfile), so that a container, whose root file system
is read-only and whose only writable folder is a small memory volume, reads them in
milliseconds instead of spending some 30 s of CPU at each start and then writing 20 MB into
a volume of 16 (deploy/referee.yaml); the test suite's controller makes the slowest ones this
way while its workers start (tests/conftest.py), the default options' only: the suite makes the
readings' tables where a test first needs them."""

from __future__ import annotations

import argparse

from referee.core.tables import keep_tables_in
from referee.games import REGISTRY

from .referee import advised_at_every_level, warm_up


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m referee.service.tables",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="where the tables are written")
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"the games whose tables are made (of {', '.join(REGISTRY)})")
    parser.add_argument("--defaults-only", action="store_true",
                        help="only the tables of each game's default options")
    args = parser.parse_args(argv)
    unknown = [game for game in args.games if game not in REGISTRY]
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)}")
    keep_tables_in(args.folder)
    games = {game: REGISTRY[game] for game in args.games or REGISTRY}
    warm_up(games)
    if not args.defaults_only:
        for engine in games.values():
            for options in engine.prepared_options:
                advised_at_every_level(engine, options)


if __name__ == "__main__":
    main()
