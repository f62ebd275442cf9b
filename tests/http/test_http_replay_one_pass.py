"""A game's replay read from its JSON text in one pass (the envelope and every move typed
together, referee.http.typed_replays.decoded_replay) against the same body read as any body
is (parsed, walked, its envelope typed or judged by its schema) and its moves then checked
by the game's move check: the same envelope, the same moves in the same field order, the same
refusal; and marked as checked only when every move fits its type."""

from __future__ import annotations

import os
import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.http.checks import RequestChecks
from referee.service.replays import MOVES_CHECKED

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))
MAX_ID, MAX_ITEMS, MAX_MOVES, MAX_DEPTH = 8, 6, 40, 6
NOW = 1_000_000.0


def _played(engine, seed: int, count: int) -> tuple[list[str], list[dict[str, Any]]]:
    """The players and up to `count` legal moves of a random match."""
    players = ["p0", "p1", "p2"][:max(engine.min_players, 2)]
    state = engine.new_match(tuple(players), engine.resolve_options(engine.playout_options),
                             f"t{seed}", now=NOW)
    pick, moves = random.Random(seed), []
    while len(moves) < count and not engine.is_finished(state):
        move = random_move(engine, engine.legal_moves(state, now=NOW), pick)
        moves.append(move)
        state, _ = engine.apply(state, move, now=NOW)
    return players, moves


def _answer(read) -> tuple[str, Any]:
    """What reading a body gives: the envelope, or the refusal (its kind, words and fields)."""
    try:
        return "read", read()
    except ValidationError as exc:  # never expected: a schema's refusal is a Refused
        return "schema", exc.messages
    except Exception as exc:  # noqa: BLE001 - compared, not handled
        return type(exc).__name__, (str(exc), getattr(exc, "code", None),
                                    getattr(exc, "extra", None), getattr(exc, "errors", None))


def _one_pass_is_two(checks: RequestChecks, game_id: str, raw: bytes) -> bool:
    """Asserts the one pass reads `raw` as the two steps do; whether it took the one pass."""
    two = _answer(lambda: checks.body("replay", raw, MAX_DEPTH))
    one = _answer(lambda: checks.body("replay", raw, MAX_DEPTH, game_id))
    if two[0] != "read":
        assert one == two, raw
        return False
    envelope = two[1]
    checked = checks.replay_moves(game_id, [entry["move"] for entry in envelope["moves"]])
    assert one[0] == "read", (raw, one)
    got = dict(one[1])
    marked = got.pop(MOVES_CHECKED, False)
    if not marked:  # left to the two steps (a rarer spelling): read as they read it
        assert got == envelope, raw
        return False
    assert marked is True and checked is not None, raw
    expected = {**envelope, "moves": [{**entry, "move": move}
                                      for entry, move in zip(envelope["moves"], checked)]}
    assert got == expected, raw
    assert list(got) == list(expected)
    assert [list(entry["move"]) for entry in got["moves"]] == [list(m) for m in checked]
    return True


# Faults made to a replay of legal moves: each either refused or left to the two steps.
ENVELOPE_FAULTS = [
    ("creation", "players", ["p0", "p0"]), ("creation", "players", []),
    ("creation", "seed", 3.0), ("creation", "seed", 2**64), ("creation", "bots", ["p9", "p9"]),
    ("creation", "options", {"a": {"b": {"c": {"d": {"e": 1}}}}}),  # deeper than the limit
    ("creation", "options", {"a": {"b": 1}}), ("creation", "other", 1),
    ("created_at", None, -1), ("created_at", None, 5), ("viewer", None, "p" * (MAX_ID + 1)),
    ("seat_token_ttl", None, 5.0), ("other", None, 1),
]


@st.composite
def _bodies(draw, game_id: str) -> bytes:
    engine = REGISTRY[game_id]
    players, moves = _played(engine, draw(st.integers(0, 50)), draw(st.integers(0, 12)))
    entries: list[dict[str, Any]] = [{"move": dict(move)} for move in moves]
    for entry in entries:
        if draw(st.integers(0, 5)) == 0:
            entry["at"] = draw(st.sampled_from([NOW, 0, -1, True, 2.5]))
    if entries and draw(st.booleans()):  # a move made wrong, or spelt in a rarer way
        move = draw(st.sampled_from(entries))["move"]
        name = draw(st.sampled_from(sorted(move)))
        move[name] = draw(st.sampled_from([None, 3.0, "", [], {}, "p" * (MAX_ID + 1), 7,
                                           "AS\n", ["AS\n"], "AS"]))
    body: dict[str, Any] = {"creation": {"players": players, "seed": "s"}, "moves": entries}
    if draw(st.integers(0, 3)) == 0:
        key, inner, value = draw(st.sampled_from(ENVELOPE_FAULTS))
        (body[key] if inner else body)[inner or key] = value
    text = msgspec.json.encode(body)
    if entries and draw(st.integers(0, 4)) == 0:
        # A move's type given twice: JSON keeps the last, and so must the replay.
        other = draw(st.sampled_from([t.type for t in engine.move_types]))
        text = text.replace(b'{"type":', b'{"type":"%s","type":' % other.encode(), 1)
    return text


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_replay_read_in_one_pass_is_the_replay_read_then_checked(game_id):
    checks = RequestChecks({game_id: REGISTRY[game_id]}, MAX_ID, MAX_ITEMS, MAX_MOVES)
    assert game_id in checks.replay_decoders
    passes = []

    @settings(max_examples=EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(_bodies(game_id))
    def check(raw):
        passes.append(_one_pass_is_two(checks, game_id, raw))

    check()
    assert any(passes), "the one pass is the one taken"
    # A replay of legal moves takes the one pass (under limits that every legal move keeps).
    roomy = RequestChecks({game_id: REGISTRY[game_id]}, 64, 64, 2000)
    players, moves = _played(REGISTRY[game_id], 1, 60)
    assert _one_pass_is_two(roomy, game_id, msgspec.json.encode(
        {"creation": {"players": players}, "moves": [{"move": m} for m in moves]}))


def test_a_body_that_is_not_json_is_refused_as_before():
    game_id = "huit-americain"
    checks = RequestChecks({game_id: REGISTRY[game_id]}, MAX_ID, MAX_ITEMS, MAX_MOVES)
    for raw in (b"", b"{", b'{"creation": {"players": ["\xff"]}, "moves": []}',
                b'{"creation": {"players": ["\\ud800"]}, "moves": []}', b"[" * 5000,
                b'{"creation": {"players": ["p0"], "options": ' + b"[" * 5000 + b"]" * 5000
                + b"}, \"moves\": []}"):
        assert not _one_pass_is_two(checks, game_id, raw)
