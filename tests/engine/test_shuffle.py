"""The fair shuffle (pusoy/engine/shuffle.py) and the worked example of docs/fairness.md."""

from __future__ import annotations

import hashlib
import hmac
import itertools
from pathlib import Path

import pytest

from pusoy.engine import Rules, commitment, deal_from_seed, new_seed, shuffle_deck
from pusoy.engine.shuffle import byte_stream, uniform

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
SEED = bytes(range(32))
EXAMPLE = {
    "seed": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
    "block0": "9f0cd9b94097fe4929918d2b8942b34439574261a35dc50163f06c67d4e48899",
    "deck_start": "2D JC 3H KC QC 4H 7D QD QS 4C 2C 4S",
    "hands": [
        "4D 5C 6H 7H 8C TC JH QC QS QH KS KH 2D",
        "3S 4C 4H 5S 7S 8H 9S 9D TS TH JC AC 2S",
        "3C 3H 5H 5D 6C 7D 8S 8D TD JD KD 2C 2H",
        "3D 4S 6S 6D 7C 9C 9H JS QD KC AS AH AD",
    ],
}


def test_fairness_doc_example_matches_the_code() -> None:
    doc = DOC.read_text()
    for value in (EXAMPLE["seed"], EXAMPLE["commitment"], EXAMPLE["block0"]):
        assert value in doc
    assert EXAMPLE["deck_start"] in doc
    for seat, hand in enumerate(EXAMPLE["hands"]):
        assert f"| {seat} | {hand} |" in doc
    assert SEED.hex() == EXAMPLE["seed"]
    assert commitment(SEED) == EXAMPLE["commitment"]
    block0 = hmac.new(SEED, bytes(8), hashlib.sha256).hexdigest()
    assert block0 == EXAMPLE["block0"]
    assert bytes(itertools.islice(byte_stream(SEED), 32)).hex() == EXAMPLE["block0"]
    deck = shuffle_deck(SEED)
    assert " ".join(map(str, deck[:12])) == EXAMPLE["deck_start"]
    hands, aside = deal_from_seed(SEED, Rules.from_spec("philippine"), 4)
    assert [" ".join(map(str, h)) for h in hands] == EXAMPLE["hands"]
    assert aside == ()


def test_fairness_doc_reference_implementation_agrees() -> None:
    doc = DOC.read_text()
    code = doc.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(code, namespace)  # the doc's standalone implementation
    for seed in (SEED, bytes(32), b"\xff" * 32):
        assert namespace["shuffle"](seed) == [str(c) for c in shuffle_deck(seed)]


def test_uniform_draws_have_no_modulo_bias() -> None:
    """Over every byte value, each accepted result occurs equally often."""
    for n in range(1, 53):
        counts = [0] * n
        for b in range(256):
            stream = iter([b, 0])
            value = uniform(stream, n)
            if next(stream, None) is None:  # b was rejected and 0 consumed
                continue
            counts[value] += 1
        assert len(set(counts)) == 1, n


def test_shuffle_is_a_deterministic_permutation() -> None:
    deck = shuffle_deck(SEED)
    assert len(set(deck)) == 52
    assert deck == shuffle_deck(SEED)
    assert deck != shuffle_deck(bytes(32))


def test_seeds_and_commitments() -> None:
    seed = new_seed()
    assert isinstance(seed, bytes)
    assert len(seed) == 32
    assert new_seed() != seed
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    with pytest.raises(ValueError, match="32 bytes"):
        commitment(b"short")
    with pytest.raises(ValueError, match="32 bytes"):
        shuffle_deck(b"short")


def test_deal_is_roughly_uniform() -> None:
    """A light sanity check: over 2000 seeds, each card lands in each seat near 1/4."""
    counts = [[0] * 4 for _ in range(52)]
    for k in range(2000):
        seed = hashlib.sha256(k.to_bytes(4, "big")).digest()
        hands, _ = deal_from_seed(seed, Rules.from_spec(None), 4)
        for seat, hand in enumerate(hands):
            for card in hand:
                counts[card.index][seat] += 1
    for row in counts:
        for c in row:
            assert 400 < c < 600  # mean 500, sd ~19
