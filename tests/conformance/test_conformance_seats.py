"""No answer to a seat token holds anything outside its seat's view: random matches of every
game, played in sealed mode by their back end, where at every few steps every seat (each
player and a spectator) asks every endpoint with its own token. Each answer must be the one
the back end gets for that seat, name no card the seat may not know and never the seed; every
request for another seat, and every move posted with a seat token, is refused.

Each hint is asked twice, with the seat token and with the state, and the answers compared:
the token must reach the same advice as the back end. An engine's advice depends on nothing
but its arguments (`Engine.advise`; test_card_hints.py and the Generala tests check that a
level answers the same every time), so here a hint is computed once for each distinct
(view, moves, level) and the second asking with the same arguments gets the same advice: a
token that handed the hints another view, other moves or another level is still computed
afresh, and its answer compared."""

from __future__ import annotations

import random
import re

import pytest

import referee
from referee.core.memo import BoundedMemo
from referee.core.playout import random_move
from referee.games import REGISTRY
from tests.conformance.support import secret_cards, strings, under_stock

KEYS = ["s-test-key-" + "0123456789" * 3]
SPECTATOR = "watcher"
CHECK_EVERY = 3  # steps between rounds of questions
MAX_STEPS = 150


def hidden_from_spectator(state) -> set[str]:
    """Every card of a hand, the stock or the face-down cards, but for a twin face up."""
    hidden = {card for hand in getattr(state, "hands", ()) for card in hand}
    for face_down in ("stock", "discards", "out_of_play"):
        hidden.update(getattr(state, face_down, ()))
    face_up = set(getattr(state, "pile", ())) | set(getattr(state, "table", ()))
    face_up |= {p.card for p in getattr(state, "trick", ())}
    face_up |= set(under_stock(state))
    return hidden - face_up


def words(value) -> set[str]:
    """Every string leaf, and every word inside one (a detail sentence may name a card)."""
    out = set()
    for text in strings(value):
        out.add(text)
        out.update(re.findall(r"[A-Za-z0-9]+", text))
    return out


def probing_moves(moves, secret, pick):
    """The seat's own moves, and the same moves naming a card it may not know: a dry run of
    either must reveal nothing but whether it is legal."""
    probes = pick.sample(moves, min(4, len(moves)))
    for move in list(probes):
        for field in ("card", "cards"):
            if field in move and secret:
                card = pick.choice(sorted(secret))
                probes.append({**move, field: card if field == "card" else [card]})
    return probes


@pytest.fixture(autouse=True)
def advice_computed_once(monkeypatch):
    """Every engine's `advise`, remembered by its exact arguments for the test's length."""
    for engine in REGISTRY.values():
        monkeypatch.setattr(engine, "advise", remembered(engine.advise))


def remembered(advise):
    given: BoundedMemo = BoundedMemo(4096)

    def advise_once(view, moves, level):
        return given.get(repr((view, moves, level)), lambda _: advise(view, moves, level))

    return advise_once


class Seats:
    def __init__(self, game_id: str, seed: int):
        self.app = referee.create_app({"STATE_KEYS": KEYS})
        self.client = self.app.test_client()
        self.codec = self.app.extensions["referee"].codec
        self.engine = REGISTRY[game_id]
        self.base = f"/v1/games/{game_id}"
        self.seed = f"secret-{seed}"

    def post(self, segment, body):
        return self.client.post(f"{self.base}/{segment}", json=body)

    def check_seat(self, token_state, seat, secret, pick):
        """Every question the seat may ask, and the ones it may not."""
        engine = self.engine
        state = self.codec.load(engine, token_state)
        trusted = self.post("views", {"state": token_state, "player": seat}).get_json()
        token = trusted.pop("seat_token")
        answers = []

        view = self.post("views", {"seat_token": token})
        assert view.status_code == 200
        assert view.get_json() == trusted
        assert view.get_json()["view"] == engine.view(state, seat)
        answers.append(view.get_json())

        listed = self.post("legal-moves", {"seat_token": token}).get_json()
        assert listed == self.post("legal-moves", {"state": token_state,
                                                   "player": seat}).get_json()
        assert all(m["player"] == seat for m in listed["legal_moves"])
        answers.append(listed)

        for probe in probing_moves(listed["legal_moves"], secret, pick):
            verdict = self.post("validations", {"seat_token": token, "move": probe})
            assert verdict.status_code in (200, 422), verdict.get_json()
            assert verdict.get_json() == self.post("validations", {
                "state": token_state, "move": probe}).get_json()
            named = set(strings(probe))
            leaked = words(verdict.get_json()) & (secret - named)
            assert not leaked, f"a dry run tells {seat} of {leaked}"
            answers.append(verdict.get_json())

        everyone = sorted({m["player"] for m in engine.legal_moves(state, now=0)} - {seat})
        for other in everyone[:1]:
            move = next(m for m in engine.legal_moves(state, now=0) if m["player"] == other)
            refused = self.post("validations", {"seat_token": token, "move": move})
            assert refused.status_code == 403 and refused.get_json()["code"] == "not_your_seat"
            for segment in ("views", "legal-moves"):
                refused = self.post(segment, {"seat_token": token, "player": other})
                assert refused.get_json()["code"] == "not_your_seat"
        if listed["legal_moves"]:
            posted = self.post("moves", {"seat_token": token, "move": listed["legal_moves"][0]})
            assert posted.get_json()["code"] == "seat_token_not_allowed"
            as_state = self.post("moves", {"state": token, "move": listed["legal_moves"][0]})
            assert as_state.get_json()["code"] == "seat_token_not_allowed"

        drawn = self.post("images/view", {"seat_token": token})
        assert drawn.status_code == 200
        assert drawn.get_data() == self.post("images/view", {"state": token_state,
                                                             "player": seat}).get_data()

        for level in engine.hint_levels:
            hinted = self.post("hints", {"seat_token": token, "level": level})
            assert hinted.get_json() == self.post("hints", {
                "state": token_state, "player": seat, "level": level}).get_json()
            if hinted.status_code == 200:
                assert hinted.get_json()["move"] in listed["legal_moves"]
            answers.append(hinted.get_json())

        for answer in answers:
            leaves = words(answer)
            shown = set(strings(answer)) & secret
            assert not shown, f"{seat} is shown {shown}"
            assert not {"state", "seat_token", "seed"} & set(answer)
            assert not any(self.seed in text for text in leaves)
        return len(answers)


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_seat_token_answers_within_its_seat(game_id, seed):
    seats = Seats(game_id, seed)
    engine = seats.engine
    pick = random.Random(seed)
    players = [f"p{i}" for i in range(min(engine.max_players, engine.min_players + seed))]
    # Bots at the table, so the hints are answered and not only refused.
    outcome = seats.post("matches", {"players": players, "seed": seats.seed,
                                     "options": engine.playout_options,
                                     "bots": players[1:]}).get_json()
    asked = 0
    for step in range(MAX_STEPS):
        state = seats.codec.load(engine, outcome["state"])
        finished = outcome["status"] == "finished"
        if step % CHECK_EVERY == 0 or finished:
            for index, seat in enumerate(players):
                asked += seats.check_seat(outcome["state"], seat, secret_cards(state, index),
                                          pick)
            asked += seats.check_seat(outcome["state"], SPECTATOR,
                                      hidden_from_spectator(state), pick)
        if finished:
            break
        moves = engine.legal_moves(state, now=0)
        outcome = seats.post("moves", {"state": outcome["state"],
                                       "move": random_move(engine, moves, pick)}).get_json()
    assert asked > 40 * (len(players) + 1)
