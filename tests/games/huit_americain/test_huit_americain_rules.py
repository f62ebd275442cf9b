"""Huit américain: one table-driven test per clause of the seed's rules (the default table).

Positions are hand-made with `position()`: the hands and the pile are given, the stock holds
every other card in a fixed order (the last card is drawn first).
"""

from __future__ import annotations

import dataclasses

import pytest

from referee.core.cards import standard_deck
from referee.core.errors import GameOver, IllegalMove, InvalidOptions, NotYourTurn
from referee.core.outcome import event_for
from referee.games.huit_americain import ENGINE
from referee.games.huit_americain.position import position
from referee.games.huit_americain.state import AGAIN, ATTACK, OVER, PLAY

NOW = 0.0


def move(state, kind, who, **fields):
    return ENGINE.apply(state, {"type": kind, "player": who, **fields}, now=NOW)


def lay(state, who, card, **fields):
    return move(state, "lay", who, card=card, **fields)


def types(events):
    return [e["type"] for e in events]


def legal(state):
    return ENGINE.legal_moves(state, now=NOW)


def refused_rule(state, kind, who, **fields):
    with pytest.raises(IllegalMove) as refused:
        move(state, kind, who, **fields)
    return refused.value.rule


# -- the deal ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players, decks, size", [
    (2, 1, 10), (2, 2, 15), (3, 1, 8), (3, 2, 12), (4, 1, 6), (4, 2, 9), (8, 1, 6), (11, 2, 9),
], ids=lambda v: str(v))
def test_each_player_is_dealt_the_seeds_count_for_players_and_decks(players, decks, size):
    names = tuple(f"p{i}" for i in range(players))
    state = ENGINE.new_match(names, ENGINE.resolve_options({"decks": decks}), "s", now=NOW)
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.pile) == 1
    assert len(state.stock) == 54 * decks - players * size - 1 > 0
    assert ENGINE.problems(state) == []


@pytest.mark.parametrize("players, decks", [(1, 1), (1, 2), (9, 1), (12, 2)])
def test_more_players_than_leave_a_stock_are_refused(players, decks):
    names = tuple(f"p{i}" for i in range(players))
    with pytest.raises(InvalidOptions):
        ENGINE.new_match(names, ENGINE.resolve_options({"decks": decks}), "s", now=NOW)


@pytest.mark.parametrize("players,decks", [(1, 1), (9, 1), (12, 2)])
def test_a_creation_request_for_a_player_count_the_decks_cannot_seat_is_a_validation_error(
        client, players, decks):
    response = client.post("/v1/games/huit-americain/matches", json={
        "players": [f"p{i}" for i in range(players)], "options": {"decks": decks}})
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == "validation_error", body
    assert "players" in body["errors"]


def test_the_turned_up_cards_effect_does_not_apply():
    seen = set()
    for seed in range(400):
        state = ENGINE.new_match(("a", "b", "c"), ENGINE.resolve_options({}), f"s{seed}",
                                 now=NOW)
        top = state.pile[-1]
        if top[0] in "AX7JT8":
            seen.add(top[0])
            # no attack, no reverse, no skip, no play-again: "a" plays, in seat order
            assert state.phase == PLAY and state.attack == 0, top
            assert state.current == 0 and state.direction == 1, top
            assert ENGINE.to_act(state, now=NOW) == ["a"]
            # an 8 turned up names no suit: its own suit and rank are in force
            if top[0] == "8":
                assert (state.suit, state.rank) == (top[1], "8")
    assert seen == set("AX7JT8")


def test_a_joker_turned_up_lets_anything_follow():
    state = position([["2C", "9H", "KS"], ["3D"]], ["X1"])
    assert state.suit is None
    assert {m["card"] for m in legal(state) if m["type"] == "lay"} == {"2C", "9H", "KS"}


