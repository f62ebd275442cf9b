"""The working table a move is applied on, and the rules of drawing and of turns
(docs/rules/empereur.md, clauses 4, 7, 9, 11-13 and "Readings where the text is silent").

Drawing: cards come from the top of the stock. An empty stock is rebuilt from the pile less
its highest-ranked cards, shuffled; if that leaves nothing, no card is drawn, and a draw of
several cards stops there.
Turns: play goes left (seat order) to the next player still in the round. When the turn
reaches or passes the seat of the player who laid the pile's last cards, the pile goes face
down under the stock, its first-laid card nearest the top, and the player reached leads.

A `Table` is the working copy of a state while a move is applied: the state's fields, plus
the player count and the events the move makes (when it is told: a caller that
reads none has none made). The hands are a list while it is open (nearly every move changes
one), every other sequence a tuple that a rule replaces when it changes it, so a move copies
no more than it changes. The rules are functions of the table.
"""

from __future__ import annotations

from bisect import insort

from referee.core import chance
from referee.core.cards import shuffled
from referee.core.engine import Event

from .ranks import CARD_KEY
from .state import State

# Turn order around a table of n seats: for each seat, the seats after it to its left, around
# to itself (2 to 6 players).
SEATS_AFTER = {n: tuple(tuple((seat + k) % n for k in range(1, n + 1)) for seat in range(n))
               for n in range(2, 7)}


class Table:
    """A state opened for a move: read and write its fields as attributes, then `freeze`.
    A table is spent once frozen."""

    __slots__ = ("__dict__", "events", "n", "told")

    def __init__(self, state: State, told: bool = True):
        # A dictionary of its own (not `.copy()`, which would keep the keys shared with the
        # dataclass's other instances): the table's fields are read and written often.
        self.__dict__ = dict(state.__dict__)
        self.hands = [*state.hands]
        self.n = len(state.players)
        # Not told, the rules make no event (the caller reads none): `events` stays empty.
        self.told = told
        self.events: list[Event] = []

    def freeze(self) -> State:
        self.hands = tuple(self.hands)
        # The fields, each already checked by the rule that set it, become the new state's
        # own attribute dictionary, as they are: `State(...)` would set them one by one.
        state = object.__new__(State)
        object.__setattr__(state, "__dict__", self.__dict__)
        return state


def set_role(table: Table, seat: int, role: str) -> None:
    """The player at `seat` is out of the round (or it ends) with this role."""
    roles = list(table.roles)
    roles[seat] = role
    table.roles = tuple(roles)


def without(hand: tuple[str, ...], cards) -> tuple[str, ...] | None:
    """The hand less these (distinct) cards, still in hand order; None when it does not hold
    them all."""
    left = list(hand)
    try:
        for card in cards:
            left.remove(card)
    except ValueError:
        return None
    return tuple(left)


# -- drawing ---------------------------------------------------------------------------------
def draw(table: Table, seat: int, count: int, reason: str) -> None:
    """`count` cards from the top of the stock into the hand at `seat`, rebuilding the stock
    when it runs out. Each part of the draw that comes from one place (the rest of a shuffle,
    or the cleared piles under it) is its own `cards_drawn`, so that a shuffled part names its
    shuffle and positions."""
    player = table.players[seat]
    hand = None  # the hand as a list, once a card comes
    left = count
    while left:
        if not table.stock and not rebuild_stock(table):
            break
        stock = table.stock
        from_shuffle = len(stock) - table.stock_known  # the cards above the cleared piles
        part = min(left, from_shuffle or len(stock))
        taken, table.stock = stock[:part], stock[part:]
        left -= part
        if hand is None:
            hand = [*table.hands[seat]]
        for card in taken:  # the hand stays in hand order
            insort(hand, card, key=CARD_KEY.__getitem__)
        start = table.stock_start
        # from a shuffle the stock records (a hand-made stock's order comes from none)
        shuffled_at = from_shuffle and table.stock_step >= 0
        if not from_shuffle:
            table.stock_known -= part
        elif shuffled_at:
            table.stock_start = start + part
        if table.told:
            event = {"type": "cards_drawn", "player": player, "count": part, "wanted": count,
                     "reason": reason, "source": "shuffle" if from_shuffle else "under_stock",
                     "private": {"player": player, "cards": [*taken]}}
            if shuffled_at:  # the positions of the shuffle the cards came from
                event["chance"] = chance.stock_draw(table.stock_step, table.stock_shuffled,
                                                    table.options.jokers, 1,
                                                    range(start, start + part))
            table.events.append(event)
    if hand is not None:
        table.hands[seat] = tuple(hand)
    elif table.told:
        table.events.append({"type": "cards_drawn", "player": player, "count": 0,
                             "wanted": count, "reason": reason,
                             "private": {"player": player, "cards": []}})


