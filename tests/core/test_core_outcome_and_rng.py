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
