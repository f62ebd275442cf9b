"""Matches between hint levels: every seat a bot playing one level's advice, from its view.

Used by the strength bench (`bench/hints.py`) and the strength tests. A match is played from
a named seed; the result is each seat's share of the win (1 for a lone winner, split between
tied winners). A match still running after `max_moves` (random players of L'Empereur can keep
a round going for ever, laying twos and doubles that feed everyone cards) is decided by the
cards held: the fewest win, split when tied.
"""

from __future__ import annotations

from typing import Any

from .engine import Engine

NOW = 0.0


def play_match(engine: Engine, levels: tuple[str, ...], options: dict[str, Any], seed: str,
               max_moves: int = 2000) -> list[float]:
    players = tuple(f"p{i}" for i in range(len(levels)))
    level_of = dict(zip(players, levels))
    state = engine.new_match(players, engine.resolve_options(options), seed, now=NOW)
    for _ in range(max_moves):
        if engine.is_finished(state):
            winners = engine.scores(state)["winners"]
            return [1 / len(winners) if p in winners else 0.0 for p in players]
        legal = engine.legal_moves(state, now=NOW)
        # The player in turn moves; a player who may act out of turn (a challenge, a card
        # laid on the fly) is his own bot only when his turn comes.
        player = engine.to_act(state, now=NOW)[0]
        mine = [m for m in legal if m["player"] == player]
        advice = engine.advise(engine.view(state, player), mine, level_of[player])
        state, _ = engine.apply(state, advice.move, now=NOW)
    held = [len(hand) for hand in state.hands]
    fewest = min(held)
    return [1 / held.count(fewest) if n == fewest else 0.0 for n in held]
