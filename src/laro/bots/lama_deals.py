"""Many L.A.M.A. determinisations at once, from the very random numbers that drawing them one at a time uses.

:meth:`LamaSampler.deal <laro.games.lama.sampling.LamaSampler.deal>` draws a determinisation from Python's Mersenne
Twister one number at a time: a pick for every card it has a belief about (``random()`` each), a Fisher-Yates
shuffle of the other unseen cards (``random()`` per position) and a seed (``getrandbits(63)``). Each of these takes
a fixed number of the generator's 32-bit words, so a determinisation takes the same number of words every time.
Here numpy's Mersenne Twister, set to the ``random.Random``'s state, gives all the words of ``count``
determinisations at once; they make the same floats (53 bits from two words, as CPython makes them) and the same
seeds, the picks and the shuffle run on every determinisation at once, step by step as the loop runs them, and the
``random.Random`` is left where drawing them one at a time leaves it. So the determinisations are the same ones.

>>> import random, laro
>>> from laro.games.lama.sampling import sampler
>>> state = laro.get_game("lama").new_game(num_players=4, seed=3)
>>> sample = sampler(state.game, state.observation(state.current_player))
>>> one, many = random.Random(1), random.Random(1)
>>> dealt = deal_many(sample, many, 5)
>>> [sample.deal(one) for _ in range(5)] == dealt.drawn(), one.random() == many.random()
(True, True)
"""

from __future__ import annotations

import random
import threading
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from laro.games.lama.sampling import LamaSampler
    from laro.games.lama.state import LamaState

__all__ = ["Dealt", "deal_many", "words"]

_TWO_TO_26 = 67108864.0
_TWO_TO_53 = 9007199254740992.0
_local = threading.local()  # per thread, numpy's Mersenne Twister (set to a random.Random's state when used)


class Dealt:
    """Determinisations as arrays: every seat's count of every kind (``counts``: determinisations, seats, kinds),
    the draw piles (``piles``, the next card first) and the seeds for later rounds; :meth:`drawn` gives them as
    :meth:`LamaSampler.deal <laro.games.lama.sampling.LamaSampler.deal>` does."""

    __slots__ = ("counts", "piles", "seeds")

    def __init__(self, counts: npt.NDArray[np.int8], piles: npt.NDArray[np.int8], seeds: list[int]) -> None:
        self.counts = counts
        self.piles = piles
        self.seeds = seeds

    def drawn(self) -> list[tuple[list[int], tuple[int, ...], int]]:
        """Per determinisation: the packed hands, the draw pile and the seed."""
        shifts = 4 * np.arange(self.counts.shape[2], dtype=np.int64)
        packed = (self.counts.astype(np.int64) << shifts).sum(axis=2).tolist()
        piles = [tuple(pile) for pile in self.piles.tolist()]
        return list(zip(packed, piles, self.seeds, strict=True))


def words(sample: LamaSampler) -> int:
    """How many 32-bit words of the generator one determinisation of ``sample`` takes."""
    shuffled = len(sample.unknown) - len(sample.limits)
    return 2 * len(sample.limits) + 2 * max(shuffled - 1, 0) + 2


