"""`bench.instructions`: the counting loops and the summary of callgrind's parts."""

from __future__ import annotations

import argparse

import bench.instructions as instructions
from referee.games import REGISTRY

EVENTS = "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw"


def part(ir: int, i1: int, d1: int, events: str = EVENTS) -> str:
    values = [ir, 0, 0, i1, d1, 0, 0, 0, 0][:len(events.split()) - 1]
    return f"version: 1\n{events}\nfn=(1) x\n1 2\ntotals: {' '.join(map(str, values))}\n"


def test_the_summary_divides_each_measured_part_by_its_moves_with_the_cache_misses(
        tmp_path, capsys):
    phases = ["setup", "empereur:warm:900", "empereur:measure:50", "rlcard-uno:warm:90",
              "rlcard-uno:measure:40", "end"]
    (tmp_path / "phases").write_text("\n".join(phases))
    out = tmp_path / "cg.out"
    # part k + 1 holds what was counted after phase k's mark; the last phase's is `out` itself
    counts = [(1, 1, 1), (999, 9, 9), (500_000, 1_000, 2_000), (7, 7, 7), (4_000_000, 400, 800),
              (3, 3, 3)]
    for k, (ir, i1, d1) in enumerate(counts[:-1], start=1):
        (tmp_path / f"cg.out.{k}").write_text(part(ir, i1, d1))
    out.write_text(part(*counts[-1]))
    instructions.summary(argparse.Namespace(phases=tmp_path / "phases", summary=str(out),
                                            requests=100))
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 2
    assert rows[0].split() == ["empereur", "10,000", "instructions/move,", "L1", "misses",
                               "20", "instruction", "40", "data", "(50", "moves)"]
    assert rows[1].startswith("rlcard-uno") and "100,000 instructions/move" in rows[1]
    assert "10 instruction" in rows[1] and "20 data" in rows[1]


def test_an_http_part_is_divided_by_the_requests_and_has_no_misses_uncounted(tmp_path, capsys):
    (tmp_path / "phases").write_text("setup\ngenerala-dice:open:warm\n"
                                     "generala-dice:open:measure\nend")
    for k, ir in enumerate((5, 6, 25_000), start=1):
        (tmp_path / f"cg.out.{k}").write_text(part(ir, 0, 0, events="events: Ir"))
    (tmp_path / "cg.out").write_text(part(1, 0, 0, events="events: Ir"))
    instructions.summary(argparse.Namespace(phases=tmp_path / "phases",
                                            summary=str(tmp_path / "cg.out"), requests=100))
    assert capsys.readouterr().out.split() == ["generala-dice:open", "250",
                                               "instructions/request"]


def test_the_engine_loop_plays_whole_seeded_matches_until_enough_moves():
    engine = REGISTRY["huit-americain"]
    one_match = instructions.engine_moves(engine, range(1, 2), 10**9, uniform=True)
    assert one_match > 1
    # Asked for one move, it still plays the first match to its end, the same one again.
    assert instructions.engine_moves(engine, range(1, 100), 1, uniform=True) == one_match
    made = instructions.engine_moves(engine, range(1, 100), 3 * one_match, uniform=False)
    assert made >= 3 * one_match
    assert instructions.engine_moves(engine, range(1, 100), 3 * one_match, uniform=False) == made


def test_each_counted_slice_holds_its_moves_alone(monkeypatch, tmp_path):
    # callgrind dumps a part at every mark (os.getppid): a slice's part must hold its loop
    # and nothing else, the collector's full pass before it included.
    log: list[str] = []
    monkeypatch.setattr(instructions.os, "getppid", lambda: log.append("mark"))
    monkeypatch.setattr(instructions.gc, "collect", lambda: log.append("collect"))

    def play(*args, **kwargs):
        log.append("play")
        return 7

    monkeypatch.setattr(instructions, "engine_moves", play)
    monkeypatch.setattr(instructions, "uno_moves", play)
    phases = tmp_path / "phases"
    instructions.measure_engines(argparse.Namespace(games="generala-dice", moves=1,
                                                    warm_moves=1, phases=phases))
    names = phases.read_text().split("\n")
    # the part after mark k (the k-th entry of the log's marks) is that of phase k
    assert log.count("mark") == len(names) - 1
    slices = [name for name in names if name.endswith(":7")]
    assert len(slices) == log.count("play") >= 4  # warm and measure of each loop
    marks = [i for i, entry in enumerate(log) if entry == "mark"]
    for i, entry in enumerate(log):
        if entry == "play":  # a mark right before and right after it
            assert log[i - 1] == log[i + 1] == "mark"
            # and the phase that part stands for is a counted slice
            assert names[marks.index(i + 1)].endswith(":7")
