"""The dice-sheet hint latency rows of `make bench`: every level of every sheet asked at
positions of real matches, each answered 200, with its p50, p99 and verdict."""

from __future__ import annotations

import re

import referee
from bench import hint_latency
from referee.games import REGISTRY


class InProcess(hint_latency.Client):
    """The bench's client, answered by an application in this process."""

    def __init__(self):
        self.client = referee.create_app({"STATE_KEYS": []}).test_client()
        self.asked: list[str] = []

    def post(self, path, body):
        answer = self.client.post(path, json=body)
        self.asked.append(path)
        return answer.status_code, answer.get_json(), 0.001

    def ready(self, give_up=120):
        assert self.client.get("/readyz").status_code == 200


def test_every_level_of_every_sheet_gets_a_row(capsys):
    client = InProcess()
    hint_latency.report(client, 5, ["yacht", "empereur"])
    rows = capsys.readouterr().out.splitlines()
    assert [row.split()[:2] for row in rows] == [
        ["yacht", level] for level in REGISTRY["yacht"].hint_levels]
    assert all(re.search(r"p99 +1\.0 ms.*over 5 positions \(meets", row) for row in rows)
    assert client.asked.count("/v1/games/yacht/hints") == 5 * len(rows)
    assert "generala-dice" in hint_latency.SHEET_GAMES and "empereur" not in hint_latency.SHEET_GAMES
