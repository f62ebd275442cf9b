"""The README's pictures are what the service draws today: scripts/pictures.py makes them
from seeded matches, and the committed files must be its output."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_pictures_are_current_and_shown():
    spec = importlib.util.spec_from_file_location("readme_pictures", ROOT / "scripts" / "pictures.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, svg in script.pictures().items():
        committed = ROOT / "docs" / "images" / name
        assert committed.read_text(encoding="utf-8") == svg, (
            f"docs/images/{name} is stale: run `python scripts/pictures.py`")
        assert f"(docs/images/{name})" in readme
