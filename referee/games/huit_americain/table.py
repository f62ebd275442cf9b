"""The table a move is played on: cards drawn, turns passed, rounds scored and dealt
(docs/rules/huit-americain.md, "The seed, clause by clause" and "When a turn ends").

- Drawing takes the top of the stock; when the stock runs out, the pile under its top card is
  shuffled (a chance event) into a new stock, the suit and rank in force unchanged. A draw
  takes what there is when stock and pile run out together.
- A stuck player who cannot lay passes; a round in which every player in a row passed with
  nothing laid nor drawn is blocked. One who drew and can now lay plays on (he must lay);
  otherwise his turn ends. Either way the table sees what he lacked (`lacks`).
- A round ends when a player lays his last card, or blocked: every player adds the points of
  his hand to his total; the match ends when a total reaches the target, lowest wins.
  Otherwise the next round is dealt: the whole deck shuffled, each player dealt the seed's
  count for the players and decks, one card turned up (its effect does not apply; a joker
  there lets anything follow), the seat after the previous round's first player starting.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from referee.core import chance
from referee.core.cards import JOKER_RANK, shuffled
from referee.core.engine import Event
from referee.core.memo import BoundedMemo

from .lacks import after_arrivals, with_lack
from .laying import layable, may_lay
from .rules import SORTED_DECKS, Rules, hand_points, hand_size
from .state import OVER, PLAY, Options, State

STATE_FIELDS = tuple(f.name for f in dataclasses.fields(State))

# The whole deck as a deal shuffles it, by deck count, seed and random step. The hard hint
# plays every candidate move in the same sampled deal (one seed), and the rounds its playouts
# end mostly end at the same step: the deal that follows is then the same shuffle, and the
# fairness-grade stream behind it costs more than the rest of a move.
_DECKS_DEALT: BoundedMemo[tuple[int, str, int], tuple[str, ...]] = BoundedMemo(512)


class Table:
    """A working copy of a state for the length of one move: the state's fields as the
    table's attributes (the hands as a list of tuples, each replaced whole), beside the
    compiled rules and the events so far (when told). The table's attributes are the field
    dict of the new state itself, made at the start of the move as a copy of the old state's:
    a move copies the fields once, into the state it returns, and every move goes through
    the same rules."""

    __slots__ = ("__dict__", "state", "rules", "events", "told")

    def __init__(self, state: State, rules: Rules, told: bool = True):
        self.state = new = object.__new__(State)
        fields = new.__dict__  # the new state's, empty; the frozen dataclass sets its own so
        fields.update(state.__dict__)  # every field, in the state's order
        fields["hands"] = list(fields["hands"])
        self.__dict__ = fields
        self.rules = rules
        # Not told, the rules make no event but a reshuffle (the caller reads none).
        self.told = told
        self.events: list[Event] = []

    def outcome(self) -> tuple[State, list[Event]]:
        """The new state, its hands tuples again, and the events of the move. A table is
        spent once its outcome is taken, at the end of its move."""
        self.hands = tuple(self.hands)
        return self.state, self.events


# -- turns -----------------------------------------------------------------------------------
def seat_after(table: Table, seat: int, steps: int = 1) -> int:
    return (seat + steps * table.direction) % len(table.players)


def end_turn(table: Table, seat: int) -> None:
    table.current = seat_after(table, seat)
    table.phase = PLAY


# -- cards moving ----------------------------------------------------------------------------
def reshuffle(table: Table) -> bool:
    """The pile but its top becomes the new stock; False if there is nothing to shuffle."""
    if len(table.pile) <= 1:
        return False
    table.stock = shuffled(table.pile[:-1], table.seed, table.step)
    drawn_from = chance.shuffle(table.step, table.pile[:-1])
    # Told or not: the rule of endless rounds reads the reshuffles a move made (`endless`).
    table.events.append({"type": "reshuffled", "count": len(table.stock),
                         "chance": drawn_from})
    table.stock_step, table.stock_shuffled = table.step, tuple(drawn_from["items"])
    table.stock_start = 0
    table.step += 1
    table.pile = table.pile[-1:]
    return True


def drawable(position) -> bool:
    """Whether there is anything to draw: the stock, or a pile to rebuild it from."""
    return bool(position.stock) or len(position.pile) > 1


def draw(table: Table, seat: int, count: int, reason: str) -> tuple[str, ...]:
    """`count` cards from the top of the stock (rebuilt when it runs out) to the player at
    `seat`, or as many as there are."""
    got: tuple[str, ...] = ()
    while len(got) < count:
        if not table.stock and not reshuffle(table):
            break
        take = min(count - len(got), len(table.stock))
        part = table.stock[len(table.stock) - take:][::-1]
        got += part
        table.stock = table.stock[:len(table.stock) - take]
        _drawn(table, seat, part, reason)
    if not got:
        _drawn(table, seat, got, reason)
    return got


def draw_until(table: Table, seat: int, wanted: Callable[[str], bool] | None,
               reason: str) -> tuple[str, ...]:
    """One card at a time until `wanted(card)` holds (None: until the player may lay the card
    drawn) or nothing is left to draw."""
    got: list[str] = []
    part: list[str] = []  # the cards drawn from the stock as it is, before a reshuffle
    held = len(table.hands[seat])
    while True:
        if not table.stock:
            if part:
                _drawn(table, seat, tuple(part), reason)
                part = []
            if not reshuffle(table):
                break
        card = table.stock[-1]
        table.stock = table.stock[:-1]
        part.append(card)
        got.append(card)
        if wanted is not None:
            if wanted(card):
                break
        elif may_lay(table.rules, table, card, held + len(got)):
            break
    if part or not got:
        _drawn(table, seat, tuple(part), reason)
    return tuple(got)


def _drawn(table: Table, seat: int, got: tuple[str, ...], reason: str) -> None:
    """The cards just drawn from the top of the stock as it was go to the hand, and their
    event (a draw that runs through a reshuffle tells each stock's part apart): they lay, in
    the order drawn, at the positions of its shuffle just above what is left of it."""
    if got:
        table.hands[seat] = table.hands[seat] + got
        table.passes = 0
        if table.lacks:
            table.lacks = after_arrivals(table.lacks, seat, len(got))
    if not table.told:
        return
    player = table.players[seat]
    event = {"type": "cards_drawn", "player": player, "count": len(got), "reason": reason,
             "private": {"player": player, "cards": list(got)}}
    if got and table.stock_step >= 0:  # a hand-made stock's order comes from no shuffle
        above = table.stock_start + len(table.stock) + len(got) - 1
        positions = range(above, above - len(got), -1)
        event["chance"] = chance.stock_draw(table.stock_step, table.stock_shuffled, 2,
                                            table.options.decks, positions)
    table.events.append(event)


# -- a player who cannot lay -----------------------------------------------------------------
def note_lack(table: Table, seat: int, arrived: int, stuck_with: int) -> None:
    """The player in turn cannot lay: none of his cards but the last `arrived` drawn
    follows the suit and rank in force, nor is wild. Under no_finish_on_eight, if he was
    found stuck holding a single card (`stuck_with`, the cards he held when the rules judged
    he could not lay them), that card may be the 8 he may not finish on: it counts with those
    arrived since, as one that may be of what he lacked (public: the table saw how many he
    held)."""
    hand = table.hands[seat]
    if table.rules.no_finish is not None and stuck_with == 1:
        arrived += 1
    if table.suit is None or len(hand) <= arrived:
        return
    table.lacks = with_lack(table.lacks, seat, table.suit, table.rank, arrived)


def pass_turn(table: Table, seat: int) -> None:
    """The player in turn cannot lay (nor draw): the table sees what he lacks, his turn
    ends, and the round is blocked once every player in a row has passed."""
    note_lack(table, seat, 0, len(table.hands[seat]))
    if table.told:
        table.events.append({"type": "passed", "player": table.players[seat]})
    table.passes += 1
    if table.passes >= len(table.players):
        end_round(table, blocked=True)
    else:
        end_turn(table, seat)


def stuck_after_draw(table: Table, seat: int, drawn: int, stuck: bool) -> None:
    """After drawing `drawn` cards in a PLAY turn: he plays on if he can lay, else his turn
    ends (and counts towards a blocked round if he drew nothing). Either way the table
    learns what he lacks: all of it if his turn ends (judged on the hand he holds now);
    after drawing because he was `stuck`, all of it but the last card drawn (the draw stops
    at the first card that follows), the cards he held before the draw judged as he held
    them then."""
    hand = table.hands[seat]
    if layable(table.rules, table, hand):
        if stuck:
            note_lack(table, seat, 1, len(hand) - drawn)
        return
    if not drawn:
        pass_turn(table, seat)
        return
    note_lack(table, seat, 0, len(hand))
    if table.told:
        table.events.append({"type": "passed", "player": table.players[seat]})
    end_turn(table, seat)


# -- rounds ----------------------------------------------------------------------------------
def someone_out(table: Table) -> bool:
    return any(not hand for hand in table.hands)


def end_round(table: Table, blocked: bool, endless: bool = False) -> None:
    """Every player adds the points of his hand; the match ends when a total reaches the
    target (lowest wins), else the next round is dealt."""
    scored = tuple([hand_points(hand, table.rules.card_points) for hand in table.hands])
    table.round_points = scored
    table.totals = tuple([total + points for total, points in zip(table.totals, scored)])
    table.attack = table.passes = table.give_left = 0  # nothing pending once a round ends
    table.unannounced = table.give_to = -1
    players = table.players
    if table.told:
        table.events.append({
            "type": "round_ended", "round": table.round, "blocked": blocked, "endless": endless,
            "out": [p for p, hand in zip(players, table.hands) if not hand],
            "points": dict(zip(players, scored)),
            "totals": dict(zip(players, table.totals)),
        })
    if max(table.totals) >= table.rules.target:
        table.phase = OVER
        low = min(table.totals)
        if table.told:
            table.events.append({"type": "match_ended",
                                 "winners": [p for p, x in zip(players, table.totals) if x == low],
                                 "totals": dict(zip(players, table.totals))})
        return
    deal(table)


def deal(table: Table) -> None:
    """A new round, nothing pending (`end_round`): shuffle the whole deck, deal, turn one card
    up; the seat after the previous round's first player starts, in seat order."""
    n = len(table.players)
    decks = table.options.decks
    deal_step = table.step
    deck = _DECKS_DEALT.get((decks, table.seed, deal_step), _deck_shuffled)
    table.step += 1
    size = hand_size(n, decks)
    table.hands = [deck[j * size:(j + 1) * size] for j in range(n)]
    start = deck[n * size]
    table.pile = (start,)
    table.stock = deck[n * size + 1:]
    table.stock_step, table.stock_shuffled, table.stock_start = deal_step, None, n * size + 1
    table.suit, table.rank = (None, None) if start[0] == JOKER_RANK else (start[1], start[0])
    table.round += 1
    table.current = (table.round - 1) % n
    table.direction = 1
    table.phase = PLAY
    table.lacks = ()
    if not table.told:
        return
    table.events.append({"type": "round_started", "round": table.round,
                         "first": table.players[table.current], "top": start,
                         "hand_size": size, "stock_count": len(table.stock),
                         "chance": chance.deck_shuffle(deal_step, 2, decks, [n * size], "top")})
    for j, p in enumerate(table.players):
        dealt = chance.deck_shuffle(deal_step, 2, decks, range(j * size, (j + 1) * size),
                                    "cards")
        table.events.append({"type": "cards_dealt", "player": p, "count": size,
                             "private": {"player": p, "cards": list(table.hands[j]),
                                         "chance": dealt}})


def _deck_shuffled(key: tuple[int, str, int]) -> tuple[str, ...]:
    decks, seed, step = key
    return shuffled(SORTED_DECKS[decks], seed, step)


def opening(players: tuple[str, ...], options: Options, seed: str, *, told: bool) -> Table:
    """The table of a new match, its first round dealt (and told, when `told`)."""
    table = Table.__new__(Table)
    table.state = object.__new__(State)
    table.__dict__ = fields = table.state.__dict__  # the new state's, empty
    fields.update(dict.fromkeys(STATE_FIELDS))  # every field, in the state's order
    table.players, table.options, table.seed, table.step = players, options, seed, 0
    table.rules, table.events, table.told = options.rules, [], told
    table.totals = table.round_points = (0,) * len(players)
    table.round = table.attack = table.passes = table.give_left = 0
    table.unannounced = table.give_to = -1
    deal(table)
    return table