# -- following --------------------------------------------------------------------------------
@pytest.mark.parametrize("pile, card, ok", [
    (["5H"], "9H", True),  # same suit
    (["5H"], "5C", True),  # same rank
    (["5H"], "9C", False),  # neither
    (["5H"], "8C", True),  # an 8 on anything
    (["5H"], "X2", True),  # a joker on anything
    (["5H", "X1"], "7H", True),  # after a joker, the card under it: its suit...
    (["5H", "X1"], "5S", True),  # ... or its rank
    (["5H", "X1"], "9C", False),
], ids=["same suit", "same rank", "neither", "eight on anything", "joker on anything",
        "after a joker its suit", "after a joker its rank", "after a joker neither"])
def test_a_card_follows_the_suit_or_rank_of_the_top_card(pile, card, ok):
    state = position([[card, "KD", "4D"], ["3D"]], pile)
    listed = any(m.get("card") == card for m in legal(state) if m["type"] == "lay")
    assert listed == ok
    fields = {"suit": "S"} if card[0] == "8" else {}
    if ok:
        new, events = lay(state, "ann", card, **fields)
        assert new.pile[-1] == card and card not in new.hands[0]
        assert "card_laid" in types(events)
    else:
        assert refused_rule(state, "lay", "ann", card=card) == "follow_suit_or_rank"


def test_a_card_not_in_hand_is_refused():
    state = position([["9H", "KD"], ["3D"]], ["5H"])
    assert refused_rule(state, "lay", "ann", card="7H") == "card_in_hand"
    assert refused_rule(state, "lay", "ann", card="ZZ") == "card_in_hand"


def test_a_player_who_cannot_lay_passes_by_default():
    state = position([["9C", "KD"], ["3D", "4D"]], ["5H"])
    assert legal(state) == [{"type": "pass", "player": "ann"}]
    assert refused_rule(state, "draw", "ann") == "stuck_passes"
    new, events = move(state, "pass", "ann")
    assert new.current == 1 and new.hands == state.hands and new.passes == 1
    assert types(events) == ["passed"]


def test_a_player_who_can_lay_may_not_pass():
    state = position([["9H", "KD"], ["3D"]], ["5H"])
    assert refused_rule(state, "pass", "ann") == "must_lay"


@pytest.mark.parametrize("stock, drawn, still_in_turn", [
    (["KC", "9H"], ["9H"], True),  # the drawn card follows: he must lay it
    (["9H", "KC"], ["KC"], False),  # it does not: his turn ends
], ids=["drawn card playable", "drawn card not playable"])
def test_draw_one_draws_a_card_then_lays_it_or_the_turn_ends(stock, drawn, still_in_turn):
    # (an explicit stock: the rest of the deck is left out, only the move matters here)
    state = position([["2C", "3C"], ["4D", "6D"]], ["5H"], stock=stock, when_stuck="draw_one")
    assert [m["type"] for m in legal(state)] == ["draw"]
    new, events = move(state, "draw", "ann")
    assert new.hands[0] == ("2C", "3C", *drawn)
    assert (new.current == 0) == still_in_turn
    if still_in_turn:
        assert [m["card"] for m in legal(new) if m["player"] == "ann"] == drawn
    assert event_for(events[0], "ann")["cards"] == drawn
    assert "cards" not in event_for(events[0], "bob")


def test_draw_until_playable_draws_until_a_card_follows():
    state = position([["2C", "3C"], ["4D"]], ["5H"], stock=["9H", "KC", "QS", "JD"],
                     when_stuck="draw_until_playable")
    new, events = move(state, "draw", "ann")
    assert new.hands[0] == ("2C", "3C", "JD", "QS", "KC", "9H")
    assert new.current == 0 and new.stock == ()
    assert events[0]["count"] == 4


def test_draw_until_playable_with_stock_and_pile_exhausted_passes_and_does_not_loop():
    state = position([["2C", "3C"], ["4D"]], ["5H"], stock=[], when_stuck="draw_until_playable")
    assert legal(state) == [{"type": "pass", "player": "ann"}]
    assert refused_rule(state, "draw", "ann") == "nothing_to_draw"


