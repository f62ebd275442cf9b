"""Yams as a game of the catalogue (docs/rules/yams.md): the dice-sheet engine playing the
French sheet, and the American rules of Yahtzee as the `rules` preset. Each test posts moves to
the `yams` engine and reads what it answers: the thirteen boxes and what each scores, the upper
bonus, the Yahtzee bonus and the joker under the preset, the states it refuses, whole matches."""

from __future__ import annotations

import itertools
import random
import typing

import pytest

from referee.core.errors import IllegalMove, InvalidOptions, InvalidState
from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.games.dice_sheets.yams import YAMS, YAMS_YAHTZEE, YAMS_YAHTZEE_FREE_JOKER
from referee.games.generala_dice.engine import DiceSheetGame
from referee.games.yams import ENGINE
from referee.games.yams.engine import Options, State

NOW = 1_000.0
BOXES = YAMS.box_names
UPPER = BOXES[:6]
FRENCH = Options(turn_seconds=0)
YAHTZEE = Options(turn_seconds=0, rules="yahtzee")
FREE_JOKER = Options(turn_seconds=0, rules="yahtzee_free_joker")


def table(dice, rolls=2, sheet=None, options=FRENCH, bonuses=0, players=("ann", "bob"),
          deadline=None):
    """A state where ann is to score `dice` after `rolls` rolls, her sheet as given."""
    sheet = dict(sheet or {})
    others = [dict(itertools.islice(((b, 0) for b in BOXES), len(sheet))) for _ in players[1:]]
    state = State(players=players, options=options, seed="seed", step=7, current=0, rolls=rolls,
                  dice=tuple(dice), sheets=(sheet, *others), deadline=deadline,
                  yahtzee_bonuses=(bonuses,) + (0,) * (len(players) - 1))
    assert ENGINE.problems(state) == []
    return state


def score(box, player="ann"):
    return {"type": "score", "player": player, "box": box}


def play(state, box):
    new, events = ENGINE.apply(state, score(box), now=NOW)
    assert events[0]["points"] == new.sheets[0][box]
    return new, events[0]


def scored(state, box):
    return play(state, box)[1]["points"]


def boxes_offered(state):
    return [m["box"] for m in ENGINE.legal_moves(state, now=NOW) if m["type"] == "score"]


# -- the game in the catalogue ---------------------------------------------------------------
def test_yams_is_in_the_registry_as_the_dice_engine_playing_the_yams_sheet():
    assert REGISTRY["yams"] is ENGINE and isinstance(ENGINE, DiceSheetGame)
    assert Options.sheet.declaration is YAMS
    assert FRENCH.sheet.declaration is YAMS
    assert YAHTZEE.sheet.declaration is YAMS_YAHTZEE
    assert FREE_JOKER.sheet.declaration is YAMS_YAHTZEE_FREE_JOKER
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 6)


def test_the_options_are_the_clock_and_the_rules_preset():
    assert [o.name for o in ENGINE.options] == ["turn_seconds", "rules"]
    assert ENGINE.resolve_options({}) == {"turn_seconds": 45, "rules": "yams"}
    assert ENGINE.resolve_options({"rules": "yahtzee"})["rules"] == "yahtzee"
    for refused in ({"rules": "generala"}, {"rules": True}, {"servida_generala_wins": True},
                    {"yams": 60}):
        with pytest.raises(InvalidOptions):
            ENGINE.resolve_options(refused)
    # the preset picks the sheet, yet equal options stay equal (and hash alike)
    assert Options(rules="yahtzee") == Options(rules="yahtzee") != Options()
    assert hash(Options(rules="yahtzee")) == hash(Options(rules="yahtzee"))


def test_the_score_move_and_the_wire_name_the_thirteen_french_boxes():
    assert BOXES == ("as", "deux", "trois", "quatre", "cinq", "six", "brelan", "carre", "full",
                     "petite_suite", "grande_suite", "yams", "chance")
    move = next(m for m in ENGINE.move_types if m.type == "score")
    assert tuple(move.fields[0].choices) == BOXES
    box_scored = next(e for e in ENGINE.event_types if e.__struct_config__.tag == "box_scored")
    assert typing.get_args(typing.get_type_hints(box_scored)["box"]) == BOXES
    assert box_scored.__struct_fields__ == ("player", "box", "points", "yahtzee_bonus")
    tags = {e.__struct_config__.tag for e in ENGINE.event_types}
    assert tags == {"match_created", "dice_rolled", "box_scored", "turn_passed", "timeout",
                    "game_finished"}


