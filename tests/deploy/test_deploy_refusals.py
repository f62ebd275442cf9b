"""What gunicorn refuses before the referee reads a request (a bad request line, method or
version, a bad Content-Length or one beside Transfer-Encoding, a URL or header fields past
its limits, a bad chunk) is answered as a problem with a stable code, as every other error,
by the worker classes gunicorn.conf.py names (referee/http/workers.py): sent over a raw
socket to gunicorn as deployed, with the threaded worker and the sync one. A request past its
deadline is answered as a problem by both worker classes too (referee/http/deadline.py)."""

from __future__ import annotations

import gzip
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.__main__ import free_port
from referee.games import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
HOST = b"Host: referee.test\r\n"

REFUSED = {
    "a Content-Length that is no number": (
        b"POST /v1/games/generala-dice/moves HTTP/1.1\r\n" + HOST
        + b"Content-Type: application/json\r\nContent-Length: abc\r\n\r\n{}",
        400, "malformed_request"),
    "two different Content-Lengths": (
        b"POST /v1/games/generala-dice/moves HTTP/1.1\r\n" + HOST
        + b"Content-Length: 1\r\nContent-Length: 2\r\n\r\n{}", 400, "malformed_request"),
    "Content-Length and Transfer-Encoding": (
        b"POST /v1/games/generala-dice/moves HTTP/1.1\r\n" + HOST
        + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        400, "malformed_request"),
    "a transfer coding gunicorn does not know": (
        b"POST /v1/games/generala-dice/moves HTTP/1.1\r\n" + HOST
        + b"Transfer-Encoding: br, chunked\r\n\r\n0\r\n\r\n", 501,
        "unsupported_transfer_coding"),
    "a bad method": (b"G@T /healthz HTTP/1.1\r\n" + HOST + b"\r\n", 400, "malformed_request"),
    "a bad version": (b"GET /healthz HTTP/9.9\r\n" + HOST + b"\r\n", 400, "malformed_request"),
    "no request line at all": (b"\x00\x01\x02 junk\r\n\r\n", 400, "malformed_request"),
    "a header name with a space": (b"GET /healthz HTTP/1.1\r\n" + HOST + b"Bad Name: 1\r\n\r\n",
                                   400, "malformed_request"),
    "a URL too long": (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n" + HOST + b"\r\n",
                       414, "uri_too_long"),
    "too many header fields": (
        b"GET /healthz HTTP/1.1\r\n" + HOST
        + b"".join(b"X-Field-%d: 1\r\n" % n for n in range(200)) + b"\r\n",
        431, "headers_too_large"),
    "a header field too large": (
        b"GET /healthz HTTP/1.1\r\n" + HOST + b"X-Big: " + b"a" * 9000 + b"\r\n\r\n",
        431, "headers_too_large"),
}


# A chunked body is read by the referee, through gunicorn's reader, which raises on a broken
# chunk: the referee answers it (the connection may stay open).
BROKEN_CHUNKS = {
    "a chunk size that is no number": b"zz\r\n{}\r\n0\r\n\r\n",
    "a chunk without its end": b"2\r\n{}XX0\r\n\r\n",
}


# Without the master's warm-up (WARM_UP=off): no refusal depends on it, and the deadline's
# test asks a hint of house rules, which the warm-up does not prepare.
@pytest.fixture(scope="module", params=["2", "1"], ids=["threaded-worker", "sync-worker"])
def server(request, tmp_path_factory):
    port = free_port()
    base = tmp_path_factory.mktemp("refusals")
    err = open(base / "stderr", "w+")
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), WORKERS="1",
               THREADS=request.param, PROMETHEUS_MULTIPROC_DIR=str(base / "metrics"),
               REFEREE_LOG_LEVEL="INFO", ACCESS_LOG="-", REFEREE_REQUEST_DEADLINE="0.05",
               WARM_UP="off")
    env.pop("REFEREE_STATE_KEYS", None)
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
                             "referee:create_app()"], cwd=ROOT, env=env, stdout=err,
                            stderr=err, start_new_session=True)
    deadline = time.time() + 30
    while not ready(port):
        assert time.time() < deadline and proc.poll() is None, "gunicorn did not start"
        time.sleep(0.2)
    yield port, Path(err.name)
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=15)
    err.close()


def ready(port: int) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/readyz")
        return conn.getresponse().status == 200
    except OSError:
        return False


