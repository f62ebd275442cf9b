"""Huit américain: seeded matches replay to the same digest, move for move.

Each match is random play (with now and then a random, mostly illegal move) over one of
several option sets (attack cards moved, the draw variants, targets above 100, two decks
on the fly, the house rules, every optional effect). At every step the digest takes in the
encoded state, the legal moves, who may act, the scores, every player's view, and then the
events of the move played or the refusal (code and message) of the one tried. A change of
the engine's internals must leave it as it is; a change of the rules changes it, and then
`DIGEST` is the new value printed by `python tests/games/huit_americain/
test_huit_americain_replay_digest.py`, with the rule change said in the commit.
"""

from __future__ import annotations

import hashlib
import random

import msgspec

from referee.core.errors import GameOver, IllegalMove, NotYourTurn
from referee.games.huit_americain import ENGINE

OPTION_SETS = (
    {},
    {"when_stuck": "draw_one"},
    {"when_stuck": "draw_until_playable", "target": 300},
    {"decks": 2, "on_the_fly": True, "when_stuck": "draw_one"},
    {"decks": 2, "no_finish_on_eight": True, "attack_returns": True, "target": 250},
    {"draw_penalty_on_error": True, "effect_swap_hands": "Q", "effect_give_two": "K"},
    {"effect_rotate_hands": "Q", "effect_all_draw_one": "K", "effect_suit_hunt": "9",
     "when_stuck": "draw_until_playable"},
    {"effect_draw_two": "2", "effect_stop": "A", "effect_skip": "off", "effect_reverse": "off",
     "no_finish_on_eight": True, "attack_returns": True},
    {"decks": 2, "on_the_fly": True, "draw_penalty_on_error": True, "effect_give_two": "Q",
     "effect_suit_hunt": "K", "target": 200, "when_stuck": "draw_until_playable"},
    {"effect_play_again": "off", "effect_draw_four": "off", "effect_change_suit": "5",
     "target": 150, "points_8": 5},
)
MATCHES = 30
STEPS = 3000  # a match longer than this stops being followed (none of these reaches it)
DIGEST = "1069f233ee1e467f858450dc2ef17703fb8f8ad05c4781258267b09d77cf5b3a"
NOW = 0.0
_ENCODE = msgspec.json.Encoder(order="deterministic").encode


def _tried(state, pick: random.Random, names: tuple[str, ...]) -> dict:
    """A random move of a random player, often against the rules."""
    move = {"type": pick.choice(["lay", "draw", "pass", "challenge", "give", "lay_out_of_turn"]),
            "player": pick.choice(names)}
    if move["type"] in ("lay", "give", "lay_out_of_turn"):
        hand = state.hands[names.index(move["player"])]
        move["card"] = pick.choice(hand) if hand and pick.random() < .8 else state.pile[-1]
        if pick.random() < .3:
            move["suit"] = pick.choice("SHDC")
        if pick.random() < .2:
            move["target"] = pick.choice(names)
        if pick.random() < .2:
            move["announce"] = True
    return move


def match_digest(seed: int, digest) -> int:
    """Plays match `seed` into `digest`; the moves played."""
    pick = random.Random(seed)
    names = tuple(f"p{i}" for i in range(2 + seed % 5))
    options = ENGINE.resolve_options(OPTION_SETS[seed % len(OPTION_SETS)])
    state = ENGINE.new_match(names, options, f"chk-{seed}", now=NOW)
    digest.update(_ENCODE(ENGINE.encode(state)))
    digest.update(_ENCODE(ENGINE.opening_events(state)))
    steps = 0
    while not ENGINE.is_finished(state) and steps < STEPS:
        moves = ENGINE.legal_moves(state, now=NOW)
        for seen in (moves, ENGINE.to_act(state, now=NOW), ENGINE.scores(state),
                     *(ENGINE.view(state, p) for p in names)):
            digest.update(_ENCODE(seen))
        if pick.random() < 0.08:
            try:
                state, events = ENGINE.apply(state, _tried(state, pick, names), now=NOW)
            except (IllegalMove, NotYourTurn, GameOver) as refused:
                digest.update(repr((type(refused).__name__, getattr(refused, "code", None),
                                    str(refused))).encode())
                continue
        else:
            state, events = ENGINE.apply(state, pick.choice(moves), now=NOW)
        digest.update(_ENCODE(events))
        digest.update(_ENCODE(ENGINE.encode(state)))
        steps += 1
    digest.update(_ENCODE(ENGINE.scores(state)))
    return steps


def replay_digest(matches: int = MATCHES) -> str:
    whole = hashlib.sha256()
    for seed in range(matches):
        one = hashlib.sha256()
        match_digest(seed, one)
        whole.update(one.digest())
    return whole.hexdigest()


def test_seeded_matches_replay_to_the_recorded_digest():
    assert replay_digest() == DIGEST


if __name__ == "__main__":
    print(replay_digest())
