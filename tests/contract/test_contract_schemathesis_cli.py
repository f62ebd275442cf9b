"""What an integrator runs, from outside: the schemathesis CLI, with every check and every
phase and the shipped `schemathesis.toml` only, against a live server (gunicorn, as
deployed), open and sealed, reports no failure and no error of any kind.

The CLI's coverage phase sends every operation some hundreds of requests whatever the number
of examples, so the suite runs it on the operations of one game (Generala with dice: it has
every operation, its sheet included) and the service's own, with few examples: the PDF sheet
is left out (its request is the SVG sheet's), and in sealed mode the view picture (the
costliest to cover, its events a union of every event type; its state and seat token are
checked as the view's). The in-process schemathesis tests
(test_contract_schemathesis.py) cover every operation of every game, in both modes (in
sealed mode, the negative cases of its tokens), with the same configuration. The only
warning allowed is schemathesis's "mostly rejected generated data", on an operation whose
`x-referee-rules` say why (a made-up state is refused).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import free_port, serve
from tests.support import ROOT, SEALING_KEYS

from .support import SPEC

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
# One game's operations and the service's, but the contract document itself (an 830-kB
# answer parsed anew for each case: its in-process test draws its cases).
OPERATIONS = (r"^/(v1/games/generala-dice/|v1/games$|v1/games/\{game_id\}$"
              r"|healthz|readyz|metrics|docs|verify)")
PHASES = "examples,coverage,fuzzing,stateful"


@pytest.fixture(scope="module", params=["open", "sealed"])
def server(request):
    keys = {"REFEREE_STATE_KEYS": SEALING_KEYS[0]} if request.param == "sealed" else {}
    port = free_port()
    proc = serve("referee:create_app()", port, 2, **keys)
    yield request.param, port
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=15)


def ruled(label: str) -> bool:
    method, path = label.split(" ", 1)
    return bool(SPEC["paths"][path][method.lower()].get("x-referee-rules"))


def test_the_schemathesis_cli_with_the_shipped_configuration_finds_nothing(server, tmp_path):
    mode, port = server
    report = tmp_path / "report.json"
    run = subprocess.run(
        [str(SCHEMATHESIS), "--config-file", str(ROOT / "schemathesis.toml"), "run",
         f"http://127.0.0.1:{port}/openapi.yaml", "--checks", "all", "--phases", PHASES,
         "--max-examples", "3", "--include-path-regex", OPERATIONS, "--seed", "31",
         "--exclude-path-regex",
         "/sheets/pdf$" if mode == "open" else "/(sheets/pdf|images/view)$",
         # One worker: hypothesis describes its strategies with `ast.parse`, which Python
         # 3.11 does not run safely in two threads at once.
         "--workers", "1", "--generation-database", "none", "--no-color",
         "--report", "json", "--report-json-path", str(report)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600)
    found = json.loads(report.read_text())
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert found["failures"] == [] and found["errors"] == [], run.stdout[-6000:]
    assert found["operations"]["tested"] >= 16 and found["test_cases"]["generated"] > 1000
    assert {phase: result["status"] for phase, result in found["phases"].items()} == {
        phase: "success" for phase in PHASES.split(",")}, mode
    warned = {kind: labels for kind, labels in found["warnings"].items() if labels}
    assert set(warned) <= {"validation_mismatch"}, warned
    assert all(ruled(label) for label in warned.get("validation_mismatch", [])), warned
