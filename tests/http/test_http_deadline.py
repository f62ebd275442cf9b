"""A request still running at its deadline (REFEREE_REQUEST_DEADLINE) is stopped and answered
with the `deadline_exceeded` problem, on the move fast path and through Flask; the application
then serves the next request. (Under gunicorn's two worker classes: tests/deploy/
test_deploy_refusals.py.)"""

from __future__ import annotations

import gc
import threading
import time
import weakref

import pytest

import referee
from referee.games import REGISTRY
from referee.http.deadline import DeadlineExceeded, Deadlines
from referee.http.workers import refusal

def spin(*args, **kwargs):
    """A computation that never ends (pure Python, as a rule's or a hint's would be)."""
    while True:
        pass


@pytest.mark.parametrize("path, method", [("moves", "apply"), ("legal-moves", "legal_moves")])
def test_a_request_past_its_deadline_is_a_problem_and_the_next_one_is_served(
        monkeypatch, path, method):
    app = referee.create_app({"STATE_KEYS": "", "REQUEST_DEADLINE": 0.2})
    client = app.test_client()
    created = client.post("/v1/games/generala-dice/matches",
                          json={"players": ["ann", "bob"], "seed": "s"}).get_json()
    move = created["legal_moves"][0]
    body = {"state": created["state"]}
    body.update({"move": move} if path == "moves" else {"player": move["player"]})
    monkeypatch.setattr(REGISTRY["generala-dice"], method, spin)
    started = time.monotonic()
    answer = client.post(f"/v1/games/generala-dice/{path}", json=body)
    assert time.monotonic() - started < 5
    assert answer.status_code == 503
    assert answer.mimetype == "application/problem+json"
    assert answer.get_json()["code"] == "deadline_exceeded"
    monkeypatch.undo()
    assert client.post(f"/v1/games/generala-dice/{path}", json=body).status_code == 200


def test_without_a_deadline_nothing_wraps_the_application():
    assert referee.create_app({"STATE_KEYS": "", "REQUEST_DEADLINE": 0}).deadlines is None
    assert referee.create_app({"STATE_KEYS": ""}).deadlines.seconds == 10


def test_a_stop_arriving_as_the_application_answers_is_still_the_problem():
    """Should the watchdog's exception reach gunicorn's worker (raised just as the answer
    left the application), the worker answers it as the same problem, not a failure."""
    assert refusal(DeadlineExceeded()) == (503, "Service Unavailable", "deadline_exceeded")


@pytest.mark.parametrize("ends_at, stop_asked", [(5.0, False), (11.0, True)])
def test_a_request_leaves_the_watch_and_withdraws_a_stop_asked_as_it_ended(ends_at, stop_asked):
    """A request ending within its deadline leaves without a stop to withdraw; one ending past
    it, just as the watchdog asked to stop it, withdraws that stop (it must not reach the
    thread's next work)."""
    now = [0.0]

    def application(environ, start_response):
        now[0] = ends_at
        if stop_asked:  # what the watchdog does for a deadline passed, under its lock
            deadlines.stopped.add(threading.get_ident())
        return [b"answered"]

    deadlines = Deadlines(application, 10.0, clock=lambda: now[0])
    deadlines.watching = True  # no watchdog thread: the test plays its part
    assert deadlines({}, None) == [b"answered"]
    assert deadlines.running == {} and deadlines.stopped == set()


def test_the_threads_a_process_keeps_run_before_any_request():
    """The preparer's thread and the flusher's (which writes the request log and the metrics'
    counts) start with the application, not in a request: a thread a request starts could be hit by that request's deadline as it starts
    (CPython 3.11 gives a new thread its creator's id until it runs) and die unseen."""
    referee.create_app({"STATE_KEYS": []})
    running = {thread.name for thread in threading.enumerate() if thread.is_alive()}
    assert {"referee-preparer", "flusher"} <= running


def watchdogs() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if thread.name == "referee-deadlines"}


def test_an_application_dropped_is_collected_and_its_watchdog_ends():
    """A process may build many applications (the test suite does): one no longer used must
    not be kept, nor its watchdog thread go on waking, by the deadlines' own hooks."""
    before = watchdogs()
    app = referee.create_app({"STATE_KEYS": []})
    assert app.test_client().get("/healthz").status_code == 200
    [its_watchdog] = watchdogs() - before  # started by the first request
    dropped = weakref.ref(app)
    del app
    gc.collect()
    assert dropped() is None
    its_watchdog.join(timeout=5)
    assert not its_watchdog.is_alive(), "the watchdog outlived its application"
