"""L'Empereur, a French shedding game (rules, clause by clause: docs/rules/empereur.md).

Rules enforced, in plain words: 52 cards and 0-2 jokers, 2 to 6 players. Ranks low to high
3 4 5 6 7 8 9 10 J Q K A 2. Each round a draw picks the dealer (highest card deals, a joker
highest, ties redraw); seven cards each, the rest is the stock; the dealer's left starts, play
goes left. On his turn a player lays any number of cards of one rank, at least the rank on top
of the pile (anything on an empty pile), or draws one card and then plays or passes. A joker
counts as the rank its player names. When the turn comes back to whoever laid the pile's last
cards, the pile goes under the stock and he leads. A two is laid alone: every other player
draws one card, the pile is cleared and the two's player leads again. After a play, a run of
k > 1 cards of one rank on top of the pile makes the next player draw k - 1 cards. An empty
stock is rebuilt from the pile less its highest-ranked cards. Normal/Elite: the first player
out is the Emperor and the round ends (out with a joker: he is a Subject and play goes on).
Mirror modes: players out are the Elect, the last one holding cards (or out with a joker) is
the Outcast, and the first out without a joker is also the round's Emperor (the others his
Subjects). Elite modes count card values (3-10, J 11, Q 12, K 13, A 14, 2 15, joker 20) for
the Emperor (Subjects' cards) or the Outcast (all cards left). From round two, exchanges open
the round, by mode: Elite and Mirror Elite, the Emperor's (Subjects give him a highest card,
he gives each one a card of his choice); Mirror Normal and Mirror Elite, the Outcast's (he
gives each Elect a highest card, each Elect gives him one); Mirror Elite has both, the
Emperor's first; Normal has none.
Normal/Mirror Normal last `rounds` rounds; Elite modes end when a player reaches
`target_points` (he wins in Elite, loses in Mirror Elite).

Moves (`type`, `player`, and):
  play   cards: the cards laid; rank: the rank they count as (listed moves always carry it;
         needed when only jokers are laid). Listed moves hold one canonical choice per
         (rank, natural count, joker count): lowest suits first, X1 before X2; `apply` accepts
         any equivalent cards of the hand. Sorted by rank, naturals, jokers; at most 171 by
         construction, 120 the largest met in random matches (docs/rules/empereur.md).
  draw   no field; once a turn, instead of playing first
  pass   no field; only after drawing
  give   card, to: a gift of an exchange (several players may have to give at once)

Options: jokers (0-2, default 2), mode (normal, elite, mirror_normal, mirror_elite),
rounds (1-50, default 3), target_points (1-10000, default 500).

See docs/rules/empereur.md for each clause of the text, the reading taken, and its test.
"""

from . import hints
from .engine import Empereur

ENGINE = Empereur(advisor=hints.advise)
