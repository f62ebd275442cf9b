"""The engines in process, for `make bench`: moves per second of each game's engine with its
random player (legal moves listed at every step), in slices that show the machine's drift,
and Huit américain against RLCard's UNO in the same process, in turns; and the sealed form of
move requests, which the HTTP, in-process and replay rows post to a sealed referee."""

from __future__ import annotations

import json
import random
import statistics
import time

from referee.core.playout import random_move
from referee.games import REGISTRY
from referee.http.sealing import Sealer
from referee.service.codec import Match, StateCodec

NOW = 1_000_000.0
# The sealed-mode bench key (any key of 32 characters or more; never one in use).
BENCH_KEY = "bench-sealing-key-of-at-least-32-characters"
# Targets, read off a run of `make bench` (never timed tests): every engine in process, and
# Huit américain against RLCard's UNO measured in the same process.
ENGINE_TARGET = 100_000  # moves per second, legal moves listed at every step
UNO_RATIO_TARGET = 1.5


def random_match(engine, players: int, seed: int, options: dict | None = None):
    """Yield (state, move) along one random match, legal moves listed at every step, with
    `options` (by default the game's playout options)."""
    pick = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    options = engine.resolve_options(engine.playout_options if options is None else options)
    state = engine.new_match(names, options, f"bench-{seed}", now=NOW)
    while not engine.is_finished(state):
        move = random_move(engine, engine.legal_moves(state, now=NOW), pick)
        yield state, move
        state, _ = engine.apply(state, move, now=NOW)
    yield state, None


def engine_rate(engine, seconds: float, slices: int = 10) -> tuple[float, float, int, list[float]]:
    """Moves per second of `engine` in random matches, legal moves listed at every step: over
    the time spent in the engine (creating matches, listing, applying, asking whether a match
    is over) and over the whole loop, the player's choice included; matches started; and the
    engine's rate in each of `slices` equal slices of the run, one after another (how far the
    machine's load moved it while it ran). The player is the shared random player with the
    game's playout options."""
    options = engine.resolve_options(engine.playout_options)
    clock = time.perf_counter
    moves, matches, seed = 0, 0, 0
    in_engine = 0.0
    slice_length = seconds / slices
    slice_rates: list[float] = []
    slice_moves, slice_engine = 0, 0.0
    start = clock()
    slice_end = start + slice_length
    while clock() - start < seconds:
        seed += 1
        players = engine.min_players + seed % (min(engine.max_players, 4) - engine.min_players + 1)
        pick = random.Random(seed)
        began = clock()
        state = engine.new_match(tuple(f"p{i}" for i in range(players)), dict(options),
                                 f"bench-{seed}", now=NOW)
        finished = engine.is_finished(state)
        ended = clock()
        in_engine += ended - began
        slice_engine += ended - began
        while not finished and ended - start < seconds:
            began = clock()
            moves_now = engine.legal_moves(state, now=NOW)
            chosen = clock()
            move = random_move(engine, moves_now, pick)
            applying = clock()
            state, _ = engine.apply(state, move, now=NOW)
            finished = engine.is_finished(state)
            ended = clock()
            spent = ended - applying + chosen - began
            in_engine += spent
            slice_engine += spent
            moves += 1
            slice_moves += 1
            if ended >= slice_end:
                slice_rates.append(slice_moves / slice_engine)
                slice_moves, slice_engine = 0, 0.0
                slice_end += slice_length
        matches += 1
    return moves / in_engine, moves / (clock() - start), matches, slice_rates


def spread(slice_rates: list[float]) -> str:
    """The engine's rates in the slices of its run, for a verdict's line: their range and
    median (none when the run was shorter than a slice)."""
    if not slice_rates:
        return ""
    return (f"; its {len(slice_rates)} slices {min(slice_rates):,.0f} to "
            f"{max(slice_rates):,.0f}, median {statistics.median(slice_rates):,.0f}")


def uno_rate(seconds: float) -> tuple[float, int] | None:
    """RLCard's raw UNO game (two players) with random legal moves: moves per second and games
    played, or None when rlcard is not installed (it is in the `bench` extra)."""
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=2)
    game.np_random.seed(0)
    pick = random.Random(0)
    moves = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            game.step(pick.choice(game.get_legal_actions()))
            moves += 1
        games += 1
    return moves / (time.perf_counter() - start), games


def uniform_rate(engine, seconds: float) -> tuple[float, int]:
    """Moves per second of `engine` in whole random matches with the default options and a
    uniform choice, legal moves listed at every step, timed as `uno_rate` times UNO: the
    clock read once a match, not around each move as `engine_rate` reads it to tell the
    engine's time from the player's (reads that UNO's loop does not pay); and matches played."""
    options = engine.resolve_options({})
    pick = random.Random(0)
    seats = min(engine.max_players, 4) - engine.min_players + 1
    moves = matches = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        matches += 1
        players = tuple(f"p{i}" for i in range(engine.min_players + matches % seats))
        state = engine.new_match(players, dict(options), f"bench-{matches}", now=NOW)
        while not engine.is_finished(state):
            state, _ = engine.apply(state, pick.choice(engine.legal_moves(state, now=NOW)),
                                    now=NOW)
            moves += 1
    return moves / (time.perf_counter() - start), matches


def versus_uno(seconds: float, slices: int = 10) -> None:
    """huit-americain against RLCard's UNO, both measured now in this process: the ratio of
    our moves per second (legal moves listed at every step) to RLCard's must reach
    UNO_RATIO_TARGET. Each
    gets `seconds` in all, in slices taken in turn (UNO first, then us first), so that a change
    of load on a shared machine weighs on both alike. The verdict is on the ratio of the mean
    rates; the ratios of the slices taken side by side are printed beside it (their range and
    median), so that a reader sees how far the machine's noise moves it."""
    engine = REGISTRY["huit-americain"]
    ours = uno = 0.0
    matches = games = 0
    pairs: list[float] = []
    for k in range(slices):
        rates = {}
        for side in ("uno", "ours") if k % 2 == 0 else ("ours", "uno"):
            if side == "uno":
                got = uno_rate(seconds / slices)
                if got is None:
                    print("rlcard is not installed (pip install -e '.[bench]'): comparison skipped")
                    return
                games += got[1]
            else:
                got = uniform_rate(engine, seconds / slices)
                matches += got[1]
            rates[side] = got[0]
        uno += rates["uno"] / slices
        ours += rates["ours"] / slices
        pairs.append(rates["ours"] / rates["uno"])
    ratio = ours / uno
    verdict = "meets" if ratio >= UNO_RATIO_TARGET else "BELOW"
    print(f"huit-americain {ours:10,.0f} moves/s over {matches} matches; RLCard UNO "
          f"{uno:10,.0f} moves/s over {games} games; ratio {ratio:.2f} ({verdict} the "
          f"{UNO_RATIO_TARGET} target; the {slices} slices side by side "
          f"{min(pairs):.2f} to {max(pairs):.2f}, median {statistics.median(pairs):.2f})")


def sealed(game_id: str, bodies: list[bytes], key: str = BENCH_KEY) -> list[bytes]:
    """The same requests with each state sealed under `key`, as a sealed referee takes them."""
    engine, codec = REGISTRY[game_id], StateCodec(Sealer([key]))
    out = []
    for body in bodies:
        data = json.loads(body)
        data["state"] = codec.dump(engine, StateCodec(None).load_match(engine, data["state"]))
        out.append(json.dumps(data).encode())
    return out