def test_when_the_stock_runs_out_the_pile_under_its_top_becomes_the_new_stock():
    pile = ["2S", "3S", "4S", "5H"]
    state = position([["2C", "3C"], ["4D"]], pile, stock=[], when_stuck="draw_one")
    new, events = move(state, "draw", "ann")
    assert types(events)[:2] == ["reshuffled", "cards_drawn"]
    assert events[0]["count"] == 3
    assert new.pile == ("5H",) and (new.suit, new.rank) == ("H", "5")
    assert len(new.stock) == 2 and len(new.hands[0]) == 3
    assert sorted(new.stock + new.hands[0][2:]) == ["2S", "3S", "4S"]
    assert new.step == state.step + 1


# -- the special cards --------------------------------------------------------------------------
def test_a_joker_makes_the_next_player_draw_four():
    state = position([["X1", "KD", "2C"], ["3D", "4D"], ["9S", "9C"]], ["5H"])
    new, events = lay(state, "ann", "X1")
    assert new.phase == ATTACK and new.attack == 4 and new.current == 1
    assert new.suit == "H" and new.rank == "5"  # the joker follows the card under it
    assert {"type": "effect", "effect": "draw_four", "player": "ann", "on": "bob",
            "penalty": 4} in events
    assert legal(new) == [{"type": "draw", "player": "bob"}]
    taken, events = move(new, "draw", "bob")
    assert len(taken.hands[1]) == 6 and taken.attack == 0
    assert taken.current == 2 and taken.phase == PLAY  # his turn ends


def test_an_ace_makes_the_next_player_draw_two_and_his_turn_ends():
    state = position([["AH", "KD", "2C"], ["3D", "4D"], ["9S", "9C"]], ["5H"])
    new, events = lay(state, "ann", "AH")
    assert new.phase == ATTACK and new.attack == 2 and new.current == 1
    assert {"type": "effect", "effect": "draw_two", "player": "ann", "on": "bob",
            "penalty": 2} in events
    assert legal(new) == [{"type": "draw", "player": "bob"}]
    taken, events = move(new, "draw", "bob")
    assert taken.hands[1] == ("3D", "4D") + tuple(reversed(state.stock[-2:]))
    assert taken.attack == 0 and taken.current == 2 and taken.phase == PLAY
    assert {"type": "effect", "effect": "attack_taken", "player": "bob", "penalty": 2,
            "drawn": 2} in events


def test_an_attack_larger_than_stock_and_pile_draws_what_there_is():
    # (an explicit stock: the rest of the deck is left out, only the draw matters here)
    state = position([["KD"], ["3D", "4D"], ["9S"]], ["5H", "2H", "X1"], stock=["KC"],
                     current=1, attack=4)
    taken, events = move(state, "draw", "bob")
    # One cards_drawn per stock: the card left, then the reshuffled pile.
    assert types(events) == ["cards_drawn", "reshuffled", "cards_drawn", "effect"]
    assert [e["count"] for e in events if e["type"] == "cards_drawn"] == [1, 2]
    assert sorted(taken.hands[1][2:]) == ["2H", "5H", "KC"]
    assert events[-1]["penalty"] == 4 and events[-1]["drawn"] == 3
    assert taken.stock == () and taken.pile == ("X1",) and taken.current == 2
    assert (taken.suit, taken.rank) == ("H", "2")  # the card under the joker still rules


@pytest.mark.parametrize("top, answer, penalty", [
    ("X1", "X2", 8),  # joker on joker: 4 more
    ("AH", "AS", 4),  # ace on ace: 2 more
    ("AH", "X2", 6),  # a joker answers an ace: 4 more
], ids=["joker answers joker", "ace answers ace", "joker answers ace"])
def test_an_attack_is_passed_on_with_more_by_a_card_as_strong(top, answer, penalty):
    first = 4 if top[0] == "X" else 2
    state = position([["KD", "2C"], [answer, "4D", "5D"], ["9S", "9C"]], ["5H", top],
                     current=1, attack=first)
    new, events = lay(state, "bob", answer)
    assert new.phase == ATTACK and new.attack == penalty and new.current == 2
    taken, _ = move(new, "draw", "cy")
    assert len(taken.hands[2]) == 2 + penalty and taken.current == 0


