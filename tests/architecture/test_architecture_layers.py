"""The layering the code keeps, checked on its imports: http above service above pictures above
games above core, the games independent of each other (the import-linter contracts in
pyproject.toml), and no import cycle anywhere, lazy imports inside functions included."""

from __future__ import annotations

import pathlib

import grimp
from importlinter.application.use_cases import lint_imports
from importlinter.configuration import configure

PYPROJECT = pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_import_linter_contracts_are_kept():
    configure()
    assert lint_imports(config_filename=str(PYPROJECT), no_logo=True, cache_dir=None)


def test_no_module_imports_one_that_imports_it_back():
    graph = grimp.build_graph("referee")
    cycles = sorted({tuple(sorted((module, imported)))
                     for module in graph.modules
                     for imported in graph.find_modules_directly_imported_by(module)
                     if graph.chain_exists(importer=imported, imported=module)})
    assert cycles == []
