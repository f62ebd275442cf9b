"""The Huit américain engine: options, legal moves, applying a move, scores, views, invariants.

Speed matters (the referee is benchmarked on random play with the legal moves listed at every
step, against RLCard's UNO), so the hot paths read the compiled rule table (`rules.rules_of`)
and build each new state once. Every move goes through one working copy (`_Table`), which
holds the state's fields in a copy of its own field dict, so opening and freezing it costs two
dict copies and each rule has one implementation. Nothing is re-validated in
`apply` beyond the move itself: a state's invariants are checked by `problems`, when decoded.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from typing import Any

from referee.core import chance
from referee.core.chance import stock_origin_problems
from referee.core.cards import JOKER_RANK, SUITS, conservation_problems, shuffled, standard_deck
from referee.core.engine import Engine, Event, Field, Move, MoveType, Option, fields_setter
from referee.core.errors import GameOver, IllegalMove, InvalidOptions, NotYourTurn

from . import rules as _rules_module
from .rules import (ALL_CARDS, ATTACK_AMOUNTS, DEFAULT_POINTS, EFFECT_RANKS, EFFECTS, OFF,
                    Rules, hand_points, hand_size, max_players, rules_of, table_of,
                    table_problems)
from . import wire
from .state import AGAIN, ATTACK, GIVE, HUNT, OVER, PHASES, PLAY, Lack, Options, State

STUCK_CHOICES = ("pass", "draw_one", "draw_until_playable")
PENALTY_CARDS = 2  # drawn for a move against the rules (house rule) and for a missed "Carte"
GIVE_CARDS = 2  # given by the player of a give_two card, from his own hand
# How many forced moves ahead the referee plays, from a position a one-card reshuffle led to,
# looking for a position that comes back (an endless round). The loops met in random play
# last 4 to 6 moves.
LOOP_PROBE = 1_000
_add = operator.add
_new_object = object.__new__
_set_state_fields, _set_lack_fields = fields_setter(State), fields_setter(Lack)
_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(State))


def _effect_option(name: str) -> Option:
    default, what = EFFECTS[name]
    return Option("effect_" + name, "string", default,
                  f"the rank that carries the {name} effect ({what}); X for the jokers, "
                  "off to switch it off", choices=EFFECT_RANKS + (OFF,))


def _points_option(rank: str) -> Option:
    label = "the jokers" if rank == JOKER_RANK else f"a card of rank {rank}"
    return Option("points_" + rank, "integer", DEFAULT_POINTS[rank],
                  f"points {label} left in hand costs at the end of a round",
                  minimum=0, maximum=1000)


_LAY_FIELDS = (
    Field("card", "card", "the card laid"),
    Field("suit", "string", "the suit named; required for a card that names one (the 8), "
          "refused for any other", required=False, choices=SUITS),
    Field("target", "player", "the player chosen; required for a card whose effect targets "
          "one (swap_hands, give_two), refused for any other", required=False),
    Field("announce", "boolean", "\"Carte\": required to avoid a challenge when this card is "
          "the player's next-to-last; refused otherwise", required=False),
)


class HuitAmericain(Engine):
    id = "huit-americain"
    name = "Huit américain"
    summary = ("Crazy Eights with jokers: follow the suit or rank, attack with aces and jokers, "
               "change suit with an 8; the lowest total wins when someone reaches 100.")
    min_players = 2
    max_players = max_players(2)
    state_type = State
    event_types = wire.EVENTS
    view_type = wire.View
    scores_type = wire.Scores
    hint_levels = ("easy", "medium", "hard")
    options = (
        Option("decks", "integer", 1, "54-card decks used (2 allows more players and on_the_fly)",
               minimum=1, maximum=2),
        Option("when_stuck", "string", "pass", "what a player who cannot lay does: pass, draw one "
               "card (and lay it if he can), or draw until he can lay (pioche continue)",
               choices=STUCK_CHOICES),
        Option("target", "integer", 100, "the match ends when a total reaches this",
               minimum=1, maximum=100000),
        Option("draw_penalty_on_error", "boolean", False, "house rule: a move out of turn or "
               "against the rules makes its player draw 2 instead of being refused"),
        Option("on_the_fly", "boolean", False, "house rule (two decks): a player holding the exact "
               "card on top of the pile may lay it out of turn; play continues from him"),
        Option("no_finish_on_eight", "boolean", False, "house rule: the card that names a suit "
               "(the 8) cannot be a player's last card"),
        Option("attack_returns", "boolean", False, "house rule: a player who goes out on an attack "
               "that travels round back to him draws it, and the round goes on"),
        *(_effect_option(name) for name in EFFECTS),
        *(_points_option(rank) for rank in EFFECT_RANKS),
    )
    move_types = (
        MoveType("lay", "the player in turn lays a card", _LAY_FIELDS),
        MoveType("lay_out_of_turn", "on_the_fly: a player not in turn lays the exact twin of the "
                 "card on top of the pile", _LAY_FIELDS),
        MoveType("draw", "draw: the penalty of a pending attack, a suit hunt, the card after a 10, "
                 "or the card(s) when_stuck allows a player who cannot lay"),
        MoveType("pass", "a player who cannot lay (and may not or cannot draw) passes his turn"),
        MoveType("challenge", "\"Contre-carte\": any opponent of a player who laid his "
                 "next-to-last card without announcing it makes him draw 2"),
        MoveType("give", "give_two: the player who laid it gives one card of his hand to the "
                 "player he chose (twice, or as many as he has left)",
                 (Field("card", "card", "the card given"),)),
    )

    # -- options and creation ----------------------------------------------------------------
    def resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """`Engine.resolve_options`, remembered for the option sets already accepted (a new
        match resolves the same few sets again and again); a fresh dict every time."""
        key = _options_key(given)
        resolved = _RESOLVED.get(key) if key is not None else None
        if resolved is None:
            resolved = super().resolve_options(given)
            if key is not None:
                if len(_RESOLVED) > _MEMO_LIMIT:
                    _RESOLVED.clear()
                _RESOLVED[key] = dict(resolved)
        return dict(resolved)

    option_rules = (
        "A rank carries at most one effect, besides stop, which may share its rank with any "
        "effect that is not an attack (draw_two, draw_four); an effect left at its default "
        "rank counts there.",
        "on_the_fly needs two decks (decks: 2).",
        "One deck seats 2 to 8 players, two decks 2 to 11.",
    )

    def creation_constraints(self) -> list[dict[str, Any]]:
        one_deck = {"properties": {"options": {"properties": {"decks": {"const": 1}}}}}
        return [
            {"if": one_deck,
             "then": {"properties": {"players": {"maxItems": max_players(1)}}}},
            {"if": {"properties": {"options": {
                "properties": {"on_the_fly": {"const": True}}, "required": ["on_the_fly"]}},
                "required": ["options"]},
             "then": {"properties": {"options": {
                 "properties": {"decks": {"const": 2}}, "required": ["decks"]}}}},
        ]

    def check_option_combination(self, options: dict[str, Any]) -> dict[str, Any]:
        problems = _compiled_options(options)[1]
        if problems:
            raise InvalidOptions("; ".join(problems), problems=list(problems))
        return options

    def player_range(self, options: dict[str, Any]) -> tuple[int, int]:
        """Two decks seat more players: as many as leave a stock after the deal."""
        return 2, max_players(options.get("decks", 1))

    def new_match(self, players, options, seed, *, now):
        opts, problems = _compiled_options(options)
        problems = list(problems)
        most = max_players(opts.decks)
        if not 2 <= len(players) <= most:
            problems.append(f"players: {len(players)} players, but {opts.decks} deck(s) "
                            f"leave a stock for 2 to {most}")
        if problems:
            raise InvalidOptions("; ".join(problems), problems=problems)
        return self._opening(tuple(players), opts, seed).freeze()

    def opening_events(self, state):
        # The first deal, replayed from the seed: the same shuffle, so the same hands.
        return self._opening(state.players, state.options, state.seed).events

    @staticmethod
    def _opening(players: tuple[str, ...], opts: Options, seed: str) -> "_Table":
        n = len(players)
        table = _Table.blank(players, opts, seed)
        table.totals = (0,) * n
        table.round_points = (0,) * n
        table.round = 0
        table.deal()
        return table

    # -- queries -----------------------------------------------------------------------------
    def is_finished(self, state: State) -> bool:
        return state.phase == OVER

    def to_act(self, state, *, now):
        if state.phase == OVER:
            return []
        extra = _extra_actors(state, rules_of(state.options))
        current = state.players[state.current]
        if not extra:
            return [current]
        return [current] + [state.players[j] for j in sorted(extra)]

    def legal_moves(self, state, *, now):
        global _listed
        phase = state.phase
        if phase == OVER:
            return []
        listing = _last_listing  # `_listing_tables` without the call, when it is a hit
        if listing[0] is state.players and listing[1] is state.options:
            rules, seats = listing[2], listing[3]
        else:
            rules, seats = _listing_tables(state.players, state.options)
        i = state.current
        hand = state.hands[i]
        mine = seats[i]
        moves: list[Move] = []
        # Cards naming a suit or a player, and the next-to-last card (with or without
        # "Carte"), list more than one move each.
        if phase == PLAY and rules.simple:
            # the commonest case: the cards that follow, those `_layable` gives, are listed as
            # they are met in the hand
            following = rules.following[state.suit][state.rank]
            lays = mine.lay_last if len(hand) == 2 else mine.lay
            for card in hand:  # a loop, not a comprehension: no frame for a few cards
                if card in following:
                    try:
                        moves += lays[card]
                    except KeyError:  # the first time this seat lists this card
                        moves += mine.made(lays, card)
            cards = len(moves)  # as true as the layable cards (each lists a move at least)
        else:
            cards = _layable(state, rules, hand)
            if cards:
                lays = mine.lay_last if len(hand) == 2 else mine.lay
                for card in cards:
                    try:
                        moves += lays[card]
                    except KeyError:
                        moves += mine.made(lays, card)
        _listed = (state, cards)
        if phase != PLAY or not cards:  # what else the player in turn may do
            if phase == ATTACK or phase == HUNT:
                moves.append(mine.draw)
            elif phase == GIVE:
                moves += map(mine.give.__getitem__, dict.fromkeys(hand))
            elif phase == AGAIN:
                if state.stock or len(state.pile) > 1:
                    moves.append(mine.draw)
                elif not cards:
                    moves.append(mine.pass_)
            elif rules.stuck != "pass" and (state.stock or len(state.pile) > 1):
                moves.append(mine.draw)
            else:
                moves.append(mine.pass_)
        if state.unannounced >= 0 or rules.fly:  # what the others may do
            u = state.unannounced
            if u >= 0 and len(state.hands[u]) == 1:
                for j, other in enumerate(seats):
                    if j != u:
                        moves.append(other.challenge)
            if rules.fly and phase != GIVE:
                top = state.pile[-1]
                for j, other in enumerate(seats):
                    if j != i and _may_fly(state.hands[j], top, rules):
                        moves += (other.fly_last if len(state.hands[j]) == 2
                                  else other.fly)[top]
        return moves

    def scores(self, state):
        players = {
            p: {"total": state.totals[j], "cards": len(state.hands[j]),
                "round_points": state.round_points[j]}
            for j, p in enumerate(state.players)
        }
        winners: list[str] = []
        draw = False
        if state.phase == OVER:
            low = min(state.totals)
            winners = [p for j, p in enumerate(state.players) if state.totals[j] == low]
            draw = len(winners) == len(state.players)
        return {"players": players, "winners": winners, "draw": draw, "round": state.round,
                "target": state.options.target}

    def view(self, state, player):
        seat = state.players.index(player) if player in state.players else None
        u = state.unannounced
        return {
            "you": player,
            "players": list(state.players),
            "round": state.round,
            "current": state.players[state.current],
            "phase": state.phase,
            "hand": list(state.hands[seat]) if seat is not None else [],
            "top": state.pile[-1],
            "suit": state.suit,
            "rank": state.rank,
            "direction": state.direction,
            "attack": state.attack,
            "hand_counts": {p: len(h) for p, h in zip(state.players, state.hands)},
            "stock_count": len(state.stock),
            "pile_count": len(state.pile),
            "pile": list(state.pile),
            "unannounced": state.players[u] if u >= 0 else None,
            "give_to": state.players[state.give_to] if state.give_to >= 0 else None,
            "give_left": state.give_left,
            "passes": state.passes,
            "totals": dict(zip(state.players, state.totals)),
            "options": dataclasses.asdict(state.options),
            "lacks": [{"player": state.players[lack.seat], "arrived": lack.arrived,
                       "suits": lack.suits, "ranks": lack.ranks} for lack in state.lacks],
        }

    # -- applying a move ---------------------------------------------------------------------
    def apply(self, state, move, *, now):
        if state.phase == OVER:
            raise GameOver("the match has finished")
        player = move["player"]
        players = state.players
        seat = state.current  # most moves are the player in turn's
        try:
            if players[seat] != player:
                seat = players.index(player)
        except ValueError:
            raise NotYourTurn(f"{player!r} is not a player of this match") from None
        last = _rules_module._last  # `rules_of` without the call, when it is a hit
        rules = last[1] if last[0] is state.options else rules_of(state.options)
        try:
            try:
                rule = _MOVES[move["type"]]
            except KeyError:
                rule = _unknown
            result = rule(state, move, rules, seat)
        except (NotYourTurn, IllegalMove) as refused:
            if not rules.penalise:
                raise
            result = _penalty(state, player, refused)
        after = result[0]
        # Only a reshuffle (or a deal) takes a random step; a deal starts a round afresh.
        if after.step != state.step and after.phase != OVER:
            for event in result[1]:
                if event["type"] == "reshuffled" and event["count"] == 1:
                    return self._ended_if_endless(result, rules)
        return result

    def _ended_if_endless(self, result: tuple[State, list[Event]],
                          rules: Rules) -> tuple[State, list[Event]]:
        """A round that can never end is blocked (docs/rules/huit-americain.md, "Endless
        rounds"). An endless round needs the cards laid to come back to the hands, through a
        stock rebuilt from the pile; one rebuilt from two cards or more is chance, which the
        next shuffle may change, so only a reshuffle of a single card can close a loop, and
        only a move that made one calls this. From its position, every move is played ahead
        while it is the only legal move of anyone: a position coming back (the random step
        aside, which a one-card shuffle does not use) means nobody can ever break the loop."""
        state, events = result
        seen = {_position(state)}
        ahead = state
        for _ in range(LOOP_PROBE):
            moves = self.legal_moves(ahead, now=0.0)
            if len(moves) != 1:
                return result  # someone has a choice
            move = moves[0]
            ahead, happened = _MOVES[move["type"]](ahead, move, rules,
                                                   ahead.players.index(move["player"]))
            if any(e["type"] == "round_ended" or (e["type"] == "reshuffled" and e["count"] > 1)
                   for e in happened):
                return result  # the round ends, or chance enters
            position = _position(ahead)
            if position in seen:
                t = _open_table(state, rules)
                t.events = list(events)
                t.end_round(blocked=True, endless=True)
                return _freeze(t), t.events
            seen.add(position)
        return result

    # -- invariants --------------------------------------------------------------------------
    def problems(self, state):
        problems = self.common_problems(state)
        players = state.players
        n = len(players)
        opts = state.options
        if any(p.startswith("options.") for p in problems):
            return problems
        problems += _combination_problems(opts)
        if state.round < 1:
            problems.append(f"round {state.round}: rounds count from 1")
        for name in ("hands", "totals", "round_points"):
            if len(getattr(state, name)) != n:
                problems.append(f"there must be one entry of {name} per player")
        if not 0 <= state.current < n:
            problems.append(f"the turn index {state.current} is past the players")
        if state.direction not in (1, -1):
            problems.append(f"direction {state.direction}: must be 1 or -1")
        if state.phase not in PHASES:
            problems.append(f"unknown phase {state.phase!r}")
        if not state.pile:
            problems.append("the pile is empty: a card is always face up")
        if state.suit is not None and state.suit not in SUITS:
            problems.append(f"the suit in force {state.suit!r} is not a suit")
        if state.rank is not None and state.rank not in EFFECT_RANKS:
            problems.append(f"the rank in force {state.rank!r} is not a rank")
        if state.suit is None and state.rank is not None:
            problems.append("a rank is in force without a suit")
        if state.attack < 0:
            problems.append("the pending attack is negative")
        if not 0 <= state.passes < max(n, 1):
            problems.append(f"{state.passes} passes in a row: a round blocks at {n}")
        if not -1 <= state.unannounced < n:
            problems.append(f"unannounced index {state.unannounced} is past the players")
        if any(t < 0 for t in state.totals) or any(t < 0 for t in state.round_points):
            problems.append("points cannot be negative")
        if problems:
            return problems
        deck = standard_deck(jokers=2, decks=opts.decks)
        places = {f"{p}'s hand": h for p, h in zip(players, state.hands)}
        places["the stock"] = state.stock
        places["the pile"] = state.pile
        problems += conservation_problems(places, deck)
        problems += stock_origin_problems(
            state.stock, state.stock_step, state.stock_shuffled, state.stock_start, len(deck),
            state.step, n * hand_size(n, opts.decks) + 1, drawn_first="back")
        rules = rules_of(opts)
        top_rank = state.pile[-1][0] if state.pile else None
        if state.phase == ATTACK:
            if state.attack <= 0:
                problems.append("the attack phase has no penalty pending")
            if top_rank not in rules.attack:
                problems.append("an attack is pending but the top card does not attack")
        elif state.attack:
            problems.append(f"a penalty of {state.attack} is pending outside the attack phase")
        if state.phase == HUNT and (state.suit is None or top_rank not in rules.names_suit):
            problems.append("a suit hunt needs a named suit and a hunting card on top")
        if state.phase == AGAIN and top_rank not in _ranks_of(rules, "play_again"):
            problems.append("the play-again phase needs a play-again card on top")
        if state.phase == GIVE:
            if top_rank not in _ranks_of(rules, "give_two"):
                problems.append("the give phase needs a give-two card on top")
            if not 0 <= state.give_to < n or state.give_to == state.current:
                problems.append(f"give_to {state.give_to}: the give phase needs another player "
                                "to receive")
            if not 1 <= state.give_left <= min(GIVE_CARDS, len(state.hands[state.current])):
                problems.append(f"give_left {state.give_left}: 1 or 2 cards, no more than the "
                                "giver holds")
        elif state.give_to != -1 or state.give_left != 0:
            problems.append("a gift is pending outside the give phase")
        empty = [p for p, h in zip(players, state.hands) if not h]
        finished = state.phase == OVER
        top_total = max(state.totals) if state.totals else 0
        if finished and top_total < opts.target:
            problems.append(f"the match is over but no total reaches {opts.target}")
        if not finished and top_total >= opts.target:
            problems.append(f"a total reaches {opts.target} but the match goes on")
        if empty and not finished and not (state.phase == ATTACK and opts.attack_returns):
            problems.append(f"{', '.join(empty)} holds no card but the round goes on")
        if len(empty) == n and n:
            problems.append("every hand is empty")
        problems += _lack_problems(state, rules)
        return problems


def _lack_problems(state: State, rules: Rules) -> list[str]:
    """What is wrong with the public record of what the players lacked: each fact must name a
    player, suits and ranks, say something (fewer cards arrived than he holds) and hold of his
    hand; one fact per player and count."""
    problems = []
    n = len(state.players)
    seen = set()
    for lack in state.lacks:
        where = f"lacks: seat {lack.seat}, {lack.arrived} arrived"
        if not 0 <= lack.seat < n:
            problems.append(f"{where}: the seat is past the players")
            continue
        if not (_distinct_of(lack.suits, SUITS) and _distinct_of(lack.ranks, EFFECT_RANKS)):
            problems.append(f"{where}: suits {lack.suits!r} and ranks {lack.ranks!r} must be "
                            "distinct suits and ranks")
            continue
        hand = state.hands[lack.seat]
        if (lack.seat, lack.arrived) in seen:
            problems.append(f"{where}: facts with the same count are one fact")
        seen.add((lack.seat, lack.arrived))
        if not 0 <= lack.arrived < len(hand):
            problems.append(f"{where}: a fact says something only while fewer cards arrived "
                            f"than the {len(hand)} held")
            continue
        held = sum(1 for card in hand if _lacked(card, lack, rules))
        if held > lack.arrived:
            problems.append(f"{where}: {state.players[lack.seat]} holds {held} cards of "
                            f"{lack.suits or '-'} / {lack.ranks or '-'} or wild, more than "
                            "arrived since he lacked them")
    return problems


def _distinct_of(letters: str, alphabet: tuple[str, ...]) -> bool:
    return len(set(letters)) == len(letters) and all(c in alphabet for c in letters)


def _lacked(card: str, lack: Lack, rules: Rules) -> bool:
    """Whether `card` is one of those the fact says he lacked."""
    return card[1] in lack.suits or card[0] in lack.ranks or card[0] in rules.wild


def _lack(seat: int, arrived: int, suits: str, ranks: str) -> Lack:
    """`Lack(seat, arrived, suits, ranks)`, its fields given as one dict (in field order), as
    `_Table.freeze` makes a state: the frozen dataclass's __init__ would set them one by one."""
    lack = _new_object(Lack)
    _set_lack_fields(lack, {"seat": seat, "arrived": arrived, "suits": suits, "ranks": ranks})
    return lack


def _joined(letters: str, letter: str, alphabet: tuple[str, ...]) -> str:
    """`letters` with `letter` too (not among them; all of `alphabet`), in the order of
    `alphabet` (remembered)."""
    key = (letters, letter)
    joined = _JOINED.get(key)
    if joined is None:
        if len(_JOINED) > _JOINED_LIMIT:
            _JOINED.clear()
        joined = _JOINED[key] = "".join(sorted(letters + letter, key=alphabet.index))
    return joined


_JOINED: dict[tuple[str, str], str] = {}
_JOINED_LIMIT = 8192  # the suits' merges and the commoner ranks' (most facts hold a few)


def _with_lack(lacks: tuple[Lack, ...], seat: int, suit: str, rank: str | None,
               arrived: int) -> tuple[Lack, ...]:
    """`lacks` with one more fact, merged into the player's fact of the same count."""
    for k, lack in enumerate(lacks):
        if lack.seat == seat and lack.arrived == arrived:
            suits = lack.suits if suit in lack.suits else _joined(lack.suits, suit, SUITS)
            ranks = lack.ranks if rank is None or rank in lack.ranks else _joined(
                lack.ranks, rank, EFFECT_RANKS)
            if suits == lack.suits and ranks == lack.ranks:
                return lacks
            return lacks[:k] + (_lack(seat, arrived, suits, ranks),) + lacks[k + 1:]
    return lacks + (_lack(seat, arrived, suit, rank or ""),)


def _after_arrivals(lacks: tuple[Lack, ...], seat: int, count: int) -> tuple[Lack, ...]:
    return tuple(_lack(seat, lack.arrived + count, lack.suits, lack.ranks)
                 if lack.seat == seat else lack for lack in lacks)


def _still_telling(lacks: tuple[Lack, ...], seat: int, held: int) -> tuple[Lack, ...]:
    """The facts left once the player holds `held` cards: one about as many cards as he
    holds or more says nothing."""
    for lack in lacks:
        if lack.seat == seat and lack.arrived >= held:
            return tuple(lack for lack in lacks if lack.seat != seat or lack.arrived < held)
    return lacks


# -- move listing helpers ----------------------------------------------------------------------
# The last state whose moves were listed, with its layable cards (or, in the commonest case,
# the number of their lays: the same truth value): a pass usually comes right after the
# listing, on the same state, and need not sort the hand again. One tuple, replaced whole, so
# concurrent threads never see a state with another's cards.
_listed: tuple[State | None, list[str] | int] = (None, [])


def _ranks_of(rules: Rules, effect: str) -> set[str]:
    return {r for r, e in rules.effect.items() if e == effect}


def _layable(state: State, rules: Rules, hand: tuple[str, ...]) -> list[str]:
    """The distinct cards of the player in turn he may lay now, in hand order."""
    phase = state.phase
    if phase == ATTACK:
        out: list[str] = []
        attack = rules.attack
        level = attack.get(state.pile[-1][0], 0)
        stop = rules.stop
        for card in hand:
            r = card[0]
            if (r == stop or attack.get(r, 0) >= level) and card not in out:
                out.append(card)
    elif phase == HUNT or phase == GIVE:
        return []
    else:
        out = list(filter(rules.following[state.suit][state.rank].__contains__, hand))
        if rules.decks == 2 and len(out) > 1:
            out = list(dict.fromkeys(out))
    if rules.no_finish is not None and len(hand) == 1 and out and out[0][0] == rules.no_finish:
        return []
    return out


def _may_fly(hand: tuple[str, ...], top: str, rules: Rules) -> bool:
    if top not in hand:
        return False
    return not (rules.no_finish is not None and len(hand) == 1 and top[0] == rules.no_finish)


def _lay_moves(kind: str, player: str, card: str, held: int, rules: Rules,
               players: tuple[str, ...], seat: int) -> tuple[Move, ...]:
    """The moves laying `card` makes, for a player holding `held` cards: one per suit it may
    name or player it may target, each with and without "Carte" when it is his next-to-last."""
    moves = []
    r = card[0]
    announces = (False, True) if held == 2 else (False,)
    if r in rules.names_suit:
        for announce in announces:
            for s in SUITS:
                moves.append({"type": kind, "player": player, "card": card, "suit": s,
                              "announce": announce})
    elif r in rules.targeted:
        for announce in announces:
            for j, other in enumerate(players):
                if j != seat:
                    moves.append({"type": kind, "player": player, "card": card,
                                  "target": other, "announce": announce})
    else:
        for announce in announces:
            moves.append({"type": kind, "player": player, "card": card, "announce": announce})
    return tuple(moves)


class _ByCard(dict):
    """card -> the moves it makes, each made the first time it is asked for."""

    __slots__ = ("make",)

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, card: str):
        made = self[card] = self.make(card)
        return made


