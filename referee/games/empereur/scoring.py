"""How each mode scores a round and ends the match, and the titles a round gives
(docs/rules/empereur.md, clauses 14-18, 21-24 and "Roles and counters").

A round won is a round as Emperor (Normal, Elite) or as Elect (Mirror modes), a round lost
one as Subject or as Outcast (the roles themselves are given by `playing`). Points: in Elite the
Emperor scores the card values left in his Subjects' hands; in Mirror Elite the Outcast
scores every card left in every hand (3-10 face value, J 11, Q 12, K 13, A 14, 2 15, joker
20); the Normal modes score none. End: Normal and Mirror Normal after `rounds` rounds, the
last round's Emperor winning (Normal) or its Outcast losing (Mirror Normal), everyone else the
other way; Elite and Mirror Elite once a player reaches `target_points`, who wins (Elite) or
loses (Mirror Elite).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .ranks import value


def emperor_scores_the_subjects(roles, hands, emperor: int | None) -> list[int]:
    gained = [0] * len(roles)
    gained[emperor] = sum(value(card) for seat, hand in enumerate(hands)
                          if roles[seat] == "subject" for card in hand)
    return gained


def outcast_scores_every_card_left(roles, hands, emperor: int | None) -> list[int]:
    gained = [0] * len(roles)
    gained[roles.index("outcast")] = sum(value(card) for hand in hands for card in hand)
    return gained


def no_points(roles, hands, emperor: int | None) -> list[int]:
    return [0] * len(roles)


@dataclasses.dataclass(frozen=True)
class ModeRules:
    won: str  # the role that counts a round won
    lost: str  # the role that counts a round lost
    still_holding: str  # the role of the players still holding cards when a round ends
    head: str  # the role exactly one player holds at the end of each round
    points: Callable[[Any, Any, int | None], list[int]]  # (roles, hands, emperor): the points


MODE_RULES = {
    "normal": ModeRules("emperor", "subject", "subject", "emperor", no_points),
    "elite": ModeRules("emperor", "subject", "subject", "emperor", emperor_scores_the_subjects),
    "mirror_normal": ModeRules("elect", "outcast", "elect", "outcast", no_points),
    "mirror_elite": ModeRules("elect", "outcast", "elect", "outcast",
                              outcast_scores_every_card_left),
}


def at_target(state: Any) -> list[int]:
    """The seats whose points reached the target."""
    return [seat for seat, points in enumerate(state.points)
            if points >= state.options.target_points]


def match_over(state: Any) -> bool:
    """Whether the match ends with the round that just ended (of a state or of the table that
    ends it): the Elite modes at the target, the others after their rounds."""
    if state.options.elite:
        return bool(at_target(state))
    return state.round >= state.options.rounds


def result(state: Any) -> tuple[list[str], list[str]]:
    """The winners and losers of a finished match (of a state, or of the table that ends
    it); none before. The match's end singles out the players at the target (Elite modes) or
    the last round's head; they win in the Normal modes, lose in the Mirror modes."""
    if state.phase != "finished":
        return [], []
    head = MODE_RULES[state.options.mode].head
    seats = (at_target(state) if state.options.elite
             else [seat for seat, role in enumerate(state.roles) if role == head])
    decided = [state.players[seat] for seat in seats]
    others = [p for p in state.players if p not in decided]
    return (others, decided) if state.options.mirror else (decided, others)


def titles(roles, emperor: int | None, mirror: bool) -> list[list[str]]:
    """Every title each player holds in a round (« Classement »): Emperor or Subject, and in
    the Mirror modes Elect or Outcast besides. Nobody is a Subject before there is an Emperor
    or the round is over; a Subject who went out with a joker is one at once."""
    over = all(roles)
    held = []
    for seat, role in enumerate(roles):
        these = []
        if seat == emperor:
            these.append("emperor")
        elif emperor is not None or over or role == "subject":
            these.append("subject")
        if mirror and role in ("elect", "outcast"):
            these.append(role)
        held.append(these)
    return held
