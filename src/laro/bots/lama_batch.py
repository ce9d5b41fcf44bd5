"""The ``hard`` L.A.M.A. search's playouts as one batch: every determinisation by every action of a decision at once.

The paired search plays each determinisation out from each legal action with the heuristic's moves for every seat
(:mod:`laro.bots.lama_playout` plays one such round at a time, in Python). Here the rounds of a whole batch move
together on numpy arrays: per round its hands (card counts per seat), its draw pile and position, the top's rank,
the quit bits and the seat to move; each step decides the move of every round still being played with the same
tests and the same floating-point arithmetic in the same order as the scalar loops (so the same moves, the same
rounds and the same values: tests hold them to it), makes them, and drops the rounds that ended. The round is
scored to its totals, and the seat's value is read as :func:`~laro.bots.lama_playout.round_value` reads it.

The determinisations are drawn as the search draws them one at a time (the same random numbers in the same order),
all at once and with no state made for them (:func:`~laro.bots.lama_deals.deal_many`); a move that ends the round
at once (the last card, the last seat to quit) is played by the rules on the determinisation's state, as the scalar
judge does. So the batched search finds the same values as the search that plays one determinisation at a time,
and makes the same choices.

>>> import random, laro
>>> from laro.bots.lama_judge import LamaJudge
>>> from laro.games.lama.sampling import sampler
>>> state = laro.get_game("lama").new_game(num_players=4, seed=3)
>>> sample = sampler(state.game, state.observation(state.current_player))
>>> values = batch_values(LamaJudge(), sample, state.legal_actions(), 50, random.Random(1))
>>> values.shape == (50, len(state.legal_actions())), bool(((values >= 0) & (values <= 1)).all())
(True, True)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from laro.bots.lama_classic_batch import (
    chain_keeps,
    finish_one_at_a_time,
    onward_seats,
    opponents_in,
    play_classic_rounds,
    quit_thresholds,
    shortest_opponent,
)
from laro.bots.lama_deals import Dealt, deal_many
from laro.bots.lama_heuristic import (
    leaning,
)
from laro.bots.lama_party import DRAW_MOVE, PINK_DANGER, QUIT_MOVE
from laro.bots.lama_playout import FOLLOWING, _weights, finish_party_round
from laro.core.game import Action
from laro.games.lama.actions import DRAW, LamaAction
from laro.games.lama.cards import LLAMA, LLAMA_POINTS, NUM_KINDS, PINK, PINK_POINTS, PLUS
from laro.games.lama.state import ONWARD

if TYPE_CHECKING:
    from laro.bots.lama_judge import LamaJudge
    from laro.games.lama.sampling import LamaSampler
    from laro.games.lama.state import LamaState

__all__ = [
    "batch_values",
    "heuristic_moves",
    "judge_leaning",
    "play_rounds",
    "round_values",
    "values_of",
    "win_chances",
]

Ints = npt.NDArray[np.int64]
_OUT = 63  # a quitter's hand size: never the shortest
_TAIL = 8  # rounds still being played when the batch hands them to the scalar loop (or more: _SHIFT_TAIL)
_SHIFT_TAIL = 2  # or a quarter of a Party Edition batch: a step costs about as much as a round in the scalar loop
_CLASSIC_SHIFT_TAIL = 6  # or a 64th of a classic batch, whose steps cost less (laro.bots.lama_classic_batch)
_NONE = 14  # the column of a card nobody holds: the llama's "plus card" (the Party Edition's hands have 14 kinds)
_FOLLOWING = np.array(FOLLOWING)
_PLUS_OF = np.array([PLUS + rank for rank in range(LLAMA)] + [_NONE])  # by rank, its plus card's column
_RANK = np.array([*range(NUM_KINDS), *range(LLAMA), LLAMA, _NONE])  # by card (and the empty column)
_AGAIN = np.array([False] * PLUS + [True] * LLAMA + [False, False])  # a plus card: another turn
_FACE = np.array([1, 2, 3, 4, 5, 6], dtype=np.int64)


def batch_values(
    judge: LamaJudge,
    sample: LamaSampler,
    actions: Sequence[Action],
    count: int,
    rng: random.Random,
    first: LamaState | None = None,
) -> npt.NDArray[np.float64]:
    """``count`` determinisations drawn by ``sample`` from ``rng`` (``first`` the first of them, if already drawn),
    each played out from every one of ``actions`` (legal for the seat to move) by ``judge``'s heuristic model: the
    seat's values, shaped ``(count, len(actions))``. ``rng`` is drawn from exactly as by a search that samples and
    plays out one determinisation at a time, so the values are that search's, in the same order."""
    return values_of(judge, sample, deal_many(sample, rng, count, first), actions)


