"""The table store (`referee.core.tables`): tables kept on disk between processes, filed by a
fingerprint of what they are computed from; a missing, unreadable or unwritable file costs
only the computation; a dice sheet's solver and futures, and Generala's tables, read back what
an earlier process found, equal to what it would find again."""

from __future__ import annotations

import dataclasses
import logging
import os
from pathlib import Path

import numpy as np
import pytest

from referee.core import tables
from referee.core.tables import TableStore, source_fingerprint
from referee.games.dice_sheets.yacht import YACHT
from referee.games.generala_dice import sheetfutures, sheetsolver, solver as generala


def test_what_is_saved_is_loaded_back_under_its_name_and_fingerprint_only(tmp_path):
    store = TableStore(tmp_path)
    arrays = {"expected": np.linspace(0, 1, 7), "rows": np.arange(5, dtype=np.int32)}
    assert store.load("sheet", "abc") is None
    store.save("sheet", "abc", arrays)
    loaded = store.load("sheet", "abc")
    assert loaded.keys() == arrays.keys()
    assert all(np.array_equal(loaded[k], arrays[k]) and loaded[k].dtype == arrays[k].dtype
               for k in arrays)
    assert store.load("sheet", "abd") is None and store.load("other", "abc") is None
    assert not list(tmp_path.glob("*.tmp"))  # written under a temporary name, then renamed


def test_read_only_the_store_is_read_and_never_written(tmp_path):
    store = TableStore(tmp_path)
    store.save("sheet", "abc", {"x": np.arange(3)})
    with tables.read_only():
        store.save("sheet", "abd", {"x": np.zeros(3)})
        assert np.array_equal(store.load("sheet", "abc")["x"], np.arange(3))
    assert store.load("sheet", "abd") is None
    assert [p.name for p in tmp_path.iterdir()] == [store.path("sheet", "abc").name]
    store.save("sheet", "abd", {"x": np.zeros(3)})  # writing again once out of it
    assert store.load("sheet", "abd") is not None


def test_without_a_directory_nothing_is_kept(tmp_path):
    store = TableStore(None)
    store.save("sheet", "abc", {"x": np.zeros(3)})
    assert store.load("sheet", "abc") is None


def test_an_unreadable_file_is_as_good_as_missing(tmp_path):
    store = TableStore(tmp_path)
    store.path("sheet", "abc").write_bytes(b"not an archive")
    assert store.load("sheet", "abc") is None


