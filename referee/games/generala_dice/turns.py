"""A dice-sheet turn, for every sheet: rolling, scoring a box, the turn clock, and the end of
the match (docs/rules/generala-dice.md, clauses 1 to 8, 15, 18, 22 and 28 to 30).

Rules enforced, in plain words: a turn is up to three rolls; the first rolls all five dice,
each later one rolls at least one die and keeps any dice the roll shows (kept dice are not
locked). After any roll the player fills one free box, scoring what the dice are worth there
(`scoring`); a hand scored after the first roll is servida, which the `box_scored` event says
on a sheet that pays a servida bonus. Turns go round in seat order, each
with the turn clock set afresh. Once the clock has run out the game plays the turn: it rolls
once if the turn has no roll, then fills the free box that scores most (on a tie, the one whose
loss costs least, then the first in sheet order). Under the house rule of an instant win
(Generala's `servida_generala_wins`), five of a kind on a turn's first roll wins the match at
once. Under a joker rule (the Yahtzee preset of Yams), a joker fills only the boxes its
reading allows, and a game counting repeat bonuses (Yams) counts, beside the boxes, the Yahtzee
bonuses each player earned (`SheetScoring.repeat_bonus`). When every box of every sheet is
filled the highest total (the upper bonus and the Yahtzee bonuses included) wins; players tied
on top all win, and if everyone ties the match is a draw.
"""

from __future__ import annotations

from typing import Any

from referee.core import chance
from referee.core import dice as dice_source
from referee.core.engine import Event, evolve
from referee.core.errors import IllegalMove

from .hands import DICE, HAND_HOLDS, HAND_OF, MAX_ROLLS
from .scoring import is_generala
from .state import SheetOptions, SheetState
from .worth import worth_of


def deadline(options: SheetOptions, now: float) -> float | None:
    """When the clock of a turn starting `now` runs out; None without a turn clock."""
    return now + options.turn_seconds if options.turn_seconds else None


def clock_expired(state: SheetState, now: float) -> bool:
    return state.deadline is not None and now >= state.deadline


def all_filled(sheets: tuple[dict[str, int], ...], box_count: int) -> bool:
    """Whether every box of every sheet is filled. Seats fill in turn order, so the last sheet
    is the last to fill: it is read first."""
    return (not sheets or len(sheets[-1]) == box_count) and all(
        len(s) == box_count for s in sheets)


def is_finished(state: SheetState) -> bool:
    return state.instant_winner is not None or all_filled(state.sheets,
                                                          state.options.sheet.box_count)


def scores(state: SheetState) -> dict[str, Any]:
    rules = state.options.sheet
    totals = {p: rules.declaration.total(s) for p, s in zip(state.players, state.sheets)}
    players = {p: {"total": totals[p], "boxes": dict(s)}
               for p, s in zip(state.players, state.sheets)}
    if state.yahtzee_bonuses is not None:  # a game counting them says both bonuses apart
        for p, s, count in zip(state.players, state.sheets, state.yahtzee_bonuses):
            bonus = count * yahtzee_bonus_amount(state)
            totals[p] += bonus
            players[p].update(total=totals[p], upper_bonus=upper_bonus(rules.declaration, s),
                              yahtzee_bonus=bonus)
    if state.instant_winner is not None:
        winners = [state.instant_winner]
    else:
        top = max(totals.values())
        over = all_filled(state.sheets, rules.box_count)
        winners = [p for p in state.players if totals[p] == top] if over else []
    return {"players": players, "winners": winners, "draw": len(winners) == len(state.players)}


def upper_bonus(sheet, filled: dict[str, int]) -> int:
    """The upper bonus a sheet's filled boxes earned (0 without one)."""
    return sheet.total(filled) - sum(filled.values())


def yahtzee_bonus_amount(state: SheetState) -> int:
    repeat = state.options.sheet.declaration.repeat_bonus
    return repeat.amount if repeat is not None else 0


def finished_event(state: SheetState) -> Event:
    result = scores(state)
    return {"type": "game_finished", "winners": result["winners"], "draw": result["draw"]}


def holds(dice: tuple[int, ...], keep: list[int]) -> bool:
    """Whether the dice shown hold every die of `keep` (as many of each face)."""
    try:
        return tuple(sorted(keep)) in HAND_HOLDS[HAND_OF[dice]]
    except TypeError:  # values that do not even compare: no die shows them
        return False


