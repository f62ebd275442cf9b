"""A sealed state's JSON is read in one pass (`referee.service.codec._sealed_match`): it must
accept and refuse exactly what the two decoders it replaces did (the game's state type, then
the table beside it, each skipping the other's keys; a JSON either refuses read again as
plain JSON), with the same match or the same refusal.

The JSON is that of real matches, altered at random (cut short, a character changed, a value
of the wrong type, a field dropped or added) and sealed, so that it authenticates and reaches
the decoders."""

from __future__ import annotations

import base64
import binascii
import functools
import json
import os
import random
import re

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from referee.core.contributions import Contribution, Fairness
from referee.core.errors import RefereeError, TamperedState
from referee.core.hints import Seating
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.service.codec import (FAIRNESS, MOVES, SEATING, Match, SealedTable,
                                    StateCodec, plain_sealed_match)
from referee.http.sealing import MAX_TOKEN_CHARS, Sealer, token_bytes, token_text
from tests.support import SEALING_KEYS

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
NOW = 1_000_000.0
SEALER = Sealer(list(SEALING_KEYS))
CODEC = StateCodec(SEALER)
# Values of every JSON type, to put where another type belongs.
ODD_VALUES = [None, True, False, 0, -1, 2**31, 2**64, 1.5, "", "x", "AS", [], [1], ["p0"], {},
              {"bots": []}, {"seed": "s", "contributions": []}]


def _two_pass(engine, plaintext: bytes) -> Match:
    """What opening a sealed state did before it was read in one pass."""
    state_decoder = msgspec.json.Decoder(engine.state_type, strict=True)
    table_decoder = msgspec.json.Decoder(SealedTable, strict=True)
    try:
        table = table_decoder.decode(plaintext)
        return Match(state_decoder.decode(plaintext), table.seating, table.fairness,
                     table.moves)
    except msgspec.DecodeError:
        return plain_sealed_match(engine, plaintext)


def _answer(load):
    """The match loaded, or what refused it: its type, problem code and message."""
    try:
        match = load()
    except Exception as exc:  # noqa: BLE001 - whatever refused it, both ways must agree
        return ("refused", type(exc), getattr(exc, "code", None), str(exc),
                getattr(exc, "problems", None) if isinstance(exc, RefereeError) else None)
    return ("opened", type(match.state), match, vars(match.state))


@functools.cache
def _wires(game_id: str) -> tuple[dict, ...]:
    """Sealed forms of a few states along a random match, with and without a table (and
    with a count of moves, or none as in a token sealed before the count was kept)."""
    engine = REGISTRY[game_id]
    pick = random.Random(game_id)
    players = tuple(f"p{i}" for i in range(engine.min_players))
    state = engine.new_match(players, engine.resolve_options(engine.playout_options),
                             f"decode-{game_id}", now=NOW)
    tables = [(Seating(), None),
              (Seating(bots=players[:1], hints_allowed=True),
               Fairness(seed="server-seed", contributions=[
                   Contribution(player=players[0], seed="a" * 16, step=0),
                   Contribution(player=None, seed="b" * 16, step=1)]))]
    wires = []
    for step in range(30):
        if engine.is_finished(state):
            break
        if step % 5 == 0:
            wires += [StateCodec(None).dump(engine, Match(state, *table)) for table in tables]
            wires.append({**wires[-1], MOVES: step})
        state, _ = engine.apply(state, random_move(engine, engine.legal_moves(state, now=NOW),
                                                   pick), now=NOW)
    return tuple(wires)


