"""Check a result the referee signed: `python scripts/verify_result.py STATEMENT KEYS` (or
`--keys KEYS`), as `node scripts/verify_result.mjs STATEMENT KEYS` does.

STATEMENT is the `result.statement` of a finished match's answer (a compact JWS), or a file
holding it; KEYS is the referee's published keys, its `/.well-known/jwks.json` address or a
file holding them. It prints the statement's payload (the game, options, players, scores
with the winners, seed commitment and seed, number of moves, final state's digest...) as JSON
and exits 0 when the signature is the referee's; otherwise it says why and exits 1: a
statement altered anywhere, signed by a key the set does not hold, or not an EdDSA JWS. It
exits 2 when it could check nothing: not given both, the keys not read (an address that does
not answer them, a file or text that is not a JWK Set), or PyJWT not installed.

Needs Python 3.10+ and PyJWT with its cryptography extra (`pip install "PyJWT[crypto]"`),
the JOSE library the referee signs with.

A ranking service should also check what the payload says: the game, the players it expects,
and the seed commitment it was shown before the match (docs/RESULTS.md).

`python scripts/verify_result.py --new-key KEY_ID` prints a new signing key for the referee's
REFEREE_RESULT_KEYS setting (`KEY_ID:<32 random bytes in base64url>`): keep it secret. It
needs Python alone.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import sys
import urllib.request
from pathlib import Path
from typing import Any


# A compact JWS (RFC 7515): three parts in base64url without padding, the payload not empty.
# PyJWT's decoding reads past padding, so the form is held to first.
COMPACT_JWS = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
NOT_COMPACT = ("a statement is a compact JWS: three base64url parts separated by dots, "
               "without padding")


class Refused(Exception):
    """The statement does not verify; the message says why."""


class Unchecked(Exception):
    """Nothing could be checked (the keys not read, PyJWT missing); the message says why."""


def verify(statement: str, keys: Any) -> dict[str, Any]:
    """The payload of `statement` once its signature checks against `keys` (a JWK Set)."""
    try:
        import jwt  # here, not above: making a key (`--new-key`) needs no PyJWT
    except ImportError:
        raise Unchecked('PyJWT is not installed: pip install "PyJWT[crypto]"') from None
    if not (isinstance(keys, dict) and isinstance(keys.get("keys"), list)):
        raise Unchecked("the published keys are not a JWK Set (an object whose `keys` is a "
                        "list)")
    statement = statement.strip()
    if not COMPACT_JWS.fullmatch(statement):
        raise Refused(NOT_COMPACT)
    try:
        kid = jwt.get_unverified_header(statement).get("kid")
    except jwt.InvalidTokenError:
        raise Refused(NOT_COMPACT) from None
    published = [k for k in keys["keys"] if isinstance(k, dict) and k.get("kid") == kid
                 and k.get("kty") == "OKP" and k.get("crv") == "Ed25519"]
    if not published:
        raise Refused(f"no Ed25519 key {kid!r} among the published keys")
    try:
        # The payload is a statement, not a login token: its claims (`iat`) are facts to
        # read, not to hold against this machine's clock, so the JWS is checked, not a JWT.
        signed = jwt.api_jws.decode_complete(statement, jwt.PyJWK(published[0]).key,
                                             algorithms=["EdDSA"])
    except jwt.InvalidSignatureError:
        raise Refused("the signature does not match: the statement was altered or "
                      f"not signed by key {kid!r}") from None
    except (jwt.InvalidTokenError, jwt.PyJWKError) as refused:
        raise Refused(f"not an EdDSA JWS of a published key: {refused}") from None
    try:
        payload = json.loads(signed["payload"])
    except ValueError:
        payload = None
    if not isinstance(payload, dict):
        raise Refused("the statement's payload is not a JSON object")
    return payload


def read(source: str) -> str:
    """A URL's body, a file's text, or the text itself."""
    if source.startswith(("https://", "http://")):
        try:
            with urllib.request.urlopen(source, timeout=10) as answer:
                return answer.read().decode("utf-8")
        except (OSError, UnicodeDecodeError) as failed:  # URLError and HTTPError are OSErrors
            raise Unchecked(f"could not read {source}: {failed}") from None
    try:
        is_file = Path(source).is_file()
    except OSError:  # longer than a file's name may be, as a statement is: the text itself
        is_file = False
    return Path(source).read_text(encoding="utf-8") if is_file else source


def new_key(key_id: str) -> str:
    return f"{key_id}:{base64.urlsafe_b64encode(os.urandom(32)).rstrip(b'=').decode()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("statement", nargs="?", help="the JWS, or a file holding it")
    parser.add_argument("keys", nargs="?",
                        help="the JWK Set: a URL (/.well-known/jwks.json) or a file")
    parser.add_argument("--keys", dest="keys_option", metavar="KEYS", help="the same")
    parser.add_argument("--new-key", metavar="KEY_ID", help="print a new signing key instead")
    args = parser.parse_args(argv)
    if args.new_key:
        print(new_key(args.new_key))
        return 0
    keys = args.keys or args.keys_option
    if not args.statement or not keys:
        parser.error("give a statement and the keys")
    try:
        statement, published = read(args.statement), read(keys)
        try:
            published = json.loads(published)
        except ValueError:
            raise Unchecked("the published keys are not JSON") from None
        payload = verify(statement, published)
    except Unchecked as unchecked:
        print(f"not checked: {unchecked}", file=sys.stderr)
        return 2
    except Refused as refused:
        print(f"not verified: {refused}", file=sys.stderr)
        return 1
    print(json.dumps(payload, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
