"""How laro's L.A.M.A. bots play the Party Edition: the heuristic's choice, and the judge's playout of a round.

The classic heuristic (:mod:`laro.bots.lama_heuristic`) stays the model; the Party Edition's cards add three
rules of thumb, on one packed hand (see :mod:`laro.games.lama.cards`):

1. **Which rank to play** (the top's or the next): the classic chain rule, with each plus card counted as a copy
   of its number (:func:`~laro.bots.lama_heuristic.chain_value`).
2. **Chain plus cards.** Of the chosen rank, play the plus card first: in the extra turn the same rank, the
   next one or the pink llama may follow it, so two cards (or more) leave the hand in one turn, and with no
   follow-up the extra turn still draws or quits as the turn would have anyway.
3. **Use the pink llama.** It may go on any card and costs 20 if it is still held, so it is played instead of
   drawing or quitting when nothing else fits, and at once when an opponent is close to going out.

>>> from laro.games.lama.cards import PINK, PLUS, hand_from_cards
>>> party_move(hand_from_cards([2, PLUS + 2, 3]), 2, opponents=3, shortest=5, held=3, leaning=0.0,
...            can_draw=True) == PLUS + 2  # the 3+ first: the 3 or the 4 follows it
True
>>> party_move(hand_from_cards([PINK, 5]), 0, opponents=3, shortest=5, held=2, leaning=0.0, can_draw=True) == PINK
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from laro.bots.lama_heuristic import (
    QUIT_BASE,
    QUIT_FOR_SHORTEST_OPPONENT,
    QUIT_IF_HOLDING_THREE_AHEAD,
    QUIT_IF_HOLDING_TWO_AHEAD,
    QUIT_PER_CARD_HELD,
    QUIT_PER_OPPONENT_IN,
    chain_value,
    leaning,
)
from laro.core.game import Action, JSONDict
from laro.games.lama.cards import (
    ALL_CARD_TEXT,
    LLAMA,
    NUM_KINDS,
    PINK,
    PLUS,
    RANK,
    hand_from_cards,
    party_card_from_text,
    party_hand_size,
    party_penalty,
)

__all__ = [
    "DRAW_MOVE",
    "PINK_DANGER",
    "PINK_SHIFT",
    "PLUS_SHIFT",
    "QUIT_MOVE",
    "chain_rank",
    "finish_party_round",
    "of_rank",
    "party_choice",
    "party_move",
]

A = TypeVar("A", bound=Action)

DRAW_MOVE, QUIT_MOVE = -2, -3
PINK_DANGER = 2  # play the pink llama at once when an opponent holds this many cards or fewer

_NEXT = tuple((rank + 1) % NUM_KINDS for rank in range(NUM_KINDS))
PLUS_SHIFT = tuple(  # by rank, where its plus card's count sits in a packed hand (none for the llama)
    4 * (PLUS + rank) if rank < LLAMA else 4 * (PINK + 1) for rank in range(NUM_KINDS)
)  # no plus llama
PINK_SHIFT = 4 * PINK  # where the pink llama's count sits
_SHORTEST = tuple(QUIT_FOR_SHORTEST_OPPONENT.get(size, 0.0) for size in range(64))


def _count(hand: int, card: int) -> int:
    return (hand >> (4 * card)) & 15


def _ranks(hand: int) -> list[int]:
    """Copies held of each rank (a plus card counted with its number; the pink llama left out)."""
    counts = [(hand >> (4 * rank)) & 15 for rank in range(NUM_KINDS)]
    for rank in range(LLAMA):
        counts[rank] += (hand >> PLUS_SHIFT[rank]) & 15
    return counts


def of_rank(hand: int, rank: int) -> int:
    """The card to play of ``rank`` (held): its plus card if held, else the ordinary one."""
    return PLUS + rank if (hand >> PLUS_SHIFT[rank]) & 15 else rank


def party_move(hand: int, top: int, opponents: int, shortest: int, held: int, leaning: float, can_draw: bool) -> int:
    """The Party Edition move for ``hand`` on a top card of rank ``top``: a card to play, :data:`DRAW_MOVE` or
    :data:`QUIT_MOVE`. ``opponents``: how many others are still in; ``shortest``: the smallest of their hands
    (63 if none); ``held``: the hand's size; ``leaning``: the part of the quit threshold fixed for the round."""
    following = _NEXT[top]
    same = (hand >> (4 * top)) & 15 or (hand >> PLUS_SHIFT[top]) & 15
    after = (hand >> (4 * following)) & 15 or (hand >> PLUS_SHIFT[following]) & 15
    pink = hand >> PINK_SHIFT
    if pink and (held == 1 or shortest <= PINK_DANGER or not (same or after)):
        return PINK
    if same and after:
        return of_rank(hand, chain_rank(hand, top, opponents))
    if same:
        return of_rank(hand, top)
    if after:
        return of_rank(hand, following)
    if not can_draw:
        return QUIT_MOVE
    threshold = QUIT_BASE + QUIT_PER_CARD_HELD * held + QUIT_PER_OPPONENT_IN * opponents + _SHORTEST[shortest]
    threshold += leaning
    ranks = _ranks(hand)
    if ranks[_NEXT[following]]:
        threshold += QUIT_IF_HOLDING_TWO_AHEAD
    if ranks[_NEXT[_NEXT[following]]]:
        threshold += QUIT_IF_HOLDING_THREE_AHEAD
    return DRAW_MOVE if party_penalty(hand) > threshold else QUIT_MOVE


