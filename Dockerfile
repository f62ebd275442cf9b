# A slim image that serves the referee with the same gunicorn command as `make run`, its
# dependencies installed from the same lock file as `make` uses (requirements/app.txt).
FROM python:3.11-slim

# gunicorn needs a writable HOME for its control socket; the workers' metrics files go to
# PROMETHEUS_MULTIPROC_DIR (both under /tmp, writable even with a read-only root). The
# hints' tables are made as the image is built and read from it (REFEREE_TABLE_CACHE).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    WORKERS=2 \
    HOME=/tmp \
    PROMETHEUS_MULTIPROC_DIR=/tmp/referee-metrics \
    REFEREE_TABLE_CACHE=/app/tables

WORKDIR /app
COPY requirements/app.txt requirements/app.txt
RUN pip install --no-cache-dir --requirement requirements/app.txt
COPY pyproject.toml README.md gunicorn.conf.py ./
COPY referee ./referee
RUN pip install --no-cache-dir --no-deps --editable . \
    && python -m referee.service.tables /app/tables \
    && useradd --system --uid 10001 --gid 0 --no-create-home --home-dir /tmp referee

USER 10001:0
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/healthz', timeout=2)"]
CMD ["gunicorn", "--config", "gunicorn.conf.py", "referee:create_app()"]
