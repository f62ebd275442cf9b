"""Check a match record against its revealed seed: `python scripts/verify_match.py record.json`.

The record is what a client kept of one match (docs/FAIRNESS.md, "The record"):
    {"seed_commitment": "<from the creation outcome>", "seed": "<revealed at the end>",
     "contributions": [<revealed at the end, when seeds were contributed>],
     "events": [[<events of the creation outcome>], [<events of move 1>], ...],
     "game": "generala-dice", "players": ["ann", "bob"], "options": {...},
     "moves": [<each move posted, in order>],
     "viewer": "ann"}   (whose answers the events are, if they were asked with one)

By default it follows docs/FAIRNESS.md alone, needing neither the referee nor the game's
rules (only the first four fields): SHA-256 of the seed must be the commitment, and every
event carrying a `chance` object (a roll, a deal, a dealer draw, a reshuffle) is recomputed
from the seed, the contributions it names and the event, and must show what they give.
With `--replay` it also replays the match with the referee's own engines (then `game`,
`players`, `options` and `moves` are needed): every move must be legal and every event the
referee answered must be the replay's. The turn clock is the only input not in the record, so
deadlines are left out of that comparison and a `timeout` move is replayed at its deadline.

`python scripts/verify_match.py record.json --link https://referee.example` prints instead
the link that opens that referee's /verify page with the record, checked in the browser.
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import hashlib
import hmac
import itertools
import json
import struct
import sys
from collections.abc import Iterator
from pathlib import Path

# -- the random source, from docs/FAIRNESS.md ------------------------------------------------


def commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def mixed_key(seed: str, contributed: list[str]) -> str:
    """The server seed with the contributed seeds mixed in, in order: each step is
    key = hex(HMAC-SHA256(key = key, message = contributed seed))."""
    for one in contributed:
        seed = hmac.new(seed.encode("utf-8"), one.encode("utf-8"), "sha256").hexdigest()
    return seed


def contribution_problems(contributions) -> list[str]:
    if not isinstance(contributions, list) or not all(
            isinstance(c, dict) and isinstance(c.get("seed"), str)
            and isinstance(c.get("step"), int) and c["step"] >= 0 for c in contributions):
        return ["the contributions are not a list of {player, seed, step}"]
    steps = [c["step"] for c in contributions]
    if steps != sorted(steps):
        return ["the contributions are not in the order they were made"]
    who = [c.get("player") for c in contributions]
    if len(set(who)) != len(who):
        return ["a contributor is listed twice"]
    return []


def words(seed: str, step: int) -> Iterator[int]:
    """Step s's stream: block i is HMAC-SHA256(seed, "s:i"), read as big-endian 32-bit words."""
    for block in itertools.count():
        yield from struct.unpack(">8I", hmac.digest(seed.encode("utf-8"),
                                                    f"{step}:{block}".encode(), "sha256"))


def below(stream: Iterator[int], n: int) -> int:
    limit = 2**32 - 2**32 % n  # a word at or above it would favour the low remainders
    return next(word for word in stream if word < limit) % n


def shuffled(stream: Iterator[int], items: list) -> list:
    pile = list(items)
    for i in range(len(pile) - 1, 0, -1):
        j = below(stream, i + 1)
        pile[i], pile[j] = pile[j], pile[i]
    return pile


def shown_by(event: dict, field: str):
    """The event's `field` ("name", or "name[].key") as a list; None when absent."""
    name, _, key = field.partition("[].")
    value = event.get(name)
    if value is None:
        return None
    if key:
        return [x.get(key) if isinstance(x, dict) else None for x in value] \
            if isinstance(value, list) else None
    return value if isinstance(value, list) else [value]


def deck_items(deck) -> list[str] | None:
    """A whole deck named in a chance object: the 52 natural cards and the first `jokers` of
    X1, X2, `copies` times, sorted; None when the description is not one."""
    if not isinstance(deck, dict) or deck.get("jokers") not in (0, 1, 2) \
            or deck.get("copies") not in (1, 2):
        return None
    one = [r + s for s in "CDHS" for r in "23456789TJQKA"] + ["X1", "X2"][:deck["jokers"]]
    return sorted(one * deck["copies"])


