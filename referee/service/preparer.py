"""Makes, off the requests' path, what a request found not prepared (core.preparation): one
thread a process, one piece of work at a time, each key once, at most `WAITING` waiting. A
request it cannot take (the queue full) is refused the same way; its caller asks again."""

from __future__ import annotations

import logging
import os
import queue
import threading

from referee.core.errors import NotPrepared

log = logging.getLogger("referee")

WAITING = 4
# What a caller is told to wait before asking again (Generala's tables take about 1.3 s).
RETRY_AFTER = 2


class Preparer:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.asked: set[object] = set()  # keys waiting or being made
        self.work: queue.Queue[NotPrepared] = queue.Queue(WAITING)
        self.pid = 0  # the process whose thread runs (a fork has none)

    def ask(self, missing: NotPrepared) -> None:
        """Have `missing.prepare` run, unless it is already asked for."""
        with self.lock:
            if self.pid != os.getpid():
                self.pid = os.getpid()
                self.asked.clear()
                self.work = queue.Queue(WAITING)
                threading.Thread(target=self._run, args=(self.work,), name="referee-preparer",
                                 daemon=True).start()
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
                missing.prepare()
            except Exception:  # noqa: BLE001 - logged; the next request asks again
                log.exception("preparing %s failed", missing.detail)
            with self.lock:
                self.asked.discard(missing.key)
