"""Every limit the service promises, tried exactly at its value and one past it.

A limit tested only far beyond it (a body of megabytes, JSON nested 100,000 deep) can drift by
one unnoticed; these tests put a request on each side of the line."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

import referee
from referee.core.engine import MAX_COUNTER, MAX_OPTION_TEXT
from referee.core.wire import FIRST_VERSION
from referee.games import REGISTRY
from referee.http.contract import pascal
from referee.http import settings
from referee.http.checks import RequestChecks, envelope_nesting, nesting
from referee.http.operations import CONTRACT_VERSION
from tests.support import committed_contract

ROOT = Path(__file__).resolve().parents[2]
SPEC = committed_contract()
# The settings table operators read (docs/OPERATIONS.md, "Settings").
OPERATIONS = (ROOT / "docs" / "OPERATIONS.md").read_text(encoding="utf-8")
DICE = "/v1/games/generala-dice"
EMPEREUR = "/v1/games/empereur"
CARDS = "/v1/games/generala-cards"
ROLL = {"type": "roll", "player": "ann", "keep": []}


def client_with(clock, **limits):
    return referee.create_app({"CLOCK": clock, "STATE_KEYS": [], **limits}).test_client()


def refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json(force=True)
    assert body["code"] == code, body
    return body


def dice_match(client, players=("ann", "bob"), **extra) -> dict:
    response = client.post(f"{DICE}/matches", json={"players": list(players), "seed": 1, **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


# -- the defaults clients are told -------------------------------------------------------------
def test_the_default_limits_are_the_ones_the_operations_guide_and_the_contract_state():
    defaults = settings.from_environment({})
    for name in ("MAX_BODY_BYTES", "MAX_JSON_DEPTH", "MAX_PLAYER_ID_LENGTH", "MAX_LIST_ITEMS"):
        row = re.search(rf"^\| `REFEREE_{name}` \| `(\d+)` \|", OPERATIONS, re.MULTILINE)
        assert row and int(row.group(1)) == defaults[name], name
    schemas = SPEC["components"]["schemas"]
    assert schemas["PlayerId"]["maxLength"] == defaults["MAX_PLAYER_ID_LENGTH"]
    for game_id, engine in REGISTRY.items():
        players = schemas[f"{pascal(game_id)}CreateMatchRequest"]["properties"]["players"]
        assert players["maxItems"] == engine.max_players <= defaults["MAX_LIST_ITEMS"]


@pytest.mark.parametrize("raw,expected", [("1", 1), ("", 256)], ids=["one", "empty-is-default"])
def test_a_limit_setting_of_one_is_taken_and_an_empty_one_is_the_default(raw, expected):
    assert settings.from_environment({"REFEREE_MAX_LIST_ITEMS": raw})["MAX_LIST_ITEMS"] == expected


@pytest.mark.parametrize("raw", ["0", "-1"])
def test_a_limit_setting_below_one_is_refused_at_startup(raw):
    with pytest.raises(ValueError, match="positive"):
        settings.from_environment({"REFEREE_MAX_LIST_ITEMS": raw})


def test_a_player_id_limit_above_what_a_picture_draws_is_refused_at_startup():
    """Player ids are drawn in pictures, whose events take strings of at most 256
    characters; a larger limit would let a state hold ids no picture request could carry."""
    assert settings.from_environment(
        {"REFEREE_MAX_PLAYER_ID_LENGTH": "256"})["MAX_PLAYER_ID_LENGTH"] == 256
    with pytest.raises(ValueError, match="may not exceed 256"):
        settings.from_environment({"REFEREE_MAX_PLAYER_ID_LENGTH": "257"})


def test_a_sealing_key_of_32_characters_is_taken_and_one_of_31_is_refused():
    key = "0123456789abcdefghijklmnopqrstuv"  # 32 different characters
    assert settings.state_keys([key]) == [key]
    with pytest.raises(ValueError, match="32 characters"):
        settings.state_keys([key[:31]])


# -- JSON depth ----------------------------------------------------------------------------------
def nested_creation(depth: int) -> bytes:
    """A creation body whose deepest container sits at `depth` (the body itself is level 1,
    its options object level 2, then lists inside the option's value)."""
    lists = depth - 2
    return (b'{"players": ["a", "b"], "options": {"turn_seconds": '
            + b"[" * lists + b"]" * lists + b"}}")


def test_json_exactly_as_deep_as_the_limit_is_read_and_one_level_more_is_refused(app, client):
    limit = app.config["MAX_JSON_DEPTH"]
    at_limit = client.post(f"{DICE}/matches", data=nested_creation(limit),
                           content_type="application/json")
    # Read past the depth check: the option's value itself is judged, and found no integer.
    refused(at_limit, 422, "invalid_options")
    past = client.post(f"{DICE}/matches", data=nested_creation(limit + 1),
                       content_type="application/json")
    assert refused(past, 422, "validation_error")["errors"] == {"_body": ["nested too deeply"]}


def test_a_depth_limit_of_two_refuses_an_ordinary_move_but_never_walks_the_state(clock):
    client = client_with(clock, MAX_JSON_DEPTH=2)
    state = dice_match(client)["state"]  # {"players": [...]}: two levels, taken
    # The move's `keep` list is a third level...
    deep = client.post(f"{DICE}/moves", json={"state": state, "move": ROLL})
    assert refused(deep, 422, "validation_error")["errors"] == {"_body": ["nested too deeply"]}
    # ...while the open state (sheets: a list of objects, four levels) is left to its typed
    # decoder, so the same move without `keep` goes through.
    shallow = client.post(f"{DICE}/moves", json={
        "state": state, "move": {"type": "roll", "player": "ann"}})
    assert shallow.status_code == 200, shallow.get_json()


def nested_move(state: dict, depth: int) -> bytes:
    """A move request whose deepest container sits at `depth`: the body is level 1, its move
    level 2, then lists inside the move's `keep`."""
    lists = depth - 2
    return json.dumps({"state": state, "move": {"type": "roll", "player": "ann", "keep": "_"}}
                      ).replace('"_"', "[" * lists + "]" * lists).encode()


@pytest.mark.parametrize("headers", [{}, {CONTRACT_VERSION: FIRST_VERSION}],
                         ids=["move endpoint's own path", "through Flask"])
def test_a_move_exactly_as_deep_as_the_limit_is_read_and_one_level_more_is_refused(
        app, client, headers):
    """A body the typed move envelope takes is not walked (it cannot nest past three levels):
    a deeper one goes the schema's way, where the walk refuses it before anything else."""
    limit = app.config["MAX_JSON_DEPTH"]
    state = dice_match(client)["state"]
    at_limit = client.post(f"{DICE}/moves", data=nested_move(state, limit), headers=headers,
                           content_type="application/json")
    # Read past the depth check: the move itself is judged, and its `keep` found wrong.
    assert "move" in refused(at_limit, 422, "validation_error")["errors"]
    past = client.post(f"{DICE}/moves", data=nested_move(state, limit + 1), headers=headers,
                       content_type="application/json")
    assert refused(past, 422, "validation_error")["errors"] == {"_body": ["nested too deeply"]}


def test_the_typed_move_envelope_nests_at_most_three_levels():
    assert RequestChecks(REGISTRY, 64, 256).typed_depths == {"move": 3}
    assert nesting(msgspec.inspect.type_info(list[dict[str, int]])) == 2
    # The open state is left aside at the top of a body only, as the walk leaves it.
    flat = msgspec.defstruct("Body", [("state", Any), ("move", dict[str, int])])
    assert envelope_nesting(flat) == 2
    inner = msgspec.defstruct("Inner", [("state", list[list[int]])])
    assert envelope_nesting(msgspec.defstruct("Body", [("state", Any), ("inner", inner)])) == 4
    # Any value at all, or a type the count does not know, may nest without end.
    assert nesting(msgspec.inspect.type_info(dict[str, Any])) == math.inf
    assert nesting(msgspec.inspect.type_info(tuple[int, int])) == math.inf
    assert nesting(msgspec.inspect.type_info(Tree)) == math.inf


class Tree(msgspec.Struct):
    """A type that holds itself: JSON it decodes may nest without end."""

    children: list[Tree]


def test_a_replay_s_moves_are_left_to_their_typed_decoders_not_walked(clock):
    """Under a depth limit of three (the creation's list of players) a replay is read though
    its moves sit four levels deep; a move nested far past the limit is refused at its
    index, as a move of the wrong shape."""
    client = client_with(clock, MAX_JSON_DEPTH=3)
    creation = {"players": ["ann", "bob"], "seed": 1}
    moves = [{"move": {"type": "roll", "player": "ann"}}]
    played = client.post(f"{DICE}/replays", json={"creation": creation, "moves": moves})
    assert played.status_code == 200, played.get_json()
    assert played.get_json()["moves_applied"] == 1
    deep = {"type": "roll", "player": "bob", "keep": [[[[[[[[[[1]]]]]]]]]]}
    refusal = refused(client.post(f"{DICE}/replays", json={
        "creation": creation, "moves": [*moves, {"move": deep}]}), 422, "validation_error")
    assert refusal["move_index"] == 1 and "keep" in refusal["errors"]["move"]
    # The rest of the body is held to the limit as any request's.
    refused(client.post(f"{DICE}/replays", json={
        "creation": {**creation, "options": {"turn_seconds": [[0]]}}, "moves": moves}),
        422, "validation_error")


def test_the_depth_limit_is_read_from_the_environment(monkeypatch, clock):
    monkeypatch.setenv("REFEREE_MAX_JSON_DEPTH", "2")
    client = client_with(clock)
    dice_match(client)
    refused(client.post(f"{DICE}/matches", data=nested_creation(3),
                        content_type="application/json"), 422, "validation_error")


# -- body size -----------------------------------------------------------------------------------
BODY_LIMIT = 1000


def padded_creation(size: int) -> bytes:
    body = b'{"players": ["a", "b"]}'
    return body + b" " * (size - len(body))


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_body_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(clock, chunked):
    client = client_with(clock, MAX_BODY_BYTES=BODY_LIMIT)

    def post(body: bytes):
        if not chunked:
            return client.post(f"{DICE}/matches", data=body, content_type="application/json")
        return client.post(f"{DICE}/matches", input_stream=io.BytesIO(body),
                           content_type="application/json",
                           headers={"Transfer-Encoding": "chunked"},
                           environ_overrides={"wsgi.input_terminated": True})

    assert post(padded_creation(BODY_LIMIT)).status_code == 201
    refused(post(padded_creation(BODY_LIMIT + 1)), 413, "payload_too_large")


# -- player ids and string fields ----------------------------------------------------------------
def test_a_player_id_of_the_longest_length_is_taken_everywhere_and_one_more_is_refused(app,
                                                                                      client):
    longest = app.config["MAX_PLAYER_ID_LENGTH"]
    ann, too_long = "a" * longest, "a" * (longest + 1)
    created = dice_match(client, players=(ann, "bob"), viewer=ann)
    state = created["state"]

    def names_the_limit(messages) -> bool:  # the refusal is for the length, not another rule
        return any(str(longest) in m for m in messages)

    body = refused(client.post(f"{DICE}/matches", json={"players": [too_long, "bob"]}),
                   422, "validation_error")
    assert names_the_limit(body["errors"]["players"]["0"])
    body = refused(client.post(f"{DICE}/matches", json={"players": [ann, "bob"],
                                                         "viewer": too_long}),
                   422, "validation_error")
    assert names_the_limit(body["errors"]["viewer"])

    for path, field in [("legal-moves", "player"), ("views", "player")]:
        assert client.post(f"{DICE}/{path}", json={"state": state, field: ann}).status_code == 200
        body = refused(client.post(f"{DICE}/{path}", json={"state": state, field: too_long}),
                       422, "validation_error")
        assert names_the_limit(body["errors"][field])

    moved = client.post(f"{DICE}/moves", json={"state": state, "viewer": ann,
                                               "move": {"type": "roll", "player": ann}})
    assert moved.status_code == 200, moved.get_json()
    body = refused(client.post(f"{DICE}/moves", json={
        "state": state, "move": {"type": "roll", "player": too_long}}), 422, "validation_error")
    assert names_the_limit(body["errors"]["move"]["player"])
    body = refused(client.post(f"{DICE}/moves", json={
        "state": state, "viewer": too_long, "move": {"type": "roll", "player": ann}}),
        422, "validation_error")
    assert names_the_limit(body["errors"]["viewer"])


def test_a_string_field_of_a_move_is_bounded_like_a_player_id(app, client):
    longest = app.config["MAX_PLAYER_ID_LENGTH"]
    state = client.post(f"{EMPEREUR}/matches", json={"players": ["ann", "bob"], "seed": 1}
                        ).get_json()["state"]

    def verdict(to: str) -> dict:
        return client.post(f"{EMPEREUR}/validations", json={"state": state, "move": {
            "type": "give", "player": "ann", "card": "AS", "to": to}}).get_json()

    # At the limit the move has its shape and the rules judge it; one more character and
    # the shape itself is wrong.
    assert verdict("b" * longest)["code"] != "validation_error"
    past = verdict("b" * (longest + 1))
    assert past["code"] == "validation_error" and "to" in past["errors"]["move"]


def test_an_option_text_of_the_longest_length_is_taken_and_one_more_is_refused(client):
    longest = "d" * MAX_OPTION_TEXT
    created = client.post(f"{CARDS}/matches", json={"players": [longest, "bob"],
                                                     "options": {"dealer": longest}})
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["state"]["options"]["dealer"] == longest
    body = refused(client.post(f"{CARDS}/matches", json={
        "players": [longest, "bob"], "options": {"dealer": longest + "d"}}),
        422, "invalid_options")
    assert body["problems"] == [f"dealer: must be at most {MAX_OPTION_TEXT} characters"]


# -- list lengths --------------------------------------------------------------------------------
def test_a_player_list_of_the_longest_length_is_taken_and_one_more_is_refused(clock):
    client = client_with(clock, MAX_LIST_ITEMS=3)  # the game itself takes up to six players
    dice_match(client, players=("ann", "bob", "cy"))
    body = refused(client.post(f"{DICE}/matches", json={"players": ["ann", "bob", "cy", "dee"]}),
                   422, "validation_error")
    assert "players" in body["errors"]


def test_as_many_options_as_the_list_limit_are_read_and_one_more_is_refused(clock):
    engine = REGISTRY["generala-dice"]
    every_option = {o.name: o.default for o in engine.options}
    client = client_with(clock, MAX_LIST_ITEMS=len(every_option))
    dice_match(client, options=every_option)
    # One more (unknown) option: refused for the count before any option is judged.
    body = refused(client.post(f"{DICE}/matches", json={
        "players": ["ann", "bob"], "options": {**every_option, "extra": 1}}),
        422, "validation_error")
    assert "options" in body["errors"]


@pytest.mark.parametrize("game,move,field,longest", [
    ("generala-dice", {"type": "roll", "player": "ann"}, "keep", 4),
    ("empereur", {"type": "play", "player": "ann"}, "cards", 6),
], ids=["dice-kept", "cards-laid"])
def test_a_move_list_of_its_declared_length_has_its_shape_and_one_more_item_does_not(
        client, game, move, field, longest):
    state = client.post(f"/v1/games/{game}/matches", json={"players": ["ann", "bob"], "seed": 1}
                        ).get_json()["state"]
    item = 1 if field == "keep" else "AS"

    def verdict(count: int) -> dict:
        return client.post(f"/v1/games/{game}/validations", json={
            "state": state, "move": {**move, field: [item] * count}}).get_json()

    assert verdict(longest)["code"] != "validation_error"
    past = verdict(longest + 1)
    assert past["code"] == "validation_error" and field in past["errors"]["move"]


# -- seeds ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed,taken", [
    ("s" * 128, True), ("s" * 129, False), ("s", True), ("", False),
    (2**128 - 1, True), (2**128, False), (0, True), (-1, False),
], ids=["text-128", "text-129", "text-1", "text-empty", "integer-2^128-1", "integer-2^128",
        "integer-0", "integer-minus-1"])
