"""No view and no answer given to a viewer leaks another player's cards, the stock's order or
the seed before the end: random matches of every game, played over HTTP in sealed mode with a
viewer on every request, checked against the referee's own state at each step."""

from __future__ import annotations

import random

import msgspec
import pytest

import referee
from referee.core.playout import random_move
from referee.games import REGISTRY

from .support import secret_cards, shuffled_inputs_left_out, strings, under_stock

KEYS = ["v-test-key-" + "0123456789" * 3]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
@pytest.mark.parametrize("seed", [1, 2])
def test_viewers_never_see_hidden_cards_or_the_seed(game_id, seed):
    app = referee.create_app({"STATE_KEYS": KEYS})
    client = app.test_client()
    sealer = app.extensions["referee"].codec
    engine = REGISTRY[game_id]
    pick = random.Random(seed)
    players = [f"p{i}" for i in range(min(engine.max_players, engine.min_players + seed))]
    outcome = client.post(f"/v1/games/{game_id}/matches",
                          json={"players": players, "seed": f"secret-{seed}",
                                "options": engine.playout_options,
                                "viewer": players[0]}).get_json()
    for _ in range(400):
        state = sealer.load(engine, outcome["state"])
        if outcome["status"] == "finished":
            break
        mover = pick.choice(sorted({m["player"] for m in engine.legal_moves(state, now=0)}))
        for seat, viewer in enumerate(players):
            secret = secret_cards(state, seat)
            shown = client.post(f"/v1/games/{game_id}/views",
                                json={"state": outcome["state"], "player": viewer}).get_json()
            leaves = set(strings(shown))
            assert not leaves & secret, f"{viewer}'s view shows {leaves & secret}"
            assert f"secret-{seed}" not in leaves
        # A spectator (anyone not seated) sees no card of any hand, the stock or the
        # face-down cards, but for a twin face up on the table.
        watched = client.post(f"/v1/games/{game_id}/views",
                              json={"state": outcome["state"], "player": "watcher"}).get_json()
        assert watched["legal_moves"] == [] and watched["view"]["you"] == "watcher"
        hidden = {card for hand in getattr(state, "hands", ()) for card in hand}
        for face_down in ("stock", "discards"):
            hidden.update(getattr(state, face_down, ()))
        face_up = set(getattr(state, "pile", ())) | {p.card for p in getattr(state, "trick", ())}
        face_up |= set(under_stock(state))  # laid before everyone's eyes, then cleared
        shown = set(strings(watched["view"])) & hidden
        assert not shown - face_up, f"a spectator sees {shown - face_up}"
        moves = client.post(f"/v1/games/{game_id}/legal-moves",
                            json={"state": outcome["state"], "player": mover}).get_json()["legal_moves"]
        viewer_seat = players.index(mover)
        before = secret_cards(state, viewer_seat)
        outcome = client.post(f"/v1/games/{game_id}/moves",
                              json={"state": outcome["state"], "move": random_move(engine, moves, pick),
                                    "viewer": mover}).get_json()
        answer = {k: v for k, v in outcome.items() if k != "state"}
        answer["events"] = [shuffled_inputs_left_out(e) for e in answer["events"]]
        after_state = sealer.load(engine, outcome["state"])
        # What the mover may not know, before or after his move (a card he drew is his now).
        secret = before & secret_cards(after_state, viewer_seat)
        leaves = set(strings(answer))
        assert not leaves & secret, f"the answer to {mover} shows {leaves & secret}"
        assert all(m["player"] == mover for m in outcome["legal_moves"])
        if outcome["status"] != "finished":
            assert f"secret-{seed}" not in leaves
        assert isinstance(outcome["state"], str)
        msgspec.json.encode(answer)
