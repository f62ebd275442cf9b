# A slim image that serves the referee with the same gunicorn command as `make run`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000 WORKERS=2
WORKDIR /app
COPY pyproject.toml README.md openapi.yaml gunicorn.conf.py ./
COPY referee ./referee
RUN pip install --no-cache-dir -e . \
    && useradd --system --uid 10001 --no-create-home referee
USER referee
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/healthz', timeout=2)" || exit 1
CMD ["gunicorn", "--config", "gunicorn.conf.py", "referee:create_app()"]
