"""Fixtures shared by the HTTP tests: an application with an injected clock, open or sealed."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

import referee

# CI runs the same examples every time, so a submission that passed here passes there; runs
# elsewhere keep exploring new examples (and keep failures in .hypothesis to replay them).
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

# The browser checks run with `make e2e` (which installs a browser), not with `make test`.
collect_ignore = [] if os.environ.get("REFEREE_E2E") else ["e2e"]

SEALING_KEYS = ["k" * 32 + "-first-key-for-tests", "k" * 32 + "-second-key-for-tests"]


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(clock):
    return referee.create_app({"CLOCK": clock, "STATE_KEYS": []})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def sealing_keys() -> list[str]:
    return list(SEALING_KEYS)


@pytest.fixture
def sealed_app(clock):
    return referee.create_app({"CLOCK": clock, "STATE_KEYS": list(SEALING_KEYS)})


@pytest.fixture
def sealed_client(sealed_app):
    return sealed_app.test_client()
