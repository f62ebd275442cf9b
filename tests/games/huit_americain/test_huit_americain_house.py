"""Huit américain: the house rules (each off by default) and the effect table moved by options."""

from __future__ import annotations

import dataclasses
import random

import pytest

from referee.core.errors import IllegalMove, InvalidOptions, NotYourTurn
from referee.core.outcome import event_for
from referee.games.huit_americain import ENGINE
from referee.games.huit_americain.options import compiled_options
from referee.games.huit_americain.rules import Rules
from referee.games.huit_americain.position import position
from referee.games.huit_americain.state import ATTACK, GIVE, HUNT, PLAY

NOW = 0.0


def move(state, kind, who, **fields):
    return ENGINE.apply(state, {"type": kind, "player": who, **fields}, now=NOW)


def lay(state, who, card, **fields):
    return move(state, "lay", who, card=card, **fields)


def legal(state):
    return ENGINE.legal_moves(state, now=NOW)


def types(events):
    return [e["type"] for e in events]


def effects(events):
    return [e["effect"] for e in events if e["type"] == "effect"]


# -- options -----------------------------------------------------------------------------------
@pytest.mark.parametrize("options, problem", [
    ({"on_the_fly": True}, "needs two decks"),
    ({"effect_skip": "J"}, "carries several effects"),
    ({"effect_stop": "A"}, "cannot both attack and stop"),
    ({"effect_draw_two": "X"}, "carries several effects"),
    ({"when_stuck": "cry"}, "must be one of"),
    ({"effect_reverse": "Z"}, "must be one of"),
    ({"points_K": -1}, "at least 0"),
], ids=["on the fly with one deck", "two effects on the jack", "stop on an attack rank",
        "two attacks on the joker", "unknown stuck rule", "unknown rank", "negative points"])
def test_option_sets_that_make_no_sense_are_refused(options, problem):
    with pytest.raises(InvalidOptions) as refused:
        ENGINE.resolve_options(options)
    assert problem in refused.value.detail


def test_the_defaults_are_the_seeds_table():
    options = ENGINE.resolve_options({})
    assert {k: v for k, v in options.items() if k.startswith("effect_") and v != "off"} == {
        "effect_draw_four": "X", "effect_draw_two": "A", "effect_stop": "8",
        "effect_change_suit": "8", "effect_reverse": "J", "effect_skip": "7",
        "effect_play_again": "T"}
    assert not any(options[k] for k in ("draw_penalty_on_error", "on_the_fly",
                                         "no_finish_on_eight", "attack_returns"))
    assert options["when_stuck"] == "pass" and options["decks"] == 1 and options["target"] == 100


# -- draw_penalty_on_error ----------------------------------------------------------------------
ERRORS = [
    ("lay out of turn", "bob", {"type": "lay", "card": "9S"}, NotYourTurn, "turn"),
    ("pass out of turn", "bob", {"type": "pass"}, NotYourTurn, "turn"),
    ("card that does not follow", "ann", {"type": "lay", "card": "2C"}, IllegalMove,
     "follow_suit_or_rank"),
    ("card not held", "ann", {"type": "lay", "card": "AS"}, IllegalMove, "card_in_hand"),
    ("pass while able to lay", "ann", {"type": "pass"}, IllegalMove, "must_lay"),
    ("challenge with nothing owed", "bob", {"type": "challenge"}, IllegalMove, "contre_carte"),
]


@pytest.mark.parametrize("label, who, fields, error, rule", ERRORS, ids=[e[0] for e in ERRORS])
def test_an_error_is_refused_without_the_house_rule(label, who, fields, error, rule):
    state = position([["9H", "2C", "3C"], ["9S", "4S"]], ["5H"])
    with pytest.raises(error):
        ENGINE.apply(state, {"player": who, **fields}, now=NOW)


@pytest.mark.parametrize("label, who, fields, error, rule", ERRORS, ids=[e[0] for e in ERRORS])
def test_with_draw_penalty_on_error_an_error_makes_its_player_draw_two(label, who, fields, error,
                                                                        rule):
    state = position([["9H", "2C", "3C"], ["9S", "4S"]], ["5H"], draw_penalty_on_error=True)
    new, events = ENGINE.apply(state, {"player": who, **fields}, now=NOW)
    seat = state.players.index(who)
    assert len(new.hands[seat]) == len(state.hands[seat]) + 2
    assert new.current == state.current and new.pile == state.pile
    assert types(events) == ["penalty", "cards_drawn"]
    assert events[0]["rule"] == rule and events[0]["player"] == who
    assert len(event_for(events[1], who)["cards"]) == 2
    assert ENGINE.problems(new) == []


