"""Generala's hints: each is one of the player's legal moves, postable as it is, read from his
view alone, the same every time, and worth what the exact tables say."""

from __future__ import annotations

import dataclasses
import gc
import math
import random
import weakref

import pytest

from referee.core.memo import BoundedMemo
from referee.games.generala_dice import ENGINE, solver
from referee.games.generala_dice import dicetables as dt
from referee.games.generala_dice.sheetstates import RuleKey, sheet_state
from referee.games.generala_dice.solver import DEFAULT_RULES, tables_for
from referee.games.generala_dice.state import Options, State
from referee.games.generala_dice.strategies import STRATEGIES, Choice, choice_index

NOW = 1_000.0
LEVELS = ENGINE.hint_levels


def make(*, rolls=1, dice=(1, 2, 3, 4, 6), sheets=({}, {}), current=0, options=None,
         seed="s", step=3, deadline=None, players=("ann", "bob")) -> State:
    return State(players=players, options=options or Options(turn_seconds=0), seed=seed,
                 step=step, current=current, rolls=rolls, dice=tuple(dice) if rolls else (),
                 sheets=tuple(sheets), deadline=deadline)


def advise(state: State, level: str, player: str | None = None, now: float = NOW):
    player = player or state.players[state.current]
    moves = [m for m in ENGINE.legal_moves(state, now=now) if m["player"] == player]
    return ENGINE.advise(ENGINE.view(state, player), moves, level), moves


def test_a_win_plan_kept_does_not_keep_alive_the_tables_its_option_set_has_let_go(monkeypatch):
    # The tables of an option set (some 7 MB with the `win` level's) are kept for a few option
    # sets at a time (`TABLES_KEPT`); the plans of the `win` level, kept for more, must not
    # hold on to them, or a worker's memory grows with every option set callers ask for.
    monkeypatch.setattr(solver, "TABLES", BoundedMemo(solver.TABLES_KEPT))
    state = make(options=Options(turn_seconds=0, generala=65, full=35))
    first, _ = advise(state, "win")
    tables = weakref.ref(tables_for(RuleKey.of(state.options)))
    solver.TABLES = BoundedMemo(solver.TABLES_KEPT)  # lets go (monkeypatch restores the real)
    gc.collect()
    assert tables() is None
    # the plan kept still answers, without the tables
    assert advise(state, "win")[0] == first
    assert RuleKey.of(state.options) not in solver.TABLES


def test_the_dice_engine_declares_the_four_levels_and_plays_each():
    assert LEVELS == ("easy", "medium", "hard", "win")
    assert tuple(STRATEGIES) == LEVELS


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("options", [
    pytest.param({}, id="sheet values"),
    pytest.param({"escalera": 45, "generala": 0, "servida_bonus": 0}, id="house values"),
    pytest.param({"servida_generala_wins": True}, id="instant-win house rule"),
])
def test_every_hint_of_a_whole_match_is_a_legal_move_the_engine_accepts(level, options):
    # Both seats follow the hint at every step, through the engine itself.
    state = ENGINE.new_match(("ann", "bob"), ENGINE.resolve_options(options),
                             f"hints-{level}", now=NOW)
    steps = 0
    while not ENGINE.is_finished(state):
        advice, moves = advise(state, level)
        assert advice.move in moves
        assert advice.describe()["move"] == advice.move  # postable as it is (plain JSON)
        state, _ = ENGINE.apply(state, advice.move, now=NOW)
        steps += 1
    assert steps >= 22 or state.instant_winner is not None


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_always_gives_the_same_advice(level):
    state = make(rolls=2, dice=(2, 2, 5, 5, 6), sheets=({"ones": 2, "full": 30}, {"sixes": 18}))
    first, _ = advise(state, level)
    again, _ = advise(state, level)
    assert first.describe() == again.describe()


@pytest.mark.parametrize("level", LEVELS)
def test_states_that_differ_only_in_what_the_player_cannot_see_give_the_same_advice(level):
    # A dice player sees everything but the seed and the random step (the dice to come).
    pick = random.Random(level)
    for _ in range(5):
        dice = tuple(pick.randint(1, 6) for _ in range(5))
        base = make(rolls=pick.randint(1, 3), dice=dice, sheets=({"twos": 4}, {"poker": 45}))
        other = dataclasses.replace(base, seed="another seed", step=base.step + 17)
        assert ENGINE.view(base, "ann") == ENGINE.view(other, "ann")
        assert advise(base, level)[0].describe() == advise(other, level)[0].describe()


def test_the_view_shows_the_matchs_options_which_the_advice_reads():
    state = make(options=Options(turn_seconds=0, escalera=500))
    assert ENGINE.view(state, "bob")["options"]["escalera"] == 500
    # 1-2-3-4-6 after the first roll: with a 500-point Escalera the run is the only chase.
    advice, _ = advise(state, "hard")
    assert advice.move["keep"] == [1, 2, 3, 4]
    plain, _ = advise(make(), "hard")
    assert plain.value < advice.value


@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_the_hard_hint_is_worth_the_most_and_lists_the_next_best_first(rolls):
    state = make(rolls=rolls, dice=(3, 3, 3, 5, 6), sheets=({"threes": 9}, {}))
    advice, moves = advise(state, "hard")
    assert advice.measure == "expected_final_score"
    values = [a.value for a in advice.alternatives]
    assert values == sorted(values, reverse=True)
    assert len(advice.alternatives) == min(3, len(moves) - 1)
    assert all(advice.value >= v - 1e-9 for v in values)
    assert advice.move not in [a.move for a in advice.alternatives]