class _Seat:
    """The moves one seat may be listed, for the players and rules of a match: each is made
    once and shared by every listing, as the engine contract allows (callers read listed moves
    and never change them), so listing costs a look-up per card, not a dict per move."""

    __slots__ = ("lay", "lay_last", "fly", "fly_last", "give", "draw", "pass_", "challenge",
                 "_making")

    def __init__(self, players: tuple[str, ...], seat: int, rules: Rules) -> None:
        player = players[seat]

        def laying(kind: str, held: int):
            return _ByCard(lambda card: _lay_moves(kind, player, card, held, rules, players,
                                                   seat))

        # indexed by card: its lays from a hand of more than two cards, and from two (where
        # "Carte" may be said), in turn and out of turn; those in turn, listed every move, are
        # plain dicts, which the interpreter indexes faster than one that makes its entries
        # when asked: a listing that misses makes them with `made`
        self.lay, self.lay_last = {}, {}
        self._making = (player, rules, players, seat)
        self.fly, self.fly_last = laying("lay_out_of_turn", 3), laying("lay_out_of_turn", 2)
        self.give = _ByCard(lambda card: {"type": "give", "player": player, "card": card})
        self.draw = {"type": "draw", "player": player}
        self.pass_ = {"type": "pass", "player": player}
        self.challenge = {"type": "challenge", "player": player}

    def made(self, lays: dict[str, tuple[Move, ...]], card: str) -> tuple[Move, ...]:
        """The lays of `card` in turn, made and kept in `lays` (`lay` or `lay_last`) the first
        time they are listed."""
        player, rules, players, seat = self._making
        held = 2 if lays is self.lay_last else 3
        made = lays[card] = _lay_moves("lay", player, card, held, rules, players, seat)
        return made


