"""Générala (cards): hand-made states that break an invariant are refused as `invalid_state`.

Each row takes a sound state, breaks one thing in its wire form (as sent over HTTP), and
checks that `Engine.decode` raises `InvalidState` naming the problem.
"""

from __future__ import annotations

import pytest

from referee.core.errors import InvalidState
from referee.games.generala_cards import ENGINE
from referee.games.generala_cards.deck import DECK
from referee.games.generala_cards.state import Options, Play, State
from tests.support import edited_wire

HANDS = (("2C", "3C"), ("4C", "5C", "X1"), ("6C", "7C"), ("8C", "9C"))
TRICK = (Play(0, "TH"),)
USED = {c for h in HANDS for c in h} | {"TH"}
SOUND = State(
    players=("a", "b", "c", "d"), options=Options(), seed="seed", step=3, deal=2, dealer=3,
    hands=HANDS, trick=TRICK, leader=0, current=1,
    discards=tuple(c for c in DECK if c not in USED), eliminated=(0, 0, 0, 0),
)


def wire(**changes):
    return edited_wire(ENGINE, SOUND, **changes)


def test_the_sound_state_decodes_to_itself():
    assert ENGINE.problems(SOUND) == []
    assert ENGINE.decode(ENGINE.encode(SOUND)) == SOUND


DISCARDS = list(SOUND.discards)
BROKEN = [
    # conservation: every one of the 54 cards in exactly one place
    ("a card missing", wire(discards=DISCARDS[1:]), "is missing"),
    ("a card duplicated in two hands", wire(hands__2=["6C", "7C", "2C"]), "too many"),
    ("a card both in a hand and on the table", wire(trick__0__card="2C"), "too many"),
    ("a card both in a hand and face down", wire(discards=DISCARDS + ["9C"]), "too many"),
    ("a joker duplicated", wire(hands__3=["8C", "9C", "X1"]), "X1 appears"),
    ("something that is no card", wire(hands__0=["2C", "3C", "ZZ"]), "not a card"),
    # who acts
    ("the player to act is out of the deal", wire(hands__1=[], current=1,
                                                  discards=DISCARDS + ["4C", "5C", "X1"]),
     "out of this deal"),
    ("the player to act is out of the match",
     wire(eliminated=[0, 1, 0, 0], hands__1=[], discards=DISCARDS + ["4C", "5C", "X1"]),
     "out of the match"),
    ("the player to act is past the players", wire(current=4), "past the players"),
    ("the player to act is not next", wire(current=2), "is next"),
    ("the player to act already laid a card", wire(current=0), "already laid"),
    ("nobody led but the player to act is not the leader", wire(trick=[], current=1,
                                                                hands__0=["2C", "3C", "TH"]),
     "not the leader"),
    # the trick
    ("the trick's first card is not the leader's", wire(leader=1), "not laid by the leader"),
    ("a player skipped in the trick", wire(trick=[{"seat": 0, "card": "TH"},
                                                  {"seat": 2, "card": "JH"}],
                                           current=3,
                                           discards=[c for c in DISCARDS if c != "JH"]),
     "skipped"),
    ("a card off the led suit", wire(trick=[{"seat": 0, "card": "TH"},
                                            {"seat": 1, "card": "JS"}],
                                     current=2,
                                     discards=[c for c in DISCARDS if c != "JS"]),
     "do not follow"),
    ("a complete trick left on the table",
     wire(hands=[["2C"], ["5C"], ["7C"], ["9C"]], current=1,
          trick=[{"seat": 0, "card": "TH"}, {"seat": 1, "card": "JH"},
                 {"seat": 2, "card": "QH"}, {"seat": 3, "card": "KH"}],
          discards=[c for c in DECK if c not in {"2C", "5C", "7C", "9C", "TH", "JH", "QH",
                                                 "KH"}]),
     "should be over"),
    ("a trick seat past the players", wire(trick__0__seat=7), "past the players"),
    ("the leader past the players", wire(leader=-1), "past the players"),
    ("the dealer past the players", wire(dealer=4), "past the players"),
    ("a first lead card not in the leader's hand", wire(trick=[], hands__0=["2C", "3C", "TH"],
                                                        current=0, first_lead="AS"),
     "not in the leader's hand"),
    ("a first lead card after the lead", wire(first_lead="2C"), "first trick has been led"),
    # the match
    ("an eliminated player holding cards", wire(eliminated=[0, 0, 1, 0]), "holds cards"),
    ("two players lost the same deal", wire(eliminated=[0, 0, 1, 1], hands__2=[], hands__3=[],
                                            discards=DISCARDS + ["6C", "7C", "8C", "9C"]),
     "same deal"),
    ("a player lost a deal not yet played", wire(eliminated=[0, 0, 0, 5], hands__3=[],
                                                 discards=DISCARDS + ["8C", "9C"]),
     "not yet played"),
    ("a finished match with a player to act",
     wire(eliminated=[0, 1, 2, 2], trick=[], hands=[[], ["2C"], [], []],
          discards=[c for c in DECK if c != "2C"]), "named to act"),
    ("one hand too few", wire(hands=[["2C"], ["3C"], ["4C"]]), "one hand per player"),
    ("one elimination entry too many", wire(eliminated=[0, 0, 0, 0, 0]),
     "one elimination entry"),
    ("a deal numbered zero", wire(deal=0), "deal number"),
    ("a negative step", wire(step=-1), "step is negative"),
    ("an empty seed", wire(seed=""), "seed is empty"),
    # players and options
    ("one player", wire(players=["a"], hands=[[]], eliminated=[0]), "takes 2 to 10"),
    ("eleven players", wire(players=list("abcdefghijk")), "takes 2 to 10"),
    ("two players with the same id", wire(players=["a", "b", "a", "d"]), "unique"),
    ("an unknown variant", wire(options__variant="spanish"), "options.variant"),
    ("a dealer option naming nobody", wire(options__dealer="zed"), "options.dealer"),
]


