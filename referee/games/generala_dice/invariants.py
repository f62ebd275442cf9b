"""What a posted Generala state must satisfy to be a state the rules can reach
(docs/rules/generala-dice.md, "Invalid states").

Invariants checked, in plain words: the player to act is seated; at most three rolls a turn,
five dice once a roll is made and none before, each showing 1 to 6; one sheet per player. Each
filled box holds a score that box can hold with these options' values, and the Doble holds
more than 0 only beside a Generala box holding its full value (above 0). Turns go round in seat
order, so the players before the player to act have filled one box more than the others; a
full set of sheets has no dice rolled. An instant winner needs the servida Generala house rule
and is the player to act, showing five of a kind on his turn's first roll. A deadline is set
exactly when the turn clock is on and the match goes on. A game counting Yahtzee bonuses
counts one per player, and only beside a Yams box holding its 50, under rules that pay them,
at most one a box filled after the Yams box.
"""

from __future__ import annotations

from referee.core.memo import BoundedMemo

from .hands import DICE, MAX_ROLLS
from .scoring import is_generala
from .state import SheetOptions, SheetState
from .turns import is_finished

OPTION_SETS_KEPT = 256
SheetRules = tuple[dict[str, int], dict[str, frozenset[int]]]


def sheet_rules(options: SheetOptions) -> SheetRules:
    """The box values of these options and every score each box can hold: a match's options
    never change, so a posted state's sheets are checked against tables made once."""
    return SHEET_RULES.get(options, make_sheet_rules)


def make_sheet_rules(options: SheetOptions) -> SheetRules:
    values, sheet = options.values, options.sheet
    return values, {box: sheet.possible_scores(box, values) for box in sheet.boxes}


SHEET_RULES: BoundedMemo[SheetOptions, SheetRules] = BoundedMemo(OPTION_SETS_KEPT)


def shape_problems(state: SheetState) -> list[str]:
    """The checks every later one relies on: the seat to act, the rolls, the dice, the
    sheets' count."""
    checks = [
        (not 0 <= state.current < len(state.players),
         f"the turn index {state.current} is past the players"),
        (not 0 <= state.rolls <= MAX_ROLLS, f"{state.rolls} rolls in a turn: at most three"),
        (len(state.dice) != (DICE if state.rolls else 0),
         f"{len(state.dice)} dice after {state.rolls} roll(s)"),
        (any(not 1 <= d <= 6 for d in state.dice), "a die shows a face outside 1-6"),
        (len(state.sheets) != len(state.players), "there must be one score sheet per player"),
    ]
    return [problem for broken, problem in checks if broken]


def play_problems(state: SheetState) -> list[str]:
    """The checks of a state whose shape is sound: the sheets, the turn order, the instant
    winner, the clock."""
    problems = sheet_problems(state) + turn_order_problems(state)
    if state.yahtzee_bonuses is not None:
        problems += yahtzee_bonus_problems(state)
    if state.instant_winner is not None:
        problems += instant_win_problems(state)
    if state.options.turn_seconds == 0 and state.deadline is not None:
        problems.append("a deadline is set but the turn clock is off")
    if state.options.turn_seconds and state.deadline is None and not is_finished(state):
        problems.append("the turn clock is on but no deadline is set")
    return problems


def sheet_problems(state: SheetState) -> list[str]:
    problems = []
    values, scores = sheet_rules(state.options)
    rules = state.options.sheet
    unlock = rules.declaration.unlock
    for player, sheet in zip(state.players, state.sheets):
        for box, points in sheet.items():
            if box not in scores:
                problems.append(f"{player}'s sheet has an unknown box {box!r}")
            elif points not in scores[box]:
                problems.append(f"{player}'s {box} box holds {points}, which it cannot score")
        # A box `by` worth 0 (house values) never unlocks its box, as the scorer reads.
        if unlock is not None and sheet.get(unlock.box, 0) > 0 and not rules.unlocks(sheet,
                                                                                     values):
            problems.append(f"{player}'s {title(unlock.box)} scored without a "
                            f"{title(unlock.by)} of {values[unlock.by]}")
    return problems


def title(box: str) -> str:
    """A box as a sentence names it: doble_generala -> Doble Generala."""
    return box.replace("_", " ").title()


def instant_win_problems(state: SheetState) -> list[str]:
    # Only the house rule ends a match at once, and only on the roll that stopped it: the
    # player to act, on the first roll of his turn, showing five of a kind.
    if state.instant_winner not in state.players:
        return ["the instant winner is not a player"]
    problems = []
    if not state.options.instant_win:
        problems.append("an instant winner is set but the servida Generala house rule is off")
    if (state.instant_winner != state.players[state.current] or state.rolls != 1
            or not is_generala(state.dice)):
        problems.append("the instant winner must be the player to act, showing five of a "
                        "kind on the first roll of the turn")
    return problems


def turn_order_problems(state: SheetState) -> list[str]:
    # Turns go round in seat order, so everyone before the current seat has filled one box
    # more than everyone from it on; a finished match has every sheet full.
    filled = [len(s) for s in state.sheets]
    if state.instant_winner is not None:
        return []
    if all(n == state.options.sheet.box_count for n in filled):
        return [] if state.rolls == 0 else ["dice are rolled in a finished match"]
    base = filled[state.current]
    expected = [base + 1 if i < state.current else base for i in range(len(filled))]
    if filled != expected:
        return [f"boxes filled per player {filled} do not fit the turn order "
                f"(expected {expected})"]
    return []


def yahtzee_bonus_problems(state: SheetState) -> list[str]:
    # A bonus is earned by a five of a kind scored while the bonus's box holds its value, so
    # each comes with a box filled after that one: at most the boxes filled but it.
    counts = state.yahtzee_bonuses
    if len(counts) != len(state.players):
        return ["there must be one count of Yahtzee bonuses per player"]
    repeat = state.options.sheet.declaration.repeat_bonus
    problems = []
    for player, sheet, count in zip(state.players, state.sheets, counts):
        if count == 0:
            continue
        if count < 0:
            problems.append(f"{player} has a negative count of Yahtzee bonuses")
        elif repeat is None:
            problems.append(f"{player} has Yahtzee bonuses under rules that pay none")
        elif (sheet.get(repeat.box, 0) == 0
              or sheet[repeat.box] != state.options.values[repeat.box]):
            problems.append(f"{player} has Yahtzee bonuses without a {title(repeat.box)} box "
                            f"holding {state.options.values[repeat.box]}")
        elif count > len(sheet) - 1:
            problems.append(f"{player} has {count} Yahtzee bonuses for {len(sheet)} filled "
                            "boxes")
    return problems
