"""One bounded memo for what an engine computes once per value and reads on every request: the
tables an options value compiles to, the moves a seat's hand allows, a player's listing.

A service that serves any caller's states cannot let a memo grow with what callers send, so a
memo holds at most `limit` entries and forgets them all at once when it is full: the values it
holds are pure functions of their keys, so forgetting costs only their recomputation, and a
match's few keys come back at its next request.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedMemo(Generic[K, V]):
    """`memo.get(key, make, *args)`: the value remembered for `key`, or `make(key, *args)`
    remembered. What `make` needs beyond the key comes as arguments, not in a closure made
    at every call, so a hit costs a lookup and nothing more."""

    __slots__ = ("limit", "_values")

    def __init__(self, limit: int):
        self.limit = limit
        self._values: dict[K, V] = {}

    def get(self, key: K, make: Callable[..., V], *args: Any) -> V:
        try:
            return self._values[key]
        except KeyError:
            pass
        if len(self._values) >= self.limit:
            self._values.clear()
        value = self._values[key] = make(key, *args)
        return value

    def __contains__(self, key: K) -> bool:
        return key in self._values
