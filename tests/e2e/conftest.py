"""End-to-end checks in a real headless Chromium (`make e2e`, which installs Debian's
chromium when it is missing, and Playwright for Python): the pages a person opens, served
by the real app on a loopback port."""

from __future__ import annotations

import shutil
import threading

import pytest
from werkzeug.serving import make_server

import referee

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def served_app():
    """The app on a free loopback port, in a thread, for the length of the session."""
    server = make_server("127.0.0.1", 0, referee.create_app({"STATE_KEYS": []}), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    assert executable, "make e2e installs Debian's chromium"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()