_CHAINS: dict[int, int] = {}
_CHAINS_KEPT = 1 << 16


def chain_rank(hand: int, top: int, opponents: int) -> int:
    """The rank to play holding both the top's and the next (see :func:`~laro.bots.lama_heuristic.chain_value`),
    remembered per hand, top and number of opponents: the same few come up again and again in playouts."""
    key = (hand << 7) | (top << 3) | opponents
    rank = _CHAINS.get(key)
    if rank is None:
        if len(_CHAINS) >= _CHAINS_KEPT:
            _CHAINS.clear()
        rank = _CHAINS[key] = top if chain_value(_ranks(hand), top, opponents) > 0.0 else _NEXT[top]
    return rank


def finish_party_round(
    hands: list[int],
    deck: Sequence[int],
    position: int,
    quit_mask: int,
    top_card: int,
    seat: int,
    leaning: Sequence[float],
    randomness: float,
    rng: random.Random,
) -> int:
    """Play a Party Edition round out from ``seat``'s turn, every seat making :func:`party_move` (or, with
    probability ``randomness``, any legal move); ``hands`` is changed in place. Returns who ended the round."""
    n = len(hands)
    full = (1 << n) - 1
    sizes = [party_hand_size(hand) for hand in hands]
    end = len(deck)
    top = RANK[top_card]
    while True:
        hand = hands[seat]
        can_draw = position < end and (quit_mask | (1 << seat)) != full
        if randomness and rng.random() < randomness:
            card = _any_move(hand, top, can_draw, rng)
            found = True
        else:  # the common case first: no pink llama and one rank to play (its plus card first)
            following = _NEXT[top]
            same_plus = (hand >> PLUS_SHIFT[top]) & 15
            same = same_plus or (hand >> (4 * top)) & 15
            after_plus = (hand >> PLUS_SHIFT[following]) & 15
            after = after_plus or (hand >> (4 * following)) & 15
            found = not hand >> PINK_SHIFT and (not same) != (not after)
            if found and same:
                card = PLUS + top if same_plus else top
            elif found:
                card = PLUS + following if after_plus else following
        if not found:
            opponents = 0
            shortest = 63
            for other in range(n):
                if other != seat and not (quit_mask >> other) & 1:
                    opponents += 1
                    if sizes[other] < shortest:
                        shortest = sizes[other]
            card = party_move(hand, top, opponents, shortest, sizes[seat], leaning[seat], can_draw)
        if card >= 0:
            hands[seat] = hand - (1 << (4 * card))
            sizes[seat] -= 1
            top = RANK[card]
            if not sizes[seat]:
                return seat
            if PLUS <= card < PINK:  # another turn
                continue
        elif card == DRAW_MOVE:
            hands[seat] = hand + (1 << (4 * deck[position]))
            sizes[seat] += 1
            position += 1
        else:
            quit_mask |= 1 << seat
            if quit_mask == full:
                return seat
        while True:
            seat = seat + 1 if seat + 1 < n else 0
            if not (quit_mask >> seat) & 1:
                break


def _any_move(hand: int, top: int, can_draw: bool, rng: random.Random) -> int:
    """A uniformly random legal move."""
    following = _NEXT[top]
    cards = [top, following, PLUS + top if top < LLAMA else -1, PLUS + following if following < LLAMA else -1, PINK]
    choices = [card for card in cards if card >= 0 and _count(hand, card)]
    choices.append(QUIT_MOVE)
    if can_draw:
        choices.append(DRAW_MOVE)
    return choices[int(rng.random() * len(choices))]


def party_choice(observation: JSONDict, legal: Sequence[A]) -> A:
    """The heuristic bot's Party Edition move, from its seat's observation."""
    seat: int = observation["seat"]
    sizes: list[int] = observation["hand_sizes"]
    gone: list[bool] = observation["quit"]
    opponent_sizes = [size for other, size in enumerate(sizes) if other != seat and not gone[other]]
    card = party_move(
        hand_from_cards(map(party_card_from_text, observation["hand"])),
        RANK[party_card_from_text(observation["top_card"])],
        len(opponent_sizes),
        min(opponent_sizes, default=63),
        sizes[seat],
        leaning(observation["scores"], seat, int(observation["options"].get("end_score", 40))),
        any(str(action) == "draw" for action in legal),
    )
    wanted = "draw" if card == DRAW_MOVE else "quit" if card == QUIT_MOVE else f"play {ALL_CARD_TEXT[card]}"
    for action in legal:
        if str(action) == wanted:
            return action
    raise AssertionError(f"the Party Edition move {wanted!r} is not among the legal actions")
