"""Huit américain: every test the rules document names exists (a renamed test cannot leave a
row pointing at nothing)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "huit-americain.md"
FILES = {"R": "rules", "H": "house", "S": "states", "P": "random"}


def test_every_test_named_in_the_rules_document_exists():
    text = DOC.read_text(encoding="utf-8")
    named = re.findall(r"\b([RHSP])::(test_\w+)", text)
    assert named
    missing = []
    for short, name in sorted(set(named)):
        source = (Path(__file__).parent / f"test_huit_americain_{FILES[short]}.py").read_text(
            encoding="utf-8")
        if not re.search(rf"^def {name}\(", source, re.M):
            missing.append(f"{short}::{name}")
    assert missing == []