# The players and options listed last, with their rules and their seats' moves (one tuple,
# replaced whole, so threads never see a half-updated one), and the seats' moves of the
# players and rules met before, by value (a decoded state brings a new players tuple per
# request).
_last_listing: tuple[object, object, Rules | None, tuple[_Seat, ...]] = (None, None, None, ())
_SEATS: dict[tuple[tuple[str, ...], Rules], tuple[_Seat, ...]] = {}
_SEATS_LIMIT = 256


def _listing_tables(players: tuple[str, ...], options: Options) -> tuple[Rules, tuple[_Seat, ...]]:
    """The compiled rules of `options` and the seats' moves of `players` under them."""
    global _last_listing
    rules = rules_of(options)
    key = (players, rules)
    seats = _SEATS.get(key)
    if seats is None:
        if len(_SEATS) > _SEATS_LIMIT:
            _SEATS.clear()
        seats = _SEATS[key] = tuple(_Seat(players, j, rules) for j in range(len(players)))
    _last_listing = (players, options, rules, seats)
    return rules, seats


def _extra_actors(state: State, rules: Rules) -> set[int]:
    """Seats other than the player in turn who may act now (challenge, lay out of turn)."""
    extra: set[int] = set()
    u = state.unannounced
    i = state.current
    if u >= 0 and len(state.hands[u]) == 1:
        extra.update(j for j in range(len(state.players)) if j != u and j != i)
    if rules.fly and state.phase != GIVE:
        top = state.pile[-1]
        for j, hand in enumerate(state.hands):
            if j != i and _may_fly(hand, top, rules):
                extra.add(j)
    return extra


