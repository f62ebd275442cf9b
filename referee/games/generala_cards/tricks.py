"""A Générala (cards) trick: who may lay what, laying a card, refusing, and who leads next
(docs/rules/generala-cards.md, clauses 7 to 21).

Rules enforced, in plain words: the leader lays any card of his hand (a joker too; under the
German `lead_last_dealt_card`, the deal's first trick is led with the card he was dealt last).
Then, in seat order, each player holding cards must follow the led suit if he can, with any
card of it. One who cannot may lay a joker (the next players still follow the first card's
suit) or refuse: he lays nothing, takes one card of the trick that is not a joker into his
hand, the rest goes face down out of the game, and the trick ends at once. Under the German
`no_joker_after_joker`, the player right after a joker that was not the lead may not lay a
joker. After a joker lead everyone lays any card and nobody can refuse. A player who lays his
last card is out of the deal and skipped from then on; his card stays in the trick. When every
player holding cards at the lead has laid one, the trick is complete and goes face down out
of the game; the strongest card wins it (a joker above an ace; of two jokers the first laid;
equal ranks, possible only after a joker lead, go to the one laid first). After a complete or
refused trick the strongest card among the players still holding cards leads; if none of them
holds cards, the refuser leads. A trick that leaves fewer than two players holding cards ends
the deal (`deals`).
"""

from __future__ import annotations

from collections.abc import Collection

from referee.core.engine import Event, Move, evolve
from referee.core.errors import IllegalMove

from . import deals
from .deck import DECK, JOKER_SET, STRENGTH, in_card_order
from .declarations import MAX_PLAYERS
from .state import Play, State

# What the player to act faces; it decides the cards he may lay and take back.
FIRST_LEAD = "first lead"  # leading a deal's first trick under `lead_last_dealt_card`
LEAD = "lead"  # leading: any card of his hand
AFTER_JOKER_LEAD = "after a joker lead"  # any card of his hand, no refusal
FOLLOW = "able to follow"  # any card of the led suit, nothing else
UNABLE = "unable to follow"  # a joker (unless one was just laid) or a refusal

# Why a card of the hand may not be laid, by what the player faces (a leader, or a player
# after a joker lead, may lay any card of his hand).
NOT_LAID = {
    FIRST_LEAD: ("lead_last_dealt_card",
                 "the first trick of a deal is led with the card dealt last: {first_lead}"),
    FOLLOW: ("follow_suit",
             "{card} does not follow the led suit ({lead}): a player able to follow must follow"),
    UNABLE: ("follow_or_refuse",
             ("{card} does not follow the led suit ({lead}): unable to follow, play a joker or "
              "refuse")),
}
JOKER_AFTER_JOKER = ("no_joker_after_joker",
                     ("right after a joker that was not the lead, the next player may not play "
                      "a joker"))
# Why a refusal is not allowed, by what the player faces (unable to follow, it is allowed if
# he takes a card of the trick that is not a joker).
NO_REFUSAL = {
    FIRST_LEAD: ("refuse_needs_trick", "the leader lays a card; there is nothing to refuse"),
    LEAD: ("refuse_needs_trick", "the leader lays a card; there is nothing to refuse"),
    AFTER_JOKER_LEAD: ("joker_lead_any_card", ("after a joker lead every card may be played: "
                                               "refusing is for a player unable to follow")),
    FOLLOW: ("follow_suit", ("a player able to follow suit must follow: refusing is for a "
                             "player unable to follow")),
}

# One play per seat and card, made once: a trick holds these shared frozen values.
PLAYS = tuple({card: Play(seat, card) for card in DECK} for seat in range(MAX_PLAYERS))


# What the player to act faces, the cards he may lay and the cards he may take back by
# refusing, in no set order (`legal_moves` lists them in card order; `apply` only asks
# membership).
Choices = tuple[str, Collection[str], Collection[str]]


def choices(state: State) -> Choices:
    hand = state.hands[state.current]
    trick = state.trick
    if not trick:
        if state.options.lead_last_dealt_card and state.first_lead is not None:
            return FIRST_LEAD, (state.first_lead,), ()
        return LEAD, hand, ()
    lead = trick[0].card
    if lead in JOKER_SET:
        return AFTER_JOKER_LEAD, hand, ()
    led_suit = lead[1]
    follow = [c for c in hand if c[1] == led_suit]
    if follow:
        return FOLLOW, follow, ()
    jokers = [c for c in hand if c in JOKER_SET]
    if jokers and state.options.no_joker_after_joker and trick[-1].card in JOKER_SET:
        jokers = []
    return UNABLE, jokers, {p.card for p in trick if p.card not in JOKER_SET}


