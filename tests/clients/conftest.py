"""The Python client openapi-python-client generates from the committed contract, generated
once for the session (the generator comes with the test extras)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from .support import BIN, CONTRACT, ROOT


@pytest.fixture(scope="session")
def python_client(tmp_path_factory):
    """The package openapi-python-client generates, imported; the generator must not warn."""
    out = tmp_path_factory.mktemp("python-client")
    run = subprocess.run(
        [str(BIN / "openapi-python-client"), "generate", "--path", str(CONTRACT),
         "--output-path", str(out / "referee_client"), "--meta", "none",
         "--config", str(ROOT / "clients" / "openapi-python-client.yaml")],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "warning" not in (run.stdout + run.stderr).lower(), run.stdout + run.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("referee_client")
    finally:
        sys.path.remove(str(out))
