"""Each move's rule: what makes it legal, then what it does (docs/rules/huit-americain.md, "Moves
and what the referee returns" and "The seed, clause by clause").

- `lay`: the player in turn lays a card of his hand he may lay (`laying`); a card that names
  a suit needs `suit`, one aimed at a player needs `target` (another player), any other card
  refuses both; "Carte" (`announce`) goes with the next-to-last card only.
- `lay_out_of_turn` (on_the_fly): a player not in turn lays the exact twin of the top card,
  except while the cards of a give-two are given; play goes on from him.
- `draw`: under attack he draws the whole penalty and his turn ends; under a suit hunt he
  draws until he gets the suit named, then plays on; after a 10 he draws one and his turn
  ends; stuck (nothing he may lay), he draws as `when_stuck` says (not with `pass`), if
  anything is left to draw.
- `pass`: stuck with nothing (allowed) to draw; after a 10, with nothing to draw nor lay.
- `challenge` ("Contre-carte"): any opponent of the player who laid his next-to-last card
  without "Carte", while he holds that one card; he draws 2, the turn stays.
- `give`: after laying a give-two card, one card of his hand to the player he chose.
- draw_penalty_on_error (house rule): a move refused for being out of turn or against the
  rules makes its player draw 2 instead, the turn unchanged (`penalty`).
"""

from __future__ import annotations

from typing import Callable

from referee.core.cards import SUITS
from referee.core.engine import Event, Move
from referee.core.errors import IllegalMove, NotYourTurn

from .effects import give_card, lay_card
from .laying import allowed_cards, layable, may_end_with
from .rules import Rules
from .state import AGAIN, ATTACK, GIVE, HUNT, PLAY, State
from .table import (Table, draw as draw_cards, draw_until, drawable, end_round, end_turn,
                    pass_turn, someone_out, stuck_after_draw)

PENALTY_CARDS = 2  # drawn for a move against the rules (house rule) and for a missed "Carte"

Outcome = tuple[State, list[Event]]


def check_turn(state: State, seat: int, move: Move) -> None:
    if seat != state.current:
        raise NotYourTurn(f"it is not {move['player']}'s turn")


def lay(state: State, move: Move, rules: Rules, seat: int, told: bool,
        fly: bool = False) -> Outcome:
    """`lay` (and, `fly`, `lay_out_of_turn`): every check of the card laid, then the rule."""
    card = move["card"]
    hand = state.hands[seat]
    if fly:
        check_fly(state, rules, seat, card)
    elif seat != state.current:
        raise NotYourTurn(f"it is not {move['player']}'s turn"
                          + (" (lay_out_of_turn lays a twin of the top card)"
                             if rules.fly else ""))
    if card not in hand:
        raise IllegalMove("card_in_hand", f"{card} is not in {move['player']}'s hand")
    if not fly and card not in allowed_cards(rules, state):
        raise not_following(state, card)
    if len(hand) == 1 and not may_end_with(rules, card):
        raise IllegalMove("no_finish_on_eight", f"{card} cannot be the last card (house rule)")
    named = move.get("suit")
    target = move.get("target")
    if named is None and target is None and card not in rules.special_cards:
        target_seat = -1  # a card that asks for nothing, given nothing
    else:
        target_seat = suit_and_target(state, move, rules, card, named, target)
    announce = bool(move.get("announce", False))
    if announce and len(hand) != 2:
        raise IllegalMove("carte", "\"Carte\" is announced when laying the next-to-last card")
    table = Table(state, rules, told)
    lay_card(table, seat, card, named, target_seat, announce, fly)
    return table.outcome()


def not_following(state: State, card: str) -> IllegalMove:
    """Why the player in turn may not lay `card` now, which `laying.allowed_cards` refuses
    (its rank aside: see `may_end_with`)."""
    phase = state.phase
    if phase == HUNT:
        return IllegalMove("suit_hunt", f"draw until you get a {state.suit} first")
    if phase == GIVE:
        return IllegalMove("give_two", "give your cards first (move `give`)")
    if phase == ATTACK:
        return IllegalMove("answer_attack", f"under attack, lay an attack card at least as "
                           f"strong or a stopping card, or draw {state.attack}")
    follow = state.suit if state.rank is None else f"{state.suit} or a {state.rank}"
    return IllegalMove("follow_suit_or_rank", f"{card} does not follow: lay a {follow} or a "
                       "card laid on anything")


def check_fly(state: State, rules: Rules, seat: int, card: str) -> None:
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