def illegal(state: State, move: Move, allowed: Choices) -> IllegalMove:
    """Why `move`, a play or a refusal not among the `allowed` choices, breaks the rules."""
    facing, _, takes = allowed
    trick = state.trick
    if move["type"] == "play":
        card = move.get("card")
        if not isinstance(card, str) or card not in state.hands[state.current]:
            return IllegalMove("card_in_hand", f"{card!r} is not in {move['player']}'s hand")
        code, why = (JOKER_AFTER_JOKER if facing == UNABLE and card in JOKER_SET
                     else NOT_LAID[facing])
        return IllegalMove(code, why.format(card=card, lead=trick[0].card if trick else None,
                                            first_lead=state.first_lead))
    take = move.get("take")
    if facing in NO_REFUSAL:
        code, why = NO_REFUSAL[facing]
    elif isinstance(take, str) and take in JOKER_SET:
        code, why = "take_no_joker", "the card taken on refusal is never a joker"
    else:
        code, why = "take_from_trick", "{take!r} is not a card of the trick: take one of {takes}"
    return IllegalMove(code, why.format(take=take, takes=", ".join(in_card_order(takes))))


def lay(state: State, card: str, told: bool) -> tuple[State, list[Event]]:
    """The player to act lays `card`: the next player holding cards lays next, or, when
    everyone holding cards has laid one, the complete trick goes to its strongest card. The
    events only when `told`."""
    seat = state.current
    players = state.players
    hands = list(state.hands)
    hands[seat] = without(hands[seat], card)
    trick = state.trick + (PLAYS[seat][card],)
    events: list[Event] = []
    if told:
        events.append({"type": "card_played", "player": players[seat], "card": card,
                       "joker": card in JOKER_SET})
        if not hands[seat]:
            events.append({"type": "player_out", "player": players[seat], "deal": state.deal})
    following = next_to_lay(hands, seat, state.leader)
    if following != state.leader:
        return evolve(state, hands=tuple(hands), trick=trick, current=following,
                      first_lead=None), events
    if told:
        best = strongest(trick)
        events.append({"type": "trick_won", "player": players[best.seat], "card": best.card,
                       "cards": [p.card for p in trick]})
    discards = state.discards + tuple(p.card for p in trick)
    return after_trick(state, hands, trick, discards, None, events, told)


def refuse(state: State, take: str, told: bool) -> tuple[State, list[Event]]:
    """The player to act, unable to follow, refuses: he takes `take` into his hand, the rest of
    the trick goes face down and the trick ends at once. The events only when `told`."""
    seat = state.current
    hands = list(state.hands)
    hands[seat] = hands[seat] + (take,)
    down = without(tuple(p.card for p in state.trick), take)
    events: list[Event] = [{"type": "card_taken", "player": state.players[seat],
                            "card": take, "discarded": list(down)}] if told else []
    return after_trick(state, hands, state.trick, state.discards + down, seat, events, told)


def after_trick(state: State, hands: list[tuple[str, ...]], trick: tuple[Play, ...],
                discards: tuple[str, ...], refuser: int | None, events: list[Event],
                told: bool) -> tuple[State, list[Event]]:
    """A trick has ended: the deal goes on if two players or more hold cards, else it ends."""
    holders = [s for s, h in enumerate(hands) if h]
    if len(holders) < 2:
        return deals.end_of_deal(state, hands, trick, discards, holders, events, told)
    leader = next_leader(trick, hands, refuser)
    if told:
        events.append({"type": "trick_led_next", "player": state.players[leader]})
    return evolve(state, hands=tuple(hands), trick=(), leader=leader, current=leader,
                  discards=discards, first_lead=None), events


def strength(play: Play) -> int:
    return STRENGTH[play.card]


def strongest(plays: Collection[Play]) -> Play:
    """The strongest of these plays: the highest rank, a joker above an ace; of equal ranks
    (two jokers, or equal ranks after a joker lead) the one laid first, which `max` keeps."""
    return max(plays, key=strength)


def next_leader(trick: tuple[Play, ...], hands: list[tuple[str, ...]],
                refuser: int | None) -> int:
    """Who leads after a trick: the player who laid the strongest card among those still
    holding cards; if none of them holds cards, the refuser (the caller ensures someone
    does)."""
    holding = [p for p in trick if hands[p.seat]]
    if holding:
        return strongest(holding).seat
    # Nobody who laid a card holds one: only after a refusal, whose player holds cards.
    return refuser if refuser is not None else trick[0].seat


def next_to_lay(hands: tuple[tuple[str, ...], ...] | list[tuple[str, ...]], seat: int,
                leader: int) -> int:
    """Who lays after `seat` in the trick: the next player holding cards, or the leader once
    every player holding cards has laid one (the trick is complete)."""
    n = len(hands)
    following = (seat + 1) % n
    while following != leader and not hands[following]:
        following = (following + 1) % n
    return following


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]