# -- applying ----------------------------------------------------------------------------------
def _position(state: State) -> State:
    """The state as far as the rest of the round is concerned: all of it but the random step
    (and the stock's record of it) and the public record of what the players lacked (which no
    rule reads)."""
    return dataclasses.replace(state, step=0, stock_step=0, lacks=())


def _unknown(state: State, move: Move, rules: Rules, seat: int):
    raise IllegalMove("move_type", f"{move['type']!r} is not a move of Huit américain")


def _check_turn(state: State, seat: int, move: Move) -> None:
    if seat != state.current:
        raise NotYourTurn(f"it is not {move['player']}'s turn")


def _lay(state: State, move: Move, rules: Rules, seat: int, fly: bool = False):
    """`lay` (and, `fly`, `lay_out_of_turn`): every check of the card laid, then the rule."""
    card = move["card"]
    hand = state.hands[seat]
    if fly:
        _check_fly(state, rules, seat, card)
    elif seat != state.current:
        raise NotYourTurn(f"it is not {move['player']}'s turn"
                          + (" (lay_out_of_turn lays a twin of the top card)"
                             if rules.fly else ""))
    try:
        k = hand.index(card)  # where it lies, for the rule to take it out
    except ValueError:
        raise IllegalMove("card_in_hand", f"{card} is not in {move['player']}'s hand") from None
    if not fly:
        phase = state.phase
        if phase == PLAY or phase == AGAIN:
            if card not in rules.following[state.suit][state.rank]:
                follow = state.suit if state.rank is None else f"{state.suit} or a {state.rank}"
                raise IllegalMove("follow_suit_or_rank", f"{card} does not follow: lay a "
                                  f"{follow} or a card laid on anything")
        elif phase == ATTACK:
            level = rules.attack.get(state.pile[-1][0], 0)
            r = card[0]
            if not (r == rules.stop or rules.attack.get(r, 0) >= level):
                raise IllegalMove("answer_attack", f"under attack, lay an attack card at least "
                                  f"as strong or a stopping card, or draw {state.attack}")
        elif phase == HUNT:
            raise IllegalMove("suit_hunt", f"draw until you get a {state.suit} first")
        else:
            raise IllegalMove("give_two", "give your cards first (move `give`)")
    if rules.no_finish is not None and len(hand) == 1 and card[0] == rules.no_finish:
        raise IllegalMove("no_finish_on_eight", f"{card} cannot be the last card (house rule)")
    named = move.get("suit")
    target = move.get("target")
    if named is None and target is None and card not in rules.special_cards:
        target_seat = -1  # a card that asks for nothing, given nothing
    else:
        target_seat = _suit_and_target(state, move, rules, card, named, target)
    announce = bool(move.get("announce", False))
    if announce and len(hand) != 2:
        raise IllegalMove("carte", "\"Carte\" is announced when laying the next-to-last card")
    t = _open_table(state, rules)
    _lay_card(t, seat, card, named, target_seat, announce, fly, k)
    return _freeze(t), t.events


