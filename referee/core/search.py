"""Determinized Monte-Carlo search: the `hard` hint of the card games.

A card player does not know the other hands nor the stock's order. The search samples whole
states consistent with what he sees (the game's `deals`: the unseen cards dealt at
random into the places the view counts, with a fresh seed for later chance), plays each of
his candidate moves in every sampled world, then plays on with a fast policy up to a horizon,
and scores the end with the game's measure from his seat. The move with the best mean wins.

Every candidate meets the same worlds and the same playout draws (common random numbers), so
the comparison between moves is not drowned in the noise between worlds. The sampling source
is seeded from the view (`seed_from_view`): the same view and moves give the same answer, and
two states the player cannot tell apart give the same answer.

A game brings a `CardSearch`: its sampler of worlds, its playout policy, when a playout stops
(the deal or round is over, or the horizon is reached) and how an end is worth to a seat.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any, Callable

from .engine import Engine, Move
from .hints import LEVELS, Advice, Alternative, seed_from_view

NOW = 0.0  # the card games have no clock


@dataclasses.dataclass(frozen=True)
class CardSearch:
    """What one game lends the search.

    deals(view, moves): what samples full states consistent with the view: a function of a
      random source, each call one state. What is the same for every world of a view (the
      unseen cards, the places' sizes, the seen fields) is read off the view once, when the
      sampler is made; each world draws only its own shuffle and seed.
    playout(engine, state, moves, rng): the fast policy's move among `moves`; `rng` is None
      when the policy draws nothing (`playout_draws` False).
    settled(before, after): whether the playout has reached its end (the deal, the round).
    value(world, state, player): what the playout's end `state` (or where the horizon cut it)
      is worth to `player`, from the sampled `world` it started in; in [0, 1] for a share of
      wins; larger is better.
    worlds: sampled states per request; horizon: playout moves at most after the candidate.
    """

    deals: Callable[[dict[str, Any], list[Move]], Callable[[random.Random], Any]]
    playout: Callable[[Engine, Any, list[Move], random.Random | None], Move]
    settled: Callable[[Any, Any], bool]
    value: Callable[[Any, Any, str], float]
    measure: str
    worlds: int
    horizon: int
    # The fewest worlds each candidate meets when there are many candidates.
    least_worlds: int = 2
    # The most playouts one request may run (worlds x candidates).
    playouts: int = 10_000
    # The most playout moves one request may make, over every world and candidate: what
    # bounds a hint's cost, whatever the options make a playout last. No new world is sampled
    # once they are spent (past `least_worlds`), so every candidate meets the same worlds.
    steps: int = 12_000
    # The most legal moves the playouts may list, over every world and candidate (by default
    # no bound), spent like `steps`: a playout move costs more where many moves are listed
    # and weighed (a large table, moves aimed at each player, lays out of turn), which the
    # count of moves made does not bound.
    listed: float = math.inf
    # The moves worth searching among the legal ones (None: all of them); the default move
    # is always among them.
    shortlist: Callable[[list[Move]], list[Move]] | None = None
    # How many standard errors better than the rules of thumb' move another must do to be
    # chosen instead (when the game gives the search a default move).
    confidence: float = 2.0
    # Whether the playout policy draws random numbers: a policy that plays by rules of thumb
    # alone gets no random source, and none is made for each of its playouts. (The playouts'
    # seed is drawn for every world all the same, so the worlds stay those of a policy that
    # draws.)
    playout_draws: bool = True


def evaluate(engine: Engine, search: CardSearch, view: dict[str, Any], candidates: list[Move],
             moves: list[Move], level: str = "hard") -> list[list[float]]:
    """Each candidate's value in every sampled world (one list per candidate, the worlds in
    the same order for all)."""
    rng = random.Random(seed_from_view({"view": view, "moves": moves}, level))
    worlds = max(search.least_worlds, min(search.worlds, search.playouts // len(candidates)))
    values: list[list[float]] = [[] for _ in candidates]
    player = view["you"]
    deal = search.deals(view, moves)
    steps = listed = 0
    for sampled in range(worlds):
        if sampled >= search.least_worlds and (steps >= search.steps or listed >= search.listed):
            break
        world = deal(rng)
        playout_seed = rng.getrandbits(64)
        for k, move in enumerate(candidates):
            source = random.Random(playout_seed) if search.playout_draws else None
            value, made, seen = _playout(engine, search, world, move, player, source)
            values[k].append(value)
            steps += made
            listed += seen
    return values


def _playout(engine: Engine, search: CardSearch, world: Any, move: Move, player: str,
             rng: random.Random | None) -> tuple[float, int, int]:
    """What the candidate `move` is worth in `world`, how many moves were made and how many
    were listed. A playout reads only states, so the engine makes none of its events
    (`told=False`). It stops where no move is legal: a finished match lists none
    (`legal_moves` lists what `apply` accepts), so that is not asked apart."""
    state, _ = engine.apply(world, move, now=NOW, told=False)
    made, listed = 1, 0
    for _ in range(search.horizon):
        if search.settled(world, state):
            break
        legal = engine.legal_moves(state, now=NOW)
        listed += len(legal)
        if not legal:
            break
        state, _ = engine.apply(state, search.playout(engine, state, legal, rng), now=NOW,
                                told=False)
        made += 1
    return search.value(world, state, player), made, listed


def best_advice(engine: Engine, search: CardSearch, view: dict[str, Any], moves: list[Move],
                describe: Callable[[Move], str], default: Move | None = None,
                alternatives: int = 3) -> Advice:
    """The `hard` advice: the candidate with the best mean (ties to the first listed). With a
    `default` (the game's rules of thumb), the search overrules it only with a move that does
    better in the same sampled worlds by more than `confidence` standard errors of the
    difference: a few dozen deals tell a clear difference, not a fine one."""
    if len(moves) == 1:
        only = moves[0]
        return Advice(only, "none", None, f"{describe(only)}: the only legal move")
    candidates = moves if search.shortlist is None else search.shortlist(moves)
    if default is not None and default not in candidates:
        candidates = [default] + candidates
    values = evaluate(engine, search, view, candidates, moves)
    means = [sum(v) / len(v) for v in values]
    ranked = sorted(range(len(candidates)), key=lambda k: (-means[k], k))
    best = ranked[0]
    if default is not None:
        kept = candidates.index(default)
        better = [k for k in ranked if k != kept
                  and clearly_better(values[k], values[kept], search.confidence)]
        best = better[0] if better else kept
        ranked.remove(best)
        ranked.insert(0, best)
    others = tuple(Alternative(candidates[k], round(means[k], 6))
                   for k in ranked[1:alternatives + 1])
    chosen = candidates[best]
    reason = f"{describe(chosen)}: {worth(search.measure, means[best])} over the sampled deals"
    if others:
        reason += (f"; best other move, {describe(others[0].move)}: "
                   f"{worth(search.measure, others[0].value)}")
    return Advice(chosen, search.measure, round(means[best], 6), reason, others)


RulesOfThumb = Callable[[dict[str, Any], list[Move]], tuple[Move, str]]


def advise_at_level(engine: Engine, search: CardSearch, view: dict[str, Any], moves: list[Move],
                    level: str, describe: Callable[[Move], str], rules_of_thumb: RulesOfThumb,
                    search_from_rules: bool = True) -> Advice:
    """The card games' three levels: `easy` a uniformly random legal move, `medium` the
    game's rules of thumb, `hard` the search (starting from the rules of thumb's move, which
    it overrules only with a clearly better one, when `search_from_rules`)."""
    if level not in LEVELS:
        raise ValueError(f"unknown hint level {level!r}: one of {', '.join(LEVELS)}")
    if level == "hard":
        default = rules_of_thumb(view, moves)[0] if search_from_rules else None
        return best_advice(engine, search, view, moves, describe, default=default)
    if level == "easy":
        move = random.Random(seed_from_view(view, level)).choice(moves)
        return Advice(move, "none", None, f"{describe(move)}: a legal move picked at random")
    move, why = rules_of_thumb(view, moves)
    return Advice(move, "none", None, f"{describe(move)}: {why}")


def clearly_better(these: list[float], those: list[float], confidence: float) -> bool:
    """Whether `these` beat `those`, world by world, by more than `confidence` standard
    errors of the mean difference."""
    diffs = [a - b for a, b in zip(these, those)]
    n = len(diffs)
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    spread = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean > confidence * (spread / n) ** 0.5


def worth(measure: str, value: float) -> str:
    if measure == "win_share":
        return f"estimated share of wins {100 * value:.1f} %"
    if measure == "expected_points":
        return f"expected points {value:.1f}"
    return f"{measure} {value:.3f}"


def deal_unseen(unseen: list[str], sizes: list[int], rng: random.Random) -> list[list[str]]:
    """The unseen cards shuffled and cut into consecutive places of the given sizes (the last
    place takes whatever is left)."""
    cards = sorted(unseen)
    rng.shuffle(cards)
    places, start = [], 0
    for size in sizes:
        places.append(cards[start:start + size])
        start += size
    if start < len(cards):
        places[-1] = places[-1] + cards[start:]
    return places


def seated_hands(players: int, me: int, hand: tuple[str, ...], others: list[int],
                 places: list[list[str]], arrange: Callable[[list[str]], tuple[str, ...]] = tuple
                 ) -> tuple[tuple[str, ...], ...]:
    """A sampled world's hands: the player's own at his seat `me`, and at each of the `others`
    seats, in order, the place dealt to it (`deal_unseen`), kept as the game keeps a hand."""
    dealt = dict(zip(others, places))
    return tuple(hand if s == me else arrange(dealt[s]) for s in range(players))


def fewest_cards_share(hands, seat: int) -> float:
    """Where a playout cut short by its horizon stands, for a game won by emptying the hand:
    the share of the other players still holding cards who hold more than `seat` (ties count
    half); 1 with an empty hand."""
    mine = len(hands[seat])
    if not mine:
        return 1.0
    holders = [len(h) for s, h in enumerate(hands) if s != seat and h]
    if not holders:
        return 0.0
    return sum(1.0 if n > mine else 0.5 if n == mine else 0.0 for n in holders) / len(holders)