def test_a_stranger_is_refused_even_with_draw_penalty_on_error():
    state = position([["9H", "2C"], ["9S"]], ["5H"], draw_penalty_on_error=True)
    with pytest.raises(NotYourTurn):
        move(state, "pass", "zed")


# -- on_the_fly ---------------------------------------------------------------------------------
def test_on_the_fly_the_twin_of_the_top_card_may_be_laid_out_of_turn():
    state = position([["2C", "3C"], ["4D", "6D"], ["5H", "KS", "QS"]], ["5H"], decks=2,
                     on_the_fly=True)
    assert ENGINE.to_act(state, now=NOW) == ["ann"]  # cy's twin is his secret
    flies = [m for m in legal(state) if m["type"] == "lay_out_of_turn"]
    assert flies == [{"type": "lay_out_of_turn", "player": "cy", "card": "5H",
                      "announce": False}]
    new, events = move(state, "lay_out_of_turn", "cy", card="5H")
    assert new.current == 0  # play continues from cy
    assert events[0]["out_of_turn"] is True and new.pile[-1] == "5H"


def test_on_the_fly_a_twin_attack_is_passed_on_from_the_flyer():
    state = position([["2C", "3C"], ["4D", "6D"], ["AH", "KS", "QS"]], ["5H", "AH"], decks=2,
                     on_the_fly=True, current=1, attack=2)
    new, events = move(state, "lay_out_of_turn", "cy", card="AH")
    assert new.phase == ATTACK and new.attack == 4 and new.current == 0


@pytest.mark.parametrize("options, who, card, rule", [
    ({"decks": 2, "on_the_fly": True}, "cy", "5S", "on_the_fly"),
    ({"decks": 2, "on_the_fly": True}, "ann", "5H", "on_the_fly"),
    ({"decks": 2}, "cy", "5H", "on_the_fly"),
], ids=["not the exact twin", "the player in turn", "house rule off"])
def test_laying_out_of_turn_is_refused_otherwise(options, who, card, rule):
    state = position([["2C", "5H"], ["4D", "6D"], ["5H", "5S", "QS"]], ["5H"], **options)
    with pytest.raises(IllegalMove) as refused:
        move(state, "lay_out_of_turn", who, card=card)
    assert refused.value.rule == rule


def test_a_plain_lay_out_of_turn_is_not_your_turn_even_on_the_fly():
    state = position([["2C", "3C"], ["4D", "6D"], ["5H", "KS", "QS"]], ["5H"], decks=2,
                     on_the_fly=True)
    with pytest.raises(NotYourTurn):
        lay(state, "cy", "5H")


# -- no_finish_on_eight -------------------------------------------------------------------------
def test_no_finish_on_eight_an_eight_cannot_be_the_last_card():
    state = position([["8C"], ["4D", "6D"]], ["5H"], no_finish_on_eight=True)
    assert legal(state) == [{"type": "pass", "player": "ann"}]
    with pytest.raises(IllegalMove) as refused:
        lay(state, "ann", "8C", suit="H")
    assert refused.value.rule == "no_finish_on_eight"


def test_without_the_house_rule_an_eight_may_be_the_last_card():
    state = position([["8C"], ["4D", "6D"]], ["5H"])
    new, events = lay(state, "ann", "8C", suit="H")
    assert "round_ended" in types(events)


def test_no_finish_on_eight_an_eight_may_still_be_the_next_to_last():
    state = position([["8C", "2D"], ["4D", "6D"]], ["5H"], no_finish_on_eight=True)
    new, _ = lay(state, "ann", "8C", suit="D", announce=True)
    assert new.suit == "D"


# -- attack_returns -----------------------------------------------------------------------------
def test_without_attack_returns_going_out_on_an_ace_ends_the_round():
    state = position([["AH"], ["AS", "6D"], ["2C"]], ["5H"])
    new, events = lay(state, "ann", "AH")
    assert "round_ended" in types(events)


