"""The referee's Prometheus metrics, with prometheus-client.

Under gunicorn each worker is a process of its own: gunicorn.conf.py sets
PROMETHEUS_MULTIPROC_DIR before anything imports prometheus-client, so every worker writes
its values to files there and `/metrics` sums them over the live and dead workers (gunicorn's
`child_exit` hook marks a worker dead). Without that variable (tests, a single process) the
values live in this process.
"""

from __future__ import annotations

import bisect
import functools
import os
from typing import Any, Callable

from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram,
                               generate_latest)
from prometheus_client import REGISTRY as PROCESS_REGISTRY
from prometheus_client import multiprocess

REQUESTS = Counter("referee_requests", "HTTP requests answered, by route, game and status.",
                   ["route", "game", "status"])
PROBLEMS = Counter("referee_problems", "Problem answers (refusals and failures), by code.",
                   ["code"])
MOVES = Counter("referee_moves_applied", "Moves applied to a match, by game.", ["game"])
# From well under a millisecond (catalogue) to the slowest hints and pictures.
LATENCY = Histogram("referee_request_duration_seconds",
                    "Time from the request's start to its answer, by route.", ["route"],
                    buckets=(0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128,
                             0.256, 0.512, 1.024, 2.048))
TOKENS_SEALED = Counter("referee_sealed_tokens_sealed", "Sealed states written.")
TOKENS_OPENED = Counter("referee_sealed_tokens_opened",
                        "Sealed states opened, by token format version.", ["version"])
TOKENS_REFUSED = Counter("referee_sealed_tokens_refused",
                         "Sealed states refused (altered, of another game, unknown key).")


def adder(counter: Counter) -> Callable[[], None]:
    """What `counter.inc()` does, for a counter without labels or a labelled child found
    once: one added to its value. `inc` first checks, on every call, that the counter is not
    a labelled parent and that the amount is not negative, two Python calls more than the
    addition itself, on every request; neither can fail for a child found once adding one.
    The value (prometheus-client's per-process or multiprocess value, `_value`) is added to
    directly; a prometheus-client without it gets `inc` itself."""
    value = getattr(counter, "_value", None)
    if not callable(getattr(value, "inc", None)) or not _observable(counter):
        return counter.inc
    return functools.partial(value.inc, 1)


class Observer:
    """What `histogram.observe(amount)` does, for a labelled child found once: the amount
    added to its sum and one to the first bucket whose upper bound it does not pass, found
    by bisection instead of a walk through the buckets (and without `observe`'s check on
    every call that the histogram is not a labelled parent). A prometheus-client without
    the parts used here gets `observe` itself."""

    __slots__ = ("observe", "_sum", "_bounds", "_buckets")

    def __init__(self, histogram: Histogram):
        parts = [getattr(histogram, name, None) for name in ("_sum", "_upper_bounds",
                                                              "_buckets")]
        self.observe: Callable[[float], None]
        if (not _observable(histogram) or not callable(getattr(parts[0], "inc", None))
                or not parts[1] or len(parts[1]) != len(parts[2] or ())):
            self.observe = histogram.observe
            return
        self._sum, self._bounds = parts[0].inc, list(parts[1])
        self._buckets = [functools.partial(bucket.inc, 1) for bucket in parts[2]]
        self.observe = self._observe

    def _observe(self, amount: float) -> None:
        # (A duration: a number, never NaN, which passes every bound and fills no bucket.)
        self._sum(amount)
        # The first bound not below the amount: `observe`'s `amount <= bound`.
        self._buckets[bisect.bisect_left(self._bounds, amount)]()


def _observable(metric: Any) -> bool:
    """A metric without labels or a labelled child: one that holds values (False when the
    attributes that say so are not there)."""
    names = getattr(metric, "_labelnames", None)
    return names is not None and (not names or bool(getattr(metric, "_labelvalues", None)))


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus's text format, summed over gunicorn's workers when they
    share a multiprocess directory."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(PROCESS_REGISTRY), CONTENT_TYPE_LATEST
