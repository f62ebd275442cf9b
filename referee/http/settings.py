"""Settings, read from environment variables (each documented in docs/OPERATIONS.md)."""

from __future__ import annotations

import base64
import os
import re
from typing import Any

from referee.pictures.events import MAX_TEXT

MIN_KEY_LENGTH = 32
MIN_KEY_CHARACTERS = 8  # different characters a sealing key holds, at least


def _number(env: dict[str, str], name: str, default: int, *, least: int = 1) -> int:
    """A whole number of at least `least` (1, or 0 for a setting that zero turns off)."""
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    value = int(raw)
    if value < least:
        raise ValueError(f"{name} must be " + ("zero or " if least == 0 else "")
                         + "a positive integer")
    return value


def _seconds(env: dict[str, str], name: str, default: float) -> float:
    """A duration in seconds, zero for none."""
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    value = float(raw)
    if not 0 <= value < float("inf"):
        raise ValueError(f"{name} must be zero or a positive number of seconds")
    return value


def _at_most(value: int, bound: int, name: str) -> int:
    if value > bound:
        raise ValueError(f"{name} may not exceed {bound}")
    return value


def _flag(env: dict[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be one of 1, true, yes, on, 0, false, no, off")


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def log_level(env: dict[str, str]) -> str:
    """REFEREE_LOG_LEVEL, gunicorn's level too (gunicorn.conf.py), which would read a level
    it does not know as INFO without a word: one not listed stops the start."""
    raw = env.get("REFEREE_LOG_LEVEL", "").strip().upper() or "INFO"
    if raw not in LOG_LEVELS:
        raise ValueError(f"REFEREE_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
    return raw


def _listed(value: Any, setting: str) -> list[str]:
    """A list setting's items, each stripped, from a comma-separated string or a list."""
    if isinstance(value, str):
        value = value.split(",")
    elif not (isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)):
        raise ValueError(f"{setting} must be a comma-separated string or a list of strings")
    return [v.strip() for v in value]


def state_keys(value: Any) -> list[str]:
    """The sealing keys, from a comma-separated string or a list of strings. Empty (the
    empty string or the empty list) is open mode. Otherwise every key must be a secret, or
    the referee does not start: a key that could be guessed lets anyone forge states and seat
    tokens, and a list that holds no key at all (`","`, `" "`) must not quietly run open.
    See `key_weakness` for what a key must be."""
    if value == "":
        return []
    keys = _listed(value, "STATE_KEYS")
    for number, key in enumerate(keys, 1):
        weakness = key_weakness(key)
        if weakness:
            raise ValueError(f"STATE_KEYS: key #{number} of {len(keys)} {weakness}; a sealing "
                             "key is a random secret of at least 32 characters (for instance "
                             "`openssl rand -base64 33`), and keys are separated by single "
                             "commas. Leave the setting empty for open mode.")
    return keys


def key_weakness(key: str) -> str | None:
    """What makes `key` unfit to seal states, or None. A key (its spaces around it dropped)
    must have at least MIN_KEY_LENGTH characters, at least MIN_KEY_CHARACTERS different ones,
    and not be a shorter string repeated (`"a" * 32`, `"ab" * 16`, `"12345678" * 4`): a
    typo, a placeholder or a pattern, not a secret. This catches what a person types, not
    every weak key: a key should come from a random generator."""
    if not key:
        return "is empty"
    if len(key) < MIN_KEY_LENGTH:
        return f"is shorter than {MIN_KEY_LENGTH} characters"
    if len(set(key)) < MIN_KEY_CHARACTERS:
        return f"has fewer than {MIN_KEY_CHARACTERS} different characters"
    if (key + key).find(key, 1) < len(key):
        return "is a shorter string repeated"
    return None


KEY_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
ED25519_KEY_BYTES = 32


def result_keys(value: Any) -> list[tuple[str, bytes]]:
    """The result signing keys, from a comma-separated string or a list of strings, each
    `<key id>:<the Ed25519 private key's 32 bytes in base64url>`; the first signs, all are
    published. Empty: results are not signed (answers say so). A key that does not read
    stops the referee from starting: none is ever made up in its place."""
    if value == "" or value == []:
        return []
    keys = []
    for number, item in enumerate(_listed(value, "RESULT_KEYS"), 1):
        key_id, _, text = item.partition(":")
        secret = _base64url(text)
        if not KEY_ID.fullmatch(key_id) or secret is None or len(secret) != ED25519_KEY_BYTES:
            raise ValueError(f"RESULT_KEYS: key #{number} is not `<key id>:<32 bytes in "
                             "base64url>` (a key id of letters, digits, `.`, `_`, `-`; make a "
                             "key with `python scripts/verify_result.py --new-key <key id>`)")
        if key_id in (k for k, _ in keys):
            raise ValueError(f"RESULT_KEYS: key id {key_id!r} is listed twice")
        keys.append((key_id, secret))
    return keys


def _base64url(text: str) -> bytes | None:
    if not re.fullmatch(r"[A-Za-z0-9_-]+", text):
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        return None


ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?")


def cors_origins(value: Any) -> list[str]:
    """The web origins allowed to call from a browser, from a comma-separated string or a
    list: each `scheme://host[:port]` exactly as a browser sends it, or `*` for any. A path,
    a trailing slash or a wildcard inside a name would never match a browser's `Origin`, so
    it is refused at startup rather than silently ignored."""
    origins = [o for o in _listed(value, "CORS_ORIGINS") if o]
    bad = [o for o in origins if o != "*" and not ORIGIN.fullmatch(o)]
    if bad:
        raise ValueError(f"CORS_ORIGINS: {bad[0]!r} is not an origin (scheme://host[:port], "
                         "or * for any)")
    return origins


def from_environment(env: dict[str, str] | None = None) -> dict[str, Any]:
    env = dict(os.environ if env is None else env)
    return {
        "STATE_KEYS": env.get("REFEREE_STATE_KEYS", ""),
        "RESULT_KEYS": env.get("REFEREE_RESULT_KEYS", ""),
        "MAX_BODY_BYTES": _number(env, "REFEREE_MAX_BODY_BYTES", 256 * 1024),
        "MAX_JSON_DEPTH": _number(env, "REFEREE_MAX_JSON_DEPTH", 32),
        "MAX_PLAYER_ID_LENGTH": _at_most(_number(env, "REFEREE_MAX_PLAYER_ID_LENGTH", 64),
                                         MAX_TEXT, "REFEREE_MAX_PLAYER_ID_LENGTH"),
        "MAX_LIST_ITEMS": _number(env, "REFEREE_MAX_LIST_ITEMS", 256),
        "MAX_REPLAY_MOVES": _number(env, "REFEREE_MAX_REPLAY_MOVES", 2000),
        "LOG_LEVEL": log_level(env),
        "REQUEST_LOG": _flag(env, "REFEREE_REQUEST_LOG", True),
        "COMPRESS_MIN_BYTES": _number(env, "REFEREE_COMPRESS_MIN_BYTES", 4096, least=0),
        "CORS_ORIGINS": env.get("REFEREE_CORS_ORIGINS", ""),
        "REQUEST_DEADLINE": _seconds(env, "REFEREE_REQUEST_DEADLINE", 10.0),
        "TABLE_CACHE": table_cache(env),
    }


def table_cache(env: dict[str, str]) -> str | None:
    """Where the hints' tables are kept between processes (referee.core.tables): the folder
    REFEREE_TABLE_CACHE names, `off` for nowhere; by default `referee/tables` in the user's
    cache folder (XDG_CACHE_HOME, else ~/.cache)."""
    raw = env.get("REFEREE_TABLE_CACHE", "").strip()
    if raw.lower() == "off":
        return None
    if raw:
        return raw
    home = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(home, "referee", "tables")
