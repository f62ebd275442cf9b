"""Laying cards, and what a play sets off (docs/rules/empereur.md, clauses 5, 6, 8, 10-12,
14-16).

A play lays one or more cards of one rank from the player's hand, jokers counting as the rank
he names (alone, a joker needs one named; with naturals it takes theirs), at least the rank on
top of the pile. A two is laid alone; every other player still in the round draws one card,
the pile goes under the stock and the two's player leads again (if he went out, the next one
still in). After a play, a run of k > 1 cards of one rank on top of the pile makes the next
player still in draw k - 1 cards (before a two clears the pile). A player who empties his hand
goes out: in Normal and Elite the first out without a joker is the Emperor and the round ends,
one out with a joker is a Subject and play goes on, and a player left alone is the Emperor; in
the Mirror modes a player out is an Elect (the first out without a joker also the round's
Emperor), one out with a joker is the Outcast at once and the round ends without the two and
penalty draws, and the last one holding cards is the Outcast.
"""

from __future__ import annotations

from typing import Any

from referee.core.errors import IllegalMove
from referee.core.memo import BoundedMemo

from .ranks import CARD_KEY, STRENGTH, TWO, sort_hand
from .rounds import end_round
from .table import (
    SEATS_AFTER,
    Table,
    advance,
    clear_pile,
    draw,
    next_player_in,
    set_role,
    top_run,
    without,
)

# The role of a player going out, by (with a joker, in a Mirror mode).
OUT_ROLE = {(False, False): "emperor", (False, True): "elect", (True, False): "subject",
            (True, True): "outcast"}

# Plays repeat, and a reading depends on nothing but the cards and the rank named.
READINGS: BoundedMemo[tuple[Any, ...], tuple[Any, ...]] = BoundedMemo(4096)


