"""Fixtures shared by the HTTP tests: an application with an injected clock, open or sealed."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import tempfile

import pytest
from hypothesis import settings
from hypothesis.internal import entropy
from xdist.scheduler import LoadScheduling

import referee
from referee.core.tables import keep_tables_in
from referee.games import REGISTRY
from referee.http.settings import table_cache
from referee.service.referee import warm_up
from tests.support import ROOT, SEALING_KEYS

try:
    import fcntl
except ImportError:  # no fcntl (Windows): each worker makes the tables it misses itself
    fcntl = None

# CI runs the same examples every time, so a submission that passed here passes there; runs
# elsewhere keep exploring new examples (and keep failures in .hypothesis to replay them).
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

# Around every example it runs, hypothesis seeds the global random states and restores them
# after: the `random` module's, and numpy's legacy global state once numpy is imported, as
# the dice games' tables import it. Numpy's costs twice the rest (74 of 110 us an example:
# some 7 s of CPU over the suite's hundred thousand examples), and nothing here draws from
# it: the dice code and its tests draw from generators of their own, seeded
# (`np.random.default_rng(seed)`). Hypothesis registers numpy's state the first time it
# finds numpy imported and its `NP_RANDOM` unset; set, it leaves numpy's state alone.
entropy.NP_RANDOM = "not managed: nothing draws from numpy's global random state"

# The browser checks run with `make e2e` (which installs a browser), not with `make test`.
collect_ignore = [] if os.environ.get("REFEREE_E2E") else ["e2e"]

# `make test` runs the tests on one worker a core (pytest-xdist, `-n auto`), test by test,
# but for these modules: each group's tests run together, in file order, on one worker, for
# they share a fixture costly to build twice (a server, a generated client, recorded matches),
# a folder (the TypeScript project: `npm ci` rewrites it), or counters that a later test of
# the module reads (the contract's state machines).
ON_ONE_WORKER = {
    "tests/clients/test_other_generators.py": "typescript project",
    "tests/clients/test_python_client.py": "generated python client",
    "tests/clients/test_python_client_pictures.py": "generated python client",
    "tests/contract/test_contract_stateful.py": "contract state machines",
    "tests/deploy/test_deploy_refusals.py": "gunicorn servers of both worker classes",
    "tests/deploy/test_deploy_server.py": "gunicorn server",
    "tests/fairness/test_fairness_draws.py": "recorded draws",
    "tests/fairness/test_fairness_records.py": "recorded matches",
}


class GroupedScheduling(LoadScheduling):
    """xdist's load scheduling (tests handed out by index, in batches, to whichever worker
    runs short), but for a group: when a batch holds one of its tests, the rest of the group
    joins that batch, in file order."""

    def _send_tests(self, node, num):
        group = [ON_ONE_WORKER.get(nodeid.split("::", 1)[0]) for nodeid in self.collection]
        batch = self.pending[:num]
        joining = {group[i] for i in batch} - {None}
        batch += [i for i in self.pending[num:] if group[i] in joining]
        if batch:
            sent = set(batch)
            self.pending[:] = [i for i in self.pending if i not in sent]
            self.node2pending[node].extend(batch)
            node.send_runtest_some(batch)


# The longest tests (several seconds of CPU each, one about forty) and the groups whose shared
# fixture takes long to build (a generated client, a TypeScript project, a server), handed out
# first so that no worker is left running one of them alone at the end of the run.
LONGEST_FIRST = (
    "tests/games/test_card_hints.py::test_hard_beats_medium_at_huit_americain",
    "tests/clients/test_other_generators.py::",
    "tests/clients/test_python_client.py::",
    "tests/fairness/test_fairness_records.py::",
    "tests/contract/test_contract_schemathesis_cli.py::",
    "tests/deploy/test_deploy_server.py::",
    "tests/deploy/test_deploy_refusals.py::",
    "tests/games/test_card_hints.py::test_every_level_answers",
    "tests/conformance/test_conformance_seats.py::",
    "tests/games/generala_dice/test_generala_dice_strength.py::test_the_win_level_beats",
    "tests/games/test_card_hints.py::test_hard_beats_medium",
)


def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        return next((i for i, start in enumerate(LONGEST_FIRST) if item.nodeid.startswith(start)),
                    len(LONGEST_FIRST))

    items.sort(key=rank)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """After each test, what it leaves alive is frozen out of the garbage collector's walks.
    A worker keeps much of what its tests built (module fixtures, parsed copies of the
    contract, schemathesis's strategies, the engines' bounded memos): some 1.2 GB for the
    schemathesis tests, which every full collection walked again, 17 s of their 116 s of CPU.
    Frozen, a full collection walks only what the tests since made, so the one here, before
    each freeze, is cheap: it collects every cycle the test left, however old. An application
    a test built is such a cycle, and it keeps its deadline watchdog thread, which wakes ten
    times a second until the application is collected: with only the young generations
    collected here, such threads were frozen with their applications and woke for the rest
    of the run (the suite: 402 s of CPU and 2.07 GB of RSS, against 388 s and 1.68 GB)."""
    yield
    gc.collect()
    gc.freeze()


def pytest_xdist_make_scheduler(config, log):
    # xdist's own `--dist loadgroup` would read `xdist_group` marks, but it loses them under
    # pytest 9.2 (pytest-dev/pytest-xdist#1386), so the groups are named here by module.
    if config.getvalue("dist") == "load":
        return GroupedScheduling(config, log)
    return None


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


# The game whose tables take longest to make: Yams' solver values and `win` futures, some 15 s
# of CPU where the table store has none yet (a fresh clone, as in CI). Every worker of a
# parallel run would make them at once, each for itself: the controller has one process make
# them instead, started before the workers, which warm up the other games meanwhile and then
# wait for it (a lock it holds while it runs) to read them back.
SLOWEST_TABLES = "yams"
TABLES_BEING_MADE = "REFEREE_TEST_TABLES_LOCK"


def pytest_configure(config):
    """In the controller of a parallel run (no worker input, xdist's `dist` set): start the
    process that makes the slowest tables, before the workers start."""
    directory = table_cache(dict(os.environ))
    if (fcntl is None or directory is None or hasattr(config, "workerinput")
            or config.getoption("dist", "no") == "no"):
        return
    handle, lock = tempfile.mkstemp(prefix="referee-tables-", suffix=".lock")
    fcntl.flock(handle, fcntl.LOCK_EX)  # held by the maker's copy of `handle` until it ends
    config.tables_maker = subprocess.Popen(
        [sys.executable, "-m", "referee.service.tables", directory, SLOWEST_TABLES,
         "--defaults-only"],
        cwd=ROOT, pass_fds=(handle,))
    os.close(handle)
    config.tables_lock = lock
    os.environ[TABLES_BEING_MADE] = lock  # read by the workers, started after this hook


def pytest_unconfigure(config):
    maker = getattr(config, "tables_maker", None)
    if maker is not None:
        if maker.poll() is None:  # the run ended before the tables were made
            maker.terminate()
        maker.wait()
        os.unlink(config.tables_lock)


def wait_for_the_tables_maker() -> None:
    """Until the controller's process that makes the slowest tables has ended (at once when
    there is none): it releases its lock when it ends, however it ends."""
    lock = os.environ.get(TABLES_BEING_MADE)
    if fcntl is None or not lock or not os.path.exists(lock):
        return
    handle = os.open(lock, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_SH)
    finally:
        os.close(handle)


@pytest.fixture(scope="session", autouse=True)
def warmed_up():
    """What a worker builds before it serves (gunicorn.conf.py's warm-up), built once per
    test process: a test's first hint finds the tables of the default options, as a
    caller's does. The tables that take seconds are kept where a deployment keeps them
    (REFEREE_TABLE_CACHE, by default the user's cache folder): made by the first test
    process that needs them, read back by the others; in a parallel run the slowest are
    made by the controller's process, which the workers wait for before warming that game
    up, last, as `warm_up(REGISTRY)` does."""
    keep_tables_in(table_cache(dict(os.environ)))
    warm_up({game: engine for game, engine in REGISTRY.items() if game != SLOWEST_TABLES})
    wait_for_the_tables_maker()
    warm_up({SLOWEST_TABLES: REGISTRY[SLOWEST_TABLES]})


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
