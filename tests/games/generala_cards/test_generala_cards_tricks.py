"""Générala (cards): the trick rules, one table row per clause, on hand-built states.

Seats a, b, c, d... in seat order; play passes to the next letter (the player to the right).
"""

from __future__ import annotations

import pytest

from referee.core.errors import IllegalMove, NotYourTurn

# (id, hands, trick so far, options, the legal moves of the player to act)
LEGAL = [
    ("the leader may lead any card",
     ["2H 5C X1", "3H", "4H"], [], {}, ["play 5C", "play 2H", "play X1"]),
    ("able to follow: any card of the led suit, lower or higher, and nothing else",
     ["3S", "2H KH 5C X1", "4D"], [("a", "9H")], {}, ["play 2H", "play KH"]),
    ("unable to follow: a joker or a refusal taking the lead",
     ["3S", "5C 7S X1", "4D"], [("a", "9H")], {}, ["play X1", "refuse 9H"]),
    ("unable to follow and no joker: only the refusal",
     ["3S", "5C 7S", "4D"], [("a", "9H")], {}, ["refuse 9H"]),
    ("holding both jokers: either joker, or refuse",
     ["3S", "X1 X2", "4D"], [("a", "9H")], {}, ["play X1", "play X2", "refuse 9H"]),
    ("after a joker the next player still follows the first card's suit",
     ["3S", "4S", "3H 5C X2", "4D"], [("a", "9H"), ("b", "X1")], {}, ["play 3H"]),
    ("after a joker a player unable to follow may lay the other joker (French)",
     ["3S", "4S", "5C X2", "4D"], [("a", "9H"), ("b", "X1")], {}, ["play X2", "refuse 9H"]),
    ("the refusal may take any card of the trick but no joker",
     ["3S", "4S", "5S", "5C X2", "4D"], [("a", "9H"), ("b", "4H"), ("c", "X1")], {},
     ["play X2", "refuse 4H", "refuse 9H"]),
    ("after a joker lead any card may be laid and there is no refusal",
     ["3S", "2H 5C X2", "4D"], [("a", "X1")], {}, ["play 5C", "play 2H", "play X2"]),
    ("after a joker lead the players after continue with any card",
     ["3S", "4S", "2H 5C", "4D"], [("a", "X1"), ("b", "4S")], {}, ["play 5C", "play 2H"]),
]


@pytest.mark.parametrize("hands,trick,options,expected",
                         [row[1:] for row in LEGAL], ids=[row[0] for row in LEGAL])
def test_legal_moves_follow_the_trick_rules(gc, hands, trick, options, expected):
    state = gc.build(hands, trick=trick, options=options)
    assert gc.moves_of(state) == expected
    for move in gc.engine.legal_moves(state, now=0.0):
        gc.engine.apply(state, move, now=0.0)  # each listed move is accepted as posted


# (id, hands, trick so far, options, move fields, rule refused)
ILLEGAL = [
    ("a card not in hand", ["2H", "3H 4S", "4D"], [("a", "2H")], {},
     {"type": "play", "card": "5H"}, "card_in_hand"),
    ("a card that is no card at all", ["2H", "3H 4S", "4D"], [("a", "2H")], {},
     {"type": "play", "card": "ZZ"}, "card_in_hand"),
    ("off suit while able to follow", ["2H", "3H 4S", "4D"], [("a", "2H")], {},
     {"type": "play", "card": "4S"}, "follow_suit"),
    ("a joker while able to follow", ["2H", "3H X1", "4D"], [("a", "2H")], {},
     {"type": "play", "card": "X1"}, "follow_suit"),
    ("a refusal while able to follow", ["2H", "3H X1", "4D"], [("a", "2H")], {},
     {"type": "refuse", "take": "2H"}, "follow_suit"),
    ("an off-suit card while unable to follow", ["2H", "4S", "4D"], [("a", "2H")], {},
     {"type": "play", "card": "4S"}, "follow_or_refuse"),
    ("a refusal by the leader", ["2H 3C", "4S", "4D"], [], {},
     {"type": "refuse", "take": "2H"}, "refuse_needs_trick"),
    ("a refusal after a joker lead", ["2H 3C", "4S", "4D"], [("a", "X1")], {},
     {"type": "refuse", "take": "2H"}, "joker_lead_any_card"),
    ("taking a joker on refusal", ["2H", "4S", "4D", "5D"], [("a", "2H"), ("b", "X1")], {},
     {"type": "refuse", "take": "X1"}, "take_no_joker"),
    ("taking a card not in the trick", ["2H", "4S", "4D"], [("a", "2H")], {},
     {"type": "refuse", "take": "AH"}, "take_from_trick"),
    ("taking a card of one's own hand", ["2H", "4S", "4D"], [("a", "2H")], {},
     {"type": "refuse", "take": "4S"}, "take_from_trick"),
    ("a move type the game does not have", ["2H", "4S", "4D"], [("a", "2H")], {},
     {"type": "pass"}, "move_type"),
    ("a card field of the wrong type", ["2H", "4S", "4D"], [("a", "2H")], {},
     {"type": "play", "card": ["4S"]}, "card_in_hand"),
    ("the joker right after a joker (German)", ["2H", "3S", "4S X2", "5D"],
     [("a", "2H"), ("b", "X1")], {"variant": "braille"},
     {"type": "play", "card": "X2"}, "no_joker_after_joker"),
    ("not the last-dealt card on the first lead (German)", ["2H 3C", "4S", "4D"], [],
     {"variant": "braille"}, {"type": "play", "card": "2H"}, "lead_last_dealt_card"),
]


