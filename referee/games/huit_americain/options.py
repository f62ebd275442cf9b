"""The options of Huit américain and its moves as declared to callers (each with what it
does), the rules between options, and an options value compiled once
(docs/rules/huit-americain.md, "The effect table" and "The seed, clause by clause").
"""

from __future__ import annotations

from typing import Any

from referee.core.cards import JOKER_RANK, SUITS
from referee.core.engine import Field, MoveType, Option
from referee.core.memo import BoundedMemo

from .rules import DEFAULT_POINTS, EFFECT_RANKS, EFFECTS, OFF
from .state import Options

STUCK_CHOICES = ("pass", "draw_one", "draw_until_playable")


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


OPTIONS = (
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

OPTION_RULES = (
    "A rank carries at most one effect, besides stop, which may share its rank with any "
    "effect that is not an attack (draw_two, draw_four); an effect left at its default "
    "rank counts there.",
    "on_the_fly needs two decks (decks: 2).",
    "One deck seats 2 to 8 players, two decks 2 to 11.",
)

_LAY_FIELDS = (
    Field("card", "card", "the card laid"),
    Field("suit", "string", "the suit named; required for a card that names one (the 8), "
          "refused for any other", required=False, choices=SUITS),
    Field("target", "player", "the player chosen; required for a card whose effect targets "
          "one (swap_hands, give_two), refused for any other", required=False),
    Field("announce", "boolean", "\"Carte\": required to avoid a challenge when this card is "
          "the player's next-to-last; refused otherwise", required=False),
)

MOVE_TYPES = (
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


def options_key(options: dict[str, Any]) -> tuple | None:
    """A dict of options as a hashable key, types included (True == 1, but they encode
    differently); None if a value cannot be hashed (a bad value: nothing remembered)."""
    values = tuple(options.values())
    key = (tuple(options), values, tuple(map(type, values)))
    try:
        hash(key)
    except TypeError:
        return None
    return key


# A new match posts the same few option sets again and again: each is compiled once.
_COMPILED: BoundedMemo[tuple, Options] = BoundedMemo(256)


def compiled_options(options: dict[str, Any]) -> Options:
    """The Options value of a dict of (sound) option values: every match with the same options
    shares one Options object, whose rules (and how they clash, `rules.problems`) are then
    found at once."""
    key = options_key(options)
    return Options(**options) if key is None else _COMPILED.get(key, lambda _: Options(**options))
