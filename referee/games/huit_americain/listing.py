"""The legal moves of a state, and who may act (docs/rules/huit-americain.md, "Moves and what
the referee returns").

- The player in turn may lay each card he may lay (`laying.layable`): a card that names a
  suit once per suit, a card aimed at a player once per other player, and his next-to-last
  card each way with and without "Carte".
- Besides: under an attack or a suit hunt he draws; after a give-two card he gives one card
  of his hand (once per distinct card); after a 10 he may draw one if anything is left to
  draw, else, with nothing to lay, he passes; stuck in play, he draws if `when_stuck` lets
  him and anything is left to draw, else he passes.
- Any opponent (in turn or not) of the player who laid his next-to-last card without "Carte"
  may challenge him while he holds that one card.
- on_the_fly: every other player holding the exact twin of the top card may lay it out of
  turn, except while the cards of a give-two are given.

The moves are made once per seat of a match's players and rules and shared by every listing,
as the engine contract allows (callers read listed moves and never change them): listing costs
a look-up per card, not a dict per move.
"""

from __future__ import annotations

from typing import Callable

from referee.core.cards import SUITS
from referee.core.engine import Move
from referee.core.memo import BoundedMemo

from .laying import layable, may_fly
from .rules import Rules
from .state import AGAIN, ATTACK, GIVE, HUNT, PLAY, Options, State
from .table import drawable

Lays = tuple[Move, ...]


def lay_moves(kind: str, players: tuple[str, ...], seat: int, card: str, next_to_last: bool,
              rules: Rules) -> Lays:
    """The moves laying `card` makes for the player at `seat`: one per suit it may name or
    player it may target, each with and without "Carte" when it is his `next_to_last`."""
    player = players[seat]
    moves = []
    for announce in ((False, True) if next_to_last else (False,)):
        if card[0] in rules.names_suit:
            asked = [{"suit": suit} for suit in SUITS]
        elif card[0] in rules.targeted:
            asked = [{"target": other} for j, other in enumerate(players) if j != seat]
        else:
            asked = [{}]
        moves += [{"type": kind, "player": player, "card": card, **fields,
                   "announce": announce} for fields in asked]
    return tuple(moves)


