"""Yams, the classic French five-dice game of thirteen boxes (rule text: docs/rules/yams.md),
played by the dice-sheet engine on the Yams sheet (`referee.games.dice_sheets.yams`).

Rules enforced, in plain words: 2 to 6 players, 13 turns each. A turn is up to three rolls of
five dice; between rolls the player keeps any dice (kept dice may be rerolled later), and after
any roll he fills one free box of his choice, scoring what the dice are worth there (0 scratches
it). As to Six count their face, and earn a bonus of 35 once they add up to 63; Brelan (three
of a kind) and Carré (four of a kind) score their matching dice; Full (three and two) 25;
Petite suite (four in a run) 30; Grande suite (five in a run) 40; Yams (five of a kind) 50;
Chance the five dice. The option `rules` reads Brelan and Carré as the sum of all five dice
(`yams_all_dice`), or the sheet by the American rules of Yahtzee (`yahtzee`): Brelan and Carré score all five dice, each further Yams scores 100 more
while the Yams box holds 50 (the Yahtzee bonus, counted beside the boxes), and a Yams once the
Yams box is filled is a joker (the official forced reading; `yahtzee_free_joker`: the free
choice of Verhoeff's optimal player). A turn clock (45 s by default): once it has run out the
game plays the turn, so only `timeout` is legal, by any player; it rolls once if the turn has
no roll, then fills the free box that scores most (on a tie, the one whose loss costs least).
When every box is filled, the highest total (bonuses included) wins.

Moves: `roll`, `score`, `timeout`, as Generala's (`referee.games.generala_dice`), the `score`
move naming Yams' boxes. Hints: `easy`, `medium`, `hard` (`hints`).
"""

from . import hints
from .engine import Yams

ENGINE = Yams(advisor=hints.advise)
