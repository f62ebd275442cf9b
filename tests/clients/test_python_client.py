"""A whole match of every game, played through the Python client openapi-python-client
generates from the contract, and through nothing else: requests are the client's typed
models, answers come back parsed into them, and every move posted is one of the typed
`legal_moves` of the answer before (no cast, no raw dict). In open and in sealed mode."""

from __future__ import annotations

import importlib
import random

import httpx
import pytest

import referee
from referee.games import REGISTRY
from tests.support import SEALING_KEYS

from .support import GameClient, newer_generala

MAX_MOVES = 5_000


@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_generated_python_client_plays_a_whole_match(python_client, game_id, sealed):
    app = referee.create_app({"STATE_KEYS": SEALING_KEYS if sealed else []})
    client = python_client.Client(base_url="http://referee",
                                  httpx_args={"transport": httpx.WSGITransport(app=app)},
                                  raise_on_unexpected_status=True)
    game = GameClient(python_client, game_id)
    engine = REGISTRY[game_id]
    players = [f"p{i}" for i in range(engine.min_players)]
    options = game.Options.from_dict(engine.playout_options)
    outcome = game.create(client=client, body=game.CreateRequest(
        players=players, options=options, seed="client", viewer=players[0]))
    assert isinstance(outcome, game.Outcome), outcome
    assert isinstance(outcome.state, str if sealed else game.State)
    assert isinstance(outcome.view, game.View)
    first_type = engine.move_types[0].type
    pick = random.Random(7)
    for _ in range(MAX_MOVES):
        if outcome.status.value == "finished":
            break
        listed = game.legal(client=client, body=game.LegalMovesRequest(state=outcome.state))
        assert listed.legal_moves, listed
        progress = [m for m in listed.legal_moves if m.type_ == first_type]
        move = pick.choice(progress if progress and pick.random() < 0.75 else listed.legal_moves)
        verdict = game.validate(client=client, body=game.ValidationRequest(
            state=outcome.state, move=move))
        assert verdict.legal, verdict
        outcome = game.post(client=client, body=game.MoveRequest(
            state=outcome.state, move=move, viewer=move.player))
        assert isinstance(outcome, game.Outcome), outcome
        assert isinstance(outcome.view, game.View) and outcome.view.you == move.player
    assert outcome.status.value == "finished"
    assert outcome.seed == "client"
    seen = game.view(client=client, body=game.ViewRequest(state=outcome.state, player=players[-1]))
    assert seen.player == players[-1] and seen.status.value == "finished"


def test_a_generated_client_asks_for_hints_as_a_bot(python_client):
    app = referee.create_app({"STATE_KEYS": []})
    client = python_client.Client(base_url="http://referee",
                                  httpx_args={"transport": httpx.WSGITransport(app=app)},
                                  raise_on_unexpected_status=True)
    models = importlib.import_module(f"{python_client.__name__}.models")
    api = f"{python_client.__name__}.api.generala_dice.generala_dice_"
    create = importlib.import_module(api + "create_match").sync
    ask = importlib.import_module(api + "hint").sync
    post = importlib.import_module(api + "post_move").sync
    outcome = create(client=client, body=models.GeneralaDiceCreateMatchRequest(
        players=["ann", "cpu"], bots=["cpu"], seed="hints"))
    for _ in range(6):
        player = outcome.to_act[0]
        advice = ask(client=client, body=models.GeneralaDiceHintRequestWithState(
            state=outcome.state, player=player,
            level=models.GeneralaDiceHintRequestWithStateLevel.HARD))
        assert isinstance(advice, models.GeneralaDiceHint)
        assert advice.measure == "expected_final_score" and advice.value > 0
        outcome = post(client=client, body=models.GeneralaDiceMoveRequest(
            state=outcome.state, move=advice.move))
        assert isinstance(outcome, models.GeneralaDiceOutcome)


