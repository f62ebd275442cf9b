"""A card laid, and what it does (docs/rules/huit-americain.md, "The effect table" and "When a
turn ends"). The card has been checked (`moves.lay`); here it goes from the hand to the pile.

- The suit and rank of the card laid are in force (a joker leaves those under it; a card that
  names a suit puts only that suit in force). A player laying his next-to-last card without
  "Carte" may be challenged until the next card is laid.
- A player laying his last card ends the round at once, the card's effect unapplied (but with
  attack_returns, an attacking last card still attacks; a stopping last card still cancels).
- An attacking card (draw_four, draw_two) adds its amount to the attack it answers, or starts
  one, on the next player. A stopping card laid under attack cancels it.
- Otherwise the card's effect, if any, applies and moves the turn on (`EFFECT_RULES`):
  change_suit names the suit; reverse turns the direction; skip jumps the next player;
  play_again keeps the turn (lay again or draw one); swap_hands swaps with the player chosen;
  rotate_hands passes every hand on in the direction of play; give_two makes its player give
  two cards of his hand to the player chosen (`give`); all_draw_one makes every opponent draw
  one; suit_hunt makes the next player draw until he gets the named suit. A card with no
  effect passes the turn to the next player.
"""

from __future__ import annotations

from .lacks import after_arrivals, moved, still_telling
from .state import AGAIN, ATTACK, GIVE, HUNT, PLAY
from .table import Table, draw, end_round, seat_after, someone_out

GIVE_CARDS = 2  # given by the player of a give_two card, from his own hand


def lay_card(table: Table, seat: int, card: str, named: str | None, target: int,
             announce: bool, fly: bool) -> None:
    """The player at `seat` lays `card` from his hand, naming the suit `named` or aiming at
    the seat `target` (-1: none) if the card asks for it; `fly`: out of turn."""
    rules = table.rules
    player = table.players[seat]
    hand = table.hands[seat]
    k = hand.index(card)
    table.hands[seat] = hand = hand[:k] + hand[k + 1:]
    held = len(hand)
    if table.lacks:
        table.lacks = still_telling(table.lacks, seat, held)
    table.pile += (card,)
    table.passes = 0
    table.unannounced = seat if held == 1 and not announce else -1
    rank, names_suit, attacks, effect, in_force = rules.laid[card]
    if names_suit:
        table.suit, table.rank = named, None
    elif in_force is not None:
        table.suit, table.rank = in_force
    if table.told:
        event = {"type": "card_laid", "player": player, "card": card, "suit": table.suit,
                 "cards_left": held, "announce": announce}
        if fly:
            event["out_of_turn"] = True
        table.events.append(event)
        if announce:
            table.events.append({"type": "carte", "player": player})
    was_attack = table.phase == ATTACK
    if not hand and not (attacks and rules.returns):
        # Going out ends the round at once; the last card's effect does not apply.
        if was_attack and rank == rules.stop:
            table.attack = 0
        end_round(table, blocked=False)
        return
    if attacks:
        attack(table, seat, player, attacks, rules.effect[rank])
        return
    if was_attack:
        # Only a stopping card gets here (the rest are refused before).
        if table.told:
            table.events.append({"type": "effect", "effect": "stop", "player": player,
                                 "cancelled": table.attack})
        table.attack = 0
        if someone_out(table):
            table.current = seat  # laid on the fly, he takes the turn even so
            end_round(table, blocked=False)
            return
    table.phase = PLAY
    if effect is None:
        table.current = seat_after(table, seat)
    else:
        EFFECT_RULES[effect](table, seat, player, named, target)


def attack(table: Table, seat: int, player: str, amount: int, effect: str) -> None:
    """draw_four, draw_two: the attack grows by `amount` (or starts), on the next player."""
    table.attack = (table.attack if table.phase == ATTACK else 0) + amount
    table.phase = ATTACK
    nxt = seat_after(table, seat)
    if table.told:
        table.events.append({"type": "effect", "effect": effect, "player": player,
                             "on": table.players[nxt], "penalty": table.attack})
    table.current = nxt


# -- the effects besides attacks and stop: each moves the turn on itself ----------------------
def change_suit(table: Table, seat: int, player: str, named: str | None, target: int) -> None:
    if table.told:
        table.events.append({"type": "effect", "effect": "change_suit", "player": player,
                             "suit": named})
    table.current = seat_after(table, seat)


