"""Signed results: the statement of a finished match's result that the referee signs when it
played or sealed every state on the way (a replay from creation, or a match in sealed mode),
so that a third party (a ranking, a league, a dispute desk) can trust it without trusting
whoever relays it. A state the caller could have written (open mode, posted) is never signed.

The statement (docs/RESULTS.md): the game, its options, the players, the final scores (with
the winners), the seed commitment and the revealed seed with any contributions, the number of
moves when the referee counted them (a replay, or a sealed match whose token carries the
count: `Match.moves`), a digest of the final state, how the referee came to know the match,
and when it signed. The signature itself is the signer's
(`referee.http.signing`: a JWS with EdDSA over Ed25519)."""

from __future__ import annotations

import hashlib
from typing import Any, Protocol

import msgspec

from referee.core import rng
from referee.core.engine import Engine

from .codec import Match

# How the referee came to know every state of the match it signs for.
REPLAYED, SEALED = "replay", "sealed"

NO_KEY = ("this referee has no result signing key (REFEREE_RESULT_KEYS is empty): the "
          "result is not signed")


class Signer(Protocol):
    """Signs a statement with the current key; `key_id` names it in the published keys."""

    key_id: str

    def sign(self, payload: dict[str, Any]) -> str: ...


def state_digest(engine: Engine, match: Match) -> str:
    """SHA-256 of the final state as the referee encodes it (the open-mode state's JSON,
    without `seating` and `fairness`)."""
    return "sha256:" + hashlib.sha256(engine.encode_json(match.state)).hexdigest()


def statement(engine: Engine, match: Match, *, played: str, now: float) -> dict[str, Any]:
    state = match.state
    body: dict[str, Any] = {
        "game": engine.id,
        "options": msgspec.to_builtins(state.options),
        "players": list(state.players),
        "scores": engine.scores(state),
        "seed_commitment": rng.commitment(match.server_seed),
        "seed": match.server_seed,
        "state_digest": state_digest(engine, match),
        "played": played,
        "iat": int(now),
    }
    if match.fairness is not None:
        body["contributions"] = msgspec.to_builtins(match.fairness.contributions)
    if match.moves is not None:
        body["moves"] = match.moves
    return body


def signed_result(signer: Signer | None, engine: Engine, match: Match, *, played: str,
                  now: float) -> dict[str, Any]:
    """The answer's `result`: the signed statement, its key id and its payload as signed (for
    the answer's receiver to read; a third party trusts the verified statement alone), or,
    without a key, no statement and why."""
    if signer is None:
        return {"statement": None, "unsigned": NO_KEY}
    payload = statement(engine, match, played=played, now=now)
    return {"statement": signer.sign(payload), "key_id": signer.key_id, "payload": payload}
