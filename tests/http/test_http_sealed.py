"""Sealed mode: tokens a client can neither read nor alter, bound to their game, rotatable."""

from __future__ import annotations

import base64
import hmac
import os
import random
import threading

import msgspec
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

import referee
from referee.core.contributions import Contribution, Fairness
from referee.core.errors import TamperedState
from referee.core.hints import Seating
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.service.codec import MOVES, Match, StateCodec
from referee.http import sealing
from referee.http.sealing import MAX_TOKEN_CHARS, Sealer, token_bytes
from tests.support import SEALING_KEYS


DICE = "/v1/games/generala-dice"
ROLL = {"type": "roll", "player": "ann", "keep": []}


def create(client, **extra):
    response = client.post(f"{DICE}/matches", json={"players": ["ann", "bob"], "seed": "s3cret",
                                                     **extra})
    assert response.status_code == 201
    return response.get_json()


def code_of(response):
    return response.get_json(force=True).get("code")


def test_a_sealed_state_is_an_opaque_token_hiding_the_seed(sealed_client):
    outcome = create(sealed_client)
    token = outcome["state"]
    assert isinstance(token, str) and token.startswith("v3.")
    raw = base64.urlsafe_b64decode(token[3:] + "==")
    assert b"s3cret" not in raw and b"players" not in raw
    moved = sealed_client.post(f"{DICE}/moves", json={"state": token, "move": ROLL})
    assert moved.status_code == 200 and isinstance(moved.get_json()["state"], str)


def flip(token: str, index: int) -> str:
    body = bytearray(base64.urlsafe_b64decode(token[3:] + "=" * (-len(token[3:]) % 4)))
    body[index % len(body)] ^= 0x01
    return token[:3] + base64.urlsafe_b64encode(bytes(body)).decode().rstrip("=")


@pytest.mark.parametrize("spoil", [
    lambda t: flip(t, 0),
    lambda t: flip(t, 20),
    lambda t: flip(t, -1),
    lambda t: t[:-5],
    lambda t: t[:10],
    lambda t: "v1." + t[3:],
    lambda t: "v2." + t[3:],
    lambda t: "v4." + t[3:],
    lambda t: "v3.",
    lambda t: "v1.!!!not-base64!!!",
    lambda t: t + "AAAA",
], ids=["flip-salt", "flip-body", "flip-tag", "truncated", "cut-short", "as-version-1",
        "as-version-2", "unknown-version", "empty", "not-base64", "extended"])
def test_any_altered_token_is_tampered_state(sealed_client, spoil):
    token = create(sealed_client)["state"]
    response = sealed_client.post(f"{DICE}/moves", json={"state": spoil(token), "move": ROLL})
    assert response.status_code == 422 and code_of(response) == "tampered_state"


def test_a_plain_json_state_is_refused_in_sealed_mode(client, sealed_client):
    open_state = create(client)["state"]
    response = sealed_client.post(f"{DICE}/moves", json={"state": open_state, "move": ROLL})
    assert code_of(response) == "tampered_state"


def test_a_token_of_another_game_is_refused(sealing_keys):
    sealer = Sealer(sealing_keys)
    token = sealer.seal("generala-cards", b"{}")
    from referee.core.errors import TamperedState
    with pytest.raises(TamperedState):
        sealer.open("generala-dice", token)


def test_keys_rotate_first_seals_every_listed_key_opens(clock, sealing_keys):
    old = referee.create_app({"CLOCK": clock, "STATE_KEYS": [sealing_keys[1]]}).test_client()
    new = referee.create_app({"CLOCK": clock, "STATE_KEYS": sealing_keys}).test_client()
    retired = referee.create_app({"CLOCK": clock, "STATE_KEYS": [sealing_keys[0]]}).test_client()
    token = create(old)["state"]
    assert new.post(f"{DICE}/moves", json={"state": token, "move": ROLL}).status_code == 200
    response = retired.post(f"{DICE}/moves", json={"state": token, "move": ROLL})
    assert code_of(response) == "tampered_state"


