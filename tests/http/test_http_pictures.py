"""The picture routes: what they answer (media types, headers, the contract's examples), in
open and sealed mode, and a documented problem for every bad request, never a 500."""

from __future__ import annotations

import io

import pypdf
import pytest

from referee.games import REGISTRY
from referee.http.problems import CATALOGUE

from tests.pictures.support import groups, parse, texts
from tests.support import committed_contract

SPEC = committed_contract()
DICE = "/v1/games/generala-dice"
SHEETS = [f"{DICE}/sheets/svg", f"{DICE}/sheets/pdf"]
MEDIA = {"svg": "image/svg+xml", "pdf": "application/pdf"}


def picture_operations():
    for path, operations in SPEC["paths"].items():
        if "/images/" in path or "/sheets/" in path:
            yield path, operations["post"]


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json(force=True)
    assert body["code"] == code and CATALOGUE[code][0] == status
    return body


def created(client, game_id="generala-dice", players=("ann", "bob")):
    return client.post(f"/v1/games/{game_id}/matches",
                       json={"players": list(players), "seed": "pics"}).get_json()


def test_every_game_has_a_view_image_and_every_dice_sheet_game_its_two_sheets():
    paths = {path for path, _ in picture_operations()}
    sheets = {f"/v1/games/{g}/sheets/{page_format}" for g in ("generala-dice", "yacht", "yams")
              for page_format in ("svg", "pdf")}
    assert set(SHEETS) <= sheets
    assert paths == {f"/v1/games/{g}/images/view" for g in REGISTRY} | sheets


@pytest.mark.parametrize("path,operation", list(picture_operations()),
                         ids=[p for p, _ in picture_operations()])
def test_every_example_request_answers_its_documented_picture(client, path, operation):
    (media, _), = operation["responses"]["200"]["content"].items()
    for example in operation["requestBody"]["content"]["application/json"]["examples"].values():
        response = client.post(path, json=example["value"])
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.mimetype == media
        assert response.headers["Content-Disposition"].startswith("inline; filename=")
        if media == "image/svg+xml":
            parse(response.data)
            assert "default-src 'none'" in response.headers["Content-Security-Policy"]
        else:
            assert len(pypdf.PdfReader(io.BytesIO(response.data)).pages) == 1


@pytest.mark.parametrize("page,size", [("a4", (595.28, 841.89)), ("letter", (612, 792))])
def test_a_blank_pdf_sheet_is_one_page_of_the_page_asked(client, page, size):
    response = client.post(SHEETS[1], json={"players": 3, "names": ["ann"], "page": page})
    document = pypdf.PdfReader(io.BytesIO(response.data))
    assert len(document.pages) == 1
    box = document.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(size, abs=0.01)


def test_a_blank_sheet_has_six_columns_unless_told_and_its_options_values(client):
    root = parse(client.post(SHEETS[0], json={}).data)
    assert len(groups(root, "data-column")) == 6
    root = parse(client.post(SHEETS[0], json={"names": ["ann", "bob"],
                                             "options": {"full": 33}}).data)
    assert [g.get("data-player") for g in groups(root, "data-column")] == ["ann", "bob"]
    full = next(g for g in groups(root, "data-box") if g.get("data-box") == "full")
    assert texts(full) == ["Full", "33", "38"]


def test_a_sealed_match_gives_its_sheet_and_its_images(sealed_client):
    outcome = created(sealed_client, players=("ann", "bob", "cleo"))
    assert isinstance(outcome["state"], str)
    root = parse(sealed_client.post(SHEETS[0], json={"state": outcome["state"]}).data)
    assert [g.get("data-player") for g in groups(root, "data-column")] == ["ann", "bob", "cleo"]
    image = sealed_client.post(f"{DICE}/images/view",
                               json={"state": outcome["state"], "player": "bob"})
    assert "bob (you)" in texts(parse(image.data))


