"""The layering the code keeps, checked on its imports: http above service above pictures above
games above core, the games independent of each other (the import-linter contracts in
pyproject.toml)."""

from __future__ import annotations

import pathlib

from importlinter.application.use_cases import lint_imports
from importlinter.configuration import configure

PYPROJECT = pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_import_linter_contracts_are_kept():
    configure()
    assert lint_imports(config_filename=str(PYPROJECT), no_logo=True, cache_dir=None)

