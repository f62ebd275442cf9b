"""Check a result the referee signed: `python scripts/verify_result.py STATEMENT --keys KEYS`.

STATEMENT is the `result.statement` of a finished match's answer (a compact JWS), or a file
holding it; KEYS is the referee's published keys, its `/.well-known/jwks.json` address or a
file holding them. It prints the statement's payload (the game, options, players, scores
with the winners, seed commitment and seed, number of moves, final state's digest...) as JSON
and exits 0 when the signature is the referee's; otherwise it says why and exits 1: a
statement altered anywhere, signed by a key the set does not hold, or not an EdDSA JWS.

Needs Python 3.10+ and `cryptography` (pip install cryptography) only. Any JOSE library does
the same check, e.g. PyJWT: `jwt.decode(statement, PyJWK(key).key, algorithms=["EdDSA"])`.
A ranking service should also check what the payload says: the game, the players it expects,
and the seed commitment it was shown before the match (docs/RESULTS.md).

`python scripts/verify_result.py --new-key KEY_ID` prints a new signing key for the referee's
REFEREE_RESULT_KEYS setting (`KEY_ID:<32 random bytes in base64url>`): keep it secret.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import json
import os
import re
import sys
import urllib.request
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

B64URL = re.compile(r"[A-Za-z0-9_-]*")


class Refused(Exception):
    """The statement does not verify; the message says why."""


def b64url_decode(text: str) -> bytes:
    """base64url without padding, in the one spelling that encodes back to it."""
    if not B64URL.fullmatch(text):
        raise Refused("not base64url")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise Refused("not base64url") from None
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != text:
        raise Refused("not base64url in its canonical spelling")
    return raw


def verify(statement: str, keys: dict[str, Any]) -> dict[str, Any]:
    """The payload of `statement` once its signature checks against `keys` (a JWK Set)."""
    parts = statement.strip().split(".")
    if len(parts) != 3:
        raise Refused("a statement is a compact JWS: three parts separated by dots")
    try:
        header = json.loads(b64url_decode(parts[0]))
    except ValueError:
        raise Refused("the statement's header is not JSON") from None
    if not isinstance(header, dict) or header.get("alg") != "EdDSA":
        raise Refused("the statement is not signed with EdDSA")
    kid = header.get("kid")
    key = next((k for k in keys.get("keys", ()) if isinstance(k, dict) and k.get("kid") == kid
                and k.get("kty") == "OKP" and k.get("crv") == "Ed25519"), None)
    if key is None:
        raise Refused(f"no Ed25519 key {kid!r} among the published keys")
    try:
        public = Ed25519PublicKey.from_public_bytes(b64url_decode(key.get("x", "")))
        public.verify(b64url_decode(parts[2]), f"{parts[0]}.{parts[1]}".encode("ascii"))
    except (InvalidSignature, ValueError):
        raise Refused("the signature does not match: the statement was altered or "
                      f"not signed by key {kid!r}") from None
    payload = json.loads(b64url_decode(parts[1]))
    if not isinstance(payload, dict):
        raise Refused("the statement's payload is not a JSON object")
    return payload


def read(source: str) -> str:
    """A URL's body, a file's text, or the text itself."""
    if source.startswith(("https://", "http://")):
        with urllib.request.urlopen(source, timeout=10) as answer:
            return answer.read().decode("utf-8")
    path = Path(source)
    if len(source) < 4096 and path.is_file():
        return path.read_text(encoding="utf-8")
    return source


def new_key(key_id: str) -> str:
    return f"{key_id}:{base64.urlsafe_b64encode(os.urandom(32)).rstrip(b'=').decode()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("statement", nargs="?", help="the JWS, or a file holding it")
    parser.add_argument("--keys", help="the JWK Set: a URL (/.well-known/jwks.json) or a file")
    parser.add_argument("--new-key", metavar="KEY_ID", help="print a new signing key instead")
    args = parser.parse_args(argv)
    if args.new_key:
        print(new_key(args.new_key))
        return 0
    if not args.statement or not args.keys:
        parser.error("give a statement and --keys")
    try:
        payload = verify(read(args.statement), json.loads(read(args.keys)))
    except (Refused, ValueError) as refused:
        print(f"not verified: {refused}", file=sys.stderr)
        return 1
    print(json.dumps(payload, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
