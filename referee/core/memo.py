"""One bounded memo for what an engine computes once per value and reads on every request: the
tables an options value compiles to, the moves a seat's hand allows, a player's listing.

A service that serves any caller's states cannot let a memo grow with what callers send, so a
memo holds at most `limit` entries and forgets them all at once when it is full: the values it
holds are pure functions of their keys, so forgetting costs only their recomputation, and a
match's few keys come back at its next request.

But for the keys it was told to keep (`pin`): what the service prepares before it serves (the
default options' hint tables) must not be forgotten because callers sent many other options,
or the tables a worker was started with would be built again in the middle of its work.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedMemo(Generic[K, V]):
    """`memo.get(key, make, *args)`: the value remembered for `key`, or `make(key, *args)`
    remembered. What `make` needs beyond the key comes as arguments, not in a closure made
    at every call, so a hit costs a lookup and nothing more."""

    __slots__ = ("limit", "_values", "_pinned")

    def __init__(self, limit: int):
        self.limit = limit
        self._values: dict[K, V] = {}
        self._pinned: set[K] = set()

    def get(self, key: K, make: Callable[..., V], *args: Any) -> V:
        try:
            return self._values[key]
        except KeyError:
            pass
        if len(self._values) >= self.limit:
            self._values = {kept: value for kept, value in self._values.items()
                            if kept in self._pinned}
        value = self._values[key] = make(key, *args)
        return value

    def pin(self, key: K) -> None:
        """Never forget `key`'s value once made (pinned keys count towards the limit, which
        must leave room for one other at least)."""
        if key not in self._pinned and len(self._pinned) >= self.limit - 1:
            raise ValueError(f"a memo of {self.limit} entries cannot pin {key!r} too")
        self._pinned.add(key)

    def __contains__(self, key: K) -> bool:
        return key in self._values
