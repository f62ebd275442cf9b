"""Generala (dice): the course of a turn and of a match, the turn clock and the house rules.

States are built by hand; the clock is the `now=` argument. Expected dice come from the match's
random source (`referee.core.dice.roll(seed, step, count)`), never from the engine's output.
"""

from __future__ import annotations

import dataclasses
import itertools

import msgspec
import pytest

from referee.core import dice as dice_source
from referee.core.errors import GameOver, IllegalMove, InvalidOptions, NotYourTurn
from referee.games.generala_dice import ENGINE
from referee.games.generala_dice.scoring import BOXES
from referee.games.generala_dice.state import Options, State
from referee.service.errors import Refused
from tests.support import created

NOW = 1_000.0
DEADLINE = NOW + 30


def sheet_of(count, skip=()):
    """A sheet with the first `count` boxes (sheet order, skipping `skip`) scratched to 0."""
    return dict(itertools.islice(((b, 0) for b in BOXES if b not in skip), count))


def make(players=("ann", "bob"), current=0, rolls=0, dice=(), sheets=None, options=None,
         deadline=DEADLINE, seed="seed", step=3, instant_winner=None):
    options = options or Options()
    sheets = sheets if sheets is not None else tuple({} for _ in players)
    if not options.turn_seconds:
        deadline = None
    state = State(players=tuple(players), options=options, seed=seed, step=step, current=current,
                  rolls=rolls, dice=tuple(dice), sheets=tuple(sheets), deadline=deadline,
                  instant_winner=instant_winner)
    assert ENGINE.problems(state) == [], ENGINE.problems(state)
    return state


def roll(player="ann", keep=None):
    move = {"type": "roll", "player": player}
    if keep is not None:
        move["keep"] = list(keep)
    return move


def score(box, player="ann"):
    return {"type": "score", "player": player, "box": box}


def timeout(player):
    return {"type": "timeout", "player": player}


def seed_where(predicate, step=0, count=5):
    """The first seed 's0', 's1', ... whose roll of `count` dice at `step` satisfies predicate."""
    for n in itertools.count():
        if predicate(dice_source.roll(f"s{n}", step, count)):
            return f"s{n}"


# -- creating a match ------------------------------------------------------------------------

@pytest.mark.parametrize("count", [2, 3, 4, 5, 6], ids=lambda n: f"{n} players")
def test_a_match_takes_two_to_six_players(count):
    assert created(ENGINE, count)["status"] == "in_progress"
    players = tuple(f"p{i}" for i in range(count))
    state = ENGINE.new_match(players, ENGINE.resolve_options({}), "seed", now=NOW)
    assert ENGINE.problems(state) == []
    assert ENGINE.to_act(state, now=NOW) == ["p0"]
    assert state.sheets == tuple({} for _ in players)


@pytest.mark.parametrize("count", [0, 1, 7], ids=lambda n: f"{n} players")
def test_fewer_than_two_or_more_than_six_players_are_refused(count):
    with pytest.raises(Refused, match="takes 2 to 6 players") as refused:
        created(ENGINE, count)
    assert refused.value.code == "validation_error"


def test_the_default_options_are_the_playgridia_sheet():
    options = ENGINE.resolve_options({})
    assert options == msgspec.structs.asdict(Options())
    assert options == {"turn_seconds": 45, "servida_generala_wins": False, "escalera": 20,
                       "full": 30, "poker": 40, "generala": 50, "doble_generala": 100,
                       "servida_bonus": 5}


@pytest.mark.parametrize("given", [
    {"turn_seconds": -1}, {"turn_seconds": "45"}, {"poker": -5}, {"generala": 1001},
    {"servida_generala_wins": 1}, {"chance": 10},
], ids=["negative clock", "clock as text", "negative poker", "generala too big",
        "house rule not boolean", "unknown option"])
def test_option_values_outside_their_declaration_are_refused(given):
    with pytest.raises(InvalidOptions):
        ENGINE.resolve_options(given)


# -- rolling ---------------------------------------------------------------------------------

