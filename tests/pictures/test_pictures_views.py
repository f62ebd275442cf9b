"""A view image shows what its player may see and nothing more: random matches of every game,
played over HTTP in sealed mode, drawn at each step for every seat and for a spectator, with
the last move's events as a trusted caller received them (every private detail included)."""

from __future__ import annotations

import random
import re

import pytest

import referee
from referee.service.codec import Match
from referee.core.outcome import events_for
from referee.core.playout import random_move
from referee.core.wire import CARD_PATTERN
from referee.games import REGISTRY
from tests.conformance.support import secret_cards

from .support import cards_shown, parse, texts

KEYS = ["p-test-key-" + "0123456789" * 3]
STEPS = 60
CARD = re.compile(CARD_PATTERN)


def image(client, game_id: str, state, player: str, events) -> str:
    answer = client.post(f"/v1/games/{game_id}/images/view",
                         json={"state": state, "player": player, "events": events})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.mimetype == "image/svg+xml"
    return answer.get_data(as_text=True)


def card_strings(value) -> set[str]:
    """Every card code among the string leaves of a JSON value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(card_strings(v) for v in value.values()), set())
    if isinstance(value, (list, tuple)):
        return set().union(*(card_strings(v) for v in value), set())
    return set()


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_view_image_never_shows_a_hidden_card(game_id, seed):
    """Each image of the last move's events (as a trusted caller got them, every private
    detail included) shows no card its viewer may not know: none of another hand, the stock
    or the face-down cards, before or after the move, unless the referee's own answer to that
    viewer names it (a card drawn for the dealer's choice, laid face up, given to him)."""
    app = referee.create_app({"STATE_KEYS": KEYS})
    client = app.test_client()
    codec = app.extensions["referee"].codec
    engine = REGISTRY[game_id]
    pick = random.Random(seed)
    players = tuple(f"p{i}" for i in range(min(engine.max_players, engine.min_players + seed)))
    options = engine.resolve_options(engine.playout_options)
    state = engine.new_match(players, options, f"pictures-{seed}", now=0)
    raw = [{"type": "match_created", "players": list(players), "options": options},
           *engine.opening_events(state)]
    before = None
    for _ in range(STEPS):
        token = codec.dump(engine, Match(state))
        for seat, viewer in [*enumerate(players), (None, "watcher")]:
            root = parse(image(client, game_id, token, viewer, events_for(raw, None)))
            secret = secret_cards(state, seat)
            if before is not None:
                secret &= secret_cards(before, seat)
            secret -= card_strings(events_for(raw, viewer))
            shown = cards_shown(root)
            assert not shown & secret, f"{viewer}'s image shows {shown & secret}"
            written = " ".join(texts(root))
            assert all(player in written for player in players)
            if seat is not None and hasattr(state, "hands"):
                assert set(state.hands[seat]) <= shown, "his own hand is drawn"
        if engine.is_finished(state):
            break
        before = state
        state, raw = engine.apply(state, random_move(engine, engine.legal_moves(state, now=0),
                                                     pick), now=0)
