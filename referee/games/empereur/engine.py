"""The Empereur engine: options, legal moves, applying a move, scores, views, invariants.

`apply` opens the frozen state as a small `_Table`, runs the rules on it and freezes it back
into a new `State` once. The table holds the state's own tuples (hands, stock, pile) and puts a
new tuple in a place only when a rule changes it, so a move copies no more than it changes.
"""

from __future__ import annotations

import functools
from bisect import bisect_left, insort
from collections import Counter
from typing import Any

from referee.core import chance
from referee.core.cards import conservation_problems, is_joker, shuffled, standard_deck
from referee.core.chance import stock_origin_problems
from referee.core.engine import Engine, Event, Field, Move, MoveType, Option, fields_setter
from referee.core.errors import IllegalMove

from .ranks import CARD_KEY, RANK_ORDER, STRENGTH, TWO, sort_hand, strength, value
from . import wire
from .state import EXCHANGES, MODES, PHASES, ROLES, Options, State

HAND_SIZE = 7
MAX_DEALER_DRAWS = 100  # tie-break rounds of the dealer draw before the first tied player deals


class Empereur(Engine):
    id = "empereur"
    name = "L'Empereur"
    summary = ("Shed your hand by laying sets of one rank, each at least the last; twos stop "
               "the table, doubled ranks make the next player draw. First out is Emperor.")
    min_players = 2
    max_players = 6
    state_type = State
    event_types = wire.EVENTS
    view_type = wire.View
    scores_type = wire.Scores
    hint_levels = ("easy", "medium", "hard")
    playout_options = {"mode": "normal", "rounds": 1}
    options = (
        Option("jokers", "integer", 2, "jokers added to the 52 cards", minimum=0, maximum=2),
        Option("mode", "string", "normal",
               "normal: rounds, last Emperor wins; elite: the Emperor scores the Subjects' "
               "cards, first to the target wins; mirror_normal: rounds, last Outcast loses; "
               "mirror_elite: the Outcast scores the cards left, first to the target loses",
               choices=MODES),
        Option("rounds", "integer", 3, "rounds in the Normal and Mirror Normal modes",
               minimum=1, maximum=50),
        Option("target_points", "integer", 500, "points that end the Elite modes",
               minimum=1, maximum=10000),
    )
    move_types = (
        MoveType("play", "lay one or more cards of one rank (jokers count as the named rank), "
                 "at least the rank on top of the pile; a two alone", (
                     Field("cards", "cards", "the cards laid, from your hand", max_items=6),
                     Field("rank", "string", "the rank the cards count as (needed when only "
                           "jokers are laid; must match the natural cards otherwise)",
                           required=False, choices=RANK_ORDER),
                 )),
        MoveType("draw", "draw one card instead of playing (once a turn); then play or pass"),
        MoveType("pass", "end your turn without playing, after drawing"),
        MoveType("give", "exchange at the start of a round: give one card to a player", (
            Field("card", "card", "the card given (forced gifts: one of your highest)"),
            Field("to", "player", "the player who receives it"),
        )),
    )

    # -- creation ----------------------------------------------------------------------------
    def new_match(self, players, options, seed, *, now):
        return self._opening(tuple(players), Options(**options), seed).freeze()

    def opening_events(self, state):
        # The first round's dealer draw and deal, replayed from the seed: the same draws.
        return self._opening(state.players, state.options, state.seed).events

    @staticmethod
    def _opening(players, options, seed) -> "_Table":
        n = len(players)
        blank = State(
            players=players, options=options, seed=seed, step=0, round=0,
            phase="play", dealer=0, hands=tuple(() for _ in range(n)), stock=(), stock_step=-1,
            stock_shuffled=None, stock_start=0, stock_known=0, pile=(),
            pile_ranks=(), last_player=None, current=0, drawn=False, roles=("",) * n,
            previous_roles=("",) * n, gifts=(), exchange_stage=0, rounds_won=(0,) * n,
            rounds_lost=(0,) * n, points=(0,) * n, emperor=None, previous_emperor=None,
        )
        table = _Table(blank)
        table.start_round(1)
        return table

    # -- queries -----------------------------------------------------------------------------
    def is_finished(self, state: State) -> bool:
        return state.phase == "finished"

    def to_act(self, state, *, now=0.0):
        if state.phase == "play":
            return [state.players[state.current]]
        if state.phase == "exchange":
            givers = sorted({g for g, _ in state.gifts})
            return [state.players[g] for g in givers]
        return []

    def legal_moves(self, state, *, now=0.0):
        if state.phase == "play":
            return _play_moves(state)
        if state.phase == "exchange":
            return _give_moves(state)
        return []

    def scores(self, state):
        elite = state.options.elite
        titles = _titles(state.roles, state.emperor, state.options.mirror)
        earlier = _titles(state.previous_roles, state.previous_emperor, state.options.mirror)
        players = {}
        for i, p in enumerate(state.players):
            players[p] = {
                "total": state.points[i] if elite else state.rounds_won[i],
                "cards": len(state.hands[i]),
                "role": state.roles[i] or None,
                "previous_role": state.previous_roles[i] or None,
                "roles": titles[i],
                "previous_roles": earlier[i],
                "rounds_won": state.rounds_won[i],
                "rounds_lost": state.rounds_lost[i],
                "points": state.points[i],
            }
        winners, losers = _result(state)
        return {"players": players, "winners": winners, "losers": losers, "draw": False,
                "round": state.round, "mode": state.options.mode}

    def view(self, state, player):
        players = state.players
        me = players.index(player) if player in players else None
        return {
            "you": player,
            "players": list(players),
            "mode": state.options.mode,
            "jokers": state.options.jokers,
            "rounds": state.options.rounds,
            "target_points": state.options.target_points,
            "round": state.round,
            "phase": state.phase,
            "dealer": players[state.dealer],
            "current": players[state.current] if state.phase == "play" else None,
            "drawn": state.drawn if state.phase == "play" else False,
            "to_act": self.to_act(state),
            "hand": list(state.hands[me]) if me is not None else [],
            "hand_counts": {p: len(h) for p, h in zip(players, state.hands)},
            "stock_count": len(state.stock),
            "stock_shuffled_count": len(state.stock) - state.stock_known,
            "under_stock": list(state.stock[len(state.stock) - state.stock_known:]),
            "pile": [{"card": c, "rank": r} for c, r in zip(state.pile, state.pile_ranks)],
            "last_player": None if state.last_player is None else players[state.last_player],
            "roles": {p: r or None for p, r in zip(players, state.roles)},
            "previous_roles": {p: r or None for p, r in zip(players, state.previous_roles)},
            "emperor": None if state.emperor is None else players[state.emperor],
            "previous_emperor": (None if state.previous_emperor is None
                                 else players[state.previous_emperor]),
            "gifts_due": [{"from": players[g], "to": players[r]} for g, r in state.gifts],
            "exchange_stage": state.exchange_stage,
            "exchange": _exchange_of(state.options, state.exchange_stage),
            "points": dict(zip(players, state.points)),
            "rounds_won": dict(zip(players, state.rounds_won)),
            "rounds_lost": dict(zip(players, state.rounds_lost)),
        }


    def advise(self, view, moves, level):
        # Imported here: the hints import this module.
        from .hints import advise
        return advise(view, moves, level)

    # -- applying a move ---------------------------------------------------------------------
    def check_can_move(self, state, move, *, now=0.0):
        # In play one player acts, the one whose turn it is: his move passes the common
        # refusals (a finished match, a stranger, not his turn) at once, any other goes
        # through them.
        if state.phase == "play" and move["player"] == state.players[state.current]:
            return
        super().check_can_move(state, move, now=now)

    def apply(self, state, move, *, now=0.0):
        self.check_can_move(state, move, now=now)
        kind = move.get("type")
        if state.phase == "exchange":
            if kind != "give":
                raise IllegalMove("exchange_first", "the round starts with the exchange of "
                                  "cards: only `give` moves are allowed now")
            table = _Table(state)
            table.give(state.players.index(move["player"]), move.get("card"), move.get("to"))
            return table.freeze(), table.events
        if kind == "give":
            raise IllegalMove("no_exchange", "cards are given only in the exchange that "
                              "opens a round")
        table = _Table(state)
        if kind == "play":
            _play_move(table, move.get("cards"), move.get("rank"))
        elif kind == "draw":
            if state.drawn:
                raise IllegalMove("one_draw", "you have already drawn this turn: play or pass")
            table.drawn = True
            _draw(table, state.current, 1, "turn")
        elif kind == "pass":
            if not state.drawn:
                raise IllegalMove("draw_before_pass", "draw a card before passing")
            table.events.append({"type": "passed", "player": state.players[state.current]})
            _advance(table, state.current)
        else:
            raise IllegalMove("move_type", f"{kind!r} is not a move of {self.name}")
        return table.freeze(), table.events

    # -- invariants --------------------------------------------------------------------------
    def problems(self, state):
        return _problems(self, state)


