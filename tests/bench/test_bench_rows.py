"""The HTTP section of `make bench` gives a rate only for runs in which every request was
answered with success: a server that refuses the bodies answers faster than one that serves
them, so its rate would be no figure of the endpoint."""

from __future__ import annotations

import argparse

import pytest

import bench.__main__ as bench
import bench.engines as engines

ECHO, OURS, BASELINE = 1, 2, 3


def run(monkeypatch, capsys, failures: dict[int, int],
        baseline_bodies: list[bytes] = [b"{}"]) -> list[str]:
    def fake_wrk(wrk, port, path, bodies, seconds, connections):
        # The echo of the baseline's own bodies runs at twice the rate of the echo of ours.
        rate = 1000.0 * port * (2 if port == ECHO and bodies == [b"B"] else 1)
        return rate, failures.get(port, 0), "1ms"

    monkeypatch.setattr(bench, "wrk_rate", fake_wrk)
    args = argparse.Namespace(seconds=1.0, clients=1)
    bench.http_versus_echo("generala-dice", "open", {"referee": OURS, "baseline": BASELINE},
                           ECHO, {"referee": [b"{}"], "baseline": baseline_bodies}, args, "wrk")
    return capsys.readouterr().out.splitlines()


def test_rows_with_every_request_served_give_rates_and_ratios(monkeypatch, capsys):
    ours, baseline = run(monkeypatch, capsys, {})
    assert "ratio 2.00" in ours and "INVALID" not in ours
    assert "ratio 3.00" in baseline and baseline.endswith("[baseline]")


@pytest.mark.parametrize("failing", [BASELINE, ECHO])
def test_a_row_with_refusals_is_marked_invalid_without_a_rate(monkeypatch, capsys, failing):
    ours, baseline = run(monkeypatch, capsys, {failing: 7})
    assert "INVALID" in baseline and "ratio 3" not in baseline and "req/s" not in baseline
    assert ("INVALID" in ours) == (failing == ECHO)
    name = "baseline" if failing == BASELINE else "echo"
    # 7 in the untimed slice that warms each server, and in each round
    assert f"({name} {7 * (1 + bench.HTTP_ROUNDS)})" in baseline


def test_wrk_socket_errors_count_as_failures(monkeypatch, tmp_path):
    report = ("Requests/sec:   1234.5\n  Socket errors: connect 0, read 2, write 0, timeout 3\n"
              "  Non-2xx or 3xx responses: 4\n     99%    5.00ms\n")

    class Done:
        stdout = report

    monkeypatch.setattr(bench.subprocess, "run", lambda *a, **k: Done())
    assert bench.wrk_rate("wrk", 1, "/", [b"{}"], 1.0, 1) == (1234.5, 9, "5.00ms")


def test_a_baseline_given_bodies_of_its_own_is_compared_with_the_echo_of_those(monkeypatch,
                                                                              capsys):
    ours, baseline = run(monkeypatch, capsys, {}, baseline_bodies=[b"B"])
    assert "ratio 2.00" in ours
    assert "ratio 1.50" in baseline and "echo   2,000 req/s" in baseline


def test_engine_rate_counts_the_engines_time_apart_from_the_players(monkeypatch):
    # A player that takes a known while per move: the whole loop's rate pays for it, the
    # engine's rate does not.
    slow = []

    def sleepy_player(engine, moves, rnd):
        engines.time.sleep(0.002)
        slow.append(1)
        return moves[0]

    monkeypatch.setattr(engines, "random_move", sleepy_player)
    in_engine, whole, matches, slices = engines.engine_rate(engines.REGISTRY["generala-dice"],
                                                            0.4, slices=4)
    assert matches >= 1 and slow
    assert whole < 500 < 2000 < in_engine  # at most one move per 2 ms with the player
    # The run's four slices, each timed as the whole run is: the engine's time alone (the
    # last slice is cut short when the run ends between two matches).
    assert 3 <= len(slices) <= 4 and all(rate > 2000 for rate in slices)


def test_the_engine_line_shows_the_slices_range_and_median():
    assert engines.spread([110_000.0, 90_000.0, 100_000.0]) == (
        "; its 3 slices 90,000 to 110,000, median 100,000")
    assert engines.spread([]) == ""  # a run shorter than a slice shows none


def test_the_uno_comparison_times_whole_matches_reading_the_clock_once_a_match(monkeypatch):
    # UNO's loop reads the clock once a game; ours must pay for no more reads than that. A
    # clock that moves one second a read: the first match starts at 1 s, is played to its
    # end whatever its length, and the second read afterwards (2 s) is past the 1.5 s given.
    ticks = iter(range(100))
    monkeypatch.setattr(bench.time, "perf_counter", lambda: next(ticks))
    engine = engines.REGISTRY["huit-americain"]
    applied = []
    real_apply = engine.apply

    def counted(state, move, *, now):
        applied.append(move)
        return real_apply(state, move, now=now)

    monkeypatch.setattr(engine, "apply", counted)
    rate, matches = engines.uniform_rate(engine, 1.5)
    assert matches == 1 and len(applied) > 10
    assert rate == len(applied) / 3  # start at 0, checks at 1 and 2, the end read at 3