def _check_fly(state: State, rules: Rules, seat: int, card: str) -> None:
    """What `lay_out_of_turn` needs before the card itself is checked."""
    if not rules.fly:
        raise IllegalMove("on_the_fly", "laying out of turn needs the on_the_fly house rule "
                          "(two decks)")
    if seat == state.current:
        raise IllegalMove("on_the_fly", "the player in turn lays with `lay`")
    if state.phase == GIVE:
        raise IllegalMove("on_the_fly", "wait until the cards of the give-two are given")
    if card != state.pile[-1]:
        raise IllegalMove("on_the_fly", f"only the exact twin of the top card "
                          f"{state.pile[-1]} may be laid out of turn, not {card}")


def _suit_and_target(state: State, move: Move, rules: Rules, card: str, named: str | None,
                     target: str | None) -> int:
    """The checks of the suit named and the player targeted, which the card's rank asks for
    or refuses; the seat targeted (-1: none)."""
    r = card[0]
    if r in rules.names_suit:
        if named not in SUITS:
            raise IllegalMove("name_a_suit", f"laying {card} names a suit: give `suit`")
    elif named is not None:
        raise IllegalMove("name_a_suit", f"{card} does not name a suit")
    if r in rules.targeted:
        if target not in state.players or target == move["player"]:
            raise IllegalMove("choose_a_player", f"{card} needs `target`: another player")
        return state.players.index(target)
    if target is not None:
        raise IllegalMove("choose_a_player", f"{card} does not target a player")
    return -1


def _lay_out_of_turn(state: State, move: Move, rules: Rules, seat: int):
    return _lay(state, move, rules, seat, True)


def _draw(state: State, move: Move, rules: Rules, seat: int):
    _check_turn(state, seat, move)
    phase = state.phase
    i = state.current
    player = state.players[i]
    t = _open_table(state, rules)
    if phase == ATTACK:
        count = t.attack
        got = _draw_cards(t, i, count, "attack")
        t.events.append({"type": "effect", "effect": "attack_taken", "player": player,
                         "penalty": count, "drawn": len(got)})
        t.attack = 0
        _end_turn(t, i, 1)
        t.over_if_someone_out()
        return _freeze(t), t.events
    if phase == GIVE:
        raise IllegalMove("give_two", "give your cards first (move `give`)")
    drawable = bool(state.stock) or len(state.pile) > 1
    if phase == HUNT:
        suit = state.suit
        got = t.draw_until(i, lambda c: c[1] == suit, "suit_hunt")
        t.phase = PLAY
        _stuck_after_draw(t, i, bool(got), stuck=False)
        return _freeze(t), t.events
    if phase == AGAIN:
        if not drawable:
            raise IllegalMove("nothing_to_draw", "the stock and the pile are exhausted: pass")
        _draw_cards(t, i, 1, "play_again")
        _end_turn(t, i, 1)
        return _freeze(t), t.events
    # PLAY
    if _layable(state, rules, state.hands[i]):
        raise IllegalMove("must_lay", "you hold a card you can lay: lay it")
    if rules.stuck == "pass":
        raise IllegalMove("stuck_passes", "a player who cannot lay passes (when_stuck=pass)")
    if not drawable:
        raise IllegalMove("nothing_to_draw", "the stock and the pile are exhausted: pass")
    if rules.stuck == "draw_one":
        _draw_cards(t, i, 1, "stuck")
    else:
        t.draw_until(i, None, "stuck")
    _stuck_after_draw(t, i, True, stuck=True)
    return _freeze(t), t.events


