"""Huit américain, the French Crazy Eights with jokers (rule text and its readings:
docs/rules/huit-americain.md).

Rules enforced, in plain words: one or two 54-card decks; 2 players get 10 cards (15 with two
decks), 3 get 8 (12), 4 or more 6 (9), up to as many players as leave a stock (8 with one
deck, 11 with two). One card is turned up to start the pile (its effect does not apply; a
joker there lets anything follow). In turn, a player lays one card of the suit or rank in
force; if he cannot, he passes (or draws, per `when_stuck`). Special cards follow a table of
effects that options can move or switch off; by default: a joker may be laid on anything and
makes the next player draw 4, an ace makes him draw 2 (both stack when answered, a joker may
answer an ace), an 8 may be laid on anything, names the suit and stops an attack, a jack
reverses the direction, a 7 skips the next player, a 10 makes its player lay again or draw one.
A player laying his next-to-last card must announce "Carte"; if he does not, any opponent may
challenge until the next card is laid, and he draws 2. The round ends when a player lays his
last card (or blocks when every player in turn passes with nothing left to draw, or when the
only moves left bring the same table back for ever); every other player adds the points of
his hand; the match ends when a total reaches 100, lowest wins.

Moves: `lay`, `lay_out_of_turn`, `draw`, `pass`, `challenge`, `give`, each with its fields as
declared to callers in `options.MOVE_TYPES` and its rule in `moves`.

See docs/rules/huit-americain.md for each clause of the text, the reading taken and its test.
"""

from . import hints
from .engine import HuitAmericain

ENGINE = HuitAmericain(advisor=hints.advise)
