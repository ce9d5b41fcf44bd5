"""How ISMCTS judges a L.A.M.A. position: the heuristic's play to the end of the round, then each seat's chance.

A round is where L.A.M.A.'s points are scored, so a playout stops when the round ends. The rest of the round is
played on plain numbers, not on states (the inner loop of every simulation), every seat making exactly the
``heuristic`` bot's choice: play a card when it can (the one that keeps its chain), otherwise draw while its
hand costs more than the quit threshold, else quit. The same policy is the model of the other seats when the
search does not branch on their moves. The round is then scored by the rules' own
:func:`~laro.games.lama.scoring.score_round`. A game that ends with the round gives each winner its share of the
win; otherwise each seat's chance to finish with the fewest points is estimated from the totals: a softmax of
the gaps whose temperature shrinks as the end score nears, so the values add up to 1, like win shares.

>>> import random, laro
>>> state = laro.get_game("lama").new_game(num_players=3, seed=3)
>>> values = LamaJudge().playout(state, random.Random(1))
>>> len(values), all(0.0 <= v <= 1.0 for v in values)
(3, True)
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from typing import cast

from laro.bots.judges import win_shares
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
from laro.bots.lama_party import DRAW_MOVE, QUIT_MOVE, finish_party_round, party_move
from laro.bots.lama_reading import Reading
from laro.core.game import Action, Game, GameState, JSONDict
from laro.games.lama.actions import DRAW, PLAY, QUIT
from laro.games.lama.cards import NUM_KINDS, RANK, hand_size, party_hand_size, penalty
from laro.games.lama.game import LamaGame
from laro.games.lama.sampling import sampler as lama_sampler
from laro.games.lama.scoring import score_round
from laro.games.lama.state import LamaState

__all__ = ["LamaJudge"]

_SHORTEST = tuple(QUIT_FOR_SHORTEST_OPPONENT.get(size, 0.0) for size in range(64))
_NEXT = tuple((card + 1) % NUM_KINDS for card in range(NUM_KINDS))
_SHIFT = tuple(4 * card for card in range(NUM_KINDS))
_DRAW, _QUIT = -2, -3


class LamaJudge:
    """Playouts to the round's end (see the module docstring)."""

    def __init__(self, randomness: float = 0.0, reading: bool = True) -> None:
        self.randomness = randomness  # the share of playout moves made at random
        self.reading = reading  # deal the other hands as their draws and quits tell

    def sampler(
        self, game: Game, observation: JSONDict, memory: dict[object, object]
    ) -> Callable[[random.Random], GameState]:
        """Determinisations of ``observation`` that follow the seat's :class:`Reading` of the other hands,
        carried in ``memory`` from the seat's earlier decisions."""
        key = ("lama reading", observation["seat"])
        previous = memory.get(key)
        reading = Reading.follow(previous if isinstance(previous, Reading) else None, observation)
        memory[key] = reading
        excluded = reading.excluded if self.reading and reading is not None else None
        return lama_sampler(cast(LamaGame, game), observation, excluded if excluded and any(excluded) else None)

    def playout(self, state: GameState, rng: random.Random) -> Sequence[float]:
        lama = cast(LamaState, state)
        if lama.current_player is None:
            return win_shares(lama)
        if lama.party:
            hands = lama.hands.copy()
            ended_by = finish_party_round(
                hands,
                lama.deck,
                lama.draw_pos,
                lama.quit_mask,
                lama.discard[-1],
                lama.current_player,
                _leaning(lama),
                self.randomness,
                rng,
            )
        else:
            ended_by, hands = self._finish_round(lama, rng)
        scores = score_round(lama.round, hands, lama.scores, ended_by, lama.party).scores
        best = min(scores)
        if max(scores) >= lama.options["end_score"]:
            winners = scores.count(best)
            return [1.0 / winners if total == best else 0.0 for total in scores]
        return _win_chances(scores, lama.options["end_score"])

    def policy(self, state: GameState, rng: random.Random) -> Action:
        """The playout's move for the seat to act."""
        lama = cast(LamaState, state)
        seat: int = lama.current_player  # type: ignore[assignment]  # the caller plays on only while not over
        if lama.party:
            return _party_policy(lama, seat)
        card = self._move(
            seat,
            lama.hands,
            None,
            lama.discard[-1],
            lama.quit_mask,
            lama.draw_pos < len(lama.deck),
            _leaning_of(lama.scores, lama.options["end_score"]),
            rng,
        )
        return DRAW if card == _DRAW else QUIT if card == _QUIT else PLAY[card]

    def _finish_round(self, lama: LamaState, rng: random.Random) -> tuple[int, list[int]]:
        """Play the round out; who ended it, and the hands as they then are."""
        move = self._move
        hands = lama.hands.copy()
        sizes = [hand_size(hand) for hand in hands]
        n = lama.num_players
        full = (1 << n) - 1
        deck = lama.deck
        position = lama.draw_pos
        end = len(deck)
        quit_mask = lama.quit_mask
        top = lama.discard[-1]
        seat: int = lama.current_player  # type: ignore[assignment]  # checked by the caller
        leaning = _leaning(lama)
        exact = not self.randomness
        while True:
            hand = hands[seat]
            same = (hand >> _SHIFT[top]) & 15
            after = (hand >> _SHIFT[_NEXT[top]]) & 15
            if exact and (same or after) and not (same and after):  # one card fits: play it (the common case)
                card = top if same else _NEXT[top]
            else:
                card = move(seat, hands, sizes, top, quit_mask, position < end, leaning, rng)
            if card >= 0:  # play it
                hands[seat] -= 1 << _SHIFT[card]
                sizes[seat] -= 1
                top = card
                if not sizes[seat]:
                    return seat, hands
            elif card == _DRAW:
                hands[seat] += 1 << _SHIFT[deck[position]]
                sizes[seat] += 1
                position += 1
            else:
                quit_mask |= 1 << seat
                if quit_mask == full:
                    return seat, hands
            while True:
                seat = seat + 1 if seat + 1 < n else 0
                if not (quit_mask >> seat) & 1:
                    break

    def _move(
        self,
        seat: int,
        hands: list[int],
        sizes: list[int] | None,
        top: int,
        quit_mask: int,
        cards_left: bool,
        leaning: tuple[float, ...],
        rng: random.Random,
    ) -> int:
        """The playout's move: a card to play, :data:`_DRAW` or :data:`_QUIT` (``sizes``: the hands' sizes, or
        ``None`` to count them when needed)."""
        hand = hands[seat]
        following = _NEXT[top]
        same = (hand >> _SHIFT[top]) & 15
        after = (hand >> _SHIFT[following]) & 15
        n = len(hands)
        can_draw = cards_left and (quit_mask | (1 << seat)) != (1 << n) - 1
        if self.randomness and rng.random() < self.randomness:  # any legal move
            choices = [_QUIT]
            if same:
                choices.append(top)
            if after:
                choices.append(following)
            if can_draw:
                choices.append(_DRAW)
            return choices[int(rng.random() * len(choices))]
        if same:
            if not after:
                return top
            # the seat to move is still in, so the others still in are the seats not quit, but for it
            opponents = n - 1 - quit_mask.bit_count()
            return _keeps_chain(hand, top, opponents)
        if after:
            return following
        if not can_draw:
            return _QUIT
        opponents = 0
        shortest = 63
        for other in range(n):
            if other != seat and not (quit_mask >> other) & 1:
                opponents += 1
                size = hand_size(hands[other]) if sizes is None else sizes[other]
                if size < shortest:
                    shortest = size
        held = hand_size(hand) if sizes is None else sizes[seat]
        threshold = QUIT_BASE + QUIT_PER_CARD_HELD * held + QUIT_PER_OPPONENT_IN * opponents
        threshold += _SHORTEST[shortest] + leaning[seat]
        if (hand >> _SHIFT[_NEXT[following]]) & 15:
            threshold += QUIT_IF_HOLDING_TWO_AHEAD
        if (hand >> _SHIFT[_NEXT[_NEXT[following]]]) & 15:
            threshold += QUIT_IF_HOLDING_THREE_AHEAD
        return _DRAW if penalty(hand) > threshold else _QUIT


