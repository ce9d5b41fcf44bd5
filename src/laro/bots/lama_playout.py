"""The L.A.M.A. judge's classic round playout, specialised for speed, and the value of a round's end.

The ``hard`` bot plays thousands of rounds out for every decision, so this loop is its inner loop. Every seat
makes the ``heuristic`` bot's choice exactly as the judge's general policy makes it (the same tests, the same
arithmetic in the same order, so the same choices), but nothing is recomputed that did not change: who follows
whom and how many seats are still in change only when a seat quits, a hand's size is kept beside it, a quitter's
size becomes :data:`_OUT` so the shortest opponent hand is one ``min``, and the round is scored to its totals
only (no record of it) with each seat's chance to win remembered per totals.

>>> import laro
>>> state = laro.get_game("lama").new_game(num_players=3, seed=3)
>>> hands = state.hands.copy()
>>> seat = finish_round(hands, state.deck, state.draw_pos, state.quit_mask, state.discard[-1],
...                     state.current_player, (0.0, 0.0, 0.0))
>>> 0 <= seat < 3
True
>>> from laro.games.lama.scoring import round_totals
>>> values = round_value(round_totals(hands, state.scores, seat), 40)
>>> round(sum(values), 9)
1.0
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from laro.bots.lama_heuristic import (
    QUIT_BASE,
    QUIT_FOR_SHORTEST_OPPONENT,
    QUIT_IF_HOLDING_THREE_AHEAD,
    QUIT_IF_HOLDING_TWO_AHEAD,
    QUIT_PER_CARD_HELD,
    QUIT_PER_OPPONENT_IN,
    chain_value,
)
from laro.bots.lama_party import DRAW_MOVE, PINK_DANGER, PINK_SHIFT, PLUS_SHIFT, chain_rank, of_rank
from laro.games.lama.cards import (
    ANOTHER_TURN,
    NUM_KINDS,
    NUM_PARTY_KINDS,
    PINK,
    PLUS,
    RANK,
    hand_size,
    party_hand_size,
    party_penalty,
    penalty,
)
from laro.games.lama.state import ONWARD

__all__ = [
    "FOLLOWING",
    "POINTS_PER_ROUND",
    "SHIFT",
    "SHORTEST_OPPONENT",
    "SPREAD_PER_ROUND",
    "finish_party_round",
    "finish_round",
    "keeps_chain",
    "make_move",
    "round_value",
    "win_chances",
]

_OUT = 63  # the size a quitter's hand counts for: never the shortest (and worth nothing in the quit threshold)
SHORTEST_OPPONENT = tuple(  # what the shortest opponent hand, by its size, adds to the quit threshold
    QUIT_FOR_SHORTEST_OPPONENT.get(size, 0.0) for size in range(_OUT + 1)
)
FOLLOWING = tuple(  # the card that may follow each card besides its own value
    (card + 1) % NUM_KINDS for card in range(NUM_KINDS)
)
SHIFT = tuple(  # where each card's count sits in a packed hand
    4 * card for card in range(NUM_KINDS)
)
_TWO_AHEAD = tuple(4 * ((card + 2) % NUM_KINDS) for card in range(NUM_KINDS))  # by the top's card
_THREE_AHEAD = tuple(4 * ((card + 3) % NUM_KINDS) for card in range(NUM_KINDS))
# the most the shortest opponent hand adds to the quit threshold, and the most the cards ahead take from it, each
# with a margin far above the rounding of a few additions: a penalty beyond them decides without the rest
_MOST_ADDED = max(SHORTEST_OPPONENT) + 1e-6
_MOST_TAKEN = -(QUIT_IF_HOLDING_TWO_AHEAD + QUIT_IF_HOLDING_THREE_AHEAD) + 1e-6
_BIT = tuple(1 << (4 * card) for card in range(NUM_PARTY_KINDS))


def finish_round(
    hands: list[int],
    deck: Sequence[int],
    position: int,
    quit_mask: int,
    top: int,
    seat: int,
    leaning: Sequence[float],
) -> int:
    """Play a classic round out from ``seat``'s turn on ``top`` (the draw pile is ``deck[position:]``), every seat
    making the heuristic's choice; ``hands`` is changed in place. Returns who ended the round."""
    n = len(hands)
    sizes = [_OUT if (quit_mask >> other) & 1 else hand_size(hand) for other, hand in enumerate(hands)]
    onward = ONWARD[n][quit_mask]
    opponents = n - 1 - quit_mask.bit_count()  # of the seat to move, which is always in
    end = len(deck)
    chains = _CHAINS
    while True:
        hand = hands[seat]
        following = FOLLOWING[top]
        if (hand >> SHIFT[top]) & 15:  # the top's value fits
            if (hand >> SHIFT[following]) & 15:  # and so does the next: keep the chain or move on
                card = chains.get((hand << 7) | (top << 3) | opponents)
                if card is None:
                    card = keeps_chain(hand, top, opponents)
            else:
                card = top
        elif (hand >> SHIFT[following]) & 15:
            card = following
        else:  # nothing fits: draw while the hand costs more than the quit threshold, else quit
            if position < end and opponents:
                held = sizes[seat]
                threshold = QUIT_BASE + QUIT_PER_CARD_HELD * held + QUIT_PER_OPPONENT_IN * opponents
                points = penalty(hand)
                lean = leaning[seat]
                if points > threshold + lean + _MOST_ADDED:
                    draw = True
                elif points < threshold + lean - _MOST_TAKEN:
                    draw = False
                else:
                    sizes[seat] = _OUT  # not its own opponent
                    shortest = min(sizes)
                    sizes[seat] = held
                    threshold += SHORTEST_OPPONENT[shortest] + lean
                    if (hand >> _TWO_AHEAD[top]) & 15:
                        threshold += QUIT_IF_HOLDING_TWO_AHEAD
                    if (hand >> _THREE_AHEAD[top]) & 15:
                        threshold += QUIT_IF_HOLDING_THREE_AHEAD
                    draw = points > threshold
                if draw:
                    hands[seat] = hand + _BIT[deck[position]]
                    sizes[seat] = held + 1
                    position += 1
                    seat = onward[seat]
                    continue
            quit_mask |= 1 << seat
            if not opponents:  # the last seat in quits: the round is over
                return seat
            opponents -= 1
            sizes[seat] = _OUT
            onward = ONWARD[n][quit_mask]
            seat = onward[seat]
            continue
        hand -= _BIT[card]
        hands[seat] = hand
        if not hand:  # the hand is empty: the round is over
            return seat
        sizes[seat] -= 1
        top = card
        seat = onward[seat]