# == legal moves ==================================================================================
def _play_moves(state: State) -> list[Move]:
    """One canonical move per (rank, natural count, joker count): suits never matter, so the
    naturals are the lowest-suited ones and the jokers X1 before X2; `apply` accepts any cards
    of the hand that are equivalent. Listed by rank (low to high), then naturals, then jokers.

    The plays of one rank depend only on the player, the naturals of that rank in hand and
    the jokers, so each is made once (`_PlayTable`) and shared, as the engine contract allows:
    callers read listed moves and never change them. The plays of n naturals begin with those
    of their first n - 1, so a listing walks the hand card by card, adding for each natural
    the plays it opens (`_Prefix`)."""
    i = state.current
    hand = state.hands[i]
    n = len(hand)
    try:  # a hand holds its jokers last (hand[n - 2] is hand[-1] in a hand of one card)
        table = _SEATS[state.players[i]][_JOKERS_HELD[hand[n - 1]][hand[n - 2]]]
    except (KeyError, IndexError):  # this player's first listing with these jokers, or no card
        table = _seat_table(state.players[i], hand)
    floor = STRENGTH[state.pile_ranks[-1]] if state.pile_ranks else 0
    # A hand is held in strength order (jokers last), so the naturals that reach the pile's
    # rank are one slice of it, found by bisection (jokers outrank every pile), grouped by rank.
    k = bisect_left(hand, floor * 4, key=_card_key) if floor else 0
    alone = table.jokers_alone
    firsts = table.firsts
    moves: list[Move] = []
    prefix = _NO_NATURALS
    reached = floor  # with jokers: the strength of the lowest rank not listed yet
    for card in hand[k:table.naturals_end]:
        if card in prefix.followers:  # one more natural of the rank walked
            try:
                prefix = prefix.longer[card]
            except KeyError:  # the first time these naturals are listed
                prefix = table.lengthened(prefix, card)
        else:  # the first natural of a rank
            try:
                prefix = firsts[card]
            except KeyError:
                prefix = table.lengthened(_NO_NATURALS, card)
            if alone is not None:  # the ranks below it not listed yet go with jokers alone
                moves += alone[reached][prefix.strength]
                reached = prefix.strength + 1
        moves += prefix.plays
    if alone is not None:
        moves += alone[reached][len(RANK_ORDER)]
    moves.append(table.turn_end[state.drawn])
    return moves


def _rank_moves(player: str, rank: str, naturals: tuple[str, ...],
                jokers: tuple[str, ...], start: int = 0) -> tuple[Move, ...]:
    """The plays of one rank, from these naturals (every card of that rank the hand holds)
    and jokers, from the `start`-th on: jokers alone first, then each count of naturals alone
    and with the jokers. The plays of the first n naturals begin those of the first n + 1."""
    joker_sets = [jokers[:j] for j in range(1, len(jokers) + 1)]  # X1, then X1 and X2
    if rank == TWO:  # a two is laid alone: one joker, or one natural two
        sets = joker_sets[:1] + [naturals[:1]] * bool(naturals)
    else:
        sets = joker_sets + [naturals[:n] + extra for n in range(1, len(naturals) + 1)
                             for extra in ((), *joker_sets)]
    # a fresh list per move: moves stay apart from each other and from the hand
    return tuple({"type": "play", "player": player, "cards": list(cards), "rank": rank}
                 for cards in sets[start:])


