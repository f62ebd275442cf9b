"""The legal moves of a state (docs/rules/empereur.md, clauses 5-8, 10, 19-20, and "Legal
moves: encoding and size").

In play, the player whose turn it is may lay any number of cards of one rank, at least the
rank on top of the pile (any rank on an empty pile), jokers counting as the rank he names; a
two (natural, or a joker named two) is laid alone. Instead of laying he may draw one card, and
once he has drawn he may pass. Suits never matter, so one play is listed per (rank, natural
count, joker count): the lowest-suited naturals, X1 before X2; `apply` accepts any equivalent
cards of the hand. Plays are listed by rank, low to high, then by naturals, then by jokers,
and the draw (or the pass) last: at most 171 moves (docs/rules/empereur.md).

In the exchange, each player who owes a gift may give any card of his hand, or in the forced
stages one of his highest cards (a joker is highest), to the player he owes it to.
"""

from __future__ import annotations

from bisect import bisect_left

from referee.core.engine import Move
from referee.core.memo import BoundedMemo

from .exchanges import highest, is_forced
from .ranks import CARD_KEY, CARD_STRENGTH, RANK_ORDER, STRENGTH, TWO
from .state import State


def rank_plays(player: str, rank: str, naturals: tuple[str, ...],
               jokers: tuple[str, ...]) -> tuple[Move, ...]:
    """The plays of one rank from these naturals (every card of that rank the hand holds, in
    hand order) and jokers: jokers alone first, then each count of naturals alone and with
    the jokers; a two is laid alone. The plays of the first n naturals begin those of the
    first n + 1."""
    joker_sets = [jokers[:count] for count in range(1, len(jokers) + 1)]  # X1, then X1 and X2
    if rank == TWO:
        sets = joker_sets[:1] + [naturals[:1]] * bool(naturals)
    else:
        sets = joker_sets + [naturals[:count] + extra for count in range(1, len(naturals) + 1)
                             for extra in ((), *joker_sets)]
    # a fresh list per move: moves stay apart from each other and from the hand
    return tuple({"type": "play", "player": player, "cards": list(cards), "rank": rank}
                 for cards in sets)


class Naturals:
    """The naturals of one rank a listing has met so far in a hand (the lowest-suited ones:
    a hand is in suit order within a rank), and what they add to the listing: the plays of
    these naturals that those before them did not make (the first natural also brings the
    rank's plays of jokers alone). The walks one natural longer are kept by that natural, so
    a listing walks a hand card by card."""

    __slots__ = ("player", "jokers", "cards", "rank", "plays", "made", "longer")

    def __init__(self, player: str, jokers: tuple[str, ...], cards: tuple[str, ...],
                 made: int):
        self.player, self.jokers, self.cards = player, jokers, cards
        self.rank = cards[0][0] if cards else None
        plays = rank_plays(player, self.rank, cards, jokers) if cards else ()
        self.plays = plays[made:]
        self.made = len(plays)
        # by the next natural: filled as hands are met, and bounded by the deck (the higher
        # suits of this rank; from none, the 52 naturals)
        self.longer: dict[str, Naturals] = {}

    def lengthened(self, card: str) -> Naturals:
        """These naturals and one more of their rank (or, from none, a first one), made the
        first time a hand holds them and kept."""
        longer = self.longer[card] = Naturals(self.player, self.jokers, self.cards + (card,),
                                              self.made)
        return longer


class SeatPlays:
    """The moves one player holding these jokers may be listed: the plays of jokers alone over
    each span of ranks, the walk of naturals from none, and the draw and the pass."""

    __slots__ = ("jokers_alone", "no_naturals", "turn_end")

    def __init__(self, seat: tuple[str, tuple[str, ...]]):
        player, jokers = seat
        # jokers_alone[low][high]: the plays of jokers alone as each rank of strength `low` to
        # below `high` (none when high <= low)
        alone = [rank_plays(player, rank, (), jokers) for rank in RANK_ORDER]
        spans = range(len(RANK_ORDER) + 1)
        self.jokers_alone = tuple(tuple(sum(alone[low:high], ()) for high in spans)
                                  for low in spans)
        self.no_naturals = Naturals(player, jokers, (), 0)
        # indexed by `drawn`: a turn ends by drawing, then by passing
        self.turn_end = ({"type": "draw", "player": player}, {"type": "pass", "player": player})


# The jokers a hand holds, by its last two cards: jokers come last in hand order, two at most.
JOKERS_ENDING = {ending: tuple(card for card in ending if card[0] == "X")
                 for ending in [()] + [(card,) for card in CARD_KEY]
                 + [(before, last) for before in CARD_KEY for last in CARD_KEY]}

# The moves listed are made once and shared (the engine contract lets listed moves be shared:
# callers never change them). A server sees few players at once: a table per player and
# jokers held.
SEAT_PLAYS: BoundedMemo[tuple[str, tuple[str, ...]], SeatPlays] = BoundedMemo(256)


def play_moves(state: State) -> list[Move]:
    """The moves of the player in turn: his plays rank by rank from the pile's top rank up,
    the ranks where he holds no natural played by jokers alone, then the draw or the pass."""
    hand = state.hands[state.current]
    jokers = JOKERS_ENDING[hand[-2:]]
    seat = SEAT_PLAYS.get((state.players[state.current], jokers), SeatPlays)
    floor = STRENGTH[state.pile_ranks[-1]] if state.pile_ranks else 0
    moves: list[Move] = []
    reached = floor  # the lowest rank not listed yet
    naturals = seat.no_naturals
    # A hand is held in strength order, jokers last: the naturals that reach the pile's rank
    # are one slice of it, from the first card placed at or past that rank (four suits a rank).
    first = bisect_left(hand, floor * 4, key=CARD_KEY.__getitem__) if floor else 0
    for card in hand[first:len(hand) - len(jokers)]:
        if card[0] != naturals.rank:  # the first natural of a rank
            strength = CARD_STRENGTH[card]
            moves += seat.jokers_alone[reached][strength]
            reached = strength + 1
            naturals = seat.no_naturals
        try:
            naturals = naturals.longer[card]
        except KeyError:
            naturals = naturals.lengthened(card)
        moves += naturals.plays
    moves += seat.jokers_alone[reached][len(RANK_ORDER)]
    moves.append(seat.turn_end[state.drawn])
    return moves


def give_moves(state: State) -> list[Move]:
    """The gifts still due, giver by giver in seat order: any card of his hand, or in a
    forced stage one of his highest cards."""
    forced = is_forced(state.exchange_stage)
    return [{"type": "give", "player": state.players[giver], "card": card,
             "to": state.players[receiver]}
            for giver, receiver in sorted(state.gifts)
            for card in dict.fromkeys(highest(state.hands[giver]) if forced
                                      else state.hands[giver])]
