"""Generala (dice): random whole matches through the engine, checking invariants at every step.

Hypothesis picks the players (2 to 6), the options, the seed, the clock (sometimes jumping past
the deadline so timeouts happen) and, at every step, one of the listed legal moves. At each step:
the state is sound (`problems == []`) and survives its wire form; every listed move is accepted;
a sample of moves that are not listed is refused with IllegalMove/NotYourTurn/GameOver; apply
leaves the state it was given untouched and gives the same result twice (no re-roll). Without
the instant-win house rule a match ends after exactly 11 turns for each player.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.errors import GameOver, IllegalMove, NotYourTurn
from referee.games.generala_dice import ENGINE
from referee.games.generala_dice.scoring import BOXES, SERVIDA_BOXES

START = 1_000_000.0
NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


def value(default):
    return st.one_of(st.just(default), st.integers(0, 1000))


def options(house_rule):
    return st.fixed_dictionaries({
        "turn_seconds": st.sampled_from([0, 1, 45, 3600]),
        "servida_generala_wins": house_rule,
        "escalera": value(20), "full": value(30), "poker": value(40), "generala": value(50),
        "doble_generala": value(100), "servida_bonus": value(5),
    })


def candidate_moves(players):
    who = st.sampled_from(players + ("zed",))
    return st.one_of(
        st.builds(lambda p, k: {"type": "roll", "player": p, "keep": k},
                  who, st.lists(st.integers(1, 6), max_size=5)),
        st.builds(lambda p: {"type": "roll", "player": p}, who),
        st.builds(lambda p, b: {"type": "score", "player": p, "box": b},
                  who, st.sampled_from(BOXES)),
        st.builds(lambda p: {"type": "timeout", "player": p}, who),
    )


def canonical(move):
    """The listed form of a move: a roll's keep as sorted values, present even when empty."""
    if move["type"] == "roll":
        return {**move, "keep": sorted(move.get("keep") or [])}
    return move


def play(data, players, opts, seed):
    now = START
    state = ENGINE.new_match(players, ENGINE.resolve_options(opts), seed, now=now)
    scored = Counter()
    finished_events = 0
    unlisted = candidate_moves(players)
    while not ENGINE.is_finished(state):
        assert ENGINE.problems(state) == []
        assert ENGINE.decode(ENGINE.encode(state)) == state

        # The clock: usually a few seconds pass; sometimes the deadline is reached or passed.
        if state.deadline is not None and data.draw(st.integers(0, 7), label="late") == 0:
            now = max(now, state.deadline + data.draw(st.sampled_from([0, 0.5, 600]), label="by"))
        else:
            now += data.draw(st.sampled_from([0, 0.25, 3]), label="tick")

        legal = ENGINE.legal_moves(state, now=now)
        assert legal and legal == ENGINE.legal_moves(state, now=now)
        to_act = ENGINE.to_act(state, now=now)
        expired = state.deadline is not None and now >= state.deadline
        assert to_act == (list(players) if expired else [state.players[state.current]])
        assert {m["player"] for m in legal} == set(to_act)
        if expired:  # the game plays the turn: a timeout by anyone is all that is left
            assert legal == [{"type": "timeout", "player": p} for p in players]
        else:
            assert {m["player"] for m in legal} == {state.players[state.current]}
            assert all(m["type"] != "timeout" for m in legal)
        assert len({repr(m) for m in legal}) == len(legal)

        before = ENGINE.encode(state)
        for move in legal:
            ENGINE.apply(state, move, now=now)  # every listed move is accepted
        for _ in range(3):
            move = data.draw(unlisted, label="unlisted")
            if canonical(move) in legal:
                ENGINE.apply(state, move, now=now)
            else:
                try:
                    ENGINE.apply(state, move, now=now)
                except (IllegalMove, NotYourTurn, GameOver):
                    pass
                else:
                    raise AssertionError(f"unlisted move accepted: {move}")
        assert ENGINE.encode(state) == before

        move = data.draw(st.sampled_from(legal), label="move")
        new, events = ENGINE.apply(state, move, now=now)
        again, events_again = ENGINE.apply(state, move, now=now)
        assert ENGINE.encode(new) == ENGINE.encode(again) and events == events_again
        assert ENGINE.encode(state) == before

        rolls = state.rolls
        for event in events:
            if event["type"] == "dice_rolled":
                assert len(event["dice"]) == 5 and all(1 <= d <= 6 for d in event["dice"])
                assert event["dice"][:len(event["kept"])] == event["kept"]
                assert event["roll"] == rolls + 1 <= 3
                rolls = event["roll"]
            elif event["type"] == "box_scored":
                assert event["player"] == state.players[state.current]
                assert event["servida"] == (rolls == 1)  # servida: scored after the 1st roll
                # the bonus paid, if any: only servida, only Escalera, Full and Póker
                paid = event["servida"] and event["box"] in SERVIDA_BOXES and event["points"]
                assert event["bonus"] == (state.options.servida_bonus if paid else 0)
                scored[event["player"]] += 1
            elif event["type"] == "game_finished":
                finished_events += 1
        totals = ENGINE.scores(new)["players"]
        assert all(totals[p]["total"] == sum(s.values()) for p, s in zip(players, new.sheets))
        state = new

    assert ENGINE.problems(state) == []
    assert finished_events == 1
    assert ENGINE.legal_moves(state, now=now) == [] and ENGINE.to_act(state, now=now) == []
    try:
        ENGINE.apply(state, {"type": "timeout", "player": players[0]}, now=now + 10 ** 6)
    except GameOver:
        pass
    else:
        raise AssertionError("a move was accepted after the end")
    return state, scored


SETTINGS = settings(max_examples=18, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(data=st.data(), count=st.integers(2, 6), opts=options(st.just(False)),
       seed=st.integers(0, 2 ** 64).map(lambda n: f"{n:x}"))
def test_a_random_match_keeps_every_invariant_and_lasts_eleven_turns_each(data, count, opts,
                                                                         seed):
    players = NAMES[:count]
    state, scored = play(data, players, opts, seed)
    assert scored == Counter({p: len(BOXES) for p in players})
    assert all(set(sheet) == set(BOXES) for sheet in state.sheets)
    result = ENGINE.scores(state)
    top = max(r["total"] for r in result["players"].values())
    assert result["winners"] == [p for p in players if result["players"][p]["total"] == top]
    assert result["draw"] == (len(result["winners"]) == count)


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), count=st.integers(2, 6), opts=options(st.just(True)),
       seed=st.integers(0, 2 ** 64).map(lambda n: f"{n:x}"))
def test_a_random_match_with_the_instant_win_house_rule_ends_by_eleven_turns_or_a_servida_generala(
        data, count, opts, seed):
    players = NAMES[:count]
    state, scored = play(data, players, opts, seed)
    if state.instant_winner is None:
        assert scored == Counter({p: len(BOXES) for p in players})
    else:
        assert state.rolls == 1 and len(set(state.dice)) == 1
        assert ENGINE.scores(state)["winners"] == [state.instant_winner]
        assert all(n <= len(BOXES) for n in scored.values())