class _Prefix:
    """The lowest-suited naturals of one rank a hand holds, as far as a listing has walked:
    the plays they add to those of the naturals before them (the first natural also brings
    the rank's plays of jokers alone), how many plays they make in all, the cards that may
    come next in the same rank, and the longer prefixes met so far, by their next card."""

    __slots__ = ("naturals", "plays", "listed", "strength", "followers", "longer")

    def __init__(self, naturals: tuple[str, ...], plays: tuple[Move, ...], before: int):
        self.naturals, self.plays, self.listed = naturals, plays, before + len(plays)
        self.strength = STRENGTH[naturals[0][0]] if naturals else -1
        self.followers = _FOLLOWERS[naturals[-1]] if naturals else frozenset()
        self.longer: dict[str, _Prefix] = {}


# The cards a hand may hold right after each natural in the same rank: its higher suits.
_FOLLOWERS = {c: frozenset(d for d in CARD_KEY if d[0] == c[0] and CARD_KEY[d] > CARD_KEY[c])
              for c in CARD_KEY if c[0] != "X"}
_NO_NATURALS = _Prefix((), (), 0)  # before the first natural a listing walks


class _PlayTable:
    """The moves one player holding these jokers may be listed: the plays each natural adds
    after the naturals of its rank before it, each made the first time it is needed, the
    plays of jokers alone over each span of ranks, and the draw and the pass that end a turn."""

    __slots__ = ("player", "jokers", "naturals_end", "firsts", "jokers_alone", "turn_end")

    def __init__(self, player: str, jokers: tuple[str, ...]):
        self.player, self.jokers = player, jokers
        self.naturals_end = -len(jokers) or None  # a hand's naturals are hand[:naturals_end]
        self.firsts: dict[str, _Prefix] = {}  # the prefix of each card that opens its rank
        # jokers_alone[low][high]: the plays of jokers alone as each rank from strength `low`
        # to below `high` (none when high <= low), for every low and high from 0 to the
        # number of ranks; made at once, as a listing asks for a span at each rank it holds
        # (None without jokers)
        ranks = len(RANK_ORDER)
        each = [_rank_moves(player, rank, (), jokers) for rank in RANK_ORDER] if jokers else []
        self.jokers_alone = tuple(
            tuple(tuple(m for plays in each[low:high] for m in plays) for high in range(ranks + 1))
            for low in range(ranks + 1)) if jokers else None
        # indexed by `drawn`: a turn ends by drawing, then by passing
        self.turn_end = ({"type": "draw", "player": player}, {"type": "pass", "player": player})

    def lengthened(self, prefix: _Prefix, card: str) -> _Prefix:
        """The prefix one natural longer (a first natural after _NO_NATURALS), made and kept."""
        naturals = prefix.naturals
        longer = _Prefix(naturals + (card,), _rank_moves(self.player, card[0], naturals + (card,),
                                                         self.jokers, prefix.listed),
                         prefix.listed)
        (prefix.longer if naturals else self.firsts)[card] = longer
        return longer


# The jokers a hand holds, two at most and last in hand order: an index into _JOKER_SETS by
# the hand's last card, then the card before it (the last card again in a hand of one card).
_JOKER_SETS: tuple[tuple[str, ...], ...] = ((), ("X1",), ("X2",), ("X1", "X2"))


def _jokers_held(ending: tuple[str, ...]) -> int:
    return _JOKER_SETS.index(tuple(c for c in ending[-2:] if c[0] == "X"))


_JOKERS_HELD = {last: {before: _jokers_held((before, last)[before == last:])
                       for before in CARD_KEY if CARD_KEY[before] <= CARD_KEY[last]}
                for last in CARD_KEY}
# per player, his tables by jokers held; a server sees few players at once: past this many
# they are all forgotten (a clear, which threads listing at once cannot trip over)
_SEATS_KEPT = 64
_SEATS: dict[str, dict[int, _PlayTable]] = {}


def _seat_table(player: str, hand: tuple[str, ...]) -> _PlayTable:
    """The player's table for the jokers this hand holds, made and kept if it is new."""
    seat = _SEATS.get(player)
    if seat is None:
        if len(_SEATS) >= _SEATS_KEPT:
            _SEATS.clear()
        seat = _SEATS[player] = {}
    jokers = _jokers_held(hand)
    table = seat.get(jokers)
    if table is None:
        table = seat[jokers] = _PlayTable(player, _JOKER_SETS[jokers])
    return table


_card_key = CARD_KEY.__getitem__


def _give_moves(state: State) -> list[Move]:
    moves: list[Move] = []
    forced = _forced_stage(state.exchange_stage)
    for g, r in sorted(state.gifts):
        hand = state.hands[g]
        cards = _highest(hand) if forced else hand
        for c in dict.fromkeys(cards):
            moves.append({"type": "give", "player": state.players[g], "card": c,
                          "to": state.players[r]})
    return moves


def _highest(hand) -> list[str]:
    if not hand:
        return []
    top = max(strength(c) for c in hand)
    return [c for c in hand if strength(c) == top]


def _result(state: State | _Table) -> tuple[list[str], list[str]]:
    """The winners and losers of a finished match (of a state, or of the table that ends it)."""
    if state.phase != "finished":
        return [], []
    opts = state.options
    players = state.players
    if opts.elite:
        marked = [p for p, pts in zip(players, state.points) if pts >= opts.target_points]
    else:
        role = "outcast" if opts.mirror else "emperor"
        marked = [p for p, r in zip(players, state.roles) if r == role]
    others = [p for p in players if p not in marked]
    return (others, marked) if opts.mirror else (marked, others)


def _titles(roles, emperor: int | None, mirror: bool) -> list[list[str]]:
    """Every title each player holds in a round (« Classement »): Emperor or Subject, and in
    the Mirror modes Elect or Outcast besides. Nobody is a Subject before there is an Emperor
    or the round is over; a Subject who went out with a joker is one at once."""
    over = all(roles)
    titles = []
    for i, role in enumerate(roles):
        held = []
        if i == emperor:
            held.append("emperor")
        elif emperor is not None or over or role == "subject":
            held.append("subject")
        if mirror and role in ("elect", "outcast"):
            held.append(role)
        titles.append(held)
    return titles


