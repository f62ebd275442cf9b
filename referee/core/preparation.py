"""Work an engine does once per option set and keeps (a solver's tables), which a request
must not wait for.

Called directly (tests, benchmarks, the warm-up), `prepared` makes what is missing in line.
While the service serves a request (`serving()`), it refuses with NotPrepared instead, naming
what to make and how; the service makes it off the request's path and answers the caller to
ask again shortly. So the cost of a request does not depend on whether some earlier request
asked for the same options.

What is made while `pinning()` (the warm-up, before a worker serves) is never forgotten by its
memo, however many other option sets callers ask for afterwards.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from typing import Any, Callable, Hashable, Iterator, TypeVar

from .errors import NotPrepared
from .memo import BoundedMemo

V = TypeVar("V")

_SERVING = contextvars.ContextVar("serving", default=False)
_PINNING = contextvars.ContextVar("pinning", default=False)


@contextlib.contextmanager
def serving() -> Iterator[None]:
    """Within: what `prepared` lacks is refused, not made."""
    token = _SERVING.set(True)
    try:
        yield
    finally:
        _SERVING.reset(token)


@contextlib.contextmanager
def pinning() -> Iterator[None]:
    """Within: what `prepared` makes or finds is kept for good."""
    token = _PINNING.set(True)
    try:
        yield
    finally:
        _PINNING.reset(token)


def needed(ready: bool, key: Hashable, make: Callable[[], object], what: str) -> None:
    """What `make()` builds into an object that keeps it (a lazily built part of tables
    `prepared` gave), unless `ready`: built in line, or refused with NotPrepared while serving,
    as `prepared` refuses."""
    if ready:
        return
    if _SERVING.get():
        raise NotPrepared(f"{what} are being prepared", key=key, prepare=make)
    make()


def prepared(memo: BoundedMemo[Any, V], key: Hashable, make: Callable[..., V], what: str) -> V:
    """`memo`'s value for `key`, made by `make(key)` when missing, unless serving."""
    if _SERVING.get() and key not in memo:
        raise NotPrepared(f"{what} are being prepared", key=key,
                          prepare=functools.partial(memo.get, key, make))
    if _PINNING.get():
        memo.pin(key)
    return memo.get(key, make)
