"""The replay rows of `make bench` (bench/replays.py) run: the bodies they post are served
(a refused one would fail the row), and a replay beats posting its moves one by one."""

from __future__ import annotations

from bench import replays


def test_a_replay_row_serves_every_body_and_counts_every_move():
    played = replays.matches("generala-dice", 1)
    (creation, posts, _), = played
    # Generala at a usual table of four, its turn clock off (bench/replays.py says why).
    assert creation["options"] == {"turn_seconds": 0} and len(creation["players"]) == 4
    assert len(posts) > 100
    one_by_one, replayed, moves = replays.rates("generala-dice", "sealed", 1, rounds=1)
    assert moves == len(posts)
    assert replayed > one_by_one
