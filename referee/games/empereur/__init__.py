"""L'Empereur, a French shedding game (rules, clause by clause: docs/rules/empereur.md).

In plain words: 52 cards and 0-2 jokers, 2 to 6 players, seven cards each. Ranks low to high
3 4 5 6 7 8 9 10 J Q K A 2; a joker counts as the rank its player names. On his turn a player
lays any number of cards of one rank, at least the rank on top of the pile, or draws one card
and then plays or passes. Twos clear the pile and make everyone else draw; a run of one rank
makes the next player draw. The first out without a joker is the Emperor; the Mirror modes
also name an Outcast, the last one holding cards. The modes differ in the exchanges that open
a round from the second on, in the points counted and in how a match ends. Each rule is given
in full by the module that enforces it (the list is in `engine`).

Moves (`type`, `player`, and):
  play   cards: the cards laid; rank: the rank they count as (listed moves always carry it;
         needed when only jokers are laid); `listing` says which plays are listed
  draw   no field; once a turn, instead of playing first
  pass   no field; only after drawing
  give   card, to: a gift of an exchange (several players may have to give at once)
"""

from . import hints
from .engine import Empereur

ENGINE = Empereur(advisor=hints.advise)