def exchange(port: int, raw: bytes) -> bytes:
    """Sends `raw` and reads the answer until the server closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(raw)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def parse(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip()
               for name, _, value in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


@pytest.mark.parametrize("raw,status,code", REFUSED.values(), ids=REFUSED.keys())
def test_a_request_gunicorn_refuses_is_a_problem(server, raw, status, code):
    port, _ = server
    answered, headers, body = parse(exchange(port, raw))
    assert headers["content-type"] == "application/problem+json", (answered, body[:200])
    assert headers["connection"] == "close"
    problem = json.loads(body[:int(headers["content-length"])])
    assert problem["status"] == answered and problem["type"] == f"urn:referee:problem:{problem['code']}"
    assert (answered, problem["code"]) == (status, code)
    assert len(problem["detail"]) <= 200


@pytest.mark.parametrize("path", ["/v1/games/generala-dice/moves",
                                  "/v1/games/generala-dice/legal-moves"])
@pytest.mark.parametrize("chunks", BROKEN_CHUNKS.values(), ids=BROKEN_CHUNKS.keys())
def test_a_broken_chunked_body_is_a_problem_not_a_failure(server, path, chunks):
    port, _ = server
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\n".encode() + HOST
                     + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                     + chunks)
        answered, headers, body = read_answer(sock)
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert (answered, problem["code"]) == (400, "malformed_request"), problem


@pytest.mark.parametrize("coding", ["gzip", "deflate", "compress", "GZip"])
def test_a_transfer_coding_gunicorn_passes_on_undecoded_is_refused_by_the_referee(server,
                                                                                 coding):
    # gunicorn refuses the codings it does not know (above) but passes these three on, with
    # the body still coded (and closes the connection after the answer): the referee refuses
    # them as gunicorn does the others, and goes on serving.
    port, _ = server
    body = gzip.compress(b'{"players": ["ann", "bob"]}')
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"POST /v1/games/yacht/matches HTTP/1.1\r\n" + HOST
                     + b"Content-Type: application/json\r\nTransfer-Encoding: "
                     + coding.encode() + b", chunked\r\n\r\n"
                     + b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n")
        answered, headers, problem = read_answer(sock)
        assert headers["content-type"] == "application/problem+json"
        assert (answered, json.loads(problem)["code"]) == (501, "unsupported_transfer_coding")
    assert ready(port)


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One answer read from `sock`, by its Content-Length."""
    answer = b""
    while b"\r\n\r\n" not in answer or len(parse(answer)[2]) < int(
            parse(answer)[1]["content-length"]):
        chunk = sock.recv(65536)
        assert chunk, answer
        answer += chunk
    answered, headers, body = parse(answer)
    return answered, headers, body[:int(headers["content-length"])]


def test_refusals_are_warnings_not_errors_and_the_server_goes_on(server):
    port, log = server
    for raw, _, _ in REFUSED.values():
        exchange(port, raw)
    test_a_broken_chunked_body_is_a_problem_not_a_failure(
        server, "/v1/games/generala-dice/moves", BROKEN_CHUNKS["a chunk size that is no number"])
    assert ready(port)
    time.sleep(0.5)
    records = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    refusals = [r for r in records if r["message"].startswith("Invalid request from")]
    assert len(refusals) >= len(REFUSED)
    assert all(r["level"] == "WARNING" for r in refusals)
    assert not [r for r in records if r["level"] in ("ERROR", "CRITICAL") or "exc_info" in r]


def test_a_request_past_its_deadline_is_a_problem_and_the_worker_goes_on(server):
    """A `hard` hint of Huit américain at a table of house rules (about 0.3 s of CPU on this
    first position of six legal moves) runs past the fixture's 50 ms deadline."""
    port, log = server
    engine = REGISTRY["huit-americain"]
    options = engine.resolve_options({
        "when_stuck": "draw_until_playable", "attack_returns": True, "effect_swap_hands": "3",
        "effect_rotate_hands": "4", "effect_give_two": "5", "effect_all_draw_one": "6"})
    state = engine.new_match(("ann", "bob", "cyd"), options, "d1", now=0)
    body = json.dumps({"state": {**engine.encode(state), "fairness": None,
                                 "seating": {"bots": [], "hints_allowed": True}},
                       "player": "ann", "level": "hard"})
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/v1/games/huit-americain/hints", body,
                 {"Content-Type": "application/json"})
    answer = conn.getresponse()
    problem = json.loads(answer.read())
    conn.close()
    assert answer.getheader("Content-Type") == "application/problem+json"
    assert (answer.status, problem["code"]) == (503, "deadline_exceeded"), problem
    assert ready(port)
    time.sleep(0.3)
    records = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert [r for r in records if r["message"] == "request stopped at its deadline"]
    assert not [r for r in records if r["level"] in ("ERROR", "CRITICAL") or "exc_info" in r]
