"""Générala (cards): the options, the presets of the two texts, and each rule where they differ."""

from __future__ import annotations

import pytest

from referee.core.errors import InvalidOptions

FRENCH = {"variant": "french", "lead_last_dealt_card": False, "no_joker_after_joker": False,
          "several_out_no_loser": False, "two_player_deal_decides": True,
          "tie_dealt_by_last_card": False, "dealer": ""}
BRAILLE = {**FRENCH, "variant": "braille", "lead_last_dealt_card": True,
           "no_joker_after_joker": True, "two_player_deal_decides": False,
           "tie_dealt_by_last_card": True}

RESOLVED = [
    ("no option is the French text", {}, FRENCH),
    ("the french preset", {"variant": "french"}, FRENCH),
    ("the braille preset is the German text", {"variant": "braille"}, BRAILLE),
    ("a boolean given overrides the german preset", {"variant": "braille",
                                                     "no_joker_after_joker": False},
     {**BRAILLE, "no_joker_after_joker": False}),
    ("a boolean given overrides the french preset", {"lead_last_dealt_card": True},
     {**FRENCH, "lead_last_dealt_card": True}),
    ("the two german booleans alone, on the french preset",
     {"lead_last_dealt_card": True, "no_joker_after_joker": True},
     {**FRENCH, "lead_last_dealt_card": True, "no_joker_after_joker": True}),
    ("the literal french reading of several going out", {"several_out_no_loser": True},
     {**FRENCH, "several_out_no_loser": True}),
    ("a dealer named", {"dealer": "bob"}, {**FRENCH, "dealer": "bob"}),
]


@pytest.mark.parametrize("given,expected", [r[1:] for r in RESOLVED], ids=[r[0] for r in RESOLVED])
def test_options_resolve_from_the_variant_preset(gc, given, expected):
    assert gc.engine.resolve_options(given) == expected


BAD = [
    ("an unknown variant", {"variant": "spanish"}, "variant"),
    ("a variant of the wrong type", {"variant": 1}, "variant"),
    ("a variant given as a list", {"variant": ["braille"]}, "variant"),
    ("a boolean of the wrong type", {"no_joker_after_joker": "yes"}, "no_joker_after_joker"),
    ("an integer where a boolean goes", {"lead_last_dealt_card": 1}, "lead_last_dealt_card"),
    ("a dealer of the wrong type", {"dealer": 3}, "dealer"),
    ("a dealer with spaces", {"dealer": " 1"}, "dealer"),
    ("an unknown option", {"trumps": True}, "trumps"),
]


@pytest.mark.parametrize("given,name", [r[1:] for r in BAD], ids=[r[0] for r in BAD])
def test_bad_options_are_refused(gc, given, name):
    with pytest.raises(InvalidOptions) as err:
        gc.engine.resolve_options(given)
    assert err.value.code == "invalid_options"
    assert name in err.value.detail


def test_the_state_keeps_the_variant_and_the_booleans(gc):
    state = gc.engine.new_match(("a", "b"), gc.engine.resolve_options({"variant": "braille"}),
                                "s", now=0.0)
    assert state.options.variant == "braille" and state.options.lead_last_dealt_card


# -- the first lead: the card dealt last (German text) -------------------------------------------

@pytest.mark.parametrize("options,restricted", [
    ({}, False), ({"variant": "braille"}, True), ({"lead_last_dealt_card": True}, True),
    ({"variant": "braille", "lead_last_dealt_card": False}, False),
], ids=["french: any lead", "braille: the last-dealt card", "option alone", "braille without it"])
@pytest.mark.parametrize("n", [2, 4, 10])
def test_the_first_lead_of_a_deal_is_the_card_dealt_last_in_the_german_text(gc, options,
                                                                              restricted, n):
    state = gc.engine.new_match(tuple("abcdefghij"[:n]), gc.engine.resolve_options(options),
                                "lead-seed", now=0.0)
    leader_hand = state.hands[state.leader]
    moves = gc.moves_of(state)
    if restricted:
        assert moves == [f"play {state.first_lead}"] and state.first_lead == leader_hand[-1]
    else:
        assert len(moves) == len(leader_hand)
    state, _ = gc.engine.apply(state, gc.engine.legal_moves(state, now=0.0)[0], now=0.0)
    assert state.first_lead is None


def test_after_the_first_trick_any_card_may_be_led_in_the_german_text(gc):
    state = gc.build(["5H 9C", "9H 2S", "2H 3D"], options={"variant": "braille"},
                     first_lead="9C")
    assert gc.moves_of(state) == ["play 9C"]
    state = gc.build(["5H 9C", "9H 2S", "2H 3D"], options={"variant": "braille"})
    assert gc.moves_of(state) == ["play 9C", "play 5H"]


def test_the_first_lead_rule_holds_in_every_deal(gc):
    state = gc.build(["5H", "9H", "2H"], dealer="b", options={"variant": "braille"})
    for player, card in (("a", "5H"), ("b", "9H"), ("c", "2H")):
        state, _ = gc.play(state, player, card)
    assert state.deal == 2
    assert gc.moves_of(state) == [f"play {state.hands[state.leader][-1]}"]