def check_chance(seed: str, event: dict) -> str | None:
    """None when the event's chance object is what the seed gives, else what differs."""
    c = event.get("chance")
    if not isinstance(c, dict) or not isinstance(c.get("step"), int) or c["step"] < 0:
        return "no valid chance object"
    stream = words(seed, c["step"])
    draw, items = c.get("draw"), c.get("items")
    if draw == "shuffle" and "deck" in c:
        items = deck_items(c["deck"])
    if draw == "dice":
        if not isinstance(c.get("count"), int) or c["count"] < 0:
            return "dice without a count"
        drawn = [1 + below(stream, 6) for _ in range(c["count"])]
    elif draw == "pick":
        if not isinstance(items, list) or not items:
            return "a pick among no items"
        drawn = [items[below(stream, len(items))]]
    elif draw == "shuffle":
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            return "a shuffle of no items"
        if items != sorted(items):
            return "the shuffled items are not sorted"
        order = shuffled(stream, items)
        positions = c.get("positions", [])
        if any(not isinstance(p, int) or not 0 <= p < len(order) for p in positions):
            return "a position outside the shuffled cards"
        if not positions:
            return None  # nothing of the order is shown here
        drawn = [order[p] for p in positions]
    else:
        return f"unknown draw {draw!r}"
    field = c.get("field")
    if not isinstance(field, str):
        return "no field names what was drawn"
    shown = shown_by(event, field)
    if shown is None:
        return f"the event has no {field}"
    if shown != drawn:
        return f"{field} shows {shown}, the seed gives {drawn}"
    return None


def unseen(record: dict, event: dict) -> bool:
    """Whether the event is a draw by another player than the record's viewer, whose cards
    (the chance object's `field`) were shown to the drawer alone: its position is public, the
    cards are not, so there is nothing to compare (docs/FAIRNESS.md, "Drawn cards")."""
    c = event.get("chance")
    viewer = record.get("viewer")
    return (isinstance(c, dict) and isinstance(c.get("field"), str)
            and shown_by(event, c["field"]) is None and isinstance(viewer, str)
            and "player" in event and event["player"] != viewer)


def check_events(record: dict) -> tuple[list[str], int]:
    """The commitment and every chance event of the record: (problems, events confirmed).
    Draws by other players than the viewer, whose cards he was not shown, are neither."""
    problems: list[str] = []
    seed = record.get("seed")
    if not isinstance(seed, str):
        return ["the record has no revealed seed (the match is not finished)"], 0
    if commitment(seed) != record.get("seed_commitment"):
        problems.append("the revealed seed does not match the commitment")
    contributions = record.get("contributions", [])
    bad = contribution_problems(contributions)
    if bad:
        return problems + bad, 0
    keys = [mixed_key(seed, [c["seed"] for c in contributions[:n]])
            for n in range(len(contributions) + 1)]
    confirmed = 0
    steps: dict[int, str] = {}
    shown: dict[int, set] = {}  # the positions of each step's shuffle shown so far
    for answer, events in enumerate(record.get("events") or [], start=1):
        for index, event in enumerate(events, start=1):
            if not isinstance(event, dict) or "chance" not in event:
                continue
            c = event["chance"] if isinstance(event["chance"], dict) else {}
            used = c.get("contributions", 0)
            due = sum(1 for x in contributions if isinstance(c.get("step"), int)
                      and x["step"] <= c["step"])
            if used != due:
                problem = (f"it names {used} contributions, the record's list has {due} "
                           "made by its step")
            elif unseen(record, event):
                problem = None
            else:
                problem = check_chance(keys[due], event)
            key = json.dumps([c.get("draw"), c.get("count"), c.get("items"), c.get("deck"),
                              used])
            if problem is None and steps.setdefault(c["step"], key) != key:
                problem = f"step {c['step']} was already drawn with other inputs"
            positions = c.get("positions", []) if c.get("draw") == "shuffle" else []
            seen = shown.setdefault(c["step"], set()) if problem is None else set()
            if problem is None and seen & set(positions):
                problem = (f"position {min(seen & set(positions))} of step {c['step']} was "
                           "already shown: a shuffled card comes out once")
            seen |= set(positions)
            if problem is None:
                confirmed += not unseen(record, event)
            else:
                problems.append(f"answer {answer}, event {index} ({event.get('type')}): "
                                f"{problem}")
    if not confirmed and not problems:
        problems.append("the record holds no chance event")
    return problems, confirmed


# -- the replay with the referee's engines (--replay) ----------------------------------------

