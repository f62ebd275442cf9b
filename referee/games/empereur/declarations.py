"""What L'Empereur declares to the service: its options and its moves (docs/rules/empereur.md,
clauses 1, 5-8, 10, 19-20 and the section on legal moves).

Options: 0 to 2 jokers added to the 52 cards; one of four modes (Normal, Elite, Mirror Normal,
Mirror Elite); the rounds a Normal or Mirror Normal match lasts; the points that end an Elite
or Mirror Elite match. Moves: lay cards of one rank (jokers counting as the rank named), draw
one card instead of laying, pass after drawing, and give a card in the exchange that opens a
round.
"""

from __future__ import annotations

from referee.core.engine import Field, MoveType, Option

from .ranks import RANK_ORDER
from .state import MODES

OPTIONS = (
    Option("jokers", "integer", 2, "jokers added to the 52 cards", minimum=0, maximum=2),
    Option("mode", "string", "normal",
           "normal: rounds, last Emperor wins; elite: the Emperor scores the Subjects' "
           "cards, first to the target wins; mirror_normal: rounds, last Outcast loses; "
           "mirror_elite: the Outcast scores the cards left, first to the target loses",
           choices=MODES),
    Option("rounds", "integer", 3, "rounds in the Normal and Mirror Normal modes",
           minimum=1, maximum=50),
    Option("target_points", "integer", 500, "points that end the Elite modes",
           minimum=1, maximum=10000),
)

MOVE_TYPES = (
    MoveType("play", "lay one or more cards of one rank (jokers count as the named rank), "
             "at least the rank on top of the pile; a two alone", (
                 Field("cards", "cards", "the cards laid, from your hand", max_items=6),
                 Field("rank", "string", "the rank the cards count as (needed when only "
                       "jokers are laid; must match the natural cards otherwise)",
                       required=False, choices=RANK_ORDER),
             )),
    MoveType("draw", "draw one card instead of playing (once a turn); then play or pass"),
    MoveType("pass", "end your turn without playing, after drawing"),
    MoveType("give", "exchange at the start of a round: give one card to a player", (
        Field("card", "card", "the card given (forced gifts: one of your highest)"),
        Field("to", "player", "the player who receives it"),
    )),
)