def read_play(play: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a play `(cards, rank named, the rank's type)` is, whatever the hand and the pile:
    (refused, laid, unplayable, rank). `refused` is the refusal (code, message) of cards that
    are not all strings, else None; `laid` the cards in hand order, distinct (None when one is
    not a card of the deck or one is named twice: no hand holds them); `unplayable` the
    refusal, once the hand is known to hold them, of cards and a named rank that make no
    play, else None; `rank` the rank they count as."""
    cards, rank, _ = play
    if not all(isinstance(card, str) for card in cards):
        return ("play_cards", "cards are strings such as '7H' or 'X1'"), None, None, None
    distinct = frozenset(cards)  # a card named twice is held by no hand
    if len(distinct) != len(cards) or not all(card in CARD_KEY for card in distinct):
        return None, None, None, None
    laid = sort_hand(cards)
    naturals = {card[0] for card in cards if card[0] != "X"}
    if len(naturals) > 1:
        return None, laid, ("one_rank", "cards laid together must all be of one rank "
                            "(jokers count as the rank you name)"), None
    if rank is not None and (not isinstance(rank, str) or rank not in STRENGTH):
        return None, laid, ("named_rank", f"{rank!r} is not a rank of the game"), None
    if naturals:
        [natural] = naturals
        if rank is not None and rank != natural:
            return None, laid, (
                "named_rank", f"cards of rank {natural} count as {natural}, not {rank}: "
                "jokers laid with them take their rank"), None
        rank = natural
    elif rank is None:
        return None, laid, ("name_joker", "a joker laid alone needs the rank it counts "
                            "as"), None
    if rank == TWO and len(laid) > 1:
        return None, laid, ("two_alone", "a two is laid alone"), None
    return None, laid, None, rank


def reading(cards: tuple[Any, ...], rank: Any) -> tuple[Any, ...]:
    """`read_play`, remembered. The rank's type is part of the key: a named rank equal to
    another of another type (1, 1.0, True) is told by its own repr."""
    try:
        return READINGS.get((cards, rank, type(rank)), read_play)
    except TypeError:  # an unhashable card or rank: read without remembering
        return read_play((cards, rank, type(rank)))


def play_move(table: Table, cards: Any, rank: Any) -> None:
    """The player to act lays `cards` as `rank`, if the rules let him."""
    if not isinstance(cards, (list, tuple)) or not cards:
        raise IllegalMove("play_cards", "a play lays at least one card")
    refused, laid, unplayable, rank = reading(tuple(cards), rank)
    if refused:
        raise IllegalMove(*refused)
    seat = table.current
    left = None if laid is None else without(table.hands[seat], laid)
    if left is None:
        raise IllegalMove("cards_in_hand", f"you do not hold all of {list(cards)}")
    if unplayable:
        raise IllegalMove(*unplayable)
    ranks = table.pile_ranks
    if ranks and STRENGTH[rank] < STRENGTH[ranks[-1]]:
        raise IllegalMove("at_least_top", f"the pile shows {ranks[-1]}: lay a "
                          "rank at least as high")
    lay(table, seat, laid, rank, left)


def lay(table: Table, seat: int, laid: tuple[str, ...], rank: str,
        left: tuple[str, ...]) -> None:
    """The player at `seat` lays these cards of his hand (in hand order) as `rank`, keeping
    `left`."""
    table.hands[seat] = left
    table.pile += laid
    table.pile_ranks += (rank,) * len(laid)
    table.last_player = seat
    player = table.players[seat]
    if table.told:
        table.events.append({"type": "cards_played", "player": player, "cards": list(laid),
                             "rank": rank})
    with_joker = laid[-1][0] == "X"  # jokers come last in hand order
    going_out = not left
    crowned = False
    if going_out:
        crowned = not with_joker and table.emperor is None
        if crowned:  # the first out the regular way: this round's Emperor, in every mode
            table.emperor = seat
        set_role(table, seat, OUT_ROLE[with_joker, table.options.mirror])
        if with_joker and table.options.mirror:  # the Outcast: no two nor penalty draws
            go_out(table, seat, with_joker, crowned)
            return
    run = top_run(table.pile_ranks)  # counted before a two clears the pile
    if rank == TWO:
        if table.told:
            table.events.append({"type": "two_played", "player": player})
        for other in SEATS_AFTER[table.n][seat]:
            if other != seat and table.roles[other] == "":
                draw(table, other, 1, "two")
    if run > 1:
        penalise_next(table, seat, run, rank)
    if rank == TWO:
        clear_pile(table, "two")
    if going_out and go_out(table, seat, with_joker, crowned):
        return
    if rank == TWO and table.roles[seat] == "":  # the two's player leads again
        table.current = seat
        table.drawn = False
        if table.told:
            table.events.append({"type": "turn", "player": player})
    else:
        advance(table, seat)


def penalise_next(table: Table, seat: int, run: int, rank: str) -> None:
    """The next player still in draws one card less than the run on top of the pile."""
    penalised = next_player_in(table, seat)
    if penalised is not None:
        if table.told:
            table.events.append({"type": "penalty", "player": table.players[penalised],
                                 "count": run - 1, "run": run, "rank": rank})
        draw(table, penalised, run - 1, "penalty")


def go_out(table: Table, seat: int, with_joker: bool, crowned: bool) -> bool:
    """The player at `seat` has emptied his hand: True when that ends the round."""
    role = table.roles[seat]
    if table.told:
        table.events.append({"type": "player_out", "player": table.players[seat], "role": role,
                             "joker_finish": with_joker, "emperor": crowned})
    if role in ("emperor", "outcast"):  # the round ends (the others' roles: `end_round`)
        end_round(table)
        return True
    still_in = [other for other in range(table.n) if table.roles[other] == ""]
    if len(still_in) == 1:
        [last] = still_in
        set_role(table, last, "outcast" if table.options.mirror else "emperor")
        if not table.options.mirror:  # « S'il n'y a plus qu'un joueur … il devient Empereur »
            table.emperor = last
        end_round(table)
        return True
    return False