def undated(events: list[dict]) -> list[dict]:
    """The events without their deadlines: the turn clock is no part of the record."""
    return [{k: v for k, v in e.items() if k != "deadline"} for e in events]


def replay(record: dict) -> list[str]:
    """Every discrepancy between the record and a replay of its moves with the referee's
    engines, from its seed."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import msgspec

    from referee.core.contributions import Fairness, annotate
    from referee.core.outcome import events_for
    from referee.games import REGISTRY

    problems = []
    engine = REGISTRY[record["game"]]
    options = engine.resolve_options(record.get("options", {}))
    now = 0.0
    contributions = record.get("contributions", [])

    def keyed(state):
        """The state drawing under the key of the contributions made by its step."""
        made = [c["seed"] for c in contributions if c["step"] <= state.step]
        return dataclasses.replace(state, seed=mixed_key(record["seed"], made))

    opening_key = mixed_key(record["seed"], [c["seed"] for c in contributions
                                             if c["step"] == 0])
    state = engine.new_match(tuple(record["players"]), options, opening_key, now=now)
    fairness = msgspec.convert({"seed": record["seed"], "contributions": contributions},
                               Fairness) if contributions else None
    kept, viewer = record.get("events"), record.get("viewer")

    def differs(events, answered) -> bool:
        """Whether `events`, as the referee answers them (chance objects naming their
        contributions, private parts only for the viewer), differ from those `answered`."""
        replayed = json.loads(json.dumps(events_for(annotate(events, fairness), viewer)))
        return undated(replayed) != undated(answered)

    if kept:
        # The creation outcome: `match_created`, then what setting up the match did (dealer
        # draws, hands dealt), which comes from the seed like every later chance event.
        created, opening = kept[0][:1], kept[0][1:]
        if [e.get("type") for e in created] != ["match_created"] or \
                differs(engine.opening_events(state), opening):
            problems.append("the creation events differ from the replay from the seed")
    for index, move in enumerate(record["moves"], start=1):
        if move.get("type") == "timeout" and getattr(state, "deadline", None) is not None:
            now = state.deadline
        try:
            state, events = engine.apply(keyed(state), move, now=now)
        except Exception as exc:  # a refused move is a finding, not a crash
            problems.append(f"move {index} {move} is refused on replay: {exc}")
            break
        if kept is not None and index < len(kept) and differs(events, kept[index]):
            problems.append(f"move {index}: the events differ from the replay from the seed")
    if not engine.is_finished(state):
        problems.append("the replayed match has not finished")
    return problems


def verify(record: dict, *, with_replay: bool = False) -> list[str]:
    """Every discrepancy found (empty: all checks out)."""
    problems, _ = check_events(record)
    if with_replay and isinstance(record.get("seed"), str):
        problems += replay(record)
    return problems


def verify_link(origin: str, record: dict) -> str:
    """The link that opens the referee's /verify page with `record`, checked at once: its
    compact UTF-8 JSON in base64url without padding, in the fragment (never sent to a
    server); the same link fairness.js's recordLink builds."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    encoded = base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")
    return f"{origin.rstrip('/')}/verify#record={encoded}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", type=Path)
    parser.add_argument("--replay", action="store_true")
    parser.add_argument("--link", metavar="ORIGIN")
    args = parser.parse_args(argv)
    record = json.loads(args.record.read_text(encoding="utf-8"))
    if args.link is not None:
        print(verify_link(args.link, record))
        return 0
    problems, confirmed = check_events(record)
    if args.replay and isinstance(record.get("seed"), str):
        try:
            problems += replay(record)
        except ImportError as missing:  # checking the chance events needs Python alone
            print(f"--replay runs the referee's engines, which need {missing.name}: run it "
                  "with the Python of a checkout's environment (.venv/bin/python, which "
                  "`make run` sets up), or without --replay", file=sys.stderr)
            return 2
    for problem in problems:
        print("MISMATCH:", problem)
    if not problems:
        replayed = f" and replays all {len(record['moves'])} moves" if args.replay else ""
        hidden = sum(unseen(record, e) for events in record.get("events") or []
                     for e in events if isinstance(e, dict))
        others = f" ({hidden} draws by other players, whose cards only they saw)" \
            if hidden else ""
        print(f"OK: the seed matches its commitment, {confirmed} chance events are what it "
              f"gives{others}{replayed}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
