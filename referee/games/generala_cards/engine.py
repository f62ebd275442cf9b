"""The Générala (cards) engine: options, legal moves, applying a move, scores, views, invariants."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Collection
from typing import Any

from referee.core.cards import RANKS, conservation_problems, shuffled, standard_deck
from referee.core.engine import Engine, Event, Field, Move, MoveType, Option, evolve
from referee.core.errors import GameOver, IllegalMove, InvalidOptions, NotYourTurn
from referee.core import chance, rng

from . import wire
from .state import Options, Play, State

DECK = standard_deck(jokers=2)
DECK_SET = frozenset(DECK)
# Display / listing order: by suit (clubs, diamonds, hearts, spades), then rank, jokers last.
ORDER = {card: i for i, card in enumerate(DECK)}
# Strength of a card, low to high: 2 .. 10 J Q K A, then the joker above the ace.
STRENGTH = {card: (13 if card[0] == "X" else RANKS.index(card[0])) for card in DECK}

VARIANTS = ("french", "braille")
RULE_OPTIONS = ("lead_last_dealt_card", "no_joker_after_joker", "several_out_no_loser",
                "two_player_deal_decides", "tie_dealt_by_last_card")
PRESETS: dict[str, dict[str, bool]] = {
    # The French text (seed 000): none of the German additions; "à 2 joueurs ... un gagnant
    # et un perdant à l'issue de chaque partie".
    "french": {"lead_last_dealt_card": False, "no_joker_after_joker": False,
               "several_out_no_loser": False, "two_player_deal_decides": True,
               "tie_dealt_by_last_card": False},
    # The German text of the Braillespiel wiki (seed 002): no two-player clause; "wer in einer
    # Runde als letzter eine Karte hatte, gibt in der nächsten Runde".
    "braille": {"lead_last_dealt_card": True, "no_joker_after_joker": True,
                "several_out_no_loser": False, "two_player_deal_decides": False,
                "tie_dealt_by_last_card": True},
}


def _is_joker(card: str) -> bool:
    return card[0] == "X"


def _sorted(cards) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


@functools.lru_cache(maxsize=1024)
def _play_of(seat: int, card: str) -> Play:
    """The play of `card` by `seat`: a frozen value, so one instance serves every trick."""
    return Play(seat, card)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


class GeneralaCards(Engine):
    id = "generala-cards"
    name = "Générala (cards)"
    summary = ("Cameroonian trick-taking game: follow suit or take a card back; whoever still "
               "holds cards when all others are out loses and deals the next deal.")
    min_players = 2
    max_players = 10
    state_type = State
    event_types = wire.EVENTS
    view_type = wire.View
    scores_type = wire.Scores
    hint_levels = ("easy", "medium", "hard")
    options = (
        Option("variant", "string", "french",
               "which text's rules: 'french' (the default) or 'braille' (the German text); it "
               "sets the defaults of the rule booleans, which may each be given to override it",
               choices=VARIANTS),
        Option("lead_last_dealt_card", "boolean", False,
               "German text: the first trick of a deal is led with the card the leader was "
               "dealt last (default from the variant)"),
        Option("no_joker_after_joker", "boolean", False,
               "German text: right after a joker that was not the lead, the next player may "
               "not play a joker (default from the variant)"),
        Option("several_out_no_loser", "boolean", False,
               "literal reading of the French sentence: when two or more players play their "
               "last card in the trick that ends the deal, nobody loses it even if one player "
               "still holds cards (off in both presets)"),
        Option("two_player_deal_decides", "boolean", True,
               "French text: a deal played by two players always has a loser; if both lay "
               "their last card in the same trick, the one who laid it second (the last to "
               "hold a card) loses (default from the variant: on in french, off in braille, "
               "where such a deal has no loser and is dealt again)"),
        Option("tie_dealt_by_last_card", "boolean", False,
               "German text: after a deal without a loser, the last player who held a card "
               "(the one who laid the deal's last card) deals the next deal and plays in it; "
               "off: the same dealer deals again (default from the variant)"),
        Option("dealer", "string", "",
               "the first deal's dealer, as a player id or a seat index ('0', '1', ...); "
               "empty: drawn from the seed"),
    )
    move_types = (
        MoveType("play", "lay a card from the hand on the trick (a joker too)", (
            Field("card", "card", "the card laid"),
        )),
        MoveType("refuse", "unable to follow suit and laying no joker: end the trick at once, "
                 "taking one card of the trick (never a joker) into the hand", (
            Field("take", "card", "the card taken from the trick"),
        )),
    )

    # -- options -------------------------------------------------------------------------------
    def resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """The variant's preset fills the rule booleans not given; a boolean given explicitly
        wins over the preset (so `variant: "french"` plus `no_joker_after_joker: true` is the
        French rules with that one German rule)."""
        filled = dict(given)
        variant = given.get("variant", "french")
        preset = PRESETS.get(variant) if isinstance(variant, str) else None
        if preset:
            for name, value in preset.items():
                filled.setdefault(name, value)
        return super().resolve_options(filled)

    option_rules = (
        "dealer, when given, names a player of the match or a seat index below the number "
        "of players, with no surrounding spaces.",
    )

    def check_option_combination(self, options: dict[str, Any]) -> dict[str, Any]:
        dealer = options["dealer"]
        if dealer != dealer.strip():
            raise InvalidOptions("dealer: no surrounding spaces",
                                 problems=["dealer: no surrounding spaces"])
        return options

    @staticmethod
    def dealer_seat(players: tuple[str, ...], dealer: str) -> int | None:
        """The seat the `dealer` option names, or None if it names nobody."""
        if dealer in players:
            return players.index(dealer)
        if dealer.isdigit() and dealer.isascii() and int(dealer) < len(players):
            return int(dealer)
        return None

    # -- creation ------------------------------------------------------------------------------
    def new_match(self, players, options, seed, *, now):
        players = tuple(players)
        self.check_player_count(len(players))
        opts = Options(**options)
        step = 0
        if opts.dealer:
            dealer = self.dealer_seat(players, opts.dealer)
            if dealer is None:
                raise InvalidOptions(f"dealer: {opts.dealer!r} is not a player nor a seat",
                                     problems=["dealer: must name a player or a seat index"])
        else:
            dealer = rng.stream(seed, step).below(len(players))
            step += 1
        eliminated = (0,) * len(players)
        hands, leader, first_lead = _deal(len(players), eliminated, dealer, seed, step)
        return State(players=players, options=opts, seed=seed, step=step + 1, deal=1,
                     dealer=dealer, hands=hands, trick=(), leader=leader, current=leader,
                     discards=(), eliminated=eliminated, first_lead=first_lead)

    def opening_events(self, state):
        # The first deal, as a later deal is announced: who deals, who leads, each his hand.
        # Without a `dealer` option the dealer was drawn at step 0 and the cards shuffled at
        # step 1; with one, the cards were shuffled at step 0.
        events = _deal_events(state.players, state.eliminated, state.dealer, state.leader,
                              state.hands, state.deal, state.step - 1)
        if not state.options.dealer:
            events[0]["chance"] = chance.pick(0, state.players, "dealer")
        return events

    # -- queries -------------------------------------------------------------------------------
    def is_finished(self, state: State) -> bool:
        return state.eliminated.count(0) <= 1

    def to_act(self, state, *, now=0.0):
        if self.is_finished(state):
            return []
        return [state.players[state.current]]

    def _choices(self, state: State) -> tuple[Collection[str], Collection[str]]:
        """The cards the player to act may lay, and the cards he may take by refusing, in no
        set order (`legal_moves` lists them in card order; `apply` only asks membership)."""
        hand = state.hands[state.current]
        trick = state.trick
        if not trick:
            if state.options.lead_last_dealt_card and state.first_lead is not None:
                return (state.first_lead,), ()
            return hand, ()
        lead = trick[0].card
        if _is_joker(lead):
            return hand, ()
        led_suit = lead[1]
        follow = [c for c in hand if c[1] == led_suit]
        if follow:
            return follow, ()
        jokers = [c for c in hand if c[0] == "X"]
        if jokers and state.options.no_joker_after_joker and _is_joker(trick[-1].card):
            jokers = []
        return jokers, {p.card for p in trick if p.card[0] != "X"}

    def legal_moves(self, state, *, now=0.0):
        if self.is_finished(state):
            return []
        player = state.players[state.current]
        plays, takes = self._choices(state)
        moves = [{"type": "play", "player": player, "card": c} for c in _sorted(plays)]
        if takes:
            moves += [{"type": "refuse", "player": player, "take": c} for c in _sorted(takes)]
        return moves

    def scores(self, state):
        finished = self.is_finished(state)
        players = {}
        for seat, player in enumerate(state.players):
            lost = state.eliminated[seat]
            if lost:
                survived = lost - 1
            else:
                survived = state.deal if finished else state.deal - 1
            playing = lost == 0 or lost == state.deal
            players[player] = {
                "total": survived,
                "cards": len(state.hands[seat]),
                "out_of_deal": playing and not state.hands[seat],
                "out_of_match": lost > 0,
                "lost_deal": lost or None,
                "deals_lost": 1 if lost else 0,
            }
        winners = ([state.players[state.eliminated.index(0)]]
                   if finished and 0 in state.eliminated else [])
        losers = [p for p, lost in sorted(zip(state.players, state.eliminated),
                                          key=lambda pl: pl[1]) if lost]
        return {"players": players, "winners": winners, "draw": False, "losers": losers,
                "deal": state.deal}

    def view(self, state, player):
        players = state.players
        seat = players.index(player) if player in players else None
        finished = self.is_finished(state)
        return {
            "you": player,
            "players": list(players),
            "deal": state.deal,
            "dealer": players[state.dealer],
            "leader": None if finished else players[state.leader],
            "to_act": None if finished else players[state.current],
            "hand": _sorted(state.hands[seat]) if seat is not None else [],
            "trick": [{"player": players[p.seat], "card": p.card} for p in state.trick],
            "cards": {p: len(h) for p, h in zip(players, state.hands)},
            "out_of_deal": [p for s, p in enumerate(players)
                            if state.eliminated[s] == 0 and not state.hands[s] and not finished],
            "out_of_match": {p: lost for p, lost in zip(players, state.eliminated) if lost},
            "finished": finished,
            "winner": (players[state.eliminated.index(0)]
                       if finished and 0 in state.eliminated else None),
            "options": dataclasses.asdict(state.options),
        }


    def advise(self, view, moves, level):
        # Imported here: the hints import this module.
        from .hints import advise
        return advise(view, moves, level)

    # -- applying a move -----------------------------------------------------------------------
    def apply(self, state, move, *, now=0.0):
        # `check_can_move`, with the one player to act read straight from the state
        if self.is_finished(state):
            raise GameOver("the match has finished")
        player = move["player"]
        if player not in state.players:
            raise NotYourTurn(f"{player!r} is not a player of this match")
        if player != state.players[state.current]:
            raise NotYourTurn(f"it is not {player}'s turn")
        kind = move.get("type")
        plays, takes = self._choices(state)
        if kind == "play":
            card = move.get("card")
            if isinstance(card, str) and card in plays:
                return self._play(state, card)
        elif kind == "refuse":
            card = move.get("take")
            if isinstance(card, str) and card in takes:
                return self._refuse(state, card)
        else:
            raise IllegalMove("move_type", f"{kind!r} is not a move of {self.name}")
        raise self._why_illegal(state, move, plays, takes)

    def _why_illegal(self, state: State, move: Move, plays: list[str],
                     takes: list[str]) -> IllegalMove:
        hand = state.hands[state.current]
        trick = state.trick
        lead = trick[0].card if trick else None
        can_follow = lead is not None and not _is_joker(lead) and any(
            c[1] == lead[1] for c in hand)
        if move["type"] == "play":
            card = move.get("card")
            if not isinstance(card, str) or card not in hand:
                return IllegalMove("card_in_hand", f"{card!r} is not in {move['player']}'s hand")
            if lead is None:
                return IllegalMove("lead_last_dealt_card", "the first trick of a deal is led "
                                   f"with the card dealt last: {state.first_lead}")
            if can_follow:
                return IllegalMove("follow_suit", f"{card} does not follow the led suit "
                                   f"({lead}): a player able to follow must follow")
            if _is_joker(card):
                return IllegalMove("no_joker_after_joker", "right after a joker that was not "
                                   "the lead, the next player may not play a joker")
            return IllegalMove("follow_or_refuse", f"{card} does not follow the led suit "
                               f"({lead}): unable to follow, play a joker or refuse")
        take = move.get("take")
        if lead is None:
            return IllegalMove("refuse_needs_trick", "the leader lays a card; there is nothing "
                               "to refuse")
        if _is_joker(lead):
            return IllegalMove("joker_lead_any_card", "after a joker lead every card may be "
                               "played: refusing is for a player unable to follow")
        if can_follow:
            return IllegalMove("follow_suit", "a player able to follow suit must follow: "
                               "refusing is for a player unable to follow")
        if isinstance(take, str) and take in DECK_SET and _is_joker(take):
            return IllegalMove("take_no_joker", "the card taken on refusal is never a joker")
        return IllegalMove("take_from_trick", f"{take!r} is not a card of the trick: take one "
                           f"of {', '.join(_sorted(takes))}")

    def _play(self, state: State, card: str) -> tuple[State, list[Event]]:
        seat = state.current
        players = state.players
        hands = list(state.hands)
        hands[seat] = _without(hands[seat], card)
        trick = state.trick + (_play_of(seat, card),)
        events: list[Event] = [{"type": "card_played", "player": players[seat], "card": card,
                                "joker": _is_joker(card)}]
        if not hands[seat]:
            events.append({"type": "player_out", "player": players[seat], "deal": state.deal})
        n = len(players)
        nxt = (seat + 1) % n
        while nxt != state.leader and not hands[nxt]:
            nxt = (nxt + 1) % n
        if nxt != state.leader:
            return evolve(state, hands=tuple(hands), trick=trick, current=nxt,
                          first_lead=None), events
        # Everyone holding cards has laid one: the trick is complete.
        best = max(range(len(trick)), key=lambda i: (STRENGTH[trick[i].card], -i))
        events.append({"type": "trick_won", "player": players[trick[best].seat],
                       "card": trick[best].card, "cards": [p.card for p in trick]})
        discards = state.discards + tuple(p.card for p in trick)
        return self._after_trick(state, hands, trick, discards, None, events)

    def _refuse(self, state: State, take: str) -> tuple[State, list[Event]]:
        seat = state.current
        hands = list(state.hands)
        hands[seat] = hands[seat] + (take,)
        laid = tuple(p.card for p in state.trick)
        down = _without(laid, take)
        events: list[Event] = [{"type": "card_taken", "player": state.players[seat],
                                "card": take, "discarded": list(down)}]
        return self._after_trick(state, hands, state.trick, state.discards + down, seat, events)

    def _after_trick(self, state: State, hands: list[tuple[str, ...]], trick: tuple[Play, ...],
                     discards: tuple[str, ...], refuser: int | None,
                     events: list[Event]) -> tuple[State, list[Event]]:
        players = state.players
        holders = [s for s, h in enumerate(hands) if h]
        if len(holders) >= 2:
            leader = next_leader(trick, hands, refuser)
            events.append({"type": "trick_led_next", "player": players[leader]})
            return evolve(state, hands=tuple(hands), trick=(), leader=leader, current=leader,
                          discards=discards, first_lead=None), events
        # The deal is over: one player alone holds cards, or nobody does.
        eliminated = state.eliminated
        dealer = state.dealer
        went_out = {p.seat for p in trick if not hands[p.seat]}
        # The last player who held a card: the lone holder, else (everyone went out in this
        # trick, which is then complete) the one who laid its last card.
        last_holder = holders[0] if holders else trick[-1].seat
        in_match = state.eliminated.count(0)
        if (len(holders) == 1 and not (state.options.several_out_no_loser
                                       and len(went_out) >= 2)) or (
                not holders and in_match == 2 and state.options.two_player_deal_decides):
            loser = last_holder
            eliminated = eliminated[:loser] + (state.deal,) + eliminated[loser + 1:]
            dealer = loser
            events.append({"type": "deal_lost", "player": players[loser], "deal": state.deal,
                           "cards": len(hands[loser])})
        else:
            events.append({"type": "deal_without_loser", "deal": state.deal,
                           "players": [players[s] for s in sorted(went_out)]})
            if state.options.tie_dealt_by_last_card:
                dealer = last_holder
        if eliminated.count(0) == 1:
            winner = eliminated.index(0)
            events.append({"type": "match_won", "player": players[winner], "deal": state.deal})
            return dataclasses.replace(state, hands=tuple(hands), trick=(), current=-1,
                                       discards=discards, eliminated=eliminated,
                                       first_lead=None), events
        new_hands, leader, first_lead = _deal(len(players), eliminated, dealer, state.seed,
                                              state.step)
        deal = state.deal + 1
        events += _deal_events(players, eliminated, dealer, leader, new_hands, deal, state.step)
        return dataclasses.replace(state, step=state.step + 1, deal=deal, dealer=dealer,
                                   hands=new_hands, trick=(), leader=leader, current=leader,
                                   discards=(), eliminated=eliminated,
                                   first_lead=first_lead), events

    # -- invariants ----------------------------------------------------------------------------
    def problems(self, state):
        problems = self.common_problems(state)
        players = state.players
        n = len(players)
        if state.options.dealer and self.dealer_seat(players, state.options.dealer) is None:
            problems.append("options.dealer names no player nor seat")
        if state.deal < 1:
            problems.append("the deal number must be at least 1")
        if len(state.hands) != n:
            problems.append("there must be one hand per player")
        if len(state.eliminated) != n:
            problems.append("there must be one elimination entry per player")
        if not 0 <= state.dealer < n:
            problems.append(f"the dealer seat {state.dealer} is past the players")
        if not 0 <= state.leader < n:
            problems.append(f"the leader seat {state.leader} is past the players")
        bad_seats = [p.seat for p in state.trick if not 0 <= p.seat < n]
        if bad_seats:
            problems.append(f"trick seats {bad_seats} are past the players")
        if problems:
            return problems
        places = {f"{players[s]}'s hand": h for s, h in enumerate(state.hands)}
        places["the trick"] = [p.card for p in state.trick]
        places["the discards"] = state.discards
        problems += conservation_problems(places, DECK)
        problems += self._match_problems(state)
        problems += self._trick_problems(state)
        return problems

    def _match_problems(self, state: State) -> list[str]:
        problems = []
        players = state.players
        elim = state.eliminated
        finished = self.is_finished(state)
        if any(e < 0 or e > state.deal for e in elim):
            problems.append("a player is out of the match from a deal not yet played")
        lost = [e for e in elim if e]
        if len(set(lost)) != len(lost):
            problems.append("two players lost the same deal")
        if elim.count(0) == 0:
            problems.append("every player is out of the match")
        if not finished and state.deal in lost:
            problems.append("the current deal already has a loser but the match goes on")
        for s, e in enumerate(elim):
            if e and state.hands[s] and not (finished and e == state.deal):
                problems.append(f"{players[s]} is out of the match but holds cards")
            if e and any(p.seat == s for p in state.trick):
                problems.append(f"{players[s]} is out of the match but laid a card in the trick")
        if finished:
            if state.current != -1:
                problems.append("the match has finished but a player is named to act")
            if state.trick:
                problems.append("the match has finished with cards on the table")
        return problems

    def _trick_problems(self, state: State) -> list[str]:
        if self.is_finished(state):
            return []
        problems = []
        players = state.players
        hands = state.hands
        n = len(players)
        trick = state.trick
        cur = state.current
        if not 0 <= cur < n:
            return [f"the seat to act {cur} is past the players"]
        if state.eliminated[cur]:
            problems.append(f"{players[cur]}, named to act, is out of the match")
        elif not hands[cur]:
            problems.append(f"{players[cur]}, named to act, is out of this deal (no cards)")
        seats = [p.seat for p in trick]
        if len(set(seats)) != len(seats):
            problems.append("a player laid two cards in the same trick")
        if trick and trick[0].seat != state.leader:
            problems.append("the trick's first card was not laid by the leader")
        if cur in seats:
            problems.append(f"{players[cur]}, named to act, already laid a card in this trick")
        if not trick:
            if cur != state.leader:
                problems.append("nobody has led yet but the player to act is not the leader")
            if sum(1 for h in hands if h) < 2:
                problems.append("fewer than two players hold cards but the deal goes on")
        else:
            expected = (seats[-1] + 1) % n
            while expected != state.leader and not hands[expected]:
                expected = (expected + 1) % n
            if expected == state.leader:
                problems.append("every player holding cards has laid one: the trick should "
                                "be over")
            elif expected != cur:
                problems.append(f"{players[cur]} is named to act but {players[expected]} "
                                "is next")
            # Seats between two consecutive cards must be out of the deal.
            for a, b in zip(seats, seats[1:]):
                s = (a + 1) % n
                while s != b and s != state.leader:
                    if hands[s]:
                        problems.append(f"{players[s]} was skipped in the trick")
                        break
                    s = (s + 1) % n
            lead = trick[0].card
            if lead in DECK_SET and not _is_joker(lead):
                off = [p.card for p in trick[1:] if p.card in DECK_SET and not _is_joker(p.card)
                       and p.card[1] != lead[1]]
                if off:
                    problems.append(f"cards {off} do not follow the led suit of {lead}")
        if state.first_lead is not None:
            if trick:
                problems.append("first_lead is set but the first trick has been led")
            elif state.first_lead not in hands[state.leader]:
                problems.append("first_lead is not in the leader's hand")
        return problems


def next_leader(trick: tuple[Play, ...], hands: list[tuple[str, ...]],
                refuser: int | None) -> int:
    """Who leads after a trick: the player who laid the strongest card among those still
    holding cards (jokers above aces, the first joker above the second; equal ranks, possible
    only after a joker lead, go to the one laid first); if none of them holds cards, the
    refuser (the caller ensures someone does)."""
    best = None
    best_key = None
    for i, play in enumerate(trick):
        if hands[play.seat]:
            key = (STRENGTH[play.card], -i)
            if best_key is None or key > best_key:
                best, best_key = play.seat, key
    if best is None:
        # Nobody who laid a card holds one: only after a refusal, whose player holds cards.
        return refuser if refuser is not None else trick[0].seat
    return best


def _deal_events(players, eliminated, dealer, leader, hands, deal, step) -> list[Event]:
    events: list[Event] = [{
        "type": "deal_dealt", "deal": deal, "dealer": players[dealer],
        "dealer_plays": eliminated[dealer] == 0, "leader": players[leader],
        "cards": {players[s]: len(h) for s, h in enumerate(hands) if eliminated[s] == 0}}]
    order = _dealing_order(len(players), eliminated, dealer)
    for s, h in enumerate(hands):
        if h:
            # Card i of the shuffled deck went to order[i % len(order)].
            positions = [i for i in range(len(DECK)) if order[i % len(order)] == s]
            events.append({"type": "cards_dealt", "player": players[s], "count": len(h),
                           "private": {"player": players[s], "cards": list(h),
                                       "chance": chance.deck_shuffle(step, 2, 1, positions,
                                                                     "cards")}})
    return events


def _dealing_order(n: int, eliminated: tuple[int, ...], dealer: int) -> list[int]:
    """The seats still in the match, counter-clockwise from the dealer's right."""
    return [(dealer + i) % n for i in range(1, n + 1) if eliminated[(dealer + i) % n] == 0]


def _deal(n: int, eliminated: tuple[int, ...], dealer: int, seed: str,
          step: int) -> tuple[tuple[tuple[str, ...], ...], int, str]:
    """All 54 cards, shuffled at `step`, one at a time counter-clockwise to the players still
    in the match, starting at the dealer's right. Returns the hands, the first leader (the
    dealer's right) and the card he was dealt last."""
    order = _dealing_order(n, eliminated, dealer)
    deck = shuffled(DECK, seed, step)
    hands: list[list[str]] = [[] for _ in range(n)]
    k = len(order)
    for i, card in enumerate(deck):
        hands[order[i % k]].append(card)
    leader = order[0]
    return tuple(tuple(h) for h in hands), leader, hands[leader][-1]