def test_the_expected_final_score_counts_the_points_already_on_the_sheet():
    sheet = {"ones": 3, "sixes": 24, "full": 35}
    advice, _ = advise(make(rolls=0, sheets=(sheet, {})), "hard")
    tables = tables_for(DEFAULT_RULES)
    assert advice.move == {"type": "roll", "player": "ann", "keep": []}
    assert advice.value == pytest.approx(62 + tables.expected[sheet_state(sheet, DEFAULT_RULES)])


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_easier_levels_value_their_move_by_the_exact_tables_too(level):
    sheet = {"sixes": 12, "ones": 2}
    state = make(rolls=2, dice=(1, 2, 4, 6, 6), sheets=(sheet, {}))
    advice, _ = advise(state, level)
    choice = (Choice(box=advice.move["box"]) if advice.move["type"] == "score"
              else Choice(keep=tuple(advice.move["keep"])))
    hand = dt.hand_index(state.dice)
    plan = tables_for(DEFAULT_RULES).state_plan(sheet_state(sheet, DEFAULT_RULES))
    exact = plan.choices(2)[0, hand, choice_index(choice, hand)] + 14
    assert advice.measure == "expected_final_score"
    assert advice.value == pytest.approx(exact)
    assert advice.value <= advise(state, "hard")[0].value + 1e-9


def test_a_servida_made_hand_is_taken_and_said_so():
    advice, _ = advise(make(rolls=1, dice=(2, 2, 2, 5, 5)), "hard")
    assert advice.move == {"type": "score", "player": "ann", "box": "full"}
    assert "35 points (servida)" in advice.reason


def test_a_win_hint_on_the_last_turn_is_the_exact_chance_of_winning():
    # Bob has finished on 17 points more than Ann; she has only the sixes left, so she needs
    # three sixes or more: each die becomes a six within three rolls with 1 - (5/6)**3.
    others = {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 0, "escalera": 0,
              "full": 0, "poker": 0, "generala": 0, "doble_generala": 0}
    ann = dict(others)
    bob = {**others, "sixes": 12, "fives": 5}
    state = make(rolls=0, sheets=(ann, bob))
    advice, _ = advise(state, "win")
    six = 1 - (5 / 6) ** 3
    chance = sum(math.comb(5, k) * six ** k * (1 - six) ** (5 - k) for k in range(3, 6))
    assert advice.measure == "win_probability"
    assert advice.value == pytest.approx(chance, abs=1e-5)


def test_a_win_hint_plays_for_the_win_where_the_best_average_does_not():
    # Bob has finished but for a Doble his scratched Generala keeps at 0, 41 points ahead.
    # Ann has the Full and the Generala left and 6-6-6-5-5 after her second roll. Filling the
    # Full (30 now) is the best average, but then only a Generala next turn wins; rolling for
    # the Generala now, and still for a Full or a Generala after, wins more often.
    bob = {"ones": 0, "twos": 2, "threes": 0, "fours": 0, "fives": 15, "sixes": 24,
           "escalera": 0, "full": 0, "poker": 0, "generala": 0}
    ann = {box: 0 for box in ("ones", "twos", "threes", "fours", "fives", "sixes", "escalera",
                              "poker", "doble_generala")}
    state = make(players=("bob", "ann"), current=1, rolls=2, dice=(5, 5, 6, 6, 6),
                 sheets=(bob, ann))
    assert ENGINE.problems(state) == []
    hard, _ = advise(state, "hard")
    win, _ = advise(state, "win")
    assert hard.move == {"type": "score", "player": "ann", "box": "full"}
    assert win.move == {"type": "roll", "player": "ann", "keep": [6, 6, 6]}
    # Filling the Full wins only with a Generala next turn, which a turn makes this often:
    only_generala = {box: 0 for box in ann} | {"full": 30}
    tables = tables_for(DEFAULT_RULES)
    generala_chance = tables.expected[sheet_state(only_generala, DEFAULT_RULES)] / 50
    assert 0.04 < generala_chance < 0.05  # the rule text's "environ 4,6 %"
    assert win.value > generala_chance


def test_outside_his_turn_a_player_is_advised_the_timeout_once_the_clock_has_run_out():
    state = make(options=Options(turn_seconds=45), deadline=NOW - 1)
    advice, moves = advise(state, "hard", player="bob")
    assert advice.move == {"type": "timeout", "player": "bob"} and advice.move in moves
    assert advice.measure == "none" and advice.value is None


def test_a_player_with_no_move_or_an_unknown_level_is_refused_clearly():
    state = make()
    with pytest.raises(ValueError, match="no move"):
        advise(state, "hard", player="bob")
    with pytest.raises(ValueError, match="unknown hint level"):
        advise(state, "expert")
    # moves that leave out the level's own choice (a caller's filtered list) are refused too
    view = ENGINE.view(state, "ann")
    boxes_only = [m for m in ENGINE.legal_moves(state, now=NOW) if m["type"] == "score"]
    with pytest.raises(ValueError, match="not among the moves"):
        ENGINE.advise(view, boxes_only, "easy")  # a beginner keeps his 6 and rolls
