"""Records of real matches played over HTTP, as a client keeps them (docs/FAIRNESS.md,
"The record"): the creation's and every move's events, the commitment and the revealed seed."""

from __future__ import annotations

import copy
import math
import random

from referee.core.playout import random_move
from referee.games import REGISTRY

# Matches with many draws after the deal: an Empereur stock rebuilt and cleared piles drawn
# again, Huit américain's stock reshuffled (tests/fairness/test_fairness_draws, tests/e2e).
EMPEREUR = {"game_id": "empereur", "seed": 64, "players": 6}
HUIT = {"game_id": "huit-americain", "seed": 41, "players": 4,
        "options": {"when_stuck": "draw_until_playable", "target": 200}}


def record_match(client, game_id: str, seed: int, viewer: str | None = None,
                 players: int | None = None, contribute: bool = False,
                 options: dict | None = None) -> dict:
    """A match played at random to its end. With `contribute`, seeds are contributed as
    docs/FAIRNESS.md describes: the back end's and p0's at creation, after a committed server
    seed, and p1's own when he is first to act (accepted where nothing concerning him has
    been drawn yet: Generala dice; refused as too late in the card games)."""
    engine = REGISTRY[game_id]
    pick = random.Random(seed)
    players = [f"p{i}" for i in range(players or engine.min_players)]
    options = engine.playout_options if options is None else options
    extra = {"viewer": viewer} if viewer else {}
    # A fixed seed keeps each record the same from run to run (a contributed match's server
    # seed is the referee's own, committed first).
    creation = {"players": players, "options": options, **extra}
    if not contribute:
        creation["seed"] = f"record {seed}"
    if contribute:
        committed = client.post(f"/v1/games/{game_id}/seeds", json={}).get_json()
        creation.update(seed_token=committed["seed_token"], contributions=[
            {"seed": f"back end {seed}"}, {"player": "p0", "seed": f"p0 {seed}"}])
    outcome = client.post(f"/v1/games/{game_id}/matches", json=creation).get_json()
    if contribute:
        assert outcome["seed_commitment"] == committed["seed_commitment"]
    record = {"game": game_id, "players": players, "options": options, "moves": [], **extra,
              "seed_commitment": outcome["seed_commitment"], "events": [outcome["events"]]}
    late = "p1" if contribute else None
    while outcome["status"] != "finished":
        if late in outcome["to_act"]:
            answer = client.post(f"/v1/games/{game_id}/contributions", json={
                "state": outcome["state"], "player": late, "seed": f"p1 {seed}"})
            if answer.status_code == 200:
                outcome = {**outcome, "state": answer.get_json()["state"]}
            else:
                assert answer.get_json()["code"] == "contribution_too_late"
            late = None
        moves = outcome["legal_moves"]
        if viewer:  # a player's own record: the others' moves come from the full list
            moves = client.post(f"/v1/games/{game_id}/legal-moves",
                                json={"state": outcome["state"]}).get_json()["legal_moves"]
        move = random_move(engine, moves, pick)
        outcome = client.post(f"/v1/games/{game_id}/moves",
                              json={"state": outcome["state"], "move": move, **extra}).get_json()
        record["moves"].append(move)
        record["events"].append(outcome["events"])
    record["seed"] = outcome["seed"]
    if "contributions" in outcome:
        record["contributions"] = outcome["contributions"]
    return record


def unseen_draws(record: dict) -> list[dict]:
    """Draws by other players than the record's viewer: their chance object is public, the
    cards it names only the drawer saw, so the record cannot check them."""
    viewer = record.get("viewer")
    return [e for events in record["events"] for e in events
            if "chance" in e and viewer and e.get("player") not in (None, viewer)
            and e["chance"].get("field", "").split("[].")[0] not in e]


def chance_events(record: dict) -> list[dict]:
    """The chance events the record can check: all but the unseen draws."""
    hidden = [id(e) for e in unseen_draws(record)]
    return [e for events in record["events"] for e in events
            if "chance" in e and id(e) not in hidden]


def seen_draws(record: dict) -> list[dict]:
    """Cards drawn from a stock's shuffled part whose cards the record shows."""
    return [e for e in chance_events(record) if e["type"] == "cards_drawn"]


def _outcomes(chance: dict) -> int:
    """How many outcomes the part of a draw that its event shows has: a shuffle showing k of
    its n cards shows one of n!/(n-k)! arrangements."""
    if chance["draw"] == "dice":
        return 6 ** chance["count"]
    if chance["draw"] == "pick":
        return len(chance["items"])
    deck = chance.get("deck") or {}
    cards = len(chance.get("items") or ()) or 52 * deck.get("copies", 1) + deck.get("jokers", 0)
    return math.perm(cards, len(chance.get("positions") or ()) or cards)


def altered(record: dict) -> dict[str, dict]:
    """Copies of `record` each changed in one way a dishonest referee (or a doctored record)
    would change it; every one must be flagged."""
    out = {"wrong seed": dict(record, seed=record["seed"] + "x")}
    shown = [e for e in chance_events(record) if "field" in e["chance"]]
    first = shown[0]
    path = [(a, i) for a, events in enumerate(record["events"])
            for i, e in enumerate(events) if e is first][0]

    # A moved step is caught only if the other step's stream draws another outcome: the
    # event with the most possible outcomes is moved (a pick between two dealers would come
    # out the same half the time).
    strongest = max(shown, key=lambda e: _outcomes(e["chance"]))
    strongest_path = [(a, i) for a, events in enumerate(record["events"])
                      for i, e in enumerate(events) if e is strongest][0]

    def change(name, how, where=path):
        doctored = copy.deepcopy(record)
        how(doctored["events"][where[0]][where[1]])
        out[name] = doctored

    def other_outcome(event):
        field = event["chance"]["field"]
        items = event["chance"].get("items") or ["2C", "3C", "X1", "KH"]
        name, _, key = field.partition("[].")
        value = event[name]
        if key:
            value[0][key] = next(x for x in items if x != value[0][key])
        elif isinstance(value, list) and isinstance(value[0], int):
            value[0] = value[0] % 6 + 1  # another face
        elif isinstance(value, list):
            value[0] = next(x for x in items if x not in value)
        else:
            event[name] = next(x for x in items if x != value)

    def other_step(event):
        event["chance"]["step"] += 1

    change("an outcome changed", other_outcome)
    draws = seen_draws(record)
    if draws:
        def other_card(event):
            # The last card drawn swapped for another one of the deck.
            event["cards"][-1] = next(c for c in ("2C", "3D", "X1", "KH", "AS")
                                      if c not in event["cards"])

        last = draws[-1]
        change("a drawn card changed", other_card,
               [(a, i) for a, events in enumerate(record["events"])
                for i, e in enumerate(events) if e is last][0])
    change("the step moved", other_step, strongest_path)
    if record.get("contributions"):
        def other(how):
            doctored = copy.deepcopy(record)
            how(doctored)
            return doctored

        def fewer_named(event):
            event["chance"]["contributions"] = event["chance"].get("contributions", 0) - 1

        out["a contribution's seed changed"] = other(
            lambda r: r["contributions"][-1].update(seed=r["contributions"][-1]["seed"] + "x"))
        out["a contribution left out"] = other(lambda r: r["contributions"].pop())
        change("the chance names fewer contributions", fewer_named)
    return out