def test_with_attack_returns_an_attack_travelling_back_to_the_player_who_went_out_is_his():
    state = position([["AH"], ["AS", "6D"], ["AC", "2C"]], ["5H"], attack_returns=True)
    state, events = lay(state, "ann", "AH")
    assert "round_ended" not in types(events) and state.hands[0] == ()
    state, _ = lay(state, "bob", "AS")
    state, _ = lay(state, "cy", "AC", announce=True)
    assert state.current == 0 and state.attack == 6
    assert legal(state) == [{"type": "draw", "player": "ann"}]
    state, events = move(state, "draw", "ann")
    assert len(state.hands[0]) == 6 and "round_ended" not in types(events)
    assert state.current == 1 and state.phase == PLAY


def test_with_attack_returns_the_round_ends_once_someone_takes_the_attack():
    state = position([["AH"], ["6D", "7D"], ["2C"]], ["5H"], attack_returns=True)
    state, _ = lay(state, "ann", "AH")
    state, events = move(state, "draw", "bob")
    ended = next(e for e in events if e["type"] == "round_ended")
    # bob keeps 6D, 7D and draws the stock's last two cards, the jokers
    assert state.hands[1] == ("6D", "7D", "X2", "X1")
    assert ended["out"] == ["ann"] and ended["points"]["bob"] == 6 + 20 + 50 + 50


# -- effects moved or switched off --------------------------------------------------------------
def test_an_effect_moved_to_another_rank_follows_it():
    state = position([["5H", "7H", "2C"], ["9S"], ["9C"]], ["4H"], effect_skip="5")
    new, events = lay(state, "ann", "5H")
    assert new.current == 2 and effects(events) == ["skip"]
    plain, events = lay(state, "ann", "7H")
    assert plain.current == 1 and effects(events) == []


def test_an_effect_switched_off_leaves_a_plain_card():
    state = position([["X1", "2C"], ["9S"], ["9C"]], ["4H"], effect_draw_four="off")
    new, events = lay(state, "ann", "X1")
    assert new.phase == PLAY and new.attack == 0 and new.current == 1
    assert new.suit == "H"  # the joker still lets the card under it rule


def test_an_attack_moved_to_a_natural_rank_is_also_laid_on_anything():
    state = position([["2C", "3C"], ["9S"], ["9C"]], ["4H"], effect_draw_four="2",
                     points_2=50)
    new, events = lay(state, "ann", "2C")
    assert new.attack == 4 and effects(events) == ["draw_four"]


def test_the_points_table_is_an_option():
    state = position([["9H"], ["KS"]], ["5H"], points_K=33)
    new, events = lay(state, "ann", "9H")
    assert new.totals == (0, 33)


# -- the extra effects --------------------------------------------------------------------------
def test_swap_hands_swaps_with_the_chosen_player():
    state = position([["QH", "2C", "3C"], ["9S"], ["9C", "4C"]], ["4H"], effect_swap_hands="Q")
    listed = [m for m in legal(state) if m.get("card") == "QH"]
    assert [m["target"] for m in listed] == ["bob", "cy"]
    with pytest.raises(IllegalMove):
        lay(state, "ann", "QH")
    with pytest.raises(IllegalMove):
        lay(state, "ann", "QH", target="ann")
    new, events = lay(state, "ann", "QH", target="cy")
    assert new.hands[0] == ("9C", "4C") and new.hands[2] == ("2C", "3C")
    assert effects(events) == ["swap_hands"] and new.current == 1


@pytest.mark.parametrize("direction, expected", [
    (1, (("9C", "4C"), ("2C", "3C"), ("9S",))),
    (-1, (("9S",), ("9C", "4C"), ("2C", "3C"))),
])
def test_rotate_hands_passes_every_hand_on_in_the_direction_of_play(direction, expected):
    state = position([["KH", "2C", "3C"], ["9S"], ["9C", "4C"]], ["4H"], direction=direction,
                     effect_rotate_hands="K")
    new, events = lay(state, "ann", "KH")
    assert new.hands == expected and effects(events) == ["rotate_hands"]


