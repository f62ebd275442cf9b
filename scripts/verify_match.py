"""Check a finished match against its seed: `python scripts/verify_match.py record.json`.

The record is what a client kept of one match:
    {"game": "generala-dice", "players": ["ann", "bob"], "options": {...},
     "seed_commitment": "<from the creation outcome>", "seed": "<revealed at the end>",
     "moves": [<each move posted, in order>],
     "events": [[<events of the creation outcome>], [<events of move 1>], ...],  (optional)
     "viewer": "ann"}   (optional: whose answers the events are, if they were asked with one)

It checks that SHA-256 of the seed is the commitment, replays the match from the seed with the
referee's own engine, checks every move was legal, and, when events were kept, that every roll,
shuffle, deal and draw the referee announced is the one the seed gives. The turn clock is the
only input not in the record, so deadlines are left out of the comparison and a `timeout` move
is replayed at its deadline.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.core import rng  # noqa: E402
from referee.core.outcome import events_for  # noqa: E402
from referee.games import REGISTRY  # noqa: E402

IGNORED = {"deadline"}


def _comparable(events):
    return [{k: v for k, v in e.items() if k not in IGNORED} for e in events]


def verify(record: dict) -> list[str]:
    """Every discrepancy between the record and a replay from its seed (empty: all checks out)."""
    problems = []
    if rng.commitment(record["seed"]) != record["seed_commitment"]:
        problems.append("the revealed seed does not match the commitment")
    engine = REGISTRY[record["game"]]
    options = engine.resolve_options(record.get("options", {}))
    now = 0.0
    state = engine.new_match(tuple(record["players"]), options, record["seed"], now=now)
    kept = record.get("events")
    viewer = record.get("viewer")

    def differs(events, index):
        replayed = json.loads(json.dumps(events_for(events, viewer)))
        return _comparable(replayed) != _comparable(kept[index])

    if kept:
        # The creation outcome: `match_created`, then what setting up the match did (dealer
        # draws, hands dealt), which comes from the seed like every later chance event.
        created, opening = kept[0][:1], kept[0][1:]
        replayed = json.loads(json.dumps(events_for(engine.opening_events(state), viewer)))
        if [e.get("type") for e in created] != ["match_created"] or \
                _comparable(replayed) != _comparable(opening):
            problems.append("the creation events differ from the replay from the seed")
    for index, move in enumerate(record["moves"], start=1):
        if move.get("type") == "timeout" and getattr(state, "deadline", None) is not None:
            now = state.deadline
        try:
            state, events = engine.apply(state, move, now=now)
        except Exception as exc:  # a refused move is a finding, not a crash
            problems.append(f"move {index} {move} is refused on replay: {exc}")
            break
        if kept is not None and index < len(kept) and differs(events, index):
            problems.append(f"move {index}: the events differ from the replay from the seed")
    if not engine.is_finished(state):
        problems.append("the replayed match has not finished")
    return problems


def main() -> int:
    record = json.loads(Path(sys.argv[1]).read_text())
    problems = verify(record)
    for problem in problems:
        print("MISMATCH:", problem)
    if not problems:
        print(f"OK: the seed matches its commitment and replays all {len(record['moves'])} moves")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
