"""Soak test with real parts on loopback: two gunicorn instances with the same sealing keys
behind nginx, matches of every game played through nginx, one instance killed mid-run.

`make soak` (SOAK_MATCHES per game, default 20; CI runs a small size). It installs Debian's
nginx when it is missing (as root), prints matches finished, requests and errors by kind, and
exits non-zero if any match was lost, any state was refused, or any answer differed from the
referee's own engine replaying the same moves.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import itertools
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.__main__ import free_port, serve  # noqa: E402
from referee.core.playout import random_move  # noqa: E402
from referee.games import REGISTRY  # noqa: E402

KEYS = "soak-key-" + "0123456789abcdef" * 3
NGINX_CONF = """
worker_processes 1;
pid {run}/nginx.pid;
error_log {run}/error.log warn;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {run}/body;
  proxy_temp_path {run}/proxy;
  fastcgi_temp_path {run}/fastcgi;
  uwsgi_temp_path {run}/uwsgi;
  scgi_temp_path {run}/scgi;
  upstream referee {{
    server 127.0.0.1:{a} max_fails=1 fail_timeout=2s;
    server 127.0.0.1:{b} max_fails=1 fail_timeout=2s;
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://referee;
      # The referee is stateless and deterministic: replaying a POST on the other instance
      # gives the same answer, so retrying non-idempotent requests is safe.
      proxy_next_upstream error timeout http_502 non_idempotent;
      proxy_connect_timeout 1s;
    }}
  }}
}}
"""


def wait_for(port: int, seconds: float = 20) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


def which_nginx() -> str | None:
    # Debian's nginx is in /usr/sbin, which a user's PATH may not hold.
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")


def ensure_nginx() -> str:
    if not which_nginx():
        if os.geteuid() != 0:
            raise SystemExit("nginx is missing; install Debian's nginx (apt-get install nginx)")
        subprocess.run("apt-get install -y -qq nginx-light || (apt-get update -qq && "
                       "apt-get install -y -qq nginx-light) || apt-get install -y -qq nginx",
                       shell=True, check=False, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    found = which_nginx()
    if not found:
        raise SystemExit("could not install nginx")
    return found


class Client:
    """A client that retries what a real client retries: connection failures and 502 to 504."""

    def __init__(self, port: int, errors: collections.Counter):
        self.port, self.errors, self.requests = port, errors, 0

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        payload = json.dumps(body)
        for attempt in range(20):
            self.requests += 1
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                conn.request("POST", path, payload, {"Content-Type": "application/json"})
                response = conn.getresponse()
                data = response.read()
                conn.close()
            except (OSError, http.client.HTTPException) as exc:
                failure = f"connection ({type(exc).__name__})"
            else:
                if response.status not in (502, 503, 504):
                    return response.status, json.loads(data)
                failure = f"HTTP {response.status}"
            self.errors[f"{failure}, retried"] += 1
            time.sleep(0.05 * (attempt + 1))
        raise RuntimeError(f"{path}: no answer after 20 tries")


def play(client: Client, game_id: str, seed: int, problems: list[str]) -> bool:
    """One match through nginx, each answer checked against the engine replaying the moves."""
    engine = REGISTRY[game_id]
    pick = random.Random(seed)
    players = [f"p{i}" for i in range(engine.min_players + seed % 2)]
    status, outcome = client.post(f"/v1/games/{game_id}/matches",
                                  {"players": players, "seed": seed,
                                   "options": engine.playout_options})
    if status != 201:
        problems.append(f"{game_id} #{seed}: creation answered {status} {outcome}")
        return False
    options = engine.resolve_options(engine.playout_options)
    local = engine.new_match(tuple(players), options, str(seed), now=0.0)
    for _ in range(20_000):
        if outcome["status"] == "finished":
            return True
        move = random_move(engine, outcome["legal_moves"], pick)
        status, answer = client.post(f"/v1/games/{game_id}/moves",
                                     {"state": outcome["state"], "move": move})
        if status != 200:
            client.errors[f"refused: {answer.get('code')}"] += 1
            problems.append(f"{game_id} #{seed}: {move} answered {status} {answer}")
            return False
        local, _ = engine.apply(local, move, now=0.0)
        if answer["scores"] != json.loads(json.dumps(engine.scores(local))):
            problems.append(f"{game_id} #{seed}: scores differ from the engine's replay")
            return False
        outcome = answer
    problems.append(f"{game_id} #{seed}: no end")
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=int(os.environ.get("SOAK_MATCHES", 20)))
    args = parser.parse_args()
    nginx = ensure_nginx()
    run = Path(tempfile.mkdtemp(prefix="referee-soak-"))
    a, b, port = free_port(), free_port(), free_port()
    (run / "nginx.conf").write_text(NGINX_CONF.format(run=run, a=a, b=b, port=port))
    instances = [serve("referee:create_app()", upstream, 1, REFEREE_STATE_KEYS=KEYS)
                 for upstream in (a, b)]
    proxy = subprocess.Popen([nginx, "-c", str(run / "nginx.conf"), "-p", str(run),
                              "-g", "daemon off;"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    errors: collections.Counter = collections.Counter()
    client = Client(port, errors)
    problems: list[str] = []
    finished = 0
    total = args.matches * len(REGISTRY)
    # Turn clocks are off in the engine replay (now = 0), so the dice game runs without one.
    try:
        wait_for(port)
        matches = itertools.product(range(args.matches), sorted(REGISTRY))
        for played, (seed, game_id) in enumerate(matches, start=1):
            if played == total // 2:
                # Kill one instance outright a moment into this match, while its moves are
                # being posted (most likely with a request in flight).
                def kill() -> None:
                    os.killpg(instances[0].pid, signal.SIGKILL)
                    print(f"killed instance on port {a} during match {played} of {total}, "
                          f"after {client.requests} requests")
                threading.Timer(0.15, kill).start()
            finished += play(client, game_id, seed, problems)
    finally:
        for proc in instances + [proxy]:
            with contextlib.suppress(ProcessLookupError):  # the instance killed mid-run
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in instances + [proxy]:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        log = run / "error.log"
        retried = sum("upstream" in line for line in log.read_text().splitlines()) \
            if log.exists() else 0
        shutil.rmtree(run, ignore_errors=True)
    print(f"matches finished: {finished}/{total}; requests: {client.requests}")
    print(f"  failures nginx met at the killed instance and retried on the other: {retried}")
    for kind, count in sorted(errors.items()):
        print(f"  {kind}: {count}")
    for problem in problems[:10]:
        print("PROBLEM:", problem)
    lost = total - finished
    print(f"soak: {finished} of {total} matches finished, {lost} lost, {len(problems)} problems")
    return 0 if lost == 0 and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
