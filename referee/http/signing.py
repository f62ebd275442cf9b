"""The referee's result signatures: compact JWS (RFC 7515) with EdDSA over Ed25519 (RFC 8037),
from the keys of REFEREE_RESULT_KEYS, and the public keys as a JWK Set (RFC 7517) for
`/.well-known/jwks.json`.

The first key signs; every key listed is published, so a statement signed before a rotation
still verifies while its key stays listed. The JWS and the JWKs are PyJWT's, over the Ed25519
keys of `cryptography` (the sealing's library already); any JOSE library reads them."""

from __future__ import annotations

from typing import Any

import jwt
import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from jwt.algorithms import OKPAlgorithm

ALGORITHM = "EdDSA"


class ResultSigner:
    def __init__(self, keys: list[tuple[str, bytes]]):
        if not keys:
            raise ValueError("signing needs at least one key")
        self.keys = [(key_id, Ed25519PrivateKey.from_private_bytes(secret))
                     for key_id, secret in keys]
        self.key_id = self.keys[0][0]

    def sign(self, payload: dict[str, Any]) -> str:
        """A statement: `payload` as the JWS payload (its JSON with sorted keys), signed."""
        return jwt.api_jws.encode(msgspec.json.encode(payload, order="sorted"),
                                  self.keys[0][1], algorithm=ALGORITHM,
                                  headers={"kid": self.key_id, "typ": "JWT"})


def jwks(signer: ResultSigner | None) -> dict[str, Any]:
    """The published keys (none without a signer), newest first."""
    if signer is None:
        return {"keys": []}
    return {"keys": [{"kty": "OKP", "crv": "Ed25519",
                      **OKPAlgorithm.to_jwk(key.public_key(), as_dict=True),
                      "alg": ALGORITHM, "use": "sig", "kid": key_id}
                     for key_id, key in signer.keys]}