def test_a_refusal_comes_back_as_a_typed_problem(python_client):
    app = referee.create_app({"STATE_KEYS": []})
    client = python_client.Client(base_url="http://referee",
                                  httpx_args={"transport": httpx.WSGITransport(app=app)})
    game = GameClient(python_client, "generala-dice")
    outcome = game.create(client=client, body=game.CreateRequest(players=["ann", "bob"]))
    models = python_client.models
    score = models.GeneralaDiceScoreMove(type_="score", player="ann",
                                         box=models.GeneralaDiceScoreMoveBox.ONES)
    problem = game.post(client=client, body=game.MoveRequest(state=outcome.state, move=score))
    assert isinstance(problem, game.Problem)
    assert problem.code == "illegal_move" and problem.rule == "roll_before_scoring"


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_phone_with_its_seat_token_asks_through_the_generated_client(python_client, game_id):
    """The back end holds the state token; the phone, given only its seat token, lists its
    legal moves, dry-runs one and sees its view, typed, and is refused anyone else's view."""
    app = referee.create_app({"STATE_KEYS": SEALING_KEYS})
    client = python_client.Client(base_url="http://referee",
                                  httpx_args={"transport": httpx.WSGITransport(app=app)})
    game = GameClient(python_client, game_id)
    engine = REGISTRY[game_id]
    players = [f"p{i}" for i in range(engine.min_players)]
    outcome = game.create(client=client, body=game.CreateRequest(
        players=players, seed="phone", viewer=players[0]))
    mover = outcome.to_act[0]
    # The back end asks for the seat of whoever is to act, as it would for his phone.
    seat = game.view(client=client, body=game.ViewRequest(state=outcome.state, player=mover))
    assert isinstance(seat.seat_token, str) and isinstance(outcome.seat_token, str)
    listed = game.legal(client=client,
                        body=game.SeatLegalMovesRequest(seat_token=seat.seat_token))
    assert listed.legal_moves and {m.player for m in listed.legal_moves} == {mover}
    verdict = game.validate(client=client, body=game.SeatValidationRequest(
        seat_token=seat.seat_token, move=listed.legal_moves[0]))
    assert verdict.legal is True
    seen = game.view(client=client, body=game.SeatViewRequest(seat_token=seat.seat_token))
    assert isinstance(seen.view, game.View) and seen.player == mover
    assert seen.view.to_dict() == seat.view.to_dict()
    other = next(p for p in players if p != mover)
    refused = game.view(client=client, body=game.SeatViewRequest(seat_token=seat.seat_token,
                                                                 player=other))
    assert isinstance(refused, game.Problem) and refused.code == "not_your_seat"


def test_a_generated_options_model_sends_only_the_options_set(python_client):
    """The options' defaults are the referee's (said in the contract's words and in the
    catalogue), not the generated client's: a model sends what its caller set, nothing else."""
    for game_id, engine in REGISTRY.items():
        options = GameClient(python_client, game_id).Options
        assert options().to_dict() == {}, game_id
        first = engine.options[0]
        chosen = {first.name: first.default}
        assert options.from_dict(chosen).to_dict() == chosen


def test_a_client_of_this_contract_reads_a_newer_referee(python_client):
    """A referee of a later version whose Generala has one more event type: the client
    generated from this contract, naming no version, plays a whole match and reads each new
    event as the generic `other` event."""
    app = referee.create_app({"STATE_KEYS": [], "GAMES": {"generala-dice": newer_generala()}})
    client = python_client.Client(base_url="http://referee",
                                  httpx_args={"transport": httpx.WSGITransport(app=app)},
                                  raise_on_unexpected_status=True)
    game = GameClient(python_client, "generala-dice")
    outcome = game.create(client=client, body=game.CreateRequest(players=["ann", "bob"], seed=5))
    later = []
    while outcome.status.value != "finished":
        move = outcome.legal_moves[0]
        outcome = game.post(client=client, body=game.MoveRequest(state=outcome.state, move=move))
        assert isinstance(outcome, game.Outcome), outcome
        later += [e for e in outcome.events if e.type_ == "other"]
    assert later and all(isinstance(e, python_client.models.GeneralaDiceOtherEvent)
                         and e.name == "dice_counted" and 1 <= e.data["count"] <= 5
                         for e in later)


def test_every_seats_token_comes_in_one_typed_answer(python_client):
    """A move asking for every seat's token (`seat_tokens_for`, a list of strings) answers a
    typed map of player to token, and each phone, given its own, sees its own view."""
    app = referee.create_app({"STATE_KEYS": SEALING_KEYS})
    client = python_client.Client(base_url="http://referee",
                                  httpx_args={"transport": httpx.WSGITransport(app=app)})
    game = GameClient(python_client, "huit-americain")
    players = ["ann", "bob", "cleo"]
    created = game.create(client=client, body=game.CreateRequest(
        players=players, seed="phones", seat_tokens_for=players))
    mover = created.to_act[0]
    move = next(m for m in created.legal_moves if m.player == mover)
    outcome = game.post(client=client, body=game.MoveRequest(
        state=created.state, move=move, seat_tokens_for=players))
    assert isinstance(outcome, game.Outcome), outcome
    tokens = outcome.seat_tokens.to_dict()
    assert list(tokens) == players and all(isinstance(t, str) for t in tokens.values())
    for player, token in tokens.items():
        seen = game.view(client=client, body=game.SeatViewRequest(seat_token=token))
        trusted = game.view(client=client, body=game.ViewRequest(state=outcome.state,
                                                                 player=player))
        assert seen.player == player and seen.view.to_dict() == trusted.view.to_dict()
