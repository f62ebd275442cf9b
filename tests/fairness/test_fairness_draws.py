"""Cards drawn from a stock after the deal (docs/FAIRNESS.md, "Drawn cards"): in records of
real matches of Empereur (a rebuilt stock, cleared piles drawn again) and Huit américain
(reshuffled stocks), every draw from a shuffle names that shuffle and the positions of its
cards and is confirmed from the seed by the spec alone, in Python and in the JavaScript of the
/verify page; a changed drawn card is flagged; cleared cards drawn again are said to be no
chance; a player's own record checks his draws and lists the others' as unseen."""

from __future__ import annotations

import copy
import json
from collections import defaultdict

import pytest

import referee
from tests.fairness.script import verify_match

from .node import node
from .records import EMPEREUR, HUIT, chance_events, record_match, seen_draws, unseen_draws



@pytest.fixture(scope="module")
def records():
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    out = {}
    for setup in (EMPEREUR, HUIT):
        setup = dict(setup)
        game_id = setup.pop("game_id")
        seed = setup.pop("seed")
        out[game_id] = record_match(client, game_id, seed, **setup)
        out[f"{game_id} as p1"] = record_match(client, game_id, seed, viewer="p1", **setup)
    return out


def events_of(record):
    return [e for events in record["events"] for e in events]


def test_the_records_draw_from_rebuilt_stocks_and_from_under_the_stock(records):
    emp = events_of(records["empereur"])
    rebuilt = {e["chance"]["step"]: e["chance"]["items"] for e in emp
               if e["type"] == "stock_rebuilt"}
    draws = [e for e in emp if e["type"] == "cards_drawn" and "chance" in e]
    after = [e for e in draws if e["chance"]["step"] in rebuilt]
    assert len(draws) > 50 and len(rebuilt) > 5 and len(after) > 10
    for e in after:  # the shuffle named is the rebuild's, with the same cards
        assert e["chance"]["items"] == rebuilt[e["chance"]["step"]] and "deck" not in e["chance"]
        assert e["source"] == "shuffle"
    under = [e for e in emp if e.get("source") == "under_stock"]
    assert len(under) > 5
    assert all("chance" not in e and e["count"] > 0 for e in under)

    huit = events_of(records["huit-americain"])
    reshuffled = {e["chance"]["step"]: e["chance"]["items"] for e in huit
                  if e["type"] == "reshuffled"}
    draws = [e for e in huit if e["type"] == "cards_drawn" and e["count"]]
    assert all("chance" in e for e in draws) and len(draws) > 30
    after = [e for e in draws if e["chance"]["step"] in reshuffled]
    assert len(reshuffled) >= 3 and len(after) > 10
    assert all(e["chance"]["items"] == reshuffled[e["chance"]["step"]] for e in after)


@pytest.mark.parametrize("name", ["empereur", "huit-americain"])
def test_each_position_of_a_shuffle_is_shown_once(records, name):
    """The deal's hands and the cards drawn after it name distinct positions of one shuffle:
    no card of a shuffle is shown twice, as a stacked or replayed stock would."""
    shown = defaultdict(list)
    for e in events_of(records[name]):
        c = e.get("chance")
        if c and c["draw"] == "shuffle" and e["type"] != "dealer_draw":
            shown[c["step"]] += c.get("positions", [])
    assert shown
    for step, positions in shown.items():
        assert len(positions) == len(set(positions)), step


@pytest.mark.parametrize("name", ["empereur", "huit-americain"])
def test_every_draw_is_confirmed_by_the_spec_alone(records, name):
    record = records[name]
    for e in seen_draws(record):
        assert verify_match.check_chance(record["seed"], e) is None, e
    problems, confirmed = verify_match.check_events(record)
    assert problems == [] and confirmed == len(chance_events(record))
    assert verify_match.verify(record, with_replay=True) == []


def doctored_draws(record) -> dict[str, dict]:
    """A drawn card changed, two drawn cards swapped, a position moved, a card drawn twice:
    each must be flagged."""
    draws = seen_draws(record)
    rebuilt_steps = {e["chance"]["step"] for e in events_of(record)
                     if e["type"] in ("stock_rebuilt", "reshuffled")}
    late = next(e for e in draws if e["chance"]["step"] in rebuilt_steps)
    pair = next(e for e in draws if len(set(e["cards"])) > 1)
    out = {}
    for name, target, how in (
            ("a card from the deal's shuffle changed", draws[0],
             lambda e: e["cards"].__setitem__(0, next(
                 c for c in ("2C", "3D", "KH") if c not in e["cards"]))),
            ("a card from a rebuilt stock changed", late,
             lambda e: e["cards"].__setitem__(-1, next(
                 c for c in e["chance"]["items"] if c not in e["cards"]))),
            ("two drawn cards swapped", pair, lambda e: e["cards"].reverse()),
            ("a position moved", late,
             lambda e: e["chance"]["positions"].__setitem__(0, e["chance"]["positions"][0] ^ 1))):
        doctored = copy.deepcopy(record)
        where = [(a, i) for a, events in enumerate(record["events"])
                 for i, e in enumerate(events) if e is target][0]
        how(doctored["events"][where[0]][where[1]])
        out[name] = doctored
    # The same card of a shuffle drawn again later: every event, alone, is what the seed
    # gives, but a shuffled card comes out once.
    out["a drawn card drawn again"] = dict(
        record, events=record["events"] + [[copy.deepcopy(late)]])
    return out


