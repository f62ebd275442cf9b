"""The referee under gunicorn with its own gunicorn.conf.py: metrics summed over workers
(and kept when a worker is replaced), connections kept alive, every log line JSON, a request
line for every request, none lost when the server stops gracefully."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry, multiprocess
from prometheus_client.parser import text_string_to_metric_families

from bench.__main__ import free_port, workers_of
from referee.http.background import FLUSH_SECONDS

ROOT = Path(__file__).resolve().parents[2]


def start(base: Path, threads: str = "2", warm_up: str = "on"):
    """gunicorn with the referee's settings, two workers of `threads` threads, its output in
    `base`/stderr; the process, its port and its output file. `warm_up="off"` skips the
    master's warm-up (WARM_UP in gunicorn.conf.py), for a server that is only stopped."""
    port = free_port()
    metrics_dir = base / "metrics"
    err = open(base / "stderr", "w+")
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), WORKERS="2", THREADS=threads,
               PROMETHEUS_MULTIPROC_DIR=str(metrics_dir), REFEREE_LOG_LEVEL="INFO",
               ACCESS_LOG="-", WARM_UP=warm_up)
    env.pop("REFEREE_STATE_KEYS", None)
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
                             "referee:create_app()"], cwd=ROOT, env=env, stdout=err,
                            stderr=err, start_new_session=True)
    deadline = time.time() + 30
    while True:
        try:
            if get(port, "/readyz")[0] == 200:
                break
        except OSError:
            pass
        assert time.time() < deadline and proc.poll() is None, "gunicorn did not start"
        time.sleep(0.2)
    return proc, port, err


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("server")
    proc, port, err = start(base)
    yield proc, port, base / "metrics", err
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=15)
    err.close()


