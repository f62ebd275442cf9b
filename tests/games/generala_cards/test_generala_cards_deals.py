"""Générala (cards): dealing, the end of a deal, the loser dealing without playing, the match."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.core.cards import shuffled
from referee.core.errors import GameOver, InvalidOptions
from referee.games.generala_cards.deck import DECK
from referee.service.errors import Refused
from tests.support import created

PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")


def new(gc, n, **options):
    return gc.engine.new_match(PLAYERS[:n], gc.engine.resolve_options(options), "seed-x",
                               now=0.0)


@pytest.mark.parametrize("n", range(2, 11))
def test_all_54_cards_are_dealt_as_evenly_as_possible(gc, n):
    state = new(gc, n, dealer="0")
    counts = [len(h) for h in state.hands]
    assert sum(counts) == 54 and max(counts) - min(counts) <= 1
    assert Counter(c for h in state.hands for c in h) == Counter(DECK)
    assert gc.engine.problems(state) == []


@pytest.mark.parametrize("n,dealer", [(4, 0), (4, 2), (5, 4), (7, 3), (10, 9), (2, 1)])
def test_cards_go_one_at_a_time_counter_clockwise_from_the_dealers_right(gc, n, dealer):
    state = new(gc, n, dealer=str(dealer))
    deck = shuffled(DECK, "seed-x", 0)  # a named dealer draws nothing: the shuffle is step 0
    for i, card in enumerate(deck):
        seat = (dealer + 1 + i % n) % n
        assert state.hands[seat][i // n] == card
    right = (dealer + 1) % n
    # the extra cards (54 mod n) go to the first players from the dealer's right
    extra = 54 % n
    for k in range(n):
        assert len(state.hands[(right + k) % n]) == 54 // n + (1 if k < extra else 0)
    assert state.leader == state.current == right  # the dealer's right leads the first trick
    assert state.first_lead == state.hands[right][-1]  # the card he was dealt last


@pytest.mark.parametrize("given,seat", [("cy", 2), ("2", 2), ("0", 0), ("bob", 1)])
def test_the_dealer_option_names_the_first_dealer_by_id_or_seat(gc, given, seat):
    assert new(gc, 4, dealer=given).dealer == seat


@pytest.mark.parametrize("given", ["zed", "4", "-1", "01x"])
def test_a_dealer_naming_nobody_is_refused(gc, given):
    with pytest.raises(InvalidOptions):
        new(gc, 4, dealer=given)


def test_without_the_option_the_first_dealer_is_drawn_from_the_seed(gc):
    dealers = {gc.engine.new_match(PLAYERS[:6], gc.engine.resolve_options({}), f"s{i}",
                                   now=0.0).dealer for i in range(40)}
    assert len(dealers) > 1  # drawn, not fixed
    again = [gc.engine.new_match(PLAYERS[:6], gc.engine.resolve_options({}), "same",
                                 now=0.0) for _ in range(2)]
    assert again[0] == again[1]  # and reproducible from the seed


def test_the_first_dealer_plays_in_the_first_deal(gc):
    state = new(gc, 3, dealer="bob")
    assert all(len(h) == 18 for h in state.hands)


# -- the end of a deal ---------------------------------------------------------------------------

def test_the_last_holder_loses_is_out_and_deals_the_next_deal_without_playing(gc):
    state = gc.build(["5H", "9H", "2H 3H"], dealer="a")
    state, _ = gc.play(state, "a", "5H")
    state, _ = gc.play(state, "b", "9H")
    state, events = gc.play(state, "c", "2H")
    types = gc.event_types(events)
    assert types[:4] == ["card_played", "trick_won", "deal_lost", "deal_dealt"]
    assert events[2] == {"type": "deal_lost", "player": "c", "deal": 1, "cards": 1}
    assert events[3]["dealer"] == "c" and events[3]["dealer_plays"] is False
    assert types.count("cards_dealt") == 2
    assert state.deal == 2 and state.dealer == 2 and state.eliminated == (0, 0, 1)
    assert [len(h) for h in state.hands] == [27, 27, 0]
    assert state.players[state.leader] == "a"  # the right of the dealer c, who does not play
    assert state.step == 6  # the new shuffle used the state's step
    assert gc.engine.problems(state) == []
    scores = gc.engine.scores(state)
    assert scores["players"]["c"]["out_of_match"] and scores["players"]["c"]["lost_deal"] == 1
    assert scores["players"]["c"]["deals_lost"] == 1
    assert scores["losers"] == ["c"] and scores["winners"] == []


def test_the_lone_holder_still_answers_the_trick_and_may_go_out_with_it(gc):
    state = gc.build(["5H", "9H", "2H"], dealer="b")
    state, _ = gc.play(state, "a", "5H")
    state, _ = gc.play(state, "b", "9H")
    assert gc.moves_of(state) == ["play 2H"]  # c alone holds a card but has not played yet
    state, events = gc.play(state, "c", "2H")
    assert "deal_without_loser" in gc.event_types(events)


def test_everyone_out_in_the_same_trick_means_no_loser_and_the_same_dealer_again(gc):
    state = gc.build(["5H", "9H", "2H"], dealer="b")
    state, _ = gc.play(state, "a", "5H")
    state, _ = gc.play(state, "b", "9H")
    state, events = gc.play(state, "c", "2H")
    assert {"type": "deal_without_loser", "deal": 1, "players": ["a", "b", "c"]} in events
    assert "deal_lost" not in gc.event_types(events)
    assert state.deal == 2 and state.dealer == 1 and state.eliminated == (0, 0, 0)
    assert [len(h) for h in state.hands] == [18, 18, 18]  # everyone plays, the dealer too
    assert state.players[state.leader] == "c"


def test_a_tie_dealt_by_an_earlier_loser_is_dealt_by_him_again_without_him(gc):
    state = gc.build(["5H", "9H", "2H", ""], dealer="d", leader="a", deal=2,
                     eliminated={"d": 1})
    state, _ = gc.play(state, "a", "5H")
    state, _ = gc.play(state, "b", "9H")
    state, events = gc.play(state, "c", "2H")
    assert "deal_without_loser" in gc.event_types(events)
    assert state.deal == 3 and state.dealer == 3
    assert [len(h) for h in state.hands] == [18, 18, 18, 0]


def test_a_refusal_that_leaves_one_holder_ends_the_deal(gc):
    # a leads his last card, b lays his last card (a joker), c cannot follow and refuses:
    # c alone holds cards, so the refused trick ends the deal and c loses it
    state = gc.build(["5H", "X1", "3C 4C", ""], dealer="d", leader="a", deal=2,
                     eliminated={"d": 1})
    state, _ = gc.play(state, "a", "5H")
    state, _ = gc.play(state, "b", "X1")
    state, events = gc.refuse(state, "c", "5H")
    assert gc.event_types(events)[:3] == ["card_taken", "deal_lost", "deal_dealt"]
    assert events[1] == {"type": "deal_lost", "player": "c", "deal": 2, "cards": 3}
    assert state.deal == 3 and state.eliminated == (0, 0, 2, 1) and state.dealer == 2
    assert gc.engine.problems(state) == []


def test_a_refusal_that_leaves_two_holders_does_not_end_the_deal(gc):
    state = gc.build(["5H", "2C", "3C 4C"], dealer="c")
    state, _ = gc.play(state, "a", "5H")
    state, events = gc.refuse(state, "b", "5H")
    assert gc.event_types(events) == ["card_taken", "trick_led_next"]
    assert state.deal == 1 and state.players[state.leader] == "b"  # a is out: the refuser leads
    assert state.hands == ((), ("2C", "5H"), ("3C", "4C"))


def test_a_joker_as_the_last_card_goes_out(gc):
    state = gc.build(["5H", "X1", "2H"], dealer="c")
    state, _ = gc.play(state, "a", "5H")
    state, events = gc.play(state, "b", "X1")
    assert gc.event_types(events) == ["card_played", "player_out"]
    state, events = gc.play(state, "c", "2H")
    assert "deal_without_loser" in gc.event_types(events)  # all three out in the same trick


def test_with_two_players_a_single_deal_with_a_loser_decides_the_match(gc):
    state = gc.build(["5H 6H", "9H"], dealer="b")
    state, _ = gc.play(state, "a", "5H")
    state, events = gc.play(state, "b", "9H")
    assert gc.event_types(events)[-2:] == ["deal_lost", "match_won"]
    assert events[-1] == {"type": "match_won", "player": "b", "deal": 1}
    assert gc.engine.is_finished(state)
    assert gc.engine.legal_moves(state, now=0.0) == []
    assert gc.engine.to_act(state, now=0.0) == []
    assert gc.engine.problems(state) == []
    scores = gc.engine.scores(state)
    assert scores["winners"] == ["b"] and scores["losers"] == ["a"] and not scores["draw"]
    assert scores["players"]["b"]["total"] == 1 and scores["players"]["a"]["total"] == 0
    with pytest.raises(GameOver) as err:
        gc.play(state, "a", "6H")
    assert err.value.code == "game_over"


@pytest.mark.parametrize("options", [{}, {"variant": "french"}, {"two_player_deal_decides": True,
                                                                 "variant": "braille"}],
                         ids=["default", "french", "braille with the french option"])
@pytest.mark.parametrize("hands,loser,winner", [
    (["5H", "9H"], "b", "a"),  # b laid his last card second: he held a card last
    (["9H", "5H"], "b", "a"),  # whoever wins the trick
    (["X1", "5C"], "b", "a"),  # after a joker lead too
])
def test_with_two_players_both_out_together_the_one_who_laid_last_loses_in_the_french_text(
        gc, options, hands, loser, winner):
    state = gc.build(hands, dealer="b", options=options)
    state, _ = gc.play(state, "a", hands[0])
    state, events = gc.play(state, "b", hands[1])
    assert {"type": "deal_lost", "player": loser, "deal": 1, "cards": 0} in events
    assert events[-1] == {"type": "match_won", "player": winner, "deal": 1}
    assert gc.engine.is_finished(state) and gc.engine.scores(state)["winners"] == [winner]
    assert gc.engine.problems(state) == []


def test_a_match_down_to_two_players_ends_with_that_deal_in_the_french_text(gc):
    state = gc.build(["5H", "", "9H"], dealer="b", leader="a", deal=2, eliminated={"b": 1})
    state, _ = gc.play(state, "a", "5H")
    state, events = gc.play(state, "c", "9H")
    assert {"type": "deal_lost", "player": "c", "deal": 2, "cards": 0} in events
    assert gc.engine.scores(state)["winners"] == ["a"]
    assert gc.engine.scores(state)["losers"] == ["b", "c"]


@pytest.mark.parametrize("options", [{"variant": "braille"},
                                     {"two_player_deal_decides": False}],
                         ids=["braille", "french without the option"])
def test_with_two_players_both_out_together_the_deal_is_played_again_in_the_german_text(
        gc, options):
    state = gc.build(["5H", "9H"], dealer="b", options=options)
    state, _ = gc.play(state, "a", "5H")
    state, events = gc.play(state, "b", "9H")
    assert "deal_without_loser" in gc.event_types(events)
    assert "deal_lost" not in gc.event_types(events)
    assert not gc.engine.is_finished(state)
    assert state.deal == 2 and [len(h) for h in state.hands] == [27, 27]


def test_the_match_goes_on_until_one_player_remains(gc):
    state = gc.build(["5H", "9H 2C", "", "2H 3C"], dealer="c", leader="a", deal=2,
                     eliminated={"c": 1})
    state, _ = gc.play(state, "a", "5H")
    state, _ = gc.play(state, "b", "9H")
    state, events = gc.play(state, "d", "2H")
    assert "trick_led_next" in gc.event_types(events)
    state, _ = gc.play(state, "b", "2C")
    state, events = gc.play(state, "d", "3C")
    assert "deal_without_loser" in gc.event_types(events)
    assert state.dealer == 2 and [len(h) for h in state.hands] == [18, 18, 0, 18]
    # and once a deal has a loser, the last two play on
    three = gc.build(["5H", "9H 2C", "", "2H"], dealer="c", leader="a", deal=2,
                     eliminated={"c": 1})
    three, _ = gc.play(three, "a", "5H")
    three, _ = gc.play(three, "b", "9H")
    three, events = gc.play(three, "d", "2H")
    assert {"type": "deal_lost", "player": "b", "deal": 2, "cards": 1} in events
    assert three.dealer == 1 and three.eliminated == (0, 2, 1, 0)
    assert [len(h) for h in three.hands] == [27, 0, 0, 27]
    assert three.players[three.leader] == "d"  # the dealer b's right, skipping c who is out


@pytest.mark.parametrize("n", [1, 11])
def test_a_match_of_fewer_than_two_or_more_than_ten_players_is_refused(gc, n):
    with pytest.raises(Refused, match="takes 2 to 10 players") as refused:
        created(gc.engine, n)
    assert refused.value.code == "validation_error"


@pytest.mark.parametrize("n", [1, 11])
def test_a_creation_request_for_fewer_than_two_or_more_than_ten_players_is_a_validation_error(
        client, n):
    # Over HTTP the player count is a fault of the request's `players`, named as such.
    response = client.post("/v1/games/generala-cards/matches",
                           json={"players": list(PLAYERS[:n] + ("kim",) * (n > 10))})
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == "validation_error", body
    assert "players" in body["errors"]


@pytest.mark.parametrize("n", [2, 10])
def test_two_and_ten_players_are_accepted(gc, n):
    state = new(gc, n)
    assert len(state.hands) == n and gc.engine.problems(state) == []
