"""Sealed states: authenticated encryption so a client can neither read nor alter a state.

A token is a version prefix followed by base64url of the sealed JSON of the state. The game
id and the token's purpose (a state; a seat: one player's rights over a state; or a seed: a
server seed committed before its match exists) are bound in as associated data, so a token of
one game is refused by another and a token of one purpose can never be opened as another.
Each configured secret is stretched into a key per format version with HKDF-SHA256; the first
key seals, every key opens, so keys can be rotated by putting the new one first.

- `v3.` (written now): base64url(salt ‖ AES-256-GCM ciphertext ‖ tag) of the JSON itself. The
  AES key of each token is derived from the configured key and a random 128-bit salt carried
  in the token, so no two tokens share a key: HKDF-Expand (RFC 5869, SHA-256) with the
  configured key's stretched form as its pseudorandom key and the salt in its info; 32 bytes
  are one HMAC-SHA256. A key seals one token only, so its nonce is fixed (zero): a (key,
  nonce) pair repeats only if a salt does. AES-GCM under one key with random 96-bit nonces is
  safe for about 2^32 messages (NIST SP 800-38D, 8.3); here the limit is a collision of two
  128-bit salts, below 2^-32 after 2^48 tokens per configured key.
- `v2.` (still opened, no longer written): the same salt, with the key and nonce derived by
  HKDF-SHA256 (Extract with the salt, then Expand to 44 bytes), over the JSON compressed with
  zlib. Compressing was the largest cost of sealing (about 12 µs of a 700-byte state,
  against 1 µs for AES-GCM), for tokens about half as long; it also made a token's length
  depend on how the hidden cards compress, where a v3 token's length is the JSON's. The
  v2 derivation cost about 5 µs a token against 1.4 for v3's (one HMAC block from the configured
  key's pads, worked out once).
- `v1.` (still opened, no longer written): base64url(random 96-bit nonce ‖ AES-256-GCM
  ciphertext ‖ tag) of the compressed JSON under the configured key itself.
"""

from __future__ import annotations

import binascii
import functools
import os
import re
import zlib
from collections.abc import Iterator
from typing import Any

import msgspec
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from referee.core.errors import TamperedState
from referee.core.rng import hmac_from_pads, hmac_pads
from referee.service.codec import SEAT, SEED, STATE  # noqa: F401 - the purposes, named here too

from . import metrics

VERSION = "v3"
PREFIX = VERSION + "."
# What the contract promises of every token, whatever its version: a client may check it.
TOKEN_PATTERN = "^v[1-9][0-9]*\\.[A-Za-z0-9_-]+$"
TOKEN_FORM = re.compile(r"(v[123])\.([A-Za-z0-9_-]+)")
NONCE_BYTES = 12
SALT_BYTES = 16
KEY_BYTES = 32
TAG_BYTES = 16
# What precedes the ciphertext in a token of each version: a salt, or v1's nonce.
HEAD_BYTES = {"v3": SALT_BYTES, "v2": SALT_BYTES, "v1": NONCE_BYTES}
# The versions whose plaintext was compressed with zlib before it was sealed.
COMPRESSED = frozenset({"v1", "v2"})
MAX_TOKEN_CHARS = 1 << 20
# What a token stands for (STATE, SEAT or SEED, the service's names) is bound into its
# authentication.
# The opened-tokens counter of each format version, found once (`labels()` costs microseconds).
OPENED = {version: metrics.TOKENS_OPENED.labels(version) for version in HEAD_BYTES}


def _stretch(secret: str, version: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=b"referee-state-sealing",
                info=version).derive(secret.encode("utf-8"))


def _v2_key(master: bytes, salt: bytes) -> tuple[AESGCM, bytes]:
    """The AES-GCM key and nonce of one v2 token: fresh for every salt."""
    okm = HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES + NONCE_BYTES, salt=salt,
               info=b"referee-state:v2:token").derive(master)
    return AESGCM(okm[:KEY_BYTES]), okm[KEY_BYTES:]


def _v3_key(pads: tuple[Any, Any], salt: bytes) -> AESGCM:
    """The AES-GCM key of a v3 token (its nonce is V3_NONCE), from its configured key's HMAC
    pads: HKDF-Expand to one block, T(1) = HMAC(PRK, info ‖ 0x01), with the pads worked out
    once (a configured key derives every token's key)."""
    return AESGCM(hmac_from_pads(pads, V3_INFO + salt + b"\x01"))


V3_INFO = b"referee-state:v3:token:"
V3_NONCE = bytes(NONCE_BYTES)