def test_an_ace_cannot_answer_a_joker():
    state = position([["KD"], ["AH", "4D"], ["9S"]], ["5H", "X1"], current=1, attack=4)
    assert refused_rule(state, "lay", "bob", card="AH") == "answer_attack"
    assert [m["type"] for m in legal(state) if m["player"] == "bob"] == ["draw"]


@pytest.mark.parametrize("top, attack", [("X1", 4), ("AH", 2), ("AC", 6)])
def test_an_eight_stops_any_attack_and_names_the_suit(top, attack):
    state = position([["KD", "2C"], ["8C", "4D"], ["9S", "9C"]], ["5H", top], current=1,
                     attack=attack)
    new, events = lay(state, "bob", "8C", suit="S")
    assert new.attack == 0 and new.phase == PLAY and new.current == 2
    assert new.suit == "S" and new.rank is None
    assert [e.get("effect") for e in events if e["type"] == "effect"] == ["stop", "change_suit"]


def test_under_attack_a_plain_card_or_a_pass_is_refused():
    state = position([["KD"], ["5H", "4D"], ["9S"]], ["5S", "AH"], current=1, attack=2)
    assert refused_rule(state, "lay", "bob", card="5H") == "answer_attack"
    assert refused_rule(state, "pass", "bob") == "must_draw"


def test_an_eight_may_be_laid_on_anything_and_names_the_suit_to_follow():
    state = position([["8C", "2C"], ["9S", "9H"]], ["5H"])
    eights = [m for m in legal(state) if m.get("card") == "8C" and not m["announce"]]
    assert [m["suit"] for m in eights] == ["C", "D", "H", "S"]
    assert refused_rule(state, "lay", "ann", card="8C") == "name_a_suit"
    new, events = lay(state, "ann", "8C", suit="S")
    assert new.suit == "S" and new.rank is None
    assert {m["card"] for m in legal(new) if m["type"] == "lay"} == {"9S"}


def test_a_suit_given_for_a_card_that_names_none_is_refused():
    state = position([["9H", "2C"], ["9S"]], ["5H"])
    assert refused_rule(state, "lay", "ann", card="9H", suit="S") == "name_a_suit"
    assert refused_rule(state, "lay", "ann", card="9H", target="bob") == "choose_a_player"


def test_a_jack_reverses_the_direction():
    state = position([["JH", "2C"], ["9S"], ["9C"], ["9D"]], ["5H"])
    new, events = lay(state, "ann", "JH")
    assert new.direction == -1 and new.current == 3
    again, _ = lay(position([["2C"], ["9S"], ["9C"], ["JD", "9D"]], ["5D"], current=3,
                            direction=-1), "dee", "JD")
    assert again.direction == 1 and again.current == 0


def test_a_jack_with_two_players_hands_the_turn_to_the_other():
    new, _ = lay(position([["JH", "2C"], ["9S"]], ["5H"]), "ann", "JH")
    assert new.current == 1 and new.direction == -1


@pytest.mark.parametrize("players, expected", [(2, 0), (3, 2), (4, 2)])
def test_a_seven_makes_the_next_player_lose_his_turn(players, expected):
    hands = [["7H", "2C"]] + [["9S"]] * (players - 1)
    new, events = lay(position(hands, ["5H"]), "ann", "7H")
    assert new.current == expected
    assert {"type": "effect", "effect": "skip", "player": "ann", "skipped": "bob"} in events


def test_a_ten_makes_its_player_lay_again():
    state = position([["TH", "2H", "3C"], ["9S"]], ["5H"])
    new, events = lay(state, "ann", "TH")
    assert new.phase == AGAIN and new.current == 0
    listed = legal(new)
    assert {"type": "lay", "player": "ann", "card": "2H", "announce": True} in listed
    assert {"type": "draw", "player": "ann"} in listed
    after, _ = lay(new, "ann", "2H", announce=True)
    assert after.current == 1 and after.phase == PLAY


