"""Real traffic fits the contract: whole matches of every game, in open and sealed mode, with
every request checked against the game's request schema before it is posted and every
answer (outcomes, legal moves, views, verdicts, refusals) against its answer schema."""

from __future__ import annotations

import random

import pytest

import referee
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.http.contract import pascal

from .support import problems

OPERATIONS = {  # segment -> (request schema suffix, answer schema suffix)
    "matches": ("CreateMatchRequest", "Outcome"),
    "moves": ("MoveRequest", "Outcome"),
    "legal-moves": ("LegalMovesRequest", "LegalMoves"),
    "validations": ("ValidationRequest", None),
    "views": ("ViewRequest", "PlayerView"),
}


class CheckedClient:
    def __init__(self, app, game_id: str):
        self.client = app.test_client()
        self.game_id = game_id
        self.prefix = pascal(game_id)

    def post(self, segment: str, body: dict, expect: int = 200) -> dict:
        request, answer = OPERATIONS[segment]
        assert not problems(self.prefix + request, body), problems(self.prefix + request, body)
        response = self.client.post(f"/v1/games/{self.game_id}/{segment}", json=body)
        assert response.status_code == expect, response.get_data(as_text=True)
        name = ("Problem" if response.status_code >= 400 else
                "Verdict" if answer is None else self.prefix + answer)
        answered = response.get_json()
        assert not problems(name, answered), (name, problems(name, answered))
        return answered


@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_traffic_of_whole_matches_fits_the_contract(game_id, sealed):
    engine = REGISTRY[game_id]
    app = referee.create_app({"STATE_KEYS": ["t-test-key-" + "0123456789" * 3] if sealed else []})
    client = CheckedClient(app, game_id)
    players = [f"p{i}" for i in range(engine.min_players + 1)]
    pick = random.Random(game_id)
    outcome = client.post("matches", {"players": players, "options": engine.playout_options,
                                      "seed": 11, "viewer": players[0]}, expect=201)
    for step in range(5_000):
        if outcome["status"] == "finished":
            break
        state = outcome["state"]
        listed = client.post("legal-moves", {"state": state})
        move = random_move(engine, listed["legal_moves"], pick)
        assert client.post("validations", {"state": state, "move": move})["legal"]
        if step % 7 == 0:
            seen = client.post("views", {"state": state,
                                         "player": pick.choice(players + ["watcher"])})
            wrong = {**move, "player": "nobody"}
            client.post("moves", {"state": state, "move": wrong}, expect=409)
            if sealed:
                # What a phone sends and receives with its seat token fits the contract too.
                seat = {"seat_token": outcome["seat_token"]}
                client.post("legal-moves", seat)
                client.post("views", seat)
                client.post("views", {**seat, "player": "nobody"}, expect=403)
                client.post("validations", {"seat_token": seen["seat_token"],
                                            "move": {**move, "player": "nobody"}}, expect=403)
        outcome = client.post("moves", {"state": state, "move": move, "viewer": move["player"]})
    assert outcome["status"] == "finished"
    client.post("moves", {"state": outcome["state"], "move": move}, expect=409)