def test_give_two_makes_its_player_give_two_cards_of_his_hand_to_the_chosen_player():
    # "donner 2 cartes au joueur de son choix": two of his own cards, which he picks
    state = position([["QH", "2C", "3C", "5D"], ["9S"], ["9C", "4C"]], ["4H"],
                     effect_give_two="Q")
    assert [m["target"] for m in legal(state) if m.get("card") == "QH"] == ["bob", "cy"]
    with pytest.raises(IllegalMove):
        lay(state, "ann", "QH")
    new, events = lay(state, "ann", "QH", target="cy")
    assert new.phase == GIVE and new.current == 0 and (new.give_to, new.give_left) == (2, 2)
    assert {"type": "effect", "effect": "give_two", "player": "ann", "target": "cy",
            "cards": 2} in events
    assert new.hands[2] == ("9C", "4C") and new.stock == state.stock  # nobody draws
    assert ENGINE.to_act(new, now=NOW) == ["ann"]
    assert legal(new) == [{"type": "give", "player": "ann", "card": c}
                          for c in ("2C", "3C", "5D")]
    assert ENGINE.view(new, "bob")["give_to"] == "cy" and ENGINE.view(new, "bob")["give_left"] == 2
    new, events = move(new, "give", "ann", card="5D")
    assert new.hands[0] == ("2C", "3C") and new.hands[2] == ("9C", "4C", "5D")
    assert new.phase == GIVE and new.give_left == 1 and new.current == 0
    assert types(events) == ["card_given"]
    given = events[0]
    assert (given["player"], given["to"], given["cards_left"]) == ("ann", "cy", 2)
    assert event_for(given, "ann")["card"] == "5D" and event_for(given, "cy")["card"] == "5D"
    assert "card" not in event_for(given, "bob")
    new, events = move(new, "give", "ann", card="2C")
    assert new.hands == (("3C",), ("9S",), ("9C", "4C", "5D", "2C"))
    assert new.phase == PLAY and new.current == 1 and (new.give_to, new.give_left) == (-1, 0)
    assert ENGINE.problems(new) == []


@pytest.mark.parametrize("kind, fields, rule", [
    ("lay", {"card": "2C"}, "give_two"),
    ("draw", {}, "give_two"),
    ("pass", {}, "give_two"),
    ("give", {"card": "9S"}, "card_in_hand"),
    ("give", {"card": "QH"}, "card_in_hand"),
], ids=["a lay", "a draw", "a pass", "a card he does not hold", "the card he just laid"])
def test_while_giving_only_a_give_of_a_held_card_is_accepted(kind, fields, rule):
    state = position([["QH", "2C", "3C", "5D"], ["9S"], ["9C", "4C"]], ["4H"],
                     effect_give_two="Q")
    giving, _ = lay(state, "ann", "QH", target="cy")
    with pytest.raises(IllegalMove) as refused:
        move(giving, kind, "ann", **fields)
    assert refused.value.rule == rule
    with pytest.raises(NotYourTurn):
        move(giving, "give", "cy", card="9C")
    with pytest.raises(IllegalMove) as refused:  # and never outside the give phase
        move(state, "give", "ann", card="2C")
    assert refused.value.rule == "give_two"


def test_give_two_with_one_card_left_gives_it_and_its_player_goes_out():
    state = position([["QH", "2C"], ["9S"], ["9C", "4C"]], ["4H"], effect_give_two="Q")
    giving, events = lay(state, "ann", "QH", target="bob", announce=True)
    assert giving.give_left == 1 and effects(events) == ["give_two"]
    assert legal(giving) == [{"type": "give", "player": "ann", "card": "2C"}]
    after, events = move(giving, "give", "ann", card="2C")
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["out"] == ["ann"] and ended["points"] == {"ann": 0, "bob": 9 + 2, "cy": 9 + 4}


def test_give_two_as_the_last_card_ends_the_round_without_a_gift():
    state = position([["QH"], ["9S"], ["9C", "4C"]], ["4H"], effect_give_two="Q")
    new, events = lay(state, "ann", "QH", target="bob")
    assert "round_ended" in types(events) and "effect" not in types(events)