@pytest.mark.parametrize("body,field", [
    ({"players": 7}, "players"),
    ({"players": 0}, "players"),
    ({"players": "2"}, "players"),
    ({"names": ["a", "a"]}, "names"),
    ({"names": ["a", "b", "c"], "players": 2}, "names"),
    ({"names": [""]}, "names"),
    ({"page": "a3"}, "page"),
    ({"colour": "red"}, "colour"),
])
def test_a_bad_blank_sheet_request_is_a_validation_error(client, body, field):
    for path in SHEETS:
        problem = assert_problem(client.post(path, json=body), 422, "validation_error")
        assert field in problem["errors"]


def test_a_sheet_of_a_match_takes_nothing_a_blank_sheet_takes(client):
    state = created(client)["state"]
    for extra in ({"players": 2}, {"names": ["ann"]}, {"options": {}}):
        problem = assert_problem(client.post(SHEETS[0], json={"state": state, **extra}), 422,
                                 "validation_error")
        assert set(problem["errors"]) == set(extra)


def test_bad_options_or_states_are_the_usual_problems(client, sealed_client):
    assert_problem(client.post(SHEETS[1], json={"options": {"full": -1}}), 422,
                   "invalid_options")
    assert_problem(client.post(SHEETS[1], json={"options": {"nope": 1}}), 422,
                   "invalid_options")
    state = created(client)["state"]
    assert_problem(client.post(SHEETS[1], json={"state": {**state, "current": 9}}), 422,
                   "invalid_state")
    assert_problem(client.post(f"{DICE}/images/view",
                               json={"state": {**state, "rolls": 7}, "player": "ann"}), 422,
                   "invalid_state")
    assert_problem(sealed_client.post(SHEETS[0], json={"state": "not-a-token"}), 422,
                   "tampered_state")
    cards = created(client, "huit-americain")["state"]
    assert_problem(client.post(f"{DICE}/images/view", json={"state": cards, "player": "a"}),
                   422, "invalid_state")


def test_bad_requests_are_documented_problems(client):
    path = f"{DICE}/images/view"
    assert_problem(client.post(path, data="{", content_type="application/json"), 400,
                   "malformed_json")
    assert_problem(client.post(path, data="x", content_type="text/plain"), 415,
                   "unsupported_media_type")
    assert_problem(client.post(SHEETS[0], data="[]", content_type="application/json"), 422,
                   "validation_error")
    assert_problem(client.post("/v1/games/chess/images/view", json={}), 404, "unknown_game")
    assert_problem(client.get(SHEETS[0]), 405, "method_not_allowed")
    assert_problem(client.post("/v1/games/empereur/sheets/pdf", json={}), 404, "not_found")
    state = created(client)["state"]
    assert_problem(client.post(path, json={"state": state}), 422, "validation_error")
    problem = assert_problem(client.post(path, json={
        "state": state, "player": "ann",
        "events": [{"type": "dice_rolled", "player": "ann"}]}), 422, "validation_error")
    assert list(problem["errors"]["events"]) == ["0"]


def test_a_body_past_the_limit_is_refused(client):
    big = {"players": 2, "names": ["x" * 300_000]}
    assert_problem(client.post(SHEETS[1], json=big), 413, "payload_too_large")


def test_a_view_image_leaves_out_what_an_event_passed_hides_from_its_viewer(client):
    outcome = client.post("/v1/games/huit-americain/matches",
                          json={"players": ["ann", "bob"], "seed": "s"}).get_json()
    dealt = {e["player"]: e["cards"] for e in outcome["events"] if e["type"] == "cards_dealt"}
    for viewer, other in (("ann", "bob"), ("bob", "ann")):
        response = client.post("/v1/games/huit-americain/images/view", json={
            "state": outcome["state"], "player": viewer, "events": outcome["events"]})
        root = parse(response.data)
        cards = {c for g in root.iter() for c in (g.get("data-cards") or "").split()}
        assert set(dealt[viewer]) <= cards and not set(dealt[other]) & cards
