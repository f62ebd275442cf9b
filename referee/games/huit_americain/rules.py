"""The rules as data (docs/rules/huit-americain.md, "The effect table"): which rank carries which
effect, what each card costs, how many cards are dealt, and the tables one options value
compiles to.

`EFFECTS` names every effect the engine knows, with the rank that carries it by default
(`off`: not in play unless an option moves it onto a rank). Option `effect_<name>` moves an
effect to another rank (`2`..`9`, `T`, `J`, `Q`, `K`, `A`, or `X` for the jokers) or switches
it off. Option `points_<rank>` sets what a card of that rank costs when a round ends.

A rank carries at most one effect, except `stop`, which may share its rank with any effect
that is not an attack (the 8 both names a suit and stops attacks). A card follows the suit or
the rank in force, or is laid on anything (the jokers, and the ranks of `draw_four` and
`change_suit`); under an attack only a card of an attack at least as strong, or a stopping
card, answers. `Rules` holds these clauses compiled into tables for one options value, made
once per value (`compiled_rules`, kept by each options object as `Options.rules`).
"""

from __future__ import annotations

from typing import NamedTuple

from referee.core.cards import JOKER_RANK, RANKS, SUITS, standard_deck
from referee.core.memo import BoundedMemo

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

# Cards dealt to each player, with one deck and with two: for 2 players, 3, and more.
DEALT = {2: (10, 15), 3: (8, 12)}
DEALT_MANY = (6, 9)


def hand_size(players: int, decks: int) -> int:
    return DEALT.get(players, DEALT_MANY)[decks - 1]


# decks -> the most players a deal leaves a stock for (at least one card besides the
# turned-up one): 8 with one deck, 11 with two.
MOST_PLAYERS = {decks: max(n for n in range(2, 54) if n * hand_size(n, decks) + 2 <= 54 * decks)
                for decks in (1, 2)}


def max_players(decks: int) -> int:
    return MOST_PLAYERS[decks]


# decks -> the whole deck(s), sorted: the order a deal's shuffle starts from. Made of the
# string objects of `ALL_CARDS`, which the compiled tables are keyed by.
SORTED_DECKS = {decks: tuple(sorted(ALL_CARDS * decks)) for decks in (1, 2)}


def table_of(options) -> dict[str, str]:
    """effect -> rank, for the effects in play."""
    return {name: rank for name in EFFECTS if (rank := getattr(options, "effect_" + name)) != OFF}


def combination_problems(options) -> list[str]:
    """What is wrong with how these options combine (the options' values themselves sound)."""
    problems = []
    by_rank: dict[str, list[str]] = {}
    for name, where in table_of(options).items():
        by_rank.setdefault(where, []).append(name)
    for where, names in sorted(by_rank.items()):
        others = [n for n in names if n != "stop"]
        if len(others) > 1:
            problems.append(f"rank {where} carries several effects ({', '.join(others)}); "
                            "a rank carries one effect, besides stop")
        if "stop" in names and any(n in ATTACK_AMOUNTS for n in names):
            problems.append(f"rank {where} cannot both attack and stop attacks")
    if options.on_the_fly and options.decks != 2:
        problems.append("on_the_fly: laying out of turn needs two decks (decks=2)")
    return problems


class Laid(NamedTuple):
    """What laying one card does, whatever the table (a row of `Rules.laid`)."""

    rank: str
    names_suit: bool  # its player names the suit in force
    attack: int  # the cards it adds to the attack (0: it does not attack)
    effect: str | None  # its effect besides stop and the attacks, if any
    # the suit and rank in force once it is laid, unless it names a suit; None for a joker,
    # which leaves them as they were (the next card follows the card under it)
    in_force: tuple[str, str] | None