class ByCard(dict):
    """card -> what it makes, made the first time it is asked for."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[str], object]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, card: str):
        made = self[card] = self.make(card)
        return made


class SeatMoves:
    """The moves one seat of a match may be listed, under its rules."""

    __slots__ = ("lay", "lay_next_to_last", "fly", "fly_next_to_last", "give", "draw",
                 "pass_", "challenge")

    def __init__(self, players: tuple[str, ...], seat: int, rules: Rules) -> None:
        player = players[seat]

        def laying(kind: str, next_to_last: bool) -> ByCard:
            return ByCard(lambda card: lay_moves(kind, players, seat, card, next_to_last, rules))

        # card -> its lays in turn, from a hand of more than two cards, and from two (where
        # "Carte" may be said); then the same out of turn
        self.lay, self.lay_next_to_last = laying("lay", False), laying("lay", True)
        self.fly = laying("lay_out_of_turn", False)
        self.fly_next_to_last = laying("lay_out_of_turn", True)
        self.give = ByCard(lambda card: {"type": "give", "player": player, "card": card})
        self.draw = {"type": "draw", "player": player}
        self.pass_ = {"type": "pass", "player": player}
        self.challenge = {"type": "challenge", "player": player}


_SEATS: BoundedMemo[tuple[tuple[str, ...], Rules], tuple[SeatMoves, ...]] = BoundedMemo(256)


def seats_of(players: tuple[str, ...], rules: Rules) -> tuple[SeatMoves, ...]:
    """The moves of every seat of `players` under `rules`, made once."""
    return _SEATS.get((players, rules), _seats_made, players, rules)


def _seats_made(_key, players: tuple[str, ...], rules: Rules) -> tuple[SeatMoves, ...]:
    return tuple(SeatMoves(players, seat, rules) for seat in range(len(players)))


class MatchTables:
    """What listing a match's moves reads: its rules and its seats' moves, for one players
    tuple and one options object, which it holds (so their ids name no other object while it
    is remembered)."""

    __slots__ = ("players", "options", "rules", "seats")

    def __init__(self, players: tuple[str, ...], options: Options) -> None:
        self.players, self.options = players, options
        self.rules = options.rules
        self.seats = seats_of(players, self.rules)


# Every state of a match, move after move, holds the same players tuple and options object,
# and each match its own players tuple: the tables are found by that tuple's identity, for
# the options object they were made with (a decoded state brings new objects: its tables are
# then made from the rules and seats found by value).
_TABLES: BoundedMemo[int, MatchTables] = BoundedMemo(512)


def tables_of(state: State) -> MatchTables:
    """The tables of the match `state` belongs to."""
    tables = _TABLES.get(id(state.players), _tables_made, state)
    if tables.options is not state.options:  # the same players under other options
        return MatchTables(state.players, state.options)
    return tables


def _tables_made(_key, state: State) -> MatchTables:
    return MatchTables(state.players, state.options)


def challengers(state: State) -> list[int]:
    """The seats that may say "Contre-carte": every other one than the player who owes a
    "Carte", while he holds his one card."""
    owing = state.unannounced
    if owing < 0 or len(state.hands[owing]) != 1:
        return []
    return [seat for seat in range(len(state.players)) if seat != owing]


def flyers(state: State, rules: Rules) -> list[int]:
    """on_the_fly: the seats not in turn that may lay the twin of the top card."""
    return [seat for seat, hand in enumerate(state.hands)
            if seat != state.current and may_fly(rules, state, hand)]


def besides_laying(state: State, rules: Rules, mine: SeatMoves, can_lay: bool) -> list[Move]:
    """What else the player in turn may do (`mine`: his seat's moves), besides laying a card
    of those he may lay (`can_lay`)."""
    phase = state.phase
    if phase == ATTACK or phase == HUNT:
        return [mine.draw]
    if phase == GIVE:
        return [mine.give[card] for card in dict.fromkeys(state.hands[state.current])]
    if phase == AGAIN:
        if drawable(state):
            return [mine.draw]
        return [] if can_lay else [mine.pass_]
    if can_lay:
        return []
    return [mine.draw if rules.stuck != "pass" and drawable(state) else mine.pass_]


def legal_moves(state: State) -> list[Move]:
    """Every move anyone may make now, the player in turn's first (the match not over)."""
    tables = tables_of(state)
    rules, seats = tables.rules, tables.seats
    hand = state.hands[state.current]
    mine = seats[state.current]
    cards = layable(rules, state, hand)
    lays = mine.lay_next_to_last if len(hand) == 2 else mine.lay
    moves: list[Move] = []
    for card in cards:
        moves += lays[card]
    if state.phase != PLAY or not cards:
        moves += besides_laying(state, rules, mine, bool(cards))
    if state.unannounced >= 0:  # someone may owe a "Carte"
        for seat in challengers(state):
            moves.append(seats[seat].challenge)
    if rules.fly:
        top = state.pile[-1]
        for seat in flyers(state, rules):
            hand = state.hands[seat]
            moves += (seats[seat].fly_next_to_last if len(hand) == 2 else seats[seat].fly)[top]
    return moves


def to_act(state: State) -> list[int]:
    """The seats that must or may act as far as the table can see: the player in turn first,
    then in seat order every other who may say "Contre-carte" (the match not over). A seat
    that may lay the twin of the top card out of turn (on_the_fly) is not listed: that
    depends on his hidden hand, so naming him would tell everyone he holds the twin; he
    learns it from his own legal moves."""
    return [state.current, *(seat for seat in challengers(state) if seat != state.current)]
