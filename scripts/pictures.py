"""Writes the README's pictures (docs/images/): the Generala sheet of a finished match (its
moves the medium hint's) and a Huit américain table seen by one player, both from seeded
matches played through the app, so they are what the service answers. Run `python
scripts/pictures.py` to rewrite them; a test fails when the committed files differ."""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import referee  # noqa: E402
from referee.core.playout import random_move  # noqa: E402
from referee.games import REGISTRY  # noqa: E402

IMAGES = ROOT / "docs" / "images"


def _play(client, game_id: str, players: list[str], moves: int | None, seed: int,
          hint: str | None = None) -> dict:
    """A seeded match played with random legal moves, or the moves of a `hint` level: `moves`
    of them, or to its end."""
    engine = REGISTRY[game_id]
    pick = random.Random(seed)
    outcome = client.post(f"/v1/games/{game_id}/matches",
                          json={"players": players, "seed": f"readme-{seed}",
                                "options": engine.playout_options}).get_json()
    while outcome["status"] != "finished" and (moves is None or moves > 0):
        if hint:
            mover = outcome["to_act"][0]
            seen = client.post(f"/v1/games/{game_id}/views",
                               json={"state": outcome["state"], "player": mover}).get_json()
            move = engine.advise(seen["view"], seen["legal_moves"], hint).move
        else:
            move = random_move(engine, outcome["legal_moves"], pick)
        outcome = client.post(f"/v1/games/{game_id}/moves",
                              json={"state": outcome["state"], "move": move}).get_json()
        moves = None if moves is None else moves - 1
    return outcome


def pictures() -> dict[str, str]:
    """File name -> SVG text."""
    client = referee.create_app({"STATE_KEYS": [], "CLOCK": lambda: 0.0}).test_client()
    sheet = _play(client, "generala-dice", ["ann", "bob", "cleo"], None, 1, hint="medium")
    table = _play(client, "huit-americain", ["ann", "bob", "cleo"], 14, 2)
    answers = {
        "generala-sheet.svg": client.post("/v1/games/generala-dice/sheets/svg",
                                          json={"state": sheet["state"]}),
        "huit-americain-view.svg": client.post(
            "/v1/games/huit-americain/images/view",
            json={"state": table["state"], "player": "ann", "events": table["events"]}),
    }
    return {name: answer.get_data(as_text=True) for name, answer in answers.items()}


if __name__ == "__main__":
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name, svg in pictures().items():
        (IMAGES / name).write_text(svg, encoding="utf-8")
        print(f"wrote docs/images/{name}")