# A token's salt comes from a read of the system's random source made for 256 tokens at a
# time. os.urandom lets go of the interpreter lock around its system call, and in a worker of
# several threads each such call hands the interpreter to another thread and waits to take it
# back: per token, that cost more than sealing. A salt is public (the token carries it) and
# must only be new: each is handed out once (one step of an iterator over a list, which no
# other thread can split), and a forked child forgets the salts its parent has not used, so
# that no two processes hand out the same one.
SALTS_PER_READ = 256
_salts: Iterator[bytes] = iter(())


def fresh_salt() -> bytes:
    """A salt no token sealed by this process or any other has had (random, SALT_BYTES)."""
    global _salts
    for salt in _salts:
        return salt
    read = os.urandom(SALT_BYTES * SALTS_PER_READ)
    _salts = iter([read[k:k + SALT_BYTES] for k in range(0, len(read), SALT_BYTES)])
    return fresh_salt()


def _forget_salts() -> None:
    global _salts
    _salts = iter(())


os.register_at_fork(after_in_child=_forget_salts)


class Sealer:
    def __init__(self, secrets: list[str]):
        if not secrets:
            raise ValueError("sealing needs at least one key")
        self._v1_keys = [AESGCM(_stretch(s, b"v1")) for s in secrets]
        self._v2_masters = [_stretch(s, b"v2") for s in secrets]
        # The HMAC pads of each v3 key, from which every v3 token's key is one HMAC block.
        self._v3_pads = [hmac_pads(_stretch(s, b"v3")) for s in secrets]

    def seal(self, game_id: str, plaintext: bytes, purpose: str = STATE) -> str:
        metrics.TOKENS_SEALED.inc()
        return self._sealed(game_id, plaintext, purpose, fresh_salt())

    def _sealed(self, game_id: str, plaintext: bytes, purpose: str, salt: bytes) -> str:
        body = _v3_key(self._v3_pads[0], salt).encrypt(V3_NONCE, plaintext,
                                                       _aad(VERSION, game_id, purpose))
        return PREFIX + token_text(salt + body)

    def open(self, game_id: str, token: str, purpose: str = STATE) -> bytes:
        try:
            plaintext, version = self._open(game_id, token, purpose)
        except TamperedState:
            metrics.TOKENS_REFUSED.inc()
            raise
        OPENED[version].inc()
        return plaintext

    def opens(self, game_id: str, token: str, purpose: str = STATE) -> bool:
        """Whether `token` opens for this purpose: a probe, not counted in the metrics."""
        try:
            self._open(game_id, token, purpose)
        except TamperedState:
            return False
        return True

    def _open(self, game_id: str, token: str, purpose: str) -> tuple[bytes, str]:
        version, raw = token_bytes(token)
        plaintext = self._decrypt(version, game_id, raw, purpose)
        if plaintext is None:
            raise TamperedState("the state token fails authentication: altered, sealed for "
                                "another game, or sealed with a key this referee does not "
                                "hold")
        return (zlib.decompress(plaintext) if version in COMPRESSED else plaintext), version

    def usable(self) -> bool:
        """Every configured key seals and opens a probe (what readiness checks)."""
        probe = b"referee-readiness-probe"
        for pads in self._v3_pads:
            try:
                key, nonce = _v3_key(pads, os.urandom(SALT_BYTES)), V3_NONCE
                if key.decrypt(nonce, key.encrypt(nonce, probe, b""), b"") != probe:
                    return False
            except Exception:  # noqa: BLE001 - a key that cannot seal is simply not usable
                return False
        return True

    def _ciphers(self, version: str, head: bytes):
        """The (key, nonce) pairs a token of `version` may have been sealed with, given the
        head of its bytes (v2, v3: the salt each key and nonce derive from; v1: the nonce)."""
        if version == "v1":
            return ((key, head) for key in self._v1_keys)
        if version == "v3":  # the tokens written now: each key's pads are held
            return ((_v3_key(pads, head), V3_NONCE) for pads in self._v3_pads)
        return (_v2_key(master, head) for master in self._v2_masters)

    def _decrypt(self, version: str, game_id: str, raw: bytes, purpose: str) -> bytes | None:
        head_bytes = HEAD_BYTES[version]
        if len(raw) <= head_bytes + TAG_BYTES:
            raise TamperedState("the state token is too short")
        head, body = raw[:head_bytes], raw[head_bytes:]
        for key, nonce in self._ciphers(version, head):
            try:
                return key.decrypt(nonce, body, _aad(version, game_id, purpose))
            except InvalidTag:
                continue
        return None