def test_with_draw_penalty_on_error_a_wrong_move_while_giving_draws_two_and_the_gift_stays():
    state = position([["QH", "2C", "3C", "5D"], ["9S"], ["9C", "4C"]], ["4H"],
                     effect_give_two="Q", draw_penalty_on_error=True)
    giving, _ = lay(state, "ann", "QH", target="cy")
    new, events = move(giving, "pass", "ann")
    assert types(events) == ["penalty", "cards_drawn"] and len(new.hands[0]) == 5
    assert new.phase == GIVE and (new.give_to, new.give_left) == (2, 2)
    assert ENGINE.problems(new) == []


def test_on_the_fly_waits_until_the_gift_is_given():
    state = position([["QH", "2C", "3C"], ["QH", "9S"], ["9C", "4C"]], ["4H"], decks=2,
                     on_the_fly=True, effect_give_two="Q")
    giving, _ = lay(state, "ann", "QH", target="cy")
    assert ENGINE.to_act(giving, now=NOW) == ["ann"]
    assert not [m for m in legal(giving) if m["type"] == "lay_out_of_turn"]
    with pytest.raises(IllegalMove) as refused:
        move(giving, "lay_out_of_turn", "bob", card="QH", target="cy")
    assert refused.value.rule == "on_the_fly"


def test_all_draw_one_makes_every_opponent_draw_one():
    state = position([["QH", "2C", "3C"], ["9S"], ["9C", "4C"]], ["4H"],
                     effect_all_draw_one="Q")
    new, events = lay(state, "ann", "QH")
    assert [len(h) for h in new.hands] == [2, 2, 3]
    assert [e["player"] for e in events if e["type"] == "cards_drawn"] == ["bob", "cy"]


def test_suit_hunt_makes_the_next_player_draw_until_he_gets_the_named_suit():
    state = position([["QH", "2C", "3C"], ["9S"], ["9C", "4C"]], ["4H"],
                     stock=["5S", "7D", "KC", "JC"], effect_suit_hunt="Q")
    assert {m["suit"] for m in legal(state) if m.get("card") == "QH"} == {"C", "D", "H", "S"}
    new, events = lay(state, "ann", "QH", suit="D")
    assert new.phase == HUNT and new.current == 1 and new.suit == "D"
    assert legal(new)[0] == {"type": "draw", "player": "bob"}
    with pytest.raises(IllegalMove):
        move(new, "pass", "bob")
    after, events = move(new, "draw", "bob")
    assert after.hands[1] == ("9S", "JC", "KC", "7D")
    assert after.current == 1 and after.phase == PLAY  # he plays on with the suit he found
    assert [m["card"] for m in legal(after) if m["type"] == "lay"] == ["7D"]


def test_silence_is_not_an_effect_a_referee_can_see():
    from referee.games.huit_americain.rules import EFFECTS
    assert "silence" not in EFFECTS


# -- on_the_fly: who holds a twin is his secret -----------------------------------------------
FLY = {"decks": 2, "on_the_fly": True}
SPECTATOR = "zed"


def flyers_of(state):
    """The players not in turn who may lay the twin of the top card now."""
    return {m["player"] for m in legal(state) if m["type"] == "lay_out_of_turn"}


def test_to_act_never_names_a_player_who_may_lay_a_twin_out_of_turn(client):
    """The reproduction of the leak, over HTTP: a spectator's view and every outcome told
    everyone who held the twin of the top card."""
    game = "/v1/games/huit-americain"
    answer = client.post(f"{game}/matches", json={
        "players": ["ann", "bob", "cyd"], "seed": 4, "options": FLY}).get_json()
    hidden = 0
    for _ in range(60):
        if answer["status"] == "finished":
            break
        state = ENGINE.decode({k: v for k, v in answer["state"].items()
                               if k not in ("seating", "fairness")})  # the table's, not the game's
        flying = flyers_of(state)
        watched = client.post(f"{game}/views", json={"state": answer["state"],
                                                     "player": SPECTATOR}).get_json()
        seen = watched["view"]  # to_act is what the table sees: who is in turn, who may
        owing = seen["unannounced"]  # say "Contre-carte" (who owes a "Carte", his hand size)
        public = [seen["current"], *(p for p in state.players if p not in (owing, seen["current"])
                                     and owing and seen["hand_counts"][owing] == 1)]
        assert answer["to_act"] == watched["to_act"] == public
        hidden += bool(flying - set(public))
        assert watched["legal_moves"] == []
        for player in state.players:  # each learns his own chance, and nobody else's
            his = client.post(f"{game}/legal-moves", json={"state": answer["state"],
                                                           "player": player}).get_json()
            assert {m["player"] for m in his["legal_moves"]} <= {player}
            flies = [m for m in his["legal_moves"] if m["type"] == "lay_out_of_turn"]
            assert bool(flies) == (player in flying)
        mover = sorted(flying)[0] if flying else answer["to_act"][0]
        move = next(m for m in answer["legal_moves"] if m["player"] == mover)
        answer = client.post(f"{game}/moves", json={"state": answer["state"],
                                                    "move": move}).get_json()
        assert "code" not in answer, answer  # a flyer not in to_act is accepted
    assert hidden  # the seed does deal a twin to someone to_act does not name


