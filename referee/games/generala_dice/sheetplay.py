"""Solitaire games of any declared sheet played by the exact solver's policy
(`sheetsolver.SheetSolver`), many games at once, with dice from a seeded numpy generator: what
`python -m bench.sheets` sets beside the exact optimum. Not the referee: the rules here are the
solver's own tables (`SheetSolver.box_table`, `outcome`), which the solver's tests check
against a longhand reference; a simulation owns its dice so that its figures stay
reproducible on their own.

A turn: the first roll rolls all five dice; after each of the first two rolls the player fills
the best box unless a keep is worth more, then rolls the dice he does not keep; after the third
he fills the best box (`TurnChoices.choose`: between choices within `TIE` of each other the
earlier, boxes before keeps, in the order `turnplan` uses). Every roll of n dice draws n fresh
dice.
"""

from __future__ import annotations

import numpy as np

from referee.games.dice_sheets.scorers import counts_of

from . import dicetables as dt
from .sheetsolver import SheetSolver, TurnChoices

BATCH = 1000  # games played side by side: a box table is boxes x 252 x BATCH floats
KEEP_COUNTS = np.array([counts_of(keep)[1:] for keep in dt.KEEPS])
HAND_COUNTS = np.array([counts_of(hand)[1:] for hand in dt.HANDS])
PLACES = len(dt.FACES) ** np.arange(len(dt.FACES))  # a hand's counts read as a number
HAND_OF_CODE = np.full(len(dt.FACES) ** len(dt.FACES), -1)
HAND_OF_CODE[HAND_COUNTS @ PLACES] = np.arange(len(dt.HANDS))
FACE_OF_FIVE = np.array([hand[0] if len(set(hand)) == 1 else 0 for hand in dt.HANDS])


def play(solver: SheetSolver, games: int, seed: int) -> np.ndarray:
    """The final scores of `games` solitaire games, the same for the same seed."""
    rng = np.random.default_rng(seed)
    return np.concatenate([play_batch(solver, min(BATCH, games - start), rng)
                           for start in range(0, games, BATCH)])


def roll(rng: np.random.Generator, keeps: np.ndarray) -> np.ndarray:
    """The hands after keeping KEEPS[k] for each k of `keeps` and rolling the other dice."""
    rolled = dt.DICE - KEEP_COUNTS[keeps].sum(axis=1)
    dice = rng.integers(0, len(dt.FACES), size=(len(keeps), dt.DICE))
    used = np.arange(dt.DICE) < rolled[:, None]
    new = ((dice[..., None] == np.arange(len(dt.FACES))) & used[..., None]).sum(axis=1)
    return HAND_OF_CODE[(KEEP_COUNTS[keeps] + new) @ PLACES]


def play_batch(solver: SheetSolver, count: int, rng: np.random.Generator) -> np.ndarray:
    states = np.zeros(count, dtype=np.int64)
    totals = np.zeros(count)
    for _ in range(solver.box_count):
        box, hand, first_roll = play_turn(solver, states, rng)
        points, child = fill(solver, states, box, hand, first_roll)
        totals += points
        states = child
    return totals


def play_turn(solver: SheetSolver, states: np.ndarray, rng: np.random.Generator):
    """(box, hand, first_roll) per game: the box each fills this turn, with which hand, and
    whether after the first roll (servida)."""
    count = len(states)
    unique, column = np.unique(states, return_inverse=True)
    turn = TurnChoices(solver, unique)
    hand = roll(rng, np.zeros(count, dtype=np.intp))
    chosen = np.full(count, -1)
    first_roll = np.zeros(count, dtype=bool)
    for rolls_made in (1, 2, 3):
        playing = chosen < 0
        choice = turn.choose(rolls_made, hand, column)
        stop = playing & (choice < solver.box_count)
        chosen[stop] = choice[stop]
        first_roll[stop] = rolls_made == 1
        rolling = playing & ~stop
        kept = dt.SUBKEEPS[hand[rolling], choice[rolling] - solver.box_count]
        hand[rolling] = roll(rng, kept)
    return chosen, hand, first_roll


def fill(solver: SheetSolver, states, boxes, hands, first_roll):
    """(points, state after) per game: filling boxes[g] with hands[g], every bonus and the
    joker rule included."""
    filled, upper, flags = solver.split(states)
    faces = FACE_OF_FIVE[hands]
    jokers = solver.joker_applies(filled) & (faces > 0)
    servida = first_roll.astype(int) if solver.servida else 0
    points = solver.points[servida, boxes, hands]
    earned = np.where(faces > 0, solver.repeat_bonus(flags), 0).astype(float)
    after = states.copy()
    for box in np.unique(boxes):
        these = boxes == box
        joker = np.nonzero(these & jokers)[0]
        if len(joker):
            scored = solver.joker_scores(filled[joker], box, 0)
            points[joker] = scored[faces[joker] - 1, np.arange(len(joker))]
        reward, child = solver.outcome(filled[these], upper[these], flags[these], box,
                                       points[these])
        earned[these] += reward
        after[these] = child
    return earned, after
