"""What a state of L'Empereur must be to be played on (docs/rules/empereur.md: the clauses the
state records, and the state checks its tests name).

Every per-player entry is there once per player and every index names a seat. The cards of
the hands, the stock and the pile are the deck of the options, each once; a hand is held in
hand order; the stock's shuffled part comes from its recorded shuffle. The pile's ranks go up
(each play at least the one below), a natural counts as its own rank, and a two never stays on
a pile in play. Round counts and points add up with the rounds finished and the mode's roles:
each finished round has one Emperor (Normal, Elite) or one Outcast (Mirror modes), points are
scored only in the Elite modes, and an Elite match ends when one player reaches the target.
During the exchange nobody has a role or has drawn, the gifts due are the stage's gifts from
the last round's roles, every giver holds a card for each gift he owes, and the hands hold
seven cards each in all. During play at least two players still hold cards, exactly they do,
the player to act is one of them, and the Emperor is set as the mode says.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.core.cards import conservation_problems, is_joker, standard_deck
from referee.core.chance import stock_origin_problems

from .exchanges import gift_plan
from .ranks import STRENGTH, TWO, sort_hand
from .rounds import HAND_SIZE
from .scoring import MODE_RULES, at_target
from .state import EXCHANGES, PHASES, ROLES, State

PER_PLAYER = ("hands", "roles", "previous_roles", "rounds_won", "rounds_lost", "points")


def problems(engine: Any, state: State) -> list[str]:
    """Every way the state breaks the rules, each in a sentence; [] for a sound state."""
    found = engine.common_problems(state) + shape_problems(state)
    if found:
        return found
    found = card_problems(state)
    if found:
        return found
    found = pile_problems(state) + count_problems(state)
    if "unknown role" in found:
        return found
    found += round_problems(state)
    if state.phase == "finished":
        return found + finished_problems(state)
    if state.phase == "exchange":
        return found + exchange_problems(state)
    return found + play_problems(state)


def shape_problems(state: State) -> list[str]:
    found = []
    n = len(state.players)
    if state.phase not in PHASES:
        found.append(f"unknown phase {state.phase!r}")
    found += [f"{name} must have one entry per player" for name in PER_PLAYER
              if len(getattr(state, name)) != n]
    if not 0 <= state.dealer < max(n, 1):
        found.append(f"the dealer index {state.dealer} is past the players")
    if not 0 <= state.current < max(n, 1):
        found.append(f"the turn index {state.current} is past the players")
    if len(state.pile) != len(state.pile_ranks):
        found.append("the pile and its ranks differ in length")
    for name in ("emperor", "previous_emperor"):
        seat = getattr(state, name)
        if seat is not None and not 0 <= seat < n:
            found.append(f"the {name} index {seat} is past the players")
    return found


def card_problems(state: State) -> list[str]:
    """Every card of the deck once, hands in hand order, the stock's origin recorded."""
    deck = standard_deck(jokers=state.options.jokers)  # the options are checked first
    places = {f"{p}'s hand": hand for p, hand in zip(state.players, state.hands)}
    places["the stock"] = state.stock
    places["the pile"] = state.pile
    found = conservation_problems(places, deck)
    if found:
        return found
    found += [f"{p}'s hand is not sorted by strength" for p, hand in zip(state.players, state.hands)
              if tuple(hand) != sort_hand(hand)]
    if not 0 <= state.stock_known <= len(state.stock):
        found.append(f"stock_known {state.stock_known}: the stock holds "
                     f"{len(state.stock)} cards")
    else:
        found += stock_origin_problems(
            state.stock[:len(state.stock) - state.stock_known], state.stock_step,
            state.stock_shuffled, state.stock_start, len(deck), state.step,
            HAND_SIZE * len(state.players), drawn_first="front")
    for card, rank in zip(state.pile, state.pile_ranks):
        if rank not in STRENGTH:
            found.append(f"pile card {card} counts as {rank!r}, not a rank")
        elif not is_joker(card) and card[0] != rank:
            found.append(f"pile card {card} counts as {rank}, not its own rank")
    return found


def pile_problems(state: State) -> list[str]:
    found = []
    ranks = [STRENGTH[rank] for rank in state.pile_ranks]
    if any(above < below for below, above in zip(ranks, ranks[1:])):
        found.append("the pile's ranks go down: each play is at least the rank below it")
    if TWO in state.pile_ranks and state.phase != "finished":
        found.append("a two stays on the pile: it clears the pile at once")
    if (state.last_player is None) != (not state.pile):
        found.append("the pile's last player must be set exactly when the pile has cards")
    if state.last_player is not None and not 0 <= state.last_player < len(state.players):
        found.append("the pile's last player is past the players")
    return found


def count_problems(state: State) -> list[str]:
    found = []
    options = state.options
    if state.round < 1:
        found.append("the round number starts at 1")
    if not options.elite and state.round > options.rounds:
        found.append(f"round {state.round} is past the {options.rounds} rounds of the match")
    if any(count < 0 for count in state.rounds_won + state.rounds_lost + state.points):
        found.append("round counts and points are never negative")
    if any(role not in ROLES and role != "" for role in state.roles + state.previous_roles):
        found.append("unknown role")
    return found


def complete(state: State, roles: tuple[str, ...]) -> bool:
    """The roles of a finished round: one head (Emperor, or Outcast), everyone else won or
    lost."""
    rules = MODE_RULES[state.options.mode]
    return roles.count(rules.head) == 1 and all(role in (rules.won, rules.lost)
                                                for role in roles)