def test_a_turn_starts_by_rolling_all_five_dice():
    state = make()
    assert ENGINE.legal_moves(state, now=NOW) == [roll(keep=[])]
    new, events = ENGINE.apply(state, roll(keep=[]), now=NOW)
    expected = dice_source.roll("seed", 3, 5)
    assert (new.dice, new.rolls, new.step) == (expected, 1, 4)
    assert events == [{"type": "dice_rolled", "player": "ann", "roll": 1, "kept": [],
                       "rolled": list(expected), "dice": list(expected),
                       "chance": {"step": 3, "draw": "dice", "count": 5, "field": "rolled"}}]


def test_a_first_roll_without_a_keep_field_rolls_all_five_dice():
    new, _ = ENGINE.apply(make(), roll(), now=NOW)
    assert new.dice == dice_source.roll("seed", 3, 5)


def test_the_first_roll_of_a_turn_cannot_keep_dice():
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(make(), roll(keep=[3]), now=NOW)
    assert refused.value.rule == "first_roll_all_dice"


@pytest.mark.parametrize("keep", [[6, 6], [6, 6, 1], [1], [2, 6, 6, 3], [6, 3, 6]],
                         ids=lambda k: "keep " + "-".join(map(str, k)))
def test_kept_dice_come_first_in_the_order_given_then_the_rolled_ones(keep):
    state = make(rolls=1, dice=(6, 1, 6, 2, 3))
    new, events = ENGINE.apply(state, roll(keep=keep), now=NOW)
    rolled = dice_source.roll("seed", 3, 5 - len(keep))
    assert new.dice == tuple(keep) + rolled
    assert (new.rolls, new.step) == (2, 4)
    assert events[0]["kept"] == keep and events[0]["rolled"] == list(rolled)


def test_kept_dice_are_not_locked_and_may_be_rerolled_on_the_third_roll():
    state = make(rolls=2, dice=(6, 6, 4, 1, 2))
    assert roll(keep=[]) in ENGINE.legal_moves(state, now=NOW)
    new, _ = ENGINE.apply(state, roll(keep=[]), now=NOW)
    assert new.dice == dice_source.roll("seed", 3, 5)
    assert new.rolls == 3


@pytest.mark.parametrize("dice,keep", [
    ((1, 2, 3, 4, 5), [6]),
    ((1, 2, 3, 4, 5), [2, 2]),
    ((1, 1, 1, 4, 5), [1, 1, 1, 1]),
    ((1, 2, 3, 4, 5), [0]),
    ((1, 2, 3, 4, 5), [7]),
], ids=["a face not shown", "a face twice shown once", "four of a face shown thrice",
        "face zero", "face seven"])
def test_only_dice_on_the_table_may_be_kept(dice, keep):
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(make(rolls=1, dice=dice), roll(keep=keep), now=NOW)
    assert refused.value.rule == "keep_from_dice"


def test_at_least_one_die_must_be_rolled():
    state = make(rolls=1, dice=(1, 2, 3, 4, 5))
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, roll(keep=[1, 2, 3, 4, 5]), now=NOW)
    assert refused.value.rule == "roll_at_least_one"
    assert all(len(m["keep"]) < 5 for m in ENGINE.legal_moves(state, now=NOW)
               if m["type"] == "roll")


def test_a_turn_has_at_most_three_rolls():
    state = make(rolls=3, dice=(1, 2, 3, 4, 6))
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, roll(keep=[1]), now=NOW)
    assert refused.value.rule == "three_rolls"
    assert {m["type"] for m in ENGINE.legal_moves(state, now=NOW)} == {"score"}


@pytest.mark.parametrize("dice,keeps", [
    ((1, 2, 3, 4, 5), 31),  # 2^5 subsets minus keeping all five
    ((6, 6, 6, 6, 6), 5),   # keep 0..4 sixes
    ((2, 2, 3, 3, 3), 11),  # 3 * 4 multisets minus keeping all five
], ids=["five faces", "five of a kind", "a full"])
def test_every_keep_is_listed_once_as_sorted_values(dice, keeps):
    listed = [m["keep"] for m in ENGINE.legal_moves(make(rolls=1, dice=dice), now=NOW)
              if m["type"] == "roll"]
    assert len(listed) == len({tuple(k) for k in listed}) == keeps
    assert all(k == sorted(k) for k in listed)


# -- scoring ---------------------------------------------------------------------------------

def test_a_box_cannot_be_filled_before_the_first_roll():
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(make(), score("ones"), now=NOW)
    assert refused.value.rule == "roll_before_scoring"


