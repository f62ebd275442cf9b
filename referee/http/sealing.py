"""Sealed states: authenticated encryption so a client can neither read nor alter a state.

A token is `v1.` followed by base64url(nonce ‖ AES-256-GCM ciphertext) of the state's JSON,
compressed. The game id and the token's purpose (a state, or a seat: one player's rights
over a state) are bound in as associated data, so a token of one game is refused by another
and a token of one purpose can never be opened as the other. Each configured secret is
stretched into a key with HKDF-SHA256; the first key seals, every key opens, so keys can be
rotated by putting the new one first.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import zlib

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from referee.core.errors import TamperedState

PREFIX = "v1."
# What the contract promises of every token, whatever its version: a client may check it.
TOKEN_PATTERN = "^v[1-9][0-9]*\\.[A-Za-z0-9_-]+$"
TOKEN_FORM = re.compile(r"v1\.[A-Za-z0-9_-]+")
NONCE_BYTES = 12
MAX_TOKEN_CHARS = 1 << 20
# What a token stands for, bound into its authentication.
STATE, SEAT = "state", "seat"


def _derive(secret: str) -> AESGCM:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"referee-state-sealing",
               info=b"v1").derive(secret.encode("utf-8"))
    return AESGCM(key)


class Sealer:
    def __init__(self, secrets: list[str]):
        if not secrets:
            raise ValueError("sealing needs at least one key")
        self._keys = [_derive(s) for s in secrets]

    def seal(self, game_id: str, plaintext: bytes, purpose: str = STATE) -> str:
        nonce = os.urandom(NONCE_BYTES)
        body = self._keys[0].encrypt(nonce, zlib.compress(plaintext, 1),
                                     _aad(game_id, purpose))
        return PREFIX + _text(nonce + body)

    def open(self, game_id: str, token: str, purpose: str = STATE) -> bytes:
        if len(token) > MAX_TOKEN_CHARS or not TOKEN_FORM.fullmatch(token):
            raise TamperedState("the state token is not one this referee sealed")
        raw_text = token[len(PREFIX):]
        try:
            raw = base64.urlsafe_b64decode(raw_text + "=" * (-len(raw_text) % 4))
        except (binascii.Error, ValueError):
            raise TamperedState("the state token is not valid base64url") from None
        # Base64 lets a few spellings decode to the same bytes (unused trailing bits): only
        # the one this referee writes is accepted, so no character can change unnoticed.
        if _text(raw) != raw_text:
            raise TamperedState("the state token is not one this referee sealed")
        if len(raw) <= NONCE_BYTES + 16:
            raise TamperedState("the state token is too short")
        nonce, body = raw[:NONCE_BYTES], raw[NONCE_BYTES:]
        for key in self._keys:
            try:
                compressed = key.decrypt(nonce, body, _aad(game_id, purpose))
            except InvalidTag:
                continue
            return zlib.decompress(compressed)
        raise TamperedState("the state token fails authentication: altered, sealed for "
                            "another game, or sealed with a key this referee does not hold")


def _text(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _aad(game_id: str, purpose: str = STATE) -> bytes:
    return f"referee-{purpose}:v1:".encode("ascii") + game_id.encode("utf-8")
