"""Générala, the Cameroonian trick-taking card game (rule texts, in French, the default, and in
German, the `braille` variant: docs/rules/generala-cards.md).

Rules enforced, in plain words: 54 cards (52 and two jokers), 2 to 10 players seated in the
order of `players`; "to the right" and "counter-clockwise" mean the next index, wrapping round.
Every deal, all 54 cards go one at a time to the players still in the match, starting at the
dealer's right (so hands differ by one card at most). The first dealer is drawn from the seed
or named by the `dealer` option; the player to the dealer's right leads the first trick.
Ranks low to high: 2 3 4 5 6 7 8 9 10 J Q K A Joker.

A trick: the leader lays any card; then, in seat order, each player holding cards must follow
the led suit if he can (any card of it). One who cannot may lay a joker (the next players still
follow the first card's suit) or refuse: he lays nothing, takes one card of the trick that is
not a joker into his hand, the rest goes face down out of the game, and the trick ends at once.
After a joker lead everyone lays any card and nobody can refuse. When every player holding cards
has laid one, the trick is complete and goes face down out of the game. The strongest card wins
it (a joker above an ace; of two jokers the first laid) and its player leads next. If he has no
cards left, the strongest card among players still holding cards leads (equal ranks, possible
only after a joker lead, go to the one laid first); if none of them holds cards, the refuser
leads (the French text's "takes the only card on the table and leads").

A player with no cards is out of the deal. When a trick ends with one player alone holding
cards, he loses the deal, is out of the match and deals the next deal, in which he does not
play. When a trick ends with nobody holding cards (the last players all laid their last card in
it), nobody loses and the same dealer deals again (German: the one who laid the last card
deals), except in a deal played by two players in the French text, where the one who laid the
last card loses. The last player in the match wins.

Moves (`type`, `player`, and):
  play     card: the card laid (a joker too)
  refuse   take: the card taken back from the trick (never a joker)

Options: `variant` ("french" default, "braille" = the German text) presets the booleans
`lead_last_dealt_card` (German: the first trick of each deal is led with the leader's
last-dealt card) and `no_joker_after_joker` (German: right after a joker that was not the lead,
the next player may not lay a joker) on in braille, and `two_player_deal_decides` (French:
"à 2 joueurs ... un gagnant et un perdant à l'issue de chaque partie": when the two players of
a deal both go out in its last trick, the one who laid the last card, the last to hold one,
loses; off in braille: no loser, deal again) on in french, and `tie_dealt_by_last_card`
(German: "wer in einer Runde als letzter eine Karte hatte, gibt in der nächsten Runde": after
a deal without a loser the player who laid its last card deals, and plays; off in french: the
same dealer deals again) on in braille; a boolean given explicitly overrides the preset.
`several_out_no_loser` (off in both presets) takes the French sentence literally: when two or
more players go out in the trick that ends the deal, nobody loses even if one player still
holds cards. `dealer`: "" (drawn from the seed), a player id or a seat index.

See docs/rules/generala-cards.md for each clause of the texts and the test that proves it.
"""

from . import hints
from .engine import GeneralaCards

ENGINE = GeneralaCards(advisor=hints.advise)