def test_replaying_an_earlier_token_gives_the_same_dice(sealed_client):
    token = create(sealed_client)["state"]
    first = sealed_client.post(f"{DICE}/moves", json={"state": token, "move": ROLL}).get_json()
    again = sealed_client.post(f"{DICE}/moves", json={"state": token, "move": ROLL}).get_json()
    dice = [e["dice"] for e in first["events"] if e["type"] == "dice_rolled"]
    assert dice == [e["dice"] for e in again["events"] if e["type"] == "dice_rolled"]


def test_the_seed_is_revealed_only_when_the_match_ends(sealed_client):
    pick = random.Random(1)
    outcome = create(sealed_client, options={"turn_seconds": 0})
    while outcome["status"] != "finished":
        assert "seed" not in outcome
        outcome = sealed_client.post(f"{DICE}/moves", json={
            "state": outcome["state"], "move": pick.choice(outcome["legal_moves"])}).get_json()
    assert outcome["seed"] == "s3cret"


def test_short_keys_are_refused_at_startup(monkeypatch):
    monkeypatch.setenv("REFEREE_STATE_KEYS", "too-short")
    with pytest.raises(ValueError):
        referee.create_app()


def test_an_honest_token_of_another_match_or_an_earlier_move_is_accepted(sealed_client):
    """A sealed token is an honest state wherever it came from: the referee cannot tell a
    replay from a retry, so it answers it as it did before (a back end that must forbid going
    back keeps the latest token)."""
    first = create(sealed_client)
    second = sealed_client.post(f"{DICE}/matches", json={"players": ["cy", "dee"]}).get_json()
    moved = sealed_client.post(f"{DICE}/moves", json={"state": first["state"], "move": ROLL})
    assert moved.status_code == 200
    # The earlier token still opens, and a move of the other match's players fits it alone.
    again = sealed_client.post(f"{DICE}/moves", json={"state": first["state"], "move": ROLL})
    assert again.get_json()["events"] == moved.get_json()["events"]
    other = sealed_client.post(f"{DICE}/moves", json={
        "state": second["state"], "move": {"type": "roll", "player": "cy", "keep": []}})
    assert other.status_code == 200
    stranger = sealed_client.post(f"{DICE}/moves", json={"state": second["state"], "move": ROLL})
    assert code_of(stranger) == "not_your_turn"


def swap_halves(token: str) -> str:
    body = base64.urlsafe_b64decode(token[3:] + "=" * (-len(token[3:]) % 4))
    middle = len(body) // 2
    return token[:3] + base64.urlsafe_b64encode(body[middle:] + body[:middle]).decode().rstrip("=")


def test_a_token_with_swapped_parts_is_tampered_state(sealed_client):
    token = create(sealed_client)["state"]
    response = sealed_client.post(f"{DICE}/moves", json={"state": swap_halves(token), "move": ROLL})
    assert code_of(response) == "tampered_state"


def test_a_token_of_another_game_is_refused_over_http(sealed_client):
    cards = sealed_client.post("/v1/games/generala-cards/matches",
                               json={"players": ["ann", "bob"]}).get_json()["state"]
    response = sealed_client.post(f"{DICE}/moves", json={"state": cards, "move": ROLL})
    assert response.status_code == 422 and code_of(response) == "tampered_state"


@pytest.mark.parametrize("keys", [["short"], "x" * 40 + ",tiny", [b"k" * 40], 42],
                         ids=["short-key", "short-key-in-a-string", "bytes", "not-keys"])
def test_bad_keys_given_in_the_config_are_refused_too(keys):
    with pytest.raises(ValueError):
        referee.create_app({"STATE_KEYS": keys})


def test_a_string_of_keys_in_the_config_is_split_on_commas(clock, sealing_keys):
    app = referee.create_app({"CLOCK": clock, "STATE_KEYS": ",".join(sealing_keys)})
    token = create(app.test_client())["state"]
    only_second = referee.create_app({"CLOCK": clock, "STATE_KEYS": [sealing_keys[1]]})
    assert code_of(only_second.test_client().post(
        f"{DICE}/moves", json={"state": token, "move": ROLL})) == "tampered_state"


def test_keys_in_the_config_win_over_bad_ones_in_the_environment(monkeypatch, sealing_keys):
    monkeypatch.setenv("REFEREE_STATE_KEYS", "too-short")
    app = referee.create_app({"STATE_KEYS": sealing_keys})
    assert isinstance(create(app.test_client())["state"], str)


