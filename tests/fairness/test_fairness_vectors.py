"""The random source against the vectors of docs/FAIRNESS.md, in Python and (under node) in
the JavaScript the /verify page runs."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections import Counter

import pytest

from referee.core import cards, contributions, dice, rng

from .node import ROOT, node

DOC = (ROOT / "docs" / "FAIRNESS.md").read_text(encoding="utf-8")
VECTORS = json.loads(re.search(r"## Test vectors.*?```json\n(.*?)```", DOC, re.S).group(1))


def next_word_is_word(stream: rng.Stream, case: dict, index: int) -> bool:
    """Whether the word `stream` gives next is word `index` of a fresh stream of `case`: the
    draws before it consumed exactly `index` words."""
    fresh = rng.stream(case["seed"], case["step"])
    for _ in range(index):
        fresh.word()
    return stream.word() == fresh.word()


@pytest.mark.parametrize("case", VECTORS["commitments"], ids=lambda c: c["seed"])
def test_commitment_vectors(case):
    assert rng.commitment(case["seed"]) == case["commitment"]


@pytest.mark.parametrize("case", VECTORS["blocks"], ids=lambda c: f"{c['step']}:{c['index']}")
def test_block_vectors_are_plain_hmac_sha256(case):
    message = f"{case['step']}:{case['index']}".encode()
    expected = hmac.new(case["seed"].encode("utf-8"), message, hashlib.sha256).hexdigest()
    assert expected == case["hex"]
    assert rng.stream(case["seed"], case["step"]).block(case["index"]).hex() == case["hex"]


def test_word_vectors_read_the_blocks_big_endian():
    case = VECTORS["words"][0]
    stream = rng.stream(case["seed"], case["step"])
    assert [stream.word() for _ in case["words"]] == case["words"]
    first = bytes.fromhex(VECTORS["blocks"][0]["hex"])
    assert case["words"][0] == int.from_bytes(first[:4], "big")


@pytest.mark.parametrize("case", VECTORS["below"], ids=lambda c: f"below-{c['n']}")
def test_below_vectors(case):
    stream = rng.stream(case["seed"], case["step"])
    assert [stream.below(case["n"]) for _ in case["draws"]] == case["draws"]
    assert next_word_is_word(stream, case, case["words_read"])


def test_the_vectors_exercise_rejection():
    rejecting = [c for c in VECTORS["below"] if c["words_read"] > len(c["draws"])]
    assert rejecting, "a vector must show words being skipped"


@pytest.mark.parametrize("case", VECTORS["dice"], ids=lambda c: f"dice-{c['step']}")
def test_dice_vectors(case):
    assert list(dice.roll(case["seed"], case["step"], case["count"])) == case["dice"]


@pytest.mark.parametrize("case", VECTORS["shuffles"], ids=lambda c: f"shuffle-{len(c['items'])}")
def test_shuffle_vectors_sort_then_fisher_yates(case):
    assert case["items"] == sorted(case["items"])
    assert Counter(case["order"]) == Counter(case["items"])
    shuffled = list(cards.shuffled(list(reversed(case["items"])), case["seed"], case["step"]))
    assert shuffled == case["order"], "the order the cards come in does not matter"


@pytest.mark.parametrize("n", [0, -1, 2**32 + 1])
def test_below_refuses_an_empty_or_too_wide_range(n):
    with pytest.raises(ValueError):
        rng.stream("s", 0).below(n)


def test_rejection_keeps_every_value_equally_likely():
    # n = 3 * 2**30: words at or above 3 * 2**30 (a quarter of them) are skipped; a modulo
    # would make 0 .. 2**30 - 1 twice as likely as the rest.
    n = 3 * 2**30
    stream = rng.stream("uniform", 0)
    low = sum(stream.below(n) < 2**30 for _ in range(6000))
    assert 1700 < low < 2300  # a third expected (2000); a modulo bias would give about 3000


def test_dice_faces_are_uniform():
    stream = rng.stream("dice", 1)
    counts = Counter(stream.die() for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values())


def test_the_javascript_source_matches_the_vectors():
    result = node("vectors.cjs")
    assert result.returncode == 0, result.stdout + result.stderr
    total = sum(len(VECTORS[k]) for k in VECTORS)
    assert f"vectors ok: {total}" in result.stdout


def test_a_named_deck_is_the_standard_deck_sorted():
    import importlib.util
    spec = importlib.util.spec_from_file_location("verify_match",
                                                  ROOT / "scripts" / "verify_match.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.deck_items({"jokers": 2, "copies": 1}) == VECTORS["shuffles"][0]["items"]
    for jokers in (0, 1, 2):
        for copies in (1, 2):
            assert script.deck_items({"jokers": jokers, "copies": copies}) == sorted(
                cards.standard_deck(jokers=jokers, decks=copies))
    assert script.deck_items({"jokers": 3, "copies": 1}) is None


@pytest.mark.parametrize("case", VECTORS["keys"], ids=lambda c: str(len(c["contributions"])))
def test_key_vectors_chain_plain_hmac_sha256(case):
    expected = case["seed"]
    for one in case["contributions"]:
        expected = hmac.new(expected.encode("utf-8"), one.encode("utf-8"),
                            hashlib.sha256).hexdigest()
    assert expected == case["key"]
    assert contributions.key(case["seed"], case["contributions"]) == case["key"]


def test_the_key_vectors_include_several_contributions_and_none():
    counts = {len(c["contributions"]) for c in VECTORS["keys"]}
    assert 0 in counts and max(counts) >= 3


@pytest.mark.parametrize("case", VECTORS["contributed_dice"], ids=lambda c: str(c["step"]))
def test_contributed_dice_vectors(case):
    key = contributions.key(case["seed"], case["contributions"])
    assert list(dice.roll(key, case["step"], case["count"])) == case["dice"]
    assert list(dice.roll(case["seed"], case["step"], case["count"])) != case["dice"]


@pytest.mark.parametrize("seed", ["", "s", "é" * 31, "k" * 63, "k" * 64, "k" * 65, "ü" * 40,
                                  "0123456789abcdef" * 8])
def test_blocks_are_hmac_sha256_for_keys_of_every_length(seed):
    # The stream keeps each key's padded hashes: keys shorter than, as long as and longer
    # than SHA-256's 64-byte block (hashed first) must give HMAC-SHA256 all the same.
    stream = rng.stream(seed, 7)
    for index in (0, 1, 12):
        assert stream.block(index) == hmac.digest(seed.encode("utf-8"),
                                                  f"7:{index}".encode(), "sha256")
    assert rng.stream(seed, 7).block(0) == stream.block(0), "a block leaves the key as it was"


def test_dice_and_single_draws_read_the_same_words():
    many = rng.stream("same words", 4)
    one_by_one = rng.stream("same words", 4)
    assert many.dice(5) == tuple(one_by_one.die() for _ in range(5))
    assert many.draws(6, 0) == [] and many.word() == one_by_one.word()


def test_a_shuffle_longer_than_the_table_of_limits_is_still_fisher_yates():
    # Draws below n up to 255 read their limit from a table, above it compute it: a shuffle of
    # 300 items crosses from one to the other and must equal Fisher-Yates drawn word by word.
    items = [f"{i:03d}" for i in range(300)]
    expected = list(items)
    stream = rng.stream("long shuffle", 2)
    for i in range(len(expected) - 1, 0, -1):
        j = stream.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert rng.stream("long shuffle", 2).shuffle(items) == expected