# -- what each box scores --------------------------------------------------------------------
FRENCH_CASES = [
    ("as", (1, 1, 3, 1, 6), 3, "as count the ones"),
    ("six", (6, 2, 6, 6, 6), 24, "six count the sixes"),
    ("quatre", (1, 2, 3, 5, 6), 0, "no four scratches quatre"),
    ("brelan", (4, 4, 4, 2, 6), 12, "brelan scores its three dice"),
    ("brelan", (5, 5, 5, 5, 2), 15, "four of a kind makes a brelan of three dice"),
    ("brelan", (3, 3, 6, 6, 1), 0, "two pairs is no brelan"),
    ("carre", (3, 3, 3, 3, 6), 12, "carre scores its four dice"),
    ("carre", (6, 6, 6, 6, 6), 24, "five of a kind makes a carre of four dice"),
    ("carre", (3, 3, 3, 6, 6), 0, "a brelan is no carre"),
    ("full", (2, 2, 6, 6, 6), 25, "full scores 25"),
    ("full", (5, 5, 5, 5, 5), 0, "five of a kind is no full"),
    ("full", (2, 2, 6, 6, 5), 0, "two pairs is no full"),
    ("petite_suite", (1, 2, 3, 4, 6), 30, "petite suite 1-4"),
    ("petite_suite", (6, 5, 4, 3, 3), 30, "petite suite 3-6 with a pair"),
    ("petite_suite", (1, 2, 3, 4, 5), 30, "a grande suite makes a petite suite"),
    ("petite_suite", (1, 2, 3, 5, 6), 0, "a gap is no petite suite"),
    ("grande_suite", (6, 5, 4, 3, 2), 40, "grande suite 2-6"),
    ("grande_suite", (1, 2, 3, 4, 5), 40, "grande suite 1-5"),
    ("grande_suite", (1, 2, 3, 4, 6), 0, "four in a run is no grande suite"),
    ("yams", (4, 4, 4, 4, 4), 50, "yams five of a kind 50"),
    ("yams", (4, 4, 4, 4, 3), 0, "four of a kind is no yams"),
    ("chance", (1, 2, 3, 4, 6), 16, "chance scores the five dice"),
]


@pytest.mark.parametrize("box,dice,points,_", FRENCH_CASES, ids=[c[3] for c in FRENCH_CASES])
def test_each_french_box_scores_as_its_reading(box, dice, points, _):
    for rolls in (1, 2, 3):  # no servida: the first roll earns nothing more
        assert scored(table(dice, rolls=rolls), box) == points


YAHTZEE_CASES = [
    ("brelan", (4, 4, 4, 2, 6), 20, "three of a kind scores all five dice"),
    ("carre", (3, 3, 3, 3, 6), 18, "four of a kind scores all five dice"),
    ("brelan", (3, 3, 6, 6, 1), 0, "two pairs is no three of a kind"),
    ("full", (2, 2, 6, 6, 6), 25, "full house 25"),
    ("full", (5, 5, 5, 5, 5), 0, "five of a kind is no full house before the yams box"),
    ("yams", (4, 4, 4, 4, 4), 50, "yahtzee 50"),
]


@pytest.mark.parametrize("box,dice,points,_", YAHTZEE_CASES, ids=[c[3] for c in YAHTZEE_CASES])
def test_under_the_yahtzee_preset_the_kinds_score_all_five_dice(box, dice, points, _):
    assert scored(table(dice, options=YAHTZEE), box) == points
    assert scored(table(dice, options=FREE_JOKER), box) == points


@pytest.mark.parametrize("box,dice,points,_", YAHTZEE_CASES[:3], ids=[c[3] for c in
                                                                    YAHTZEE_CASES[:3]])
def test_the_all_dice_reading_scores_the_kinds_on_five_dice_with_no_bonus_or_joker(box, dice,
                                                                                 points, _):
    all_dice = Options(turn_seconds=0, rules="yams_all_dice")
    assert scored(table(dice, options=all_dice), box) == points
    state = table((4, 4, 4, 4, 4), sheet={"yams": 50, "quatre": 8}, options=all_dice)
    new, event = play(state, "full")
    assert (event["points"], event["yahtzee_bonus"], new.yahtzee_bonuses) == (0, 0, (0, 0))
    assert len(boxes_offered(state)) == 11


# -- the upper bonus, the totals -------------------------------------------------------------
def finished(sheets, options=FRENCH, bonuses=(0, 0)):
    state = State(players=("ann", "bob"), options=options, seed="s", step=1, current=0,
                  rolls=0, dice=(), sheets=sheets, deadline=None, yahtzee_bonuses=bonuses)
    assert ENGINE.problems(state) == []
    return state