@pytest.mark.parametrize("rolls", [1, 2, 3], ids=lambda r: f"after roll {r}")
def test_a_box_may_be_filled_after_any_roll(rolls):
    state = make(rolls=rolls, dice=(3, 3, 3, 1, 2))
    assert score("threes") in ENGINE.legal_moves(state, now=NOW)
    new, events = ENGINE.apply(state, score("threes"), now=NOW)
    assert new.sheets[0] == {"threes": 9}
    assert (new.rolls, new.dice, new.current) == (0, (), 1)


def test_a_filled_box_cannot_be_filled_again():
    state = make(rolls=1, dice=(3, 3, 3, 1, 2), sheets=({"threes": 6}, {"ones": 0}))
    assert score("threes") not in ENGINE.legal_moves(state, now=NOW)
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, score("threes"), now=NOW)
    assert refused.value.rule == "box_filled"


def test_an_unknown_box_is_refused_as_a_rule_not_a_crash():
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(make(rolls=1, dice=(1, 1, 1, 1, 1)), score("chance"), now=NOW)
    assert refused.value.rule == "unknown_box"


def test_filling_a_box_passes_the_turn_to_the_next_seat_and_wraps_round():
    state = make(players=("ann", "bob", "cy"), current=2, rolls=2, dice=(1, 1, 2, 2, 2),
                 sheets=({"ones": 0}, {"ones": 0}, {}))
    new, events = ENGINE.apply(state, score("full", player="cy"), now=NOW)
    assert new.current == 0 and ENGINE.to_act(new, now=NOW) == ["ann"]
    assert events[-1] == {"type": "turn_passed", "player": "ann", "deadline": NOW + 45}


# -- whose turn, and the end -----------------------------------------------------------------

@pytest.mark.parametrize("move", [roll(player="bob", keep=[]), score("ones", player="bob"),
                                  roll(player="zed", keep=[])],
                         ids=["bob rolls on ann's turn", "bob scores on ann's turn",
                              "a stranger rolls"])
def test_only_the_player_whose_turn_it_is_may_roll_or_score(move):
    with pytest.raises(NotYourTurn):
        ENGINE.apply(make(rolls=1, dice=(1, 1, 1, 1, 1)), move, now=NOW)


def test_the_match_ends_when_every_player_has_filled_all_eleven_boxes():
    state = make(current=1, rolls=3, dice=(6, 6, 6, 6, 6),
                 sheets=(sheet_of(11), sheet_of(10, skip=("generala",))),
                 )
    assert not ENGINE.is_finished(state)
    new, events = ENGINE.apply(state, score("generala", player="bob"), now=NOW)
    assert ENGINE.is_finished(new)
    assert ENGINE.to_act(new, now=NOW) == [] and ENGINE.legal_moves(new, now=NOW) == []
    assert new.deadline is None
    assert events[-1] == {"type": "game_finished", "winners": ["bob"], "draw": False}


@pytest.mark.parametrize("move", [roll(keep=[]), score("ones"), timeout("ann"),
                                  timeout("bob")],
                         ids=["roll", "score", "timeout by ann", "timeout by bob"])
def test_no_move_is_accepted_once_the_match_has_finished(move):
    state = make(sheets=(sheet_of(11), sheet_of(11)))
    with pytest.raises(GameOver):
        ENGINE.apply(state, move, now=DEADLINE + 100)


FINISHED_CASES = [
    ((120, 80), ["p0"], False, "the highest total wins"),
    ((80, 120, 120), ["p1", "p2"], False, "players tied on top all win"),
    ((90, 90, 90), ["p0", "p1", "p2"], True, "everyone tied is a draw"),
    ((30, 70, 10, 70, 5, 1), ["p1", "p3"], False, "six players two tied"),
]