def _exchange_of(options: Options, stage: int) -> str | None:
    """Which exchange an exchange stage belongs to ("emperor" or "outcast"), None outside."""
    exchanges = EXCHANGES[options.mode]
    return exchanges[(stage - 1) // 2] if 1 <= stage <= 2 * len(exchanges) else None


def _forced_stage(stage: int) -> bool:
    """The first stage of each exchange is the forced gifts of highest cards."""
    return stage % 2 == 1


def _gift_plan(options: Options, stage: int, roles, emperor: int | None):
    """The gifts of an exchange stage, from the last round's roles and Emperor, in seat
    order; empty when that exchange has nobody to hold it (no Emperor last round)."""
    exchange = _exchange_of(options, stage)
    if exchange == "emperor":
        if emperor is None:
            return []
        head, rest = emperor, [i for i in range(len(roles)) if i != emperor]
        # forced: each Subject gives the Emperor; free: the Emperor gives each Subject
        return [(s, head) for s in rest] if _forced_stage(stage) else [(head, s) for s in rest]
    if exchange == "outcast":
        outcasts = [i for i, r in enumerate(roles) if r == "outcast"]
        if len(outcasts) != 1:
            return []
        head, rest = outcasts[0], [i for i, r in enumerate(roles) if r == "elect"]
        # forced: the Outcast gives each Elect; free: each Elect gives the Outcast
        return [(head, e) for e in rest] if _forced_stage(stage) else [(e, head) for e in rest]
    return []


def _next_stage(options: Options, after: int, roles, emperor: int | None):
    """The first exchange stage after `after` that has gifts, and its gifts; (0, []) if none
    is left. An exchange with nobody to hold it is skipped whole."""
    for stage in range(after + 1, 2 * len(EXCHANGES[options.mode]) + 1):
        plan = _gift_plan(options, stage, roles, emperor)
        if plan:
            return stage, plan
    return 0, []


# == the mutable table used while applying a move =================================================
class _Table:
    """The working copy of a state while a move is applied. Its attribute dictionary is a copy
    of the state's own field dictionary (every field, in declaration order), and the new state
    is made of that dictionary itself: opening a table is one dictionary copy and freezing it
    none, not one store per field. The rules read and write the fields as attributes; the
    table's own attributes (the options, the player count, the events) are slots, outside the
    fields. The hands are a list while it is open (nearly every move changes one player's
    hand), turned back into a tuple when it freezes; every other sequence field holds a tuple
    and a rule that changes one puts a new tuple in its place. A table is spent once frozen."""

    __slots__ = ("__dict__", "opts", "n", "events")

    def __init__(self, s: State):
        # `dict(...)`, not `.copy()`: the copy of a dataclass's own attribute dictionary (its
        # keys shared with every instance's) would share them too, and CPython reads and
        # writes attributes held that way the slow way, on every access; a dictionary of its
        # own keys (as every state frozen here has) is copied as fast, and read fast.
        fields = self.__dict__ = dict(s.__dict__)
        fields["hands"] = [*s.hands]
        self.opts = s.options
        self.n = len(s.players)
        self.events: list[Event] = []

    def freeze(self) -> State:
        # Every field is set, each value already checked by the rules that made it: the state
        # is built as `State(...)` would build it, without its per-field setattr.
        fields = self.__dict__
        fields["hands"] = tuple(fields["hands"])
        state = _new_object(State)
        _set_state_fields(state, fields)
        return state

    def set_role(self, i: int, role: str) -> None:
        """Player `i` is out of the round (or it ends) with this role. Roles change a few times
        a round, so they stay a tuple and a change makes a new one."""
        roles = list(self.roles)
        roles[i] = role
        self.roles = tuple(roles)

    # -- rounds ------------------------------------------------------------------------------
    def start_round(self, number: int) -> None:
        n = self.n
        self.round = number
        self.events.append({"type": "round_started", "round": number})
        deck = standard_deck(jokers=self.opts.jokers)
        contenders = list(range(n))
        for _ in range(MAX_DEALER_DRAWS):
            order = shuffled(deck, self.seed, self.step)
            drawn_from = chance.deck_shuffle(self.step, self.opts.jokers, 1,
                                             range(len(contenders)), "draws[].card")
            self.step += 1
            draws = {k: order[t] for t, k in enumerate(contenders)}
            best = max(strength(c) for c in draws.values())
            tied = [k for k in contenders if strength(draws[k]) == best]
            self.events.append({
                "type": "dealer_draw", "round": number,
                "draws": [{"player": self.players[k], "card": draws[k]} for k in contenders],
                "tied": [self.players[k] for k in tied] if len(tied) > 1 else [],
                "chance": drawn_from,
            })
            contenders = tied
            if len(tied) == 1:
                break
        self.dealer = contenders[0]
        self.events.append({"type": "dealer_chosen", "round": number,
                            "player": self.players[self.dealer]})
        deal_step = self.step
        order = list(shuffled(deck, self.seed, deal_step))
        self.step += 1
        hands: list[list[str]] = [[] for _ in range(n)]
        for t in range(HAND_SIZE * n):
            hands[(self.dealer + 1 + t) % n].append(order[t])
        self.hands = [sort_hand(h) for h in hands]
        self.stock = tuple(order[HAND_SIZE * n:])
        self.stock_step, self.stock_shuffled = deal_step, None
        self.stock_start, self.stock_known = HAND_SIZE * n, 0
        self.pile, self.pile_ranks, self.last_player = (), (), None
        for i, p in enumerate(self.players):
            shown = chance.deck_shuffle(deal_step, self.opts.jokers, 1,
                                        chance.positions_of(order, self.hands[i]), "cards")
            self.events.append({"type": "hand_dealt", "player": p, "count": HAND_SIZE,
                                "private": {"player": p, "cards": list(self.hands[i]),
                                            "chance": shown}})
        self.events.append({"type": "stock_formed", "count": len(self.stock)})
        if number > 1:
            self.previous_roles = tuple(self.roles)
            self.previous_emperor = self.emperor
        self.roles = ("",) * n
        self.emperor = None
        self.drawn = False
        stage, plan = (_next_stage(self.opts, 0, self.previous_roles, self.previous_emperor)
                       if number > 1 else (0, []))
        if plan:
            self.phase = "exchange"
            self.current = (self.dealer + 1) % n
            self._open_stage(stage, plan)
        else:
            self._begin_play()

    def _open_stage(self, stage: int, plan: list[tuple[int, int]]) -> None:
        self.exchange_stage = stage
        self.gifts = tuple(plan)
        self.events.append({"type": "exchange_started", "stage": stage,
                            "exchange": _exchange_of(self.opts, stage),
                            "gifts": self._gift_list()})

    def _gift_list(self) -> list[dict[str, str]]:
        return [{"from": self.players[g], "to": self.players[r]} for g, r in self.gifts]

    def _begin_play(self) -> None:
        self.phase = "play"
        self.exchange_stage = 0
        self.gifts = ()
        self.current = (self.dealer + 1) % self.n
        self.drawn = False
        self.events.append({"type": "turn", "player": self.players[self.current]})

    def end_round(self) -> None:
        opts = self.opts
        n = self.n
        won_role, lost_role = ("elect", "outcast") if opts.mirror else ("emperor", "subject")
        for i in range(n):
            if self.roles[i] == "":  # still holding cards when the round ends
                self.set_role(i, "elect" if opts.mirror else "subject")
        gained = [0] * n
        points, rounds_won, rounds_lost = (
            list(self.points), list(self.rounds_won), list(self.rounds_lost))
        if opts.mode == "elite":
            gained[self.emperor] = sum(value(c) for i in range(n) if self.roles[i] == "subject"
                                       for c in self.hands[i])
        elif opts.mode == "mirror_elite":
            o = self.roles.index("outcast")
            gained[o] = sum(value(c) for h in self.hands for c in h)
        for i in range(n):
            points[i] += gained[i]
            if self.roles[i] == won_role:
                rounds_won[i] += 1
            elif self.roles[i] == lost_role:
                rounds_lost[i] += 1
        self.points, self.rounds_won, self.rounds_lost = (
            tuple(points), tuple(rounds_won), tuple(rounds_lost))
        self.events.append({
            "type": "round_result", "round": self.round,
            "roles": dict(zip(self.players, self.roles)),
            "emperor": None if self.emperor is None else self.players[self.emperor],
            "hand_values": {p: sum(value(c) for c in h) for p, h in zip(self.players, self.hands)},
            "cards_left": {p: len(h) for p, h in zip(self.players, self.hands)},
            "points_gained": dict(zip(self.players, gained)),
            "points": dict(zip(self.players, self.points)),
        })
        self.drawn = False
        if self._match_over():
            self.phase = "finished"
            self.gifts, self.exchange_stage = (), 0
            winners, losers = _result(self)
            self.events.append({"type": "match_result", "winners": winners, "losers": losers})
        else:
            self.start_round(self.round + 1)

    def _match_over(self) -> bool:
        if self.opts.elite:
            return any(p >= self.opts.target_points for p in self.points)
        return self.round >= self.opts.rounds

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, i: int, count: int, reason: str) -> None:
        """Cards from the top of the stock, rebuilding it when it runs out. Each part of the
        draw that comes from one place (the rest of a shuffle, or the cleared cards under it)
        is its own `cards_drawn`, so that a shuffled part names its shuffle and positions."""
        p = self.players[i]
        events = self.events
        hand = None  # the hand as a list, once a card comes
        left = count
        while left:
            stock = self.stock
            if not stock:
                if not _rebuild(self):
                    break
                stock = self.stock
            shuffled_left = len(stock) - self.stock_known
            here = shuffled_left or len(stock)
            part = left if left < here else here
            taken = stock[:part]
            self.stock = stock[part:]
            left -= part
            if hand is None:
                hand = [*self.hands[i]]
            # the hand stays in hand order: each card drawn goes in at its place
            for card in taken:
                insort(hand, card, key=_card_key)
            event = {"type": "cards_drawn", "player": p, "count": part, "wanted": count,
                     "reason": reason, "source": "shuffle" if shuffled_left else "under_stock",
                     "private": {"player": p, "cards": [*taken]}}
            if not shuffled_left:
                self.stock_known -= part
            elif self.stock_step >= 0:  # a hand-made stock's order comes from no shuffle
                start = self.stock_start
                self.stock_start = start + part
                event["chance"] = chance.stock_draw(self.stock_step, self.stock_shuffled,
                                                    self.opts.jokers, 1,
                                                    range(start, start + part))
            events.append(event)
        if hand is not None:
            self.hands[i] = tuple(hand)
        else:
            events.append({"type": "cards_drawn", "player": p, "count": 0, "wanted": count,
                           "reason": reason, "private": {"player": p, "cards": []}})

    def rebuild(self) -> bool:
        """An empty stock becomes the pile less its highest-ranked cards, shuffled. The pile's
        ranks never go down, so its highest-ranked cards are the run on its top."""
        if not self.pile:
            return False
        cut = len(self.pile) - _top_run(self.pile_ranks)
        if not cut:
            self.events.append({"type": "stock_not_rebuilt", "pile": len(self.pile)})
            return False
        # sorted once here: the shuffle and its description each sort them again, and a
        # sorted list is sorted in one pass
        moved = sorted(self.pile[:cut])
        self.stock = shuffled(moved, self.seed, self.step)
        drawn_from = chance.shuffle(self.step, moved)
        self.stock_step, self.stock_shuffled = self.step, tuple(drawn_from["items"])
        self.stock_start, self.stock_known = 0, 0
        self.step += 1
        self.pile = self.pile[cut:]
        self.pile_ranks = self.pile_ranks[cut:]
        self.events.append({"type": "stock_rebuilt", "count": len(moved),
                            "pile": [{"card": c, "rank": r}
                                     for c, r in zip(self.pile, self.pile_ranks)],
                            "chance": drawn_from})
        return True

    def clear_pile(self, reason: str) -> None:
        """The pile goes face down under the stock (its first card laid nearest the top)."""
        count = len(self.pile)
        self.stock += self.pile
        self.stock_known += count
        self.pile, self.pile_ranks, self.last_player = (), (), None
        self.events.append({"type": "pile_cleared", "reason": reason, "count": count})

    # -- turns -------------------------------------------------------------------------------
    def advance(self, frm: int) -> None:
        """The turn goes left to the next player still in the round; passing the seat of the
        player who laid the pile's last cards clears the pile (he, or the next one, leads)."""
        roles = self.roles
        for s in _seats_after(self.n)[frm]:
            if self.pile and self.last_player == s:
                _clear_pile(self, "returned")
            if roles[s] == "":
                break
        self.current = s
        self.drawn = False
        self.events.append({"type": "turn", "player": self.players[s]})

    def _next_active(self, frm: int) -> int | None:
        roles = self.roles
        for s in _seats_after(self.n)[frm]:
            if s == frm:
                return None
            if roles[s] == "":
                return s
        return None

    # -- playing -----------------------------------------------------------------------------
    def play_move(self, cards: Any, rank: Any) -> None:
        if not isinstance(cards, (list, tuple)) or not cards:
            raise IllegalMove("play_cards", "a play lays at least one card")
        named = tuple(cards)
        try:
            reading = _reading(named, rank)
        except TypeError:  # an unhashable card or rank: read without remembering
            reading = _read_play(named, rank)
        refused, laid, distinct, unplayable, rank = reading
        if refused:
            raise IllegalMove(*refused)
        i = self.current
        # the cards laid less the hand: none left when he holds them all (and no set is made
        # of the hand, as issubset would)
        if laid is None or distinct.difference(self.hands[i]):
            raise IllegalMove("cards_in_hand", f"you do not hold all of {list(cards)}")
        if unplayable:
            raise IllegalMove(*unplayable)
        ranks = self.pile_ranks
        if ranks and STRENGTH[rank] < STRENGTH[ranks[-1]]:
            raise IllegalMove("at_least_top", f"the pile shows {ranks[-1]}: lay a "
                              "rank at least as high")
        _play(self, i, laid, rank)

    def play(self, i: int, laid: tuple[str, ...], rank: str) -> None:
        """Player `i` lays these cards of his hand (in hand order) as `rank`."""
        hands = self.hands
        hands[i] = left = _remove(hands[i], laid)
        finished = not left
        self.pile += laid
        ranks = self.pile_ranks = self.pile_ranks + (rank,) * len(laid)
        self.last_player = i
        p = self.players[i]
        events = self.events
        events.append({"type": "cards_played", "player": p, "cards": list(laid), "rank": rank})
        mirror = self.opts.mirror
        joker = laid[-1][0] == "X"  # jokers come last in hand order
        crowned = False
        if finished:
            if joker and mirror:
                self.set_role(i, "outcast")
                events.append({"type": "player_out", "player": p, "role": "outcast",
                               "joker_finish": True, "emperor": False})
                self.end_round()
                return
            crowned = not joker and self.emperor is None
            if crowned:  # the first out the regular way: this round's Emperor, in every mode
                self.emperor = i
            self.set_role(i, "subject" if joker else ("elect" if mirror else "emperor"))
        # the run on top of the pile (of the rank just laid), counted before a two clears it
        run = _top_run(ranks)
        if rank == TWO:
            self.events.append({"type": "two_played", "player": p})
            for o in _seats_after(self.n)[i]:
                if o != i and self.roles[o] == "":
                    _draw(self, o, 1, "two")
        if run > 1:
            nxt = _next_active(self, i)
            if nxt is not None:
                events.append({"type": "penalty", "player": self.players[nxt],
                               "count": run - 1, "run": run, "rank": rank})
                _draw(self, nxt, run - 1, "penalty")
        if rank == TWO:
            _clear_pile(self, "two")
        if finished:
            role = self.roles[i]
            self.events.append({"type": "player_out", "player": p, "role": role,
                                "joker_finish": joker, "emperor": crowned})
            if role == "emperor":
                for o in range(self.n):
                    if o != i:
                        self.set_role(o, "subject")
                self.end_round()
                return
            active = [o for o in range(self.n) if self.roles[o] == ""]
            if len(active) == 1:
                last = active[0]
                self.set_role(last, "outcast" if mirror else "emperor")
                if not mirror:  # « S'il n'y a plus qu'un joueur … il devient Empereur »
                    self.emperor = last
                self.end_round()
                return
        if rank == TWO and self.roles[i] == "":
            self.current = i
            self.drawn = False
            self.events.append({"type": "turn", "player": p})
        else:
            _advance(self, i)

    # -- exchange ----------------------------------------------------------------------------
    def give(self, g: int, card: Any, to: Any) -> None:
        players = self.players
        target = next((r for gg, r in self.gifts if gg == g and players[r] == to), None)
        if target is None:
            owed = [players[r] for gg, r in self.gifts if gg == g]
            raise IllegalMove("gift_target", f"you owe a card to {', '.join(owed)}, not {to!r}")
        hand = self.hands[g]
        if not isinstance(card, str) or card not in hand:
            raise IllegalMove("cards_in_hand", f"you do not hold {card!r}")
        if _forced_stage(self.exchange_stage) and card not in _highest(hand):
            raise IllegalMove("give_highest", "this gift must be one of your highest cards "
                              "(a joker is highest)")
        self.hands[g] = _remove(hand, [card])
        self.hands[target] = sort_hand(self.hands[target] + (card,))
        gifts = list(self.gifts)
        gifts.remove((g, target))
        self.gifts = tuple(gifts)
        # the card is told to the giver and the receiver only
        self.events.append({"type": "card_given", "player": players[g], "to": players[target],
                            "stage": self.exchange_stage,
                            "exchange": _exchange_of(self.opts, self.exchange_stage),
                            "private": {"players": [players[g], players[target]],
                                        "card": card}})
        if self.gifts:
            return
        stage, plan = _next_stage(self.opts, self.exchange_stage, self.previous_roles,
                                  self.previous_emperor)
        if plan:
            self._open_stage(stage, plan)
        else:
            self.events.append({"type": "exchange_finished", "round": self.round})
            self._begin_play()