def test_the_uno_comparison_gives_its_verdict_on_the_mean_rates_and_shows_the_slices(
        monkeypatch, capsys):
    # Four slices: UNO steady at 100 moves/s, ours at 120, 180, 150, 150: the mean rates give
    # 1.50 (the target met), the slices side by side 1.20 to 1.80 with a median of 1.50.
    ours = iter([120.0, 180.0, 150.0, 150.0])
    monkeypatch.setattr(engines, "uno_rate", lambda seconds: (100.0, 3))
    monkeypatch.setattr(engines, "uniform_rate", lambda engine, seconds: (next(ours), 2))
    engines.versus_uno(4.0, slices=4)
    line = capsys.readouterr().out.strip()
    assert "over 8 matches" in line and "over 12 games" in line
    assert "ratio 1.50 (meets the 1.5 target" in line
    assert "the 4 slices side by side 1.20 to 1.80, median 1.50" in line


def test_the_uno_comparison_says_below_when_the_mean_rates_miss_the_target(monkeypatch,
                                                                           capsys):
    ours = iter([140.0, 160.0])
    monkeypatch.setattr(engines, "uno_rate", lambda seconds: (110.0, 1))
    monkeypatch.setattr(engines, "uniform_rate", lambda engine, seconds: (next(ours), 1))
    engines.versus_uno(2.0, slices=2)
    line = capsys.readouterr().out.strip()
    assert "ratio 1.36 (BELOW the 1.5 target" in line
    assert "1.27 to 1.45, median 1.36" in line


def test_each_server_is_driven_once_untimed_before_the_rounds(monkeypatch, capsys):
    """A worker's first requests of a game fill its tables: the first slice of each server
    is slow here, and the figures are those of the rounds after it (the referee's rate
    grows by 100 a slice: its nine rounds give 2,100 to 2,900, median 2,500; with the slow
    slice counted the median would be 2,450)."""
    calls: dict[int, int] = {}

    def fake_wrk(wrk, port, path, bodies, seconds, connections):
        calls[port] = calls.get(port, 0) + 1
        if calls[port] == 1:
            return 10.0, 0, "1ms"
        return (1000.0 if port == ECHO else 2000.0 + 100 * (calls[port] - 1)), 0, "1ms"

    monkeypatch.setattr(bench, "wrk_rate", fake_wrk)
    args = argparse.Namespace(seconds=1.0, clients=1)
    bench.http_versus_echo("generala-dice", "sealed", {"referee": OURS}, ECHO,
                           {"referee": [b"{}"]}, args, "wrk")
    (line,) = capsys.readouterr().out.splitlines()
    assert bench.HTTP_ROUNDS == 9
    assert "referee   2,500 req/s" in line and "echo   1,000 req/s" in line
    assert "ratio 2.50" in line
    assert calls == {ECHO: 10, OURS: 10}


@pytest.mark.parametrize("default, cost, verdict", [(1960.0, "2.0%", "meets"),
                                                    (1800.0, "10.0%", "ABOVE")])
def test_the_row_with_the_request_log_off_says_what_the_log_costs(monkeypatch, capsys,
                                                                  default, cost, verdict):
    """The referee at its default settings, then the same with its request log off, against
    one echo of the same bodies: the second row gives the log's cost, the share of the
    log-off rate the default one loses."""
    log_off = 4
    rates = {ECHO: 1000.0, OURS: default, log_off: 2000.0}
    calls: dict[int, int] = {}

    def fake_wrk(wrk, port, path, bodies, seconds, connections):
        calls[port] = calls.get(port, 0) + 1
        return rates[port], 0, "1ms"

    monkeypatch.setattr(bench, "wrk_rate", fake_wrk)
    args = argparse.Namespace(seconds=1.0, clients=1)
    bench.http_versus_echo("generala-dice", "open", {"referee": OURS, bench.LOG_OFF: log_off},
                           ECHO, {"referee": [b"{}"], bench.LOG_OFF: [b"{}"]}, args, "wrk")
    ours, off = capsys.readouterr().out.splitlines()
    assert f"ratio {default / 1000:.2f} (meets the 0.9 target)" in ours
    assert (f"ratio 2.00 (the request log costs {cost} of the default's req/s: {verdict} the "
            f"5% target)") in off
    assert off.endswith("[request log off]") and "echo   1,000 req/s" in off
    assert calls == {ECHO: 10, OURS: 10, log_off: 10}
