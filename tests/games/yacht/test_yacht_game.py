"""Yacht as a game of the catalogue (docs/rules/yacht.md): the dice-sheet engine playing the
Yacht declaration. Each test posts moves to the `yacht` engine and reads what it answers: the
twelve boxes and what each scores, no bonus, no servida, no house rule, twelve turns each,
the turn clock and the timeout, the states it refuses, and whole random matches."""

from __future__ import annotations

import itertools
import random
import typing

import pytest

from referee.core import dice as dice_source
from referee.core.errors import IllegalMove, InvalidOptions, InvalidState
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.games.dice_sheets.yacht import YACHT
from referee.games.generala_dice.engine import DiceSheetGame
from referee.games.yacht import ENGINE
from referee.games.yacht.engine import Options, State

NOW = 1_000.0
DEADLINE = NOW + 30
BOXES = YACHT.box_names


def table(dice, rolls=2, sheet=None, options=None, players=("ann", "bob"), deadline=None):
    """A state where ann is to score `dice` after `rolls` rolls, her sheet as given."""
    options = options or Options(turn_seconds=0)
    sheet = dict(sheet or {})
    others = [dict(itertools.islice(((b, 0) for b in BOXES), len(sheet))) for _ in players[1:]]
    state = State(players=players, options=options, seed="seed", step=7, current=0, rolls=rolls,
                  dice=tuple(dice), sheets=(sheet, *others),
                  deadline=deadline if options.turn_seconds else None)
    assert ENGINE.problems(state) == []
    return state


def score(box, player="ann"):
    return {"type": "score", "player": player, "box": box}


def scored(state, box):
    new, events = ENGINE.apply(state, score(box), now=NOW)
    assert events[0] == {"type": "box_scored", "player": "ann", "box": box,
                         "points": new.sheets[0][box]}
    return events[0]["points"]


# -- the game in the catalogue ---------------------------------------------------------------
def test_yacht_is_in_the_registry_as_the_dice_engine_playing_the_yacht_sheet():
    assert REGISTRY["yacht"] is ENGINE
    assert isinstance(ENGINE, DiceSheetGame) and isinstance(REGISTRY["generala-dice"],
                                                            DiceSheetGame)
    assert Options.sheet.declaration is YACHT
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 6)


def test_the_score_move_and_the_wire_name_the_twelve_yacht_boxes():
    move = next(m for m in ENGINE.move_types if m.type == "score")
    assert tuple(move.fields[0].choices) == BOXES
    box_scored = next(e for e in ENGINE.event_types if e.__struct_config__.tag == "box_scored")
    hints = typing.get_type_hints(box_scored)
    assert typing.get_args(hints["box"]) == BOXES
    assert box_scored.__struct_fields__ == ("player", "box", "points")  # no servida, no bonus


def test_yacht_declares_no_generala_event_and_its_state_no_instant_winner():
    tags = {e.__struct_config__.tag for e in ENGINE.event_types}
    assert tags == {"match_created", "dice_rolled", "box_scored", "turn_passed", "timeout",
                    "game_finished"}
    state = ENGINE.new_match(("ann", "bob"), ENGINE.resolve_options({}), "s", now=NOW)
    assert "instant_winner" not in ENGINE.encode(state)
    assert ENGINE.view(state, "ann")["options"] == {"turn_seconds": 45}


def test_the_only_option_is_the_turn_clock():
    assert [o.name for o in ENGINE.options] == ["turn_seconds"]
    assert ENGINE.resolve_options({}) == {"turn_seconds": 45}
    for generala_only in ({"servida_generala_wins": True}, {"yacht": 60}, {"servida_bonus": 5}):
        with pytest.raises(InvalidOptions):
            ENGINE.resolve_options(generala_only)


