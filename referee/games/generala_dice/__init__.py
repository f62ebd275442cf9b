"""Generala, the Latin-American five-dice game (rule text: docs/rules/generala-dice.md).

Rules enforced, in plain words: 2 to 6 players, 11 turns each. A turn is up to three rolls of
five dice; between rolls the player keeps any dice (kept dice may be rerolled later), and after
any roll he fills one free box of his choice, scoring what the dice are worth there (0 scratches
it). Boxes 1-6 count their face; Escalera 20, Full 30, Póker 40, Generala 50, Doble Generala 100.
A hand scored after the first roll (servida) adds 5 to Escalera, Full and Póker. The Doble
scores only while the Generala box holds 50. A turn clock (45 s by default): once it has run
out the game plays the turn, so only `timeout` is legal, by any player; it rolls once if the
turn has no roll, then fills the free box that scores most (on a tie, the one whose loss costs
least). When every box is filled, the highest total wins.

Moves: `roll`, `score`, `timeout`, each with its fields as declared to callers in
`GeneralaDice.move_types` (`engine`) and its rule in `turns`.

See docs/rules/generala-dice.md for each clause of the text and the test that proves it.
"""

from . import hints
from .engine import GeneralaDice

ENGINE = GeneralaDice(advisor=hints.advise)
