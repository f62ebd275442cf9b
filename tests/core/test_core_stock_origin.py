"""A stock's recorded origin (docs/FAIRNESS.md, "Drawn cards"): a stock that holds a card its
recorded shuffle did not shuffle is inconsistent. `referee.core.chance.stock_origin_problems`
names exactly that problem (a list, empty for a sound origin), and a posted state whose stock
is like that is refused over HTTP as `invalid_state` with that problem listed.
"""

from __future__ import annotations

import pytest

from referee.core.chance import stock_origin_problems
from referee.core.errors import InvalidState
from referee.games import REGISTRY
from tests.support import edited_wire

NOT_SHUFFLED = "the stock holds cards its shuffle did not shuffle"


def origin(part, shuffled, *, drawn_first):
    """The problems of a stock part `part` recorded as from the shuffle (step 0) of
    `shuffled`: drawn from the front it is the order's end, from the back its start."""
    start = len(shuffled) - len(part) if drawn_first == "front" else 0
    return stock_origin_problems(part, 0, shuffled, start, 54, 1, 0, drawn_first=drawn_first)


@pytest.mark.parametrize("drawn_first", ["front", "back"])
@pytest.mark.parametrize("part, shuffled", [
    (("KH", "2C"), ("2C", "3D", "KH")),
    (("3D", "KH", "2C"), ("2C", "3D", "KH")),
    (("KH", "KH"), ("2C", "KH", "KH")),  # two decks: twins, both shuffled
])
def test_a_stock_of_shuffled_cards_has_no_problem(part, shuffled, drawn_first):
    assert origin(part, shuffled, drawn_first=drawn_first) == []


@pytest.mark.parametrize("drawn_first", ["front", "back"])
@pytest.mark.parametrize("part, shuffled", [
    (("KH", "AS"), ("2C", "3D", "KH")),  # a card the shuffle did not shuffle
    (("AS",), ("2C", "3D", "KH")),
    (("KH", "KH"), ("2C", "3D", "KH")),  # one card of the shuffle held twice
    (("X1", "X1", "KH"), ("KH", "X1", "X2")),
])
def test_a_stock_holding_a_card_not_shuffled_names_exactly_that_problem(part, shuffled,
                                                                      drawn_first):
    assert origin(part, shuffled, drawn_first=drawn_first) == [NOT_SHUFFLED]


def stock_from_elsewhere(wire: dict) -> dict:
    """A started match's wire form (`wire`, edited in place and returned) whose stock is
    recorded as the shuffle of its own cards but one, a card of the first hand in its place:
    every card is still where it is, only the stock's recorded origin is wrong."""
    stock = wire["stock"]
    stranger = wire["hands"][0][0]
    assert stranger not in stock
    wire.update(stock_shuffled=sorted([stranger, *stock[1:]]), stock_start=0)
    if "stock_known" in wire:  # Empereur: every card of the stock still from the shuffle
        assert wire["stock_known"] == 0
    return wire


@pytest.mark.parametrize("game_id", ["huit-americain", "empereur"])
def test_the_engine_names_the_stock_from_elsewhere(game_id):
    engine = REGISTRY[game_id]
    started = engine.new_match(("ann", "bob", "cy"), {}, "origin", now=0.0)
    wire = stock_from_elsewhere(edited_wire(engine, started))
    sound = dict(wire, stock_shuffled=sorted(wire["stock"]))
    assert engine.problems(engine.decode(sound)) == []
    with pytest.raises(InvalidState) as refused:
        engine.decode(wire)
    assert refused.value.problems == [NOT_SHUFFLED]


@pytest.mark.parametrize("game_id", ["huit-americain", "empereur"])
def test_a_posted_state_whose_stock_holds_a_card_not_shuffled_is_refused(client, game_id):
    created = client.post(f"/v1/games/{game_id}/matches",
                          json={"players": ["ann", "bob", "cy"], "seed": "origin"})
    assert created.status_code == 201
    wire = stock_from_elsewhere(created.get_json()["state"])
    sound = dict(wire, stock_shuffled=sorted(wire["stock"]))
    assert client.post(f"/v1/games/{game_id}/legal-moves",
                       json={"state": sound}).status_code == 200
    answer = client.post(f"/v1/games/{game_id}/legal-moves", json={"state": wire})
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    problem = answer.get_json()
    assert problem["code"] == "invalid_state"
    assert problem["problems"] == [NOT_SHUFFLED]
