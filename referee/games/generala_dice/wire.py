"""The declared shapes of a dice-sheet game's events, view and scores (see referee.core.wire),
made from the sheet it plays: its box names type the `box_scored` event and the sheets, and
only a sheet with a servida bonus, or a game with the instant-win house rule, declares what
they add (`declare`)."""

# No `from __future__ import annotations` here: the shapes are declared inside `declare`, and
# their annotations name the sheet's own box type, which must be read where it is defined.

import dataclasses
from typing import Annotated, Literal

import msgspec

from referee.core.wire import Chance, Count, Declared, Event, PlayerId, match_created_event

from .scoring import SheetScoring

Die = Annotated[int, msgspec.Meta(ge=1, le=6, description="A die's face.")]
Deadline = Annotated[float | None, msgspec.Meta(
    description="Epoch seconds when the turn clock runs out; null without a clock.")]
Servida = Annotated[bool, msgspec.Meta(
    description="The box was filled after the turn's first roll.")]
Bonus = Annotated[Count, msgspec.Meta(
    description="The servida bonus paid (0 when none was: a box without one, or no servida).")]

YahtzeeBonusPaid = Annotated[Count, msgspec.Meta(
    description="The Yahtzee bonus paid: 100 for each further five of a kind while the Yams "
                "box holds its 50 (0 when none was).")]
YahtzeeBonuses = Annotated[Count, msgspec.Meta(
    description="The Yahtzee bonuses the player has earned, counted beside the boxes.")]
UpperBonusPaid = Annotated[Count, msgspec.Meta(
    description="The upper bonus earned (35 once the number boxes add up to 63, else 0).")]

# The view's description, as a docstring at the top level of a module writes it.
VIEW = """The table as every player sees it (dice games hide nothing but the seed), with the
    match's options, which decide good play."""


@dataclasses.dataclass(frozen=True)
class Wire:
    """One game's declared shapes: its events (`events`), its view and its scores."""

    events: tuple[type, ...]
    view: type
    scores: type


class DiceRolled(Event, tag="dice_rolled"):
    """The player rolled the dice he did not keep."""

    player: PlayerId
    roll: Annotated[int, msgspec.Meta(ge=1, le=3, description="The roll's number in the turn.")]
    kept: list[Die]
    rolled: list[Die]
    dice: list[Die]
    chance: Chance


class ServidaGenerala(Event, tag="servida_generala"):
    """House rule: five of a kind on the turn's first roll wins the match at once."""

    player: PlayerId


class TurnPassed(Event, tag="turn_passed"):
    """The turn went to the next player; his clock starts."""

    player: PlayerId
    deadline: Deadline


class Timeout(Event, tag="timeout"):
    """A player ended the late player's turn: the game rolled (if needed) and scored for him."""

    player: PlayerId
    late: PlayerId = msgspec.field(name="for")


def declare(scoring: SheetScoring, options_type: type, *, instant_win: bool,
            yahtzee_bonus: bool = False) -> Wire:
    """The shapes of the game playing this sheet with these options (`instant_win`: whether
    they offer the house rule of an instant win; `yahtzee_bonus`: whether they may pay the
    Yahtzee bonus, which the game then counts beside the boxes, with the upper bonus told
    apart in the scores)."""
    Box = Literal[scoring.boxes]  # noqa: N806 (a type)
    scored = [("player", PlayerId), ("box", Box), ("points", Count)]
    if scoring.servida_boxes:
        scored += [("servida", Servida), ("bonus", Bonus)]
    if yahtzee_bonus:
        scored += [("yahtzee_bonus", YahtzeeBonusPaid)]
    BoxScored = msgspec.defstruct(  # noqa: N806 (a type)
        "BoxScored", scored, bases=(Event,), tag="box_scored", module=__name__,
        namespace={"__doc__": "The player filled a box (0 scratches it)."})
    GameFinished = msgspec.defstruct(  # noqa: N806 (a type)
        "GameFinished", [("winners", list[PlayerId]), ("draw", bool)], bases=(Event,),
        tag="game_finished", module=__name__,
        namespace={"__doc__": "Every box is filled (or a servida Generala won): the match is "
                              "over." if instant_win else "Every box is filled: the match is "
                                                          "over."})

    View = msgspec.defstruct(  # noqa: N806 (a type)
        "View", [("you", PlayerId), ("players", list[PlayerId]), ("current", PlayerId),
                 ("rolls", Annotated[int, msgspec.Meta(ge=0, le=3)]), ("dice", list[Die]),
                 ("sheets", dict[PlayerId, dict[Box, Count]]), ("deadline", Deadline),
                 ("options", options_type),
                 *([("yahtzee_bonuses", dict[PlayerId, YahtzeeBonuses])]
                   if yahtzee_bonus else [])],
        bases=(Declared,), module=__name__, namespace={"__doc__": VIEW})
    PlayerScore = msgspec.defstruct(  # noqa: N806 (a type)
        "PlayerScore", [("total", Count), ("boxes", dict[Box, Count]),
                        *([("upper_bonus", UpperBonusPaid), ("yahtzee_bonus", YahtzeeBonusPaid)]
                          if yahtzee_bonus else [])],
        bases=(Declared,), module=__name__)

    class Scores(Declared):
        players: dict[PlayerId, PlayerScore]
        winners: list[PlayerId]
        draw: bool

    events = (match_created_event(options_type), DiceRolled,
              *((ServidaGenerala,) if instant_win else ()), BoxScored, TurnPassed, Timeout,
              GameFinished)
    return Wire(events, View, Scores)