def make_move(
    hands: list[int], deck: Sequence[int], position: int, quit_mask: int, top: int, seat: int, move: int
) -> tuple[int, int, int, int] | None:
    """``seat``'s legal ``move`` (a card, or :data:`~laro.bots.lama_party.DRAW_MOVE` or ``QUIT_MOVE``) made on the
    numbers as the rules make it, in either edition, ``hands`` changed in place: the draw pile's position, the quit
    mask, the top's rank and the seat to move next, or ``None`` when the move ends the round (the rules then score
    it, and deal the next)."""
    n = len(hands)
    if move >= 0:
        hands[seat] -= _BIT[move]
        if not hands[seat]:
            return None
        if ANOTHER_TURN[move]:  # a plus card: the same seat again
            return position, quit_mask, RANK[move], seat
        top = RANK[move]
    elif move == DRAW_MOVE:
        hands[seat] += _BIT[deck[position]]
        position += 1
    else:
        quit_mask |= 1 << seat
        if quit_mask == (1 << n) - 1:
            return None
    return position, quit_mask, top, ONWARD[n][quit_mask][seat]


def finish_party_round(
    hands: list[int],
    deck: Sequence[int],
    position: int,
    quit_mask: int,
    top: int,
    seat: int,
    leaning: Sequence[float],
) -> int:
    """Play a Party Edition round out from ``seat``'s turn on a top card of rank ``top``, every seat making the
    heuristic's choice (:func:`~laro.bots.lama_party.party_move`, with the same arithmetic in the same order);
    ``hands`` is changed in place. Returns who ended the round."""
    n = len(hands)
    sizes = [_OUT if (quit_mask >> other) & 1 else party_hand_size(hand) for other, hand in enumerate(hands)]
    onward = ONWARD[n][quit_mask]
    opponents = n - 1 - quit_mask.bit_count()
    end = len(deck)
    while True:
        hand = hands[seat]
        following = FOLLOWING[top]
        same_plus = (hand >> PLUS_SHIFT[top]) & 15
        same = same_plus or (hand >> SHIFT[top]) & 15
        after_plus = (hand >> PLUS_SHIFT[following]) & 15
        after = after_plus or (hand >> SHIFT[following]) & 15
        if not hand >> PINK_SHIFT and (not same) != (not after):  # one rank to play: its plus card first
            card = (PLUS + top if same_plus else top) if same else (PLUS + following if after_plus else following)
        else:
            held = sizes[seat]
            shortest = _OUT
            if hand >> PINK_SHIFT or not (same or after):  # the pink llama's danger or the quit threshold reads it
                sizes[seat] = _OUT  # not its own opponent
                shortest = min(sizes)
                sizes[seat] = held
            if hand >> PINK_SHIFT and (held == 1 or shortest <= PINK_DANGER or not (same or after)):
                card = PINK
            elif same and after:
                card = of_rank(hand, chain_rank(hand, top, opponents))
            elif same:
                card = of_rank(hand, top)
            elif after:
                card = of_rank(hand, following)
            else:  # nothing fits: draw while the hand costs more than the quit threshold, else quit
                if position < end and opponents:
                    threshold = QUIT_BASE + QUIT_PER_CARD_HELD * held + QUIT_PER_OPPONENT_IN * opponents
                    threshold += SHORTEST_OPPONENT[shortest]
                    threshold += leaning[seat]
                    ahead = FOLLOWING[following]
                    if (hand >> SHIFT[ahead]) & 15 or (hand >> PLUS_SHIFT[ahead]) & 15:
                        threshold += QUIT_IF_HOLDING_TWO_AHEAD
                    ahead = FOLLOWING[ahead]
                    if (hand >> SHIFT[ahead]) & 15 or (hand >> PLUS_SHIFT[ahead]) & 15:
                        threshold += QUIT_IF_HOLDING_THREE_AHEAD
                    if party_penalty(hand) > threshold:
                        hands[seat] = hand + _BIT[deck[position]]
                        sizes[seat] = held + 1
                        position += 1
                        seat = onward[seat]
                        continue
                quit_mask |= 1 << seat
                if not opponents:  # the last seat in quits: the round is over
                    return seat
                opponents -= 1
                sizes[seat] = _OUT
                onward = ONWARD[n][quit_mask]
                seat = onward[seat]
                continue
        hand -= _BIT[card]
        hands[seat] = hand
        if not hand:  # the hand is empty: the round is over
            return seat
        sizes[seat] -= 1
        top = RANK[card]
        if not ANOTHER_TURN[card]:  # a plus card: the same seat again
            seat = onward[seat]


