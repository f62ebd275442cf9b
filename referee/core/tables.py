"""Tables an engine computes once per option set and that take seconds (a dice sheet's exact
solver and its futures), kept on disk between processes: the next start of a deployment,
each of its workers and each test process read them back in milliseconds instead of computing
them again.

A table is filed under its name and a fingerprint of everything it is computed from (what the
engine passes: the declaration and the values; and the source of the code that computes it,
`source_fingerprint`), so a change to any of them files a new table rather than reading a
stale one. A file is written whole under a temporary name, then renamed into place: a reader
never sees half a file, and two processes making the same table at once write the same bytes.
A file that cannot be read is as good as missing; a directory that cannot be written only
costs the next process the computation.

Off until the service (its settings: REFEREE_TABLE_CACHE) or a test session names a directory
(`keep_tables_in`); the engines stay functions of their inputs either way.

Tables made for a caller's own option set (made off a request's path: referee.service.preparer)
are read from the store but never written to it (`read_only`): any caller may send other box
values, and each new set would otherwise add megabytes to the disk. What the store keeps is what
a process makes outside requests: the warm-up's tables for the default options, a test's, a
benchmark's.

The store is bounded (`BUDGET`): each change to the code files its tables anew, and a test
run writes some 100 MB of them (the dice sheets', and Generala's for each option set its tests
try), so a machine that runs the suite at every commit would fill its disk with tables no
code reads any more. Once a table written takes the folder past the budget, the tables used
longest ago (a table read back is marked used: its file's time) are removed until it fits.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import logging
import os
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

LOG = logging.getLogger(__name__)
Arrays = dict[str, np.ndarray]

_WRITING = contextvars.ContextVar("writing tables", default=True)
# The most bytes of tables a folder keeps: some five versions of the code's tables (a test
# run's, or the image's every reading: about 100 MB each).
BUDGET = 512 * 2**20


@contextlib.contextmanager
def read_only() -> Iterator[None]:
    """Within: tables are read from the store, and none made is written to it."""
    token = _WRITING.set(False)
    try:
        yield
    finally:
        _WRITING.reset(token)


class TableStore:
    def __init__(self, directory: str | os.PathLike | None = None, budget: int = BUDGET):
        self.directory = Path(directory) if directory else None
        self.budget = budget

    def path(self, name: str, fingerprint: str) -> Path | None:
        if self.directory is None:
            return None
        return self.directory / f"{name}-{fingerprint[:40]}.npz"

    def load(self, name: str, fingerprint: str) -> Arrays | None:
        """The arrays filed under this name and fingerprint, or None."""
        path = self.path(name, fingerprint)
        if path is None:
            return None
        try:
            with np.load(path, allow_pickle=False) as stored:
                arrays = {key: stored[key] for key in stored.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile):
            return None
        with contextlib.suppress(OSError):  # a read-only folder is never pruned either
            os.utime(path)  # used now: the last the budget removes
        return arrays

    def kept(self, name: str, fingerprint: str, make: Callable[[], Arrays]) -> Arrays:
        """The arrays filed under this name and fingerprint, or `make()`'s, filed."""
        stored = self.load(name, fingerprint)
        if stored is None:
            stored = make()
            self.save(name, fingerprint, stored)
        return stored

    def save(self, name: str, fingerprint: str, arrays: Arrays) -> None:
        path = self.path(name, fingerprint)
        if path is None or not _WRITING.get():
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            try:
                with os.fdopen(handle, "wb") as out:
                    np.savez(out, **arrays)
                os.replace(temporary, path)
            finally:
                if os.path.exists(temporary):
                    os.unlink(temporary)
        except OSError as error:
            LOG.warning("table %s not kept in %s: %s", name, path.parent, error)
            return
        self.prune(keeping=path)

    def prune(self, keeping: Path) -> None:
        """Remove the tables used longest ago until the folder fits the budget, all but
        `keeping` (the table just written). A table that cannot be removed (another user's)
        is left, and counted."""
        tables = []
        for path in keeping.parent.glob("*.npz"):
            with contextlib.suppress(OSError):  # removed by another process meanwhile
                status = path.stat()
                tables.append((status.st_mtime_ns, status.st_size, path))
        size = sum(size for _, size, _ in tables)
        for _, table_size, path in sorted(tables):
            if size <= self.budget:
                break
            if path == keeping:
                continue
            try:
                path.unlink()
            except FileNotFoundError:  # removed by another process meanwhile
                pass
            except OSError as error:
                LOG.debug("table %s not removed: %s", path, error)
                continue
            size -= table_size


STORE = TableStore()


def keep_tables_in(directory: str | os.PathLike | None) -> None:
    """Where this process keeps and finds its tables from now on (None: nowhere)."""
    STORE.directory = Path(directory) if directory else None


def source_fingerprint(*folders: Path) -> str:
    """A digest of the Python source under these folders, which a table's fingerprint
    includes: a change to the code that computes it files a new one."""
    digest = hashlib.sha256()
    for folder in folders:
        for source in sorted(folder.rglob("*.py")):
            digest.update(source.relative_to(folder).as_posix().encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()