def suit_and_target(state: State, move: Move, rules: Rules, card: str, named: str | None,
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


def lay_out_of_turn(state: State, move: Move, rules: Rules, seat: int, told: bool) -> Outcome:
    return lay(state, move, rules, seat, told, fly=True)


def draw(state: State, move: Move, rules: Rules, seat: int, told: bool) -> Outcome:
    check_turn(state, seat, move)
    phase = state.phase
    if phase == GIVE:
        raise IllegalMove("give_two", "give your cards first (move `give`)")
    if phase == PLAY:
        if layable(rules, state, state.hands[seat]):
            raise IllegalMove("must_lay", "you hold a card you can lay: lay it")
        if rules.stuck == "pass":
            raise IllegalMove("stuck_passes", "a player who cannot lay passes (when_stuck=pass)")
    if (phase == PLAY or phase == AGAIN) and not drawable(state):
        raise IllegalMove("nothing_to_draw", "the stock and the pile are exhausted: pass")
    table = Table(state, rules, told)
    DRAWS[phase](table, seat)
    return table.outcome()


def take_attack(table: Table, seat: int) -> None:
    """Under attack: he draws the whole penalty and his turn ends."""
    count = table.attack
    got = draw_cards(table, seat, count, "attack")
    if table.told:
        table.events.append({"type": "effect", "effect": "attack_taken",
                             "player": table.players[seat], "penalty": count, "drawn": len(got)})
    table.attack = 0
    end_turn(table, seat)
    if someone_out(table):  # attack_returns: the attack over, a player with no card is out
        end_round(table, blocked=False)


def hunt(table: Table, seat: int) -> None:
    """Under a suit hunt: he draws until he gets the suit named, then plays on."""
    suit = table.suit
    got = draw_until(table, seat, lambda card: card[1] == suit, "suit_hunt")
    table.phase = PLAY
    stuck_after_draw(table, seat, len(got), stuck=False)


def draw_after_ten(table: Table, seat: int) -> None:
    """After a play-again card: he draws one instead of laying, and his turn ends."""
    draw_cards(table, seat, 1, "play_again")
    end_turn(table, seat)


def draw_stuck(table: Table, seat: int) -> None:
    """Stuck: one card, or until he may lay one (when_stuck); he lays if he then can."""
    if table.rules.stuck == "draw_one":
        got = draw_cards(table, seat, 1, "stuck")
    else:
        got = draw_until(table, seat, None, "stuck")
    stuck_after_draw(table, seat, len(got), stuck=True)


# phase -> what `draw` does in it
DRAWS: dict[str, Callable[[Table, int], None]] = {
    ATTACK: take_attack, HUNT: hunt, AGAIN: draw_after_ten, PLAY: draw_stuck}


def pass_(state: State, move: Move, rules: Rules, seat: int, told: bool) -> Outcome:
    check_turn(state, seat, move)
    phase = state.phase
    if phase == PLAY:
        if layable(rules, state, state.hands[seat]):
            raise IllegalMove("must_lay", "you hold a card you can lay: lay it")
        if rules.stuck != "pass" and drawable(state):
            raise IllegalMove("must_draw", f"a player who cannot lay draws "
                              f"(when_stuck={rules.stuck})")
    elif phase == AGAIN:
        if drawable(state):
            raise IllegalMove("play_again", "after a 10, lay another card or draw one")
        if layable(rules, state, state.hands[seat]):
            raise IllegalMove("must_lay", "nothing to draw: lay a card")
    elif phase == GIVE:
        raise IllegalMove("give_two", "give your cards first (move `give`)")
    else:
        raise IllegalMove("must_draw", "under attack or a suit hunt, draw" if phase == ATTACK
                          else "draw until you get the named suit")
    table = Table(state, rules, told)
    pass_turn(table, seat)
    return table.outcome()


def give(state: State, move: Move, rules: Rules, seat: int, told: bool) -> Outcome:
    check_turn(state, seat, move)
    if state.phase != GIVE:
        raise IllegalMove("give_two", "a card is given only after laying a give-two card")
    card = move["card"]
    if card not in state.hands[seat]:
        raise IllegalMove("card_in_hand", f"{card} is not in {move['player']}'s hand")
    table = Table(state, rules, told)
    give_card(table, seat, card)
    return table.outcome()


def challenge(state: State, move: Move, rules: Rules, seat: int, told: bool) -> Outcome:
    u = state.unannounced
    if u < 0 or len(state.hands[u]) != 1:
        raise IllegalMove("contre_carte", "nobody owes a \"Carte\" announce now")
    if seat == u:
        raise IllegalMove("contre_carte", "a player cannot challenge himself")
    table = Table(state, rules, told)
    table.unannounced = -1
    if table.told:
        table.events.append({"type": "challenge", "player": state.players[seat],
                             "target": state.players[u], "penalty": PENALTY_CARDS})
    draw_cards(table, u, PENALTY_CARDS, "contre_carte")
    return table.outcome()


def unknown_move(state: State, move: Move, rules: Rules, seat: int, told: bool) -> Outcome:
    raise IllegalMove("move_type", f"{move['type']!r} is not a move of Huit américain")


# move type -> its rule: each checks the turn (or who may act) first
MOVE_RULES: dict[str, Callable[[State, Move, Rules, int, bool], Outcome]] = {
    "lay": lay, "lay_out_of_turn": lay_out_of_turn, "draw": draw, "pass": pass_,
    "challenge": challenge, "give": give}


def penalty(state: State, rules: Rules, seat: int, refused: IllegalMove | NotYourTurn,
            told: bool) -> Outcome:
    """draw_penalty_on_error: the move refused, its player draws 2 instead."""
    table = Table(state, rules, told)
    player = state.players[seat]
    if table.told:
        table.events.append({"type": "penalty", "player": player, "code": refused.code,
                             "rule": getattr(refused, "rule", "turn"), "detail": refused.detail,
                             "penalty": PENALTY_CARDS})
    draw_cards(table, seat, PENALTY_CARDS, "penalty")
    return table.outcome()
