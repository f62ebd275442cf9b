"""A Générala (cards) deal from its dealing to its end, the end of the match, and the scores
(docs/rules/generala-cards.md, clauses 3, 5-7 and 22-26).

Rules enforced, in plain words: the first dealer is named by the `dealer` option or drawn from
the seed. Every deal, all 54 cards, shuffled, go one at a time counter-clockwise (to the next
seat) to the players still in the match, starting at the dealer's right, so hands differ by one
card at most; a dealer out of the match deals without playing. The player to the dealer's right
leads the deal's first trick, and the card he was dealt last is kept (`first_lead`) for the
German rule that he leads with it.

A deal is judged when a trick ends with fewer than two players holding cards. One player alone
holding cards loses the deal, is out of the match and deals the next deal, in which he does not
play; under the literal reading `several_out_no_loser`, nobody loses if two or more players
went out in that trick. When nobody holds cards (the last players all laid their last card in
the trick), nobody loses and the same dealer deals again (German `tie_dealt_by_last_card`: the
one who laid the last card deals, and plays), except in a deal played by two under the French
`two_player_deal_decides`, where the one who laid the last card loses. The last player in the
match wins it. There are no points: a player's total is the number of deals he played without
losing.
"""

from __future__ import annotations

from typing import Any

from referee.core import chance, rng
from referee.core.cards import shuffled
from referee.core.engine import Event, evolve
from referee.core.errors import InvalidOptions

from .deck import DECK
from .declarations import dealer_seat
from .state import Options, Play, State

Hands = tuple[tuple[str, ...], ...]


def first_dealer(players: tuple[str, ...], options: Options, seed: str) -> tuple[int, int]:
    """The first deal's dealer and the random step its shuffle takes: the dealer named by the
    option (the shuffle at step 0), or drawn at step 0 (the shuffle at step 1)."""
    if options.dealer:
        dealer = dealer_seat(players, options.dealer)
        if dealer is None:
            raise InvalidOptions(f"dealer: {options.dealer!r} is not a player nor a seat",
                                 problems=["dealer: must name a player or a seat index"])
        return dealer, 0
    return rng.stream(seed, 0).below(len(players)), 1


def dealing_order(n: int, eliminated: tuple[int, ...], dealer: int) -> list[int]:
    """The seats still in the match, counter-clockwise from the dealer's right."""
    return [(dealer + i) % n for i in range(1, n + 1) if eliminated[(dealer + i) % n] == 0]


def deal(n: int, eliminated: tuple[int, ...], dealer: int, seed: str,
         step: int) -> tuple[Hands, int, str]:
    """All 54 cards, shuffled at `step`, one at a time counter-clockwise to the players still
    in the match, starting at the dealer's right. Returns the hands, the first leader (the
    dealer's right) and the card he was dealt last."""
    order = dealing_order(n, eliminated, dealer)
    deck = shuffled(DECK, seed, step)
    hands: list[list[str]] = [[] for _ in range(n)]
    k = len(order)
    for i, card in enumerate(deck):
        hands[order[i % k]].append(card)
    leader = order[0]
    return tuple(tuple(h) for h in hands), leader, hands[leader][-1]


def deal_events(players: tuple[str, ...], eliminated: tuple[int, ...], dealer: int, leader: int,
                hands: Hands, deal_number: int, step: int) -> list[Event]:
    """The announcement of a deal: who deals (and whether he plays), who leads, how many cards
    each player holds; then each player's cards, told to him alone, with the shuffle they came
    from."""
    events: list[Event] = [{
        "type": "deal_dealt", "deal": deal_number, "dealer": players[dealer],
        "dealer_plays": eliminated[dealer] == 0, "leader": players[leader],
        "cards": {players[s]: len(h) for s, h in enumerate(hands) if eliminated[s] == 0}}]
    order = dealing_order(len(players), eliminated, dealer)
    for s, h in enumerate(hands):
        if h:
            # Card i of the shuffled deck went to order[i % len(order)].
            positions = [i for i in range(len(DECK)) if order[i % len(order)] == s]
            events.append({"type": "cards_dealt", "player": players[s], "count": len(h),
                           "private": {"player": players[s], "cards": list(h),
                                       "chance": chance.deck_shuffle(step, 2, 1, positions,
                                                                     "cards")}})
    return events


