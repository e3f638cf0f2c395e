"""Shuffling and choosing exactly as :class:`random.Random` does, at a fraction of its cost.

A game is reproducible from its seed, so a deal must be the very permutation the standard library
gives and a random player's choice the very move: these are its algorithms (Fisher–Yates, each
index drawn by rejection from ``getrandbits``), written without a method call per card. CPython
could change them one day: the module checks at import that both agree on samples, and uses the
standard library's otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import TypeVar

_Card = TypeVar("_Card")
_Item = TypeVar("_Item")


def _shuffle_inline(rng: Random, cards: list[_Card]) -> None:
    getrandbits = rng.getrandbits
    bits = len(cards).bit_length()
    shortest = 1 << bits >> 1  # the smallest size drawn with ``bits`` bits
    for i in range(len(cards) - 1, 0, -1):
        size = i + 1
        if size < shortest:
            bits -= 1
            shortest >>= 1
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def _inline_chooser(rng: Random) -> Callable[[Sequence[_Item]], _Item]:
    getrandbits = rng.getrandbits

    def choose(items: Sequence[_Item]) -> _Item:
        n = len(items)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        bits = n.bit_length()
        index = getrandbits(bits)
        while index >= n:
            index = getrandbits(bits)
        return items[index]

    return choose


def _agrees_with_random() -> bool:
    for seed in range(8):
        mine, theirs = list(range(106)), list(range(106))
        _shuffle_inline(Random(seed), mine)
        Random(seed).shuffle(theirs)
        ours, standard = _inline_chooser(Random(seed)), Random(seed)
        chosen = [ours(mine[: size + 1]) for size in range(106)]
        if mine != theirs or chosen != [standard.choice(mine[: size + 1]) for size in range(106)]:
            return False
    return True


_INLINE = _agrees_with_random()


def shuffle(rng: Random, cards: list[_Card]) -> None:
    """Shuffle ``cards`` in place, as ``rng.shuffle(cards)`` would."""
    if _INLINE and type(rng) is Random:
        _shuffle_inline(rng, cards)
    else:
        rng.shuffle(cards)


def chooser(rng: Random) -> Callable[[Sequence[_Item]], _Item]:
    """A function picking one of some items, as ``rng.choice`` would pick it."""
    if _INLINE and type(rng) is Random:
        return _inline_chooser(rng)
    return rng.choice
