"""Every game's view image: it parses, names every player, points at whoever may act, shows
the viewer's hand and the table's cards face up, and the dice game's dice and sheets."""

from __future__ import annotations

import random

import pytest

from referee.core.outcome import progress
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.games.generala_dice.engine import DiceSheetGame
from referee.pictures import SCENES, view_svg

from .support import cards_shown, groups, parse, texts

DICE_GAMES = sorted(g for g, engine in REGISTRY.items() if isinstance(engine, DiceSheetGame))


def answer(engine, state, player):
    """What `/views` answers, made the same way."""
    return {"player": player, **progress(engine, state, now=0, player=player),
            "view": engine.view(state, player), "scores": engine.scores(state)}


def played(engine, moves: int, seed: int = 4):
    pick = random.Random(seed)
    players = ("ann", "bob", "cleo")
    state = engine.new_match(players, engine.resolve_options(engine.playout_options), "scene",
                             now=0)
    for _ in range(moves):
        if engine.is_finished(state):
            break
        state, _ = engine.apply(state, random_move(engine, engine.legal_moves(state, now=0),
                                                   pick), now=0)
    return state


@pytest.mark.parametrize("moves", [0, 7, 40])
@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_view_image_names_every_player_and_points_at_who_may_act(game_id, moves):
    engine = REGISTRY[game_id]
    state = played(engine, moves)
    for viewer in ("ann", "watcher"):
        seen = answer(engine, state, viewer)
        root = parse(view_svg(engine, seen))
        seats = {g.get("data-player"): g for g in groups(root, "data-acting")}
        assert list(seats) == list(state.players)
        assert {p for p, g in seats.items() if g.get("data-acting") == "true"} \
            == set(seen["to_act"])
        written = texts(root)
        assert engine.name in written
        hand = seen["view"].get("hand", [])
        assert set(hand) <= cards_shown(root)
        if viewer == "watcher":
            assert not hand and any("spectator" in t for t in written)
        for card in seen["view"].get("trick", []):
            assert card["card"] in cards_shown(root)
        # L'Empereur's pile lists its plays and the picture draws the last eight; Huit
        # américain's pile lists card codes and the picture draws its top (checked below).
        laid = [] if "top" in seen["view"] else seen["view"].get("pile", [])[-8:]
        for pile_card in laid:
            assert pile_card["card"] in cards_shown(root)
        if "top" in seen["view"]:
            assert seen["view"]["top"] in cards_shown(root)


@pytest.mark.parametrize("game_id", DICE_GAMES)
def test_the_dice_image_shows_the_dice_and_every_box_filled(game_id):
    engine = REGISTRY[game_id]
    state = played(engine, 25)
    seen = answer(engine, state, "ann")
    root = parse(view_svg(engine, seen))
    assert [g.get("data-die") for g in groups(root, "data-die")] == [str(d) for d in state.dice]
    filled = sum(len(sheet) for sheet in state.sheets)
    rows = groups(root, "data-box")
    assert sum(len(texts(row)) - 1 for row in rows) == filled and filled
    # one row per box of the sheet the game plays, in sheet order
    assert [row.get("data-box") for row in rows] == list(engine.options_type.sheet.boxes)


def test_the_yacht_image_writes_its_boxes_out_from_their_names():
    engine = REGISTRY["yacht"]
    root = parse(view_svg(engine, answer(engine, played(engine, 0), "ann")))
    labels = [texts(row)[0] for row in groups(root, "data-box")]
    assert labels == ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Full House",
                      "Four of a Kind", "Little Straight", "Big Straight", "Choice", "Yacht"]
    assert "Yacht" in texts(root)


def test_the_events_passed_are_listed_last_ten_at_most():
    engine = REGISTRY["huit-americain"]
    state = played(engine, 3)
    events = [{"type": "passed", "player": "bob"}] * 12
    written = texts(parse(view_svg(engine, answer(engine, state, "ann"), events)))
    assert written.count("bob: passed") == 10
    assert "Last events (the last 10 of 12)" in written


def test_a_game_without_a_drawing_of_its_own_still_gets_its_players_and_hand(monkeypatch):
    engine = REGISTRY["huit-americain"]
    monkeypatch.delitem(SCENES, engine.id)
    state = played(engine, 2)
    root = parse(view_svg(engine, answer(engine, state, "ann")))
    assert set(state.hands[0]) <= cards_shown(root)
    assert {g.get("data-player") for g in groups(root, "data-acting")} == set(state.players)
    assert engine.name in texts(root)