def _paths(value, path=()):
    """Every path to a value inside `value` (keys of objects, indices of lists)."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*path, index))


def _replaced(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    return [*value[:head], _replaced(value[head], rest, new), *value[head + 1:]]


def _dropped(value, path):
    head, rest = path[0], path[1:]
    if rest:
        return _replaced(value, path[:1], _dropped(value[head], rest))
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k != head}
    return [*value[:head], *value[head + 1:]]


@st.composite
def _altered_json(draw, game_id: str) -> bytes:
    wire = draw(st.sampled_from(_wires(game_id)))
    paths = list(_paths(wire))
    kind = draw(st.sampled_from(["none", "cut", "char", "type", "drop", "add", "drop-table"]))
    if kind == "type":
        wire = _replaced(wire, draw(st.sampled_from(paths)), draw(st.sampled_from(ODD_VALUES)))
    elif kind == "drop":
        wire = _dropped(wire, draw(st.sampled_from(paths[1:])))
    elif kind == "add":
        inner = [p for p in paths if isinstance(_at(wire, p), dict)]
        where = draw(st.sampled_from(inner))
        added = draw(st.sampled_from(["extra", "seed", "bots", "z", MOVES]))
        wire = _replaced(wire, where, {**_at(wire, where),
                                       added: draw(st.sampled_from(ODD_VALUES))})
    elif kind == "drop-table":
        wire = {k: v for k, v in wire.items() if k not in (SEATING, FAIRNESS, MOVES)
                or draw(st.booleans())}
    text = json.dumps(wire).encode()
    if kind == "cut":
        text = text[:draw(st.integers(1, len(text) - 1))]  # (an empty one cannot be sealed)
    elif kind == "char":
        at = draw(st.integers(0, len(text) - 1))
        text = text[:at] + draw(st.sampled_from([b"0", b"x", b'"', b"{", b"]", b",", b"\xff"])) \
            + text[at + 1:]
    return text


def _at(value, path):
    for step in path:
        value = value[step]
    return value


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_one_pass_decoder_opens_and_refuses_as_the_two_decoders_did(game_id):
    engine = REGISTRY[game_id]

    @settings(max_examples=EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(_altered_json(game_id))
    def check(plaintext):
        token = SEALER.seal(game_id, plaintext)
        assert _answer(lambda: CODEC.load_match(engine, token)) == \
            _answer(lambda: _two_pass(engine, plaintext))

    check()


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_unaltered_state_opens_to_a_state_of_the_game_s_own_type(game_id):
    """The one pass reads the state as a type extended with the table's fields: what it gives
    is the game's state type itself, equal to the state sealed and sealed back the same (a
    state sealed without a count of moves is sealed back with none: `null`)."""
    engine = REGISTRY[game_id]
    for wire in _wires(game_id):
        plaintext = json.dumps(wire).encode()
        match = CODEC.load_match(engine, SEALER.seal(game_id, plaintext))
        assert type(match.state) is engine.state_type
        assert match == _two_pass(engine, plaintext)
        assert not {SEATING, FAIRNESS, MOVES} & set(vars(match.state))
        assert match.moves == wire.get(MOVES)
        assert SEALER.open(game_id, CODEC.dump(engine, match)) == msgspec.json.encode(
            {**wire, MOVES: wire.get(MOVES)})


# -- a token's text --------------------------------------------------------------------------

TOKEN_FORM = re.compile(r"(v[123])\.([A-Za-z0-9_-]+)")
B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _two_pass_raw(token: str):
    """What reading a token's text did before its alphabet was checked by the decoding: the
    token's form matched first, then its base64url decoded, then its spelling checked."""
    form = TOKEN_FORM.fullmatch(token) if len(token) <= MAX_TOKEN_CHARS else None
    if form is None:
        raise TamperedState("the state token is not one this referee sealed")
    version, raw_text = form.group(1), form.group(2)
    try:
        raw = base64.urlsafe_b64decode(raw_text + "=" * (-len(raw_text) % 4))
    except (binascii.Error, ValueError):
        raise TamperedState("the state token is not valid base64url") from None
    spare = {0: 0, 2: 0b1111, 3: 0b11}[len(raw_text) % 4]
    if B64URL.index(raw_text[-1]) & spare:
        raise TamperedState("the state token is not one this referee sealed")
    return version, raw


def _raw_answer(read, token):
    try:
        return ("read", read(token))
    except TamperedState as exc:
        return ("refused", exc.code, str(exc))


# Characters of base64url, of base64 only, of neither (ASCII or not, digits of other scripts,
# JSON's quote and escape, and escapes JSON would read as base64 characters).
CHARACTERS = [*"Az09-_", "+", "/", "=", ".", "!", " ", "\n", "\x00", "é", "\u0660", "ａ",
              '"', "\\", "\\u0041", "\\/", "\\\\"]


@st.composite
def _altered_token(draw) -> str:
    game_id = draw(st.sampled_from(sorted(REGISTRY)))
    token = SEALER.seal(game_id, json.dumps(draw(st.sampled_from(_wires(game_id)))).encode())
    kind = draw(st.sampled_from(["none", "cut", "char", "insert", "pad", "version", "long"]))
    at = draw(st.integers(0, len(token) - 1))
    if kind == "cut":
        return token[:at]
    if kind == "char":
        return token[:at] + draw(st.sampled_from(CHARACTERS)) + token[at + 1:]
    if kind == "insert":
        return token[:at] + draw(st.sampled_from(CHARACTERS)) + token[at:]
    if kind == "pad":
        return token + "=" * draw(st.integers(1, 3))
    if kind == "version":
        return draw(st.sampled_from(["v1.", "v2.", "v4.", "V3.", "v3", "v3..", "", "v"])) \
            + token[3:]
    if kind == "long":
        return "v3." + "A" * draw(st.integers(MAX_TOKEN_CHARS - 5, MAX_TOKEN_CHARS))
    return token


@settings(max_examples=EXAMPLES * 4, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_altered_token())
def test_a_token_s_text_is_read_and_refused_as_the_two_passes_did(token):
    """The alphabet is checked by base64's strict decoding instead of a pattern first: every
    token is read to the same bytes or refused with the same message."""
    assert _raw_answer(token_bytes, token) == _raw_answer(_two_pass_raw, token)


@pytest.mark.parametrize("token", ["", "v3.", "v3.A", "v3.AA", "v3.AB", "v3.AAA=", "v3.AA==",
                                   "v3.+AAA", "v3./AAA", "v3.AA A", "v3.AAé", "v3.AAA\n",
                                   "v3.AAAA", "v3.AAAAA", "v1.AAAA", "v4.AAAA",
                                   'v3.AA"A', "v3.\\u0041AAA", "v3.AA\\/A", "v3.AA\\nA",
                                   # escapes JSON would read as four base64 characters
                                   "v3.\\/\\/\\/\\/", "v3.AAAA" + "\\u0041" * 4])
def test_short_tokens_are_read_as_the_two_passes_did(token):
    assert _raw_answer(token_bytes, token) == _raw_answer(_two_pass_raw, token)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.binary(min_size=0, max_size=200))
def test_a_token_s_text_is_base64url_without_padding_and_reads_back(raw):
    text = token_text(raw)
    assert text == base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")
    if raw:
        assert token_bytes("v3." + text) == ("v3", raw)