# -- no joker right after a joker (German text) --------------------------------------------------

# (id, hands, trick so far, moves in the French text, moves in the German text)
JOKERS = [
    ("right after a joker that was not the lead, no joker: refuse",
     ["9H", "X1 2S", "5C X2", "4D"], [("a", "9H"), ("b", "X1")],
     ["play X2", "refuse 9H"], ["refuse 9H"]),
    ("right after a joker, following suit is unaffected",
     ["9H", "X1 2S", "3H X2", "4D"], [("a", "9H"), ("b", "X1")], ["play 3H"], ["play 3H"]),
    ("one player later the joker is allowed again",
     ["9H", "X1 2S", "3H 4C", "5C X2"], [("a", "9H"), ("b", "X1"), ("c", "3H")],
     ["play X2", "refuse 3H", "refuse 9H"], ["play X2", "refuse 3H", "refuse 9H"]),
    ("a joker lead is the first card: the next player may lay the other joker",
     ["X1", "5C X2", "4D"], [("a", "X1")], ["play 5C", "play X2"], ["play 5C", "play X2"]),
]


@pytest.mark.parametrize("hands,trick,french,german", [r[1:] for r in JOKERS],
                         ids=[r[0] for r in JOKERS])
@pytest.mark.parametrize("options,text", [({}, "french"), ({"variant": "braille"}, "german"),
                                          ({"no_joker_after_joker": True}, "german"),
                                          ({"variant": "braille",
                                            "no_joker_after_joker": False}, "french")],
                         ids=["french", "braille", "option alone", "braille without it"])
def test_no_joker_right_after_a_joker_in_the_german_text(gc, hands, trick, french, german,
                                                         options, text):
    state = gc.build(hands, trick=trick, options=options)
    assert gc.moves_of(state) == (german if text == "german" else french)


# -- several players out in the last trick: the literal French reading ---------------------------

@pytest.mark.parametrize("hands,last_holder_loses_by_default,loses_literally", [
    (["5H", "9H", "2H 3H"], True, False),  # a and b go out together; c still holds 3H
    (["5H", "9H 2C"], True, True),  # only a goes out in the last trick: b loses either way
    (["5H", "9H", "2H"], False, False),  # all out together: nobody loses in both readings
], ids=["two out with one holder left", "one out with one holder left", "all out together"])
def test_several_players_out_in_the_last_trick(gc, hands, last_holder_loses_by_default,
                                               loses_literally):
    for options, loses in (({}, last_holder_loses_by_default),
                           ({"variant": "braille"}, last_holder_loses_by_default),
                           ({"several_out_no_loser": True}, loses_literally)):
        state = gc.build(hands, dealer="b", options=options)
        events = []
        for seat, hand in enumerate(hands):
            state, events = gc.play(state, "abc"[seat], hand.split()[0])
        assert ("deal_lost" in gc.event_types(events)) is loses, options
        assert ("deal_without_loser" in gc.event_types(events)) is (not loses), options


# -- who deals after a deal without a loser ------------------------------------------------------

@pytest.mark.parametrize("options,dealer,leader", [
    ({}, "d", "a"),  # French: the same dealer (the earlier loser, who does not play) again
    ({"variant": "braille"}, "c", "a"),  # German: c laid the deal's last card
    ({"tie_dealt_by_last_card": True}, "c", "a"),
    ({"variant": "braille", "tie_dealt_by_last_card": False}, "d", "a"),
], ids=["french", "braille", "option alone", "braille without it"])
def test_after_a_deal_without_loser_the_last_to_hold_a_card_deals_in_the_german_text(
        gc, options, dealer, leader):
    state = gc.build(["5H", "9H", "2H", ""], dealer="d", leader="a", deal=2,
                     eliminated={"d": 1}, options=options)
    for player, card in (("a", "5H"), ("b", "9H"), ("c", "2H")):
        state, events = gc.play(state, player, card)
    assert "deal_without_loser" in gc.event_types(events)
    dealt = next(e for e in events if e["type"] == "deal_dealt")
    assert dealt["dealer"] == dealer and dealt["dealer_plays"] is (dealer != "d")
    assert state.players[state.dealer] == dealer
    assert state.players[state.leader] == leader  # the right of the dealer among players
    assert [len(h) for h in state.hands] == [18, 18, 18, 0]  # all three play, d does not
    assert state.eliminated == (0, 0, 0, 1)


def test_the_german_tie_dealer_with_the_literal_several_out_reading_is_the_lone_holder(gc):
    state = gc.build(["5H", "9H", "2H 3H"], dealer="a",
                     options={"variant": "braille", "several_out_no_loser": True})
    for player, card in (("a", "5H"), ("b", "9H"), ("c", "2H")):
        state, events = gc.play(state, player, card)
    assert "deal_without_loser" in gc.event_types(events)
    assert state.players[state.dealer] == "c" and state.players[state.leader] == "a"