@pytest.mark.parametrize("hands,trick,options,fields,rule",
                         [row[1:] for row in ILLEGAL], ids=[row[0] for row in ILLEGAL])
def test_moves_against_a_rule_are_refused_naming_it(gc, hands, trick, options, fields, rule):
    first_lead = "3C" if rule == "lead_last_dealt_card" else None
    state = gc.build(hands, trick=trick, options=options, first_lead=first_lead)
    player = state.players[state.current]
    with pytest.raises(IllegalMove) as err:
        gc.engine.apply(state, {"player": player, **fields}, now=0.0)
    assert err.value.rule == rule
    assert err.value.code == "illegal_move"


@pytest.mark.parametrize("who", ["a", "c", "zed"])
def test_a_move_by_anyone_but_the_player_to_act_is_not_his_turn(gc, who):
    state = gc.build(["2H", "3H", "4H"], trick=[("a", "2H")])
    with pytest.raises(NotYourTurn) as err:
        gc.play(state, who, "3H")
    assert err.value.code == "not_your_turn"


# (id, hands, trick before the last card, last player, last card, who wins, who leads next)
COMPLETE = [
    ("the highest card of the led suit wins and leads",
     ["5H 2C", "KH 2D", "9H 2S"], [("a", "5H"), ("b", "KH")], "c", "9H", "b", "b"),
    ("a lower card does not beat the lead",
     ["QH 2C", "3H 2D", "9H 2S"], [("a", "QH"), ("b", "3H")], "c", "9H", "a", "a"),
    ("a joker laid when unable to follow wins",
     ["AH 2C", "X1 2D", "9H 2S"], [("a", "AH"), ("b", "X1")], "c", "9H", "b", "b"),
    ("of two jokers the first laid wins",
     ["AH 2C", "X2 2D", "X1 2S"], [("a", "AH"), ("b", "X2")], "c", "X1", "b", "b"),
    ("a joker lead wins whatever follows",
     ["X1 2C", "AS 2D", "AH 2S"], [("a", "X1"), ("b", "AS")], "c", "AH", "a", "a"),
    ("a joker lead beats the second joker",
     ["X2 2C", "X1 2D", "AH 2S"], [("a", "X2"), ("b", "X1")], "c", "AH", "a", "a"),
    ("the winner out of cards: the strongest card among holders leads",
     ["AH", "3H 2D", "KH 2S", "5H 2C"], [("a", "AH"), ("b", "3H"), ("c", "KH")], "d", "5H",
     "a", "c"),
    ("the first joker's player out: the second joker's player leads",
     ["9H 2C", "X1", "X2 2S", "AH 2D"], [("a", "9H"), ("b", "X1"), ("c", "X2")], "d", "AH",
     "b", "c"),
    ("both jokers' players out: the highest natural card among holders leads",
     ["9H 2C", "X1", "X2", "AH 2D"], [("a", "9H"), ("b", "X1"), ("c", "X2")], "d", "AH",
     "b", "d"),
    ("joker-led tie of ranks: the one who laid that rank first leads",
     ["X1", "7S 2C", "7H 2D", "3C 2S"], [("a", "X1"), ("b", "7S"), ("c", "7H")], "d", "3C",
     "a", "b"),
    ("joker-led tie of ranks: first laid wins whatever the suits",
     ["X1", "3C 2C", "7H 2D", "7S 2S"], [("a", "X1"), ("b", "3C"), ("c", "7H")], "d", "7S",
     "a", "c"),
    ("joker-led: ranks count across suits, the higher rank leads",
     ["X1", "7S 2C", "8C 2D", "7H 2S"], [("a", "X1"), ("b", "7S"), ("c", "8C")], "d", "7H",
     "a", "c"),
    ("a player who went out earlier in the deal is skipped",
     ["5H 2C", "", "9H 2S", "KH 3S"], [("a", "5H"), ("c", "9H")], "d", "KH", "d", "d"),
]


@pytest.mark.parametrize("hands,trick,last,card,winner,leader",
                         [row[1:] for row in COMPLETE], ids=[row[0] for row in COMPLETE])