def test_a_ten_may_be_followed_by_drawing_one_which_ends_the_turn():
    state = position([["TH", "2H", "3C"], ["9S"]], ["5H"])
    new, _ = lay(state, "ann", "TH")
    after, events = move(new, "draw", "ann")
    assert len(after.hands[0]) == 3 and after.current == 1 and after.phase == PLAY
    assert refused_rule(new, "pass", "ann") == "play_again"


# -- "Carte" and "Contre-carte" -------------------------------------------------------------------
def test_laying_the_next_to_last_card_without_carte_opens_a_challenge_to_every_opponent():
    state = position([["9H", "2C"], ["9S", "3S"], ["9C", "3C"]], ["5H"])
    new, events = lay(state, "ann", "9H")
    assert new.unannounced == 0
    assert ENGINE.to_act(new, now=NOW) == ["bob", "cy"]
    assert [m for m in legal(new) if m["type"] == "challenge"] == [
        {"type": "challenge", "player": "bob"}, {"type": "challenge", "player": "cy"}]
    after, events = move(new, "challenge", "cy")
    assert len(after.hands[0]) == 3 and after.unannounced == -1
    assert after.current == 1  # the challenge does not move the turn
    assert types(events) == ["challenge", "cards_drawn"]


def test_announcing_carte_leaves_nothing_to_challenge():
    state = position([["9H", "2C"], ["9S", "3S"]], ["5H"])
    new, events = lay(state, "ann", "9H", announce=True)
    assert new.unannounced == -1 and "carte" in types(events)
    assert refused_rule(new, "challenge", "bob") == "contre_carte"


def test_the_challenge_closes_when_the_next_card_is_laid():
    state = position([["9H", "2C"], ["9S", "3S", "4S"]], ["5H"])
    new, _ = lay(state, "ann", "9H")
    after, _ = lay(new, "bob", "9S")
    assert after.unannounced == -1
    assert not [m for m in legal(after) if m["type"] == "challenge"]


def test_carte_is_announced_only_with_the_next_to_last_card():
    state = position([["9H", "2C", "3C"], ["9S"]], ["5H"])
    assert refused_rule(state, "lay", "ann", card="9H", announce=True) == "carte"
    assert all(not m["announce"] for m in legal(state) if m["type"] == "lay")


def test_a_player_cannot_challenge_himself():
    state = position([["2C"], ["9S", "3S"]], ["5H"], unannounced=0, current=1)
    assert refused_rule(state, "challenge", "ann") == "contre_carte"


# -- the end of a round, points and the match ------------------------------------------------
POINTS = [("KS", 10), ("QS", 10), ("2S", 2), ("3S", 3), ("4S", 4), ("5S", 5), ("6S", 6),
          ("9S", 9), ("JS", 20), ("TS", 20), ("7S", 20), ("X1", 50), ("AS", 50), ("8S", 50)]


@pytest.mark.parametrize("card, points", POINTS, ids=[c for c, _ in POINTS])
def test_a_card_left_in_hand_costs_its_points(card, points):
    state = position([["9H"], [card], [card if card != "X1" else "X2"]], ["5H"])
    new, events = lay(state, "ann", "9H")
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["points"] == {"ann": 0, "bob": points, "cy": points}
    assert ended["out"] == ["ann"] and not ended["blocked"]
    assert new.totals == (0, points, points) and new.round_points == (0, points, points)


def test_going_out_deals_a_new_round_started_by_the_next_seat():
    state = position([["9H"], ["KS"], ["QS"]], ["5H"], round=1)
    new, events = lay(state, "ann", "9H")
    assert new.round == 2 and new.current == 1 and new.phase == PLAY
    assert [len(h) for h in new.hands] == [8, 8, 8]
    assert "round_started" in types(events)
    dealt = [e for e in events if e["type"] == "cards_dealt"]
    assert event_for(dealt[0], "ann")["cards"] == list(new.hands[0])
    assert "cards" not in event_for(dealt[0], "bob")
    assert ENGINE.problems(new) == []


