"""What a sound state of Huit américain keeps (docs/rules/huit-americain.md, "Invalid states").

- Options that combine (see `rules.combination_problems`), one hand, total and round's points
  per player, indices within the players, a known phase, suit and rank, counters in range.
- Every card of the deck(s) in exactly one place (the hands, the stock, the pile), a pile
  never empty, and a stock whose order its recorded shuffle explains.
- Each phase has its cause on top of the pile: an attacking card under an attack (and a
  penalty pending, only then), a card that names a suit under a hunt, a play-again card after
  it, a give-two card while giving (to another player, one or two cards he still holds).
- A match is over exactly when a total reaches the target; a hand is empty only when the
  round has ended (or while an attack returns), never every hand.
- The public record of what the players lacked holds of their hands (`lacks.lack_problems`).
"""

from __future__ import annotations

from referee.core.cards import SUITS, conservation_problems, standard_deck
from referee.core.chance import stock_origin_problems

from .effects import GIVE_CARDS
from .lacks import lack_problems
from .rules import EFFECT_RANKS, Rules, hand_size
from .state import AGAIN, ATTACK, GIVE, HUNT, OVER, PHASES, State


def problems(state: State, common: list[str]) -> list[str]:
    """Every invariant `state` breaks, after those every game shares (`common`)."""
    if any(p.startswith("options.") for p in common):
        return common  # the rest reads the options
    rules = state.options.rules
    found = common + list(rules.problems) + shape_problems(state)
    if found:
        return found  # the rest reads the indices and counts
    return (card_problems(state) + phase_problems(state, rules) + round_problems(state)
            + lack_problems(state.players, state.hands, state.lacks, rules))


def shape_problems(state: State) -> list[str]:
    """Counts, indices and names within their ranges."""
    n = len(state.players)
    checks = [
        (state.round < 1, f"round {state.round}: rounds count from 1"),
        *((len(getattr(state, name)) != n, f"there must be one entry of {name} per player")
          for name in ("hands", "totals", "round_points")),
        (not 0 <= state.current < n, f"the turn index {state.current} is past the players"),
        (state.direction not in (1, -1), f"direction {state.direction}: must be 1 or -1"),
        (state.phase not in PHASES, f"unknown phase {state.phase!r}"),
        (not state.pile, "the pile is empty: a card is always face up"),
        (state.suit is not None and state.suit not in SUITS,
         f"the suit in force {state.suit!r} is not a suit"),
        (state.rank is not None and state.rank not in EFFECT_RANKS,
         f"the rank in force {state.rank!r} is not a rank"),
        (state.suit is None and state.rank is not None, "a rank is in force without a suit"),
        (state.attack < 0, "the pending attack is negative"),
        (not 0 <= state.passes < max(n, 1),
         f"{state.passes} passes in a row: a round blocks at {n}"),
        (not -1 <= state.unannounced < n,
         f"unannounced index {state.unannounced} is past the players"),
        (any(t < 0 for t in state.totals) or any(t < 0 for t in state.round_points),
         "points cannot be negative"),
    ]
    return [problem for broken, problem in checks if broken]


def card_problems(state: State) -> list[str]:
    """Every card in one place, and the stock's order explained by its shuffle."""
    n = len(state.players)
    decks = state.options.decks
    deck = standard_deck(jokers=2, decks=decks)
    places = {f"{p}'s hand": h for p, h in zip(state.players, state.hands)}
    places["the stock"] = state.stock
    places["the pile"] = state.pile
    return conservation_problems(places, deck) + stock_origin_problems(
        state.stock, state.stock_step, state.stock_shuffled, state.stock_start, len(deck),
        state.step, n * hand_size(n, decks) + 1, drawn_first="back")


def _ranks_of(rules: Rules, effect: str) -> set[str]:
    return {r for r, e in rules.effect.items() if e == effect}


def phase_problems(state: State, rules: Rules) -> list[str]:
    """Each phase with its cause on top of the pile, and what is pending only in its phase."""
    problems = []
    n = len(state.players)
    top_rank = state.pile[-1][0]
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
    return problems


def round_problems(state: State) -> list[str]:
    """The match over exactly at the target; empty hands only where a round may have them."""
    target = state.options.target
    empty = [p for p, h in zip(state.players, state.hands) if not h]
    finished = state.phase == OVER
    top_total = max(state.totals) if state.totals else 0
    checks = [
        (finished and top_total < target, f"the match is over but no total reaches {target}"),
        (not finished and top_total >= target, f"a total reaches {target} but the match goes on"),
        (empty and not finished and not (state.phase == ATTACK and state.options.attack_returns),
         f"{', '.join(empty)} holds no card but the round goes on"),
        (len(empty) == len(state.players) and empty, "every hand is empty"),
    ]
    return [problem for broken, problem in checks if broken]