# The table's methods every move calls, by module names: a method looked up on a table misses
# the interpreter's cache (each table holds a fresh copy of a state's field dict), a module
# global does not.
_play_move, _play, _draw, _advance = _Table.play_move, _Table.play, _Table.draw, _Table.advance
_rebuild, _clear_pile, _next_active = _Table.rebuild, _Table.clear_pile, _Table._next_active


@functools.cache
def _seats_after(n: int) -> tuple[tuple[int, ...], ...]:
    """For each seat of n, the seats in turn order (to the left) after it, around to itself."""
    return tuple(tuple((frm + k) % n for k in range(1, n + 1)) for frm in range(n))


def _top_run(ranks: tuple[str, ...]) -> int:
    """How many cards on top of a (non-empty) pile count as its top rank: every card of that
    rank in the pile, since its ranks never go down (each play is at least the one below)."""
    return ranks.count(ranks[-1])


def _read_play(cards: tuple[Any, ...], rank: Any) -> tuple[Any, ...]:
    """What a play of these cards named as `rank` is, whatever the hand and the pile:
    (refused, laid, distinct, unplayable, rank). `refused` is the refusal (code, message) of
    cards that are not all strings, else None; `laid` the cards in hand order (None when one
    is not a card of the deck or one is named twice: no hand holds them), `distinct` the set
    of them (to look for in the hand); `unplayable` the refusal, once the hand is known to
    hold them, of cards and a named rank that make no play, else None; `rank` the rank they
    count as."""
    if not all(isinstance(c, str) for c in cards):
        return ("play_cards", "cards are strings such as '7H' or 'X1'"), None, None, None, None
    distinct = frozenset(cards)
    if len(distinct) != len(cards) or not all(c in CARD_KEY for c in distinct):
        return None, None, distinct, None, None
    laid = sort_hand(cards)
    naturals = {c[0] for c in cards if c[0] != "X"}
    if len(naturals) > 1:
        return None, laid, distinct, ("one_rank", "cards laid together must all be of one "
                                      "rank (jokers count as the rank you name)"), None
    if rank is not None and (not isinstance(rank, str) or rank not in STRENGTH):
        return None, laid, distinct, ("named_rank", f"{rank!r} is not a rank of the game"), None
    if naturals:
        natural = next(iter(naturals))
        if rank is not None and rank != natural:
            return None, laid, distinct, (
                "named_rank", f"cards of rank {natural} count as {natural}, not {rank}: "
                "jokers laid with them take their rank"), None
        rank = natural
    elif rank is None:
        return None, laid, distinct, ("name_joker", "a joker laid alone needs the rank it "
                                      "counts as"), None
    if rank == TWO and len(laid) > 1:
        return None, laid, distinct, ("two_alone", "a two is laid alone"), None
    return None, laid, distinct, None, rank


