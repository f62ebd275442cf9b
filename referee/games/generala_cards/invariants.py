"""What a posted Générala (cards) state must satisfy to be a state the rules can reach
(docs/rules/generala-cards.md, "Views, scores, events": invalid states).

Invariants checked, in plain words: the `dealer` option names a player or a seat; one hand and
one elimination entry per player; seats inside the table. Every one of the 54 cards is in
exactly one place (a hand, the trick, face down). Nobody is out of the match from a deal not yet
played, no two players lost the same deal, somebody is still in the match, and a match that
goes on has no loser of its current deal; a player out of the match holds no cards (but the
loser of a finished match's last deal) and lays none. In a deal under way the player to act
holds cards, is in the match and has not laid in this trick; the trick was led by the leader,
skips nobody holding cards, follows the led suit, is not complete, and the player to act is the
next to lay; at least two players hold cards; the card kept for the German first lead is in the
leader's hand until he leads.
"""

from __future__ import annotations

from referee.core.cards import conservation_problems

from .deals import is_finished
from .deck import DECK, DECK_SET, JOKER_SET
from .declarations import dealer_seat
from .state import State
from .tricks import next_to_lay


def shape_problems(state: State) -> list[str]:
    """The checks every later one relies on: counts and seats within the table."""
    n = len(state.players)
    bad_seats = [p.seat for p in state.trick if not 0 <= p.seat < n]
    checks = (
        (state.options.dealer and dealer_seat(state.players, state.options.dealer) is None,
         "options.dealer names no player nor seat"),
        (state.deal < 1, "the deal number must be at least 1"),
        (len(state.hands) != n, "there must be one hand per player"),
        (len(state.eliminated) != n, "there must be one elimination entry per player"),
        (not 0 <= state.dealer < n, f"the dealer seat {state.dealer} is past the players"),
        (not 0 <= state.leader < n, f"the leader seat {state.leader} is past the players"),
        (bad_seats, f"trick seats {bad_seats} are past the players"),
    )
    return [problem for broken, problem in checks if broken]


def play_problems(state: State) -> list[str]:
    """The checks of a state whose shape is sound: the cards, the match, the trick."""
    places = {f"{state.players[s]}'s hand": h for s, h in enumerate(state.hands)}
    places["the trick"] = [p.card for p in state.trick]
    places["the discards"] = state.discards
    return (conservation_problems(places, DECK) + match_problems(state)
            + trick_problems(state))


def match_problems(state: State) -> list[str]:
    problems = []
    players = state.players
    elim = state.eliminated
    finished = is_finished(state)
    if any(e < 0 or e > state.deal for e in elim):
        problems.append("a player is out of the match from a deal not yet played")
    lost = [e for e in elim if e]
    if len(set(lost)) != len(lost):
        problems.append("two players lost the same deal")
    if elim.count(0) == 0:
        problems.append("every player is out of the match")
    if not finished and state.deal in lost:
        problems.append("the current deal already has a loser but the match goes on")
    for s, e in enumerate(elim):
        if e and state.hands[s] and not (finished and e == state.deal):
            problems.append(f"{players[s]} is out of the match but holds cards")
        if e and any(p.seat == s for p in state.trick):
            problems.append(f"{players[s]} is out of the match but laid a card in the trick")
    if finished:
        if state.current != -1:
            problems.append("the match has finished but a player is named to act")
        if state.trick:
            problems.append("the match has finished with cards on the table")
    return problems


def trick_problems(state: State) -> list[str]:
    if is_finished(state):
        return []
    problems = []
    players = state.players
    hands = state.hands
    n = len(players)
    trick = state.trick
    cur = state.current
    if not 0 <= cur < n:
        return [f"the seat to act {cur} is past the players"]
    if state.eliminated[cur]:
        problems.append(f"{players[cur]}, named to act, is out of the match")
    elif not hands[cur]:
        problems.append(f"{players[cur]}, named to act, is out of this deal (no cards)")
    seats = [p.seat for p in trick]
    if len(set(seats)) != len(seats):
        problems.append("a player laid two cards in the same trick")
    if trick and trick[0].seat != state.leader:
        problems.append("the trick's first card was not laid by the leader")
    if cur in seats:
        problems.append(f"{players[cur]}, named to act, already laid a card in this trick")
    if not trick:
        if cur != state.leader:
            problems.append("nobody has led yet but the player to act is not the leader")
        if sum(1 for h in hands if h) < 2:
            problems.append("fewer than two players hold cards but the deal goes on")
    else:
        expected = next_to_lay(hands, seats[-1], state.leader)
        if expected == state.leader:
            problems.append("every player holding cards has laid one: the trick should "
                            "be over")
        elif expected != cur:
            problems.append(f"{players[cur]} is named to act but {players[expected]} "
                            "is next")
        problems += skipped_problems(state, seats)
        lead = trick[0].card
        if lead in DECK_SET and lead not in JOKER_SET:
            off = [p.card for p in trick[1:] if p.card in DECK_SET and p.card not in JOKER_SET
                   and p.card[1] != lead[1]]
            if off:
                problems.append(f"cards {off} do not follow the led suit of {lead}")
    if state.first_lead is not None:
        if trick:
            problems.append("first_lead is set but the first trick has been led")
        elif state.first_lead not in hands[state.leader]:
            problems.append("first_lead is not in the leader's hand")
    return problems


def skipped_problems(state: State, seats: list[int]) -> list[str]:
    """The players holding cards seated between two consecutive cards of the trick (before the
    leader's seat comes round again): each should have laid a card in between."""
    problems = []
    n = len(state.players)
    for a, b in zip(seats, seats[1:]):
        s = (a + 1) % n
        while s != b and s != state.leader:
            if state.hands[s]:
                problems.append(f"{state.players[s]} was skipped in the trick")
                break
            s = (s + 1) % n
    return problems
