"""The end of a Générala (cards) deal and of the match, and the scores (docs/rules/
generala-cards.md, clauses 22 to 26).

Rules enforced, in plain words: a deal is judged when a trick ends with fewer than two players
holding cards. One player alone holding cards loses the deal, is out of the match and deals the
next deal, in which he does not play; under the literal reading `several_out_no_loser`, nobody
loses if two or more players went out in that trick. When nobody holds cards (the last players
all laid their last card in the trick), nobody loses and the same dealer deals again (German
`tie_dealt_by_last_card`: the one who laid the last card deals, and plays), except in a deal
played by two under the French `two_player_deal_decides`, where the one who laid the last card
loses. The last player in the match wins it. There are no points: a player's total is the
number of deals he played without losing.
"""

from __future__ import annotations

from typing import Any

from referee.core.engine import Event, evolve

from .dealing import deal, deal_events
from .state import Options, Play, State


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
                discards: tuple[str, ...], holders: list[int],
                events: list[Event]) -> tuple[State, list[Event]]:
    """The deal is over, `holders` (one player or nobody) holding cards after `trick`: its loser
    if it has one, then the match's winner or the next deal."""
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
        events.append({"type": "deal_lost", "player": players[loser], "deal": state.deal,
                       "cards": len(hands[loser])})
    else:
        events.append({"type": "deal_without_loser", "deal": state.deal,
                       "players": [players[s] for s in sorted(went_out)]})
        if options.tie_dealt_by_last_card:
            dealer = last_holder
    if eliminated.count(0) == 1:
        winner = eliminated.index(0)
        events.append({"type": "match_won", "player": players[winner], "deal": state.deal})
        return evolve(state, hands=tuple(hands), trick=(), current=-1, discards=discards,
                      eliminated=eliminated, first_lead=None), events
    new_hands, leader, first_lead = deal(len(players), eliminated, dealer, state.seed,
                                         state.step)
    number = state.deal + 1
    events += deal_events(players, eliminated, dealer, leader, new_hands, number, state.step)
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
        if lost:
            survived = lost - 1
        else:
            survived = state.deal if finished else state.deal - 1
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
