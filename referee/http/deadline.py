"""A deadline for every request, whatever gunicorn's worker class: a request still running
`REFEREE_REQUEST_DEADLINE` seconds after it began is stopped and answered with the
`deadline_exceeded` problem (503); nothing is stored, so nothing is left half changed.

gunicorn's own `timeout` is no such deadline: a threaded worker's main loop keeps telling the
arbiter it is alive while one of its threads computes, so the timeout never fires, and a sync
worker killed by it answers nothing. Every input is bounded so that no request comes near the
deadline (docs/OPERATIONS.md, "The cost of a request"); this is the net under those bounds.

One watchdog thread an application (a served process runs one), started by its first
request, keeps the running requests' deadlines. When one passes, it raises
`DeadlineExceeded` in that request's thread (CPython's `PyThreadState_SetAsyncExc`: the
exception is raised at the thread's next bytecode, so Python code stops within a tick; a long
call into C stops when it returns). The wrapper below, outermost around the application,
turns it into the problem answer.
"""

from __future__ import annotations

import ctypes
import logging
import os
import threading
import time
import weakref
from typing import Any, Callable, Iterable

from .problems import problem_response

log = logging.getLogger("referee")

# How often the watchdog looks, as a share of the deadline, and at least this often.
TICKS_PER_DEADLINE = 20
LONGEST_TICK = 0.1


class DeadlineExceeded(BaseException):
    """Raised in a request's thread by the watchdog. A BaseException, so that no `except
    Exception` on the request's path (the error handler, a rule's check) takes it for a
    failure of its own before the wrapper answers it."""


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    """Ask CPython to raise `exc` in the thread at its next bytecode (None: forget a raise
    asked for and not yet delivered)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exc) if exc else None)


# Every application's deadlines in this process, told of a fork by one hook: a hook per
# instance would be kept by the interpreter for good, and with it the application it wraps
# (a process that builds many applications, such as the test suite's, would keep them all).
_LIVE: weakref.WeakSet[Deadlines] = weakref.WeakSet()


def _forked_in_child() -> None:
    for deadlines in list(_LIVE):
        deadlines._forked()


os.register_at_fork(after_in_child=_forked_in_child)


class Deadlines:
    """The WSGI application `app` with a deadline of `seconds` on each request."""

    def __init__(self, app: Callable[..., Iterable[bytes]], seconds: float,
                 clock: Callable[[], float] = time.monotonic):
        self.app = app
        self.seconds = seconds
        self.clock = clock
        self.tick = min(seconds / TICKS_PER_DEADLINE, LONGEST_TICK)
        self.lock = threading.Lock()
        self.running: dict[int, float] = {}  # thread id -> when its request must end
        self.stopped: set[int] = set()  # threads asked to stop, the raise not yet answered
        self.watching = False  # whether this process's watchdog runs (a fork's does not)
        _LIVE.add(self)

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if not self.watching:
            self._watch()
        me = threading.get_ident()
        deadline = self.running[me] = self.clock() + self.seconds
        try:
            try:
                return self.app(environ, start_response)
            finally:
                self._leave(me, deadline)
        except DeadlineExceeded:
            self._leave(me, deadline)
            log.warning("request stopped at its deadline",
                        extra={"method": environ.get("REQUEST_METHOD"),
                               "path": environ.get("PATH_INFO"), "deadline_s": self.seconds})
            response = problem_response(
                "deadline_exceeded", f"the request ran longer than {self.seconds:g} s and was "
                "stopped; nothing was stored or changed")
            return response(environ, start_response)

    def _leave(self, me: int, deadline: float) -> None:
        self.running.pop(me, None)
        # The watchdog raises, under the lock, only in a thread it finds running, and only for
        # a deadline passed by the time it read before looking. So a request that the clock,
        # read once it has left, shows still within its deadline can have no raise asked for
        # it, now or later: it leaves without the lock, as nearly every request does.
        if self.clock() < deadline:
            return
        with self.lock:
            if me in self.stopped:
                self.stopped.discard(me)
                _raise_in(me, None)  # a raise asked for just as the request ended

    def _forked(self) -> None:
        self.watching = False
        self.lock = threading.Lock()

    def _watch(self) -> None:
        with self.lock:
            if self.watching:
                return
            self.watching = True
            self.running.clear()
            self.stopped.clear()
        threading.Thread(target=_watchdog, args=(weakref.ref(self), self.tick),
                         name="referee-deadlines", daemon=True).start()

    def stop_overdue(self) -> None:
        """Ask every request past its deadline to stop (once)."""
        now = self.clock()  # before looking at the requests running (see _leave)
        with self.lock:
            for thread_id, deadline in list(self.running.items()):
                if deadline <= now and thread_id not in self.stopped:
                    self.stopped.add(thread_id)
                    _raise_in(thread_id, DeadlineExceeded)


def _watchdog(watched: weakref.ref[Deadlines], tick: float) -> None:
    """Every `tick`, the requests past their deadline are stopped; the thread ends with the
    application it watches. It holds that application only while it looks: a thread that
    held it for good would keep it, and wake, for as long as the process runs (a process
    that builds many applications, such as the test suite's, would keep them all and their
    threads)."""
    while True:
        time.sleep(tick)
        deadlines = watched()
        if deadlines is None:
            return
        deadlines.stop_overdue()
        del deadlines