def get(port: int, path: str, **headers: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def healthz_count(port: int) -> float:
    status, body = get(port, "/metrics")
    assert status == 200
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            if sample.name == "referee_requests_total" and sample.labels == {
                    "route": "/healthz", "game": "", "status": "200"}:
                return sample.value
    return 0.0


def settled_healthz_count(port: int, expected: float) -> float:
    """The count once it reaches `expected`, or after a few flush intervals: each worker adds
    its pending counts to the shared files every second (referee.http.background), and the
    worker answering `/metrics` its own first."""
    deadline = time.time() + 5 * FLUSH_SECONDS
    while (count := healthz_count(port)) < expected and time.time() < deadline:
        time.sleep(0.1)
    return count


def test_metrics_are_summed_over_workers_and_survive_a_replaced_worker(server):
    proc, port, metrics_dir, _ = server
    start = healthz_count(port)
    for _ in range(30):
        assert get(port, "/healthz")[0] == 200
    assert settled_healthz_count(port, start + 30) == start + 30
    # Every worker writes files of its own, named by its pid, in the shared directory.
    pids = workers_of(proc.pid)
    assert len(pids) == 2
    # A worker killed and replaced takes nothing away from the counters.
    os.kill(pids[0], signal.SIGKILL)
    deadline = time.time() + 20
    while pids[0] in workers_of(proc.pid) or len(workers_of(proc.pid)) < 2:
        assert time.time() < deadline
        time.sleep(0.2)
    for _ in range(10):
        assert get(port, "/healthz")[0] == 200
    assert settled_healthz_count(port, start + 40) == start + 40
    # Nothing is counted twice once every worker has flushed.
    time.sleep(2 * FLUSH_SECONDS)
    assert healthz_count(port) == start + 40
    assert any(str(pids[0]) in f.name for f in metrics_dir.iterdir())


def test_connections_are_kept_alive_between_requests(server):
    _, port, _, _ = server
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/healthz")
    first = conn.getresponse()
    first.read()
    sock = conn.sock
    assert first.getheader("Connection", "").lower() != "close"
    for _ in range(5):
        conn.request("GET", "/v1/games")
        response = conn.getresponse()
        assert response.status == 200 and response.read()
        assert response.getheader("Connection", "").lower() != "close"
    # The same socket carried every request: http.client opens a new one after a close.
    assert conn.sock is sock
    conn.close()


LINE_FIELDS = ["time", "level", "logger", "message", "request_id", "method", "route", "game",
               "status", "code", "duration_ms"]


def records(err) -> list[dict]:
    err.flush()
    return [json.loads(line) for line in Path(err.name).read_text().splitlines() if line.strip()]


def request_lines(err, ids: set[str], seconds: float = 10) -> dict[str, list[dict]]:
    """The request lines of the requests of `ids`, by id, once every one has its line (the
    workers write theirs within a second) or `seconds` have passed."""
    deadline = time.time() + seconds
    while True:
        found: dict[str, list[dict]] = {}
        for record in records(err):
            if record["logger"] == "referee.requests" and record["request_id"] in ids:
                found.setdefault(record["request_id"], []).append(record)
        if found.keys() == ids or time.time() > deadline:
            return found
        time.sleep(0.2)


def test_every_line_gunicorn_and_the_referee_write_is_json(server):
    _, port, _, err = server
    assert get(port, "/healthz", **{"X-Request-ID": "server-log-1"})[0] == 200
    mine = request_lines(err, {"server-log-1"})["server-log-1"]
    lines = records(err)
    loggers = {r["logger"] for r in lines}
    assert {"gunicorn.error", "gunicorn.access", "referee.requests"} <= loggers
    assert len(mine) == 1 and mine[0]["route"] == "/healthz" and mine[0]["status"] == 200
    assert all({"time", "level", "logger", "message"} <= r.keys() for r in lines)


def test_the_master_warms_up_before_it_forks_its_workers(server):
    """The module's server runs at the default settings: its master warms up (gunicorn.conf.py,
    on_starting) before the first worker boots."""
    _, _, _, err = server
    messages = [r["message"] for r in records(err) if r["logger"] == "gunicorn.error"]
    warmed = messages.index("warmed up: the hints' tables and the pictures are ready")
    booted = next(i for i, m in enumerate(messages) if m.startswith("Booting worker"))
    assert warmed < booted
    assert not [m for m in messages if m.startswith("no warm-up")]


def post(port: int, path: str, body: dict, **headers: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json",
                                                      **headers})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_every_request_writes_one_line_with_the_same_fields(server):
    _, port, _, err = server
    dice = "/v1/games/generala-dice"
    status, created = post(port, f"{dice}/matches", {"players": ["ann", "bob"]})
    assert status == 201
    state = json.loads(created)["state"]
    roll = {"type": "roll", "player": "ann", "keep": []}
    moves = "/v1/games/<game_id>/moves"
    sent = {"fields-1": (get(port, "/healthz", **{"X-Request-ID": "fields-1"})[0], "/healthz"),
            "fields-2": (post(port, f"{dice}/moves", {"state": state, "move": roll},
                              **{"X-Request-ID": "fields-2"})[0], moves),
            "fields-3": (post(port, f"{dice}/moves", {"state": state, "move": {
                **roll, "player": "bob"}}, **{"X-Request-ID": "fields-3"})[0], moves),
            "fields-4": (get(port, "/nowhere", **{"X-Request-ID": "fields-4"})[0], "unmatched")}
    found = request_lines(err, set(sent))
    assert found.keys() == sent.keys()
    assert [status for status, _ in sent.values()] == [200, 200, 409, 404]
    for request_id, (status, route) in sent.items():
        [line] = found[request_id]
        assert list(line) == LINE_FIELDS
        assert (line["status"], line["route"], line["level"], line["message"]) == (
            status, route, "INFO", "request")
    assert [found[i][0]["code"] for i in sent] == [None, None, "not_your_turn", "not_found"]
    assert [found[i][0]["game"] for i in sent] == [None, "generala-dice", "generala-dice", None]


@pytest.mark.parametrize("threads", ["2", "1"], ids=["threaded-worker", "sync-worker"])
def test_the_lines_and_counts_of_just_before_a_graceful_shutdown_are_kept(tmp_path, threads):
    """The workers write their request lines and add their counts to the metrics' files once
    a second: SIGTERM to the master right after the last answer leaves both pending, which
    each worker writes as it exits."""
    proc, port, err = start(tmp_path, threads, warm_up="off")
    ids = {f"last-{n}" for n in range(200)}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for request_id in sorted(ids):
        conn.request("GET", "/healthz", headers={"X-Request-ID": request_id})
        assert conn.getresponse().read()
    conn.close()
    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    found = request_lines(err, ids, seconds=0)
    assert "no warm-up (WARM_UP=off): the first hints build their tables" in [
        r["message"] for r in records(err)]
    err.close()
    assert {request_id: len(lines) for request_id, lines in found.items()} == dict.fromkeys(
        ids, 1)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=str(tmp_path / "metrics"))
    assert registry.get_sample_value("referee_requests_total", {
        "route": "/healthz", "game": "", "status": "200"}) == len(ids)
