"""The pictures through the generated Python client: typed requests, and answers that come
back as files (the generator reads SVG and PDF as bytes, see clients/openapi-python-client.yaml)."""

from __future__ import annotations

import importlib
import io

import httpx
import pypdf
import pytest

import referee
from referee.games import REGISTRY
from tests.support import SEALING_KEYS
from tests.pictures.support import groups, parse, texts

from .support import GameClient, pascal, snake


def connect(package, sealed: bool):
    app = referee.create_app({"STATE_KEYS": SEALING_KEYS if sealed else []})
    return package.Client(base_url="http://referee",
                          httpx_args={"transport": httpx.WSGITransport(app=app)},
                          raise_on_unexpected_status=True)


@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_generated_client_fetches_a_view_image_of_every_game(python_client, game_id, sealed):
    client = connect(python_client, sealed)
    game = GameClient(python_client, game_id)
    players = ["ann", "bob"]
    outcome = game.create(client=client, body=game.CreateRequest(players=players, seed="img"))
    api = f"{python_client.__name__}.api.{snake(game_id)}.{snake(game_id)}_view_image"
    request = getattr(python_client.models, f"{pascal(game_id)}ViewImageRequestWithState")
    picture = importlib.import_module(api).sync(client=client, body=request(
        state=outcome.state, player="bob", events=outcome.events))
    assert isinstance(picture, python_client.types.File), picture
    assert "bob (you)" in texts(parse(picture.payload.read()))


@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
def test_a_generated_client_fetches_a_blank_and_a_filled_sheet(python_client, sealed):
    client = connect(python_client, sealed)
    models = python_client.models
    game = GameClient(python_client, "generala-dice")
    api = f"{python_client.__name__}.api.generala_dice.generala_dice_sheet_"
    pdf = importlib.import_module(api + "pdf").sync
    svg = importlib.import_module(api + "svg").sync
    blank = pdf(client=client, body=models.GeneralaDiceSheetRequestBlank(
        players=4, names=["ann"], page=models.GeneralaDiceSheetRequestBlankPage.LETTER,
        options=models.GeneralaDiceOptions(full=32)))
    document = pypdf.PdfReader(io.BytesIO(blank.payload.read()))
    assert len(document.pages) == 1 and float(document.pages[0].mediabox.width) == 612
    outcome = game.create(client=client, body=game.CreateRequest(players=["ann", "bob"]))
    filled = svg(client=client, body=models.GeneralaDiceSheetRequestOfAMatch(state=outcome.state))
    root = parse(filled.payload.read())
    assert [g.get("data-player") for g in groups(root, "data-column")] == ["ann", "bob"]
    # A sheet of a match with a blank sheet's field fits neither shape: the typed models
    # cannot even say it, and the referee refuses it when sent.
    sent = models.GeneralaDiceSheetRequestOfAMatch(state=outcome.state).to_dict()
    refused = client.get_httpx_client().post("/v1/games/generala-dice/sheets/svg",
                                             json={**sent, "players": 2})
    assert refused.status_code == 422 and refused.json()["code"] == "validation_error"
