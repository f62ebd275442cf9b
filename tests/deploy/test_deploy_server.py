"""The referee under gunicorn with its own gunicorn.conf.py: metrics summed over workers
(and kept when a worker is replaced), connections kept alive, every log line JSON."""

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
from prometheus_client.parser import text_string_to_metric_families

from bench.__main__ import free_port, workers_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    base = tmp_path_factory.mktemp("server")
    metrics_dir = base / "metrics"
    err = open(base / "stderr", "w+")
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), WORKERS="2", THREADS="2",
               PROMETHEUS_MULTIPROC_DIR=str(metrics_dir), REFEREE_LOG_LEVEL="INFO",
               ACCESS_LOG="-")
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
    yield proc, port, metrics_dir, err
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


def test_metrics_are_summed_over_workers_and_survive_a_replaced_worker(server):
    proc, port, metrics_dir, _ = server
    start = healthz_count(port)
    for _ in range(30):
        assert get(port, "/healthz")[0] == 200
    assert healthz_count(port) == start + 30
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


def test_every_line_gunicorn_and_the_referee_write_is_json(server):
    _, port, _, err = server
    assert get(port, "/healthz", **{"X-Request-ID": "server-log-1"})[0] == 200
    time.sleep(0.5)
    err.flush()
    lines = [line for line in Path(err.name).read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]
    loggers = {r["logger"] for r in records}
    assert {"gunicorn.error", "gunicorn.access", "referee.requests"} <= loggers
    mine = [r for r in records if r.get("request_id") == "server-log-1"]
    assert len(mine) == 1 and mine[0]["route"] == "/healthz" and mine[0]["status"] == 200
    assert all({"time", "level", "logger", "message"} <= r.keys() for r in records)
