"""Gunicorn settings for the referee; HOST, PORT and WORKERS come from the environment."""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WORKERS", os.environ.get("WEB_CONCURRENCY", "2")))
worker_class = "sync"
# Requests are short CPU-bound computations; a stuck worker is killed and replaced.
timeout = int(os.environ.get("WORKER_TIMEOUT", "30"))
graceful_timeout = 10
keepalive = 5
# Recycle workers now and then so no slow leak can grow without bound.
max_requests = int(os.environ.get("MAX_REQUESTS", "50000"))
max_requests_jitter = 5000
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("REFEREE_LOG_LEVEL", "info").lower()