def _pass(state: State, move: Move, rules: Rules, seat: int):
    _check_turn(state, seat, move)
    phase = state.phase
    if phase == PLAY or phase == AGAIN:
        listed = _listed
        cards = listed[1] if listed[0] is state else _layable(state, rules, state.hands[seat])
        if phase == PLAY:
            if cards:
                raise IllegalMove("must_lay", "you hold a card you can lay: lay it")
            if rules.stuck != "pass" and (state.stock or len(state.pile) > 1):
                raise IllegalMove("must_draw", f"a player who cannot lay draws "
                                  f"(when_stuck={rules.stuck})")
        else:
            if state.stock or len(state.pile) > 1:
                raise IllegalMove("play_again", "after a 10, lay another card or draw one")
            if cards:
                raise IllegalMove("must_lay", "nothing to draw: lay a card")
    elif phase == GIVE:
        raise IllegalMove("give_two", "give your cards first (move `give`)")
    else:
        raise IllegalMove("must_draw", "under attack or a suit hunt, draw" if phase == ATTACK
                          else "draw until you get the named suit")
    t = _open_table(state, rules)
    _pass_turn(t, seat)
    return _freeze(t), t.events


def _give(state: State, move: Move, rules: Rules, seat: int):
    _check_turn(state, seat, move)
    if state.phase != GIVE:
        raise IllegalMove("give_two", "a card is given only after laying a give-two card")
    card = move["card"]
    if card not in state.hands[seat]:
        raise IllegalMove("card_in_hand", f"{card} is not in {move['player']}'s hand")
    t = _open_table(state, rules)
    t.give(seat, card)
    return _freeze(t), t.events


def _challenge(state: State, move: Move, rules: Rules, seat: int):
    u = state.unannounced
    if u < 0 or len(state.hands[u]) != 1:
        raise IllegalMove("contre_carte", "nobody owes a \"Carte\" announce now")
    if seat == u:
        raise IllegalMove("contre_carte", "a player cannot challenge himself")
    t = _open_table(state, rules)
    t.unannounced = -1
    t.events.append({"type": "challenge", "player": state.players[seat],
                     "target": state.players[u], "penalty": PENALTY_CARDS})
    _draw_cards(t, u, PENALTY_CARDS, "contre_carte")
    return _freeze(t), t.events


# move type -> its rule: each checks the turn (or who may act) first, as `apply` dispatches.
_MOVES = {"lay": _lay, "lay_out_of_turn": _lay_out_of_turn, "draw": _draw, "pass": _pass,
          "challenge": _challenge, "give": _give}


def _penalty(state: State, player: str, refused) -> tuple[State, list[Event]]:
    rules = rules_of(state.options)
    t = _open_table(state, rules)
    seat = state.players.index(player)
    t.events.append({"type": "penalty", "player": player, "code": refused.code,
                     "rule": getattr(refused, "rule", "turn"), "detail": refused.detail,
                     "penalty": PENALTY_CARDS})
    _draw_cards(t, seat, PENALTY_CARDS, "penalty")
    return _freeze(t), t.events