def twin_hidden_elsewhere(state):
    """`state` with the twin of the top card, held by a player not in turn, swapped with a
    stock card: a state that differs from it only in cards nobody else sees (None when no
    such player or no such stock card)."""
    top = state.pile[-1]
    holder = next((seat for seat, hand in enumerate(state.hands)
                   if seat != state.current and top in hand), None)
    other = next((card for card in state.stock if card != top), None)
    if holder is None or other is None:
        return None
    hand = list(state.hands[holder])
    stock = list(state.stock)
    hand[hand.index(top)], stock[stock.index(other)] = other, top
    hands = tuple(tuple(hand) if seat == holder else h for seat, h in enumerate(state.hands))
    return holder, dataclasses.replace(state, hands=hands, stock=tuple(stock))


def seen_by(state, player):
    """What `player` (a seat or a spectator) learns: who acts, his view, his legal moves."""
    return (ENGINE.to_act(state, now=NOW), ENGINE.view(state, player),
            [m for m in legal(state) if m["player"] == player])


@pytest.mark.parametrize("seed", range(8))
def test_to_act_views_and_others_moves_do_not_tell_where_the_twin_is(seed):
    """Two states that differ only in hidden cards (the twin of the top card in an opponent's
    hand or in the stock) look the same to every other seat and to a spectator."""
    pick = random.Random(seed)
    players = ("ann", "bob", "cyd", "dan")[:3 + seed % 2]
    state = ENGINE.new_match(players, ENGINE.resolve_options(FLY), f"twin-{seed}", now=NOW)
    compared = told = 0
    for _ in range(400):
        if ENGINE.is_finished(state):
            break
        swapped = twin_hidden_elsewhere(state)
        if swapped is not None:
            holder, elsewhere = swapped
            assert players[holder] not in flyers_of(elsewhere)
            told += players[holder] in flyers_of(state)  # his own moves do differ
            for viewer in (*(p for seat, p in enumerate(players) if seat != holder),
                           SPECTATOR):
                assert seen_by(state, viewer) == seen_by(elsewhere, viewer)
            compared += 1
        state, _ = ENGINE.apply(state, pick.choice(legal(state)), now=NOW)
    assert compared and told


def test_options_values_that_move_no_wild_nor_attack_rank_share_the_tables_of_following():
    # The tables of following and answering (some 60 kB each) depend on the wild ranks and on
    # the stopping rank with the attacks; options values that differ elsewhere share them, so
    # the 512 compiled values a worker may keep cost a few MB rather than ninety.
    # Compiled here, one after the other (a value's rules compiled earlier may hold tables
    # made before their memo was last emptied).
    def compiled(options):
        return Rules(compiled_options(ENGINE.resolve_options(options)))

    plain = compiled({})
    scored = compiled({"points_K": 20, "target": 50, "on_the_fly": True, "decks": 2})
    assert scored.following is plain.following and scored.answering is plain.answering
    # a value that moves change_suit (laid on anything) onto the queen has its own
    moved = compiled({"effect_change_suit": "Q"})
    assert moved.following is not plain.following
    assert "QS" in moved.following["H"]["2"] and "QS" not in plain.following["H"]["2"]
    assert "8S" in plain.following["H"]["2"] and "8S" not in moved.following["H"]["2"]
    # and one that stops attacks with the seven, its own answers
    stopped = compiled({"effect_stop": "7"})
    assert stopped.answering is not plain.answering and "7S" in stopped.answering["2"]
