"""The referee's Prometheus metrics, with prometheus-client.

Under gunicorn each worker is a process of its own: gunicorn.conf.py sets
PROMETHEUS_MULTIPROC_DIR before anything imports prometheus-client, so every worker writes
its values to files there and `/metrics` sums them over the live and dead workers (gunicorn's
`child_exit` hook marks a worker dead). Without that variable (tests, a single process) the
values live in this process.

A file's value is written under a lock shared by the process's values, a few thousand
instructions each, and a sealed move request counts five (its request, the latency's sum and
bucket, a token opened and one sealed). So in multiprocess mode a request adds to counts kept
in this process (`buffered`), and the background flusher (referee.http.background) adds them
to the files every second, at exit, and before this process answers `/metrics`: another
worker's counts reach `/metrics` at most a second late, and a worker killed outright
(SIGKILL) loses at most its last second of counts.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram,
                               generate_latest)
from prometheus_client import REGISTRY as PROCESS_REGISTRY
from prometheus_client import multiprocess, values

from . import background

# In multiprocess mode prometheus-client asks for the process id on every value it writes, to
# notice a fork (a forked worker must write files of its own): `os.getpid` is a system call,
# about a microsecond on a virtual machine. The id is kept here instead, and a forked child
# learns its own at the fork. Set before the first metric is made: each value takes its class
# when it is made.
_process = [os.getpid()]
os.register_at_fork(after_in_child=lambda: _process.__setitem__(0, os.getpid()))


def process_id() -> int:
    """This process's id, as `os.getpid()` gives it, without a system call."""
    return _process[0]


def multiprocess_mode() -> bool:
    """Whether prometheus-client writes the values to files shared by the workers: it asks
    its environment variable (either spelling) when it is imported, and so does this."""
    return "PROMETHEUS_MULTIPROC_DIR" in os.environ or "prometheus_multiproc_dir" in os.environ


def buffered(stored_class: type) -> type:
    """A prometheus-client value class (the interface of `values.MutexValue`) whose values
    keep their increments in this process until `flush` adds them to a value of
    `stored_class`, made with the same arguments."""

    class Buffered:
        made: list[Buffered] = []
        lock = threading.Lock()

        def __init__(self, *args: Any, **kwargs: Any):
            self.stored = stored_class(*args, **kwargs)
            self.pending = 0.0
            with Buffered.lock:
                Buffered.made.append(self)

        def inc(self, amount: float) -> None:
            with Buffered.lock:
                self.pending += amount

        def set(self, value: float, timestamp: float | None = None) -> None:
            with Buffered.lock:
                self.pending = 0.0
                self.stored.set(value, timestamp)

        def get(self) -> float:
            with Buffered.lock:
                return self.stored.get() + self.pending

        def set_exemplar(self, exemplar: Any) -> None:
            self.stored.set_exemplar(exemplar)

        def get_exemplar(self) -> Any:
            return self.stored.get_exemplar()

        @classmethod
        def flush(cls) -> None:
            """Add every value's pending increments to its stored value."""
            with cls.lock:
                for value in cls.made:
                    if value.pending:
                        value.stored.inc(value.pending)
                        value.pending = 0.0

        @classmethod
        def forked(cls) -> None:
            # The parent's pending counts are the parent's to write, and its lock may have
            # been held by its flusher at the fork.
            cls.lock = threading.Lock()
            for value in cls.made:
                value.pending = 0.0

    os.register_at_fork(after_in_child=Buffered.forked)
    return Buffered


if multiprocess_mode():
    values.ValueClass = buffered(values.MultiProcessValue(process_identifier=process_id))
    background.FLUSHER.add(values.ValueClass.flush)

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


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus's text format, summed over gunicorn's workers when they
    share a multiprocess directory (this process's pending counts written first)."""
    registry = PROCESS_REGISTRY
    if multiprocess_mode():
        values.ValueClass.flush()
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    return generate_latest(registry), CONTENT_TYPE_LATEST