class _Table:
    """A working copy of a state for the length of one move: the state's fields as attributes,
    held in a copy of its own field dict (the hands as a list, each hand a tuple replaced
    whole), beside the compiled rules and the events so far. Opening one is a dict copy and
    freezing one another: every move, the commonest included, goes through the same rules."""

    __slots__ = ("__dict__", "rules", "events")

    @staticmethod
    def of(state: State, rules: Rules) -> "_Table":
        t = _Table()  # no __init__: calling the class costs less than object.__new__(_Table)
        fields = state.__dict__.copy()
        fields["hands"] = [*fields["hands"]]
        t.__dict__ = fields
        t.rules = rules
        t.events = []
        return t

    @classmethod
    def blank(cls, players, options, seed) -> "_Table":
        t = cls()
        t.__dict__ = dict.fromkeys(_STATE_FIELDS)  # every field, in the state's order
        t.players = players
        t.options = options
        t.rules = rules_of(options)
        t.seed = seed
        t.step = 0
        t.events = []
        return t

    def freeze(self) -> State:
        """The new state, made of the working fields themselves (every one, in order): what
        `State(**fields)` gives, without the frozen dataclass's __init__ setting them one by
        one through object.__setattr__. A table is spent once frozen, at the end of its move."""
        fields = self.__dict__
        fields["hands"] = tuple(fields["hands"])
        state = _new_object(State)
        _set_state_fields(state, fields)
        return state

    # -- cards moving ------------------------------------------------------------------------
    def reshuffle(self) -> bool:
        """The pile but its top becomes the new stock; False if there is nothing to shuffle."""
        if len(self.pile) <= 1:
            return False
        self.stock = shuffled(self.pile[:-1], self.seed, self.step)
        drawn_from = chance.shuffle(self.step, self.pile[:-1])
        self.events.append({"type": "reshuffled", "count": len(self.stock),
                            "chance": drawn_from})
        self.stock_step, self.stock_shuffled = self.step, tuple(drawn_from["items"])
        self.stock_start = 0
        self.step += 1
        self.pile = self.pile[-1:]
        return True

    def draw(self, seat: int, count: int, reason: str) -> tuple[str, ...]:
        got: tuple[str, ...] = ()
        while len(got) < count:
            if not self.stock and not self.reshuffle():
                break
            take = min(count - len(got), len(self.stock))
            part = self.stock[len(self.stock) - take:][::-1]
            got += part
            self.stock = self.stock[:len(self.stock) - take]
            _cards_drawn(self, seat, part, reason)
        if not got:
            _cards_drawn(self, seat, got, reason)
        return got

    def draw_until(self, seat: int, wanted, reason: str) -> tuple[str, ...]:
        """Draw one card at a time until `wanted(card)` holds (None: until the player can lay)
        or nothing is left to draw."""
        got: list[str] = []
        part: list[str] = []  # the cards drawn from the stock as it is, before a reshuffle
        held = len(self.hands[seat])
        while True:
            if not self.stock:
                if part:
                    _cards_drawn(self, seat, tuple(part), reason)
                    part = []
                if not self.reshuffle():
                    break
            card = self.stock[-1]
            self.stock = self.stock[:-1]
            part.append(card)
            got.append(card)
            if wanted is not None:
                if wanted(card):
                    break
            elif _table_follows(self, card, held + len(got)):
                break
        if part or not got:
            _cards_drawn(self, seat, tuple(part), reason)
        return tuple(got)

    def _follows(self, card: str, held: int) -> bool:
        r = card[0]
        rules = self.rules
        if rules.no_finish is not None and held == 1 and r == rules.no_finish:
            return False
        return (self.suit is None or card[1] == self.suit or r == self.rank or r in rules.wild)

    def _drawn(self, seat: int, got: tuple[str, ...], reason: str) -> None:
        """The event of cards just drawn from the top of the stock as it was (a draw that
        runs through a reshuffle tells each stock's part apart): they lay, in the order drawn,
        at the positions of its shuffle just above what is left of it."""
        player = self.players[seat]
        event = {"type": "cards_drawn", "player": player, "count": len(got), "reason": reason,
                 "private": {"player": player, "cards": list(got)}}
        if got:
            self.hands[seat] = self.hands[seat] + got
            self.passes = 0
            if self.lacks:
                self.lacks = _after_arrivals(self.lacks, seat, len(got))
            if self.stock_step >= 0:  # a hand-made stock's order comes from no shuffle
                above = self.stock_start + len(self.stock) + len(got) - 1
                positions = range(above, above - len(got), -1)
                event["chance"] = chance.stock_draw(self.stock_step, self.stock_shuffled, 2,
                                                    self.options.decks, positions)
        self.events.append(event)

    def note_lack(self, seat: int, arrived: int) -> None:
        """The player in turn cannot lay: none of his cards but the last `arrived` drawn
        follows the suit and rank in force, nor is wild. Not noted for a single card under
        no_finish_on_eight (it may be the 8 he may not finish on)."""
        hand = self.hands[seat]
        if self.suit is None or len(hand) <= arrived or (
                self.rules.no_finish is not None and len(hand) == 1):
            return
        self.lacks = _with_lack(self.lacks, seat, self.suit, self.rank, arrived)

    def pass_turn(self, seat: int) -> None:
        """The player in turn cannot lay (nor draw): the table sees what he lacks, his turn
        ends, and the round is blocked once every player in a row has passed."""
        _note_lack(self, seat, 0)
        self.events.append({"type": "passed", "player": self.players[seat]})
        self.passes += 1
        if self.passes >= len(self.players):
            self.end_round(blocked=True)
        else:
            _end_turn(self, seat, 1)

    # -- turns -------------------------------------------------------------------------------
    def seat_after(self, seat: int, steps: int) -> int:
        return (seat + steps * self.direction) % len(self.players)

    def end_turn(self, seat: int, steps: int) -> None:
        self.current = _seat_after(self, seat, steps)
        self.phase = PLAY

    def stuck_after_draw(self, seat: int, drew: bool, stuck: bool) -> None:
        """After drawing in a PLAY turn: he plays on if he can lay, else his turn ends (and
        counts towards a blocked round if he drew nothing). Either way the table learns what
        he lacks: all of it if his turn ends; after drawing because he was `stuck`, all of it
        but the last card drawn (the draw stops at the first card that follows)."""
        hand = self.hands[seat]
        if any(_table_follows(self, c, len(hand)) for c in hand):
            if stuck:
                _note_lack(self, seat, 1)
            return
        _note_lack(self, seat, 0)
        self.events.append({"type": "passed", "player": self.players[seat]})
        if not drew:
            self.passes += 1
            if self.passes >= len(self.players):
                self.end_round(blocked=True)
                return
        _end_turn(self, seat, 1)

    def over_if_someone_out(self) -> bool:
        """attack_returns: once the attack is over, a player left with no card ends the round."""
        if any(not h for h in self.hands):
            self.end_round(blocked=False)
            return True
        return False

    def lay(self, seat: int, card: str, named: str | None, target: int, announce: bool,
            fly: bool, k: int = -1) -> None:
        """The player at `seat` lays `card`, the `k`th card of his hand (-1: not found yet)."""
        rules = self.rules
        player = self.players[seat]
        hand = self.hands[seat]
        if k < 0:
            k = hand.index(card)
        self.hands[seat] = hand = hand[:k] + hand[k + 1:]
        held = len(hand)
        if self.lacks:
            self.lacks = _still_telling(self.lacks, seat, held)
        self.pile += (card,)
        self.passes = 0
        self.unannounced = seat if held == 1 and not announce else -1
        r, names_suit, amount, effect, in_force = rules.laid[card]
        if names_suit:
            self.suit, self.rank = named, None
        elif in_force is not None:
            self.suit, self.rank = in_force
        event = {"type": "card_laid", "player": player, "card": card, "suit": self.suit,
                 "cards_left": held, "announce": announce}
        if fly:
            event["out_of_turn"] = True
        self.events.append(event)
        if announce:
            self.events.append({"type": "carte", "player": player})
        was_attack = self.phase == ATTACK
        if not hand and not (amount and rules.returns):
            # Going out ends the round at once; the last card's effect does not apply.
            if was_attack and r == rules.stop:
                self.attack = 0
            self.end_round(blocked=False)
            return
        if amount:
            self.attack = (self.attack if was_attack else 0) + amount
            self.phase = ATTACK
            nxt = _seat_after(self, seat, 1)
            self.events.append({"type": "effect", "effect": rules.effect[r], "player": player,
                                "on": self.players[nxt], "penalty": self.attack})
            self.current = nxt
            return
        if was_attack:
            # Only a stopping card gets here (the rest are refused before).
            self.events.append({"type": "effect", "effect": "stop", "player": player,
                                "cancelled": self.attack})
            self.attack = 0
            self.phase = PLAY
            if any(not h for h in self.hands):
                self.current = seat  # laid on the fly, he takes the turn even so
                self.end_round(blocked=False)
                return
        self.phase = PLAY
        if effect is None:
            self.current = (seat + self.direction) % len(self.players)
        else:
            _EFFECT_RULES[effect](self, seat, player, named, target)

    # -- the effects of the cards laid (`_EFFECT_RULES`): each moves the turn on itself --------
    def change_suit(self, seat: int, player: str, named: str | None, target: int) -> None:
        self.events.append({"type": "effect", "effect": "change_suit", "player": player,
                            "suit": named})
        self.current = _seat_after(self, seat, 1)

    def reverse(self, seat: int, player: str, named: str | None, target: int) -> None:
        self.direction = -self.direction
        self.events.append({"type": "effect", "effect": "reverse", "player": player,
                            "direction": self.direction})
        self.current = _seat_after(self, seat, 1)

    def skip(self, seat: int, player: str, named: str | None, target: int) -> None:
        self.events.append({"type": "effect", "effect": "skip", "player": player,
                            "skipped": self.players[_seat_after(self, seat, 1)]})
        self.current = _seat_after(self, seat, 2)

    def play_again(self, seat: int, player: str, named: str | None, target: int) -> None:
        self.phase = AGAIN
        self.events.append({"type": "effect", "effect": "play_again", "player": player})
        self.current = seat

    def swap_hands(self, seat: int, player: str, named: str | None, target: int) -> None:
        self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
        swapped = {seat: target, target: seat}
        self.lacks = tuple(dataclasses.replace(lack, seat=swapped.get(lack.seat, lack.seat))
                           for lack in self.lacks)
        self.events.append({"type": "effect", "effect": "swap_hands", "player": player,
                            "target": self.players[target],
                            "counts": {player: len(self.hands[seat]),
                                       self.players[target]: len(self.hands[target])}})
        self.current = _seat_after(self, seat, 1)

    def rotate_hands(self, seat: int, player: str, named: str | None, target: int) -> None:
        n = len(self.players)
        old = self.hands
        self.hands = [old[(j - self.direction) % n] for j in range(n)]
        self.lacks = tuple(dataclasses.replace(lack, seat=(lack.seat + self.direction) % n)
                           for lack in self.lacks)
        self.events.append({"type": "effect", "effect": "rotate_hands", "player": player,
                            "direction": self.direction})
        self.current = _seat_after(self, seat, 1)

    def give_two(self, seat: int, player: str, named: str | None, target: int) -> None:
        # He now gives cards of his own hand, one `give` move each, before the turn moves.
        count = min(GIVE_CARDS, len(self.hands[seat]))
        self.events.append({"type": "effect", "effect": "give_two", "player": player,
                            "target": self.players[target], "cards": count})
        self.phase = GIVE
        self.give_to = target
        self.give_left = count
        self.current = seat

    def all_draw_one(self, seat: int, player: str, named: str | None, target: int) -> None:
        self.events.append({"type": "effect", "effect": "all_draw_one", "player": player})
        for k in range(1, len(self.players)):
            _draw_cards(self, _seat_after(self, seat, k), 1, "all_draw_one")
        self.current = _seat_after(self, seat, 1)

    def suit_hunt(self, seat: int, player: str, named: str | None, target: int) -> None:
        nxt = _seat_after(self, seat, 1)
        self.events.append({"type": "effect", "effect": "suit_hunt", "player": player,
                            "suit": named, "on": self.players[nxt]})
        self.phase = HUNT
        self.current = nxt

    def give(self, seat: int, card: str) -> None:
        """One card of the give-two passes from its player to the player he chose; after the
        last one the turn moves on, or the round ends if the giver's hand is empty."""
        to = self.give_to
        hand = list(self.hands[seat])
        hand.remove(card)
        self.hands[seat] = hand = tuple(hand)
        self.hands[to] = self.hands[to] + (card,)
        if self.lacks:
            self.lacks = _still_telling(_after_arrivals(self.lacks, to, 1), seat, len(hand))
        self.give_left -= 1
        player = self.players[seat]
        self.events.append({"type": "card_given", "player": player, "to": self.players[to],
                            "cards_left": len(hand),
                            "private": {"players": [player, self.players[to]], "card": card}})
        if self.give_left and hand:
            return
        self.give_to = -1
        self.give_left = 0
        self.phase = PLAY
        if not hand:
            self.end_round(blocked=False)
            return
        self.current = _seat_after(self, seat, 1)

    # -- rounds ------------------------------------------------------------------------------
    def end_round(self, blocked: bool, endless: bool = False) -> None:
        points = self.rules.card_points
        scored = tuple([hand_points(h, points) for h in self.hands])
        self.round_points = scored
        self.totals = tuple(map(_add, self.totals, scored))
        self.attack = 0
        self.passes = 0
        self.unannounced = -1
        self.give_to = -1
        self.give_left = 0
        self.events.append({
            "type": "round_ended", "round": self.round, "blocked": blocked, "endless": endless,
            "out": [p for p, h in zip(self.players, self.hands) if not h],
            "points": dict(zip(self.players, scored)),
            "totals": dict(zip(self.players, self.totals)),
        })
        if max(self.totals) >= self.rules.target:
            self.phase = OVER
            low = min(self.totals)
            self.events.append({"type": "match_ended",
                                "winners": [p for p, x in zip(self.players, self.totals)
                                            if x == low],
                                "totals": dict(zip(self.players, self.totals))})
            return
        self.deal()

    def deal(self) -> None:
        """A new round: shuffle the whole deck, deal, turn one card up; the seat after the
        previous round's first player starts, in seat order."""
        n = len(self.players)
        decks = self.options.decks
        deal_step = self.step
        deck = shuffled(_deck(decks), self.seed, deal_step)
        self.step += 1
        size = hand_size(n, decks)
        self.hands = [deck[j * size:(j + 1) * size] for j in range(n)]
        start = deck[n * size]
        self.pile = (start,)
        self.stock = deck[n * size + 1:]
        self.stock_step, self.stock_shuffled, self.stock_start = deal_step, None, n * size + 1
        if start[0] == JOKER_RANK:
            self.suit, self.rank = None, None
        else:
            self.suit, self.rank = start[1], start[0]
        self.round += 1
        self.current = (self.round - 1) % n
        self.direction = 1
        self.phase = PLAY
        self.attack = 0
        self.passes = 0
        self.unannounced = -1
        self.give_to = -1
        self.give_left = 0
        self.lacks = ()
        self.events.append({"type": "round_started", "round": self.round,
                            "first": self.players[self.current], "top": start,
                            "hand_size": size, "stock_count": len(self.stock),
                            "chance": chance.deck_shuffle(deal_step, 2, decks, [n * size],
                                                          "top")})
        for j, p in enumerate(self.players):
            dealt = chance.deck_shuffle(deal_step, 2, decks, range(j * size, (j + 1) * size),
                                        "cards")
            self.events.append({"type": "cards_dealt", "player": p, "count": size,
                                "private": {"player": p, "cards": list(self.hands[j]),
                                            "chance": dealt}})