_CHAINS: dict[int, int] = {}
_CHAINS_KEPT = 1 << 16


def keeps_chain(hand: int, top: int, opponents: int) -> int:
    """The card the heuristic plays holding both the top's value and the next: the top's to keep the chain,
    else the next (remembered per hand, top and number of opponents: the same few come up again and again)."""
    key = (hand << 7) | (top << 3) | opponents
    card = _CHAINS.get(key)
    if card is None:
        if len(_CHAINS) >= _CHAINS_KEPT:
            _CHAINS.clear()
        counts = [(hand >> shift) & 15 for shift in SHIFT]
        card = _CHAINS[key] = top if chain_value(counts, top, opponents) > 0.0 else FOLLOWING[top]
    return card


def round_value(totals: Sequence[int], end_score: int) -> list[float]:
    """Each seat's value of a round that ends with these ``totals``: its share of the win if the game ends
    with the round, else its :func:`win_chances` (the same numbers, each seat's weight read from a table per
    highest total: playouts end on a few of those, but on many different totals)."""
    best = min(totals)
    most = max(totals)
    if most >= end_score:
        winners = totals.count(best)
        return [1.0 / winners if total == best else 0.0 for total in totals]
    weight = _weights(most, end_score)
    weights = [weight[total - best] for total in totals]
    whole = sum(weights)
    return [each / whole for each in weights]


@functools.lru_cache(maxsize=256)
def _weights(most: int, end_score: int) -> tuple[float, ...]:
    """:func:`win_chances`' weight of a seat by its gap to the lowest total, when the highest is ``most``."""
    temperature = _temperature(most, end_score)
    return tuple(math.exp(-gap / temperature) for gap in range(most + 1))


# Fitted by maximum likelihood to who won 6,000 four-player games of heuristic bots, from the totals at every
# round's end (log-likelihood per position -1.237, against -1.287 for the earlier guesses of 12 and 7)
POINTS_PER_ROUND = 6.0  # the end score's distance, in these, counts the rounds left
SPREAD_PER_ROUND = 10.0  # the softmax's temperature with one round left, in points


def win_chances(scores: Sequence[int], end_score: int) -> list[float]:
    """Each seat's chance to end with the fewest points, estimated from the totals and the rounds left: the
    closer the end, the more a gap decides (a softmax whose temperature shrinks as the end nears).

    >>> [round(chance, 2) for chance in win_chances([10, 20], 40)]
    [0.63, 0.37]
    """
    temperature = _temperature(max(scores), end_score)
    best = min(scores)
    weights = [math.exp((best - total) / temperature) for total in scores]
    whole = sum(weights)
    return [weight / whole for weight in weights]


def _temperature(most: int, end_score: int) -> float:
    """The softmax's temperature of :func:`win_chances` when the highest total is ``most``."""
    rounds_left = max(1.0, (end_score - most) / POINTS_PER_ROUND)
    return SPREAD_PER_ROUND * math.sqrt(rounds_left)
