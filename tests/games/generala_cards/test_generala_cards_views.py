"""Générala (cards): what the referee returns: scores, views, events, sealed legal moves."""

from __future__ import annotations

import msgspec

from referee.core.outcome import describe, event_for


def mid_deal(gc):
    # deal 2; c lost deal 1 and dealt; a led 9H, b laid X1, d is to act; e went out earlier
    return gc.build(["9H 2C", "X1 3S", "", "5C 7D", ""], trick=[("a", "9H"), ("b", "X1")],
                    dealer="c", deal=2, eliminated={"c": 1})


def test_a_view_shows_his_hand_the_trick_the_counts_and_who_is_out_and_nothing_else(gc):
    state = mid_deal(gc)
    view = gc.engine.view(state, "d")
    assert view == {
        "you": "d", "players": ["a", "b", "c", "d", "e"], "deal": 2, "dealer": "c",
        "leader": "a", "to_act": "d", "hand": ["5C", "7D"],
        "trick": [{"player": "a", "card": "9H"}, {"player": "b", "card": "X1"}],
        "cards": {"a": 1, "b": 1, "c": 0, "d": 2, "e": 0},
        "out_of_deal": ["e"], "out_of_match": {"c": 1}, "finished": False, "winner": None,
        # The rules are public: they decide good play (and a hint's sampling).
        "options": msgspec.structs.asdict(state.options),
    }
    for other in ("a", "b"):  # not the other hands, not the face-down cards
        hidden = set(state.hands[state.players.index(other)]) | set(state.discards)
        assert not hidden & set(str(view).replace("'", " ").split())


def test_a_view_for_someone_not_playing_shows_no_hand(gc):
    assert gc.engine.view(mid_deal(gc), "zed")["hand"] == []


def test_scores_give_cards_out_of_deal_out_of_match_and_deals_lost(gc):
    scores = gc.engine.scores(mid_deal(gc))
    assert scores["players"]["c"] == {"total": 0, "cards": 0, "out_of_deal": False,
                                      "out_of_match": True, "lost_deal": 1, "deals_lost": 1}
    assert scores["players"]["e"] == {"total": 1, "cards": 0, "out_of_deal": True,
                                      "out_of_match": False, "lost_deal": None, "deals_lost": 0}
    assert scores["players"]["d"]["cards"] == 2 and not scores["players"]["d"]["out_of_deal"]
    assert scores["winners"] == [] and scores["losers"] == ["c"] and scores["draw"] is False
    assert scores["deal"] == 2


def test_sealed_mode_lists_only_the_viewers_legal_moves(gc):
    state = mid_deal(gc)
    assert describe(gc.engine, state, [], now=0.0, viewer="a")["legal_moves"] == []
    mine = describe(gc.engine, state, [], now=0.0, viewer="d")
    assert [m["take"] for m in mine["legal_moves"]] == ["9H"]  # unable to follow, no joker
    assert mine["view"]["hand"] == ["5C", "7D"]


def test_events_of_a_trick_won(gc):
    state = gc.build(["5H 2C", "KH", "9H 2S"], dealer="c")
    state, events = gc.play(state, "a", "5H")
    assert events == [{"type": "card_played", "player": "a", "card": "5H", "joker": False}]
    state, events = gc.play(state, "b", "KH")
    assert events == [{"type": "card_played", "player": "b", "card": "KH", "joker": False},
                      {"type": "player_out", "player": "b", "deal": 1}]
    state, events = gc.play(state, "c", "9H")
    assert events == [{"type": "card_played", "player": "c", "card": "9H", "joker": False},
                      {"type": "trick_won", "player": "b", "card": "KH",
                       "cards": ["5H", "KH", "9H"]},
                      {"type": "trick_led_next", "player": "c"}]  # 9H beats 5H


def test_events_of_a_refusal(gc):
    state = gc.build(["5H 2C", "X1 3C", "2S", "4D"], trick=[("a", "5H"), ("b", "X1")])
    _, events = gc.refuse(state, "c", "5H")
    assert events == [{"type": "card_taken", "player": "c", "card": "5H", "discarded": ["X1"]},
                      {"type": "trick_led_next", "player": "b"}]


def test_events_of_a_deal_lost_the_next_deal_and_the_match_won(gc):
    state = gc.build(["5H", "9H", "2H 3H"], dealer="a")
    state, _ = gc.play(state, "a", "5H")
    state, _ = gc.play(state, "b", "9H")
    state, events = gc.play(state, "c", "2H")
    dealt = [e for e in events if e["type"] == "deal_dealt"]
    assert dealt == [{"type": "deal_dealt", "deal": 2, "dealer": "c", "dealer_plays": False,
                      "leader": "a", "cards": {"a": 27, "b": 27}}]
    hands = [e for e in events if e["type"] == "cards_dealt"]
    assert [(e["player"], e["count"]) for e in hands] == [("a", 27), ("b", 27)]
    for event in hands:  # each hand is told to its owner only
        owner = event["player"]
        other = "b" if owner == "a" else "a"
        assert event_for(event, owner)["cards"] == list(state.hands["ab".index(owner)])
        assert "cards" not in event_for(event, other)
        assert "private" not in event_for(event, other)
    two = gc.build(["5H 6H", "9H"], dealer="b")
    two, _ = gc.play(two, "a", "5H")
    _, events = gc.play(two, "b", "9H")
    assert events[-3:] == [{"type": "trick_won", "player": "b", "card": "9H",
                            "cards": ["5H", "9H"]},
                           {"type": "deal_lost", "player": "a", "deal": 1, "cards": 1},
                           {"type": "match_won", "player": "b", "deal": 1}]


def test_a_finished_match_view_names_the_winner(gc):
    two = gc.build(["5H 6H", "9H"], dealer="b")
    two, _ = gc.play(two, "a", "5H")
    two, _ = gc.play(two, "b", "9H")
    view = gc.engine.view(two, "b")
    assert view["finished"] and view["winner"] == "b" and view["to_act"] is None
    assert view["out_of_match"] == {"a": 1}
    assert gc.engine.view(two, "a")["hand"] == ["6H"]