# The value of each base64url character, and the bits of a token's last character that no
# byte uses, by the token's length modulo 4 (1 cannot happen: it does not decode).
B64_VALUES = {c: i for i, c in enumerate(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")}
SPARE_BITS = {0: 0, 2: 0b1111, 3: 0b11}


# base64url is base64 with two characters changed, each swapped with `bytes.replace`, which
# copies the token and then jumps from one occurrence to the next: the two swaps cost a fifth of
# what `bytes.translate` costs looking each byte up. Encoding is binascii's base64, as
# `base64.urlsafe_b64encode` does it without its checks of argument types. Decoding is
# msgspec's: a JSON string read as `bytes` is base64 (msgspec's documented form of bytes), which
# it decodes two and a half times as fast as binascii (1.4 µs against 3.5 for a token of 1,800
# characters, the largest cost of opening one; like binascii, and unlike pybase64, it keeps the
# interpreter lock: README.md), and as strictly: a character outside base64's alphabet, padding
# anywhere but at the end, or a length that cannot be base64's is refused. So base64's own
# characters ("+", "/" and the padding "=") are refused first, and the backslash, which JSON
# would read as an escape (a quote or a control character, JSON refuses), so that the decoding
# checks the rest of the token's alphabet in the pass that decodes it.
BASE64 = msgspec.json.Decoder(bytes)
# What ends a token's base64 in its JSON string, by its length modulo 4: the padding that
# makes that length a multiple of 4 (1: none makes it decode), then the closing quote.
CLOSING = {0: b'"', 1: b'==="', 2: b'=="', 3: b'="'}
VERSIONS = {f"{version}.": version for version in HEAD_BYTES}


def token_bytes(token: str) -> tuple[str, bytes]:
    """A token's format version and bytes, or TamperedState: anything but `TOKEN_FORM` is
    refused as not sealed here, a token of that form whose length cannot be base64's as not
    valid base64url, and every spelling but the one this referee writes as not sealed."""
    version = VERSIONS.get(token[:3]) if len(token) <= MAX_TOKEN_CHARS else None
    raw_text = token[3:]
    if version is None or not raw_text or not raw_text.isascii():
        raise TamperedState("the state token is not one this referee sealed")
    data = raw_text.encode("ascii")
    try:
        # base64's characters, not base64url's, and JSON's escape
        if b"+" in data or b"/" in data or b"=" in data or b"\\" in data:
            raise ValueError("not a base64url character")
        raw = BASE64.decode(b'"' + data.replace(b"-", b"+").replace(b"_", b"/")
                            + CLOSING[len(data) % 4])
    except ValueError:  # msgspec's refusals are ValueErrors too
        # A character outside base64url's alphabet, or a length one past a multiple of 4:
        # which one is told apart here, off the path of a token that decodes.
        if TOKEN_FORM.fullmatch(token) is None:
            raise TamperedState("the state token is not one this referee sealed") from None
        raise TamperedState("the state token is not valid base64url") from None
    # Base64 lets a few spellings decode to the same bytes (unused trailing bits): only the
    # one this referee writes, with those bits zero, is accepted, so no character can change
    # unnoticed.
    if B64_VALUES[raw_text[-1]] & SPARE_BITS[len(raw_text) % 4]:
        raise TamperedState("the state token is not one this referee sealed")
    return version, raw


def token_text(raw: bytes) -> str:
    """A token's bytes in base64url without padding: what `token_bytes` reads back."""
    text = binascii.b2a_base64(raw, newline=False).replace(b"+", b"-").replace(b"/", b"_")
    return text.decode("ascii").rstrip("=")


@functools.lru_cache(maxsize=256)
def _aad(version: str, game_id: str, purpose: str = STATE) -> bytes:
    """What a token is bound to besides its key, built once per version, game and purpose
    (the game ids are the registry's few)."""
    return f"referee-{purpose}:{version}:".encode("ascii") + game_id.encode("utf-8")


class ExampleSealer(Sealer):
    """Seals the examples of a sealed server's contract: tokens its own keys open, the same
    on every worker and at every start, so that the contract it serves (and its ETag) is one.

    A token's salt is not drawn at random but derived from what it seals, under the first
    key (HMAC-SHA256, a key of its own stretched for this): the same plaintext always gives
    the same token, and two plaintexts share a salt, hence an AES-GCM key, no more often than
    two random salts would. What a reader learns beyond a random salt's token is only that two
    tokens seal the same bytes, and the examples are published anyway. Nothing it seals or
    opens is counted in the metrics: the examples are not traffic."""

    def __init__(self, secrets: list[str]):
        super().__init__(secrets)
        self._salt_pads = hmac_pads(_stretch(secrets[0], b"examples"))

    def seal(self, game_id: str, plaintext: bytes, purpose: str = STATE) -> str:
        bound = _aad(VERSION, game_id, purpose)
        salt = hmac_from_pads(self._salt_pads, len(bound).to_bytes(2, "big") + bound + plaintext)
        return self._sealed(game_id, plaintext, purpose, salt[:SALT_BYTES])

    def open(self, game_id: str, token: str, purpose: str = STATE) -> bytes:
        return self._open(game_id, token, purpose)[0]

