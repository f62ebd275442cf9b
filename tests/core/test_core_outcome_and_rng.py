"""The shared core: private parts of events, the seeded random source, cards."""

from __future__ import annotations

import pytest

from referee.core import cards, rng
from referee.core.outcome import event_for

EVENT = {"type": "card_drawn", "player": "ann", "private": {"player": "ann", "card": "AS"}}
SHARED = {"type": "card_given", "private": {"players": ["ann", "bob"], "card": "KH"}}


@pytest.mark.parametrize("event,viewer,sees", [
    (EVENT, None, True), (EVENT, "ann", True), (EVENT, "bob", False),
    (SHARED, None, True), (SHARED, "ann", True), (SHARED, "bob", True), (SHARED, "cy", False),
], ids=["trusted-caller", "owner", "other", "shared-trusted", "shared-giver", "shared-receiver",
        "shared-outsider"])
def test_a_private_part_reaches_only_the_players_it_names(event, viewer, sees):
    shown = event_for(event, viewer)
    assert "private" not in shown
    assert ("card" in shown) is sees
    assert "players" not in shown


def test_each_step_has_its_own_stream_and_replays_exactly():
    assert rng.stream("s", 3).dice(5) == rng.stream("s", 3).dice(5)
    assert rng.stream("s", 3).block(0) != rng.stream("s", 4).block(0)
    assert rng.stream("s", 3).block(0) != rng.stream("t", 3).block(0)


def test_the_commitment_is_sha256_of_the_seed():
    import hashlib
    assert rng.commitment("abc") == hashlib.sha256(b"abc").hexdigest()
    assert len(rng.new_seed()) == 32 and rng.new_seed() != rng.new_seed()


def test_conservation_names_missing_extra_and_foreign_cards():
    deck = cards.standard_deck(jokers=2)
    assert len(deck) == 54 and len(set(deck)) == 54
    assert cards.conservation_problems({"all": deck}, deck) == []
    broken = {"hand": deck[1:] + ("AS", "ZZ")}
    problems = cards.conservation_problems(broken, deck)
    assert any("2C is missing" in p for p in problems)
    assert any("AS appears" in p for p in problems)
    assert any("'ZZ'" in p for p in problems)


def test_two_decks_are_a_multiset():
    deck = cards.standard_deck(jokers=2, decks=2)
    assert len(deck) == 108 and deck.count("X1") == 2
    assert cards.conservation_problems({"a": deck[:50], "b": deck[50:]}, deck) == []


def test_a_refused_word_in_a_shuffle_is_skipped_as_below_skips_it(monkeypatch):
    # A draw below n refuses a word n / 2**32 of the time at most, so no seed reaches a
    # refusal in a shuffle: blocks are made up here with refused words (0xFFFFFFFF is at or
    # past the limit of every n that is not a power of 2), among them the last of the words
    # a shuffle reads first (one a swap), so that the swaps left read on past them. The
    # shuffle must equal Fisher-Yates drawn with `below`, and the stream must go on right
    # after the last word the shuffle read.
    refused = 0xFFFFFFFF

    def made_up(pads, step, index):
        words = [(index * 8 + k) * 2654435761 % refused for k in range(8)]
        for k in {0: (3, 6), 1: (0, 3)}.get(index, ()):  # words 3, 6, 8 and 11 of the stream
            words[k] = refused
        return b"".join(w.to_bytes(4, "big") for w in words)

    monkeypatch.setattr(rng, "_block", made_up)
    items = [f"c{i}" for i in range(10)]  # 9 swaps: words 0-8 are read first
    expected, by_below = list(items), rng.stream("made up", 0)
    for i in range(len(expected) - 1, 0, -1):
        j = by_below.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    shuffling = rng.stream("made up", 0)
    assert shuffling.shuffle(items) == expected
    assert shuffling.word() == by_below.word()
