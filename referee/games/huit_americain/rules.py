"""The rules as data: which rank carries which effect, and what each card costs.

`EFFECTS` names every effect the engine knows, with the rank that carries it by default
(`off`: not in play unless an option moves it onto a rank). Option `effect_<name>` moves an
effect to another rank (`2`..`9`, `T`, `J`, `Q`, `K`, `A`, or `X` for the jokers) or switches
it off. Option `points_<rank>` sets what a card of that rank costs when a round ends.

A rank carries at most one effect, except `stop`, which may share its rank with any effect
that is not an attack (the 8 both names a suit and stops attacks). `Rules` is the table
compiled for fast look-ups; it is cached per options object and per option values.
"""

from __future__ import annotations

import functools

from referee.core.cards import JOKER_RANK, RANKS, SUITS, standard_deck

EFFECT_RANKS = RANKS + (JOKER_RANK,)
ALL_CARDS = standard_deck(jokers=2)
OFF = "off"

# name -> (default rank, what it does)
EFFECTS: dict[str, tuple[str, str]] = {
    "draw_four": ("X", "may be laid on anything; the next player draws 4 unless he answers with "
                       "another draw_four (adding 4) or stops it"),
    "draw_two": ("A", "the next player draws 2 unless he answers with another draw_two (adding "
                      "2) or a draw_four (adding 4), or stops it"),
    "stop": ("8", "laid by a player under attack, cancels the attack"),
    "change_suit": ("8", "may be laid on anything; its player names the suit to follow"),
    "reverse": ("J", "reverses the direction of play"),
    "skip": ("7", "the next player loses his turn"),
    "play_again": ("T", "its player must lay another card or draw one"),
    "swap_hands": (OFF, "its player swaps hands with a player he chooses"),
    "rotate_hands": (OFF, "every hand passes to the next player in the direction of play"),
    "give_two": (OFF, "its player gives 2 cards of his own hand (his choice, one `give` move "
                      "each) to a player he chooses"),
    "all_draw_one": (OFF, "every opponent draws 1 card, without recourse"),
    "suit_hunt": (OFF, "its player names a suit; the next player draws until he gets a card "
                       "of that suit, then plays on"),
}
ATTACK_AMOUNTS = {"draw_four": 4, "draw_two": 2}
SUIT_NAMING = ("change_suit", "suit_hunt")
TARGETED = ("swap_hands", "give_two")
WILD = ("draw_four", "change_suit")

DEFAULT_POINTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 20, "8": 50, "9": 9, "T": 20,
                  "J": 20, "Q": 10, "K": 10, "A": 50, "X": 50}

# Cards dealt to each player: (players at most, cards with one deck, cards with two decks).
DEAL = ((2, 10, 15), (3, 8, 12))
DEAL_MANY = (6, 9)


def hand_size(players: int, decks: int) -> int:
    for most, one, two in DEAL:
        if players <= most:
            return one if decks == 1 else two
    return DEAL_MANY[0] if decks == 1 else DEAL_MANY[1]


@functools.lru_cache(maxsize=8)
def max_players(decks: int) -> int:
    """The most players a deal leaves a stock for (at least one card besides the turned-up
    one): 8 with one deck, 11 with two."""
    size = 54 * decks
    count = 2
    while (count + 1) * hand_size(count + 1, decks) + 2 <= size:
        count += 1
    return count


def table_of(options) -> dict[str, str]:
    """effect -> rank, for the effects in play."""
    table = {}
    for name in EFFECTS:
        where = getattr(options, "effect_" + name)
        if where != OFF:
            table[name] = where
    return table


def table_problems(table: dict[str, str]) -> list[str]:
    problems = []
    by_rank: dict[str, list[str]] = {}
    for name, where in table.items():
        by_rank.setdefault(where, []).append(name)
    for where, names in sorted(by_rank.items()):
        others = [n for n in names if n != "stop"]
        if len(others) > 1:
            problems.append(f"rank {where} carries several effects ({', '.join(others)}); "
                            "a rank carries one effect, besides stop")
        if "stop" in names and any(n in ATTACK_AMOUNTS for n in names):
            problems.append(f"rank {where} cannot both attack and stop attacks")
    return problems