# -- what each box scores --------------------------------------------------------------------
BOX_CASES = [
    ("ones", (1, 1, 3, 1, 6), 3, "ones count the ones"),
    ("sixes", (6, 2, 6, 6, 6), 24, "sixes count the sixes"),
    ("fours", (1, 2, 3, 5, 6), 0, "no four scratches fours"),
    ("full_house", (2, 2, 6, 6, 6), 22, "a full house scores its five dice"),
    ("full_house", (5, 5, 5, 5, 5), 0, "five of a kind is no full house"),
    ("full_house", (2, 2, 6, 6, 5), 0, "two pairs is no full house"),
    ("four_of_a_kind", (3, 3, 3, 3, 6), 12, "four of a kind scores the four dice"),
    ("four_of_a_kind", (5, 5, 5, 5, 5), 20, "five of a kind counts, four dice scored"),
    ("four_of_a_kind", (3, 3, 3, 6, 6), 0, "three of a kind is no four of a kind"),
    ("little_straight", (5, 4, 3, 2, 1), 30, "little straight 1-5 in any order"),
    ("little_straight", (2, 3, 4, 5, 6), 0, "2-6 is no little straight"),
    ("big_straight", (6, 5, 4, 3, 2), 30, "big straight 2-6 in any order"),
    ("big_straight", (1, 2, 3, 4, 5), 0, "1-5 is no big straight"),
    ("choice", (1, 2, 3, 4, 6), 16, "choice scores the five dice"),
    ("yacht", (4, 4, 4, 4, 4), 50, "yacht five of a kind 50"),
    ("yacht", (4, 4, 4, 4, 3), 0, "four of a kind is no yacht"),
]


@pytest.mark.parametrize("box,dice,points,_", BOX_CASES, ids=[c[3] for c in BOX_CASES])
def test_each_box_scores_as_its_category_reads(box, dice, points, _):
    for rolls in (2, 3):
        assert scored(table(dice, rolls=rolls), box) == points


@pytest.mark.parametrize("box,dice,points,_", BOX_CASES, ids=[c[3] for c in BOX_CASES])
def test_a_hand_scored_after_the_first_roll_earns_nothing_more(box, dice, points, _):
    assert scored(table(dice, rolls=1), box) == points


def test_a_second_yacht_scores_in_any_free_box_and_nothing_more_in_the_yacht_box():
    state = table((6, 6, 6, 6, 6), sheet={"yacht": 50})
    assert scored(state, "sixes") == 30
    assert scored(state, "choice") == 30
    assert scored(state, "four_of_a_kind") == 24
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, score("yacht"), now=NOW)
    assert refused.value.rule == "box_filled"


def test_the_total_is_the_plain_sum_of_the_boxes_with_no_upper_bonus():
    upper = {b: 5 * face for face, b in enumerate(BOXES[:6], start=1)}  # 105, far past 63
    sheets = ({**upper, "full_house": 28, "four_of_a_kind": 24, "little_straight": 30,
               "big_straight": 30, "choice": 30, "yacht": 50},
              {**{b: 0 for b in BOXES}, "choice": 5})  # Choice never holds less than 5
    state = State(players=("ann", "bob"), options=Options(turn_seconds=0), seed="s", step=1,
                  current=0, rolls=0, dice=(), sheets=sheets, deadline=None)
    assert ENGINE.problems(state) == []
    result = ENGINE.scores(state)
    assert result["players"]["ann"]["total"] == 105 + 28 + 24 + 30 + 30 + 30 + 50
    assert result["winners"] == ["ann"] and result["draw"] is False


def test_the_best_value_of_every_box_adds_up_to_the_297_ceiling():
    # 5+10+...+30 = 105, Full House 6,6,6,5,5 = 28, Four of a Kind 24, 30 + 30, Choice 30, 50
    hands = list(itertools.combinations_with_replacement(range(1, 7), 5))
    best = {b: max(scored(table(h), b) for h in hands) for b in BOXES}
    assert best["full_house"] == 28 and best["four_of_a_kind"] == 24
    assert sum(best.values()) == 297


def test_an_unknown_box_is_refused_as_a_rule_not_a_crash():
    for box in ("generala", "chance", "escalera"):
        with pytest.raises(IllegalMove) as refused:
            ENGINE.apply(table((1, 2, 3, 4, 5)), score(box), now=NOW)
        assert refused.value.rule == "unknown_box"


# -- the turns, the clock --------------------------------------------------------------------
def test_a_match_lasts_twelve_turns_each_and_the_highest_total_wins():
    state = ENGINE.new_match(("ann", "bob", "cy"), ENGINE.resolve_options({"turn_seconds": 0}),
                             "twelve", now=NOW)
    turns = 0
    while not ENGINE.is_finished(state):
        player = ENGINE.to_act(state, now=NOW)[0]
        state, _ = ENGINE.apply(state, {"type": "roll", "player": player, "keep": []}, now=NOW)
        free = next(b for b in BOXES if b not in state.sheets[state.current])
        state, events = ENGINE.apply(state, score(free, player), now=NOW)
        turns += 1
    assert turns == 3 * 12 and all(len(s) == 12 for s in state.sheets)
    totals = {p: sum(s.values()) for p, s in zip(state.players, state.sheets)}
    assert events[-1] == {"type": "game_finished", "draw": False,
                          "winners": [p for p in totals if totals[p] == max(totals.values())]}


