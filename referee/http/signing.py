"""The referee's result signatures: compact JWS (RFC 7515) with EdDSA over Ed25519 (RFC 8037),
from the keys of REFEREE_RESULT_KEYS, and the public keys as a JWK Set (RFC 7517) for
`/.well-known/jwks.json`.

The first key signs; every key listed is published, so a statement signed before a rotation
still verifies while its key stays listed. Ed25519 comes from `cryptography` (the sealing's
library already); the JWS around it is three base64url parts joined by dots, which any JOSE
library reads (PyJWT, joserfc, `jose` in JavaScript, WebCrypto by hand: see scripts/)."""

from __future__ import annotations

import base64
from typing import Any

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ALGORITHM = "EdDSA"


def b64url(raw: bytes) -> bytes:
    return base64.urlsafe_b64encode(raw).rstrip(b"=")


class ResultSigner:
    def __init__(self, keys: list[tuple[str, bytes]]):
        if not keys:
            raise ValueError("signing needs at least one key")
        self.keys = [(key_id, Ed25519PrivateKey.from_private_bytes(secret))
                     for key_id, secret in keys]
        self.key_id = self.keys[0][0]

    def sign(self, payload: dict[str, Any]) -> str:
        header = {"alg": ALGORITHM, "kid": self.key_id, "typ": "JWT"}
        signing_input = (b64url(msgspec.json.encode(header)) + b"."
                         + b64url(msgspec.json.encode(payload, order="sorted")))
        signature = self.keys[0][1].sign(signing_input)
        return (signing_input + b"." + b64url(signature)).decode("ascii")


def jwks(signer: ResultSigner | None) -> dict[str, Any]:
    """The published keys (none without a signer), newest first."""
    if signer is None:
        return {"keys": []}
    return {"keys": [
        {"kty": "OKP", "crv": "Ed25519", "alg": ALGORITHM, "use": "sig", "kid": key_id,
         "x": b64url(key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)).decode()}
        for key_id, key in signer.keys]}