def test_a_seed_is_taken_up_to_its_documented_bounds_and_refused_one_past(client, seed, taken):
    response = client.post(f"{DICE}/matches", json={"players": ["ann", "bob"], "seed": seed})
    if taken:
        assert response.status_code == 201, response.get_json()
    else:
        assert "seed" in refused(response, 422, "validation_error")["errors"]


@pytest.mark.parametrize("written,seed", [
    ("3.0", "3"), ("9007199254740991.0", "9007199254740991"), ("1e15", "1000000000000000"),
    ("9007199254740993", "9007199254740993"), ("9007199254740993.0", None),
    ("9007199254740992.0", None), ("1e38", None), ("3.5", None)])
def test_a_seed_written_with_a_fraction_or_exponent_is_taken_only_where_it_is_exact(
        client, written, seed):
    # Past 2^53 a double holds no integer exactly: such a seed would seed another match.
    response = client.post(f"{DICE}/matches", content_type="application/json",
                           data='{"players": ["ann", "bob"], "seed": %s}' % written)
    if seed is None:
        assert "seed" in refused(response, 422, "validation_error")["errors"]
    else:
        assert response.status_code == 201 and response.get_json()["state"]["seed"] == seed
    replay = client.post(f"{DICE}/replays", content_type="application/json",
                         data='{"creation": {"players": ["ann", "bob"], "seed": %s}, '
                              '"moves": []}' % written)
    assert replay.status_code == (422 if seed is None else 200), replay.get_json()


