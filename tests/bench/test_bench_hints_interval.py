"""The strength rows' interval is taken over deals: the matches of one deal (one per seat of
the stronger level) are not independent, the deals are. A recorded row is resumed."""

from __future__ import annotations

import json
import math
import statistics

import bench.hints as hints
from bench.hints import deal_interval, wilson


def test_deals_the_levels_play_alike_give_no_spread():
    # Four seats, the stronger level wins each deal in exactly one seat: exactly one in four.
    shares = [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert deal_interval(shares, 4) == (0.25, 0.25)
    low, high = wilson(sum(shares), len(shares))
    assert low < 0.25 < high and high - low > 0.4


def test_interval_is_the_deals_mean_give_or_take_their_standard_errors():
    shares = [1.0, 0.0, 1.0, 1.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0]  # five deals of two seats
    deals = [0.5, 1.0, 0.25, 0.5, 0.0]
    half = 1.96 * statistics.stdev(deals) / math.sqrt(5)
    low, high = deal_interval(shares, 2)
    assert math.isclose(low, 0.45 - half) and math.isclose(high, 0.45 + half)


def test_a_deal_not_played_in_every_seat_is_left_out_and_bounds_stay_shares():
    low, high = deal_interval([1.0, 1.0, 1.0, 1.0, 0.0], 2)
    assert (low, high) == (1.0, 1.0)
    assert deal_interval([1.0, 0.0], 2) == (0.0, 1.0)  # one deal: no spread to read
    low, high = deal_interval([1.0, 1.0, 1.0, 0.0, 1.0, 1.0], 2)
    assert 0.0 <= low < high <= 1.0


class InOrder:
    """A pool that plays the jobs here, in order."""

    def __init__(self, *args):
        pass

    def imap(self, work, jobs, chunksize=1):
        return map(work, jobs)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_recorded_row_goes_on_from_the_matches_it_holds(monkeypatch, tmp_path, capsys):
    played: list[int] = []

    def one_match(job):
        k = job[-1]
        played.append(k)
        return 1.0 if k % 4 == 0 else 0.0  # the stronger level wins in seat 0 of each deal

    monkeypatch.setattr(hints, "one_match", one_match)
    monkeypatch.setattr(hints, "hint_time", lambda game_id: 1.0)
    monkeypatch.setattr(hints.multiprocessing, "Pool", InOrder)
    record = tmp_path / "shares.json"
    hints.report(8, ("generala-cards",), (("hard", "medium"),), (4,), str(record))
    assert played == list(range(8))
    kept = json.loads(record.read_text())
    assert kept == {"generala-cards hard-medium 4": [1.0, 0, 0, 0, 1.0, 0, 0, 0]}
    played.clear()
    hints.report(12, ("generala-cards",), (("hard", "medium"),), (4,), str(record))
    assert played == [8, 9, 10, 11]  # the first eight were read, not played again
    out = capsys.readouterr().out
    assert "8 matches recorded" in out and "win rate  25.0 % [25.0, 25.0]" in out
    assert len(json.loads(record.read_text())["generala-cards hard-medium 4"]) == 12


def test_a_row_with_a_small_edge_is_played_longer(monkeypatch, capsys):
    played: list[tuple] = []
    monkeypatch.setattr(hints, "one_match", lambda job: played.append(job) or 0.0)
    monkeypatch.setattr(hints, "hint_time", lambda game_id: 1.0)
    monkeypatch.setattr(hints.multiprocessing, "Pool", InOrder)
    hints.report(8, ("huit-americain",), (("hard", "medium"),), (2, 4))
    head_to_head = [job for job in played if job[3] == 2]
    four_seats = [job for job in played if job[3] == 4]
    factor = hints.LONGER[("huit-americain", "hard", "medium", 4)]
    assert factor > 1 and len(head_to_head) == 8 and len(four_seats) == 8 * factor
    assert f"{8 * factor:5d} matches" in capsys.readouterr().out


def test_a_table_with_a_move_limit_ends_its_matches_there(monkeypatch):
    limits = []

    def play_match(engine, levels, options, seed, **limit):
        limits.append(limit)
        return [1.0] + [0.0] * (len(levels) - 1)

    monkeypatch.setattr(hints, "play_match", play_match)
    assert hints.one_match(("empereur", "hard", "medium", 4, 0)) == 1.0
    assert hints.one_match(("empereur", "hard", "medium", 4, 1)) == 0.0
    hints.one_match(("empereur", "hard", "medium", 2, 0))
    assert limits == [{"max_moves": hints.MOVE_LIMIT[("empereur", 4)]}] * 2 + [{}]
