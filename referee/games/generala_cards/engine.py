"""The Générala (cards) engine: the service's entry points, each handing the rule it asks to
the module that enforces it (docs/rules/generala-cards.md).

  declarations  options, presets and moves
  tricks        who may lay what, laying, refusing, who leads next
  deals         dealing, the end of a deal and of the match, the scores
  invariants    what a posted state must satisfy

A move is legal when it is among the choices the trick rules give the player to act; any
other move is refused naming the rule it breaks. A view shows a player his own hand only.
"""

from __future__ import annotations

import msgspec

from referee.core import chance
from referee.core.engine import Engine
from referee.core.errors import IllegalMove

from . import deals, declarations, invariants, tricks, wire
from .deck import in_card_order
from .state import Options, State


class GeneralaCards(Engine):
    id = "generala-cards"
    name = "Générala (cards)"
    summary = ("Cameroonian trick-taking game: follow suit or take a card back; whoever still "
               "holds cards when all others are out loses and deals the next deal.")
    min_players = declarations.MIN_PLAYERS
    max_players = declarations.MAX_PLAYERS
    state_type = State
    event_types = wire.EVENTS
    view_type = wire.View
    scores_type = wire.Scores
    hint_levels = ("easy", "medium", "hard")
    options = declarations.OPTIONS
    option_rules = declarations.OPTION_RULES
    move_types = declarations.MOVE_TYPES

    # -- options -------------------------------------------------------------------------------
    def resolve_options(self, given):
        return super().resolve_options(declarations.with_preset(given))

    def check_option_combination(self, options):
        return declarations.check_dealer_text(options)

    # -- creation ------------------------------------------------------------------------------
    def new_match(self, players, options, seed, *, now):
        players = tuple(players)
        opts = Options(**options)
        dealer, step = deals.first_dealer(players, opts, seed)
        eliminated = (0,) * len(players)
        hands, leader, first_lead = deals.deal(len(players), eliminated, dealer, seed, step)
        return State(players=players, options=opts, seed=seed, step=step + 1, deal=1,
                     dealer=dealer, hands=hands, trick=(), leader=leader, current=leader,
                     discards=(), eliminated=eliminated, first_lead=first_lead)

    def opening_events(self, state):
        # The first deal, as a later deal is announced: who deals, who leads, each his hand.
        # Without a `dealer` option the dealer was drawn at step 0 and the cards shuffled at
        # step 1; with one, the cards were shuffled at step 0.
        events = deals.deal_events(state.players, state.eliminated, state.dealer,
                                   state.leader, state.hands, state.deal, state.step - 1)
        if not state.options.dealer:
            events[0]["chance"] = chance.pick(0, state.players, "dealer")
        return events

    # -- queries -------------------------------------------------------------------------------
    def is_finished(self, state: State) -> bool:
        return deals.is_finished(state)

    def to_act(self, state, *, now=0.0):
        if deals.is_finished(state):
            return []
        return [state.players[state.current]]

    def legal_moves(self, state, *, now=0.0):
        if deals.is_finished(state):
            return []
        player = state.players[state.current]
        _, plays, takes = tricks.choices(state)
        moves = [{"type": "play", "player": player, "card": c} for c in in_card_order(plays)]
        if takes:
            moves += [{"type": "refuse", "player": player, "take": c}
                      for c in in_card_order(takes)]
        return moves

    def scores(self, state):
        return deals.scores(state)

    def view(self, state, player):
        players = state.players
        seat = players.index(player) if player in players else None
        finished = deals.is_finished(state)
        return {
            "you": player,
            "players": list(players),
            "deal": state.deal,
            "dealer": players[state.dealer],
            "leader": None if finished else players[state.leader],
            "to_act": None if finished else players[state.current],
            "hand": in_card_order(state.hands[seat]) if seat is not None else [],
            "trick": [{"player": players[p.seat], "card": p.card} for p in state.trick],
            "cards": {p: len(h) for p, h in zip(players, state.hands)},
            "out_of_deal": [p for s, p in enumerate(players)
                            if state.eliminated[s] == 0 and not state.hands[s] and not finished],
            "out_of_match": {p: lost for p, lost in zip(players, state.eliminated) if lost},
            "finished": finished,
            "winner": (players[state.eliminated.index(0)]
                       if finished and 0 in state.eliminated else None),
            "options": msgspec.structs.asdict(state.options),
        }

    # -- applying a move -----------------------------------------------------------------------
    def apply(self, state, move, *, now=0.0, told=True):
        # The player to act passes the common refusals at once; anyone else is refused by them.
        if deals.is_finished(state) or move["player"] != state.players[state.current]:
            self.check_can_move(state, move, now=now)
        kind = move.get("type")
        allowed = tricks.choices(state)
        _, plays, takes = allowed
        if kind == "play":
            card = move.get("card")
            if isinstance(card, str) and card in plays:
                return tricks.lay(state, card, told)
        elif kind == "refuse":
            card = move.get("take")
            if isinstance(card, str) and card in takes:
                return tricks.refuse(state, card, told)
        else:
            raise IllegalMove("move_type", f"{kind!r} is not a move of {self.name}")
        raise tricks.illegal(state, move, allowed)

    # -- invariants ----------------------------------------------------------------------------
    def problems(self, state):
        problems = self.common_problems(state) + invariants.shape_problems(state)
        if problems:
            return problems
        return invariants.play_problems(state)