class Rules:
    """The rule tables of one options value."""

    __slots__ = ("effect", "wild", "attack", "stop", "names_suit", "targeted", "special",
                 "special_cards", "plain_suit", "points", "card_points", "no_finish", "stuck",
                 "fly", "returns", "penalise", "target", "decks", "laid", "following",
                 "answering", "problems")

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
        # card -> its suit if it is a plain card (neither laid on anything nor laid with a
        # suit or a player chosen), else None: the suits the hints count in a hand
        self.plain_suit: dict[str, str | None] = {
            c: None if c[0] in self.wild or c[0] in self.special else c[1] for c in ALL_CARDS}
        self.points = {r: getattr(options, "points_" + r) for r in EFFECT_RANKS}
        self.card_points = {c: self.points[c[0]] for c in ALL_CARDS}  # card -> its points
        # no_finish_on_eight: the rank that may not be a player's last card (None: any may)
        self.no_finish = table.get("change_suit") if options.no_finish_on_eight else None
        self.stuck = options.when_stuck
        self.fly = options.on_the_fly
        self.returns = options.attack_returns
        self.penalise = options.draw_penalty_on_error
        self.target = options.target
        self.decks = options.decks
        self.laid = {c: Laid(c[0], c[0] in self.names_suit, self.attack.get(c[0], 0),
                             self.effect.get(c[0]), None if c[0] == JOKER_RANK else (c[1], c[0]))
                     for c in ALL_CARDS}
        # The tables of following and answering depend on a few ranks only: options values
        # that differ elsewhere (points, target, house rules) share them.
        self.following = _FOLLOWING.get(self.wild, following_table)
        self.answering = _ANSWERING.get((self.stop, tuple(sorted(self.attack.items()))),
                                        answering_table)
        self.problems = tuple(combination_problems(options))


Following = dict[str | None, dict[str | None, frozenset[str]]]


def following_table(wild: frozenset[str]) -> Following:
    """Follow suit or rank: suit in force -> rank in force -> the cards that may be laid on
    them (of the suit, of the rank, or laid on anything: the `wild` ranks), before any house
    rule about last cards. No suit in force (a joker turned up) lets anything follow."""
    anything = frozenset(ALL_CARDS)
    following: Following = {None: dict.fromkeys(EFFECT_RANKS + (None,), anything)}
    for suit in SUITS:
        following[suit] = {
            rank: frozenset(c for c in ALL_CARDS
                            if c[1] == suit or c[0] == rank or c[0] in wild)
            for rank in EFFECT_RANKS + (None,)}
    return following


def answering_table(key: tuple[str | None, tuple[tuple[str, int], ...]]
                    ) -> dict[str, frozenset[str]]:
    """Answer an attack: the rank on top -> the cards that answer it (a card of an attack at
    least as strong, which adds to it, or a card of the stopping rank, which cancels it)."""
    stop, attacks = key
    attack = dict(attacks)
    return {top: frozenset(c for c in ALL_CARDS if c[0] == stop
                           or attack.get(c[0], 0) >= attack.get(top, 0))
            for top in EFFECT_RANKS}


# The rules of an options value are compiled once per value, shared by every match played with
# it; each options object then keeps them (`state.Options.rules`), so the moves of a match
# read them without hashing its options again.
_RULES_BY_VALUE: BoundedMemo = BoundedMemo(512)
# Their largest tables, by the ranks they depend on (about 60 kB each): the wild ranks, and
# the stopping rank with the attacks' amounts.
_FOLLOWING: BoundedMemo[frozenset[str], Following] = BoundedMemo(64)
_ANSWERING: BoundedMemo[tuple, dict[str, frozenset[str]]] = BoundedMemo(64)


def compiled_rules(options) -> Rules:
    """The compiled rules of an options value (`state.Options`), made once per value."""
    return _RULES_BY_VALUE.get(options, Rules)


def hand_points(hand, card_points: dict[str, int]) -> int:
    """What a hand left at the end of a round costs (`Rules.card_points`)."""
    return sum(card_points[card] for card in hand)
