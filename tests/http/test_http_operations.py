"""What an operator watches: Prometheus metrics, request ids, JSON log lines, liveness and
readiness apart."""

from __future__ import annotations

import json
import logging
import os
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client import multiprocess
from prometheus_client.parser import text_string_to_metric_families

import referee
from referee.http.observability import (REQUEST_LOG, RequestLine, RequestLog,
                                        json_formatter)

ROOT = Path(__file__).resolve().parents[2]
DICE = "/v1/games/generala-dice"
ROLL = {"type": "roll", "player": "ann", "keep": []}


def scrape(client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics, read by Prometheus's own parser."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    samples = {}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def create(client, **headers):
    response = client.post(f"{DICE}/matches", json={"players": ["ann", "bob"], "seed": "s"},
                           headers=headers)
    assert response.status_code == 201
    return response


def test_the_counters_move_with_requests_moves_and_refusals(client):
    before = scrape(client)
    state = create(client).get_json()["state"]
    for _ in range(3):
        assert client.post(f"{DICE}/moves", json={"state": state, "move": ROLL}).status_code == 200
    assert client.post("/v1/games/chess/matches", json={"players": ["a"]}).status_code == 404
    assert client.post(f"{DICE}/moves", json={"state": state, "move": {
        "type": "roll", "player": "bob", "keep": []}}).status_code == 409
    after = scrape(client)

    def moved(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    route = "/v1/games/<game_id>/moves"
    assert moved("referee_requests_total", route=route, game="generala-dice", status="200") == 3
    assert moved("referee_requests_total", route=route, game="generala-dice", status="409") == 1
    assert moved("referee_requests_total", route="/v1/games/<game_id>/matches",
                 game="generala-dice", status="201") == 1
    # A game outside the registry is counted as one `unknown`, never by the name sent.
    assert moved("referee_requests_total", route="/v1/games/<game_id>/matches",
                 game="unknown", status="404") == 1
    assert not any("chess" in str(key) for key in after)
    assert moved("referee_problems_total", code="unknown_game") == 1
    assert moved("referee_problems_total", code="not_your_turn") == 1
    assert moved("referee_moves_applied_total", game="generala-dice") == 3
    assert moved("referee_request_duration_seconds_count", route=route) == 4
    assert moved("referee_request_duration_seconds_bucket", route=route, le="+Inf") == 4
    assert moved("referee_request_duration_seconds_sum", route=route) > 0


def test_a_path_of_no_route_is_counted_as_unmatched(client):
    before = scrape(client)
    client.get("/no/such/path/" + "x" * 30)
    after = scrape(client)
    key = dict(route="unmatched", game="", status="404")
    assert value(after, "referee_requests_total", **key) - value(
        before, "referee_requests_total", **key) == 1
    assert not any("xxxx" in str(k) for k in after)


def test_sealed_tokens_sealed_opened_and_refused_are_counted(sealed_client):
    before = scrape(sealed_client)
    token = create(sealed_client).get_json()["state"]
    sealed_client.post(f"{DICE}/moves", json={"state": token, "move": ROLL})
    refused = sealed_client.post(f"{DICE}/moves", json={"state": token[:-4], "move": ROLL})
    assert refused.get_json()["code"] == "tampered_state"
    after = scrape(sealed_client)
    assert value(after, "referee_sealed_tokens_sealed_total") - value(
        before, "referee_sealed_tokens_sealed_total") == 2
    assert value(after, "referee_sealed_tokens_opened_total", version="v3") - value(
        before, "referee_sealed_tokens_opened_total", version="v3") == 1
    assert value(after, "referee_sealed_tokens_refused_total") - value(
        before, "referee_sealed_tokens_refused_total") == 1


def test_a_request_id_sent_is_echoed_and_one_is_made_when_absent(client):
    assert create(client, **{"X-Request-ID": "backend-42.a:b"}).headers["X-Request-ID"] == \
        "backend-42.a:b"
    made = {create(client).headers["X-Request-ID"] for _ in range(3)}
    assert len(made) == 3 and all(re.fullmatch(r"[0-9a-f]{32}", m) for m in made)
    # An id that could break a log line or a header is replaced, not echoed.
    bad = create(client, **{"X-Request-ID": "x" * 200}).headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", bad)
    # Problems carry it too.
    assert client.get("/nowhere", headers={"X-Request-ID": "r1"}).headers["X-Request-ID"] == "r1"


def test_a_traceparent_gives_its_trace_id_and_is_echoed(client):
    parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    response = create(client, traceparent=parent)
    assert response.headers["X-Request-ID"] == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert response.headers["traceparent"] == parent
    # An all-zero trace id is invalid (W3C): a fresh id is made and nothing is echoed.
    zero = create(client, traceparent="00-" + "0" * 32 + "-00f067aa0ba902b7-01")
    assert zero.headers["X-Request-ID"] != "0" * 32 and "traceparent" not in zero.headers
    invalid = create(client, traceparent="FF-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    assert invalid.headers["X-Request-ID"] != "4bf92f3577b34da6a3ce929d0e0e4736"
    # An X-Request-ID wins over a traceparent.
    both = create(client, traceparent=parent, **{"X-Request-ID": "mine"})
    assert both.headers["X-Request-ID"] == "mine"


LINE_FIELDS = ["time", "level", "logger", "message", "request_id", "method", "route", "game",
               "status", "code", "duration_ms"]


def request_lines(capfd) -> list[dict]:
    """The request lines written on standard error since the last call, as JSON objects (the
    request log's queue is written out first)."""
    REQUEST_LOG.flush()
    lines = [json.loads(line) for line in capfd.readouterr().err.splitlines()
             if line.startswith("{")]
    return [line for line in lines if line["logger"] == "referee.requests"]


def test_one_json_log_line_per_request_with_id_route_game_status_code_and_duration(
        client, caplog, capfd):
    caplog.set_level(logging.INFO, logger="referee.requests")
    request_lines(capfd)
    state = create(client, **{"X-Request-ID": "req-1"}).get_json()["state"]
    client.post(f"{DICE}/moves", json={"state": state, "move": {
        "type": "roll", "player": "bob", "keep": []}}, headers={"X-Request-ID": "req-2"})
    lines = request_lines(capfd)
    assert len(lines) == 2
    assert lines[0]["request_id"] == "req-1" and lines[0]["status"] == 201
    assert lines[0]["route"] == "/v1/games/<game_id>/matches"
    assert lines[0]["game"] == "generala-dice" and lines[0]["code"] is None
    assert lines[1]["request_id"] == "req-2" and lines[1]["status"] == 409
    assert lines[1]["code"] == "not_your_turn" and lines[1]["method"] == "POST"
    for line in lines:
        assert list(line) == LINE_FIELDS
        assert line["logger"] == "referee.requests" and line["level"] == "INFO"
        assert line["message"] == "request"
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}", line["time"])
        assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
        assert round(line["duration_ms"], 3) == line["duration_ms"]  # whole microseconds


def test_the_request_log_writes_whole_lines_of_at_most_pipe_buf_bytes(monkeypatch):
    """The workers share standard error: a write to a pipe of at most PIPE_BUF bytes is
    never interleaved with another process's, so no line is cut by another worker's."""
    read, write = os.pipe()
    log = RequestLog(write)
    written: list[bytes] = []
    real_write = os.write

    def record(fd, data):
        if fd == write:
            written.append(bytes(data))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", record)
    sent = [RequestLine(time="2026-12-05 10:00:00,000", request_id=f"{n}-{'x' * (n % 128)}",
                        method="GET", route="/healthz", game=None, status=200, code=None,
                        duration_ms=0.1) for n in range(200)]
    log.pending.extend(sent)
    log.flush()
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        lines = pipe.read().split(b"\n")
    assert [json.loads(line)["request_id"] for line in lines[:-1]] == [
        line.request_id for line in sent]
    assert len(written) > 1
    assert all(len(chunk) <= select.PIPE_BUF and chunk.endswith(b"\n") for chunk in written)


def test_an_unexpected_error_is_logged_with_its_stack_and_request_id(app, caplog, capfd):
    def fail():
        raise ZeroDivisionError("a failure inside a route")

    caplog.set_level(logging.INFO, logger="referee.requests")
    app.add_url_rule("/fails", view_func=fail)
    response = app.test_client().get("/fails", headers={"X-Request-ID": "boom-1"})
    assert response.status_code == 500
    assert response.get_json()["code"] == "internal_error"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    line = json.loads(json_formatter().format(errors[0]))
    assert line["request_id"] == "boom-1" and line["level"] == "ERROR"
    assert "ZeroDivisionError: a failure inside a route" in line["exc_info"]
    assert "Traceback" in line["exc_info"]
    [request_line] = [r for r in request_lines(capfd) if r["request_id"] == "boom-1"]
    assert request_line["status"] == 500 and request_line["code"] == "internal_error"


def test_liveness_and_readiness_answer_apart(client, sealed_client):
    assert client.get("/healthz").get_json()["status"] == "ok"
    for ready, mode in ((client, "open"), (sealed_client, "sealed")):
        answer = ready.get("/readyz")
        assert answer.status_code == 200
        assert answer.get_json() == {"status": "ready", "mode": mode, "checks": {
            "engines": True, "contract": True, "sealing": True}}


def test_a_referee_with_no_engine_is_alive_but_not_ready():
    client = referee.create_app({"GAMES": {}, "STATE_KEYS": []}).test_client()
    assert client.get("/healthz").status_code == 200
    answer = client.get("/readyz")
    assert answer.status_code == 503 and answer.mimetype == "application/problem+json"
    body = answer.get_json()
    assert body["code"] == "not_ready" and body["checks"]["engines"] is False
    assert "engines" in body["detail"]


def test_a_sealing_key_that_cannot_seal_makes_the_referee_not_ready(sealed_app,
                                                                     monkeypatch):
    def broken(*_):
        raise ValueError("the key store failed")

    monkeypatch.setattr("referee.http.sealing.AESGCM", broken)  # no key can seal
    answer = sealed_app.test_client().get("/readyz")
    assert answer.status_code == 503 and answer.get_json()["checks"]["sealing"] is False
    assert sealed_app.test_client().get("/healthz").status_code == 200


def test_the_request_lines_can_be_turned_off_and_errors_are_still_logged(caplog, capfd):
    app = referee.create_app({"STATE_KEYS": [], "REQUEST_LOG": False})

    def fail():
        raise RuntimeError("still logged")

    app.add_url_rule("/fails", view_func=fail)
    caplog.set_level(logging.INFO)
    client = app.test_client()
    assert create(client).headers["X-Request-ID"]
    assert client.get("/fails").status_code == 500
    assert request_lines(capfd) == []
    assert any(r.levelno == logging.ERROR and r.exc_info for r in caplog.records)


@pytest.mark.parametrize("raw, expected", [("", True), ("off", False), ("0", False),
                                           ("yes", True), ("ON", True)])
def test_the_request_log_setting_reads_the_usual_spellings(raw, expected):
    from referee.http import settings
    assert settings.from_environment({"REFEREE_REQUEST_LOG": raw})["REQUEST_LOG"] is expected


@pytest.mark.parametrize("raw, expected", [("", "INFO"), ("debug", "DEBUG"),
                                           (" Warning ", "WARNING"), ("CRITICAL", "CRITICAL")])
def test_the_log_level_setting_reads_any_case_and_defaults_to_info(raw, expected):
    from referee.http import settings
    assert settings.from_environment({"REFEREE_LOG_LEVEL": raw})["LOG_LEVEL"] == expected


@pytest.mark.parametrize("raw", ["loud", "10", "warn", "NOTSET"])
def test_a_log_level_gunicorn_would_read_as_info_is_refused_at_startup(raw):
    from referee.http import settings
    with pytest.raises(ValueError, match="REFEREE_LOG_LEVEL must be one of DEBUG, INFO"):
        settings.from_environment({"REFEREE_LOG_LEVEL": raw})


def test_a_request_log_setting_of_another_spelling_is_refused_at_startup():
    from referee.http import settings
    with pytest.raises(ValueError, match="REFEREE_REQUEST_LOG"):
        settings.from_environment({"REFEREE_REQUEST_LOG": "sometimes"})


@pytest.mark.parametrize("env, expected", [
    ({"REFEREE_TABLE_CACHE": "/srv/tables"}, "/srv/tables"),
    ({"REFEREE_TABLE_CACHE": "OFF"}, None),
    ({"XDG_CACHE_HOME": "/var/cache/me"}, "/var/cache/me/referee/tables"),
    ({"HOME": "/home/me"}, "/home/me/.cache/referee/tables"),
])
def test_the_table_cache_is_where_the_setting_says_else_in_the_users_cache(env, expected,
                                                                           monkeypatch):
    from referee.http import settings
    monkeypatch.setenv("HOME", env.get("HOME", "/home/someone"))  # what ~ stands for
    assert settings.from_environment(env)["TABLE_CACHE"] == expected


# Run in a process of its own: multiprocess mode is chosen when prometheus-client is first
# imported, and this test process has imported it without a metrics directory.
FORKED_WORKER = """
import os, sys
from referee.http import background, metrics
healthz = metrics.REQUESTS.labels("/healthz", "", "200")
healthz.inc(2)  # pending in the parent at the fork: the parent's to write, not the child's
child = os.fork()
if child == 0:
    healthz.inc()
    background.FLUSHER.flush()
    print(os.getpid(), metrics.process_id(), flush=True)
    os._exit(0)
os.waitpid(child, 0)
background.FLUSHER.flush()
print(os.getpid(), metrics.process_id(), flush=True)
"""


def healthz_count(files: list[Path]) -> float:
    """The /healthz count written in the metrics' `files`, summed as `/metrics` sums them."""
    return sum(sample.value
               for family in multiprocess.MultiProcessCollector.merge(map(str, files))
               for sample in family.samples
               if sample.name == "referee_requests_total" and sample.labels == {
                   "route": "/healthz", "game": "", "status": "200"})


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a process fork is what is checked")
def test_a_forked_worker_writes_its_metrics_to_files_of_its_own_pid(tmp_path):
    env = dict(os.environ, PROMETHEUS_MULTIPROC_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", FORKED_WORKER], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=True).stdout
    (child, child_id), (parent, parent_id) = [map(int, line.split()) for line in
                                              out.splitlines()]
    assert child != parent
    assert (child_id, parent_id) == (child, parent)
    # the parent's files (of the metrics made at import) and the child's, each of its own pid
    files = {f.name for f in tmp_path.iterdir()}
    assert f"counter_{child}.db" in files
    assert {name.rsplit("_", 1)[1] for name in files} == {f"{child}.db", f"{parent}.db"}
    # Each process wrote its own counts, once: the child not the parent's pending ones.
    assert healthz_count([tmp_path / f"counter_{child}.db"]) == 1
    assert healthz_count([tmp_path / f"counter_{parent}.db"]) == 2
    assert healthz_count(list(tmp_path.iterdir())) == 3