def emperor_problems(state: State, roles: tuple[str, ...], emperor: int | None) -> list[str]:
    """Normal, Elite: the roles name the round's Emperor. Mirror: he is an Elect, if anyone
    went out the regular way before a joker finish ended the round."""
    if not state.options.mirror:
        if roles.count("emperor") == 1 and emperor != roles.index("emperor"):
            return ["the last round's Emperor is not the player whose role is emperor"]
    elif emperor is not None and roles[emperor] != "elect":
        return ["the last round's Emperor is not an Elect"]
    return []


def round_problems(state: State) -> list[str]:
    """Rounds won and lost, points, the last round's roles and the Elite target."""
    found = []
    options = state.options
    mirror = options.mirror
    done = state.round if state.phase == "finished" else state.round - 1
    found += [f"{p} has {won} rounds won and {lost} lost after {done} finished round(s)"
              for p, won, lost in zip(state.players, state.rounds_won, state.rounds_lost)
              if won + lost != done]
    if not options.elite and any(state.points):
        found.append("points are scored only in the Elite modes")
    if sum(state.rounds_lost if mirror else state.rounds_won) != done:
        found.append("each finished round has exactly one " + ("Outcast" if mirror else "Emperor"))
    if state.round == 1 and (any(state.previous_roles) or state.previous_emperor is not None):
        found.append("there are no previous roles in the first round")
    if state.round > 1 and not complete(state, state.previous_roles):
        found.append("the last round's roles need one " + MODE_RULES[options.mode].head
                     + " and " + (("Elect" if mirror else "Subjects") + " for the rest"))
    elif state.round > 1:
        found += emperor_problems(state, state.previous_roles, state.previous_emperor)
    if options.elite:
        reached = at_target(state)
        if state.phase != "finished" and reached:
            found.append("a player reached the target but the match goes on")
        if state.phase == "finished" and len(reached) != 1:
            found.append("a finished Elite match has exactly one player at the target")
    return found


def finished_problems(state: State) -> list[str]:
    found = []
    options = state.options
    if not complete(state, state.roles):
        found.append("a finished match keeps its last round's complete roles")
    else:
        found += emperor_problems(state, state.roles, state.emperor)
        head = MODE_RULES[options.mode].head
        reached = at_target(state) if options.elite else []
        if reached and state.roles[reached[0]] != head:
            found.append("the player at the target must be the last round's " + head)
    if not options.elite and state.round != options.rounds:
        found.append("a match in rounds ends after its last round")
    if state.gifts or state.exchange_stage or state.drawn:
        found.append("a finished match has no exchange and no turn in progress")
    return found


def exchange_problems(state: State) -> list[str]:
    found = []
    options = state.options
    if any(state.roles):
        found.append("roles are given out only once play starts")
    if state.pile or state.drawn:
        found.append("the pile is empty and nobody has drawn during the exchange")
    if state.round < 2:
        found.append("there is no exchange before the first round")
    if state.emperor is not None:
        found.append("nobody is this round's Emperor before play starts")
    stages = 2 * len(EXCHANGES[options.mode])
    if not 1 <= state.exchange_stage <= stages:
        found.append(f"an exchange of mode {options.mode} is at a stage from 1 to {stages}"
                     if stages else f"mode {options.mode} has no exchange")
    elif complete(state, state.previous_roles):
        plan = gift_plan(options, state.exchange_stage, state.previous_roles,
                         state.previous_emperor)
        if not state.gifts or any(gift not in plan for gift in state.gifts) \
                or len(set(state.gifts)) != len(state.gifts):
            found.append("the gifts due do not match the last round's roles")
        else:
            found += giver_problems(state)
    if sum(len(hand) for hand in state.hands) != HAND_SIZE * len(state.players):
        found.append("the exchange moves cards between the seven-card hands only")
    return found


def giver_problems(state: State) -> list[str]:
    """Each player who still owes gifts in the exchange holds a card for each of them: the
    hands' total alone lets one giver hold nothing while another holds his cards."""
    owed = Counter(giver for giver, _ in state.gifts)
    return [f"{state.players[giver]} owes {count} card(s) in the exchange but holds "
            f"{len(state.hands[giver]) or 'none'}"
            for giver, count in sorted(owed.items()) if len(state.hands[giver]) < count]


def play_problems(state: State) -> list[str]:
    found = []
    mirror = state.options.mirror
    if state.gifts or state.exchange_stage:
        found.append("no gifts are due outside the exchange")
    allowed = ("", "elect") if mirror else ("", "subject")
    if any(role not in allowed for role in state.roles):
        found.append("during play a player is still in, or out as "
                     + ("an Elect" if mirror else "a Subject (finished with a joker)"))
    if state.roles.count("") < 2:
        found.append("a round in play has at least two players still holding cards")
    for p, role, hand in zip(state.players, state.roles, state.hands):
        if role == "" and not hand:
            found.append(f"{p} still plays but holds no card")
        if role != "" and hand:
            found.append(f"{p} is out of the round but holds cards")
    if state.roles[state.current] != "":
        found.append("the player to act is out of the round")
    if not mirror and state.emperor is not None:
        found.append("a round in play has no Emperor yet: his finish ends it")
    if mirror and (state.emperor is None) != ("elect" not in state.roles):
        found.append("the first Elect out of a round is its Emperor, and only he")
    elif mirror and state.emperor is not None and state.roles[state.emperor] != "elect":
        found.append("this round's Emperor is not an Elect")
    if state.last_player is not None and state.last_player == state.current:
        found.append("the pile's last player is to act: his pile should have been cleared")
    return found
