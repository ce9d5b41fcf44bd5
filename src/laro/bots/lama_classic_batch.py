"""The classic game's rounds of a batch played out by table look-ups: fewer numpy operations a move.

:func:`~laro.bots.lama_batch.play_rounds` plays every round of a batch out on numpy arrays, every seat making the
heuristic's move. In the classic game all that such a move reads of the mover's hand fits in a few numbers: the
counts of the top's rank and of the three ranks after it (16 bits of a hand packed four bits a kind, read at once
from the hand packed twice over, so that the ranks wrap round), the hand's size and its penalty. So the move is
read from tables made once by the very same arithmetic (:func:`chain_keeps` and :func:`quit_thresholds`, which the
general loop uses too, computed for every value they can be given): the same moves, rounds and values as the
scalar loop (:func:`~laro.bots.lama_playout.finish_round`), in about half the numpy operations a move.

>>> import laro
>>> from laro.bots.lama_deals import deal_many
>>> from laro.games.lama.sampling import sampler
>>> import random
>>> state = laro.get_game("lama").new_game(num_players=4, seed=3)
>>> dealt = deal_many(sampler(state.game, state.observation(state.current_player)), random.Random(1), 200)
>>> n = len(dealt.counts)
>>> hands = dealt.counts.astype(np.int64)
>>> zeros = np.zeros(n, dtype=np.int64)
>>> ended = play_classic_rounds(hands, dealt.piles, zeros, zeros, zeros + 2, zeros + 1, (0.0,) * 4, tail=8)
>>> bool(((ended >= 0) & (ended < 4)).all()), bool((hands[np.arange(n), ended].sum(axis=1) == 0).any())
(True, True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from laro.bots.lama_heuristic import (
    CHAIN_BASE,
    CHAIN_ON_A_LLAMA,
    CHAIN_ON_A_SIX,
    CHAIN_PER_CARD_HELD,
    CHAIN_PER_FOLLOW_UP_AHEAD,
    CHAIN_PER_NEXT_COPY,
    CHAIN_PER_OPPONENT_IN,
    CHAIN_PER_POINT_OF_LONE_NEXT,
    POINTS,
    QUIT_BASE,
    QUIT_IF_HOLDING_THREE_AHEAD,
    QUIT_IF_HOLDING_TWO_AHEAD,
    QUIT_PER_CARD_HELD,
    QUIT_PER_OPPONENT_IN,
    SIX,
)
from laro.bots.lama_playout import FOLLOWING, SHORTEST_OPPONENT, finish_round
from laro.games.lama.cards import LLAMA, NUM_KINDS
from laro.games.lama.state import ONWARD

__all__ = [
    "chain_keeps",
    "finish_one_at_a_time",
    "onward_seats",
    "opponents_in",
    "play_classic_rounds",
    "quit_thresholds",
    "shortest_opponent",
]

Ints = npt.NDArray[np.int64]
_OUT = 63  # a quitter's hand size: never the shortest
_KINDS = 4 * NUM_KINDS  # the bits of one packed hand
_LOW = (1 << _KINDS) - 1
_SHIFTS = 4 * np.arange(NUM_KINDS, dtype=np.int64)
_TWICE = np.array([(1 << 4 * kind) | (1 << (4 * kind + _KINDS)) for kind in range(NUM_KINDS)], dtype=np.int64)
_FOLLOWING = np.array(FOLLOWING, dtype=np.int64)
_CHAIN_POINTS = np.array(POINTS, dtype=np.float64)
_SHORTEST = np.array(SHORTEST_OPPONENT, dtype=np.float64)
_PLAY_TOP, _PLAY_NEXT, _STUCK = 0, 1, 2  # what the move table says
_BUCKETS = 1 + max(size for size, added in enumerate(SHORTEST_OPPONENT) if added)  # the sizes that add their own


def chain_keeps(
    top: Ints, next_copies: Ints, two_ahead: Ints, three_ahead: Ints, opponents: Ints, cards: Ints
) -> npt.NDArray[np.bool_]:
    """Whether the heuristic keeps the chain (plays the top's rank) holding both it and the next (``next_copies``
    of it, and so many of the ranks two and three ahead, ``cards`` in all): :func:`~laro.bots.lama_heuristic.
    chain_value` above 0, by the same arithmetic in the same order."""
    following = _FOLLOWING[top]
    value = CHAIN_BASE + CHAIN_PER_NEXT_COPY * next_copies
    value = np.where(next_copies == 1, value + CHAIN_PER_POINT_OF_LONE_NEXT * _CHAIN_POINTS[following], value)
    ahead = (two_ahead > 0).astype(np.int64) + (three_ahead > 0)
    value = value + CHAIN_PER_FOLLOW_UP_AHEAD * ahead
    value = value + (CHAIN_PER_OPPONENT_IN * np.minimum(opponents, 4) + CHAIN_PER_CARD_HELD * cards)
    value = np.where(top == SIX, value + CHAIN_ON_A_SIX, np.where(top == LLAMA, value + CHAIN_ON_A_LLAMA, value))
    keeps: npt.NDArray[np.bool_] = value > 0.0
    return keeps


def quit_thresholds(
    held: Ints,
    opponents: Ints,
    shortest: Ints,
    lean: npt.NDArray[np.float64],
    two_ahead: npt.NDArray[np.bool_],
    three_ahead: npt.NDArray[np.bool_],
    party: bool,
) -> npt.NDArray[np.float64]:
    """The heuristic's quit threshold for a hand of ``held`` cards with ``opponents`` still in, the shortest of
    their hands ``shortest`` cards long, the round's ``lean`` and whether the ranks two and three ahead of the top
    are held: as :func:`~laro.bots.lama_playout.finish_round` (or, with ``party``, ``finish_party_round``) adds
    it up, in the same order."""
    threshold = QUIT_BASE + QUIT_PER_CARD_HELD * held + QUIT_PER_OPPONENT_IN * opponents
    if party:  # the Party Edition's loop adds them one at a time
        threshold = threshold + _SHORTEST[shortest]
        threshold = threshold + lean
    else:
        threshold = threshold + (_SHORTEST[shortest] + lean)
    threshold = np.where(two_ahead, threshold + QUIT_IF_HOLDING_TWO_AHEAD, threshold)
    thresholds: npt.NDArray[np.float64] = np.where(three_ahead, threshold + QUIT_IF_HOLDING_THREE_AHEAD, threshold)
    return thresholds


def finish_one_at_a_time(
    finish: Callable[[list[int], Sequence[int], int, int, int, int, Sequence[float]], int],
    hands: list[list[int]],
    decks: npt.NDArray[np.int8],
    live: Ints,
    position: Ints,
    quit_mask: Ints,
    top: Ints,
    seat: Ints,
    leanings: Sequence[float],
) -> list[int]:
    """The rounds ``live`` played out one at a time by the scalar loop ``finish`` (the last few of a batch: a step
    of the batch costs as much as a round there), from their packed ``hands`` (changed in place): who ended each."""
    decks_left = decks.tolist()
    rounds = zip(
        hands,
        (live % len(decks)).tolist(),
        position.tolist(),
        quit_mask.tolist(),
        top.tolist(),
        seat.tolist(),
        strict=True,
    )
    return [finish(cards, decks_left[k], at, bits, on, who, leanings) for cards, k, at, bits, on, who in rounds]


@functools.cache
def onward_seats(n: int) -> Ints:
    """By quit bits and seat: the seat to move next (:data:`~laro.games.lama.state.ONWARD`)."""
    return np.array(ONWARD[n], dtype=np.int64)


def shortest_opponent(sizes: Ints, mover: Ints, rows: Ints | None = None) -> Ints:
    """The smallest hand of each mover's opponents still in (:data:`_OUT` if none), from the hand sizes by row and
    seat (of ``rows`` only, if given)."""
    others = sizes.copy() if rows is None else sizes[rows]
    others[np.arange(len(mover)), mover] = _OUT
    shortest: Ints = others.min(axis=1)
    return shortest


def opponents_in(quit_mask: Ints, n: int) -> Ints:
    """By the quit bits of each round of ``n`` seats: how many opponents the seat to move (always in) has in."""
    return _still_in(n)[quit_mask]


@functools.cache
def _still_in(n: int) -> Ints:
    return np.array([n - 1 - bits.bit_count() for bits in range(1 << n)], dtype=np.int64)


def _counts(packed: Ints, kinds: int) -> Ints:
    """The first ``kinds`` counts of each packed hand (four bits a kind), in a last axis."""
    counts: Ints = (packed[..., None] >> (4 * np.arange(kinds, dtype=np.int64))) & 15
    return counts


@functools.cache
def _relative() -> tuple[Ints, Ints]:
    """By the 16 bits of the counts of the top's rank and the three after it: the move table's part (whether the top's
    rank is held, the next's count, whether the ranks two and three ahead are held, shifted into place), and the
    threshold table's part (the two ahead, one bit each)."""
    counts = _counts(np.arange(1 << 16, dtype=np.int64), 4)
    same, following, two, three = (counts[:, k] for k in range(4))
    ahead = 2 * (two > 0) + (three > 0)
    code = ((same > 0) * 64 + following * 4 + ahead) << 9
    return code.astype(np.int64), ahead.astype(np.int64)


@functools.cache
def _moves() -> npt.NDArray[np.int8]:
    """The classic heuristic's move by ``top << 16 | code << 9 | opponents << 6 | cards``: play the top's rank, the
    next rank, or neither (draw or quit)."""
    top, code, opponents, cards = np.meshgrid(
        np.arange(8), np.arange(128), np.arange(8), np.arange(64), indexing="ij", sparse=True
    )
    top = np.minimum(top, NUM_KINDS - 1)
    same, following = code >> 6, (code >> 2) & 15
    keeps = chain_keeps(top, following, (code >> 1) & 1, code & 1, opponents, cards)
    move = np.where(same > 0, np.where((following > 0) & ~keeps, _PLAY_NEXT, _PLAY_TOP), _PLAY_NEXT)
    move = np.where((same == 0) & (following == 0), _STUCK, move)
    return move.reshape(-1).astype(np.int8)


@functools.cache
def _penalties() -> tuple[Ints, Ints]:
    """A packed hand's penalty in two parts: by its low 16 bits (ranks 1 to 4), and by the 12 above them."""
    low = (_counts(np.arange(1 << 16, dtype=np.int64), 4) > 0) @ np.array(POINTS[:4], dtype=np.int64)
    high = (_counts(np.arange(1 << 12, dtype=np.int64), 3) > 0) @ np.array(POINTS[4:], dtype=np.int64)
    return low.astype(np.int64), high.astype(np.int64)


@functools.lru_cache(maxsize=16)  # a round's decisions share one (6 seats: 360 KiB each)
def _thresholds(leanings: tuple[float, ...]) -> npt.NDArray[np.float64]:
    """The classic quit threshold (:func:`quit_thresholds`) by ``((seat * n + opponents) * 64 + cards) * 4 *
    buckets + bucket * 4 + ahead`` for a round's ``leanings``; ``inf`` where no opponent is in (a seat alone
    quits)."""
    n = len(leanings)
    seat, opponents, held, bucket, ahead = np.meshgrid(
        np.arange(n), np.arange(n), np.arange(64), np.arange(_BUCKETS), np.arange(4), indexing="ij"
    )
    lean = np.array(leanings, dtype=np.float64)[seat]
    threshold = quit_thresholds(held, opponents, bucket, lean, ahead >> 1 == 1, ahead & 1 == 1, party=False)
    return np.where(opponents > 0, threshold, np.inf).reshape(-1)


_BUCKET = np.array([size if size < _BUCKETS else 0 for size in range(_OUT + 1)], dtype=np.int64)


def play_classic_rounds(
    hands: Ints,
    decks: npt.NDArray[np.int8],
    position: Ints,
    quit_mask: Ints,
    top: Ints,
    seat: Ints,
    leanings: Sequence[float],
    tail: int,
) -> Ints:
    """:func:`~laro.bots.lama_batch.play_rounds` for the classic game (the same rounds), handing the last ``tail``
    rounds to the scalar loop."""
    total, n, kinds = hands.shape
    onward = onward_seats(n)
    deck_size = decks.shape[1]
    piles = np.concatenate([decks.reshape(-1), [0]]).astype(np.int64)  # a card past the end: never drawn
    packed = (hands.reshape(total * n, kinds) << _SHIFTS).sum(axis=1)
    held = packed | (packed << _KINDS)  # by round * seats + seat: its hand, packed twice over
    sizes = hands.reshape(total * n, kinds).sum(axis=1, dtype=np.int64)
    for other in range(n):
        sizes[other::n][(quit_mask >> other) & 1 == 1] = _OUT
    by_round = sizes.reshape(total, n)
    opponents = opponents_in(quit_mask, n)
    relative, ahead_of = _relative()
    moves = _moves()
    low, high = _penalties()
    thresholds = _thresholds(tuple(leanings))
    buckets = _BUCKET * 4
    per_seat = n * 64 * _BUCKETS * 4
    per_opponent = 64 * _BUCKETS * 4
    ended = np.full(total, -1, dtype=np.int64)
    live = np.arange(total)
    first = live * n
    pile = (live % len(decks)) * deck_size
    position, quit_mask, top, seat = position.copy(), quit_mask.copy(), top.copy(), seat.copy()
    shift = 4 * top
    while live.size > tail:
        at = first + seat
        hand = held[at]
        counts = (hand >> shift) & 0xFFFF
        cards = sizes[at]
        move = moves[(top << 16) + relative[counts] + (opponents << 6) + cards]
        shortest = shortest_opponent(by_round, seat, live)
        key = seat * per_seat + opponents * per_opponent + cards * (_BUCKETS * 4) + buckets[shortest]
        penalty = low[hand & 0xFFFF] + high[(hand >> 16) & 0xFFF]
        stuck = move == _STUCK
        draws = stuck & (position < deck_size) & (penalty > thresholds[key + ahead_of[counts]])
        quits = stuck ^ draws
        plays = ~stuck
        card = np.where(move == _PLAY_TOP, top, _FOLLOWING[top])
        drawn = _TWICE[piles[pile + position]]
        held[at] = hand + np.where(plays, -_TWICE[card], drawn * draws)
        cards = cards + draws - plays
        sizes[at] = np.where(quits, _OUT, cards)
        position = position + draws
        top = np.where(plays, card, top)
        shift = 4 * top
        quit_mask = quit_mask | (quits << seat)
        done = (plays & (cards == 0)) | (quits & (opponents == 0))
        opponents = opponents - quits
        following = onward[quit_mask, seat]
        if done.any():
            ended[live[done]] = seat[done]
            going = ~done
            live, first, pile, position, quit_mask, top, shift, following, opponents = (
                live[going],
                first[going],
                pile[going],
                position[going],
                quit_mask[going],
                top[going],
                shift[going],
                following[going],
                opponents[going],
            )
        seat = following
    hands_left = (held.reshape(total, n)[live] & _LOW).tolist()
    ended[live] = finish_one_at_a_time(finish_round, hands_left, decks, live, position, quit_mask, top, seat, leanings)
    final = held.reshape(total, n) & _LOW
    if hands_left:
        final[live] = hands_left
    hands[...] = _counts(final, kinds)
    return ended
