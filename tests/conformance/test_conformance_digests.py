"""Seeded random matches of every game answer exactly what they answered when the digests were
taken (`golden_digests.json`): the guard of a restructuring that must change no rule. A change
meant to alter what a game answers rewrites the file (`python -m tests.conformance.digests`)
in the same commit, and its message says why."""

from __future__ import annotations

import json
import pathlib

import pytest

from tests.conformance import digests

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden_digests.json").read_text())


def test_every_case_has_a_golden_digest():
    expected = {f"{g}/{n}" for g, cases in digests.CASES.items() for n in cases}
    expected |= {f"http/{g}" for g in digests.CASES}
    assert set(GOLDEN) == expected


@pytest.mark.parametrize("case", sorted(k for k in GOLDEN if not k.startswith("http/")))
def test_random_matches_answer_as_before(case):
    game, name = case.split("/")
    assert digests.case_digest(game, name) == GOLDEN[case]


@pytest.mark.parametrize("game", sorted(digests.CASES))
def test_http_answers_as_before(game):
    assert digests.http_digest(game) == GOLDEN[f"http/{game}"]