def test_every_single_character_change_of_a_token_is_refused(sealed_client):
    token = create(sealed_client)["state"]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    spoiled = {token[:10] + "!!!" + token[10:], token[:20] + " " + token[20:], token + "==",
               token + "A"}
    spoiled |= {token[:-1] + c for c in alphabet if c != token[-1]}
    spoiled |= {token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1:]
                for i in range(3, len(token), max(1, len(token) // 40))}
    for bad in spoiled:
        response = sealed_client.post(f"{DICE}/moves", json={"state": bad, "move": ROLL})
        assert code_of(response) == "tampered_state", bad


# A v3 or v2 token's bytes are a 16-byte salt, then the ciphertext, which ends with a 16-byte
# tag; a v1 token's, a 12-byte nonce, then the ciphertext and its tag.
HEADER_AND_TAG_BYTES = {"v3": 16 + 16, "v2": 16 + 16, "v1": 12 + 16}


def well_formed_token(version: str, length: int) -> str:
    """A token in the form the referee writes (canonical base64url), of `length` bytes."""
    return f"{version}." + base64.urlsafe_b64encode(bytes(range(length))).decode().rstrip("=")


@pytest.mark.parametrize("version", sorted(HEADER_AND_TAG_BYTES))
def test_a_well_formed_token_too_short_for_its_header_and_a_tag_is_tampered_state(
        sealed_client, sealing_keys, version):
    sealer = Sealer(sealing_keys)
    for length in range(1, HEADER_AND_TAG_BYTES[version] + 1):
        token = well_formed_token(version, length)
        with pytest.raises(TamperedState, match="too short"):
            sealer.open("generala-dice", token)
        response = sealed_client.post(f"{DICE}/moves", json={"state": token, "move": ROLL})
        assert response.status_code == 422 and code_of(response) == "tampered_state", length


@pytest.mark.parametrize("version", sorted(HEADER_AND_TAG_BYTES))
def test_a_token_one_byte_past_the_header_and_tag_is_opened_and_fails_authentication(
        sealing_keys, version):
    token = well_formed_token(version, HEADER_AND_TAG_BYTES[version] + 1)
    with pytest.raises(TamperedState, match="fails authentication"):
        Sealer(sealing_keys).open("generala-dice", token)


def test_a_token_longer_than_the_cap_is_refused_before_it_is_decoded(sealing_keys):
    sealer = Sealer(sealing_keys)
    # Exactly at the cap the token is decoded (and its length is no base64 length)...
    at_cap = "v3." + "A" * (MAX_TOKEN_CHARS - 3)
    with pytest.raises(TamperedState, match="base64url"):
        sealer.open("generala-dice", at_cap)
    # ...one character more, and it is refused on its length alone.
    with pytest.raises(TamperedState, match="not one this referee sealed"):
        sealer.open("generala-dice", at_cap + "A")


# A match created by the release that wrote v1 tokens (AES-GCM with a random nonce straight
# under the HKDF-stretched key), sealed with the second test key: ann and bob, seed "s3cret".
V1_TOKEN = (
    "v1.tA8ibJlYMUfCAroG0Lk7w4BB4QeJRcCQT2pVH9mbymZLdBAVoSetk_nIIYEfWPgm-8_J31-WSRhWEBqJWPzgZ6UA"
    "OrzST69vWaHP95N7oEQhnt6WdMEX3pDvGOf8CQk9rDM8mvkr3ovrZSLOgSRt83wLe1oAfUNG9mP5bGrjcgZWmZ69x"
    "N29dySsFr_12zNZjpzpBW3pzuXx-Nju275l8KbP7X8JKsH8FEI1FUNWn3AZHhxLy69JuVKyXIMzkL4Hy6QRFxpZfU"
    "2q4YVWnYh-ToxZclWXJ6MGP7DdX5bDZalNeHnQm-5WGwWQrY7sfknSLUgKKGzjb3MC2jo")


# The same match as sealed by the release that wrote v2 tokens (the JSON compressed with zlib
# before AES-GCM, under a key derived from the salt), with the second test key.
V2_TOKEN = (
    "v2.L4bwyNnpi4kXXEjnC4CqacvJGjVDDYl6rPmAsxfuCf833f061cibBoDsRncWVDd0fde9MUQxOSG_YY4AjVf3ooP"
    "J6zRSJa_q0GFGMm6JND_tw9PubVwFP3PjrYZuUeiENzcTv8WRGnYPIqycZLYKlhhRcoAOfDEtQDQDjWTyjZ2Hv1FV2"
    "bhO3gCGBLYe-hUTrKLSQfQ0_XE28sElzrV2PmfZUc7nJskMfY9A1FkrYr4oP8PZ-OhV9bEaJ_MIonOTKsJfbDVhiIy"
    "AEcFFcmuIiXMzD9aAnLcnnaaju8zEhstDuR3WM2cK8HK9pyF8MaIE1H8DEIJZvatXCyhCYhFCHkvsL4csC7c")


@pytest.mark.parametrize("earlier", [V1_TOKEN, V2_TOKEN], ids=["v1", "v2"])
def test_an_earlier_token_still_opens_and_its_next_state_is_sealed_as_v3(sealed_client,
                                                                         earlier):
    moved = sealed_client.post(f"{DICE}/moves", json={"state": earlier, "move": ROLL})
    assert moved.status_code == 200
    assert moved.get_json()["state"].startswith("v3.")
    # The same match created now plays the same roll: the earlier token held that very state.
    fresh = create(sealed_client)["state"]
    again = sealed_client.post(f"{DICE}/moves", json={"state": fresh, "move": ROLL})
    assert again.get_json()["events"] == moved.get_json()["events"]


@pytest.mark.parametrize("earlier", [V1_TOKEN, V2_TOKEN], ids=["v1", "v2"])
def test_an_earlier_token_is_refused_without_its_key_or_for_another_game(clock, earlier):
    first_only = referee.create_app({"CLOCK": clock, "STATE_KEYS": [SEALING_KEYS[0]]})
    response = first_only.test_client().post(f"{DICE}/moves",
                                             json={"state": earlier, "move": ROLL})
    assert code_of(response) == "tampered_state"
    with pytest.raises(TamperedState, match="fails authentication"):
        Sealer(SEALING_KEYS).open("generala-cards", earlier)
    # Relabelled as the current version it is another token, and fails authentication.
    with pytest.raises(TamperedState, match="fails authentication"):
        Sealer(SEALING_KEYS).open("generala-dice", "v3." + earlier[3:])


def test_a_v3_token_seals_the_json_itself_and_a_v2_token_compressed_json(sealing_keys):
    """v3 drops v2's zlib step (its costliest): the sealed bytes are the plaintext's length
    plus the salt and the tag."""
    sealer = Sealer(sealing_keys)
    plaintext = b'{"players":["ann","bob"],"dice":[1,2,3,4,5]}'
    token = sealer.seal("generala-dice", plaintext)
    raw = base64.urlsafe_b64decode(token[3:] + "==")
    assert len(raw) == 16 + len(plaintext) + 16
    assert sealer.open("generala-dice", token) == plaintext
    assert sealer.open("generala-dice", V2_TOKEN).startswith(b"{")


@pytest.mark.parametrize("earlier", [V1_TOKEN, V2_TOKEN], ids=["v1", "v2"])
def test_an_altered_earlier_token_is_refused(sealed_client, earlier):
    for index in (0, 13, 40, -1):
        response = sealed_client.post(f"{DICE}/moves",
                                      json={"state": flip(earlier, index), "move": ROLL})
        assert code_of(response) == "tampered_state", index


@pytest.mark.parametrize("length", [10, 11, 12])
def test_only_the_spelling_the_referee_writes_opens(sealing_keys, length):
    """Base64 lets a token's last character vary in bits no byte uses; every such variant of
    a token, whatever its length modulo 4, is refused, and the token itself opens."""
    sealer = Sealer(sealing_keys)
    token = sealer.seal("generala-dice", b"x" * length)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    assert sealer.open("generala-dice", token) == b"x" * length
    for c in alphabet.replace(token[-1], ""):
        with pytest.raises(TamperedState):
            sealer.open("generala-dice", token[:-1] + c)
    # The lengths cover the three remainders a base64url text can have.
    assert len(token[3:]) % 4 == {10: 0, 11: 2, 12: 3}[length]


def test_a_v3_token_is_the_documented_derivation(sealing_keys):
    """Opened by hand: HKDF-Expand of the stretched key to one HMAC block, with the salt in
    the info; a zero nonce; the version, purpose and game as associated data."""
    sealer = Sealer(sealing_keys)
    token = sealer.seal("generala-dice", b'{"a":1}')
    raw = base64.urlsafe_b64decode(token[3:] + "==")
    salt, sealed = raw[:16], raw[16:]
    master = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"referee-state-sealing",
                  info=b"v3").derive(sealing_keys[0].encode())
    key = hmac.digest(master, b"referee-state:v3:token:" + salt + b"\x01", "sha256")
    assert AESGCM(key).decrypt(bytes(12), sealed, b"referee-state:v3:generala-dice") == \
        b'{"a":1}'


def test_every_v3_token_has_a_salt_of_its_own(sealing_keys):
    """No two tokens share a key: each carries a fresh salt, even for the same plaintext."""
    sealer = Sealer(sealing_keys)
    tokens = [sealer.seal("generala-dice", b"{}") for _ in range(200)]
    salts = {base64.urlsafe_b64decode(t[3:] + "==")[:16] for t in tokens}
    assert len(salts) == len(tokens)
    assert all(sealer.open("generala-dice", t) == b"{}" for t in tokens)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_token_holds_the_open_wire_json_and_opens_to_the_same_match(sealing_keys, game_id):
    """A token is sealed from the state and table themselves and opened by typed decoders:
    its plaintext is byte for byte the JSON of the open-mode wire form followed by the count
    of moves (`moves`, which open mode does not keep), and it opens to the match sealed,
    whatever the seating, the contributed seeds and the count (none, in a token sealed
    before the count was kept)."""
    engine = REGISTRY[game_id]
    sealer = Sealer(sealing_keys)
    codec = StateCodec(sealer)
    pick = random.Random(game_id)
    players = tuple(f"p{i}" for i in range(engine.min_players))
    options = engine.resolve_options(engine.playout_options)
    state = engine.new_match(players, options, f"wire-{game_id}", now=1_000_000.0)
    tables = [(Seating(), None),
              (Seating(bots=players[:1], hints_allowed=True),
               Fairness(seed="server-seed", contributions=[
                   Contribution(player=players[0], seed="a" * 16, step=0)]))]
    for step in range(40):
        if engine.is_finished(state):
            break
        for (seating, fairness), moves in zip(tables, (None, step)):
            match = Match(state, seating, fairness, moves)
            token = codec.dump(engine, match)
            wire = StateCodec(None).dump(engine, match)
            assert MOVES not in wire
            assert sealer.open(game_id, token) == msgspec.json.encode({**wire, MOVES: moves})
            assert codec.load_match(engine, token) == match
        move = random_move(engine, engine.legal_moves(state, now=1_000_000.0), pick)
        state, _ = engine.apply(state, move, now=1_000_000.0)


def test_every_token_sealed_gets_a_salt_of_its_own_across_reads_of_the_random_source(
        sealing_keys):
    sealer = Sealer(sealing_keys)
    count = 3 * sealing.SALTS_PER_READ + 7
    tokens = [sealer.seal("generala-dice", b"{}") for _ in range(count)]
    salts = {token_bytes(token)[1][:sealing.SALT_BYTES] for token in tokens}
    assert len(salts) == count


def test_threads_taking_salts_at_once_never_get_the_same_one():
    taken: list[list[bytes]] = [[] for _ in range(8)]

    def take(mine: list[bytes]) -> None:
        for _ in range(sealing.SALTS_PER_READ):
            mine.append(sealing.fresh_salt())

    threads = [threading.Thread(target=take, args=(mine,)) for mine in taken]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [salt for mine in taken for salt in mine]
    assert len(every) == 8 * sealing.SALTS_PER_READ
    assert len(set(every)) == len(every)
    assert all(len(salt) == sealing.SALT_BYTES for salt in every)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a process fork is what is checked")
def test_a_forked_process_does_not_hand_out_its_parent_s_unused_salts():
    sealing.fresh_salt()  # the parent holds unused salts from its last read
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the child: its next salt, to the parent, then out at once
        os.close(reader)
        os.write(writer, sealing.fresh_salt())
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        childs = pipe.read()
    os.waitpid(child, 0)
    assert len(childs) == sealing.SALT_BYTES
    assert childs != sealing.fresh_salt()
