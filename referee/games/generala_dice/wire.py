"""The declared shapes of Generala's events, view and scores (see referee.core.wire)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from referee.core.wire import Chance, Count, Declared, Event, PlayerId, match_created_event

from .state import Options

Box = Literal["ones", "twos", "threes", "fours", "fives", "sixes", "escalera", "full", "poker",
              "generala", "doble_generala"]
Die = Annotated[int, msgspec.Meta(ge=1, le=6, description="A die's face.")]
Deadline = Annotated[float | None, msgspec.Meta(
    description="Epoch seconds when the turn clock runs out; null without a clock.")]


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


class BoxScored(Event, tag="box_scored"):
    """The player filled a box (0 scratches it)."""

    player: PlayerId
    box: Box
    points: Count
    servida: Annotated[bool, msgspec.Meta(
        description="The box was filled after the turn's first roll.")]
    bonus: Annotated[Count, msgspec.Meta(
        description="The servida bonus paid (0 when none was: a box without one, or no servida).")]


class TurnPassed(Event, tag="turn_passed"):
    """The turn went to the next player; his clock starts."""

    player: PlayerId
    deadline: Deadline


class Timeout(Event, tag="timeout"):
    """A player ended the late player's turn: the game rolled (if needed) and scored for him."""

    player: PlayerId
    late: PlayerId = msgspec.field(name="for")


class GameFinished(Event, tag="game_finished"):
    """Every box is filled (or a servida Generala won): the match is over."""

    winners: list[PlayerId]
    draw: bool


EVENTS = (match_created_event(Options), DiceRolled, ServidaGenerala, BoxScored, TurnPassed,
          Timeout, GameFinished)


class View(Declared):
    """The table as every player sees it (dice games hide nothing but the seed), with the
    match's options, which decide good play."""

    you: PlayerId
    players: list[PlayerId]
    current: PlayerId
    rolls: Annotated[int, msgspec.Meta(ge=0, le=3)]
    dice: list[Die]
    sheets: dict[PlayerId, dict[Box, Count]]
    deadline: Deadline
    options: Options


class PlayerScore(Declared):
    total: Count
    boxes: dict[Box, Count]


class Scores(Declared):
    players: dict[PlayerId, PlayerScore]
    winners: list[PlayerId]
    draw: bool
