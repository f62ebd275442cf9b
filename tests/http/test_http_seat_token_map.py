"""Seat tokens for every seat at once: a creation or a move with `seat_tokens_for` answers,
sealed, a map of each named player to his seat token, so that one request brings every
device its token. Each token of the map is bound as a single `seat_token` is (to its seat,
its step and the answer's `seat_token_ttl`) and serves its own seat only; open mode ignores
the request (nothing is sealed there)."""

from __future__ import annotations

import pytest

from referee.games import REGISTRY
from tests.contract.support import problems

EIGHT = "/v1/games/huit-americain"
PLAYERS = ["ann", "bob", "cleo", "dan"]


def create(client, **extra):
    body = {"players": PLAYERS, "seed": "s3cret", "hints_allowed": True, **extra}
    response = client.post(f"{EIGHT}/matches", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def post(client, path, body, status=200):
    response = client.post(f"{EIGHT}/{path}", json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def code_of(response):
    return response.get_json(force=True).get("code")


@pytest.fixture
def dealt(sealed_client):
    return create(sealed_client, seat_tokens_for=PLAYERS)


def test_a_creation_carries_one_seat_token_for_each_player_asked(dealt):
    tokens = dealt["seat_tokens"]
    assert list(tokens) == PLAYERS
    assert len(set(tokens.values())) == len(PLAYERS)
    assert "seat_token" not in dealt  # no viewer named
    assert not problems("HuitAmericainOutcome", dealt)


def test_each_device_sees_its_own_hand_and_no_other(sealed_client, dealt):
    hands = {}
    for player, token in dealt["seat_tokens"].items():
        seen = post(sealed_client, "views", {"seat_token": token})
        trusted = post(sealed_client, "views", {"state": dealt["state"], "player": player})
        assert seen["player"] == player
        assert seen["view"] == trusted["view"] and seen["legal_moves"] == trusted["legal_moves"]
        hands[player] = set(seen["view"]["hand"])
        listed = post(sealed_client, "legal-moves", {"seat_token": token})
        assert listed == post(sealed_client, "legal-moves",
                              {"state": dealt["state"], "player": player})
        assert {m["player"] for m in listed["legal_moves"]} <= {player}
    assert all(hands.values())
    for player, hand in hands.items():  # no two devices hold the same card
        assert not hand & set().union(*(h for p, h in hands.items() if p != player))


def test_each_device_asks_its_own_hint(sealed_client, dealt):
    to_act = dealt["to_act"][0]
    for player, token in dealt["seat_tokens"].items():
        asked = sealed_client.post(f"{EIGHT}/hints", json={"seat_token": token, "level": "easy"})
        trusted = sealed_client.post(f"{EIGHT}/hints", json={
            "state": dealt["state"], "player": player, "level": "easy"})
        assert asked.status_code == trusted.status_code
        assert asked.get_json() == trusted.get_json()
        if player == to_act:
            assert asked.status_code == 200 and asked.get_json()["player"] == player
        else:
            assert code_of(asked) == "not_your_turn"


def test_a_token_of_the_map_acts_for_its_own_seat_only(sealed_client, dealt):
    tokens = dealt["seat_tokens"]
    to_act = dealt["to_act"][0]
    other = next(p for p in PLAYERS if p != to_act)
    move = next(m for m in dealt["legal_moves"] if m["player"] == to_act)
    # The mover's own token dry-runs his move; anyone else's is refused it.
    assert post(sealed_client, "validations", {"seat_token": tokens[to_act], "move": move}) \
        == {"legal": True}
    refused = sealed_client.post(f"{EIGHT}/validations",
                                 json={"seat_token": tokens[other], "move": move})
    assert refused.status_code == 403 and code_of(refused) == "not_your_seat"
    for path, body in (("views", {"player": to_act}), ("legal-moves", {"player": to_act}),
                       ("hints", {"player": to_act, "level": "easy"}),
                       ("images/view", {"player": to_act})):
        refused = sealed_client.post(f"{EIGHT}/{path}",
                                     json={"seat_token": tokens[other], **body})
        assert refused.status_code == 403 and code_of(refused) == "not_your_seat", path
    posted = sealed_client.post(f"{EIGHT}/moves", json={"seat_token": tokens[to_act],
                                                        "move": move})
    assert posted.status_code == 403 and code_of(posted) == "seat_token_not_allowed"


def test_a_move_brings_every_device_its_token_for_the_new_state(sealed_client, dealt):
    to_act = dealt["to_act"][0]
    move = next(m for m in dealt["legal_moves"] if m["player"] == to_act)
    body = {"state": dealt["state"], "move": move, "viewer": to_act,
            "seat_tokens_for": PLAYERS}
    assert not problems("HuitAmericainMoveRequest", body)
    after = post(sealed_client, "moves", body)
    assert not problems("HuitAmericainOutcome", after)
    tokens = after["seat_tokens"]
    assert list(tokens) == PLAYERS
    assert tokens[to_act] == after["seat_token"]  # the viewer's token serves in both places
    for player, token in tokens.items():
        seen = post(sealed_client, "views", {"seat_token": token})
        assert seen["view"] == post(sealed_client, "views", {"state": after["state"],
                                                             "player": player})["view"]
        # An older token answers about its own step, not the new one.
        old = post(sealed_client, "views", {"seat_token": dealt["seat_tokens"][player]})
        assert old["view"] == post(sealed_client, "views", {"state": dealt["state"],
                                                            "player": player})["view"]


def test_some_seats_only_bots_and_spectators(sealed_client):
    created = create(sealed_client, bots=["dan"], hints_allowed=False,
                     seat_tokens_for=["dan", "watcher", "bob"])
    tokens = created["seat_tokens"]
    assert list(tokens) == ["dan", "watcher", "bob"]
    # A bot's seat is a seat: a bot run apart from the back end asks with its own token.
    bot = post(sealed_client, "views", {"seat_token": tokens["dan"]})
    assert bot["player"] == "dan" and bot["view"]["hand"]
    # A name not seated is a spectator, as a viewer is: public information, no moves.
    spectator = post(sealed_client, "views", {"seat_token": tokens["watcher"]})
    assert spectator["player"] == "watcher" and spectator["legal_moves"] == []
    assert spectator["view"] == post(sealed_client, "views", {
        "state": created["state"], "player": "watcher"})["view"]
    assert not spectator["view"].get("hand")
    # A human playing humans gets no hint with his token, as without it.
    human = sealed_client.post(f"{EIGHT}/hints", json={"seat_token": tokens["bob"],
                                                       "level": "easy"})
    assert code_of(human) in ("hint_not_allowed", "not_your_turn")


def test_every_token_of_the_map_expires_with_the_answers_ttl(sealed_client, clock):
    created = create(sealed_client, seat_tokens_for=PLAYERS, viewer="ann", seat_token_ttl=60)
    clock.now += 59
    for token in created["seat_tokens"].values():
        assert sealed_client.post(f"{EIGHT}/views", json={"seat_token": token}).status_code \
            == 200
    clock.now += 1
    for token in [*created["seat_tokens"].values(), created["seat_token"]]:
        expired = sealed_client.post(f"{EIGHT}/views", json={"seat_token": token})
        assert expired.status_code == 403 and code_of(expired) == "seat_token_expired"


def test_an_empty_list_asks_for_none_and_no_list_for_no_map(sealed_client):
    assert create(sealed_client, seat_tokens_for=[])["seat_tokens"] == {}
    assert "seat_tokens" not in create(sealed_client, viewer="ann")


def test_open_mode_ignores_it(client):
    asked = create(client, viewer="ann", seat_tokens_for=PLAYERS)
    assert asked == create(client, viewer="ann")
    assert "seat_tokens" not in asked and "seat_token" not in asked
    move = next(m for m in asked["legal_moves"])
    moved = post(client, "moves", {"state": asked["state"], "move": move,
                                   "seat_tokens_for": PLAYERS})
    assert moved == post(client, "moves", {"state": asked["state"], "move": move})


@pytest.mark.parametrize("asked,field_error", [
    (["ann", "ann"], "Player ids must be unique."),
    ([f"p{n}" for n in range(REGISTRY["huit-americain"].max_players + 1)],
     f"At most {REGISTRY['huit-americain'].max_players} players."),
    ([""], None),
    ("ann", None),
], ids=["repeated", "more-than-the-seats", "empty-id", "not-a-list"])
def test_a_bad_list_is_refused_in_both_modes(client, sealed_client, asked, field_error):
    for each in (client, sealed_client):
        created = each.post(f"{EIGHT}/matches", json={"players": PLAYERS,
                                                      "seat_tokens_for": asked})
        assert created.status_code == 422 and code_of(created) == "validation_error"
        errors = created.get_json()["errors"]["seat_tokens_for"]
        assert field_error is None or field_error in str(errors)
        state = create(each)["state"]
        moved = each.post(f"{EIGHT}/moves", json={
            "state": state, "move": {"type": "draw", "player": "ann"}, "seat_tokens_for": asked})
        assert moved.status_code == 422 and code_of(moved) == "validation_error"
        assert "seat_tokens_for" in moved.get_json()["errors"]


def test_the_contract_bounds_the_map_by_the_games_seats():
    from tests.support import committed_contract
    schemas = committed_contract()["components"]["schemas"]
    for game_id, engine in REGISTRY.items():
        prefix = "".join(part.capitalize() for part in game_id.split("-"))
        for request in ("CreateMatchRequest", "MoveRequest"):
            asked = schemas[prefix + request]["properties"]["seat_tokens_for"]
            assert asked["maxItems"] == engine.max_players and asked["uniqueItems"]
        answered = schemas[prefix + "Outcome"]["properties"]["seat_tokens"]
        assert answered["maxProperties"] == engine.max_players
        assert answered["additionalProperties"] == {"$ref": "#/components/schemas/SeatToken"}