def test_going_out_with_a_special_card_ends_the_round_without_its_effect():
    state = position([["AH"], ["KS"], ["QS"]], ["5H"])
    new, events = lay(state, "ann", "AH")
    assert "round_ended" in types(events) and "effect" not in types(events)


@pytest.mark.parametrize("totals, final, winners", [
    ((40, 70, 95), (51, 70, 105), ["ann"]),
    ((49, 60, 95), (60, 60, 105), ["ann", "bob"]),
    ((40, 70, 60), (51, 70, 70), []),
], ids=["lowest wins", "tied lowest share the win", "below the target the match goes on"])
def test_the_match_ends_when_a_total_reaches_the_target_and_the_lowest_wins(totals, final,
                                                                          winners):
    # bob goes out; ann keeps 2+9 = 11 points, cy keeps 10
    state = position([["9C", "2D"], ["5S"], ["KS"]], ["5H"], current=1, totals=totals)
    new, events = lay(state, "bob", "5S")
    ended = [e for e in events if e["type"] == "match_ended"]
    assert new.totals == final
    if winners:
        assert ENGINE.is_finished(new) and new.phase == OVER
        assert len(ended) == 1 and ended[0]["winners"] == winners
        assert ended[0]["totals"] == dict(zip(new.players, final))
        result = ENGINE.scores(new)
        assert result["winners"] == winners and result["draw"] is False
        assert ENGINE.legal_moves(new, now=NOW) == [] and ENGINE.to_act(new, now=NOW) == []
        with pytest.raises(GameOver):
            move(new, "pass", "ann")
    else:
        assert not ended and not ENGINE.is_finished(new) and new.round == 2
        assert ENGINE.scores(new)["winners"] == []


def test_every_player_tied_at_the_lowest_total_is_a_drawn_match():
    state = position([["9C"], ["5S"]], ["5H"], current=1, totals=(91, 100), target=100)
    new, _ = lay(state, "bob", "5S")
    assert new.totals == (100, 100) and ENGINE.is_finished(new)
    result = ENGINE.scores(new)
    assert result["winners"] == ["ann", "bob"] and result["draw"] is True


def test_scores_give_each_players_total_cards_in_hand_and_last_round_points():
    state = position([["9H", "2C"], ["KS", "QS", "3D"], ["4C"]], ["5H"], current=0,
                     totals=(5, 7, 9), round_points=(1, 2, 3))
    result = ENGINE.scores(state)
    assert result["players"] == {
        "ann": {"total": 5, "cards": 2, "round_points": 1},
        "bob": {"total": 7, "cards": 3, "round_points": 2},
        "cy": {"total": 9, "cards": 1, "round_points": 3}}
    assert result["winners"] == [] and result["draw"] is False
    # ann goes out: bob adds 10 + 10 + 3, cy 4
    done, _ = lay(position([["9H"], ["KS", "QS", "3D"], ["4C"]], ["5H"], totals=(5, 7, 9)),
                  "ann", "9H")
    after = ENGINE.scores(done)["players"]
    assert {p: (v["total"], v["round_points"]) for p, v in after.items()} == {
        "ann": (5, 0), "bob": (30, 23), "cy": (13, 4)}
    assert all(v["cards"] == 8 for v in after.values())  # the next round is dealt


def test_the_target_option_changes_when_the_match_ends():
    state = position([["9C", "2D"], ["5S"], ["KS"]], ["5H"], current=1, target=10)
    new, events = lay(state, "bob", "5S")
    assert ENGINE.is_finished(new)
    assert ENGINE.scores(new)["winners"] == ["bob"]


def test_a_round_where_every_player_passes_in_turn_ends_blocked():
    state = position([["9C", "2D"], ["3S"], ["KS", "QC"]], ["5H"])
    for who in ("ann", "bob"):
        state, events = move(state, "pass", who)
        assert "round_ended" not in types(events)
    state, events = move(state, "pass", "cy")
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["blocked"] and ended["out"] == []
    assert ended["points"] == {"ann": 11, "bob": 3, "cy": 20}


