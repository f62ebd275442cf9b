"""L'Empereur: broken hand-made states are refused (invalid_state), views hide what they must."""

from __future__ import annotations

import dataclasses

import pytest

from referee.core.errors import InvalidState
from referee.core.outcome import event_for
from referee.games.empereur import ENGINE
from referee.games.empereur.testing import table

NOW = 0.0


def _good():
    return ENGINE.encode(table([["5C", "9S"], ["4C", "3C"], ["3D", "4D"]],
                               pile=[("6H", "6"), ("X1", "7")], last_player=2))


def _edit(**changes):
    data = _good()
    for key, value in changes.items():
        if "." in key:
            outer, inner = key.split(".")
            data[outer][inner] = value
        else:
            data[key] = value
    return data


def _move_card(data, card, where):
    """Put `card` in `where` as well (a duplicate)."""
    data[where] = list(data[where]) + [card]
    return data


BROKEN = [
    pytest.param(_move_card(_good(), "5C", "stock"), "appears", id="a card twice"),
    pytest.param(_edit(stock=[]), "missing", id="cards missing"),
    pytest.param(_edit(hands=[["5C", "9S", "ZZ"], ["3C", "4C"], ["3D", "4D"]]),
                 "not a card", id="a card of no deck"),
    pytest.param(_edit(hands=[["9S", "5C"], ["3C", "4C"], ["3D", "4D"]]), "sorted",
                 id="an unsorted hand"),
    pytest.param(_edit(current=3), "turn index", id="turn index past the players"),
    pytest.param(_edit(dealer=-1), "dealer", id="dealer index past the players"),
    pytest.param(_edit(players=["a", "a", "c"]), "unique", id="duplicate players"),
    pytest.param(_edit(players=["a"], hands=[["5C"]], roles=[""], previous_roles=[""],
                       rounds_won=[0], rounds_lost=[0], points=[0]), "players",
                 id="one player"),
    pytest.param(_edit(**{"options.jokers": 3}), "jokers", id="three jokers"),
    pytest.param(_edit(**{"options.mode": "blitz"}), "mode", id="unknown mode"),
    pytest.param(_edit(pile_ranks=["6"]), "length", id="pile ranks missing"),
    pytest.param(_edit(pile_ranks=["5", "7"]), "own rank", id="a natural counting as another"),
    pytest.param(_edit(pile_ranks=["6", "5"]), "go down", id="the pile going down"),
    pytest.param(_edit(pile_ranks=["6", "2"]), "two", id="a two left on the pile"),
    pytest.param(_edit(pile_ranks=["6", "Z"]), "not a rank", id="a joker named no rank"),
    pytest.param(_edit(last_player=None), "last player", id="a pile without its player"),
    pytest.param(_edit(last_player=0), "last player is to act", id="the pile's player to act"),
    pytest.param(_edit(roles=["elect", "", ""]), "out of the round",
                 id="a player out holding cards"),
    pytest.param(_edit(roles=["", "emperor", ""]), "still in", id="an emperor during play"),
    pytest.param(_edit(roles=["", "subject", "subject"]), "at least two",
                 id="one player left in play"),
    pytest.param(_edit(round=4), "past the 3 rounds", id="a round past the match"),
    pytest.param(_edit(round=0), "starts at 1", id="round zero"),
    pytest.param(_edit(points=[5, 0, 0]), "Elite", id="points in the Normal mode"),
    pytest.param(_edit(rounds_won=[1, 0, 0]), "rounds won", id="a round won that was not played"),
    pytest.param(_edit(previous_roles=["emperor", "subject", "subject"]), "previous roles",
                 id="previous roles in the first round"),
    pytest.param(_edit(gifts=[[1, 0]]), "no gifts", id="gifts due during play"),
    pytest.param(_edit(step=-1), "step", id="negative step"),
    pytest.param(_edit(seed=""), "seed", id="empty seed"),
    pytest.param(_edit(phase="dreaming"), "phase", id="unknown phase"),
    pytest.param(_edit(emperor=0), "no Emperor yet", id="an Emperor in a Normal round in play"),
    pytest.param(_edit(emperor=3), "past the players", id="an Emperor past the players"),
    pytest.param(_edit(previous_emperor=1), "first round", id="a last Emperor in round one"),
    pytest.param(_edit(**{"options.mode": "mirror_normal", "roles": ["", "", ""],
                          "emperor": 1}), "first Elect", id="a Mirror Emperor nobody out"),
    pytest.param(_edit(step="3"), "parse", id="a step that is not a number"),
    pytest.param(_edit(hands="nope"), "parse", id="hands that are not lists"),
]


