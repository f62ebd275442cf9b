"""Yacht, the original five-dice game of twelve categories (rule text: docs/rules/yacht.md),
played by the dice-sheet engine on the Yacht sheet (`referee.games.dice_sheets.yacht`).

Rules enforced, in plain words: 2 to 6 players, 12 turns each. A turn is up to three rolls of
five dice; between rolls the player keeps any dice (kept dice may be rerolled later), and after
any roll he fills one free box of his choice, scoring what the dice are worth there (0 scratches
it). Ones to Sixes count their face (no bonus); Full House (three of one face and two of
another) scores the five dice; Four of a Kind scores the four matching dice; Little Straight
(1-5) and Big Straight (2-6) score 30; Choice scores the five dice; Yacht (five of a kind) 50.
No servida, no joker, no instant win. A turn clock (45 s by default): once it has run out the
game plays the turn, so only `timeout` is legal, by any player; it rolls once if the turn has
no roll, then fills the free box that scores most (on a tie, the one whose loss costs least).
When every box is filled, the highest total wins.

Moves: `roll`, `score`, `timeout`, as Generala's (`referee.games.generala_dice`), the `score`
move naming Yacht's boxes. Hints: `easy`, `medium`, `hard` (`hints`).
"""

from . import hints
from .engine import Yacht

ENGINE = Yacht(advisor=hints.advise)
