"""Hand-made states for tests and fixtures: `table(...)` places the cards you name and puts every
other card of the deck where `rest` says, so the state always conserves the deck."""

from __future__ import annotations

from typing import Any

from referee.core.cards import standard_deck

from .ranks import sort_hand
from .state import Options, State

DERIVED = object()  # an Emperor worked out from the roles (see `table`)


def table(hands: list[list[str]], *, pile: list[tuple[str, str]] | None = None,
          stock: list[str] | None = None, rest: str | int = "stock", current: int = 0,
          drawn: bool = False, last_player: int | None = None, mode: str = "normal",
          jokers: int = 2, rounds: int = 3, target_points: int = 500, round: int = 1,
          roles: list[str] | None = None, previous_roles: list[str] | None = None,
          dealer: int | None = None, rounds_won: list[int] | None = None,
          rounds_lost: list[int] | None = None, points: list[int] | None = None,
          phase: str = "play", gifts: list[tuple[int, int]] | None = None,
          exchange_stage: int = 0, players: tuple[str, ...] | None = None,
          seed: str = "test-seed", step: int = 0, emperor: Any = DERIVED,
          previous_emperor: Any = DERIVED) -> State:
    """A state in play. `rest` is "stock" (the unnamed cards go under the named stock) or a
    player index (they go to his hand). Unless given, the Emperor of this round and of the
    last one are worked out from the roles: the player whose role is emperor, or in the
    Mirror modes the first Elect in seat order."""
    n = len(hands)
    options = Options(jokers=jokers, mode=mode, rounds=rounds, target_points=target_points)
    mirror = options.mirror
    players = players or tuple("abcdef"[:n])
    pile = pile or []
    placed = [c for h in hands for c in h] + [c for c, _ in pile] + list(stock or [])
    left = [c for c in standard_deck(jokers=jokers) if c not in placed]
    hands = [list(h) for h in hands]
    stock = list(stock or [])
    if rest == "stock":
        stock += left
    else:
        hands[int(rest)] += left
    if not pile:
        last_player = None
    elif last_player is None:
        last_player = (current - 1) % n
    done = round - 1
    if previous_roles is None:
        previous_roles = [""] * n if round == 1 else (
            ["outcast"] + ["elect"] * (n - 1) if mirror else ["emperor"] + ["subject"] * (n - 1))
    won, lost = [0] * n, [0] * n
    if done:
        for k in range(n):
            (won if previous_roles[k] in ("emperor", "elect") else lost)[k] += 1
        for k in range(n):  # the earlier rounds: seat 0 was Emperor (or Outcast) every time
            ((lost if k == 0 else won) if mirror else (won if k == 0 else lost))[k] += done - 1
    if rounds_won is not None:
        won = list(rounds_won)
    if rounds_lost is not None:
        lost = list(rounds_lost)
    roles = list(roles or [""] * n)
    title = "elect" if mirror else "emperor"
    if emperor is DERIVED:
        # in Normal and Elite the Emperor's finish ends the round: none during play
        emperor = roles.index(title) if title in roles and (mirror or phase != "play") else None
    if previous_emperor is DERIVED:
        previous_emperor = previous_roles.index(title) if title in previous_roles else None
    return State(
        players=players, options=options, seed=seed, step=step, round=round, phase=phase,
        dealer=(current - 1) % n if dealer is None else dealer,
        hands=tuple(sort_hand(h) for h in hands), stock=tuple(stock), stock_step=-1,
        stock_shuffled=None, stock_start=0, stock_known=0,
        pile=tuple(c for c, _ in pile), pile_ranks=tuple(r for _, r in pile),
        last_player=last_player, current=current, drawn=drawn,
        roles=tuple(roles), previous_roles=tuple(previous_roles),
        gifts=tuple(gifts or ()), exchange_stage=exchange_stage,
        rounds_won=tuple(won), rounds_lost=tuple(lost), points=tuple(points or [0] * n),
        emperor=emperor, previous_emperor=previous_emperor,
    )
