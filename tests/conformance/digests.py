"""Digests of seeded random matches: what every engine answers, step by step, folded into one
hash per game and option set. A restructuring that changes no rule leaves them all equal.

Each match is played by the seeded random player of `referee.core.playout`; at every step the
digest takes in the encoded state, the legal moves, who acts, the scores, every player's view
and the invariants' verdict; then the events of the move applied, a move refused (a legal move
posted in another player's name), and now and then an `easy` and a `medium` hint. Over HTTP a
few matches of each game go through `/moves`, `/legal-moves`, `/validations` and `/views` of an
open server, and the answers' bodies are digested whole.

`python -m tests.conformance.digests` prints the digests of today's code as JSON, the form
`golden_digests.json` keeps.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import sys
from typing import Any

import msgspec

from referee.core.errors import RefereeError
from referee.core.playout import random_move
from referee.games import REGISTRY

NOW = 1_000_000.0
MAX_STEPS = 1500
HINT_EVERY = 37

# Per game: named option sets (each game's modes and the house rules that change play) and the
# table sizes played with each, `MATCHES` seeds a case.
MATCHES = 10
CASES: dict[str, dict[str, tuple[dict[str, Any], tuple[int, ...]]]] = {
    "empereur": {
        f"{mode}-{jokers}j": ({"mode": mode, "jokers": jokers, "rounds": 2, "target_points": 60},
                              (2, 3, 5))
        for mode in ("normal", "elite", "mirror_normal", "mirror_elite") for jokers in (0, 2)
    },
    "generala-cards": {
        "french": ({"variant": "french"}, (2, 3, 5)),
        "braille": ({"variant": "braille"}, (2, 4)),
        "house": ({"lead_last_dealt_card": True, "no_joker_after_joker": True,
                   "several_out_no_loser": True, "two_player_deal_decides": False,
                   "tie_dealt_by_last_card": True}, (2, 3, 4)),
    },
    "huit-americain": {
        "default": ({"target": 200}, (2, 3, 5)),
        "stuck-one": ({"target": 200, "when_stuck": "draw_one", "no_finish_on_eight": True},
                      (2, 4)),
        "stuck-all": ({"target": 200, "when_stuck": "draw_until_playable",
                       "attack_returns": True, "draw_penalty_on_error": True}, (3, 4)),
        "two-decks-fly": ({"target": 200, "decks": 2, "on_the_fly": True}, (3, 6)),
        "effects": ({"target": 200, "effect_swap_hands": "3", "effect_rotate_hands": "4",
                     "effect_give_two": "5", "effect_all_draw_one": "6",
                     "effect_suit_hunt": "9", "effect_play_again": "off"}, (3, 4)),
    },
    "generala-dice": {
        "default": ({"turn_seconds": 0}, (1, 2, 4)),
        "servida": ({"turn_seconds": 0, "servida_generala_wins": True, "escalera": 25,
                     "servida_bonus": 10}, (2, 3)),
    },
    "yacht": {
        "default": ({"turn_seconds": 0}, (1, 2, 4)),
    },
    "yams": {
        "default": ({"turn_seconds": 0}, (1, 2, 4)),
        "all-dice": ({"turn_seconds": 0, "rules": "yams_all_dice"}, (2,)),
        "yahtzee": ({"turn_seconds": 0, "rules": "yahtzee"}, (1, 2, 3)),
        "yahtzee-free-joker": ({"turn_seconds": 0, "rules": "yahtzee_free_joker"}, (2,)),
    },
}
HTTP_MATCHES = 3


def _fold(digest: Any, value: Any) -> None:
    digest.update(msgspec.json.encode(value, order="sorted"))
    digest.update(b"\n")


def _refusal(engine, state, move) -> Any:
    try:
        engine.apply(state, move, now=NOW)
    except RefereeError as error:
        return [type(error).__name__, str(error)]
    return "accepted"


def _hint(engine, state, player, moves, level) -> Any:
    mine = [m for m in moves if m["player"] == player]
    if not mine or level not in engine.hint_levels:
        return None
    advice = engine.advise(engine.view(state, player), mine, level)
    return advice.describe()


def match_digest(game: str, options: dict[str, Any], players: int, seed: int) -> str:
    engine = REGISTRY[game]
    names = tuple(f"p{i}" for i in range(players))
    state = engine.new_match(names, engine.resolve_options(options), f"digest-{seed}", now=NOW)
    rnd = random.Random(seed)
    digest = hashlib.sha256()
    _fold(digest, engine.opening_events(state))
    for step in range(MAX_STEPS):
        _fold(digest, engine.encode(state))
        _fold(digest, engine.problems(state))
        _fold(digest, engine.scores(state))
        for name in names:
            _fold(digest, engine.view(state, name))
        if engine.is_finished(state):
            break
        moves = engine.legal_moves(state, now=NOW)
        acting = engine.to_act(state, now=NOW)
        _fold(digest, [moves, acting])
        if step % HINT_EVERY == 0:
            _fold(digest, [_hint(engine, state, acting[0], moves, level)
                           for level in ("easy", "medium")])
        move = random_move(engine, moves, rnd)
        if step % 5 == 0:
            others = [n for n in names if n != move["player"]]
            if others:
                _fold(digest, _refusal(engine, state, {**move, "player": others[0]}))
        state, events = engine.apply(state, move, now=NOW)
        _fold(digest, events)
    return digest.hexdigest()


def case_digest(game: str, name: str) -> str:
    options, sizes = CASES[game][name]
    digest = hashlib.sha256()
    for players in sizes:
        for seed in range(MATCHES):
            digest.update(match_digest(game, options, players, seed).encode())
    return digest.hexdigest()


def http_digest(game: str) -> str:
    """The answers of an open server to a few random matches of `game`."""
    import referee

    app = referee.create_app({"CLOCK": lambda: NOW, "STATE_KEYS": []})
    client = app.test_client()
    options, sizes = next(iter(CASES[game].values()))
    digest = hashlib.sha256()
    for seed in range(HTTP_MATCHES):
        names = [f"p{i}" for i in range(max(2, sizes[0]))]
        answer = client.post(f"/v1/games/{game}/matches",
                             json={"players": names, "options": options, "seed": seed})
        body = answer.get_json()
        _fold(digest, [answer.status_code, body])
        rnd = random.Random(seed)
        for step in range(MAX_STEPS):
            if body["status"] != "in_progress" or not body["legal_moves"]:
                break
            state = body["state"]
            move = rnd.choice(body["legal_moves"])
            player = move["player"]
            for path, extra in (("legal-moves", {"player": player}),
                                ("validations", {"move": {**move, "player": "nobody"}}),
                                ("views", {"player": player})):
                if step % 4 == 0 or path == "validations" and step % 9 == 0:
                    reply = client.post(f"/v1/games/{game}/{path}",
                                        json={"state": state, **extra})
                    _fold(digest, [path, reply.status_code, reply.get_json()])
            answer = client.post(f"/v1/games/{game}/moves", json={"state": state, "move": move})
            body = answer.get_json()
            _fold(digest, [answer.status_code, body])
            if answer.status_code != 200:
                break
    return digest.hexdigest()


def all_digests() -> dict[str, str]:
    out = {f"{game}/{name}": case_digest(game, name)
           for game, cases in CASES.items() for name in cases}
    out.update({f"http/{game}": http_digest(game) for game in CASES})
    return out


if __name__ == "__main__":
    logging.disable(logging.INFO)
    json.dump(all_digests(), sys.stdout, indent=2, sort_keys=True)
    print()