# Remembered: plays repeat. Typed, so that a named rank equal to another of another type (1,
# 1.0, True) is told by its own repr.
_reading = functools.lru_cache(maxsize=4096, typed=True)(_read_play)


def _remove(hand: tuple[str, ...], cards) -> tuple[str, ...]:
    """The hand less these cards (which it holds), still in hand order."""
    out = list(hand)
    for c in cards:
        out.remove(c)
    return tuple(out)


_new_object = object.__new__
_set_state_fields = fields_setter(State)


# == invariants ===================================================================================
def _problems(engine: Empereur, state: State) -> list[str]:
    problems = engine.common_problems(state)
    players = state.players
    n = len(players)
    if state.phase not in PHASES:
        problems.append(f"unknown phase {state.phase!r}")
    for name in ("hands", "roles", "previous_roles", "rounds_won", "rounds_lost", "points"):
        if len(getattr(state, name)) != n:
            problems.append(f"{name} must have one entry per player")
    if not 0 <= state.dealer < max(n, 1):
        problems.append(f"the dealer index {state.dealer} is past the players")
    if not 0 <= state.current < max(n, 1):
        problems.append(f"the turn index {state.current} is past the players")
    if len(state.pile) != len(state.pile_ranks):
        problems.append("the pile and its ranks differ in length")
    for name in ("emperor", "previous_emperor"):
        seat = getattr(state, name)
        if seat is not None and not 0 <= seat < n:
            problems.append(f"the {name} index {seat} is past the players")
    if problems:
        return problems
    opts = state.options
    # cards
    try:
        deck = standard_deck(jokers=opts.jokers)
    except Exception:  # pragma: no cover - options already checked
        return problems + ["the deck cannot be built from the options"]
    places = {f"{p}'s hand": h for p, h in zip(players, state.hands)}
    places["the stock"] = state.stock
    places["the pile"] = state.pile
    problems += conservation_problems(places, deck)
    if problems:
        return problems
    for p, h in zip(players, state.hands):
        if tuple(h) != sort_hand(h):
            problems.append(f"{p}'s hand is not sorted by strength")
    if not 0 <= state.stock_known <= len(state.stock):
        problems.append(f"stock_known {state.stock_known}: the stock holds "
                        f"{len(state.stock)} cards")
    else:
        problems += stock_origin_problems(
            state.stock[:len(state.stock) - state.stock_known], state.stock_step,
            state.stock_shuffled, state.stock_start, len(deck), state.step, HAND_SIZE * n,
            drawn_first="front")
    for c, r in zip(state.pile, state.pile_ranks):
        if r not in STRENGTH:
            problems.append(f"pile card {c} counts as {r!r}, not a rank")
        elif not is_joker(c) and c[0] != r:
            problems.append(f"pile card {c} counts as {r}, not its own rank")
    if problems:
        return problems
    ranks = [STRENGTH[r] for r in state.pile_ranks]
    if any(b < a for a, b in zip(ranks, ranks[1:])):
        problems.append("the pile's ranks go down: each play is at least the rank below it")
    if TWO in state.pile_ranks and state.phase != "finished":
        problems.append("a two stays on the pile: it clears the pile at once")
    if (state.last_player is None) != (not state.pile):
        problems.append("the pile's last player must be set exactly when the pile has cards")
    if state.last_player is not None and not 0 <= state.last_player < n:
        problems.append("the pile's last player is past the players")
    if state.round < 1:
        problems.append("the round number starts at 1")
    if not opts.elite and state.round > opts.rounds:
        problems.append(f"round {state.round} is past the {opts.rounds} rounds of the match")
    if any(x < 0 for x in state.rounds_won + state.rounds_lost + state.points):
        problems.append("round counts and points are never negative")
    if any(r not in ROLES and r != "" for r in state.roles + state.previous_roles):
        problems.append("unknown role")
        return problems
    mirror = opts.mirror
    winner_role, loser_role = ("elect", "outcast") if mirror else ("emperor", "subject")
    head_role = "outcast" if mirror else "emperor"
    done = state.round if state.phase == "finished" else state.round - 1
    for i, p in enumerate(players):
        if state.rounds_won[i] + state.rounds_lost[i] != done:
            problems.append(f"{p} has {state.rounds_won[i]} rounds won and "
                            f"{state.rounds_lost[i]} lost after {done} finished round(s)")
    if not opts.elite and any(state.points):
        problems.append("points are scored only in the Elite modes")
    if sum(state.rounds_lost if mirror else state.rounds_won) != done:
        problems.append("each finished round has exactly one "
                        + ("Outcast" if mirror else "Emperor"))

    def complete(roles: tuple[str, ...]) -> bool:
        return (roles.count(head_role) == 1
                and all(r in (winner_role, loser_role) for r in roles))

    def emperor_problems(roles: tuple[str, ...], emperor: int | None, which: str) -> list[str]:
        # Normal, Elite: the roles name him. Mirror: an Elect, if anyone went out the
        # regular way before a joker finish ended the round.
        if not mirror:
            if roles.count("emperor") == 1 and emperor != roles.index("emperor"):
                return [f"{which} Emperor is not the player whose role is emperor"]
        elif emperor is not None and roles[emperor] != "elect":
            return [f"{which} Emperor is not an Elect"]
        return []

    if state.round == 1 and (any(state.previous_roles) or state.previous_emperor is not None):
        problems.append("there are no previous roles in the first round")
    if state.round > 1 and not complete(state.previous_roles):
        problems.append("the last round's roles need one " + head_role + " and "
                        + (("Elect" if mirror else "Subjects") + " for the rest"))
    elif state.round > 1:
        problems += emperor_problems(state.previous_roles, state.previous_emperor,
                                     "the last round's")
    target = opts.target_points
    if opts.elite:
        reached = [p for p, pts in zip(players, state.points) if pts >= target]
        if state.phase != "finished" and reached:
            problems.append("a player reached the target but the match goes on")
        if state.phase == "finished" and len(reached) != 1:
            problems.append("a finished Elite match has exactly one player at the target")
    if state.phase == "finished":
        if not complete(state.roles):
            problems.append("a finished match keeps its last round's complete roles")
        else:
            problems += emperor_problems(state.roles, state.emperor, "the last round's")
            if opts.elite and reached and state.roles[players.index(reached[0])] != head_role:
                problems.append("the player at the target must be the last round's "
                                + head_role)
        if not opts.elite and state.round != opts.rounds:
            problems.append("a match in rounds ends after its last round")
        if state.gifts or state.exchange_stage or state.drawn:
            problems.append("a finished match has no exchange and no turn in progress")
        return problems
    if state.phase == "exchange":
        if any(state.roles):
            problems.append("roles are given out only once play starts")
        if state.pile or state.drawn:
            problems.append("the pile is empty and nobody has drawn during the exchange")
        if state.round < 2:
            problems.append("there is no exchange before the first round")
        if state.emperor is not None:
            problems.append("nobody is this round's Emperor before play starts")
        stages = 2 * len(EXCHANGES[opts.mode])
        if not 1 <= state.exchange_stage <= stages:
            problems.append(f"an exchange of mode {opts.mode} is at a stage from 1 to {stages}"
                            if stages else f"mode {opts.mode} has no exchange")
        elif complete(state.previous_roles):
            plan = _gift_plan(opts, state.exchange_stage, state.previous_roles,
                              state.previous_emperor)
            if not state.gifts or any(gf not in plan for gf in state.gifts) \
                    or len(set(state.gifts)) != len(state.gifts):
                problems.append("the gifts due do not match the last round's roles")
            else:
                problems += _giver_problems(state)
        if sum(len(h) for h in state.hands) != HAND_SIZE * n:
            problems.append("the exchange moves cards between the seven-card hands only")
        return problems
    # play phase
    if state.gifts or state.exchange_stage:
        problems.append("no gifts are due outside the exchange")
    allowed = ("", "elect") if mirror else ("", "subject")
    if any(r not in allowed for r in state.roles):
        problems.append("during play a player is still in, or out as "
                        + ("an Elect" if mirror else "a Subject (finished with a joker)"))
    active = [i for i, r in enumerate(state.roles) if r == ""]
    if len(active) < 2:
        problems.append("a round in play has at least two players still holding cards")
    for i, (p, r) in enumerate(zip(players, state.roles)):
        if r == "" and not state.hands[i]:
            problems.append(f"{p} still plays but holds no card")
        if r != "" and state.hands[i]:
            problems.append(f"{p} is out of the round but holds cards")
    if state.roles[state.current] != "":
        problems.append("the player to act is out of the round")
    if not mirror and state.emperor is not None:
        problems.append("a round in play has no Emperor yet: his finish ends it")
    if mirror and (state.emperor is None) != ("elect" not in state.roles):
        problems.append("the first Elect out of a round is its Emperor, and only he")
    elif mirror and state.emperor is not None and state.roles[state.emperor] != "elect":
        problems.append("this round's Emperor is not an Elect")
    if state.last_player is not None and state.last_player == state.current:
        problems.append("the pile's last player is to act: his pile should have been cleared")
    return problems


def _giver_problems(state: State) -> list[str]:
    """Each player who still owes gifts in the exchange holds a card for each of them: the
    hands' total alone lets one giver hold nothing while another holds his cards."""
    owed = Counter(giver for giver, _ in state.gifts)
    return [f"{state.players[giver]} owes {count} card(s) in the exchange but holds "
            f"{len(state.hands[giver]) or 'none'}"
            for giver, count in sorted(owed.items()) if len(state.hands[giver]) < count]
