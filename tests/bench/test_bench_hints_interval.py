"""The strength rows' interval is taken over deals: the matches of one deal (one per seat of
the stronger level) are not independent, the deals are."""

from __future__ import annotations

import math
import statistics

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
