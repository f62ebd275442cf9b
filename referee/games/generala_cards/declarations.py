"""What a Générala (cards) match is made of before play: its options, its presets and its
moves (docs/rules/generala-cards.md, "Conventions" and "Where the texts differ").

Rules enforced, in plain words: 2 to 10 players. `variant` names the text followed, "french"
(the default) or "braille" (the German text of the Braillespiel wiki), and fills the rule
booleans that are not given from that text's preset (the table `PRESETS`); a boolean given
explicitly wins over the preset. `dealer` names the first deal's dealer by player id or seat
index, or is empty (the dealer is then drawn from the seed); it has no surrounding spaces.
A move lays a card (`play`, a joker too) or refuses the trick taking one of its cards
(`refuse`).
"""

from __future__ import annotations

from typing import Any

from referee.core.engine import Field, MoveType, Option
from referee.core.errors import InvalidOptions

MIN_PLAYERS = 2
MAX_PLAYERS = 10
VARIANTS = ("french", "braille")
PRESETS: dict[str, dict[str, bool]] = {
    # The French text: none of the German additions; "à 2 joueurs ... un gagnant et un
    # perdant à l'issue de chaque partie".
    "french": {"lead_last_dealt_card": False, "no_joker_after_joker": False,
               "several_out_no_loser": False, "two_player_deal_decides": True,
               "tie_dealt_by_last_card": False},
    # The German text of the Braillespiel wiki: no two-player clause; "wer in einer Runde als
    # letzter eine Karte hatte, gibt in der nächsten Runde".
    "braille": {"lead_last_dealt_card": True, "no_joker_after_joker": True,
                "several_out_no_loser": False, "two_player_deal_decides": False,
                "tie_dealt_by_last_card": True},
}

OPTIONS = (
    Option("variant", "string", "french",
           "which text's rules: 'french' (the default) or 'braille' (the German text); it "
           "sets the defaults of the rule booleans, which may each be given to override it",
           choices=VARIANTS),
    Option("lead_last_dealt_card", "boolean", False,
           "German text: the first trick of a deal is led with the card the leader was "
           "dealt last (default from the variant)"),
    Option("no_joker_after_joker", "boolean", False,
           "German text: right after a joker that was not the lead, the next player may "
           "not play a joker (default from the variant)"),
    Option("several_out_no_loser", "boolean", False,
           "literal reading of the French sentence: when two or more players play their "
           "last card in the trick that ends the deal, nobody loses it even if one player "
           "still holds cards (off in both presets)"),
    Option("two_player_deal_decides", "boolean", True,
           "French text: a deal played by two players always has a loser; if both lay "
           "their last card in the same trick, the one who laid it second (the last to "
           "hold a card) loses (default from the variant: on in french, off in braille, "
           "where such a deal has no loser and is dealt again)"),
    Option("tie_dealt_by_last_card", "boolean", False,
           "German text: after a deal without a loser, the last player who held a card "
           "(the one who laid the deal's last card) deals the next deal and plays in it; "
           "off: the same dealer deals again (default from the variant)"),
    Option("dealer", "string", "",
           "the first deal's dealer, as a player id or a seat index ('0', '1', ...); "
           "empty: drawn from the seed"),
)

OPTION_RULES = (
    ("dealer, when given, names a player of the match or a seat index below the number of "
     "players, with no surrounding spaces."),
)

MOVE_TYPES = (
    MoveType("play", "lay a card from the hand on the trick (a joker too)", (
        Field("card", "card", "the card laid"),
    )),
    MoveType("refuse", "unable to follow suit and laying no joker: end the trick at once, "
             "taking one card of the trick (never a joker) into the hand", (
        Field("take", "card", "the card taken from the trick"),
    )),
)


def with_preset(given: dict[str, Any]) -> dict[str, Any]:
    """The options given, with the rule booleans not given taken from the variant's preset
    (so `variant: "french"` plus `no_joker_after_joker: true` is the French rules with that one
    German rule). An unknown variant fills nothing: the option check then refuses it."""
    variant = given.get("variant", "french")
    preset = PRESETS.get(variant, {}) if isinstance(variant, str) else {}
    return {**preset, **given}


def check_dealer_text(options: dict[str, Any]) -> dict[str, Any]:
    dealer = options["dealer"]
    if dealer != dealer.strip():
        raise InvalidOptions("dealer: no surrounding spaces",
                             problems=["dealer: no surrounding spaces"])
    return options


def dealer_seat(players: tuple[str, ...], dealer: str) -> int | None:
    """The seat the `dealer` option names, or None if it names nobody."""
    if dealer in players:
        return players.index(dealer)
    if dealer.isdigit() and dealer.isascii() and int(dealer) < len(players):
        return int(dealer)
    return None