def is_finished(state: State) -> bool:
    return state.eliminated.count(0) <= 1


def deal_has_loser(options: Options, holders: list[int], went_out: set[int],
                   in_match: int) -> bool:
    """Whether the deal that just ended has a loser: the lone player still holding cards,
    unless (`several_out_no_loser`) two or more went out in the last trick; or, when nobody
    holds cards, in a deal played by two under `two_player_deal_decides`, the one who laid the
    last card."""
    if len(holders) == 1:
        return not (options.several_out_no_loser and len(went_out) >= 2)
    return in_match == 2 and options.two_player_deal_decides


def end_of_deal(state: State, hands: list[tuple[str, ...]], trick: tuple[Play, ...],
                discards: tuple[str, ...], holders: list[int], events: list[Event],
                told: bool) -> tuple[State, list[Event]]:
    """The deal is over, `holders` (one player or nobody) holding cards after `trick`: its loser
    if it has one, then the match's winner or the next deal. The events only when `told`."""
    players = state.players
    options = state.options
    eliminated = state.eliminated
    dealer = state.dealer
    went_out = {p.seat for p in trick if not hands[p.seat]}
    # The last player who held a card: the lone holder, else (everyone went out in this
    # trick, which is then complete) the one who laid its last card.
    last_holder = holders[0] if holders else trick[-1].seat
    if deal_has_loser(options, holders, went_out, eliminated.count(0)):
        loser = last_holder
        eliminated = eliminated[:loser] + (state.deal,) + eliminated[loser + 1:]
        dealer = loser
        if told:
            events.append({"type": "deal_lost", "player": players[loser], "deal": state.deal,
                           "cards": len(hands[loser])})
    else:
        if told:
            events.append({"type": "deal_without_loser", "deal": state.deal,
                           "players": [players[s] for s in sorted(went_out)]})
        if options.tie_dealt_by_last_card:
            dealer = last_holder
    if eliminated.count(0) == 1:
        winner = eliminated.index(0)
        if told:
            events.append({"type": "match_won", "player": players[winner], "deal": state.deal})
        return evolve(state, hands=tuple(hands), trick=(), current=-1, discards=discards,
                      eliminated=eliminated, first_lead=None), events
    new_hands, leader, first_lead = deal(len(players), eliminated, dealer, state.seed,
                                         state.step)
    number = state.deal + 1
    if told:
        events += deal_events(players, eliminated, dealer, leader, new_hands, number,
                              state.step)
    return evolve(state, step=state.step + 1, deal=number, dealer=dealer, hands=new_hands,
                  trick=(), leader=leader, current=leader, discards=(), eliminated=eliminated,
                  first_lead=first_lead), events


def scores(state: State) -> dict[str, Any]:
    """Per player: the deals he played without losing (`total`), his cards, whether he is out
    of the deal or of the match and which deal he lost; the winner once the match is over, the
    losers in the order they were knocked out."""
    finished = is_finished(state)
    players = {}
    for seat, player in enumerate(state.players):
        lost = state.eliminated[seat]
        survived = lost - 1 if lost else (state.deal if finished else state.deal - 1)
        playing = lost == 0 or lost == state.deal
        players[player] = {
            "total": survived,
            "cards": len(state.hands[seat]),
            "out_of_deal": playing and not state.hands[seat],
            "out_of_match": lost > 0,
            "lost_deal": lost or None,
            "deals_lost": 1 if lost else 0,
        }
    winners = ([state.players[state.eliminated.index(0)]]
               if finished and 0 in state.eliminated else [])
    losers = [p for p, lost in sorted(zip(state.players, state.eliminated),
                                      key=lambda pl: pl[1]) if lost]
    return {"players": players, "winners": winners, "draw": False, "losers": losers,
            "deal": state.deal}