def values_of(
    judge: LamaJudge, sample: LamaSampler, dealt: Dealt, actions: Sequence[Action]
) -> npt.NDArray[np.float64]:
    """The seat's values of the ``dealt`` determinisations played out from every one of ``actions``, shaped
    ``(determinisations, actions)``."""
    template = sample.template
    hands, decks = _padded(dealt.counts, template.party), dealt.piles
    count = len(hands)
    seat: int = template.current_player  # type: ignore[assignment]  # a decision has a seat to move
    n = template.num_players
    party = template.party
    full = (1 << n) - 1
    values = np.empty((count, len(actions)))
    rows: list[tuple[int, Ints, int, int, int, int]] = []
    top = int(_RANK[template.discard[-1]])
    for column, action in enumerate(actions):
        card = action.card if isinstance(action, LamaAction) else None
        moved = hands.copy()
        position, quit_mask, next_top, mover = 0, template.quit_mask, top, seat
        if card is not None:
            moved[:, seat, card] -= 1
            if not moved[0, seat].any():  # the last card: the round ends with the move
                values[:, column] = _by_the_rules(judge, sample, dealt, action)
                continue
            next_top = int(_RANK[card])
            mover = seat if _AGAIN[card] else ONWARD[n][quit_mask][seat]
        elif action is DRAW:
            moved[np.arange(count), seat, decks[:, 0].astype(np.int64)] += 1
            position, mover = 1, ONWARD[n][quit_mask][seat]
        else:
            quit_mask |= 1 << seat
            if quit_mask == full:  # the last seat in quits: the round ends
                values[:, column] = _by_the_rules(judge, sample, dealt, action)
                continue
            mover = ONWARD[n][quit_mask][seat]
        rows.append((column, moved, position, quit_mask, next_top, mover))
    if rows:
        batch = np.concatenate([moved for _, moved, *_ in rows])
        ended = play_rounds(
            batch,
            decks,
            np.repeat([position for _, _, position, *_ in rows], count),
            np.repeat([quit_mask for *_, quit_mask, _, _ in rows], count),
            np.repeat([next_top for *_, next_top, _ in rows], count),
            np.repeat([mover for *_, mover in rows], count),
            judge_leaning(template),
            party,
        )
        scored = round_values(batch, template.scores, ended, party, template.options["end_score"], seat)
        values[:, [column for column, *_ in rows]] = scored.reshape(len(rows), count).T
    return values


def _padded(hands: npt.NDArray[np.integer], party: bool) -> Ints:
    """``hands`` (counts by kind in the last axis) as int64, with the Party Edition's empty column: the plus
    card of a llama (:data:`_NONE`), which nobody holds."""
    if not party:
        return hands.astype(np.int64)
    padded = np.zeros((*hands.shape[:-1], _NONE + 1), dtype=np.int64)
    padded[..., : hands.shape[-1]] = hands
    return padded


def judge_leaning(template: LamaState) -> tuple[float, ...]:
    """The quit threshold's part per seat that stays put during the round, as the judge reads it."""
    scores, end_score = template.scores, template.options["end_score"]
    return tuple(leaning(scores, seat, end_score) for seat in range(template.num_players))


def _by_the_rules(judge: LamaJudge, sample: LamaSampler, dealt: Dealt, action: Action) -> list[float]:
    """The seat's value of ``action`` in every determinisation, made by the rules on its state (the round ends with
    it: the rules score it and deal the next from the determinisation's seed, which the judge plays out)."""
    seat: int = sample.template.current_player  # type: ignore[assignment]
    rng = random.Random(0)  # unused: the judge plays a round out without random moves
    return [
        judge.playout(sample.state(hands, deck, seed).apply(action), rng)[seat] for hands, deck, seed in dealt.drawn()
    ]


