"""Hand-built Générala (cards) states for the table-driven tests.

Seats are named a, b, c, ... in seat order; the player to a seat's right is the next letter.
`build` fills the face-down discards with every card not placed, so conservation holds.
"""

from __future__ import annotations

import pytest

from referee.games.generala_cards import ENGINE
from referee.games.generala_cards.deck import DECK
from referee.games.generala_cards.state import Options, Play, State

NAMES = "abcdefghij"


def cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def build(hands: list[str], *, trick: list[tuple[str, str]] = (), leader: str | None = None,
          current: str | None = None, eliminated: dict[str, int] | None = None, deal: int = 1,
          dealer: str | None = None, options: dict | None = None,
          first_lead: str | None = None, check: bool = True) -> State:
    """A state with these hands (one string of cards per seat, as they were when the trick was
    led: a card a player laid in `trick` leaves his hand), this trick (pairs of player and
    card, in the order laid), and every other card face down out of the game."""
    n = len(hands)
    players = tuple(NAMES[:n])
    seat = players.index
    plays = tuple(Play(seat(p), c) for p, c in trick)
    laid = {(p.seat, p.card) for p in plays}
    hand_tuples = tuple(tuple(c for c in cards(h) if (s, c) not in laid)
                        for s, h in enumerate(hands))
    lead_seat = seat(leader) if leader else (plays[0].seat if plays else 0)
    if current is not None:
        cur = seat(current)
    elif not plays:
        cur = lead_seat
    else:
        cur = (plays[-1].seat + 1) % n
        while cur != lead_seat and not hand_tuples[cur]:
            cur = (cur + 1) % n
    placed = {c for h in hand_tuples for c in h} | {p.card for p in plays}
    elim = tuple((eliminated or {}).get(p, 0) for p in players)
    state = State(
        players=players,
        options=Options(**ENGINE.resolve_options(options or {})),
        seed="test-seed",
        step=5,
        deal=deal,
        dealer=seat(dealer) if dealer else (lead_seat - 1) % n,
        hands=hand_tuples,
        trick=plays,
        leader=lead_seat,
        current=cur,
        discards=tuple(c for c in DECK if c not in placed),
        eliminated=elim,
        first_lead=first_lead,
    )
    if check:
        assert ENGINE.problems(state) == [], ENGINE.problems(state)
    return state


def play(state: State, player: str, card: str):
    return ENGINE.apply(state, {"type": "play", "player": player, "card": card}, now=0.0)


def refuse(state: State, player: str, take: str):
    return ENGINE.apply(state, {"type": "refuse", "player": player, "take": take}, now=0.0)


def moves_of(state: State) -> list[str]:
    """Legal moves in short form: 'play 5H', 'refuse 7C'."""
    return [f"{m['type']} {m.get('card') or m.get('take')}"
            for m in ENGINE.legal_moves(state, now=0.0)]


def event_types(events) -> list[str]:
    return [e["type"] for e in events]


class Helpers:
    engine = ENGINE
    build = staticmethod(build)
    play = staticmethod(play)
    refuse = staticmethod(refuse)
    moves_of = staticmethod(moves_of)
    event_types = staticmethod(event_types)
    cards = staticmethod(cards)


@pytest.fixture
def gc() -> Helpers:
    return Helpers()
