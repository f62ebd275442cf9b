"""gunicorn with the referee's gunicorn.conf.py does not boot on sealing keys that are not
keys (see referee.http.settings.key_weakness): it exits non-zero, saying which key and why,
instead of serving in open mode or with a guessable key; nor does it start on a WARM_UP that
is neither on nor off. (The master's warm-up, which the keys do not depend on, is turned off
for these starts: WARM_UP=off.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("keys,why", [
    (",", "key #1 of 2 is empty"),
    (" ", "key #1 of 1 is empty"),
    ("a" * 32, "key #1 of 1 has fewer than 8 different characters"),
], ids=["a-lone-comma", "a-blank", "one-character-repeated"])
def test_gunicorn_does_not_boot_on_keys_that_are_not_keys(tmp_path, keys, why):
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(free_port()), WORKERS="1",
               THREADS="1", PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
               REFEREE_STATE_KEYS=keys, WARM_UP="off")
    done = subprocess.run([sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
                           "referee:create_app()"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0
    assert f"STATE_KEYS: {why}" in done.stderr
    assert "Worker failed to boot" in done.stderr
    assert "no warm-up (WARM_UP=off)" in done.stderr


@pytest.mark.parametrize("setting, value, why", [
    ("WARM_UP", "sometimes", "WARM_UP must be on or off"),
    # gunicorn itself would read a level it does not know as INFO, without a word
    ("REFEREE_LOG_LEVEL", "loud", "REFEREE_LOG_LEVEL must be one of DEBUG, INFO"),
])
def test_gunicorn_does_not_start_on_a_setting_it_does_not_know(tmp_path, setting, value, why):
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(free_port()), WORKERS="1",
               PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"), **{setting: value})
    done = subprocess.run([sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
                           "referee:create_app()"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0
    assert why in done.stderr