def play_rounds(
    hands: Ints,
    decks: npt.NDArray[np.int8],
    position: Ints,
    quit_mask: Ints,
    top: Ints,
    seat: Ints,
    leanings: Sequence[float],
    party: bool,
) -> Ints:
    """Play every round of the batch out, every seat making the heuristic's move; ``hands`` (rounds, seats,
    kinds) are changed in place. Round ``r`` draws from ``decks[r % len(decks)]`` at ``position[r]`` on; returns
    who ended each round."""
    total, n, kinds = hands.shape
    if not party:
        tail = max(_TAIL, total >> _CLASSIC_SHIFT_TAIL)
        return play_classic_rounds(hands, decks, position, quit_mask, top, seat, leanings, tail)
    onward = onward_seats(n)
    deck_size = decks.shape[1]
    piles = np.concatenate([decks.reshape(-1), [0]]).astype(np.int64)  # a card past the end: never drawn
    held = hands.reshape(total * n, kinds)  # by round * seats + seat: that seat's hand
    flat = held.reshape(-1)
    sizes = held.sum(axis=1, dtype=np.int64)
    for other in range(n):
        sizes[other::n][(quit_mask >> other) & 1 == 1] = _OUT
    by_round = sizes.reshape(total, n)
    opponents = opponents_in(quit_mask, n)
    lean = np.array(leanings, dtype=np.float64)
    ended = np.full(total, -1, dtype=np.int64)
    live = np.arange(total)  # the rounds still played, and their state (in the same order)
    pile = (live % len(decks)) * deck_size
    position, quit_mask, top, seat = position.copy(), quit_mask.copy(), top.copy(), seat.copy()
    while live.size > max(_TAIL, total >> _SHIFT_TAIL):
        at = live * n + seat
        held_now = sizes[at]
        free = position < deck_size
        card = _party_moves(held, at, top, opponents, by_round, live, seat, free, lean[seat], held_now)
        plays = card >= 0
        draws = card == DRAW_MOVE
        quits = card == QUIT_MOVE
        change = draws.astype(np.int64) - plays
        flat[at * kinds + np.where(plays, card, piles[pile + np.where(free, position, deck_size)])] += change
        held_now = held_now + change
        sizes[at] = np.where(quits, _OUT, held_now)
        position = position + draws
        top = np.where(plays, _RANK[card], top)
        quit_mask = quit_mask | (quits.astype(np.int64) << seat)
        done = (plays & (held_now == 0)) | (quits & (opponents == 0))
        opponents = opponents - quits
        following = np.where(plays & _AGAIN[card], seat, onward[quit_mask, seat])
        if done.any():
            ended[live[done]] = seat[done]
            going = ~done
            live, pile, position, quit_mask, top, following, opponents = (
                live[going],
                pile[going],
                position[going],
                quit_mask[going],
                top[going],
                following[going],
                opponents[going],
            )
        seat = following
    shifts = 4 * np.arange(kinds, dtype=np.int64)
    packed = (hands[live] << shifts).sum(axis=2).tolist()
    ended[live] = finish_one_at_a_time(
        finish_party_round, packed, decks, live, position, quit_mask, top, seat, leanings
    )
    hands[live] = (np.array(packed, dtype=np.int64).reshape(len(live), n)[:, :, None] >> shifts) & 15
    return ended


def heuristic_moves(
    hand: Ints,
    top: Ints,
    sizes: Ints,
    mover: Ints,
    free: npt.NDArray[np.bool_],
    lean: npt.NDArray[np.float64],
    party: bool,
) -> Ints:
    """The heuristic's move in each row (as the judge's playouts make it): a card, :data:`DRAW_MOVE` or
    :data:`QUIT_MOVE`, for the seat ``mover`` holding ``hand`` (counts per kind) on a top card of rank ``top``,
    the hands' ``sizes`` (:data:`_OUT` for a seat that quit), whether a card is left to draw, and the part of the
    quit threshold fixed for the round (``lean``, per row)."""
    rows = np.arange(len(top))
    opponents = (sizes < _OUT).sum(axis=1) - 1
    held = _padded(hand, party)
    decide = _party_moves if party else _classic_moves
    return decide(held, rows, top, opponents, sizes, rows, mover, free, lean, held.sum(axis=1))


