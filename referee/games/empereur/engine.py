"""The Empereur engine: its options and moves (docs/rules/empereur.md, clauses 1, 5-8, 10,
19-20 and the section on legal moves), and the contract of `referee.core.engine.Engine` kept
by the rules of the modules beside it.

A match is created by the first round's dealer draw and deal. A move is refused unless its
player may act: in play the player whose turn it is, in the exchange each player who still
owes a gift, and only by `give`. `apply` opens the frozen state as a `Table`, runs the rules
on it and freezes it back into a new state.

Where each rule lives: the legal moves, `listing`; the working table, drawing and turns,
`table`; laying cards, `playing`; the exchanges, `exchanges`; a round's start and end,
`rounds`; the modes' scores and match ends, `scoring`; what a state must be, `invariants`.
"""

from __future__ import annotations

from referee.core.engine import Engine, Field, MoveType, Option
from referee.core.errors import IllegalMove

from . import invariants, wire
from .exchanges import exchange_of, give
from .listing import give_moves, play_moves
from .playing import play_move
from .ranks import RANK_ORDER
from .rounds import start_round
from .scoring import result, titles
from .state import MODES, Options, State
from .table import Table, advance, draw


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
        return opening(tuple(players), Options(**options), seed, told=False).freeze()

    def opening_events(self, state):
        # The first round's dealer draw and deal, replayed from the seed: the same draws.
        return opening(state.players, state.options, state.seed, told=True).events

    # -- queries -----------------------------------------------------------------------------
    def is_finished(self, state: State) -> bool:
        return state.phase == "finished"

    def to_act(self, state, *, now=0.0):
        if state.phase == "play":
            return [state.players[state.current]]
        if state.phase == "exchange":
            return [state.players[giver] for giver in sorted({g for g, _ in state.gifts})]
        return []

    def legal_moves(self, state, *, now=0.0):
        if state.phase == "play":
            return play_moves(state)
        if state.phase == "exchange":
            return give_moves(state)
        return []

    def scores(self, state):
        mirror = state.options.mirror
        this_round = titles(state.roles, state.emperor, mirror)
        last_round = titles(state.previous_roles, state.previous_emperor, mirror)
        players = {}
        for seat, p in enumerate(state.players):
            players[p] = {
                "total": state.points[seat] if state.options.elite else state.rounds_won[seat],
                "cards": len(state.hands[seat]),
                "role": state.roles[seat] or None,
                "previous_role": state.previous_roles[seat] or None,
                "roles": this_round[seat],
                "previous_roles": last_round[seat],
                "rounds_won": state.rounds_won[seat],
                "rounds_lost": state.rounds_lost[seat],
                "points": state.points[seat],
            }
        winners, losers = result(state)
        return {"players": players, "winners": winners, "losers": losers, "draw": False,
                "round": state.round, "mode": state.options.mode}

    def view(self, state, player):
        players = state.players
        me = players.index(player) if player in players else None

        def named(seat):
            return None if seat is None else players[seat]

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
            "last_player": named(state.last_player),
            "roles": {p: r or None for p, r in zip(players, state.roles)},
            "previous_roles": {p: r or None for p, r in zip(players, state.previous_roles)},
            "emperor": named(state.emperor),
            "previous_emperor": named(state.previous_emperor),
            "gifts_due": [{"from": players[g], "to": players[r]} for g, r in state.gifts],
            "exchange_stage": state.exchange_stage,
            "exchange": exchange_of(state.options, state.exchange_stage),
            "points": dict(zip(players, state.points)),
            "rounds_won": dict(zip(players, state.rounds_won)),
            "rounds_lost": dict(zip(players, state.rounds_lost)),
        }

    # -- applying a move ---------------------------------------------------------------------
    def check_can_move(self, state, move, *, now=0.0):
        # In play one player acts, the one whose turn it is: his move passes the common
        # refusals (a finished match, a stranger, not his turn) at once, any other goes
        # through them.
        if state.phase == "play" and move["player"] == state.players[state.current]:
            return
        super().check_can_move(state, move, now=now)

    def apply(self, state, move, *, now=0.0, told=True):
        self.check_can_move(state, move, now=now)
        kind = move.get("type")
        if state.phase == "exchange":
            if kind != "give":
                raise IllegalMove("exchange_first", "the round starts with the exchange of "
                                  "cards: only `give` moves are allowed now")
            table = Table(state, told)
            give(table, state.players.index(move["player"]), move.get("card"), move.get("to"))
            return table.freeze(), table.events
        if kind == "give":
            raise IllegalMove("no_exchange", "cards are given only in the exchange that "
                              "opens a round")
        table = Table(state, told)
        if kind == "play":
            play_move(table, move.get("cards"), move.get("rank"))
        elif kind == "draw":
            if state.drawn:
                raise IllegalMove("one_draw", "you have already drawn this turn: play or pass")
            table.drawn = True
            draw(table, state.current, 1, "turn")
        elif kind == "pass":
            if not state.drawn:
                raise IllegalMove("draw_before_pass", "draw a card before passing")
            if table.told:
                table.events.append({"type": "passed", "player": state.players[state.current]})
            advance(table, state.current)
        else:
            raise IllegalMove("move_type", f"{kind!r} is not a move of {self.name}")
        return table.freeze(), table.events

    # -- invariants --------------------------------------------------------------------------
    def problems(self, state):
        return invariants.problems(self, state)


def opening(players: tuple[str, ...], options: Options, seed: str, *, told: bool) -> Table:
    """The table of a new match, its first round dealt (and told, when `told`)."""
    n = len(players)
    blank = State(
        players=players, options=options, seed=seed, step=0, round=0,
        phase="play", dealer=0, hands=((),) * n, stock=(), stock_step=-1,
        stock_shuffled=None, stock_start=0, stock_known=0, pile=(),
        pile_ranks=(), last_player=None, current=0, drawn=False, roles=("",) * n,
        previous_roles=("",) * n, gifts=(), exchange_stage=0, rounds_won=(0,) * n,
        rounds_lost=(0,) * n, points=(0,) * n, emperor=None, previous_emperor=None,
    )
    table = Table(blank, told)
    start_round(table, 1)
    return table
