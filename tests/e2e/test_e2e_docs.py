"""/docs in a real browser: Swagger UI renders the contract from the same server, shows
every game's schemas, and its "Try it out" creates a match of each game (the 201 shows) and
succeeds for every operation."""

from __future__ import annotations

import contextlib

import pytest

from referee.games import REGISTRY
from referee.http.contract import camel, pascal
from tests.support import committed_contract


@contextlib.contextmanager
def opened_docs(browser, served_app):
    """/docs in a new page, rendered; on leaving, it must have fetched nothing from
    elsewhere."""
    page = browser.new_page()
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(served_app) else outside.append(r.url))
    page.goto(f"{served_app}/docs")
    page.wait_for_selector(".opblock", timeout=30_000)
    yield page
    page.close()
    assert not outside, f"the page fetched from elsewhere: {outside}"


@pytest.fixture
def docs_page(browser, served_app):
    with opened_docs(browser, served_app) as page:
        yield page


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_try_it_out_creates_a_match_of_every_game(docs_page, game_id):
    block = docs_page.locator(f"#operations-{game_id}-{camel(game_id)}CreateMatch")
    block.locator(".opblock-summary").click()
    # The page opens every operation ready to try (tryItOutEnabled), example body filled in.
    block.locator("button.execute").click(timeout=30_000)
    status = block.locator(".live-responses-table tbody .response-col_status").first
    status.wait_for(timeout=30_000)
    assert status.inner_text().strip().startswith("201")
    assert '"seed_commitment"' in block.locator(".live-responses-table").inner_text()


def test_every_game_schema_is_browsable(docs_page):
    models = docs_page.locator("section.models")
    models.wait_for(timeout=30_000)
    if "GeneralaDiceMove" not in models.inner_text():  # the list opens folded
        models.locator("h4").first.click()
    docs_page.wait_for_function(
        "document.querySelector('section.models').innerText.includes('EmpereurOutcome')",
        timeout=30_000)
    text = models.inner_text()
    for game_id in REGISTRY:
        for suffix in ("Move", "State", "Event", "View", "Scores", "Outcome"):
            assert f"{pascal(game_id)}{suffix}" in text


def _every_operation() -> dict[str, list[str]]:
    """Per tag, the id of every operation the contract documents under it."""
    tagged: dict[str, list[str]] = {}
    for methods in committed_contract()["paths"].values():
        for op in methods.values():
            if isinstance(op, dict) and "operationId" in op:
                tagged.setdefault(op["tags"][0], []).append(op["operationId"])
    return tagged


def test_every_operation_is_tried_under_its_tag():
    tagged = _every_operation()
    tried = [operation_id for operation_ids in tagged.values() for operation_id in operation_ids]
    assert sorted(tried) == sorted(op["operationId"]
                                   for methods in committed_contract()["paths"].values()
                                   for op in methods.values() if isinstance(op, dict))
    assert len(tried) > 40 and set(REGISTRY) <= set(tagged)


@pytest.mark.parametrize("tag", list(_every_operation()))
def test_try_it_out_of_every_operation_succeeds(browser, served_app, tag):
    """Every operation, tried out in the page as it opens (its example body, its
    parameters' examples), answers its success on an open server: no example has expired,
    none is refused, and every path parameter has a value to try. Each tag's operations are
    tried in a page of their own: in one page, Swagger UI takes longer over each operation
    the more were tried before it (about 1 s for the first, 2.5 s past the sixtieth, folded
    again or its answer cleared or not): 118 s for them all with a page a tag, 167 s with
    one page."""
    failed = {}
    with opened_docs(browser, served_app) as page:
        for operation_id in _every_operation()[tag]:
            block = page.locator(f"#operations-{tag}-{operation_id}")
            block.locator(".opblock-summary").click()
            block.locator("button.execute").click(timeout=30_000)
            status = block.locator(".live-responses-table tbody .response-col_status").first
            status.wait_for(timeout=60_000)
            code = status.inner_text().strip()
            if not code.startswith("2"):
                failed[operation_id] = code
            block.locator(".opblock-summary").click()  # folded again, as a reader would
    assert not failed, failed
