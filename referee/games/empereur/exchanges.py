"""The exchanges that open a round from the second on (docs/rules/empereur.md, clauses 19, 20
and 20b).

Which exchanges a mode has, in the order they happen: Elite, the Emperor's; Mirror Normal, the
Outcast's; Mirror Elite, the Emperor's then the Outcast's; Normal, none. Each has two stages.
The Emperor's: first every Subject gives the Emperor one of his highest cards (a joker is
highest), all at once; then the Emperor gives each Subject one card of his choice. The
Outcast's: first the Outcast gives each Elect one of his highest cards (recomputed after each
gift); then every Elect gives the Outcast one card of his choice. An exchange with nobody to
hold it (no Emperor last round, or not exactly one Outcast) is skipped whole. A gift is told
to its giver and its receiver only.
"""

from __future__ import annotations

from typing import Any

from referee.core.errors import IllegalMove

from .ranks import CARD_STRENGTH, sort_hand
from .state import EXCHANGES, Options
from .table import Table, begin_play, without


def exchange_of(options: Options, stage: int) -> str | None:
    """Which exchange a stage belongs to ("emperor" or "outcast"), None outside one."""
    exchanges = EXCHANGES[options.mode]
    return exchanges[(stage - 1) // 2] if 1 <= stage <= 2 * len(exchanges) else None


def is_forced(stage: int) -> bool:
    """The first stage of each exchange is the forced gifts of highest cards."""
    return stage % 2 == 1


def highest(hand: tuple[str, ...]) -> list[str]:
    """The cards of the hand's highest strength (jokers highest): a forced gift is one of
    them. The hand holds a card (the state's checks see to it)."""
    top = max(CARD_STRENGTH[card] for card in hand)
    return [card for card in hand if CARD_STRENGTH[card] == top]


def gift_plan(options: Options, stage: int, roles, emperor: int | None) -> list[tuple[int, int]]:
    """The (giver, receiver) gifts of an exchange stage, from the last round's roles and
    Emperor, in seat order; empty when that exchange has nobody to hold it."""
    exchange = exchange_of(options, stage)
    if exchange == "emperor":
        if emperor is None:
            return []
        subjects = [seat for seat in range(len(roles)) if seat != emperor]
        if is_forced(stage):  # each Subject gives the Emperor
            return [(subject, emperor) for subject in subjects]
        return [(emperor, subject) for subject in subjects]  # the Emperor gives each Subject
    if exchange == "outcast":
        outcasts = [seat for seat, role in enumerate(roles) if role == "outcast"]
        if len(outcasts) != 1:
            return []
        [outcast] = outcasts
        elect = [seat for seat, role in enumerate(roles) if role == "elect"]
        if is_forced(stage):  # the Outcast gives each Elect
            return [(outcast, one) for one in elect]
        return [(one, outcast) for one in elect]  # each Elect gives the Outcast
    return []


def open_next_stage(table: Table, after: int) -> bool:
    """Opens the first exchange stage after `after` that has gifts, by the last round's roles;
    False if none is left."""
    for stage in range(after + 1, 2 * len(EXCHANGES[table.options.mode]) + 1):
        plan = gift_plan(table.options, stage, table.previous_roles, table.previous_emperor)
        if plan:
            table.phase = "exchange"
            table.exchange_stage = stage
            table.gifts = tuple(plan)
            if table.told:
                players = table.players
                table.events.append({"type": "exchange_started", "stage": stage,
                                     "exchange": exchange_of(table.options, stage),
                                     "gifts": [{"from": players[giver], "to": players[to]}
                                               for giver, to in table.gifts]})
            return True
    return False


def give(table: Table, giver: int, card: Any, to: Any) -> None:
    """The player at `giver` gives `card` to the player named `to`; once every gift of the
    stage is made, the next stage opens, or play begins."""
    players = table.players
    receiver = next((r for g, r in table.gifts if g == giver and players[r] == to), None)
    if receiver is None:
        owed = [players[r] for g, r in table.gifts if g == giver]
        raise IllegalMove("gift_target", f"you owe a card to {', '.join(owed)}, not {to!r}")
    hand = table.hands[giver]
    if not isinstance(card, str) or card not in hand:
        raise IllegalMove("cards_in_hand", f"you do not hold {card!r}")
    if is_forced(table.exchange_stage) and card not in highest(hand):
        raise IllegalMove("give_highest", "this gift must be one of your highest cards "
                          "(a joker is highest)")
    table.hands[giver] = without(hand, [card])
    table.hands[receiver] = sort_hand(table.hands[receiver] + (card,))
    gifts = list(table.gifts)
    gifts.remove((giver, receiver))
    table.gifts = tuple(gifts)
    if table.told:
        table.events.append({"type": "card_given", "player": players[giver],
                             "to": players[receiver], "stage": table.exchange_stage,
                             "exchange": exchange_of(table.options, table.exchange_stage),
                             "private": {"players": [players[giver], players[receiver]],
                                         "card": card}})
    if not table.gifts and not open_next_stage(table, table.exchange_stage):
        if table.told:
            table.events.append({"type": "exchange_finished", "round": table.round})
        begin_play(table)
