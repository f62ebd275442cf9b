"""The contract a sealed server serves: its examples are sealed with the server's own keys, so
every example request is one it accepts, and it answers each with the documented answer
(their tokens opened, since a token seals the same content under a fresh salt each time).
The document is the same on every start with the same keys (every worker serves one
contract, with one ETag), and it says that its examples are sealed."""

from __future__ import annotations

import functools
from typing import Any

import msgspec
import pytest
import yaml

import referee
from referee.http.examples import EXAMPLE_CLOCK
from referee.service.codec import SEAT, SEED, STATE
from tests.support import SEALING_KEYS, committed_contract


def _sealed_app(**config: Any):
    return referee.create_app({"STATE_KEYS": SEALING_KEYS, **config})


@functools.cache
def served() -> tuple[bytes, dict[str, Any]]:
    """The contract a sealed app at the examples' clock serves, as bytes and read."""
    text = _sealed_app(CLOCK=lambda: EXAMPLE_CLOCK).test_client().get("/openapi.yaml").data
    return text, yaml.load(text, Loader=yaml.CSafeLoader)


def _example_requests() -> list[tuple[str, str]]:
    """Every example request of the committed contract (the served one has the same)."""
    return [(path, name) for path, methods in committed_contract()["paths"].items()
            for op in methods.values() if isinstance(op, dict) and "requestBody" in op
            for name in op["requestBody"]["content"]["application/json"].get("examples", {})]


def opened(app, game_id: str, value: Any) -> Any:
    """`value` with every token this app sealed replaced by what it seals (and for what)."""
    if isinstance(value, dict):
        return {k: opened(app, game_id, v) for k, v in value.items()}
    if isinstance(value, list):
        return [opened(app, game_id, v) for v in value]
    if isinstance(value, str) and value.startswith("v3."):
        sealer = app.extensions["referee"].codec.sealer
        for purpose in (STATE, SEAT, SEED):
            if sealer.opens(game_id, value, purpose):
                return {purpose: msgspec.json.decode(sealer.open(game_id, value, purpose))
                        if purpose != SEED else sealer.open(game_id, value, purpose)}
        raise AssertionError(f"a token this server did not seal: {value[:40]}...")
    return value


def test_the_served_contract_of_a_sealed_server_is_one_and_says_its_examples_are_sealed():
    text, document = served()
    again = _sealed_app().test_client().get("/openapi.yaml")
    assert again.data == text  # another worker, another start, the same keys
    assert "examples are tokens sealed" in document["info"]["description"]
    moves = document["paths"]["/v1/games/generala-dice/moves"]["post"]
    (example,) = moves["requestBody"]["content"]["application/json"]["examples"].values()
    assert example["summary"].endswith("sealed with this server's key")
    assert isinstance(example["value"]["state"], str)
    # The open server's document stays the committed one.
    open_text = referee.create_app({"STATE_KEYS": []}).test_client().get("/openapi.yaml").data
    assert yaml.load(open_text, Loader=yaml.CSafeLoader) == committed_contract()
    assert "examples are tokens sealed" not in committed_contract()["info"]["description"]


@pytest.mark.parametrize("path,name", _example_requests())
def test_every_served_example_is_a_valid_sealed_request(path, name):
    """Posted to the sealed server whose contract it is, at the examples' clock, each example
    answers the documented success and the documented answer, tokens opened; posted to a
    sealed server on today's clock, the documented success (no token or deadline has
    expired)."""
    _, document = served()
    op = document["paths"][path]["post"]
    sent = op["requestBody"]["content"]["application/json"]["examples"][name]["value"]
    (status, success), = ((s, r) for s, r in op["responses"].items() if s.startswith("2"))
    (media, content), = success["content"].items()
    game_id = path.split("/")[3]
    app = _sealed_app(CLOCK=lambda: EXAMPLE_CLOCK)
    for poster in (app, _sealed_app()):
        response = poster.test_client().post(path, json=sent)
        assert response.status_code == int(status), response.get_data(as_text=True)[:300]
        assert response.mimetype == media
    if media != "application/json" or path.endswith("/seeds"):
        return  # a new seed is drawn at random: the other test checks its form
    answered = app.test_client().post(path, json=sent).get_json()
    documented = content["examples"][name]["value"]
    assert opened(app, game_id, answered) == opened(app, game_id, documented)