def test_five_of_a_kind_on_the_first_roll_never_ends_the_match():
    seed = next(f"s{k}" for k in itertools.count()
                if len(set(dice_source.roll(f"s{k}", 0, 5))) == 1)
    state = ENGINE.new_match(("ann", "bob"), ENGINE.resolve_options({"turn_seconds": 0}), seed,
                             now=NOW)
    new, events = ENGINE.apply(state, {"type": "roll", "player": "ann", "keep": []}, now=NOW)
    assert [e["type"] for e in events] == ["dice_rolled"] and not ENGINE.is_finished(new)
    assert scored(new, "yacht") == 50


def test_once_the_clock_has_run_out_a_timeout_rolls_once_then_fills_the_best_box():
    state = ENGINE.new_match(("ann", "bob"), ENGINE.resolve_options({}), "late", now=NOW)
    assert state.deadline == NOW + 45
    assert ENGINE.legal_moves(state, now=NOW + 45) == [
        {"type": "timeout", "player": "ann"}, {"type": "timeout", "player": "bob"}]
    new, events = ENGINE.apply(state, {"type": "timeout", "player": "bob"}, now=NOW + 45)
    dice = dice_source.roll("late", 0, 5)
    assert [e["type"] for e in events] == ["timeout", "dice_rolled", "box_scored", "turn_passed"]
    best = max(scored(table(dice, rolls=1), b) for b in BOXES)
    assert events[2]["points"] == best and "servida" not in events[2]
    assert new.deadline == NOW + 45 + 45 and new.current == 1


def test_a_timeout_fills_the_box_that_scores_most():
    state = table((2, 3, 4, 5, 6), rolls=2, options=Options(), deadline=DEADLINE)
    new, events = ENGINE.apply(state, {"type": "timeout", "player": "bob"}, now=DEADLINE)
    assert events[1]["box"] == "big_straight" and new.sheets[0] == {"big_straight": 30}


# -- the states it refuses -------------------------------------------------------------------
def wire(**changes):
    base = ENGINE.encode(table((1, 2, 3, 4, 5), sheet={"ones": 1}))
    return {**base, **changes}


@pytest.mark.parametrize("data,_", [
    (wire(sheets=[{"ones": 1, "generala": 50}, {"ones": 0}]), "a generala box"),
    (wire(sheets=[{"little_straight": 25}, {"ones": 0}]), "a little straight of 25"),
    (wire(sheets=[{"four_of_a_kind": 30}, {"ones": 0}]), "four of a kind of five dice"),
    (wire(sheets=[{"full_house": 30}, {"ones": 0}]), "a full house past 28"),
    (wire(sheets=[{"choice": 0}, {"ones": 0}]), "a choice of 0"),
    (wire(options={"turn_seconds": 0, "servida_generala_wins": False}), "a generala option"),
    ({**wire(), "instant_winner": None}, "an instant winner field"),
], ids=lambda x: x if isinstance(x, str) else "")
def test_a_state_yacht_cannot_reach_is_refused(data, _):
    with pytest.raises(InvalidState):
        ENGINE.decode(data)


def test_a_sound_posted_state_reads_back_as_it_was_written():
    state = table((6, 6, 6, 6, 6), sheet={"yacht": 50, "choice": 30, "ones": 0})
    assert ENGINE.decode(ENGINE.encode(state)) == state


# -- whole matches ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_a_random_match_keeps_every_invariant_and_lasts_twelve_turns_each(seed):
    pick = random.Random(seed)
    players = tuple(f"p{i}" for i in range(2 + seed % 5))
    state = ENGINE.new_match(players, ENGINE.resolve_options({"turn_seconds": 0}), f"m{seed}",
                             now=NOW)
    scored_boxes = 0
    while not ENGINE.is_finished(state):
        move = random_move(ENGINE, ENGINE.legal_moves(state, now=NOW), pick)
        state, events = ENGINE.apply(state, move, now=NOW)
        scored_boxes += sum(e["type"] == "box_scored" for e in events)
        assert ENGINE.problems(state) == []
        assert ENGINE.decode(ENGINE.encode(state)) == state
    assert scored_boxes == 12 * len(players)