def sheet_worth(total):
    """A full sheet worth `total` points (total < 200): Doble scratched."""
    sheet = {b: 0 for b in BOXES}
    for box, value in [("doble_generala", 0), ("generala", 50), ("poker", 40), ("full", 30),
                       ("escalera", 20)]:
        if total >= value and value:
            sheet[box] = value
            total -= value
    for box, face in [("sixes", 6), ("fives", 5), ("fours", 4), ("threes", 3), ("twos", 2),
                      ("ones", 1)]:
        count = min(5, total // face)
        sheet[box] = face * count
        total -= face * count
    assert total == 0
    return sheet


@pytest.mark.parametrize("totals,winners,draw,_", FINISHED_CASES,
                         ids=[c[3] for c in FINISHED_CASES])
def test_when_every_box_is_filled_the_highest_total_wins(totals, winners, draw, _):
    players = tuple(f"p{i}" for i in range(len(totals)))
    state = make(players=players, sheets=tuple(sheet_worth(t) for t in totals))
    result = ENGINE.scores(state)
    assert (result["winners"], result["draw"]) == (winners, draw)
    assert {p: r["total"] for p, r in result["players"].items()} == dict(zip(players, totals))


def test_totals_are_derived_from_the_boxes_and_never_stored():
    assert not {f.name for f in dataclasses.fields(State)} & {"total", "totals", "scores"}
    state = make(current=1, sheets=({"sixes": 24, "poker": 45}, {"ones": 3}))
    result = ENGINE.scores(state)
    assert result["players"]["ann"] == {"total": 69, "boxes": {"sixes": 24, "poker": 45}}
    assert result["players"]["bob"]["total"] == 3
    assert (result["winners"], result["draw"]) == ([], False)


def test_a_view_shows_the_table_but_not_the_seed_or_step():
    view = ENGINE.view(make(rolls=1, dice=(1, 2, 3, 4, 5)), "bob")
    assert "seed" not in view and "step" not in view
    assert view["dice"] == [1, 2, 3, 4, 5] and view["current"] == "ann"


# -- the turn clock --------------------------------------------------------------------------

def test_a_new_match_sets_the_deadline_45_seconds_ahead_by_default():
    state = ENGINE.new_match(("ann", "bob"), ENGINE.resolve_options({}), "seed", now=NOW)
    assert state.deadline == NOW + 45


def test_turn_seconds_zero_disables_the_clock():
    state = ENGINE.new_match(("ann", "bob"), ENGINE.resolve_options({"turn_seconds": 0}),
                             "seed", now=NOW)
    assert state.deadline is None
    assert all(m["type"] != "timeout" for m in ENGINE.legal_moves(state, now=NOW + 10 ** 9))
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, timeout("bob"), now=NOW + 10 ** 9)
    assert refused.value.rule == "turn_clock"


def test_one_clock_is_shared_by_the_rolls_and_the_scoring_of_a_turn():
    state = make(rolls=1, dice=(1, 2, 3, 4, 5))
    new, _ = ENGINE.apply(state, roll(keep=[1]), now=DEADLINE - 1)
    assert new.deadline == DEADLINE


def test_the_next_turn_gets_a_fresh_clock_from_the_time_of_scoring():
    options = Options(turn_seconds=20)
    state = make(rolls=1, dice=(1, 2, 3, 4, 5), options=options)
    new, _ = ENGINE.apply(state, score("escalera"), now=NOW + 7)
    assert new.deadline == NOW + 7 + 20


@pytest.mark.parametrize("now", [NOW, DEADLINE - 0.001], ids=["well before", "just before"])
def test_a_timeout_before_the_deadline_is_refused(now):
    state = make(rolls=1, dice=(1, 2, 3, 4, 5))
    assert all(m["type"] != "timeout" for m in ENGINE.legal_moves(state, now=now))
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, timeout("bob"), now=now)
    assert refused.value.rule == "turn_clock"


@pytest.mark.parametrize("player", ["ann", "bob", "cy"], ids=lambda p: f"{p} posts it")
@pytest.mark.parametrize("now", [DEADLINE, DEADLINE + 600], ids=["at zero", "long after"])
def test_once_the_deadline_is_reached_any_player_may_post_a_timeout(player, now):
    state = make(players=("ann", "bob", "cy"), rolls=2, dice=(6, 6, 6, 6, 2))
    assert timeout(player) in ENGINE.legal_moves(state, now=now)
    new, events = ENGINE.apply(state, timeout(player), now=now)
    assert events[0] == {"type": "timeout", "player": player, "for": "ann"}
    assert new.sheets[0] == {"poker": 40}
    assert new.current == 1 and new.deadline == now + 45


def test_a_stranger_cannot_post_a_timeout():
    with pytest.raises(NotYourTurn):
        ENGINE.apply(make(), timeout("zed"), now=DEADLINE + 1)


