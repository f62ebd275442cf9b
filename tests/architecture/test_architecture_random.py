"""Numpy's randomness comes from generators seeded by the caller, never from numpy's global
random state: the referee's chance comes from the seed a state carries, and the test suite
(tests/conftest.py) has hypothesis leave numpy's global state alone for that reason."""

from __future__ import annotations

import ast

from tests.support import ROOT

# What numpy.random may be asked for: a generator of one's own, seeded, and its type.
OWN_GENERATORS = {"default_rng", "Generator"}


def global_draws(tree: ast.AST) -> list[str]:
    """Every `np.random.X` / `numpy.random.X` but a generator of one's own, and every name
    imported from numpy.random."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                and node.value.attr == "random" and isinstance(node.value.value, ast.Name)
                and node.value.value.id in ("np", "numpy") and node.attr not in OWN_GENERATORS):
            found.append(f"line {node.lineno}: {node.value.value.id}.random.{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module == "numpy.random":
            found += [f"line {node.lineno}: from numpy.random import {alias.name}"
                      for alias in node.names if alias.name not in OWN_GENERATORS]
    return found


def test_nothing_draws_from_numpys_global_random_state():
    sources = [path for folder in ("referee", "bench", "tests")
               for path in sorted((ROOT / folder).rglob("*.py"))]
    assert len(sources) > 100
    found = {str(path.relative_to(ROOT)): draws for path in sources
             if (draws := global_draws(ast.parse(path.read_text(), str(path))))}
    assert found == {}


def test_the_check_finds_a_draw_from_the_global_state():
    assert global_draws(ast.parse("import numpy as np\nnp.random.shuffle(x)")) == [
        "line 2: np.random.shuffle"]
    assert global_draws(ast.parse("from numpy.random import randint")) == [
        "line 1: from numpy.random import randint"]
    assert global_draws(ast.parse("rng = np.random.default_rng(3)")) == []