def top_run(ranks: tuple[str, ...]) -> int:
    """How many cards on top of a (non-empty) pile count as its top rank: every card of that
    rank in the pile, since its ranks never go down (each play is at least the one below)."""
    return ranks.count(ranks[-1])


def rebuild_stock(table: Table) -> bool:
    """An empty stock becomes the pile less its highest-ranked cards (its top run), shuffled
    with the match's seeded generator; False when that leaves nothing to draw."""
    if not table.pile:
        return False
    cut = len(table.pile) - top_run(table.pile_ranks)
    if not cut:
        if table.told:
            table.events.append({"type": "stock_not_rebuilt", "pile": len(table.pile)})
        return False
    # sorted once here: the shuffle and its description each sort them again, and a sorted
    # list is sorted in one pass. The state records the shuffled cards sorted, as the
    # description lists them; the description itself is made only for a told event.
    moved = sorted(table.pile[:cut])
    step = table.step
    table.stock = shuffled(moved, table.seed, step)
    table.stock_step, table.stock_shuffled = step, tuple(moved)
    table.stock_start, table.stock_known = 0, 0
    table.step += 1
    table.pile = table.pile[cut:]
    table.pile_ranks = table.pile_ranks[cut:]
    if table.told:
        table.events.append({"type": "stock_rebuilt", "count": len(moved),
                             "pile": [{"card": c, "rank": r}
                                      for c, r in zip(table.pile, table.pile_ranks)],
                             "chance": chance.shuffle(step, moved)})
    return True


# -- the pile and the turns ------------------------------------------------------------------
def clear_pile(table: Table, reason: str) -> None:
    """The pile goes face down under the stock (its first card laid nearest the top)."""
    count = len(table.pile)
    table.stock += table.pile
    table.stock_known += count
    table.pile, table.pile_ranks, table.last_player = (), (), None
    if table.told:
        table.events.append({"type": "pile_cleared", "reason": reason, "count": count})


def advance(table: Table, after: int) -> None:
    """The turn goes left from `after` to the next player still in the round; reaching or
    passing the seat of the player who laid the pile's last cards clears the pile."""
    roles = table.roles
    for seat in SEATS_AFTER[table.n][after]:
        if table.pile and table.last_player == seat:
            clear_pile(table, "returned")
        if roles[seat] == "":
            break
    table.current = seat
    table.drawn = False
    if table.told:
        table.events.append({"type": "turn", "player": table.players[seat]})


def next_player_in(table: Table, after: int) -> int | None:
    """The next player to the left of `after` still in the round, None if there is none."""
    roles = table.roles
    for seat in SEATS_AFTER[table.n][after]:
        if seat == after:
            return None
        if roles[seat] == "":
            return seat
    return None


def begin_play(table: Table) -> None:
    """Play opens with the player to the dealer's left."""
    table.phase = "play"
    table.exchange_stage = 0
    table.gifts = ()
    table.current = (table.dealer + 1) % table.n
    table.drawn = False
    if table.told:
        table.events.append({"type": "turn", "player": table.players[table.current]})