TIMEOUT_CASES = [
    ((6, 6, 6, 6, 2), 2, {}, "poker", 40, "the highest box poker"),
    ((6, 6, 6, 6, 2), 1, {}, "poker", 45, "servida counts on the first roll"),
    ((2, 2, 4, 1, 1), 3, {}, "twos", 4, "twos and fours tie first in sheet order"),
    ((3, 3, 3, 3, 3), 3, {"generala": 50}, "doble_generala", 100, "the doble when unlocked"),
    ((3, 3, 3, 3, 3), 3, {"generala": 0, "poker": 0}, "threes", 15, "a locked doble scores nothing"),
]


@pytest.mark.parametrize("dice,rolls,sheet,box,points,_", TIMEOUT_CASES,
                         ids=[c[5] for c in TIMEOUT_CASES])
def test_a_timeout_fills_the_free_box_that_scores_most(dice, rolls, sheet, box, points, _):
    other = sheet_of(len(sheet))
    state = make(rolls=rolls, dice=dice, sheets=(dict(sheet), other))
    new, events = ENGINE.apply(state, timeout("bob"), now=DEADLINE)
    assert new.sheets[0] == {**sheet, box: points}
    assert events[1]["type"] == "box_scored" and events[1]["box"] == box


FACES_AND_FULL_POKER = {b: 0 for b in BOXES[:6] + ("full", "poker")}
TIE_CASES = [
    ((1, 1, 2, 3, 5), 2, FACES_AND_FULL_POKER, Options(), "doble_generala",
     "nothing scores: the doble goes before the generala it hangs on and the escalera"),
    ((1, 1, 2, 3, 5), 2, {**FACES_AND_FULL_POKER, "escalera": 0}, Options(), "doble_generala",
     "scratching the generala would lock the doble for ever"),
    ((1, 1, 2, 3, 5), 2, {**FACES_AND_FULL_POKER, "generala": 0}, Options(), "doble_generala",
     "a dead doble is scratched before a live escalera"),
    ((2, 2, 4, 1, 1), 3, {}, Options(), "twos", "twos and fours tie: twos are worth less"),
    ((2, 3, 4, 5, 6), 2, {}, Options(escalera=6), "escalera",
     "a house escalera of 6 ties the sixes and is given up before them, not in sheet order"),
    ((2, 2, 3, 4, 6), 2, {b: 0 for b in BOXES[1:6] + ("full", "poker", "escalera")},
     Options(), "doble_generala", "a locked doble rather than the ones worth more"),
    ((6, 6, 2, 3, 5), 2, {b: 0 for b in BOXES[1:5] + ("full", "poker", "escalera")},
     Options(), "sixes", "only a tie is broken: the sixes score most and are filled"),
]


@pytest.mark.parametrize("dice,rolls,sheet,options,box,_", TIE_CASES,
                         ids=[c[5] for c in TIE_CASES])
def test_a_timeout_tie_gives_up_the_box_whose_loss_costs_least_dead_boxes_first(
        dice, rolls, sheet, options, box, _):
    other = sheet_of(len(sheet))
    state = make(rolls=rolls, dice=dice, sheets=(dict(sheet), other), options=options)
    new, events = ENGINE.apply(state, timeout("bob"), now=DEADLINE)
    assert events[1]["type"] == "box_scored" and events[1]["box"] == box
    assert new.sheets[0][box] == events[1]["points"]


def test_a_timeout_before_any_roll_rolls_once_then_scores():
    state = make(current=1, sheets=(sheet_of(11), sheet_of(10, skip=("sixes",))), step=11)
    new, events = ENGINE.apply(state, timeout("ann"), now=DEADLINE + 5)
    dice = dice_source.roll("seed", 11, 5)
    assert events[0] == {"type": "timeout", "player": "ann", "for": "bob"}
    assert [e["type"] for e in events] == ["timeout", "dice_rolled", "box_scored",
                                           "game_finished"]
    assert events[1]["dice"] == list(dice) and new.step == 12
    assert new.sheets[1]["sixes"] == 6 * dice.count(6)
    assert events[2]["servida"] is True
    assert ENGINE.is_finished(new)


