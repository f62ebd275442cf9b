"""How a round begins and ends (docs/rules/empereur.md, clauses 3, 4, 14-24 and "Readings
where the text is silent").

Each round a draw picks the dealer: every contender draws a card from the whole deck shuffled
anew, the highest deals (a joker highest), and only the tied players draw again (after 100
tied draws the first tied player in seat order deals). Seven cards go to each player, one at a
time from the dealer's left; the rest is the stock. From the second round on the mode's
exchanges come first; then the player to the dealer's left starts. When a round ends, the
players still holding cards take the mode's role for them, the mode scores the round, and the
match ends or the next round begins.
"""

from __future__ import annotations

from referee.core import chance
from referee.core.cards import shuffled, standard_deck

from .exchanges import open_next_stage
from .ranks import CARD_STRENGTH, sort_hand, value
from .scoring import MODE_RULES, match_over, result
from .table import Table, begin_play, set_role

HAND_SIZE = 7
MAX_DEALER_DRAWS = 100  # tie-break rounds of the dealer draw before the first tied player deals
# jokers -> the whole deck, sorted: the order every shuffle of it starts from (`shuffled`
# sorts what it is given; a sorted deck it reads in one pass).
SORTED_DECKS = {jokers: tuple(sorted(standard_deck(jokers=jokers))) for jokers in (0, 1, 2)}


def start_round(table: Table, number: int) -> None:
    table.round = number
    if table.told:
        table.events.append({"type": "round_started", "round": number})
    choose_dealer(table, number)
    deal(table)
    if number > 1:
        table.previous_roles = tuple(table.roles)
        table.previous_emperor = table.emperor
    table.roles = ("",) * table.n
    table.emperor = None
    table.drawn = False
    table.current = (table.dealer + 1) % table.n  # the dealer's left starts, after any exchange
    if number == 1 or not open_next_stage(table, 0):
        begin_play(table)


def choose_dealer(table: Table, number: int) -> None:
    deck = SORTED_DECKS[table.options.jokers]
    contenders = list(range(table.n))
    for _ in range(MAX_DEALER_DRAWS):
        step = table.step
        order = shuffled(deck, table.seed, step)
        table.step += 1
        draws = {seat: order[place] for place, seat in enumerate(contenders)}
        best = max(CARD_STRENGTH[card] for card in draws.values())
        tied = [seat for seat in contenders if CARD_STRENGTH[draws[seat]] == best]
        if table.told:
            table.events.append({
                "type": "dealer_draw", "round": number,
                "draws": [{"player": table.players[seat], "card": draws[seat]}
                          for seat in contenders],
                "tied": [table.players[seat] for seat in tied] if len(tied) > 1 else [],
                "chance": chance.deck_shuffle(step, table.options.jokers, 1,
                                              range(len(contenders)), "draws[].card"),
            })
        contenders = tied
        if len(tied) == 1:
            break
    table.dealer = contenders[0]
    if table.told:
        table.events.append({"type": "dealer_chosen", "round": number,
                             "player": table.players[table.dealer]})


def deal(table: Table) -> None:
    n = table.n
    deal_step = table.step
    order = shuffled(SORTED_DECKS[table.options.jokers], table.seed, deal_step)
    table.step += 1
    # One card at a time from the dealer's left: place p of the order goes to the seat p + 1
    # after the dealer's, so a seat's hand is every n-th card of the dealt places.
    dealt = HAND_SIZE * n
    table.hands = [sort_hand(order[(seat - table.dealer - 1) % n:dealt:n]) for seat in range(n)]
    table.stock = order[HAND_SIZE * n:]
    table.stock_step, table.stock_shuffled = deal_step, None
    table.stock_start, table.stock_known = HAND_SIZE * n, 0
    table.pile, table.pile_ranks, table.last_player = (), (), None
    if table.told:
        tell_deal(table, deal_step, order)


def tell_deal(table: Table, deal_step: int, order: tuple[str, ...]) -> None:
    """The deal's events: each hand, to its player alone, and the stock."""
    # One deck: each card dealt lies at one place of the shuffled order, which the deal's
    # chance names for every card of a hand.
    place_of = {card: place for place, card in enumerate(order[:HAND_SIZE * table.n])}
    for seat, player in enumerate(table.players):
        shown = chance.deck_shuffle(deal_step, table.options.jokers, 1,
                                    [place_of[card] for card in table.hands[seat]], "cards")
        table.events.append({"type": "hand_dealt", "player": player, "count": HAND_SIZE,
                             "private": {"player": player, "cards": list(table.hands[seat]),
                                         "chance": shown}})
    table.events.append({"type": "stock_formed", "count": len(table.stock)})


def end_round(table: Table) -> None:
    rules = MODE_RULES[table.options.mode]
    for seat in range(table.n):
        if table.roles[seat] == "":
            set_role(table, seat, rules.still_holding)
    gained = rules.points(table.roles, table.hands, table.emperor)
    table.points = tuple(points + more for points, more in zip(table.points, gained))
    table.rounds_won = tuple(won + (role == rules.won)
                             for won, role in zip(table.rounds_won, table.roles))
    table.rounds_lost = tuple(lost + (role == rules.lost)
                              for lost, role in zip(table.rounds_lost, table.roles))
    players = table.players
    if table.told:
        table.events.append({
            "type": "round_result", "round": table.round,
            "roles": dict(zip(players, table.roles)),
            "emperor": None if table.emperor is None else players[table.emperor],
            "hand_values": {p: sum(value(card) for card in hand)
                            for p, hand in zip(players, table.hands)},
            "cards_left": {p: len(hand) for p, hand in zip(players, table.hands)},
            "points_gained": dict(zip(players, gained)),
            "points": dict(zip(players, table.points)),
        })
    table.drawn = False
    if match_over(table):
        table.phase = "finished"
        table.gifts, table.exchange_stage = (), 0
        if table.told:
            winners, losers = result(table)
            table.events.append({"type": "match_result", "winners": winners, "losers": losers})
    else:
        start_round(table, table.round + 1)