@pytest.mark.parametrize("name", ["empereur", "huit-americain"])
def test_a_doctored_draw_is_flagged_by_the_spec_alone(records, name):
    for change, doctored in doctored_draws(records[name]).items():
        problems = verify_match.verify(doctored)
        assert len(problems) == 1 and "cards_drawn" in problems[0], change


@pytest.mark.parametrize("name", ["empereur", "huit-americain"])
def test_a_players_record_checks_his_draws_and_lists_the_others(records, name):
    record = records[f"{name} as p1"]
    assert verify_match.verify(record) == []
    mine = seen_draws(record)
    others = unseen_draws(record)
    assert mine and others
    assert {e["player"] for e in mine} == {"p1"}
    assert "p1" not in {e["player"] for e in others}
    assert all("cards" not in e and e["chance"]["positions"] for e in others)


def test_the_javascript_confirms_every_draw_and_flags_each_doctored_one(records, tmp_path):
    sent = dict(records)
    for name in ("empereur", "huit-americain"):
        for change, doctored in doctored_draws(records[name]).items():
            sent[f"{name}: {change}"] = doctored
    path = tmp_path / "records.json"
    path.write_text(json.dumps(sent), encoding="utf-8")
    run = node("verify_records.cjs", str(path))
    assert run.returncode == 0, run.stdout + run.stderr
    results = json.loads(run.stdout)
    for name, record in records.items():
        got = results[name]
        assert got["problems"] == [], name
        assert got["checks"] == got["confirmed"] == len(chance_events(record)), name
        assert got["unseen"] == len(unseen_draws(record)), name
    for name in sent:
        if ":" in name:
            got = results[name]
            assert len(got["problems"]) == 1 and "cards_drawn" in got["problems"][0], name
            assert got["confirmed"] == got["checks"] - 1, name


def _opened(client, game_id, moves, **creation):
    """An open-mode state of `game_id` after some moves (a stock drawn from, for Empereur a
    pile cleared under it)."""
    outcome = client.post(f"/v1/games/{game_id}/matches", json={
        "players": ["p0", "p1", "p2"], "seed": "stock origin", **creation}).get_json()
    for _ in range(moves):
        move = next((m for m in outcome["legal_moves"] if m["type"] == "draw"),
                    outcome["legal_moves"][0])
        outcome = client.post(f"/v1/games/{game_id}/moves",
                              json={"state": outcome["state"], "move": move}).get_json()
    return outcome["state"]


BROKEN_ORIGINS = {
    "a start past the shuffled order": lambda s: s.update(stock_start=200),
    "a start before the dealt cards": lambda s: s.update(stock_start=0),
    "a step not drawn yet": lambda s: s.update(stock_step=s["step"]),
    "a negative start": lambda s: s.update(stock_start=-1),
    "unsorted shuffled cards": lambda s: s.update(stock_step=0, stock_start=0,
                                                  stock_shuffled=["KH", "2C"]),
    "a recorded start without a shuffle": lambda s: s.update(stock_step=-1),
    "no stock origin (a state written before it was recorded)":
        lambda s: [s.pop(k) for k in ("stock_step", "stock_shuffled", "stock_start")],
}


@pytest.mark.parametrize("game_id", ["empereur", "huit-americain"])
@pytest.mark.parametrize("change", sorted(BROKEN_ORIGINS))
def test_a_posted_state_with_an_inconsistent_stock_origin_is_refused(game_id, change):
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    state = _opened(client, game_id, 6)
    assert client.post(f"/v1/games/{game_id}/legal-moves",
                       json={"state": state}).status_code == 200
    broken = copy.deepcopy(state)
    BROKEN_ORIGINS[change](broken)
    answer = client.post(f"/v1/games/{game_id}/legal-moves", json={"state": broken})
    assert answer.status_code == 422, change
    assert answer.get_json()["code"] == "invalid_state", change


@pytest.mark.parametrize("change, value", [("stock_known", -1), ("stock_known", 999)])
def test_an_empereur_state_with_more_cleared_cards_than_its_stock_is_refused(change, value):
    client = referee.create_app({"STATE_KEYS": []}).test_client()
    state = dict(_opened(client, "empereur", 6), **{change: value})
    answer = client.post("/v1/games/empereur/legal-moves", json={"state": state})
    assert answer.status_code == 422 and answer.get_json()["code"] == "invalid_state"


@pytest.mark.parametrize("part, shuffled, sound", [
    (("KH", "2C"), ("2C", "3D", "KH"), True),
    (("KH", "AS"), ("2C", "3D", "KH"), False),  # a card the shuffle did not shuffle
    (("KH", "KH"), ("2C", "KH", "KH"), True),  # two decks: twins
    (("KH", "KH"), ("2C", "3D", "KH"), False),  # one card of the shuffle shown twice
])
def test_a_stock_holds_only_what_its_shuffle_shuffled(part, shuffled, sound):
    from referee.core.chance import stock_origin_problems

    problems = stock_origin_problems(part, 0, shuffled, 1, 54, 1, 0, drawn_first="front")
    assert problems == ([] if sound else ["the stock holds cards its shuffle did not shuffle"])