def _party_policy(lama: LamaState, seat: int) -> Action:
    """The Party Edition playout's move for ``seat``, as an action."""
    n = lama.num_players
    others = [other for other in range(n) if other != seat and not (lama.quit_mask >> other) & 1]
    card = party_move(
        lama.hands[seat],
        RANK[lama.discard[-1]],
        len(others),
        min((party_hand_size(lama.hands[other]) for other in others), default=63),
        party_hand_size(lama.hands[seat]),
        _leaning(lama)[seat],
        lama.draw_pos < len(lama.deck) and bool(others),
    )
    return DRAW if card == DRAW_MOVE else QUIT if card == QUIT_MOVE else PLAY[card]


_CHAINS: dict[int, int] = {}
_CHAINS_KEPT = 1 << 16


def _keeps_chain(hand: int, top: int, opponents: int) -> int:
    """The card the heuristic plays holding both the top's value and the next: the top's to keep the chain,
    else the next (remembered per hand, top and number of opponents: the same few come up again and again)."""
    key = (hand << 7) | (top << 3) | opponents
    card = _CHAINS.get(key)
    if card is None:
        if len(_CHAINS) >= _CHAINS_KEPT:
            _CHAINS.clear()
        counts = [(hand >> shift) & 15 for shift in _SHIFT]
        card = _CHAINS[key] = top if chain_value(counts, top, opponents) > 0.0 else _NEXT[top]
    return card


def _leaning(lama: LamaState) -> tuple[float, ...]:
    """Per seat, the part of the quit threshold that stays put during a round: a black token to win back, and
    the risk a trailing seat must take in what is probably the last round."""
    return _leaning_of(lama.scores, lama.options["end_score"])


@functools.lru_cache(maxsize=4096)
def _leaning_of(scores: tuple[int, ...], end_score: int) -> tuple[float, ...]:
    return tuple(leaning(scores, seat, end_score) for seat in range(len(scores)))


# Fitted by maximum likelihood to who won 6,000 four-player games of heuristic bots, from the totals at every
# round's end (log-likelihood per position -1.237, against -1.287 for the earlier guesses of 12 and 7)
POINTS_PER_ROUND = 6.0  # the end score's distance, in these, counts the rounds left
SPREAD_PER_ROUND = 10.0  # the softmax's temperature with one round left, in points


def _win_chances(scores: Sequence[int], end_score: int) -> list[float]:
    """Each seat's chance to end with the fewest points, estimated from the totals and the rounds left: the
    closer the end, the more a gap decides (a softmax whose temperature shrinks as the end nears)."""
    rounds_left = max(1.0, (end_score - max(scores)) / POINTS_PER_ROUND)
    temperature = SPREAD_PER_ROUND * math.sqrt(rounds_left)
    best = min(scores)
    weights = [math.exp((best - total) / temperature) for total in scores]
    whole = sum(weights)
    return [weight / whole for weight in weights]
