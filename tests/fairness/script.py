"""The fairness script, scripts/verify_match.py, loaded as a module for the tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_match.py"
spec = importlib.util.spec_from_file_location("verify_match", SCRIPT)
verify_match = importlib.util.module_from_spec(spec)
spec.loader.exec_module(verify_match)
