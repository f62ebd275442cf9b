"""What a request leaves to be written later, and the one thread of a process that writes it.

A request queues its log line (referee.http.observability) and adds its counts to values kept
in this process (referee.http.metrics); `FLUSHER` writes both out every FLUSH_SECONDS on a
thread of its own, and once more when the process exits (atexit: a gunicorn worker leaving on
SIGTERM, or recycled by its request limit). A request thus pays neither a system call nor a
shared file's lock for them. What a process killed outright (SIGKILL) had not yet written, at
most one interval's worth, is lost with it.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from typing import Callable

FLUSH_SECONDS = 1.0

log = logging.getLogger(__name__)


class Flusher:
    """Calls every registered flush every `seconds` once started, and at exit."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.flushes: list[Callable[[], None]] = []
        self.forget()

    def forget(self) -> None:
        self.starting = threading.Lock()
        self.thread: threading.Thread | None = None

    def add(self, flush: Callable[[], None]) -> None:
        self.flushes.append(flush)

    @property
    def running(self) -> bool:
        return self.thread is not None

    def start(self) -> None:
        """Start the thread, with the application: never from a request, whose deadline
        could hit a thread it starts as it starts (referee.service.preparer says how)."""
        with self.starting:
            if self.thread is None:
                self.thread = threading.Thread(target=self.flush_every, name="flusher",
                                               daemon=True)
                self.thread.start()

    def flush_every(self) -> None:
        while True:
            time.sleep(self.seconds)
            self.flush()

    def flush(self) -> None:
        for flush in self.flushes:
            try:
                flush()
            except Exception:  # one failing writer must not stop the others, nor the thread
                log.exception("could not write what the requests left to write")

    def forked(self) -> None:
        # A forked child has no thread but the forking one: it starts its own.
        started = self.running
        self.forget()
        if started:
            self.start()


FLUSHER = Flusher(FLUSH_SECONDS)
atexit.register(FLUSHER.flush)
os.register_at_fork(after_in_child=FLUSHER.forked)
