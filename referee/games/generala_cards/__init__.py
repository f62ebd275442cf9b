"""Générala, the Cameroonian trick-taking card game (rule texts, in French, the default, and in
German, the `braille` variant: docs/rules/generala-cards.md).

In plain words: all 54 cards (52 and two jokers) are dealt out to 2 to 10 players. In a trick
each player must follow the led suit if he can; one who cannot lays a joker or refuses the
trick, taking one of its cards back. The strongest card leads next. A player out of cards is
out of the deal; the last one holding cards loses the deal, leaves the match and deals the
next deal. The last player in the match wins. Each rule is given in full by the module that
enforces it (the list is in `engine`); the options, and the presets of the two texts they
choose between, in `declarations`.

Moves (`type`, `player`, and):
  play     card: the card laid (a joker too)
  refuse   take: the card taken back from the trick (never a joker)
"""

from . import hints
from .engine import GeneralaCards

ENGINE = GeneralaCards(advisor=hints.advise)