def roll(state: SheetState, keep: list[int], *,
         told: bool = True) -> tuple[SheetState, list[Event]]:
    """The player to act rolls the dice not in `keep`; the events only when `told`."""
    rolls = state.rolls
    if rolls >= MAX_ROLLS:
        raise IllegalMove("three_rolls", "a turn has at most three rolls: score a box")
    if keep:
        if rolls == 0:
            raise IllegalMove("first_roll_all_dice",
                              "the first roll of a turn rolls all five dice")
        if not holds(state.dice, keep):
            raise IllegalMove("keep_from_dice",
                              f"cannot keep {keep}: the dice show {list(state.dice)}")
        if len(keep) >= DICE:
            raise IllegalMove("roll_at_least_one", "a roll must roll at least one die")
    step = state.step
    count = DICE - len(keep)
    rolled = dice_source.roll(state.seed, step, count)
    new_dice = (*keep, *rolled)
    player = state.players[state.current]
    rolls += 1
    won = rolls == 1 and state.options.instant_win and is_generala(new_dice)
    if won:
        state = evolve(state, step=step + 1, rolls=rolls, dice=new_dice,
                       instant_winner=player, deadline=None)
    else:
        state = evolve(state, step=step + 1, rolls=rolls, dice=new_dice)
    if not told:
        return state, []
    events: list[Event] = [{"type": "dice_rolled", "player": player, "roll": rolls,
                            "kept": [*keep], "rolled": [*rolled], "dice": [*new_dice],
                            "chance": chance.dice(step, count)}]
    if won:
        events.append({"type": "servida_generala", "player": player})
        events.append(finished_event(state))
    return state, events


def score(state: SheetState, box: str, now: float, *,
          told: bool = True) -> tuple[SheetState, list[Event]]:
    """The player to act fills `box` with what the dice are worth there; the turn passes, or
    the match ends with the last box of the last sheet. The events only when `told`."""
    rolls = state.rolls
    if rolls == 0:
        raise IllegalMove("roll_before_scoring", "roll the dice before filling a box")
    options = state.options
    rules = options.sheet
    if box not in rules.scorers:
        raise IllegalMove("unknown_box", f"{box!r} is not a box of the sheet")
    current = state.current
    sheet = state.sheets[current]
    if box in sheet:
        raise IllegalMove("box_filled", f"the {box} box is already filled")
    servida = rolls == 1
    values = options.values
    scorer, hand = rules.scorers[box], HAND_OF[state.dice]
    if rules.joker is not None and box not in rules.allowed_boxes(hand, sheet):
        raise IllegalMove("joker_box", f"a joker cannot fill the {box} box: it fills "
                          f"{', '.join(rules.allowed_boxes(hand, sheet))}")
    points = scorer(hand, servida, sheet, values)
    players = state.players
    player = players[current]
    filled = list(state.sheets)
    filled[current] = {**sheet, box: points}
    sheets = tuple(filled)
    counts_bonuses = state.yahtzee_bonuses is not None
    if counts_bonuses:  # counted beside the boxes, earned before filling
        bonus = rules.repeat_bonus(hand, sheet, values)
        if bonus:
            counts = list(state.yahtzee_bonuses)
            counts[current] += 1
            state = evolve(state, yahtzee_bonuses=tuple(counts))
    # A match goes on until the scoring fills the last sheet (no instant winner here: a
    # match won at once takes no more moves).
    over = all_filled(sheets, rules.box_count)
    if over:
        state = evolve(state, sheets=sheets, rolls=0, dice=(), deadline=None)
    else:
        current = (current + 1) % len(players)
        next_deadline = deadline(options, now)
        state = evolve(state, sheets=sheets, rolls=0, dice=(), current=current,
                       deadline=next_deadline)
    if not told:
        return state, []
    scored: Event = {"type": "box_scored", "player": player, "box": box, "points": points}
    if rules.servida_boxes:  # a sheet with a servida bonus says whether it was earned
        scored["servida"] = servida
        # the bonus actually paid: none outside the boxes that have one, none for a hand
        # that does not make the box
        scored["bonus"] = points - scorer(hand, False, sheet, values) if servida else 0
    if counts_bonuses:
        scored["yahtzee_bonus"] = bonus
    if over:
        return state, [scored, finished_event(state)]
    return state, [scored, {"type": "turn_passed", "player": players[current],
                            "deadline": next_deadline}]


def timeout(state: SheetState, player: str, now: float, *,
            told: bool = True) -> tuple[SheetState, list[Event]]:
    """The game plays the late turn, `player` having posted the timeout: one roll if none was
    made, then the box `timeout_box` names. The events only when `told`."""
    events: list[Event] = [{"type": "timeout", "player": player,
                            "for": state.players[state.current]}] if told else []
    if state.rolls == 0:
        state, rolled = roll(state, [], told=told)
        events += rolled
        if is_finished(state):
            return state, events
    state, scored = score(state, timeout_box(state), now, told=told)
    return state, events + scored


def timeout_box(state: SheetState) -> str:
    """The box a timeout fills: the free box that scores most with the dice shown; among
    those that score the same, the one whose loss costs the player least (a dead box first,
    see `worth`), then the first in sheet order."""
    sheet = state.sheets[state.current]
    options = state.options
    values = options.values
    rules = options.sheet
    boxes, scorers, worth = rules.boxes, rules.scorers, worth_of(rules)
    servida = state.rolls == 1
    hand = HAND_OF[state.dice]

    def preference(box: str) -> tuple[int, float, int]:
        points = scorers[box](hand, servida, sheet, values)
        return points, -worth.giving_up_cost(box, points, sheet, values), -boxes.index(box)

    return max(rules.allowed_boxes(hand, sheet), key=preference)