# `_Table.of` by a module name: a call of a static method through its class is looked up
# afresh every time, one through a module global is not. The same for the table's methods
# the commonest moves call, from outside a table or inside one: a method looked up on a table
# misses the interpreter's cache (each table holds a fresh copy of a state's dict), a module
# global does not.
_open_table = _Table.of
_freeze = _Table.freeze
_lay_card = _Table.lay
_pass_turn = _Table.pass_turn
_seat_after = _Table.seat_after
_end_turn = _Table.end_turn
_note_lack = _Table.note_lack
_cards_drawn = _Table._drawn
_draw_cards = _Table.draw
_stuck_after_draw = _Table.stuck_after_draw
_table_follows = _Table._follows

# effect -> its rule, a method of `_Table` (what laying a card of its rank does, once laid).
_EFFECT_RULES = {name: getattr(_Table, name) for name in EFFECTS
                 if name not in ATTACK_AMOUNTS and name != "stop"}

_MEMO_LIMIT = 256
_RESOLVED: dict[tuple, dict[str, Any]] = {}
_OPTIONS: dict[tuple, tuple[Options, tuple[str, ...]]] = {}


def _options_key(options: dict[str, Any]) -> tuple | None:
    """A dict of options as a hashable key, types included (True == 1, but they encode
    differently); None if a value cannot be hashed (a bad value: no memo)."""
    values = tuple(options.values())
    key = (tuple(options), values, tuple(map(type, values)))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _compiled_options(options: dict[str, Any]) -> tuple[Options, tuple[str, ...]]:
    """The Options object of a dict of option values and the clashes between them,
    remembered by value: every match with the same options shares one (immutable) object,
    so its compiled rules are found at once."""
    key = _options_key(options)
    hit = _OPTIONS.get(key) if key is not None else None
    if hit is None:
        opts = Options(**options)
        hit = (opts, tuple(_combination_problems(opts)))
        if key is not None:
            if len(_OPTIONS) > _MEMO_LIMIT:
                _OPTIONS.clear()
            _OPTIONS[key] = hit
    return hit


@functools.lru_cache(maxsize=8)
def _deck(decks: int) -> tuple[str, ...]:
    """The whole deck(s), sorted already: the order a deal's shuffle starts from. Made of the
    very string objects of `rules.ALL_CARDS`, which the compiled tables are keyed by, so every
    look-up of a dealt card in them, and every search of a hand for a listed move's card, meets
    its key at the first comparison (an identity) instead of comparing characters."""
    return tuple(sorted(ALL_CARDS * decks))


def _combination_problems(opts: Options) -> list[str]:
    return list(_judged_combination(opts))


@functools.lru_cache(maxsize=256)
def _judged_combination(opts: Options) -> tuple[str, ...]:
    """What is wrong with how these options combine, judged once per options value (a
    match's options never change, and every request of it posts them again)."""
    problems = table_problems(table_of(opts))
    if opts.on_the_fly and opts.decks != 2:
        problems.append("on_the_fly: laying out of turn needs two decks (decks=2)")
    return tuple(problems)
