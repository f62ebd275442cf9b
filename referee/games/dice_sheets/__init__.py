"""Five-dice score sheets as declarations (`declaration.Sheet`), with the scorers they are built
from (`scorers`) and the sheets themselves: `generala.GENERALA`, the sheet the `generala-dice`
game plays.

A sheet is data: its boxes, what each scores, the fixed values, the bonuses and the special
rules. The dice game's turn (three rolls, keep any dice, fill one box, the clock, the timeout,
sealed dice) is written once, in `referee.games.generala_dice`, and reads the sheet it plays
from the match's options (`Options.sheet`), never a box name of its own.

Design choice: each sheet is to be a game of the catalogue (`generala-dice`, then `yams`,
`yacht`), all played by that one dice-game engine, rather than a `sheet` option of one dice
game. A catalogue game declares its options, its operations and its state to callers, and each
sheet differs there: its box names (the contract types a `score` move's box and a sheet's keys
exactly), its house rules (Generala's house values and instant win mean nothing on a Yacht
sheet; Yams' Yahtzee preset means nothing on Generala's) and its rules document. As one game
with a `sheet` option, every one of these would be a union checked at run time, and Generala's
wire format, which must stay as it is, would change. The site's « table de Yams, choisissez la
feuille » maps onto this by choosing the game id.
"""
