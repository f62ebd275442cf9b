"""Makes, off the requests' path, what a request found not prepared (core.preparation): one
thread a process, one piece of work at a time, each key once, at most `WAITING` waiting. A
request it cannot take (the queue full) is refused the same way; its caller asks again.

The thread is started with the application (`start`), and again in a forked worker, never by
a request: a thread a request starts could be hit by that request's deadline as it starts
(referee.http.deadline raises in a thread by its id, which CPython 3.11 gives a new thread
too until it runs), and would die before taking any work."""

from __future__ import annotations

import logging
import os
import queue
import threading

from referee.core.errors import NotPrepared
from referee.core.tables import read_only

log = logging.getLogger("referee")

WAITING = 4
# What a caller is told to wait before asking again (Generala's tables take about 1.3 s).
RETRY_AFTER = 2


class Preparer:
    def __init__(self) -> None:
        self.forget()
        os.register_at_fork(after_in_child=self._forked)

    def forget(self) -> None:
        self.lock = threading.Lock()
        self.asked: set[object] = set()  # keys waiting or being made
        self.work: queue.Queue[NotPrepared] = queue.Queue(WAITING)
        self.started = False

    def start(self) -> None:
        """Start the thread that prepares, if it is not running in this process."""
        with self.lock:
            if not self.started:
                self.started = True
                threading.Thread(target=self._run, args=(self.work,), name="referee-preparer",
                                 daemon=True).start()

    def _forked(self) -> None:
        # A fork keeps no thread but the forking one, nor the parent's waiting work.
        started = self.started
        self.forget()
        if started:
            self.start()

    def ask(self, missing: NotPrepared) -> None:
        """Have `missing.prepare` run, unless it is already asked for."""
        with self.lock:
            if missing.key in self.asked:
                return
            try:
                self.work.put_nowait(missing)
            except queue.Full:
                return
            self.asked.add(missing.key)

    def _run(self, work: queue.Queue[NotPrepared]) -> None:
        while True:
            missing = work.get()
            try:
                # A caller's option set: its tables are not written to the table store, so
                # no caller can fill the disk one option set at a time (referee.core.tables).
                with read_only():
                    missing.prepare()
            except Exception:  # noqa: BLE001 - logged; the next request asks again
                log.exception("preparing %s failed", missing.detail)
            with self.lock:
                self.asked.discard(missing.key)


PREPARER = Preparer()
"""The process's preparer: what it makes (an engine's tables) is the process's."""