@pytest.mark.parametrize("data,fragment", [r[1:] for r in BROKEN], ids=[r[0] for r in BROKEN])
def test_a_state_breaking_an_invariant_is_refused(data, fragment):
    with pytest.raises(InvalidState) as err:
        ENGINE.decode(data)
    assert err.value.code == "invalid_state"
    assert any(fragment in p for p in err.value.problems), err.value.problems


def rest_of_deck(*held: str) -> list[str]:
    """Every card but these, face down: the discards of a state where only these are in play."""
    return [c for c in DECK if c not in set(held)]


# A finished match of three: b lost deal 1, c lost deal 2 (the current one) and may keep the
# cards he was left with.
FINISHED = dict(players=["a", "b", "c"], eliminated=[0, 1, 2], deal=2, dealer=1, current=-1,
                trick=[], leader=0, hands=[[], [], ["2C"]], discards=rest_of_deck("2C"))

# Each state breaks exactly one invariant, so the check that names it is the only one that can
# refuse it: deleting or loosening that check lets the state through.
ALONE = [
    ("the leader one past the players", wire(leader=4), "leader seat 4"),
    ("a trick seat one past the players", wire(trick__0__seat=4), "trick seats [4]"),
    ("every player out of the match",
     wire(eliminated=[1, 2, 3, 4], deal=4, current=-1, trick=[], hands=[[], [], [], []],
          discards=list(DECK)), "every player is out of the match"),
    ("the current deal lost while the match goes on",
     wire(eliminated=[0, 0, 0, 2], hands__3=[], discards=DISCARDS + ["8C", "9C"]),
     "already has a loser"),
    ("a player out of the match with a card in the trick",
     wire(eliminated=[1, 0, 0, 0], hands__0=[], discards=DISCARDS + ["2C", "3C"]),
     "out of the match but laid a card"),
    ("a finished match with a card on the table",
     wire(**{**FINISHED, "hands": [[], [], []], "trick": [{"seat": 0, "card": "TH"}],
             "discards": rest_of_deck("TH")}), "finished with cards on the table"),
    ("one player holding cards in a deal that goes on",
     wire(trick=[], hands=[["2C"], [], [], []], current=0, discards=rest_of_deck("2C")),
     "fewer than two players hold cards"),
]


@pytest.mark.parametrize("data,fragment", [r[1:] for r in ALONE], ids=[r[0] for r in ALONE])
def test_a_state_breaking_one_invariant_is_refused_for_that_one_alone(data, fragment):
    with pytest.raises(InvalidState) as err:
        ENGINE.decode(data)
    [problem] = err.value.problems
    assert fragment in problem


def test_a_player_laying_twice_in_one_trick_is_refused():
    data = wire(trick=[{"seat": 0, "card": "TH"}, {"seat": 0, "card": "JH"}],
                discards=rest_of_deck("JH", *USED))
    with pytest.raises(InvalidState) as err:
        ENGINE.decode(data)
    assert "a player laid two cards in the same trick" in err.value.problems


# Each sits on the edge of a check (the first deal, seat 0, the current deal's loser, a seat
# skipped because it is out of the deal...): a check that slid by one would refuse it.
SOUND_EDGES = [
    ("the first deal dealt by seat 0", wire(deal=1, dealer=0)),
    ("a finished match whose last loser keeps his cards", wire(**FINISHED)),
    ("a player out of the match while a trick is laid",
     wire(eliminated=[0, 0, 0, 1], hands__3=[], discards=DISCARDS + ["8C", "9C"])),
    ("no trick yet and exactly two players holding cards",
     wire(trick=[], hands=[["2C"], ["3C"], [], []], current=0,
          discards=rest_of_deck("2C", "3C"))),
    ("the seat after the last card out of the deal and skipped",
     wire(hands__1=[], current=2, discards=DISCARDS + ["4C", "5C", "X1"])),
]


@pytest.mark.parametrize("data", [r[1] for r in SOUND_EDGES], ids=[r[0] for r in SOUND_EDGES])
def test_a_sound_state_at_the_edge_of_a_check_decodes(data):
    assert ENGINE.problems(ENGINE.decode(data)) == []


@pytest.mark.parametrize("data", [
    wire(deal="2"), wire(trick=[["TH", 0]]), wire(eliminated=[0, 0, 0, None]),
    wire(options__no_joker_after_joker=1), wire(hands=None),
], ids=["a deal as text", "a play as a list", "a null elimination", "an integer boolean",
        "no hands"])
def test_a_state_of_the_wrong_shape_is_refused(data):
    with pytest.raises(InvalidState):
        ENGINE.decode(data)


def test_a_trusted_state_skips_the_invariant_checks():
    assert ENGINE.decode(wire(deal=0), trusted=True).deal == 0
