"""L'Empereur: one table-driven test per clause of the rule text (docs/rules/empereur.md)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from referee.core.cards import shuffled
from referee.core.errors import GameOver, IllegalMove, InvalidOptions, NotYourTurn
from referee.games.empereur import ENGINE
from referee.games.empereur.exchanges import gift_plan
from referee.games.empereur.ranks import CARD_STRENGTH
from referee.games.empereur.testing import table
from referee.service.errors import Refused
from tests.support import created

NOW = 0.0


def sound(state):
    assert ENGINE.problems(state) == []
    return ENGINE.decode(ENGINE.encode(state))


def act(state, kind, player, **fields):
    return ENGINE.apply(sound(state), {"type": kind, "player": player, **fields}, now=NOW)


def kinds(events):
    return [e["type"] for e in events]


def drawn_by(events, player):
    return sum(e["count"] for e in events if e["type"] == "cards_drawn" and e["player"] == player)


# -- options and the deal ------------------------------------------------------------------------
def test_options_have_the_documented_defaults():
    assert ENGINE.resolve_options({}) == {"jokers": 2, "mode": "normal", "rounds": 3,
                                          "target_points": 500}


@pytest.mark.parametrize("given", [
    pytest.param({"jokers": 3}, id="three jokers"),
    pytest.param({"jokers": -1}, id="negative jokers"),
    pytest.param({"mode": "blitz"}, id="unknown mode"),
    pytest.param({"rounds": 0}, id="zero rounds"),
    pytest.param({"rounds": 51}, id="too many rounds"),
    pytest.param({"target_points": 0}, id="zero target"),
    pytest.param({"target_points": 10001}, id="target too high"),
    pytest.param({"colour": "red"}, id="unknown option"),
])
def test_options_out_of_range_are_refused(given):
    with pytest.raises(InvalidOptions):
        ENGINE.resolve_options(given)


@pytest.mark.parametrize("count", [1, 7])
def test_player_count_outside_two_to_six_is_refused(count):
    with pytest.raises(Refused, match="takes 2 to 6 players") as refused:
        created(ENGINE, count)
    assert refused.value.code == "validation_error"


@pytest.mark.parametrize("players,jokers", [(2, 0), (3, 1), (4, 2), (6, 2)])
def test_a_round_deals_seven_cards_each_and_the_rest_is_the_stock(players, jokers):
    ids = tuple(f"p{i}" for i in range(players))
    state = ENGINE.new_match(ids, ENGINE.resolve_options({"jokers": jokers}), "deal", now=NOW)
    assert ENGINE.problems(state) == []
    assert all(len(h) == 7 for h in state.hands)
    assert len(state.stock) == 52 + jokers - 7 * players
    assert state.current == (state.dealer + 1) % players
    assert ENGINE.to_act(state, now=NOW) == [ids[state.current]]


def _dealer_draws(seed, players=6):
    ids = tuple(f"p{i}" for i in range(players))
    state = ENGINE.new_match(ids, ENGINE.resolve_options({}), seed, now=NOW)
    return state, [e for e in ENGINE.opening_events(state) if e["type"] == "dealer_draw"]


def test_the_first_rounds_dealer_draws_are_in_the_creation_events():
    # « chaque joueur tire une carte »: the first round's draws are public like every later
    # round's; the creation outcome carries them, then the deal (each hand to its owner).
    state = ENGINE.new_match(("a", "b", "c"), ENGINE.resolve_options({}), "first", now=NOW)
    events = ENGINE.opening_events(state)
    assert kinds(events)[:2] == ["round_started", "dealer_draw"]
    chosen = next(e for e in events if e["type"] == "dealer_chosen")
    assert chosen == {"type": "dealer_chosen", "round": 1, "player": state.players[state.dealer]}
    dealt = {e["player"]: e["private"]["cards"] for e in events if e["type"] == "hand_dealt"}
    assert dealt == {p: list(h) for p, h in zip(state.players, state.hands)}
    assert ENGINE.opening_events(state) == events  # replayed from the seed: the same draws


def test_the_highest_draw_deals_and_ties_redraw_among_the_tied():
    for k in range(300):
        state, draws = _dealer_draws(f"tie-{k}")
        if len(draws) > 1:
            break
    else:  # pragma: no cover
        pytest.fail("no tie met")
    first, *more = draws
    tops = [d["player"] for d in first["draws"]
            if CARD_STRENGTH[d["card"]] == max(CARD_STRENGTH[x["card"]] for x in first["draws"])]
    assert first["tied"] == tops and len(tops) > 1
    assert [d["player"] for d in more[0]["draws"]] == tops
    last = draws[-1]
    best = max(last["draws"], key=lambda d: CARD_STRENGTH[d["card"]])
    assert last["tied"] == []
    assert state.players[state.dealer] == best["player"]


def test_a_joker_drawn_for_the_deal_is_highest():
    for k in range(300):
        state, draws = _dealer_draws(f"joker-{k}")
        if len(draws) == 1 and any(d["card"][0] == "X" for d in draws[0]["draws"]):
            joker = next(d["player"] for d in draws[0]["draws"] if d["card"][0] == "X")
            assert state.players[state.dealer] == joker
            return
    pytest.fail("no single joker draw met")  # pragma: no cover


# -- laying cards --------------------------------------------------------------------------------
@pytest.mark.parametrize("cards,rank", [
    pytest.param(["5C"], "5", id="one card"),
    pytest.param(["5C", "5D", "5H"], "5", id="three of a rank"),
    pytest.param(["3C"], "3", id="the lowest rank"),
    pytest.param(["2C"], "2", id="a two"),
    pytest.param(["5C", "X1"], "5", id="naturals and a joker"),
    pytest.param(["X1", "X2"], "9", id="two jokers named nine"),
])
def test_on_an_empty_pile_any_number_of_one_rank_may_be_laid(cards, rank):
    state = table([["5C", "5D", "5H", "3C", "2C", "X1", "X2", "KS"], ["9C"], ["9D"]])
    after, events = act(state, "play", "a", cards=cards, rank=rank)
    assert events[0] == {"type": "cards_played", "player": "a", "rank": rank,
                         "cards": sorted(cards, key=lambda c: (CARD_STRENGTH[c], c))}
    if rank != "2":  # a two clears the pile at once
        assert list(after.pile) == events[0]["cards"] and set(after.pile_ranks) == {rank}


@pytest.mark.parametrize("cards,rank,rule", [
    pytest.param(["5C", "6D"], None, "one_rank", id="two ranks together"),
    pytest.param(["4C"], None, "at_least_top", id="lower than the top"),
    pytest.param(["X1"], "4", "at_least_top", id="joker named lower than the top"),
    pytest.param(["X1"], None, "name_joker", id="joker without a named rank"),
    pytest.param(["5C", "X1"], "7", "named_rank", id="joker named apart from its naturals"),
    pytest.param(["5C"], "Z", "named_rank", id="unknown named rank"),
    pytest.param(["X1"], ["5"], "named_rank", id="a named rank that is not a string"),
    pytest.param(["X1"], 5, "named_rank", id="a named rank that is a number"),
    pytest.param(["AH"], None, "cards_in_hand", id="card not in hand"),
    pytest.param(["5C", "5C"], None, "cards_in_hand", id="same card twice"),
    pytest.param(["ZZ"], None, "cards_in_hand", id="not a card"),
    pytest.param([], None, "play_cards", id="no card"),
    pytest.param(["2C", "2D"], None, "two_alone", id="two twos"),
    pytest.param(["2C", "X1"], "2", "two_alone", id="a two with a joker"),
])
def test_plays_against_the_rules_are_refused_with_their_rule(cards, rank, rule):
    state = table([["4C", "5C", "6D", "2C", "2D", "X1"], ["9C"], ["9D"]],
                  pile=[("5H", "5")], current=0, last_player=2)
    fields = {"cards": cards} if rank is None else {"cards": cards, "rank": rank}
    with pytest.raises(IllegalMove) as err:
        act(state, "play", "a", **fields)
    assert err.value.rule == rule


@pytest.mark.parametrize("cards,rank", [
    pytest.param(["5C"], "5", id="the same rank"),
    pytest.param(["6D"], "6", id="a higher rank"),
    pytest.param(["X1"], "5", id="a joker named the same rank"),
    pytest.param(["2C"], "2", id="a two"),
])
def test_on_a_pile_a_rank_at_least_the_top_may_be_laid(cards, rank):
    state = table([["4C", "5C", "6D", "2C", "X1", "KS"], ["9C"], ["9D"]],
                  pile=[("5H", "5")], last_player=2)
    after, _ = act(state, "play", "a", cards=cards, rank=rank)
    assert rank == "2" or after.pile_ranks[-1] == rank


SEED_ORDER = "3 4 5 6 7 8 9 T J Q K A 2".split()  # the seed's order, low to high


@pytest.mark.parametrize("top", SEED_ORDER[:-1])  # a two never stays on the pile
def test_the_ranks_run_from_three_up_to_ace_then_two(top):
    hand = [r + "C" for r in SEED_ORDER]
    state = table([hand, ["9H"], ["9S"]], pile=[(top + "D", top)], jokers=0, last_player=2)
    listed = [m["rank"] for m in ENGINE.legal_moves(state, now=NOW) if m["type"] == "play"]
    assert listed == SEED_ORDER[SEED_ORDER.index(top):]
    below = SEED_ORDER[SEED_ORDER.index(top) - 1] if top != "3" else None
    if below:
        with pytest.raises(IllegalMove) as err:
            act(state, "play", "a", cards=[below + "C"])
        assert err.value.rule == "at_least_top"


def test_a_joker_counts_as_its_named_rank_while_on_the_pile():
    state = table([["X1", "KS"], ["QC", "KC"], ["9D"]])
    after, events = act(state, "play", "a", cards=["X1"], rank="Q")
    assert after.pile_ranks == ("Q",)
    assert events[0]["rank"] == "Q"
    moves = ENGINE.legal_moves(after, now=NOW)
    assert {m["rank"] for m in moves if m["type"] == "play"} == {"Q", "K"}


def test_listed_moves_share_no_card_list():
    state = table([["7C", "X1", "X2"], ["9C"], ["9D"]])
    lists = [m["cards"] for m in ENGINE.legal_moves(state, now=NOW) if m["type"] == "play"]
    assert len({id(c) for c in lists}) == len(lists)


def test_equivalent_cards_are_accepted_whatever_their_suits():
    state = table([["7C", "7D", "7H", "X1", "X2"], ["9C"], ["9D"]])
    listed = [m for m in ENGINE.legal_moves(state, now=NOW)
              if m["type"] == "play" and m["rank"] == "7" and len(m["cards"]) == 3]
    assert {tuple(m["cards"]) for m in listed} == {("7C", "7D", "7H"), ("7C", "7D", "X1"),
                                                   ("7C", "X1", "X2")}
    after, _ = act(state, "play", "a", cards=["X2", "7H"], rank="7")
    assert sorted(after.pile) == ["7H", "X2"]


# -- drawing and passing ---------------------------------------------------------------------------
def test_drawing_instead_of_playing_then_playing():
    state = table([["5C", "9S"], ["9C"], ["9D"]], stock=["KH"], pile=[("6H", "6")],
                  last_player=2)
    after, events = act(state, "draw", "a")
    assert "KH" in after.hands[0] and after.drawn and after.current == 0
    assert events[0]["private"] == {"player": "a", "cards": ["KH"]}
    moves = ENGINE.legal_moves(after, now=NOW)
    assert {"type": "pass", "player": "a"} in moves
    assert not any(m["type"] == "draw" for m in moves)
    after, _ = act(after, "play", "a", cards=["KH"], rank="K")
    assert after.current == 1


def test_a_player_who_can_play_may_still_draw_and_then_pass():
    state = table([["5C", "9S"], ["9C"], ["9D"]], stock=["KH"])
    after, _ = act(state, "draw", "a")
    after, events = act(after, "pass", "a")
    assert after.current == 1 and not after.drawn
    assert kinds(events) == ["passed", "turn"]


@pytest.mark.parametrize("kind,drawn,rule", [
    pytest.param("pass", False, "draw_before_pass", id="pass before drawing"),
    pytest.param("draw", True, "one_draw", id="second draw"),
    pytest.param("give", False, "no_exchange", id="give outside the exchange"),
    pytest.param("shout", False, "move_type", id="unknown move"),
])
def test_turn_moves_out_of_order_are_refused(kind, drawn, rule):
    state = table([["5C", "9S"], ["9C"], ["9D"]], drawn=drawn)
    with pytest.raises(IllegalMove) as err:
        act(state, kind, "a", card="5C", to="b")
    assert err.value.rule == rule


def test_only_the_player_whose_turn_it_is_may_move():
    state = table([["5C", "9S"], ["9C"], ["9D"]])
    with pytest.raises(NotYourTurn):
        act(state, "draw", "b")
    with pytest.raises(NotYourTurn):
        act(state, "draw", "zed")


# -- the pile coming back ----------------------------------------------------------------------------
def test_the_pile_goes_under_the_stock_when_play_comes_back_to_its_last_player():
    state = table([["5C", "9S"], ["4C", "3C"], ["3D", "4D"]], stock=["KH", "KS"])
    state, _ = act(state, "play", "a", cards=["9S"], rank="9")
    state, _ = act(state, "draw", "b")
    state, _ = act(state, "pass", "b")
    state, _ = act(state, "draw", "c")
    state, events = act(state, "pass", "c")
    assert "pile_cleared" in kinds(events)
    assert state.pile == () and state.last_player is None
    assert state.stock[-1] == "9S"
    assert state.current == 0 and not state.drawn


def test_a_player_who_passed_may_play_again_on_the_same_pile():
    state = table([["5C", "9S", "3S"], ["6C", "3C"], ["3D", "4D"]], stock=["KH", "TS"])
    state, _ = act(state, "play", "a", cards=["5C"], rank="5")
    state, _ = act(state, "draw", "b")  # b draws KH and passes although he holds a six
    state, _ = act(state, "pass", "b")
    state, _ = act(state, "draw", "c")
    state, _ = act(state, "pass", "c")
    assert state.pile == ()  # came back to a: cleared, a leads
    state, _ = act(state, "play", "a", cards=["9S"], rank="9")
    state, _ = act(state, "draw", "b")
    state, _ = act(state, "pass", "b")
    state, _ = act(state, "play", "c", cards=["TS"], rank="T")
    assert state.current == 0
    state, _ = act(state, "draw", "a")
    state, _ = act(state, "pass", "a")
    after, _ = act(state, "play", "b", cards=["KH"], rank="K")
    assert after.pile_ranks[-1] == "K"


# -- the two ---------------------------------------------------------------------------------------
def test_a_two_makes_every_other_player_draw_clears_the_pile_and_its_player_leads():
    state = table([["2C", "9S"], ["4C"], ["3D"]], stock=["KH", "KS", "QD"],
                  pile=[("8H", "8")], last_player=2)
    after, events = act(state, "play", "a", cards=["2C"], rank="2")
    assert drawn_by(events, "b") == 1 and drawn_by(events, "c") == 1
    assert drawn_by(events, "a") == 0
    assert after.pile == () and after.current == 0 and not after.drawn
    assert kinds(events)[-2:] == ["pile_cleared", "turn"]
    assert after.stock[-2:] == ("8H", "2C")


def test_a_two_makes_only_the_players_still_in_draw():
    state = table([["2C", "9S"], [], ["4C"], ["3D"]], stock=["KH", "KS", "QD"],
                  roles=["", "elect", "", ""], mode="mirror_normal")
    after, events = act(state, "play", "a", cards=["2C"], rank="2")
    assert [e["player"] for e in events if e["type"] == "cards_drawn"] == ["c", "d"]
    assert after.hands[1] == () and after.current == 0


def test_mirror_going_out_on_a_two_lets_the_next_player_still_in_lead():
    state = table([["2C"], ["4C"], ["3D"]], stock=["KH", "KS"], mode="mirror_normal")
    after, events = act(state, "play", "a", cards=["2C"], rank="2")
    assert drawn_by(events, "b") == 1 and drawn_by(events, "c") == 1
    assert after.roles == ("elect", "", "") and after.pile == ()
    assert after.current == 1 and not after.drawn


def test_a_two_cannot_be_answered_so_nobody_else_gets_a_turn_on_it():
    # b and c hold twos and jokers: they never get to lay them on a's two
    state = table([["2C", "9S"], ["2D", "X1"], ["2H", "X2"]], stock=["KH", "KS"])
    after, _ = act(state, "play", "a", cards=["2C"], rank="2")
    assert ENGINE.to_act(after, now=NOW) == ["a"]
    assert after.pile == ()


def test_a_joker_named_two_is_a_two():
    state = table([["X1", "9S"], ["4C"], ["3D"]], stock=["KH", "KS"])
    after, events = act(state, "play", "a", cards=["X1"], rank="2")
    assert "two_played" in kinds(events)
    assert after.pile == () and after.current == 0


# -- the draw penalty ------------------------------------------------------------------------------
@pytest.mark.parametrize("pile,cards,rank,penalty", [
    pytest.param([("5H", "5")], ["5C"], "5", 1, id="seed: a five on a five draws one"),
    pytest.param([("4H", "4"), ("4S", "4")], ["4C", "4D"], "4", 3,
                 id="seed: two fours on two fours draws three"),
    pytest.param([("6H", "6")], ["7C", "7D"], "7", 1, id="seed: two sevens on a six draws one"),
    pytest.param([("6H", "6")], ["7C"], "7", 0, id="a seven on a six draws nothing"),
    pytest.param([], ["7C", "7D", "7H"], "7", 2, id="three sevens led draws two"),
    pytest.param([("5H", "5")], ["X1"], "5", 1, id="a joker named five on a five draws one"),
    pytest.param([("5H", "5"), ("X2", "7")], ["7C"], "7", 1,
                 id="a seven on a joker named seven draws one"),
])
def test_a_run_of_one_rank_on_top_makes_the_next_player_draw_one_less(pile, cards, rank,
                                                                       penalty):
    state = table([["4C", "4D", "5C", "7C", "7D", "7H", "X1", "KS"], ["3C"], ["3D"]], pile=pile,
                  stock=["QH", "QS", "QD", "JC"], last_player=2 if pile else None)
    after, events = act(state, "play", "a", cards=cards, rank=rank)
    assert drawn_by(events, "b") == penalty
    assert len(after.hands[1]) == 1 + penalty
    assert [e["count"] for e in events if e["type"] == "penalty"] == ([penalty] if penalty else [])
    # then he plays his turn normally: he may still draw once
    assert after.current == 1 and not after.drawn
    assert {"type": "draw", "player": "b"} in ENGINE.legal_moves(after, now=NOW)


def test_the_penalty_skips_players_out_of_the_round():
    state = table([["5C", "KS"], [], ["3D"], ["4D"]], pile=[("5H", "5")],
                  roles=["", "elect", "", ""], mode="mirror_normal", last_player=3)
    after, events = act(state, "play", "a", cards=["5C"], rank="5")
    assert drawn_by(events, "c") == 1 and after.current == 2


# -- stock rebuild ---------------------------------------------------------------------------------
def test_an_empty_stock_is_rebuilt_from_the_pile_less_its_highest_cards():
    pile = [("4C", "4"), ("4D", "4"), ("9C", "9"), ("KC", "K"), ("X1", "K")]
    state = table([["5C", "KS"], ["3C"], ["3D"]], pile=pile, stock=[], rest=2, last_player=2)
    after, events = act(state, "draw", "a")
    assert "stock_rebuilt" in kinds(events)
    assert after.pile == ("KC", "X1") and after.pile_ranks == ("K", "K")
    assert len(after.hands[0]) == 3 and len(after.stock) == 2
    assert sorted(after.stock + tuple(after.hands[0])) == sorted(["4C", "4D", "9C", "5C", "KS"])
    # shuffled with the match's seeded generator, which moves one step on
    order = list(shuffled(["4C", "4D", "9C"], state.seed, state.step))
    assert after.step == state.step + 1
    assert list(after.stock) == order[1:] and order[0] in after.hands[0]


@pytest.mark.parametrize("pile", [
    pytest.param([], id="no pile"),
    pytest.param([("KC", "K"), ("X1", "K")], id="a pile of one rank only"),
])
def test_when_nothing_rebuilds_the_stock_no_card_is_drawn(pile):
    state = table([["5C", "KS"], ["3C"], ["3D"]], pile=pile, stock=[], rest=2,
                  last_player=2 if pile else None)
    after, events = act(state, "draw", "a")
    assert len(after.hands[0]) == 2 and after.drawn
    assert events[-1]["type"] == "cards_drawn" and events[-1]["count"] == 0
    after, _ = act(after, "pass", "a")
    assert after.current == 1


def test_a_penalty_draws_what_it_can_and_stops_when_nothing_is_left():
    pile = [("4C", "4"), ("KC", "K"), ("KD", "K")]
    state = table([["KH", "QS"], ["3C"], ["3D"]], pile=pile, stock=[], rest=2, last_player=2)
    after, events = act(state, "play", "a", cards=["KH"], rank="K")
    penalty = next(e for e in events if e["type"] == "penalty")
    assert penalty["count"] == 2
    assert drawn_by(events, "b") == 1  # only the 4 could come back


# -- end of a round --------------------------------------------------------------------------------
def test_normal_the_first_out_is_emperor_after_the_two_and_penalty_rules():
    state = table([["5C"], ["3C", "3S"], ["3D"]], pile=[("5H", "5")], mode="elite",
                  stock=["KH"], last_player=2)
    after, events = act(state, "play", "a", cards=["5C"], rank="5")
    result = next(e for e in events if e["type"] == "round_result")
    assert result["roles"] == {"a": "emperor", "b": "subject", "c": "subject"}
    assert result["cards_left"]["b"] == 3  # the penalty card came before the end
    assert result["points_gained"] == {"a": 3 + 3 + 13 + 3, "b": 0, "c": 0}
    assert after.round == 2 and after.phase == "exchange"
    assert after.previous_roles == ("emperor", "subject", "subject")
    assert after.previous_emperor == 0 and result["emperor"] == "a"
    assert ENGINE.scores(after)["players"]["a"]["rounds_won"] == 1


def test_normal_going_out_on_a_two_makes_the_others_draw_first():
    state = table([["2C"], ["3C"], ["3D"]], mode="elite", stock=["AH", "AS"])
    after, events = act(state, "play", "a", cards=["2C"], rank="2")
    result = next(e for e in events if e["type"] == "round_result")
    assert result["cards_left"] == {"a": 0, "b": 2, "c": 2}
    assert result["points_gained"]["a"] == 3 + 14 + 3 + 14


def test_elite_counts_card_values_jokers_twenty_twos_fifteen():
    state = table([["5C"], ["X1", "2S", "TC"], ["JD", "QD", "KD", "AD"]], mode="elite",
                  jokers=2)
    after, events = act(state, "play", "a", cards=["5C"], rank="5")
    result = next(e for e in events if e["type"] == "round_result")
    assert result["points_gained"]["a"] == 20 + 15 + 10 + 11 + 12 + 13 + 14
    assert after.points[0] == result["points_gained"]["a"]


@pytest.mark.parametrize("card,worth", [
    ("3D", 3), ("4D", 4), ("5D", 5), ("6D", 6), ("7D", 7), ("8D", 8), ("9D", 9), ("TD", 10),
    ("JD", 11), ("QD", 12), ("KD", 13), ("AD", 14), ("2D", 15), ("X2", 20),
])
def test_elite_each_card_left_is_worth_its_value(card, worth):
    state = table([["5C"], [card], ["X1"]], mode="elite", target_points=10000)
    _, events = act(state, "play", "a", cards=["5C"], rank="5")
    result = next(e for e in events if e["type"] == "round_result")
    assert result["points_gained"]["a"] == worth + 20


def test_mirror_players_out_are_elect_and_the_last_holder_is_outcast():
    state = table([["5C"], ["3C", "9S"], ["3D"]], mode="mirror_elite", last_player=2)
    after, events = act(state, "play", "a", cards=["5C"], rank="5")
    assert after.roles == ("elect", "", "") and after.round == 1
    assert after.current == 1
    after, _ = act(after, "play", "b", cards=["9S"], rank="9")
    after, events = act(after, "draw", "c")
    after, events = act(after, "pass", "c")  # back to b: he leads
    assert after.current == 1 and after.pile == ()
    after, events = act(after, "play", "b", cards=["3C"], rank="3")
    result = next(e for e in events if e["type"] == "round_result")
    assert result["roles"] == {"a": "elect", "b": "elect", "c": "outcast"}
    assert result["points_gained"]["c"] == sum(result["hand_values"].values())
    assert after.previous_roles == ("elect", "elect", "outcast")


def test_mirror_the_pile_of_a_player_who_went_out_clears_when_play_passes_his_seat():
    state = table([["5C"], ["3C", "9S"], ["3D", "4D"]], mode="mirror_normal", last_player=2,
                  stock=["KH", "KS"])
    state, _ = act(state, "play", "a", cards=["5C"], rank="5")
    state, _ = act(state, "draw", "b")
    state, _ = act(state, "pass", "b")
    state, events = act(state, "draw", "c")
    state, events = act(state, "pass", "c")
    assert "pile_cleared" in kinds(events)
    assert state.current == 1 and state.pile == ()


@pytest.mark.parametrize("mode,players,expect_roles,ended", [
    pytest.param("normal", 2, {"a": "subject", "b": "emperor"}, True,
                 id="normal, two players: the other is Emperor"),
    pytest.param("elite", 3, {"a": "subject", "b": None, "c": None}, False,
                 id="elite, three players: play goes on without him"),
    pytest.param("mirror_normal", 3, {"a": "outcast", "b": "elect", "c": "elect"}, True,
                 id="mirror normal: he is Outcast at once"),
    pytest.param("mirror_elite", 2, {"a": "outcast", "b": "elect"}, True,
                 id="mirror elite: he is Outcast at once"),
])
def test_finishing_with_a_joker(mode, players, expect_roles, ended):
    hands = [["X1"], ["3C", "9S"], ["3D", "4D"]][:players]
    state = table(hands, mode=mode, pile=[("5C", "5")], last_player=players - 1,
                  stock=["KH", "KS"])
    after, events = act(state, "play", "a", cards=["X1"], rank="5")
    out = next(e for e in events if e["type"] == "player_out")
    assert out["joker_finish"] is True
    if ended:
        result = next(e for e in events if e["type"] == "round_result")
        assert result["roles"] == expect_roles
        # nobody went out the regular way in the Mirror rounds: they have no Emperor
        assert result["emperor"] == (None if mode.startswith("mirror") else "b")
        if mode == "mirror_elite":  # the Outcast scores the cards the others still hold
            assert result["points_gained"] == {"a": 3 + 9, "b": 0}
        if mode == "mirror_normal":  # at once: no penalty draw for b
            assert drawn_by(events, "b") == 0
    else:
        assert "round_result" not in kinds(events)
        assert {p: r or None for p, r in zip(after.players, after.roles)} == expect_roles
        assert drawn_by(events, "b") == 1  # the penalty still applies
        assert after.current == 1


def test_normal_joker_finishers_leave_the_last_player_alone_as_emperor():
    state = table([["X1"], [], ["3D", "4D"]], roles=["", "subject", ""], mode="elite",
                  pile=[("5C", "5")], last_player=2)
    after, events = act(state, "play", "a", cards=["X1"], rank="6")
    result = next(e for e in events if e["type"] == "round_result")
    assert result["roles"] == {"a": "subject", "b": "subject", "c": "emperor"}
    assert result["points_gained"]["c"] == 0  # the Subjects hold nothing


# -- the roles of a Mirror round ------------------------------------------------------------------
def titles(state):
    return {p: e["roles"] for p, e in ENGINE.scores(state)["players"].items()}


def earlier_titles(state):
    return {p: e["previous_roles"] for p, e in ENGINE.scores(state)["players"].items()}


def test_mirror_the_first_player_out_is_the_rounds_emperor_and_the_others_its_subjects():
    # « on applique le classement pour le premier joueur ayant vidé sa main »: he is the
    # Emperor and the others his Subjects, besides the Elect and the Outcast.
    state = table([["5C"], ["3C", "9S"], ["3D", "4D"]], mode="mirror_normal", last_player=2)
    assert titles(state) == {"a": [], "b": [], "c": []}
    after, events = act(state, "play", "a", cards=["5C"], rank="5")
    out = next(e for e in events if e["type"] == "player_out")
    assert out["emperor"] is True and out["role"] == "elect"
    assert after.emperor == 0 and ENGINE.view(after, "b")["emperor"] == "a"
    assert titles(after) == {"a": ["emperor", "elect"], "b": ["subject"], "c": ["subject"]}
    after, _ = act(after, "play", "b", cards=["9S"], rank="9")
    after, _ = act(after, "draw", "c")
    after, _ = act(after, "pass", "c")
    after, events = act(after, "play", "b", cards=["3C"], rank="3")
    out = next(e for e in events if e["type"] == "player_out")
    assert out["emperor"] is False  # out, Elect, but not the first
    result = next(e for e in events if e["type"] == "round_result")
    assert result["emperor"] == "a"
    assert after.previous_emperor == 0 and after.emperor is None
    assert earlier_titles(after) == {"a": ["emperor", "elect"], "b": ["subject", "elect"],
                                     "c": ["subject", "outcast"]}


def test_mirror_a_joker_finish_before_anyone_is_out_leaves_the_round_without_an_emperor():
    # The joker finisher « perd et devient donc nécessairement Sujet » and the Mirror round
    # ends at once: nobody emptied his hand the regular way, so nobody is Emperor.
    state = table([["X1"], ["3C", "9S"], ["3D", "4D"]], mode="mirror_elite",
                  pile=[("5C", "5")], last_player=2)
    after, events = act(state, "play", "a", cards=["X1"], rank="5")
    assert next(e for e in events if e["type"] == "round_result")["emperor"] is None
    assert after.previous_emperor is None
    assert earlier_titles(after) == {"a": ["subject", "outcast"], "b": ["subject", "elect"],
                                     "c": ["subject", "elect"]}
    # so the next round has the Outcast's exchange only
    started = [e for e in events if e["type"] == "exchange_started"]
    assert [(e["stage"], e["exchange"]) for e in started] == [(3, "outcast")]
    assert ENGINE.to_act(after, now=NOW) == ["a"]


def test_mirror_a_joker_finish_after_someone_went_out_keeps_him_emperor():
    state = table([["X1"], [], ["3D", "4D"], ["5D", "6D"]], mode="mirror_normal",
                  roles=["", "elect", "", ""], pile=[("5C", "5")], last_player=3)
    assert state.emperor == 1
    after, events = act(state, "play", "a", cards=["X1"], rank="5")
    assert next(e for e in events if e["type"] == "round_result")["emperor"] == "b"
    assert earlier_titles(after) == {"a": ["subject", "outcast"], "b": ["emperor", "elect"],
                                     "c": ["subject", "elect"], "d": ["subject", "elect"]}


# -- the exchanges ---------------------------------------------------------------------------------
def _exchange(mode, hands, stage=1, previous=None, previous_emperor=0):
    """Round two of a match whose first round made seat 0 the Emperor (Normal, Elite) or the
    Outcast (Mirror), at the exchange stage given; in the Mirror modes seat 1 was Emperor."""
    n = len(hands)
    mirror = mode.startswith("mirror")
    if previous is None:
        previous = (["outcast"] + ["elect"] * (n - 1)) if mirror else (
            ["emperor"] + ["subject"] * (n - 1))
        previous_emperor = 1 if mirror else 0
    state = table(hands, mode=mode, round=2, previous_roles=previous, phase="exchange",
                  exchange_stage=stage, dealer=n - 1, rest="stock",
                  previous_emperor=previous_emperor)
    # the gifts the stage opens with, as the engine plans them
    return dataclasses.replace(state, gifts=tuple(gift_plan(
        state.options, stage, state.previous_roles, state.previous_emperor)))


SEVEN = {
    "a": ["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
    "b": ["3D", "4D", "KD", "KH", "KS", "8D", "9D"],
    "c": ["3H", "4H", "5H", "6H", "X1", "8H", "9H"],
}


def test_normal_has_no_exchange_the_next_round_starts_with_play():
    # « Si les joueurs jouent en mode Normal …, on passe directement à la manche suivante »
    state = table([["5C"], ["3C", "9S"], ["3D"]], mode="normal")
    after, events = act(state, "play", "a", cards=["5C"], rank="5")
    assert after.round == 2 and after.phase == "play" and after.exchange_stage == 0
    assert "exchange_started" not in kinds(events)
    assert all(len(h) == 7 for h in after.hands)
    assert ENGINE.to_act(after, now=NOW) == [after.players[(after.dealer + 1) % 3]]


def test_elite_exchange_subjects_each_give_a_highest_card_at_once():
    state = _exchange("elite", [SEVEN["a"], SEVEN["b"], SEVEN["c"]])
    assert ENGINE.to_act(state, now=NOW) == ["b", "c"]
    moves = ENGINE.legal_moves(state, now=NOW)
    assert [(m["player"], m["card"], m["to"]) for m in moves] == [
        ("b", "KD", "a"), ("b", "KH", "a"), ("b", "KS", "a"), ("c", "X1", "a")]
    with pytest.raises(IllegalMove) as err:
        act(state, "give", "b", card="3D", to="a")
    assert err.value.rule == "give_highest"
    with pytest.raises(IllegalMove) as err:
        act(state, "give", "b", card="KH", to="c")
    assert err.value.rule == "gift_target"
    with pytest.raises(IllegalMove):
        act(state, "play", "b", cards=["3D"])
    state, events = act(state, "give", "b", card="KH", to="a")
    assert events == [{"type": "card_given", "player": "b", "to": "a", "stage": 1,
                       "exchange": "emperor", "private": {"players": ["b", "a"], "card": "KH"}}]
    assert ENGINE.to_act(state, now=NOW) == ["c"]
    state, events = act(state, "give", "c", card="X1", to="a")
    assert state.exchange_stage == 2 and ENGINE.to_act(state, now=NOW) == ["a"]
    assert len(state.hands[0]) == 9


def test_elite_exchange_the_emperor_then_gives_each_subject_a_card_of_his_choice():
    state = _exchange("elite", [SEVEN["a"] + ["KH", "X1"], ["3D", "4D", "KD", "KS", "8D",
                                                           "9D"], ["3H", "4H", "5H", "6H",
                                                                   "8H", "9H"]], stage=2)
    moves = ENGINE.legal_moves(state, now=NOW)
    assert {m["to"] for m in moves} == {"b", "c"} and len(moves) == 2 * 9
    state, _ = act(state, "give", "a", card="3C", to="b")
    with pytest.raises(IllegalMove):
        act(state, "give", "a", card="4C", to="b")
    state, events = act(state, "give", "a", card="X1", to="c")
    assert state.phase == "play" and [len(h) for h in state.hands] == [7, 7, 7]
    assert state.current == 0 and kinds(events)[-2:] == ["exchange_finished", "turn"]


def test_mirror_exchange_the_outcast_gives_each_elect_a_highest_card():
    state = _exchange("mirror_normal", [SEVEN["b"], SEVEN["a"], SEVEN["c"]])
    assert ENGINE.to_act(state, now=NOW) == ["a"]
    moves = ENGINE.legal_moves(state, now=NOW)
    assert {(m["card"], m["to"]) for m in moves} == {(k, t) for k in ("KD", "KH", "KS")
                                                     for t in ("b", "c")}
    state, _ = act(state, "give", "a", card="KS", to="c")
    state, _ = act(state, "give", "a", card="KD", to="b")
    assert state.exchange_stage == 2 and ENGINE.to_act(state, now=NOW) == ["b", "c"]
    state, _ = act(state, "give", "c", card="3H", to="a")
    state, _ = act(state, "give", "b", card="9C", to="a")
    assert state.phase == "play" and [len(h) for h in state.hands] == [7, 7, 7]


@pytest.mark.parametrize("mode,exchanges", [
    pytest.param("normal", [], id="normal: none"),
    pytest.param("elite", [(1, "emperor"), (2, "emperor")], id="elite: the Emperor's"),
    pytest.param("mirror_normal", [(1, "outcast"), (2, "outcast")],
                 id="mirror normal: the Outcast's"),
    pytest.param("mirror_elite", [(1, "emperor"), (2, "emperor"), (3, "outcast"),
                                  (4, "outcast")], id="mirror elite: both, Emperor's first"),
])
def test_each_mode_opens_the_next_round_with_the_exchanges_its_headings_name(mode, exchanges):
    # « Règle des modes Elite et Miroir Elite » (the Emperor's exchange), « Règle des modes
    # Miroir (Normal et Elite) » (the Outcast's), in the text's order; Normal has none.
    pick = random.Random(mode)
    state = table([["5C"], ["3C", "9S"], ["3D", "4D"]], mode=mode, last_player=2,
                  target_points=10000)
    state, events = act(state, "play", "a", cards=["5C"], rank="5")
    while state.round == 1:  # the Mirror modes play on until one player is left
        state, more = act(state, **_first(ENGINE.legal_moves(state, now=NOW)))
        events += more
    seen = [(e["stage"], e["exchange"]) for e in events if e["type"] == "exchange_started"]
    while state.phase == "exchange":
        if state.exchange_stage % 2 and len(state.gifts) == len(state.players) - 1:
            # « quand chaque joueur a 7 cartes en main »: each exchange opens on full hands
            assert all(len(h) == 7 for h in state.hands)
        state, more = act(state, **_as_fields(pick.choice(ENGINE.legal_moves(state, now=NOW))))
        seen += [(e["stage"], e["exchange"]) for e in more if e["type"] == "exchange_started"]
    assert seen == exchanges
    assert state.phase == "play" and all(len(h) == 7 for h in state.hands)


def _as_fields(move):
    return {"kind": move["type"], **{k: v for k, v in move.items() if k != "type"}}


def _first(moves):
    plays = [m for m in moves if m["type"] == "play"]
    return _as_fields(plays[0] if plays else moves[-1])


def test_mirror_elite_the_emperor_is_also_an_elect_and_takes_part_in_both_exchanges():
    # Round one: b went out first (Emperor and Elect), c next (Elect), a held cards (Outcast).
    hands = [SEVEN["a"], SEVEN["b"], SEVEN["c"]]
    state = _exchange("mirror_elite", hands, previous=["outcast", "elect", "elect"],
                      previous_emperor=1)
    assert ENGINE.view(state, "a")["exchange"] == "emperor"
    # 1: each Subject (the Outcast a, the Elect c) gives the Emperor b a highest card
    assert sorted(state.gifts) == [(0, 1), (2, 1)]
    state, _ = act(state, "give", "a", card="9C", to="b")
    state, events = act(state, "give", "c", card="X1", to="b")
    # 2: the Emperor gives each Subject a card of his choice
    assert state.exchange_stage == 2 and sorted(state.gifts) == [(1, 0), (1, 2)]
    state, _ = act(state, "give", "b", card="3D", to="a")
    state, events = act(state, "give", "b", card="4D", to="c")
    # 3: then, every hand back to seven cards, the Outcast gives each Elect, b included
    assert [(e["stage"], e["exchange"]) for e in events if e["type"] == "exchange_started"] \
        == [(3, "outcast")]
    assert all(len(h) == 7 for h in state.hands)
    assert sorted(state.gifts) == [(0, 1), (0, 2)]
    state, _ = act(state, "give", "a", card="8C", to="b")
    state, _ = act(state, "give", "a", card="7C", to="c")
    # 4: and each Elect, b included, gives the Outcast a card of his choice
    assert state.exchange_stage == 4 and sorted(state.gifts) == [(1, 0), (2, 0)]
    state, _ = act(state, "give", "b", card="8C", to="a")
    state, events = act(state, "give", "c", card="3H", to="a")
    assert state.phase == "play" and kinds(events)[-2:] == ["exchange_finished", "turn"]
    assert [len(h) for h in state.hands] == [7, 7, 7]


def test_a_finished_round_leads_into_the_exchange_of_the_next():
    state = table([["5C"], ["3C", "9S"], ["3D"]], mode="elite")
    after, events = act(state, "play", "a", cards=["5C"], rank="5")
    assert after.phase == "exchange" and ENGINE.to_act(after, now=NOW) == ["b", "c"]
    assert all(len(h) == 7 for h in after.hands)
    assert kinds(events).index("hand_dealt") < kinds(events).index("exchange_started")
    # every round draws its own dealer, in public events
    assert kinds(events).index("round_result") < kinds(events).index("dealer_draw") \
        < kinds(events).index("hand_dealt")
    chosen = next(e for e in events if e["type"] == "dealer_chosen")
    assert chosen == {"type": "dealer_chosen", "round": 2, "player": after.players[after.dealer]}


# -- the match ---------------------------------------------------------------------------------------
# In rounds, the earlier rounds went to another player (b was Emperor, or Outcast, twice): the
# result follows the last round's roles only, not the rounds won or lost.
EARLIER_NORMAL = {"previous_roles": ["subject", "emperor", "subject"],
                  "rounds_won": [0, 2, 0], "rounds_lost": [2, 0, 2]}
EARLIER_MIRROR = {"previous_roles": ["elect", "outcast", "elect"],
                  "rounds_won": [2, 0, 2], "rounds_lost": [0, 2, 0]}


@pytest.mark.parametrize("mode,hands,roles_before,target,earlier,winners,losers", [
    pytest.param("normal", [["5C"], ["3C"], ["3D"]], None, 500, EARLIER_NORMAL, ["a"],
                 ["b", "c"], id="normal: the last round's Emperor wins"),
    pytest.param("mirror_normal", [["3C", "9C"], ["5C"], []], ["", "", "elect"], 500,
                 EARLIER_MIRROR, ["b", "c"], ["a"],
                 id="mirror normal: the last round's Outcast loses"),
    pytest.param("elite", [["5C"], ["3C"], ["3D"]], None, 6, {}, ["a"], ["b", "c"],
                 id="elite: the first to the target wins"),
    pytest.param("mirror_elite", [["3C", "9C"], ["5C"], []], ["", "", "elect"], 10, {},
                 ["b", "c"], ["a"], id="mirror elite: the first to the target loses"),
])
def test_match_end(mode, hands, roles_before, target, earlier, winners, losers):
    rounds = 3
    player = "b" if mode.startswith("mirror") else "a"
    seat = "abc".index(player)
    state = table(hands, mode=mode, round=1 if "elite" in mode else rounds, rounds=rounds,
                  target_points=target, roles=roles_before, current=seat, **earlier)
    after, events = act(state, "play", player, cards=["5C"], rank="5")
    assert ENGINE.is_finished(after)
    assert events[-1] == {"type": "match_result", "winners": winners, "losers": losers}
    scores = ENGINE.scores(after)
    assert scores["winners"] == winners and scores["losers"] == losers
    assert ENGINE.legal_moves(after, now=NOW) == [] and ENGINE.to_act(after, now=NOW) == []
    assert ENGINE.problems(after) == []
    with pytest.raises(GameOver):
        ENGINE.apply(after, {"type": "draw", "player": "a"}, now=NOW)


def test_elite_below_the_target_plays_another_round():
    state = table([["5C"], ["3C"], ["3D"]], mode="elite", target_points=7)
    after, _ = act(state, "play", "a", cards=["5C"], rank="5")
    assert not ENGINE.is_finished(after) and after.round == 2 and after.points[0] == 6