def _forced_loop(**options):
    """ann cannot follow the JC and draws (draw_one) the one card under it, the 4C, which she
    must lay; a 4 makes every opponent draw one (all_draw_one), so the next player draws the
    JC back, the only card he can lay; a jack reverses the direction, back to ann, and so on
    with bob and dee in turn. cy, who never gets a turn, holds every other card."""
    hands = [["7H", "QH", "2S"], ["KD", "5D"], [], ["9D", "6D"]]
    placed = {c for h in hands for c in h} | {"4C", "JC"}
    hands[2] = [c for c in standard_deck(jokers=2) if c not in placed]
    return position(hands, ["4C", "JC"], stock=[], when_stuck="draw_one",
                    effect_all_draw_one="4", **options)


def test_a_round_locked_in_a_loop_of_forced_moves_ends_blocked():
    # « Si aucune carte ne peut être jouée, le joueur passe son tour »: a round in which
    # nobody can ever change anything is blocked, whether the players pass or, as here, the
    # only moves the rules leave them bring the same table back for ever.
    state = _forced_loop()
    assert ENGINE.problems(state) == []
    step = state.step
    state, events = move(state, "draw", "ann")  # the one card under the top comes back
    assert {"type": "reshuffled", "count": 1,
            "chance": {"step": step, "draw": "shuffle", "items": ["4C"]}} in events
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["blocked"] and ended["endless"] and ended["out"] == []
    assert ended["points"]["ann"] == 20 + 10 + 2 + 4  # she holds the 4C she drew
    assert ENGINE.is_finished(state) and ENGINE.problems(state) == []  # cy's hand is 850


def test_a_loop_is_blocked_only_while_nobody_has_a_choice():
    # the same table, but bob holds a second card he could lay on the 4C: the loop is his
    # to break, so play goes on
    state = _forced_loop()
    state = dataclasses.replace(state, hands=(state.hands[0], ("KD", "5D", "4D"),
                                              tuple(c for c in state.hands[2] if c != "4D"),
                                              state.hands[3]))
    assert ENGINE.problems(state) == []
    state, events = move(state, "draw", "ann")
    assert "round_ended" not in types(events) and state.round == 1
    state, events = lay(state, "ann", "4C")
    assert len(legal(state)) == 2 and state.round == 1


def test_a_blocked_round_from_passes_is_not_called_endless():
    state = position([["9C", "2D"], ["3S"], ["KS", "QC"]], ["5H"], passes=2)
    _, events = move(state, "pass", "ann")
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["blocked"] and ended["endless"] is False


def test_a_card_laid_resets_the_count_of_passes():
    state = position([["9C", "2D"], ["3S", "5S"], ["KS", "QC"]], ["5H"], passes=0)
    state, _ = move(state, "pass", "ann")
    state, _ = lay(state, "bob", "5S")
    assert state.passes == 0


# -- turns and refusals ------------------------------------------------------------------------
def test_moves_out_of_turn_are_refused_without_the_house_rule():
    state = position([["9H", "2C"], ["9S", "5C"]], ["5H"])
    for kind, fields in (("lay", {"card": "5C"}), ("pass", {}), ("draw", {})):
        with pytest.raises(NotYourTurn):
            move(state, kind, "bob", **fields)
    with pytest.raises(NotYourTurn):
        move(state, "pass", "zed")


# -- views -------------------------------------------------------------------------------------
def test_a_view_shows_own_hand_top_suit_direction_attack_and_counts_only():
    state = position([["9H", "2C"], ["9S", "5C", "KD"]], ["5H", "AH"], current=1, attack=2)
    view = ENGINE.view(state, "ann")
    assert view["hand"] == ["9H", "2C"]
    assert view["top"] == "AH" and view["suit"] == "H" and view["attack"] == 2
    assert view["hand_counts"] == {"ann": 2, "bob": 3}
    assert view["stock_count"] == len(state.stock) and view["direction"] == 1
    text = repr(view)
    assert "9S" not in text and "KD" not in text and "seed" not in text
    assert "step" not in view and "stock" not in view