def test_the_upper_bonus_of_35_is_earned_at_63_and_not_below():
    lower = {"brelan": 0, "carre": 0, "full": 0, "petite_suite": 0, "grande_suite": 0,
             "yams": 0, "chance": 5}
    at_63 = {b: 3 * face for face, b in enumerate(UPPER, start=1)}  # three of each face: 63
    at_62 = {**at_63, "as": 2}
    result = ENGINE.scores(finished(({**at_63, **lower}, {**at_62, **lower})))
    ann, bob = result["players"]["ann"], result["players"]["bob"]
    assert (ann["upper_bonus"], ann["total"]) == (35, 63 + 35 + 5)
    assert (bob["upper_bonus"], bob["total"]) == (0, 62 + 5)
    assert result["winners"] == ["ann"]
    assert ann["yahtzee_bonus"] == bob["yahtzee_bonus"] == 0


def test_the_best_value_of_every_french_box_adds_up_to_the_ceiling():
    hands = list(itertools.combinations_with_replacement(range(1, 7), 5))
    best = {b: max(scored(table(h), b) for h in hands) for b in BOXES}
    assert (best["brelan"], best["carre"], best["chance"]) == (18, 24, 30)
    # 105 + bonus 35 + 18 + 24 + 25 + 30 + 40 + 50 + 30
    assert sum(best.values()) + 35 == 357


# -- the Yahtzee bonus (preset) --------------------------------------------------------------
def test_each_further_yams_earns_100_while_the_yams_box_holds_50():
    state = table((6, 6, 6, 6, 6), sheet={"yams": 50, "six": 24}, options=YAHTZEE)
    new, event = play(state, "chance")
    assert event == {"type": "box_scored", "player": "ann", "box": "chance", "points": 30,
                     "yahtzee_bonus": 100}
    assert new.yahtzee_bonuses == (1, 0)
    assert ENGINE.view(new, "bob")["yahtzee_bonuses"] == {"ann": 1, "bob": 0}
    assert ENGINE.problems(new) == []
    twice = table((2, 2, 2, 2, 2), sheet={"yams": 50, "six": 24, "chance": 30, "deux": 10},
                  options=YAHTZEE, bonuses=1)
    again, event = play(twice, "brelan")
    assert event["yahtzee_bonus"] == 100 and again.yahtzee_bonuses == (2, 0)


def test_no_yahtzee_bonus_once_the_yams_box_holds_0_nor_under_the_french_rules():
    scratched = table((6, 6, 6, 6, 6), sheet={"yams": 0, "six": 24}, options=YAHTZEE)
    new, event = play(scratched, "chance")
    assert event["yahtzee_bonus"] == 0 and new.yahtzee_bonuses == (0, 0)
    french = table((6, 6, 6, 6, 6), sheet={"yams": 50, "six": 24})
    new, event = play(french, "chance")
    assert event["yahtzee_bonus"] == 0 and new.yahtzee_bonuses == (0, 0)


def test_the_first_yams_in_its_box_earns_no_bonus():
    _, event = play(table((3, 3, 3, 3, 3), options=YAHTZEE), "yams")
    assert (event["points"], event["yahtzee_bonus"]) == (50, 0)


def test_the_yahtzee_bonuses_count_in_the_total_apart_from_the_upper_bonus():
    upper = {b: 3 * face for face, b in enumerate(UPPER, start=1)}
    ann = {**upper, "brelan": 20, "carre": 20, "full": 25, "petite_suite": 30,
           "grande_suite": 40, "yams": 50, "chance": 20}
    bob = {**{b: 0 for b in BOXES}, "chance": 5}
    result = ENGINE.scores(finished((ann, bob), options=YAHTZEE, bonuses=(2, 0)))
    score_of_ann = result["players"]["ann"]
    assert score_of_ann["upper_bonus"] == 35 and score_of_ann["yahtzee_bonus"] == 200
    assert score_of_ann["total"] == sum(ann.values()) + 35 + 200


# -- the joker (preset) ----------------------------------------------------------------------
def test_the_forced_joker_fills_the_number_box_of_its_face_when_free():
    state = table((4, 4, 4, 4, 4), sheet={"yams": 50}, options=YAHTZEE)
    assert boxes_offered(state) == ["quatre"]
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, score("full"), now=NOW)
    assert refused.value.rule == "joker_box"
    _, event = play(state, "quatre")
    assert (event["points"], event["yahtzee_bonus"]) == (20, 100)


def test_the_forced_joker_then_fills_a_lower_box_at_its_full_value():
    state = table((4, 4, 4, 4, 4), sheet={"yams": 0, "quatre": 12}, options=YAHTZEE)
    assert boxes_offered(state) == ["brelan", "carre", "full", "petite_suite", "grande_suite",
                                    "chance"]
    assert scored(state, "full") == 25
    assert scored(state, "petite_suite") == 30
    assert scored(state, "grande_suite") == 40
    assert scored(state, "brelan") == 20 and scored(state, "chance") == 20