def deal_many(sample: LamaSampler, rng: random.Random, count: int, first: LamaState | None = None) -> Dealt:
    """``count`` determinisations of ``sample`` drawn from ``rng`` (the first of them ``first``, if it was drawn
    already), as ``count`` calls of ``sample.deal(rng)`` would draw them, leaving ``rng`` as they would."""
    drawing = count - (first is not None)
    raw = _raw_words(rng, drawing * words(sample)).reshape(drawing, words(sample))
    floats = ((raw[:, 0::2] >> 5) * _TWO_TO_26 + (raw[:, 1::2] >> 6)) / _TWO_TO_53
    seeds = (raw[:, -2] | ((raw[:, -1] >> 1) << 32)).tolist()
    n, kinds = len(sample.sizes), len(sample.kinds)
    hands = np.zeros((drawing, n, kinds), dtype=np.int64)
    hands[:, sample.seat] = (sample.hand >> 4 * np.arange(kinds)) & 15
    left, sizes = _limited(sample, floats[:, : len(sample.limits)], hands)
    cards = _shuffled(left, len(sample.unknown) - len(sample.limits), floats[:, len(sample.limits) : -1])
    held = sum(size for seat, size in enumerate(sizes) if seat != sample.seat)
    seats = [np.full(size, seat) for seat, size in enumerate(sizes) if seat != sample.seat]
    owners = np.concatenate([*seats, np.full(cards.shape[1] - held, n)])  # the draw pile's cards: "seat" n
    at = (np.arange(drawing)[:, None] * (n + 1) + owners) * kinds + cards
    hands += np.bincount(at.ravel(), minlength=drawing * (n + 1) * kinds).reshape(drawing, n + 1, kinds)[:, :n]
    piles = cards[:, held:].astype(np.int8)
    if first is not None:
        hands = np.concatenate([_counts(first.hands, kinds)[None], hands])
        piles = np.concatenate([np.array([first.deck[first.draw_pos :]], dtype=np.int8).reshape(1, -1), piles])
        seeds = [first.seed, *seeds]
    return Dealt(hands.astype(np.int8), piles, seeds)


def _counts(packed: list[int], kinds: int) -> npt.NDArray[np.int64]:
    counts: npt.NDArray[np.int64] = (np.array(packed, dtype=np.int64)[:, None] >> 4 * np.arange(kinds)) & 15
    return counts


def _raw_words(rng: random.Random, amount: int) -> npt.NDArray[np.uint64]:
    """The next ``amount`` 32-bit words of ``rng``'s generator; ``rng`` moves past them."""
    version, state, gauss = rng.getstate()
    generator = getattr(_local, "generator", None)
    if generator is None:
        generator = _local.generator = np.random.MT19937()
    generator.state = {
        "bit_generator": "MT19937",
        "state": {"key": np.array(state[:-1], dtype=np.uint32), "pos": state[-1]},
    }
    raw: npt.NDArray[np.uint64] = generator.random_raw(amount)
    after = generator.state["state"]
    rng.setstate((version, (*after["key"].tolist(), int(after["pos"])), gauss))
    return raw


def _limited(
    sample: LamaSampler, floats: npt.NDArray[np.float64], hands: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], list[int]]:
    """Deal the cards with limits (as :meth:`LamaSampler._deal_limited` deals them, every row at once) into
    ``hands``: the unseen cards left per row and kind, and the hand sizes still to fill."""
    rows = len(floats)
    left = np.tile(np.array(sample.counts, dtype=np.int64), (rows, 1))
    sizes = list(sample.sizes)
    every = np.arange(rows)
    for step, (seat, kinds) in enumerate(sample.limits):
        allowed = np.zeros(len(sample.kinds), dtype=np.int64)
        allowed[list(kinds)] = 1
        fits = left * allowed
        total = fits.sum(axis=1)
        fits = np.where(total[:, None] > 0, fits, left)  # nothing unseen fits: any card will do
        total = np.where(total > 0, total, left.sum(axis=1))
        pick = (floats[:, step] * total).astype(np.int64)
        kind = (fits.cumsum(axis=1) <= pick[:, None]).sum(axis=1)
        left[every, kind] -= 1
        hands[every, seat, kind] += 1
        sizes[seat] -= 1
    return left, sizes


def _shuffled(left: npt.NDArray[np.int64], size: int, floats: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Per row, the ``size`` cards ``left`` (counts per kind) in order of kind, shuffled by the Fisher-Yates loop of
    :meth:`LamaSampler.deal` on the row's ``floats``."""
    rows = len(left)
    ends = left.cumsum(axis=1)
    cards: npt.NDArray[np.int64] = (ends[:, None, :] <= np.arange(size)[None, :, None]).sum(axis=2)
    every = np.arange(rows)
    for step, i in enumerate(range(size - 1, 0, -1)):
        j = (floats[:, step] * (i + 1)).astype(np.int64)
        swapped = cards[every, j]
        cards[every, j] = cards[:, i]
        cards[:, i] = swapped
    return cards