# -- state counters ------------------------------------------------------------------------------
def test_a_state_counter_at_the_published_bound_is_taken_and_one_past_is_invalid_state(client):
    bound = SPEC["components"]["schemas"]["GeneralaDiceState"]["x-max-counter"]
    state = dice_match(client)["state"]
    at_bound = client.post(f"{DICE}/legal-moves", json={"state": {**state, "step": bound}})
    assert at_bound.status_code == 200, at_bound.get_json()
    body = refused(client.post(f"{DICE}/legal-moves", json={"state": {**state, "step": bound + 1}}),
                   422, "invalid_state")
    assert body["problems"] == [f"step is {bound + 1}, beyond any real match"]


def test_a_posted_state_s_player_ids_and_seed_are_bounded_as_a_request_s(client):
    """An open-mode state is the caller's text: its player ids are held to the requests'
    limit and its seed to a seed's, so no state carries a string a request could not."""
    created = client.post("/v1/games/generala-dice/matches",
                          json={"players": ["ann", "bob"], "seed": "s"}).get_json()
    state = created["state"]
    limit = settings.from_environment({})["MAX_PLAYER_ID_LENGTH"]
    for changed, problem in ((
            {"players": ["a" * (limit + 1), "bob"]}, f"longer than {limit} characters"),
            ({"seed": "s" * 129}, "seed: longer than 128 characters")):
        answer = client.post("/v1/games/generala-dice/views",
                             json={"state": {**state, **changed}, "player": "bob"})
        assert answer.status_code == 422
        assert answer.get_json()["code"] == "invalid_state"
        assert any(problem in p for p in answer.get_json()["problems"]), answer.get_json()
    longest = {**state, "players": ["a" * limit, "bob"], "seed": "s" * 128}
    assert client.post("/v1/games/generala-dice/views",
                       json={"state": longest, "player": "bob"}).status_code == 200


def test_a_move_that_would_carry_a_counter_past_its_bound_is_refused(client):
    """A state's counters stay within 2^31 (the contract's bound): a forged state at the bound
    may be read, but a move that would pass it is refused, and its dry run says so."""
    created = client.post("/v1/games/generala-dice/matches",
                          json={"players": ["ann", "bob"], "seed": "s"}).get_json()
    move = created["legal_moves"][0]
    for step, accepted in ((MAX_COUNTER - 100, True), (MAX_COUNTER, False)):
        body = {"state": {**created["state"], "step": step}, "move": move}
        answer = client.post("/v1/games/generala-dice/moves", json=body)
        dry_run = client.post("/v1/games/generala-dice/validations", json=body).get_json()
        assert (answer.status_code == 200) is accepted is dry_run["legal"], answer.get_json()
        if not accepted:
            assert answer.get_json()["code"] == dry_run["code"] == "invalid_state"
            assert answer.get_json()["problems"] == [f"step would pass {MAX_COUNTER}"]
