"""Shuffling a deck exactly as :meth:`random.Random.shuffle` does, at a fraction of its cost.

A game is reproducible from its seed, so a deal must be the very permutation the standard library
gives: this is its algorithm (Fisher–Yates, each index drawn by rejection from ``getrandbits``),
written without a method call per card. CPython could change its algorithm one day: the module
checks at import that both agree on sample decks, and uses the standard library's otherwise.
"""

from __future__ import annotations

from random import Random
from typing import TypeVar

_Card = TypeVar("_Card")


def _shuffle_inline(rng: Random, cards: list[_Card]) -> None:
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def _agrees_with_random() -> bool:
    for seed in range(8):
        mine, theirs = list(range(106)), list(range(106))
        _shuffle_inline(Random(seed), mine)
        Random(seed).shuffle(theirs)
        if mine != theirs:
            return False
    return True


_INLINE = _agrees_with_random()


def shuffle(rng: Random, cards: list[_Card]) -> None:
    """Shuffle ``cards`` in place, as ``rng.shuffle(cards)`` would."""
    if _INLINE and type(rng) is Random:
        _shuffle_inline(rng, cards)
    else:
        rng.shuffle(cards)