class Rules:
    """The compiled table for one options object."""

    __slots__ = ("effect", "wild", "attack", "stop", "names_suit", "targeted", "special",
                 "special_cards", "plain", "points", "no_finish", "stuck", "fly", "returns",
                 "penalise", "target", "decks", "simple", "laid", "following", "card_points")

    def __init__(self, options):
        table = table_of(options)
        # rank -> its one effect besides stop
        self.effect: dict[str, str] = {r: n for n, r in table.items() if n != "stop"}
        self.wild = frozenset([JOKER_RANK] + [table[n] for n in WILD if n in table])
        self.attack: dict[str, int] = {table[n]: a for n, a in ATTACK_AMOUNTS.items()
                                       if n in table}
        self.stop: str | None = table.get("stop")
        self.names_suit = frozenset(table[n] for n in SUIT_NAMING if n in table)
        self.targeted = frozenset(table[n] for n in TARGETED if n in table)
        self.special = self.names_suit | self.targeted  # ranks laid with a suit or a player
        self.special_cards = frozenset(c for c in ALL_CARDS if c[0] in self.special)
        # ranks that only follow: no effect, no stop, not laid on anything
        self.plain = frozenset(EFFECT_RANKS) - set(self.effect) - self.wild - {self.stop}
        self.points = {r: getattr(options, "points_" + r) for r in EFFECT_RANKS}
        self.card_points = {c: self.points[c[0]] for c in ALL_CARDS}  # card -> its points
        self.no_finish = table.get("change_suit") if options.no_finish_on_eight else None
        self.stuck = options.when_stuck
        self.fly = options.on_the_fly
        self.returns = options.attack_returns
        self.penalise = options.draw_penalty_on_error
        self.target = options.target
        self.decks = options.decks
        self.simple = self.decks == 1 and self.no_finish is None  # layable: just what follows
        # card -> what laying it does: (its rank, names a suit, attack amount, effect besides
        # stop, the suit and rank then in force unless it names a suit: None for a joker, which
        # leaves them as they were)
        self.laid: dict[str, tuple[str, bool, int, str | None, tuple[str, str] | None]] = {
            c: (c[0], c[0] in self.names_suit, self.attack.get(c[0], 0), self.effect.get(c[0]),
                None if c[0] == JOKER_RANK else (c[1], c[0]))
            for c in ALL_CARDS}
        # suit in force -> rank in force -> the cards that may be laid on them (the suit, the
        # rank, or a card laid on anything), before any house rule about last cards; no suit
        # in force (a joker turned up) lets anything follow
        anything = frozenset(ALL_CARDS)
        self.following: dict[str | None, dict[str | None, frozenset[str]]] = {
            None: dict.fromkeys(EFFECT_RANKS + (None,), anything)}
        for suit in SUITS:
            self.following[suit] = {
                rank: frozenset(c for c in ALL_CARDS
                                if c[1] == suit or c[0] == rank or c[0] in self.wild)
                for rank in EFFECT_RANKS + (None,)}


# Look-ups, fastest first: the options object of the previous call (one tuple, replaced whole,
# so threads never see a half-updated pair), the options object by identity (a decoded state
# brings a new one per request), then the options' values (a new match builds a new object).
_last: tuple[object, Rules | None] = (None, None)
_BY_ID: dict[int, tuple[object, Rules]] = {}
_BY_VALUE: dict[tuple, Rules] = {}
_LIMIT = 512


def rules_of(options) -> Rules:
    global _last
    last = _last
    if last[0] is options:
        return last[1]
    hit = _BY_ID.get(id(options))
    if hit is None or hit[0] is not options:
        values = tuple(options.__dict__.values())
        key = (values, tuple(map(type, values)))  # True == 1, but the wire form differs
        rules = _BY_VALUE.get(key)
        if rules is None:
            if len(_BY_VALUE) > _LIMIT:
                _BY_VALUE.clear()
            rules = _BY_VALUE[key] = Rules(options)
        if len(_BY_ID) > _LIMIT:
            _BY_ID.clear()
        hit = _BY_ID[id(options)] = (options, rules)
    _last = hit
    return hit[1]


def hand_points(hand, card_points: dict[str, int]) -> int:
    """What a hand left at the end of a round costs (`Rules.card_points`)."""
    return sum(map(card_points.__getitem__, hand))