def test_the_forced_joker_scratches_a_number_box_once_the_lower_section_is_full():
    lower = {"brelan": 0, "carre": 0, "full": 0, "petite_suite": 0, "grande_suite": 0,
             "yams": 0, "chance": 10, "quatre": 8}
    state = table((4, 4, 4, 4, 4), sheet=lower, options=YAHTZEE)
    assert boxes_offered(state) == ["as", "deux", "trois", "cinq", "six"]
    assert scored(state, "six") == 0


def test_the_free_joker_fills_any_free_box_full_values_once_its_number_box_is_filled():
    free = table((4, 4, 4, 4, 4), sheet={"yams": 50}, options=FREE_JOKER)
    assert boxes_offered(free) == [b for b in BOXES if b != "yams"]
    assert scored(free, "full") == 0  # the number box of its face is still free
    assert scored(free, "quatre") == 20
    full = table((4, 4, 4, 4, 4), sheet={"yams": 50, "quatre": 8}, options=FREE_JOKER)
    assert scored(full, "full") == 25 and scored(full, "as") == 0


def test_no_joker_under_the_french_rules():
    state = table((4, 4, 4, 4, 4), sheet={"yams": 50, "quatre": 8})
    assert boxes_offered(state) == [b for b in BOXES if b not in ("yams", "quatre")]
    assert scored(state, "full") == 0 and scored(state, "grande_suite") == 0


def test_a_timeout_fills_a_box_the_joker_allows():
    state = table((4, 4, 4, 4, 4), sheet={"yams": 50},
                  options=Options(turn_seconds=30, rules="yahtzee"), deadline=NOW)
    _, events = ENGINE.apply(state, {"type": "timeout", "player": "bob"}, now=NOW)
    assert events[1]["box"] == "quatre" and events[1]["yahtzee_bonus"] == 100


# -- the states it refuses -------------------------------------------------------------------
def wire(rules=YAHTZEE, **changes):
    base = ENGINE.encode(table((1, 2, 3, 4, 5), sheet={"yams": 50, "as": 1}, options=rules))
    return {**base, **changes}


@pytest.mark.parametrize("data,_", [
    (wire(yahtzee_bonuses=[0]), "one count for two players"),
    (wire(yahtzee_bonuses=[-1, 0]), "a negative count"),
    (wire(yahtzee_bonuses=[2, 0]), "more bonuses than boxes filled after the yams"),
    (wire(sheets=[{"yams": 0, "as": 1}, {"as": 0, "deux": 0}], yahtzee_bonuses=[1, 0]),
     "a bonus beside a scratched yams box"),
    (wire(FRENCH, yahtzee_bonuses=[1, 0]), "a bonus under the french rules"),
    ({k: v for k, v in wire().items() if k != "yahtzee_bonuses"}, "no count of bonuses"),
    (wire(FRENCH, sheets=[{"brelan": 30}, {"as": 0}]), "a french brelan of 30"),
    (wire(YAHTZEE, options={"turn_seconds": 0, "rules": "american"}), "an unknown preset"),
    (wire(sheets=[{"yacht": 50}, {"as": 0}]), "a box of another sheet"),
], ids=lambda x: x if isinstance(x, str) else "")
def test_a_state_yams_cannot_reach_is_refused(data, _):
    with pytest.raises(InvalidState):
        ENGINE.decode(data)


def test_a_sound_posted_state_reads_back_as_it_was_written():
    state = table((6, 6, 6, 6, 6), sheet={"yams": 50, "chance": 30, "as": 0}, options=YAHTZEE,
                  bonuses=1)
    decoded = ENGINE.decode(ENGINE.encode(state))
    assert decoded == state and decoded.options.sheet.declaration is YAMS_YAHTZEE


# -- whole matches ---------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["yams", "yams_all_dice", "yahtzee", "yahtzee_free_joker"])
@pytest.mark.parametrize("seed", range(3))
def test_a_random_match_keeps_every_invariant_and_lasts_thirteen_turns_each(seed, rules):
    pick = random.Random(seed)
    players = tuple(f"p{i}" for i in range(2 + seed))
    state = ENGINE.new_match(players, ENGINE.resolve_options({"turn_seconds": 0,
                                                              "rules": rules}), f"m{seed}",
                             now=NOW)
    scored_boxes = 0
    while not ENGINE.is_finished(state):
        move = random_move(ENGINE, ENGINE.legal_moves(state, now=NOW), pick)
        state, events = ENGINE.apply(state, move, now=NOW)
        scored_boxes += sum(e["type"] == "box_scored" for e in events)
        assert ENGINE.problems(state) == []
        assert ENGINE.decode(ENGINE.encode(state)) == state
    assert scored_boxes == 13 * len(players) and all(len(s) == 13 for s in state.sheets)