def _classic_moves(
    held: Ints,
    at: Ints,
    top: Ints,
    opponents: Ints,
    sizes: Ints,
    rounds: Ints,
    mover: Ints,
    free: npt.NDArray[np.bool_],
    lean: npt.NDArray[np.float64],
    cards: Ints,
) -> Ints:
    """The classic heuristic's move of each row (the hand ``held[at]``, of ``cards`` cards, the hand sizes of its
    round ``sizes[rounds]``): a card, :data:`DRAW_MOVE` or :data:`QUIT_MOVE` (as
    :func:`~laro.bots.lama_playout.finish_round` decides it)."""
    flat = held.reshape(-1)
    base = at * held.shape[1]
    following = _FOLLOWING[top]
    same = flat[base + top] > 0
    next_copies = flat[base + following]
    after = next_copies > 0
    card = np.where(same, top, following)
    both = same & after
    if both.any():
        chained, where = top[both], base[both]
        keep = chain_keeps(
            chained,
            next_copies[both],
            flat[where + (chained + 2) % NUM_KINDS],
            flat[where + (chained + 3) % NUM_KINDS],
            opponents[both],
            cards[both],
        )
        card[both] = np.where(keep, chained, following[both])
    stuck = ~(same | after)
    if stuck.any():
        card[stuck] = _draw_or_quit(
            held[at[stuck]],
            top[stuck],
            opponents[stuck],
            sizes[rounds[stuck]],
            mover[stuck],
            free[stuck],
            lean[stuck],
            party=False,
        )
    return card


def _party_moves(
    held: Ints,
    at: Ints,
    top: Ints,
    opponents: Ints,
    sizes: Ints,
    rounds: Ints,
    mover: Ints,
    free: npt.NDArray[np.bool_],
    lean: npt.NDArray[np.float64],
    cards: Ints,
) -> Ints:
    """The Party Edition heuristic's move of each row (as :func:`~laro.bots.lama_playout.finish_party_round`
    decides it): one rank to play, its plus card first; else the pink llama, the chain, or draw or quit."""
    flat = held.reshape(-1)
    base = at * held.shape[1]
    following = _FOLLOWING[top]
    same_plus = flat[base + _PLUS_OF[top]] > 0
    after_plus = flat[base + _PLUS_OF[following]] > 0
    same = same_plus | (flat[base + top] > 0)
    after = after_plus | (flat[base + following] > 0)
    pink = flat[base + PINK] > 0
    card = np.where(same, np.where(same_plus, _PLUS_OF[top], top), np.where(after_plus, _PLUS_OF[following], following))
    rest = pink | (same == after)
    if not rest.any():
        return card
    plays_pink = pink.copy()
    if pink.any():
        shortest = shortest_opponent(sizes[rounds[pink]], mover[pink])
        plays_pink[pink] = (cards[pink] == 1) | (shortest <= PINK_DANGER) | ~(same[pink] | after[pink])
        card[plays_pink] = PINK
    chain = rest & ~plays_pink & same & after
    if chain.any():
        hand = held[at[chain]]
        ranks = hand[:, :NUM_KINDS].copy()
        ranks[:, :LLAMA] += hand[:, PLUS : PLUS + LLAMA]
        chained = top[chain]
        every = np.arange(len(chained))
        keep = chain_keeps(
            chained,
            ranks[every, following[chain]],
            ranks[every, (chained + 2) % NUM_KINDS],
            ranks[every, (chained + 3) % NUM_KINDS],
            opponents[chain],
            ranks.sum(axis=1),
        )
        rank = np.where(keep, chained, following[chain])
        card[chain] = np.where(hand[every, _PLUS_OF[rank]] > 0, _PLUS_OF[rank], rank)
    stuck = rest & ~plays_pink & ~(same | after)
    if stuck.any():
        card[stuck] = _draw_or_quit(
            held[at[stuck]],
            top[stuck],
            opponents[stuck],
            sizes[rounds[stuck]],
            mover[stuck],
            free[stuck],
            lean[stuck],
            party=True,
        )
    return card


