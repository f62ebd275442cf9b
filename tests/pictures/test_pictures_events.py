"""The events under a view image: checked against the game's declarations, and cut to what
the viewer may see, the way the referee's own answers cut them."""

from __future__ import annotations

import random

import pytest

from referee.core.outcome import events_for
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.pictures.events import (CONCERNED, MAX_TEXT, MAX_TYPE, BadEvents, declarations,
                                     phrase, visible)

HUIT = REGISTRY["huit-americain"]
DEALT = {"type": "cards_dealt", "player": "ann", "count": 2, "cards": ["7H", "KS"]}


def test_a_private_field_is_kept_for_the_player_it_concerns_and_cut_for_the_others():
    assert visible(HUIT, [DEALT], "ann") == [DEALT]
    cut = {k: v for k, v in DEALT.items() if k != "cards"}
    assert visible(HUIT, [DEALT], "bob") == [cut]
    assert visible(HUIT, [DEALT], "watcher") == [cut]


def test_a_card_given_is_seen_by_the_giver_and_the_receiver_only():
    given = {"type": "card_given", "player": "ann", "to": "bob", "cards_left": 1, "card": "9D"}
    for viewer, sees in (("ann", True), ("bob", True), ("cleo", False)):
        assert ("card" in visible(HUIT, [given], viewer)[0]) is sees


def test_the_generic_event_keeps_the_type_it_names_only():
    # A type of a later contract version, as a caller of this one receives it.
    generic = {"type": "other", "name": "added_later", "data": {"cards": ["AS"]}}
    assert visible(HUIT, [generic], "ann") == [{"type": "added_later"}]
    longest = {"type": "other", "name": "t" * MAX_TYPE, "data": {"text": "x" * MAX_TEXT}}
    assert visible(HUIT, [longest], "ann") == [{"type": "t" * MAX_TYPE}]


@pytest.mark.parametrize("event", [
    {"type": "cards_dealt", "player": "ann", "count": 2, "cards": ["ZZ"]},
    {"type": "cards_dealt", "player": "ann"},
    {"type": "cards_dealt", "player": "ann", "count": 1, "private": {"cards": ["AS"]}},
    {"no": "type"},
    {"type": "match_created", "players": ["ann", "bob"], "options": {"decks": 1}},
    {"type": "match_created", "players": ["ann", "bob"],
     "options": {**HUIT.resolve_options({}), "target": 10**9}},
    ["a list"],
    {"type": "x" * (MAX_TYPE + 1)},
    {"type": "added_later", "note": "x" * (MAX_TEXT + 1)},
    {"type": "added_later", "notes": [{"x" * (MAX_TEXT + 1): 1}]},
    # An undeclared type is the generic event's, as the contract's union of events says.
    {"type": "added_later", "cards": ["AS"]},
    {"type": "other", "name": "added_later", "data": [None, None]},
    {"type": "other", "name": "", "data": {}},
    {"type": "other", "name": "t" * (MAX_TYPE + 1), "data": {}},
    {"type": "other", "data": {}},
    {"type": "other", "name": "added_later", "data": {}, "cards": ["AS"]},
    {"type": "cards_dealt", "player": "a" * (MAX_TEXT + 1), "count": 0},
])
def test_an_event_that_does_not_fit_its_declaration_is_refused_with_its_index(event):
    with pytest.raises(BadEvents) as refused:
        visible(HUIT, [DEALT, event], "ann")
    assert list(refused.value.errors) == [1]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_the_players_an_engine_shows_a_private_part_to_are_the_ones_the_event_names(game_id):
    """The picture keeps a private field for `player` and `to`: over random matches, every
    private part an engine sends is addressed to exactly those and holds only fields declared
    private, and cutting a trusted event for any viewer gives what the referee itself tells
    that viewer."""
    engine = REGISTRY[game_id]
    declared = declarations(tuple(engine.event_types))
    pick = random.Random(5)
    players = ("p0", "p1", "p2")
    options = engine.resolve_options(engine.playout_options)
    state = engine.new_match(players, options, "private", now=0)
    raw = list(engine.opening_events(state))
    seen = 0
    for _ in range(300):
        for event in raw:
            if "private" in event:
                seen += 1
                named = {event[field] for field in CONCERNED if field in event}
                private = event["private"]
                assert set(private.get("players", [private.get("player")])) == named
                assert set(private) - {"player", "players"} <= declared[event["type"]][1]
        trusted = events_for(raw, None)
        for viewer in (*players, "watcher"):
            assert visible(engine, trusted, viewer) == events_for(raw, viewer)
        if engine.is_finished(state):
            break
        state, raw = engine.apply(state, random_move(engine, engine.legal_moves(state, now=0),
                                                     pick), now=0)
    # A game that declares no private field (the dice games) sends none.
    assert seen or not any(private for _, private in declared.values())


def test_an_event_reads_as_one_line_naming_its_cards():
    line, cards = phrase({"type": "cards_played", "player": "ann", "cards": ["TH", "X1"],
                          "rank": "T"}, ["ann", "bob"])
    assert line == "ann: cards played \u00b7 cards 10\u2665 Joker; rank T"
    assert cards == ("TH", "X1")
    line, cards = phrase({"type": "turn", "player": "KH"}, ["KH"])  # a player named like a card
    assert line == "KH: turn" and cards == ()
