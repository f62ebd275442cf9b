"""The warm-up gunicorn runs before its workers serve (gunicorn.conf.py, on_starting)
builds what the hints build once per option set, so no caller's first hint pays for it; a
worker, once its application is ready, leaves what it starts with out of the garbage
collector's walks (post_worker_init)."""

from __future__ import annotations

import gc
import runpy
from pathlib import Path
from types import SimpleNamespace

import referee
from referee.core.memo import BoundedMemo
from referee.games.generala_dice import solver
from referee.service.referee import warm_up


def test_after_the_warm_up_a_first_hint_of_every_level_builds_no_table(monkeypatch):
    built = []
    build = solver.Tables
    monkeypatch.setattr(solver, "TABLES", BoundedMemo(solver.TABLES_KEPT))
    monkeypatch.setattr(solver, "Tables", lambda rules: built.append(rules) or build(rules))
    app = referee.create_app({"STATE_KEYS": ""})
    warm_up(app.extensions["referee"].games)
    assert len(built) == 1  # Generala's tables for its default options
    client = app.test_client()
    created = client.post("/v1/games/generala-dice/matches", json={
        "players": ["ann", "bob"], "seed": "first", "hints_allowed": True}).get_json()
    for level in ("easy", "medium", "hard", "win"):
        answer = client.post("/v1/games/generala-dice/hints", json={
            "state": created["state"], "player": "ann", "level": level})
        assert answer.status_code == 200, answer.get_json()
    assert len(built) == 1


def test_a_worker_leaves_its_application_out_of_the_collectors_walks(monkeypatch, tmp_path):
    # The configuration's module code empties the metrics directory it is given.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    settings = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    app = referee.create_app({"STATE_KEYS": ""})
    served = app.extensions["referee"]
    assert any(o is served for o in gc.get_objects())  # walked by every full collection
    settings["post_worker_init"](SimpleNamespace(wsgi=app))
    assert "contract" in vars(served)  # generated before the first request
    assert not any(o is served for o in gc.get_objects())  # frozen: walked by none
