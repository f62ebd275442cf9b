"""Gunicorn settings for the referee; HOST, PORT, WORKERS and THREADS come from the
environment (see the settings in docs/OPERATIONS.md)."""

import gc
import glob
import logging
import os
import sys
import tempfile

from gunicorn.glogging import Logger
from pythonjsonlogger.msgspec import MsgspecFormatter

from referee.http.settings import log_level

# Prometheus: every worker writes its metrics to files in one directory, which must be set
# before prometheus-client is first imported (the application imports it). A directory left
# by an earlier run is emptied, so counters start from zero with the server.
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="referee-metrics-")
os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
for stale in glob.glob(os.path.join(os.environ["PROMETHEUS_MULTIPROC_DIR"], "*.db")):
    os.unlink(stale)

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WORKERS", os.environ.get("WEB_CONCURRENCY", "2")))
# Threaded workers keep connections alive between requests (the sync worker closes each one
# after its answer): a back end calls the referee many times per match. Requests are short
# and CPU-bound, so two threads per worker suffice (one reads or writes while the other
# computes); more only interleave computations under the GIL and lengthen the slowest
# answers (`make load` compares 2 and 4). Idle connections wait in the worker's poller, not
# in a thread. THREADS=1 gives the sync worker back.
threads = int(os.environ.get("THREADS", "2"))
# gunicorn's gthread and sync workers, answering the requests gunicorn itself refuses (bad
# request lines, headers or lengths, limits passed) as problems with a stable code rather
# than HTML pages (referee/http/workers.py).
worker_class = ("referee.http.workers.ProblemThreadWorker" if threads > 1
                else "referee.http.workers.ProblemSyncWorker")
keepalive = int(os.environ.get("KEEPALIVE", "75"))
worker_connections = 1000
# Requests are short CPU-bound computations; a stuck worker is killed and replaced.
timeout = int(os.environ.get("WORKER_TIMEOUT", "30"))
graceful_timeout = 10
# Recycle workers now and then so no slow leak can grow without bound.
max_requests = int(os.environ.get("MAX_REQUESTS", "50000"))
max_requests_jitter = 5000 if max_requests else 0
accesslog = os.environ.get("ACCESS_LOG") or None
# The master builds the hints' tables and loads the pictures before forking (`on_starting`):
# on by default, as a deployment wants it. `WARM_UP=off` starts without it, for a server whose
# first hints may be slow, such as one started only to see it refuse bad settings or to read
# its logs (the deployment tests); every such server says so in its log.
WARM_UP = os.environ.get("WARM_UP", "on").strip().lower() or "on"
if WARM_UP not in ("on", "off"):
    raise ValueError("WARM_UP must be on or off")
errorlog = "-"
loglevel = log_level(dict(os.environ)).lower()


class JsonLines(Logger):
    """Gunicorn's own lines and the referee's as JSON, the fields referee.http.observability
    writes (python-json-logger's msgspec formatter), set on gunicorn's handlers: a
    `logconfig_dict` would do the same but turns gunicorn's access log on for every request
    (its atoms cost about 100 us of CPU each) even when ACCESS_LOG is unset."""

    def setup(self, cfg):
        super().setup(cfg)
        # The same formatter as referee.http.observability.json_formatter.
        formatter = MsgspecFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                                     rename_fields={"asctime": "time", "levelname": "level",
                                                    "name": "logger"})
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(formatter)
        root = logging.getLogger()
        if not root.handlers:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(formatter)
            root.addHandler(handler)
        root.setLevel(self.loglevel)


logger_class = JsonLines


def on_starting(server):
    """In the master, before any worker forks: the hints' tables for the default options and
    the pictures' libraries, which every worker (a recycled one too) then starts with,
    serving within a fraction of a second rather than after seconds of building. Only the
    engines, the service and the pictures are loaded here: no Flask, and no metric (the
    workers' Prometheus files are their own)."""
    if WARM_UP == "off":
        server.log.info("no warm-up (WARM_UP=off): the first hints build their tables")
        return
    from referee.core.tables import keep_tables_in
    from referee.games import REGISTRY
    from referee.http.settings import table_cache
    from referee.service.referee import warm_up

    keep_tables_in(table_cache(dict(os.environ)))
    warm_up(REGISTRY)
    # What was built lasts as long as the server: out of the collector's walks in every
    # worker from the start (see post_worker_init), and its pages left shared with them.
    gc.collect()
    gc.freeze()
    server.log.info("warmed up: the hints' tables and the pictures are ready")


def post_worker_init(worker):
    """Generate the contract before the first request, so neither `/openapi.yaml` nor
    `/readyz` makes a caller wait for it (the hints' tables come from the master).

    Then freeze what the worker starts with out of the garbage collector's walks: the
    master's tables, the application and its contract live as long as the worker, and a
    full collection walking them took 60 to 100 ms (the tables are large containers), paid
    by whichever request's allocations set it off, most often a replay, whose moves keep
    hundreds of objects alive at once and so set off most of the young collections that a
    full one follows. Frozen, they are never walked again: a full collection walks only
    what the worker made since (the one before the freeze takes the start's garbage)."""
    referee = getattr(worker.wsgi, "extensions", {}).get("referee")
    if referee is not None:
        referee.contract
    gc.collect()
    gc.freeze()


def child_exit(server, worker):
    """A dead worker's live gauges are dropped; its counters stay in the sum."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