@pytest.mark.parametrize("data,needle", BROKEN)
def test_broken_states_are_refused_as_invalid(data, needle):
    with pytest.raises(InvalidState) as err:
        ENGINE.decode(data)
    assert needle in str(err.value)


def test_the_sound_hand_made_state_is_accepted():
    assert ENGINE.decode(_good()) is not None


def _exchange_data(gifts, stage=1, mode="elite", **fields):
    hands = [["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
             ["3D", "4D", "KD", "KH", "KS", "8D", "9D"],
             ["3H", "4H", "5H", "6H", "X1", "8H", "9H"]]
    mirror = mode.startswith("mirror")
    previous = ["outcast", "elect", "elect"] if mirror else ["emperor", "subject", "subject"]
    return ENGINE.encode(table(hands, mode=mode, round=2, previous_roles=previous,
                               phase="exchange", gifts=gifts, exchange_stage=stage, dealer=2,
                               **fields))


@pytest.mark.parametrize("data,needle", [
    pytest.param(_exchange_data([(0, 1)]), "gifts due", id="the emperor giving first"),
    pytest.param(_exchange_data([]), "gifts due", id="an exchange with nothing due"),
    pytest.param(_exchange_data([(1, 0), (1, 0)]), "gifts due", id="a gift due twice"),
    pytest.param(_exchange_data([(1, 0)], stage=3), "stage", id="an exchange stage 3"),
    pytest.param(dict(_exchange_data([(1, 0)]), round=1, previous_roles=["", "", ""],
                      rounds_won=[0, 0, 0], rounds_lost=[0, 0, 0]),
                 "first round", id="an exchange before the first round"),
    pytest.param(dict(_exchange_data([(1, 0)]), previous_roles=["emperor", "emperor",
                                                                 "subject"]),
                 "roles", id="two emperors last round"),
    pytest.param(_exchange_data([(1, 0)], mode="normal"), "no exchange",
                 id="an exchange in the Normal mode"),
    pytest.param(_exchange_data([(0, 1)], stage=3, mode="mirror_normal"), "stage",
                 id="a Mirror Normal exchange at stage 3"),
    pytest.param(_exchange_data([(1, 0)], mode="mirror_elite", previous_emperor=None),
                 "gifts due", id="gifts to an Emperor the last round did not have"),
    pytest.param(_exchange_data([(1, 0)], previous_emperor=1), "Emperor",
                 id="a last Emperor who was a Subject"),
    pytest.param(_exchange_data([(1, 0)], emperor=0), "before play",
                 id="an Emperor of this round during its exchange"),
])
def test_broken_exchanges_are_refused_as_invalid(data, needle):
    with pytest.raises(InvalidState) as err:
        ENGINE.decode(data)
    assert needle in str(err.value)


def test_a_finished_elite_match_needs_one_player_at_the_target():
    state = table([["5C"], ["3C"], ["3D"]], mode="elite", target_points=6)
    after, _ = ENGINE.apply(state, {"type": "play", "player": "a", "cards": ["5C"],
                                    "rank": "5"}, now=NOW)
    data = ENGINE.encode(after)
    assert ENGINE.decode(data) == after
    data["points"] = [5, 0, 0]
    with pytest.raises(InvalidState):
        ENGINE.decode(data)


def _finished(mode="normal"):
    """A sound finished match: one round of three, or an Elite match to 6 points."""
    state = table([["5C"], ["3C", "9S"], ["3D"]], rounds=1, mode=mode, target_points=6)
    after, _ = ENGINE.apply(state, {"type": "play", "player": "a", "cards": ["5C"],
                                    "rank": "5"}, now=NOW)
    return ENGINE.encode(after)


def _changed(data, **changes):
    data = dict(data)
    for key, value in changes.items():
        if "." in key:
            outer, inner = key.split(".")
            data[outer] = {**data[outer], inner: value}
        else:
            data[key] = value
    return data


_HANDS = [["5C", "9S"], ["4C", "3C"], ["3D", "4D"]]
_PILE = [("6H", "6"), ("X1", "7")]
_SEVEN_CARDS = [["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
                ["3D", "4D", "KD", "KH", "KS", "8D", "9D"],
                ["3H", "4H", "5H", "6H", "X1", "8H", "9H"]]


# The Subject b owes the Emperor his highest card but holds none; the hands still hold 21
# cards in all, as the seven-card check counts them.
_EMPTY_HANDED_GIVER = [_SEVEN_CARDS[0] + _SEVEN_CARDS[1], [], _SEVEN_CARDS[2]]


def _exchange(hands=_SEVEN_CARDS):
    return ENGINE.encode(table(hands, mode="elite", round=2,
                               previous_roles=["emperor", "subject", "subject"],
                               phase="exchange", gifts=[(1, 0), (2, 0)], exchange_stage=1,
                               dealer=2))


# Each state breaks exactly one invariant, so the check that names it is the only one that can
# refuse it: deleting or loosening that check lets the state through.
ALONE = [
    pytest.param(ENGINE.encode(table([["5C", "9S"], [], ["3D", "4D"]], pile=_PILE,
                                     last_player=2)),
                 "still plays but holds no card", id="a player still in holding no card"),
    pytest.param(_edit(roles=["", "subject", ""]), "out of the round but holds cards",
                 id="a player out by a joker still holding cards"),
    pytest.param(ENGINE.encode(table([[], ["4C", "3C"], ["3D", "4D"]], pile=_PILE, last_player=2,
                                     roles=["subject", "", ""])),
                 "player to act is out", id="the player to act out of the round"),
    pytest.param(ENGINE.encode(table([["5C"], ["6C"], ["7C"], ["8C"], ["9C"], ["TC"], ["JC"]],
                                     players=tuple("abcdefg"))),
                 "takes 2 to 6", id="seven players"),
    pytest.param(_edit(points=[0, 0]), "points must have one entry per player",
                 id="a per-player tuple one short"),
    pytest.param(_edit(dealer=3), "dealer index 3", id="dealer index one past the players"),
    pytest.param(_edit(current=3), "turn index 3", id="turn index one past the players"),
    pytest.param(_edit(last_player=3), "last player is past the players",
                 id="the pile's last player one past the players"),
    pytest.param(_edit(**{"options.mode": "elite"}, points=[-1, 0, 0]), "never negative",
                 id="negative points"),
    pytest.param(_edit(roles=["king", "", ""]), "unknown role", id="a role of no game"),
    pytest.param(ENGINE.encode(table(_HANDS, pile=_PILE, last_player=2, round=2,
                                     rounds_won=[0, 0, 0], rounds_lost=[1, 1, 1])),
                 "exactly one Emperor", id="a finished round without its Emperor"),
    pytest.param(_edit(**{"options.mode": "elite", "options.target_points": 6},
                       points=[6, 0, 0]),
                 "reached the target but the match goes on", id="Elite target reached in play"),
    pytest.param(_changed(_finished(), roles=["emperor", "", "subject"]),
                 "complete roles", id="a finished match with a player still in"),
    pytest.param(_changed(_finished(), **{"options.rounds": 3}), "ends after its last round",
                 id="a match of three rounds finished after one"),
    pytest.param(_changed(_finished(), drawn=True), "no exchange and no turn in progress",
                 id="a finished match with a card drawn"),
    pytest.param(_changed(_finished("elite"), roles=["subject", "emperor", "subject"], emperor=1),
                 "player at the target must be the last round's emperor",
                 id="the Elite winner not the last Emperor"),
    pytest.param(_changed(_exchange(), roles=["emperor", "subject", "subject"]),
                 "roles are given out only once play starts", id="roles during the exchange"),
    pytest.param(_changed(_exchange(), drawn=True), "nobody has drawn during the exchange",
                 id="a card drawn during the exchange"),
    pytest.param(_exchange([_SEVEN_CARDS[0][:6], *_SEVEN_CARDS[1:]]), "seven-card hands",
                 id="a six-card hand in the exchange"),
    pytest.param(_exchange(_EMPTY_HANDED_GIVER), "b owes 1 card(s) in the exchange but holds none",
                 id="a Subject owing his highest card with an empty hand"),
]


@pytest.mark.parametrize("data,needle", ALONE)
def test_a_state_breaking_one_invariant_is_refused_for_that_one_alone(data, needle):
    with pytest.raises(InvalidState) as err:
        ENGINE.decode(data)
    [problem] = err.value.problems
    assert needle in problem


@pytest.mark.parametrize("data", [
    _finished(), _finished("elite"), _exchange(),
    ENGINE.encode(table(_HANDS, pile=[("6H", "6"), ("6S", "6")], last_player=2, dealer=0)),
], ids=["finished in rounds", "finished Elite", "exchange", "equal ranks on the pile, dealer 0"])
def test_the_sound_states_the_broken_ones_start_from_are_accepted(data):
    assert ENGINE.decode(data) is not None


# -- views ---------------------------------------------------------------------------------------
def test_a_view_shows_own_hand_pile_counts_roles_and_points_only():
    state = table([["5C", "9S"], ["4C", "3C"], ["3D", "4D"]], pile=[("6H", "6"), ("X1", "7")],
                  last_player=2, stock=["KH"])
    view = ENGINE.view(state, "a")
    assert view["hand"] == ["5C", "9S"]
    assert view["pile"] == [{"card": "6H", "rank": "6"}, {"card": "X1", "rank": "7"}]
    assert view["hand_counts"] == {"a": 2, "b": 2, "c": 2}
    assert view["stock_count"] == len(state.stock)
    assert view["roles"] == {"a": None, "b": None, "c": None}
    assert view["points"] == {"a": 0, "b": 0, "c": 0}
    text = repr(view)
    for hidden in ("4C", "3C", "3D", "4D", "KH", "test-seed"):
        assert hidden not in text


def test_a_spectator_view_shows_no_hand():
    state = table([["5C", "9S"], ["4C", "3C"], ["3D", "4D"]])
    assert ENGINE.view(state, "zed")["hand"] == []


def test_what_a_player_receives_in_the_exchange_is_shown_to_giver_and_receiver_only():
    state = ENGINE.decode(_exchange_data([(1, 0), (2, 0)]))
    _, events = ENGINE.apply(state, {"type": "give", "player": "b", "card": "KD", "to": "a"},
                             now=NOW)
    [given] = events
    assert event_for(given, "b")["card"] == "KD" and event_for(given, "a")["card"] == "KD"
    assert "card" not in event_for(given, "c") and "card" not in event_for(given, "zed")
    assert event_for(given, "c") == {"type": "card_given", "player": "b", "to": "a",
                                     "stage": 1, "exchange": "emperor"}


def test_scores_report_cards_roles_rounds_and_points():
    state = table([["5C"], ["3C", "9S"], ["3D"]], mode="elite")
    after, _ = ENGINE.apply(state, {"type": "play", "player": "a", "cards": ["5C"],
                                    "rank": "5"}, now=NOW)
    scores = ENGINE.scores(after)
    assert scores["players"]["a"] == {"total": 3 + 9 + 3, "cards": 7, "role": None,
                                      "previous_role": "emperor", "roles": [],
                                      "previous_roles": ["emperor"], "rounds_won": 1,
                                      "rounds_lost": 0, "points": 15}
    assert scores["players"]["b"]["previous_roles"] == ["subject"]
    assert scores["winners"] == [] and scores["losers"] == [] and scores["draw"] is False


def test_an_empty_handed_giver_is_refused_by_the_problem_list():
    state = table(_EMPTY_HANDED_GIVER, mode="elite", round=2,
                  previous_roles=["emperor", "subject", "subject"], phase="exchange",
                  gifts=[(1, 0), (2, 0)], exchange_stage=1, dealer=2)
    assert ENGINE.problems(state) == ["b owes 1 card(s) in the exchange but holds none"]
    giving_all = dataclasses.replace(state, hands=(state.hands[0][:7], state.hands[0][7:],
                                                   state.hands[2]))
    assert ENGINE.problems(giving_all) == []


@pytest.mark.parametrize("operation", ["legal-moves", "moves"])
def test_an_empty_handed_giver_is_an_invalid_state_over_http(client, operation):
    def posted(hands):
        body = {"state": {**_exchange(hands), "seating": {"bots": [], "hints_allowed": False},
                          "fairness": None}}
        if operation == "moves":
            body["move"] = {"type": "give", "player": "c", "card": "X1", "to": "a"}
        return client.post(f"/v1/games/empereur/{operation}", json=body)

    sound = posted([_EMPTY_HANDED_GIVER[0][:7], _EMPTY_HANDED_GIVER[0][7:],
                    _EMPTY_HANDED_GIVER[2]])
    assert sound.status_code == 200, sound.get_data(as_text=True)
    response = posted(_EMPTY_HANDED_GIVER)
    assert response.status_code == 422, response.get_data(as_text=True)
    answer = response.get_json(force=True)
    assert answer["code"] == "invalid_state"
    assert answer["problems"] == ["b owes 1 card(s) in the exchange but holds none"]
