"""What a request leaves to be written later: the metrics' counts kept in the process until the
flusher adds them to the shared files (referee.http.metrics.buffered), and the flusher itself
(referee.http.background)."""

from __future__ import annotations

import threading

from referee.http.background import Flusher
from referee.http.metrics import buffered


class Stored:
    """A stored value (a shared file's, in production) that records what it is told."""

    def __init__(self, *args, **kwargs):
        self.made_with = (args, kwargs)
        self.value = 0.0
        self.increments: list[float] = []

    def inc(self, amount):
        self.increments.append(amount)
        self.value += amount

    def set(self, value, timestamp=None):
        self.value = value

    def get(self):
        return self.value

    def set_exemplar(self, exemplar):
        self.exemplar = exemplar

    def get_exemplar(self):
        return getattr(self, "exemplar", None)


def test_increments_wait_in_the_process_until_flushed_then_are_added_once():
    Value = buffered(Stored)
    value = Value("counter", "requests", "requests_total", ("route",), ("/healthz",), "help",
                  multiprocess_mode="")
    assert value.stored.made_with[0][1] == "requests"
    value.inc(1)
    value.inc(2.5)
    assert value.stored.increments == []  # nothing written by the request itself
    assert value.get() == 3.5  # but read with what waits
    Value.flush()
    assert value.stored.increments == [3.5] and value.get() == 3.5
    Value.flush()  # nothing pending: nothing written
    assert value.stored.increments == [3.5]


def test_a_set_value_replaces_what_was_pending():
    Value = buffered(Stored)
    gauge = Value("gauge", "g", "g", (), (), "help")
    gauge.inc(4)
    gauge.set(10)
    Value.flush()
    assert gauge.get() == 10 and gauge.stored.increments == []


def test_no_increment_is_lost_while_a_flusher_writes_concurrently():
    Value = buffered(Stored)
    values = [Value("counter", f"c{n}", f"c{n}_total", (), (), "help") for n in range(3)]
    done = threading.Event()

    def flush_until_done():
        while not done.is_set():
            Value.flush()

    def count():
        for _ in range(20_000):
            for value in values:
                value.inc(1)

    flusher = threading.Thread(target=flush_until_done)
    counters = [threading.Thread(target=count) for _ in range(3)]
    flusher.start()
    for thread in counters:
        thread.start()
    for thread in counters:
        thread.join()
    done.set()
    flusher.join()
    Value.flush()
    assert [value.stored.value for value in values] == [60_000.0] * 3
    assert all(len(value.stored.increments) > 1 for value in values)  # flushed on the way


def test_a_forked_child_forgets_the_parents_pending_counts():
    Value = buffered(Stored)
    value = Value("counter", "c", "c_total", (), (), "help")
    value.inc(5)
    held = Value.lock
    held.acquire()  # as a parent's flusher may hold it at the fork
    Value.forked()
    assert Value.lock is not held and not Value.lock.locked()
    Value.flush()
    assert value.get() == 0 and value.stored.increments == []
    held.release()


def test_the_flusher_calls_every_writer_at_every_flush_even_when_one_fails(caplog):
    flusher = Flusher(seconds=60)
    calls: list[str] = []

    def failing():
        calls.append("failing")
        raise OSError("the disk is full")

    flusher.add(failing)
    flusher.add(lambda: calls.append("log"))
    flusher.flush()
    flusher.flush()
    assert calls == ["failing", "log"] * 2
    assert "could not write" in caplog.text


def test_the_flusher_runs_once_started_and_starts_one_thread():
    flusher = Flusher(seconds=0.01)
    flushed = threading.Event()
    flusher.add(flushed.set)
    assert not flusher.running
    flusher.start()
    thread = flusher.thread
    flusher.start()
    assert flusher.thread is thread and flusher.running
    assert flushed.wait(timeout=10)