def test_a_complete_trick_goes_to_its_strongest_card(gc, hands, trick, last, card, winner,
                                                     leader):
    state = gc.build(hands, trick=trick)
    assert state.players[state.current] == last
    after, events = gc.play(state, last, card)
    won = [e for e in events if e["type"] == "trick_won"]
    assert won and won[0]["player"] == winner
    assert won[0]["cards"] == [c for _, c in trick] + [card]
    assert after.trick == ()
    assert after.players[after.leader] == leader == after.players[after.current]
    for c in won[0]["cards"]:  # the trick goes face down out of the game
        assert c in after.discards
    assert gc.engine.problems(after) == []


# (id, hands, trick so far, card taken, who leads next)
REFUSED = [
    ("the strongest card's player leads after a refusal",
     ["5H 2C", "KH 2D", "3S 4S", "2H 3D"], [("a", "5H"), ("b", "KH")], "5H", "b"),
    ("the refuser may take the strongest card; its player still leads",
     ["5H 2C", "KH 2D", "3S 4S", "2H 3D"], [("a", "5H"), ("b", "KH")], "KH", "b"),
    ("refusing right after the lead takes it; the leader leads again",
     ["QH 3S", "5C", "2D"], [("a", "QH")], "QH", "a"),
    ("the leader out of cards: the refuser takes the only card and leads (French text)",
     ["QH", "5C 7S", "2D"], [("a", "QH")], "QH", "b"),
    ("the strongest card's player out: the strongest among holders leads",
     ["QH", "4H 5S", "7C 9C"], [("a", "QH"), ("b", "4H")], "QH", "b"),
    ("a joker laid before the refusal is the strongest card",
     ["9H 3S", "X1 2C", "7C", "2D"], [("a", "9H"), ("b", "X1")], "9H", "b"),
    ("nobody who played still holds cards: the refuser leads (German text)",
     ["9H", "X1", "7C", "2D"], [("a", "9H"), ("b", "X1")], "9H", "c"),
]


@pytest.mark.parametrize("hands,trick,take,leader",
                         [row[1:] for row in REFUSED], ids=[row[0] for row in REFUSED])
def test_a_refusal_ends_the_trick_at_once(gc, hands, trick, take, leader):
    state = gc.build(hands, trick=trick)
    refuser = state.players[state.current]
    seat = state.current
    after, events = gc.refuse(state, refuser, take)
    assert gc.event_types(events)[0] == "card_taken"
    assert events[0]["card"] == take and events[0]["player"] == refuser
    rest = [c for _, c in trick]
    rest.remove(take)
    assert events[0]["discarded"] == rest
    assert after.hands[seat] == state.hands[seat] + (take,)
    assert after.trick == ()
    assert set(rest) <= set(after.discards) and take not in after.discards
    assert after.players[after.leader] == leader == after.players[after.current]
    # the players after the refuser laid nothing in this trick
    for later in range(len(hands)):
        if later != seat and not any(p == after.players[later] for p, _ in trick):
            assert after.hands[later] == state.hands[later]
    assert gc.engine.problems(after) == []


def test_a_player_who_lays_his_last_card_is_out_of_the_deal_but_the_trick_goes_on(gc):
    state = gc.build(["5H", "9H 2C", "2H 3C"])
    after, events = gc.play(state, "a", "5H")
    assert gc.event_types(events) == ["card_played", "player_out"]
    assert after.players[after.current] == "b"
    scores = gc.engine.scores(after)["players"]
    assert scores["a"]["out_of_deal"] and not scores["a"]["out_of_match"]
    after, _ = gc.play(after, "b", "9H")
    after, events = gc.play(after, "c", "2H")
    assert gc.event_types(events)[-2:] == ["trick_won", "trick_led_next"]
    assert after.players[after.leader] == "b"
    # a holds nothing: he is skipped from now on
    after, _ = gc.play(after, "b", "2C")
    assert after.players[after.current] == "c"


ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


@pytest.mark.parametrize("low,high", list(zip(ORDER, ORDER[1:])) + [("A", "X")],
                         ids=[f"{a} below {b}" for a, b in zip(ORDER, ORDER[1:])]
                         + ["A below the joker"])
@pytest.mark.parametrize("high_first", [False, True], ids=["higher laid second",
                                                           "higher laid first"])
def test_ranks_run_from_two_up_to_ace_then_the_joker(gc, low, high, high_first):
    low_card = low + "S"
    high_card = "X1" if high == "X" else high + "S"
    if high == "X":  # the joker goes after a spade only when the player has no spade
        state = gc.build(["AS 2C", "X1 2D", "3C"], dealer="c")
        state, _ = gc.play(state, "a", "AS")
        state, _ = gc.play(state, "b", "X1")
        state, _ = gc.refuse(state, "c", "AS")
        assert state.players[state.leader] == "b"
        return
    first, second = (high_card, low_card) if high_first else (low_card, high_card)
    state = gc.build([f"{first} 2C", f"{second} 2D", "3C"], dealer="c")
    state, _ = gc.play(state, "a", first)
    state, _ = gc.play(state, "b", second)
    state, events = gc.refuse(state, "c", first)  # the strongest card's player leads next
    assert state.players[state.leader] == ("a" if high_first else "b")