def test_a_timeout_does_not_roll_again_when_the_player_has_rolled():
    state = make(rolls=1, dice=(1, 2, 3, 4, 5))
    new, events = ENGINE.apply(state, timeout("bob"), now=DEADLINE)
    assert new.step == state.step
    assert [e["type"] for e in events] == ["timeout", "box_scored", "turn_passed"]
    assert new.sheets[0] == {"escalera": 25}


@pytest.mark.parametrize("move,rolls", [(score("escalera"), 1), (roll(keep=[1, 2]), 1),
                                        (roll(keep=[]), 0)],
                         ids=["his score", "his second roll", "his first roll"])
@pytest.mark.parametrize("late", [0, 1, 600], ids=["at zero", "a second late", "long late"])
def test_once_the_clock_reaches_zero_the_late_player_may_no_longer_roll_or_score(move, rolls,
                                                                                 late):
    # « Si elle arrive à zéro, la partie lance les dés à votre place … puis inscrit la case »:
    # the game plays the turn now; only the timeout that makes it do so is left.
    state = make(rolls=rolls, dice=(1, 2, 3, 4, 5) if rolls else ())
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, move, now=DEADLINE + late)
    assert refused.value.code == "illegal_move" and refused.value.rule == "clock_ran_out"
    assert "timeout" in refused.value.detail
    assert ENGINE.legal_moves(state, now=DEADLINE + late) == [timeout("ann"), timeout("bob")]
    ENGINE.apply(state, move, now=DEADLINE - 0.5)  # still his own just before zero


def test_after_the_deadline_everyone_is_to_act_but_only_for_a_timeout():
    state = make(players=("ann", "bob", "cy"), rolls=1, dice=(1, 2, 3, 4, 5))
    assert ENGINE.to_act(state, now=DEADLINE - 1) == ["ann"]
    assert ENGINE.to_act(state, now=DEADLINE) == ["ann", "bob", "cy"]
    assert {m["type"] for m in ENGINE.legal_moves(state, now=DEADLINE)} == {"timeout"}
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, roll("bob", keep=[]), now=DEADLINE + 1)
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, score("full", player="cy"), now=DEADLINE + 1)


# -- house rule: a servida Generala wins at once ---------------------------------------------

def test_with_the_house_rule_five_of_a_kind_on_the_first_roll_wins_at_once():
    seed = seed_where(lambda d: len(set(d)) == 1)
    state = make(options=Options(servida_generala_wins=True), seed=seed, step=0,
                 current=1, sheets=({"ones": 0}, {}))
    new, events = ENGINE.apply(state, roll(player="bob", keep=[]), now=NOW)
    assert [e["type"] for e in events] == ["dice_rolled", "servida_generala", "game_finished"]
    assert ENGINE.is_finished(new) and new.instant_winner == "bob"
    assert ENGINE.scores(new)["winners"] == ["bob"] and new.deadline is None
    assert ENGINE.problems(new) == []
    with pytest.raises(GameOver):
        ENGINE.apply(new, score("generala", player="bob"), now=NOW)


def test_with_the_house_rule_a_timeout_roll_of_five_of_a_kind_also_wins_at_once():
    seed = seed_where(lambda d: len(set(d)) == 1)
    state = make(options=Options(servida_generala_wins=True), seed=seed, step=0)
    new, events = ENGINE.apply(state, timeout("bob"), now=DEADLINE)
    assert new.instant_winner == "ann" and ENGINE.is_finished(new)
    assert new.sheets == ({}, {})


def test_without_the_house_rule_a_servida_generala_is_just_50():
    seed = seed_where(lambda d: len(set(d)) == 1)
    state = make(seed=seed, step=0)
    new, events = ENGINE.apply(state, roll(keep=[]), now=NOW)
    assert not ENGINE.is_finished(new) and new.instant_winner is None
    new, events = ENGINE.apply(new, score("generala"), now=NOW)
    assert events[0]["points"] == 50


def test_with_the_house_rule_five_of_a_kind_on_a_later_roll_does_not_win_at_once():
    seed = seed_where(lambda d: d == (3,), step=0, count=1)
    state = make(options=Options(servida_generala_wins=True), seed=seed, step=0, rolls=1,
                 dice=(3, 3, 3, 3, 1))
    new, _ = ENGINE.apply(state, roll(keep=[3, 3, 3, 3]), now=NOW)
    assert new.dice == (3, 3, 3, 3, 3)
    assert not ENGINE.is_finished(new) and new.instant_winner is None
