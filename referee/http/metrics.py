"""The referee's Prometheus metrics, with prometheus-client.

Under gunicorn each worker is a process of its own: gunicorn.conf.py sets
PROMETHEUS_MULTIPROC_DIR before anything imports prometheus-client, so every worker writes
its values to files there and `/metrics` sums them over the live and dead workers (gunicorn's
`child_exit` hook marks a worker dead). Without that variable (tests, a single process) the
values live in this process.
"""

from __future__ import annotations

import os

from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram,
                               generate_latest)
from prometheus_client import REGISTRY as PROCESS_REGISTRY
from prometheus_client import multiprocess, values

# In multiprocess mode prometheus-client asks for the process id on every value it writes, to
# notice a fork (a forked worker must write files of its own): `os.getpid` is a system call,
# about a microsecond on a virtual machine, and a move request writes six values. The id is
# kept here instead, and a forked child learns its own at the fork. Set before the first
# metric is made: each value takes its class when it is made.
_process = [os.getpid()]
os.register_at_fork(after_in_child=lambda: _process.__setitem__(0, os.getpid()))


def process_id() -> int:
    """This process's id, as `os.getpid()` gives it, without a system call."""
    return _process[0]


def multiprocess_mode() -> bool:
    """Whether prometheus-client writes the values to files shared by the workers: it asks
    its environment variable (either spelling) when it is imported, and so does this."""
    return "PROMETHEUS_MULTIPROC_DIR" in os.environ or "prometheus_multiproc_dir" in os.environ


if multiprocess_mode():
    values.ValueClass = values.MultiProcessValue(process_identifier=process_id)

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
    share a multiprocess directory."""
    registry = PROCESS_REGISTRY
    if multiprocess_mode():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    return generate_latest(registry), CONTENT_TYPE_LATEST