def _draw_or_quit(
    hand: Ints,
    top: Ints,
    opponents: Ints,
    sizes: Ints,
    mover: Ints,
    free: npt.NDArray[np.bool_],
    lean: npt.NDArray[np.float64],
    party: bool,
) -> Ints:
    """Nothing fits: draw while the hand costs more than the quit threshold (when a card is left to draw and an
    opponent is still in), else quit."""
    rows = np.arange(len(top))
    two, three = (top + 2) % NUM_KINDS, (top + 3) % NUM_KINDS
    holds_two, holds_three = hand[rows, two] > 0, hand[rows, three] > 0
    if party:
        holds_two |= hand[rows, _PLUS_OF[two]] > 0
        holds_three |= hand[rows, _PLUS_OF[three]] > 0
    threshold = quit_thresholds(
        sizes[rows, mover], opponents, shortest_opponent(sizes, mover), lean, holds_two, holds_three, party
    )
    draw = free & (opponents > 0) & (_penalties(hand, party) > threshold)
    return np.where(draw, DRAW_MOVE, QUIT_MOVE)


def _penalties(hand: Ints, party: bool) -> Ints:
    """What each hand (rows, kinds) costs: each number held once (a plus card is its number), the llama group
    10, or 20 with the pink llama (Party Edition)."""
    numbers = hand[..., :LLAMA] > 0
    llama = hand[..., LLAMA] > 0
    if party:
        numbers = numbers | (hand[..., PLUS : PLUS + LLAMA] > 0)
        pink = hand[..., PINK] > 0
        return numbers @ _FACE + np.where(pink, PINK_POINTS, np.where(llama, LLAMA_POINTS, 0))
    return numbers @ _FACE + np.where(llama, LLAMA_POINTS, 0)


def round_values(
    hands: npt.NDArray[np.int8], scores: Sequence[int], ended: Ints, party: bool, end_score: int, seat: int
) -> npt.NDArray[np.float64]:
    """``seat``'s value of every finished round (its share of the win if the game ends, else its win chance as
    :func:`~laro.bots.lama_playout.round_value` reads it from the totals)."""
    totals = _penalties(hands.astype(np.int64), party) + np.asarray(scores, dtype=np.int64)
    rows = np.arange(len(ended))
    emptied = hands[rows, ended].sum(axis=1) == 0
    mine = totals[rows, ended]
    back = np.where(mine >= 10, 10, np.where(mine >= 1, 1, 0))
    if party:
        back = np.where(mine >= PINK_POINTS, PINK_POINTS, back)
    totals[rows, ended] -= np.where(emptied, back, 0)
    return win_chances(totals, end_score)[:, seat]


def win_chances(totals: Ints, end_score: int) -> npt.NDArray[np.float64]:
    """Every seat's value of rounds ended at ``totals`` (rows, seats; the tokens given back): its share of the win
    if the game ends, else its win chance as :func:`~laro.bots.lama_playout.round_value` reads it."""
    best = totals.min(axis=1)
    most = totals.max(axis=1)
    over = most >= end_score
    winners = (totals == best[:, None]).sum(axis=1)
    values = np.where(totals == best[:, None], 1.0 / winners[:, None], 0.0)
    going = ~over
    if going.any():
        table = _weight_table(end_score)
        gaps = totals[going] - best[going, None]
        weights = table[most[going, None], gaps]
        whole = weights[:, 0]
        for other in range(1, weights.shape[1]):
            whole = whole + weights[:, other]
        values[going] = weights / whole[:, None]
    return values


@functools.cache
def _weight_table(end_score: int) -> npt.NDArray[np.float64]:
    """By the highest total (below the end score) and a seat's gap to the lowest: its weight
    (:func:`~laro.bots.lama_playout._weights`, the same numbers)."""
    table = np.zeros((end_score, end_score))
    for most in range(end_score):
        weights = _weights(most, end_score)
        table[most, : len(weights)] = weights
    return table
