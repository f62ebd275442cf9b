"""Which cards a player may lay (docs/rules/huit-americain.md, "The seed, clause by clause").

- In turn, in play or after a 10, a card follows the suit or the rank in force, or is laid on
  anything (`Rules.following`); after a named suit only the suit follows.
- Under an attack, only a card of an attack at least as strong or a stopping card answers
  (`Rules.answering`); under a suit hunt or while giving the cards of a give-two, none.
- no_finish_on_eight (house rule): the card that names a suit cannot be a player's last card.
- on_the_fly (house rule): a player not in turn may lay the exact twin of the top card,
  except while the cards of a give-two are given, and under the rule above.

Each function reads a position: a `State`, or the working table of a move (`table.Table`),
which has the same fields.
"""

from __future__ import annotations

from .rules import Rules
from .state import ATTACK, GIVE, HUNT

NONE: frozenset[str] = frozenset()


def allowed_cards(rules: Rules, position) -> frozenset[str]:
    """The cards the player in turn may lay now, whichever he holds (before no_finish)."""
    phase = position.phase
    if phase == ATTACK:
        return rules.answering[position.pile[-1][0]]
    if phase == HUNT or phase == GIVE:
        return NONE
    return rules.following[position.suit][position.rank]


def may_end_with(rules: Rules, card: str) -> bool:
    """no_finish_on_eight: whether `card` may be a player's last card."""
    return card[0] != rules.no_finish


def may_lay(rules: Rules, position, card: str, held: int) -> bool:
    """Whether the player in turn, holding `held` cards with `card`, may lay it now."""
    return card in allowed_cards(rules, position) and (held > 1 or may_end_with(rules, card))


def layable(rules: Rules, position, hand: tuple[str, ...]) -> list[str]:
    """The distinct cards of `hand` (the player in turn's) he may lay now, in hand order."""
    allowed = allowed_cards(rules, position)
    cards = list(filter(allowed.__contains__, hand))
    if rules.decks == 2 and len(cards) > 1:  # only two decks hold twins
        cards = list(dict.fromkeys(cards))
    if len(hand) == 1 and cards and not may_end_with(rules, cards[0]):
        return []
    return cards


def may_fly(rules: Rules, position, hand: tuple[str, ...]) -> bool:
    """on_the_fly: whether a player not in turn holding `hand` may lay the top card's twin."""
    top = position.pile[-1]
    return (rules.fly and position.phase != GIVE and top in hand
            and (len(hand) > 1 or may_end_with(rules, top)))