def reverse(table: Table, seat: int, player: str, named: str | None, target: int) -> None:
    table.direction = -table.direction
    if table.told:
        table.events.append({"type": "effect", "effect": "reverse", "player": player,
                             "direction": table.direction})
    table.current = seat_after(table, seat)


def skip(table: Table, seat: int, player: str, named: str | None, target: int) -> None:
    if table.told:
        table.events.append({"type": "effect", "effect": "skip", "player": player,
                             "skipped": table.players[seat_after(table, seat)]})
    table.current = seat_after(table, seat, 2)


def play_again(table: Table, seat: int, player: str, named: str | None, target: int) -> None:
    table.phase = AGAIN
    if table.told:
        table.events.append({"type": "effect", "effect": "play_again", "player": player})
    table.current = seat


def swap_hands(table: Table, seat: int, player: str, named: str | None, target: int) -> None:
    table.hands[seat], table.hands[target] = table.hands[target], table.hands[seat]
    table.lacks = moved(table.lacks, {seat: target, target: seat})
    if table.told:
        table.events.append({"type": "effect", "effect": "swap_hands", "player": player,
                             "target": table.players[target],
                             "counts": {player: len(table.hands[seat]),
                                        table.players[target]: len(table.hands[target])}})
    table.current = seat_after(table, seat)


def rotate_hands(table: Table, seat: int, player: str, named: str | None, target: int) -> None:
    n = len(table.players)
    old = table.hands
    table.hands = [old[(j - table.direction) % n] for j in range(n)]
    table.lacks = moved(table.lacks, {j: (j + table.direction) % n for j in range(n)})
    if table.told:
        table.events.append({"type": "effect", "effect": "rotate_hands", "player": player,
                             "direction": table.direction})
    table.current = seat_after(table, seat)


def give_two(table: Table, seat: int, player: str, named: str | None, target: int) -> None:
    # He now gives cards of his own hand, one `give` move each, before the turn moves.
    count = min(GIVE_CARDS, len(table.hands[seat]))
    if table.told:
        table.events.append({"type": "effect", "effect": "give_two", "player": player,
                             "target": table.players[target], "cards": count})
    table.phase = GIVE
    table.give_to = target
    table.give_left = count
    table.current = seat


def all_draw_one(table: Table, seat: int, player: str, named: str | None, target: int) -> None:
    if table.told:
        table.events.append({"type": "effect", "effect": "all_draw_one", "player": player})
    for k in range(1, len(table.players)):
        draw(table, seat_after(table, seat, k), 1, "all_draw_one")
    table.current = seat_after(table, seat)


def suit_hunt(table: Table, seat: int, player: str, named: str | None, target: int) -> None:
    nxt = seat_after(table, seat)
    if table.told:
        table.events.append({"type": "effect", "effect": "suit_hunt", "player": player,
                             "suit": named, "on": table.players[nxt]})
    table.phase = HUNT
    table.current = nxt


# effect -> its rule: what laying a card of its rank does, once laid
EFFECT_RULES = {"change_suit": change_suit, "reverse": reverse, "skip": skip,
                "play_again": play_again, "swap_hands": swap_hands,
                "rotate_hands": rotate_hands, "give_two": give_two,
                "all_draw_one": all_draw_one, "suit_hunt": suit_hunt}


def give_card(table: Table, seat: int, card: str) -> None:
    """give_two: one card passes from its player to the player he chose; after the last one
    the turn moves on, or the round ends if the giver's hand is empty."""
    to = table.give_to
    hand = list(table.hands[seat])
    hand.remove(card)
    table.hands[seat] = hand = tuple(hand)
    table.hands[to] = table.hands[to] + (card,)
    if table.lacks:
        table.lacks = still_telling(after_arrivals(table.lacks, to, 1), seat, len(hand))
    table.give_left -= 1
    player = table.players[seat]
    if table.told:
        table.events.append({"type": "card_given", "player": player, "to": table.players[to],
                             "cards_left": len(hand),
                             "private": {"players": [player, table.players[to]], "card": card}})
    if table.give_left and hand:
        return
    table.give_to, table.give_left, table.phase = -1, 0, PLAY
    if not hand:
        end_round(table, blocked=False)
        return
    table.current = seat_after(table, seat)