def test_a_folder_that_cannot_be_written_only_costs_a_warning(tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    with caplog.at_level(logging.WARNING, logger="referee.core.tables"):
        TableStore(blocker / "tables").save("sheet", "abc", {"x": np.zeros(3)})
    assert "not kept" in caplog.text


def test_past_its_budget_the_store_removes_the_tables_used_longest_ago(tmp_path):
    arrays = {"x": np.zeros(10_000)}  # some 80 kB a table
    store = TableStore(tmp_path)
    for age, fingerprint in enumerate(("a", "b", "c")):
        store.save("sheet", fingerprint, arrays)
        os.utime(store.path("sheet", fingerprint), ns=(age * 10**9,) * 2)  # a, b, then c
    size = store.path("sheet", "a").stat().st_size
    store.budget = 3 * size
    assert store.load("sheet", "a") is not None  # read back: now the one used last
    store.save("sheet", "d", arrays)  # past the budget by one table: b goes
    assert sorted(p.name[6] for p in tmp_path.glob("*.npz")) == ["a", "c", "d"]
    store.budget = size // 2  # smaller than the table just written, which is kept all the same
    store.save("sheet", "e", arrays)
    assert [p.name[6] for p in tmp_path.glob("*.npz")] == ["e"]
    assert store.load("sheet", "e") is not None


def test_a_table_that_cannot_be_removed_is_left_and_the_next_ones_go(tmp_path, monkeypatch,
                                                                      caplog):
    store = TableStore(tmp_path)
    for age, fingerprint in enumerate(("a", "b", "c")):
        store.save("sheet", fingerprint, {"x": np.zeros(10_000)})
        os.utime(store.path("sheet", fingerprint), ns=(age * 10**9,) * 2)
    store.budget = 2 * store.path("sheet", "a").stat().st_size
    stuck, unlink = store.path("sheet", "a"), Path.unlink

    def refused_for_the_oldest(path, *args, **kwargs):  # another user's file
        if path == stuck:
            raise PermissionError("Operation not permitted")
        return unlink(path, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", refused_for_the_oldest)
    with caplog.at_level(logging.WARNING, logger="referee.core.tables"):
        store.save("sheet", "d", {"x": np.zeros(10_000)})
    assert sorted(p.name[6] for p in tmp_path.glob("*.npz")) == ["a", "d"]
    assert "not kept" not in caplog.text  # the table written was kept


def test_the_source_fingerprint_follows_every_source_file(tmp_path):
    (tmp_path / "a.py").write_text("X = 1\n")
    (tmp_path / "notes.txt").write_text("not source")
    before = source_fingerprint(tmp_path)
    (tmp_path / "notes.txt").write_text("still not source")
    assert source_fingerprint(tmp_path) == before
    (tmp_path / "a.py").write_text("X = 2\n")
    assert source_fingerprint(tmp_path) != before


@pytest.fixture
def store_in(tmp_path, monkeypatch):
    monkeypatch.setattr(tables.STORE, "directory", tmp_path)
    return tmp_path


def test_a_sheet_solver_and_its_futures_are_read_back_as_they_were_found(store_in, monkeypatch):
    key = (YACHT, tuple(sorted(YACHT.values().items())))
    solver = sheetsolver.build_solver(key)
    futures = sheetfutures.build_futures(solver)
    assert sorted(p.name.split("-")[0] for p in store_in.iterdir()) == ["futures", "sheet"]

    def never(*args):
        raise AssertionError("found again instead of read back")

    monkeypatch.setattr(sheetsolver.SheetSolver, "solve", never)
    monkeypatch.setattr(sheetfutures.Futures, "turn_variance", never)
    again = sheetsolver.build_solver(key)
    assert np.array_equal(again.expected, solver.expected)
    read = sheetfutures.build_futures(again)
    assert np.array_equal(read.variance, futures.variance)
    assert np.array_equal(read.distributions, futures.distributions)


def test_a_different_sheet_value_files_a_different_table():
    values = YACHT.values()
    assert (sheetsolver.table_fingerprint(YACHT, values)
            != sheetsolver.table_fingerprint(YACHT, {**values, "yacht": 40}))
    assert (sheetsolver.table_fingerprint(YACHT, values)
            == sheetsolver.table_fingerprint(YACHT, dict(reversed(list(values.items())))))


def test_generala_s_tables_and_hard_play_are_read_back_as_they_were_found(store_in,
                                                                        monkeypatch):
    rules = dataclasses.replace(generala.DEFAULT_RULES, escalera=25)
    made = generala.Tables(rules)
    play = made.hard_play
    assert sorted(p.name.rsplit("-", 1)[0] for p in store_in.iterdir()) == [
        "generala-expected", "generala-hard-play"]

    def never(*args, **kwargs):
        raise AssertionError("found again instead of read back")

    monkeypatch.setattr(generala.Tables, "plan", never)
    monkeypatch.setattr(generala.Tables, "_build_hard_play", never)
    again = generala.Tables(rules)
    assert np.array_equal(again.expected, made.expected)
    read = again.hard_play
    assert read.scale == play.scale and isinstance(read.scale, int)
    for name in ("row", "choice", "future"):
        assert np.array_equal(getattr(read, name), getattr(play, name))
        assert getattr(read, name).dtype == getattr(play, name).dtype
    assert again.fingerprint == generala.tables_fingerprint(rules)
    # Other box values, other tables.
    assert generala.tables_fingerprint(generala.DEFAULT_RULES) != again.fingerprint
