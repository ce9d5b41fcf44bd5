"""How ISMCTS judges a L.A.M.A. position: the heuristic's play to the end of the round, then each seat's chance.

A round is where L.A.M.A.'s points are scored, so a playout stops when the round ends. The rest of the round is
played on plain numbers, not on states (the inner loop of every simulation), every seat making exactly the
``heuristic`` bot's choice: play a card when it can (the one that keeps its chain), otherwise draw while its
hand costs more than the quit threshold, else quit. The same policy is the model of the other seats when the
search does not branch on their moves. The round is then scored by the rules' own totals
(:func:`~laro.games.lama.scoring.round_totals`). A game that ends with the round gives each winner its share of
the win; otherwise each seat's chance to finish with the fewest points is estimated from the totals: a softmax
of the gaps whose temperature shrinks as the end score nears, so the values add up to 1, like win shares.

A round without random moves is played by the specialised loops of :mod:`laro.bots.lama_playout`; the general
ones (here for the classic game, :func:`~laro.bots.lama_party.finish_party_round` for the Party Edition) play the
random share, move by move through the heuristic's rules, and are the reference the specialised loops are tested
against (``specialised=False`` keeps to them, as the search benchmark's baseline does). The paired search asks
for its playouts in batches, every determinisation by every action at once (:meth:`LamaJudge.play_batch`, played
by :mod:`laro.bots.lama_batch` on numpy arrays with the same moves and values as the specialised loops);
``batched=False`` asks for them one determinisation at a time.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from laro.bots import lama_party
from laro.bots.judges import win_shares
from laro.bots.lama_heuristic import (
    QUIT_BASE,
    QUIT_IF_HOLDING_THREE_AHEAD,
    QUIT_IF_HOLDING_TWO_AHEAD,
    QUIT_PER_CARD_HELD,
    QUIT_PER_OPPONENT_IN,
    leaning,
)
from laro.bots.lama_party import DRAW_MOVE, QUIT_MOVE, party_move
from laro.bots.lama_playout import (
    FOLLOWING,
    SHIFT,
    SHORTEST_OPPONENT,
    finish_party_round,
    finish_round,
    keeps_chain,
    make_move,
    round_value,
    win_chances,
)
from laro.bots.lama_reading import Reading
from laro.core.game import Action, Game, GameState, JSONDict
from laro.games.lama.actions import DRAW, PLAY, QUIT, LamaAction
from laro.games.lama.cards import RANK, hand_size, party_hand_size, penalty
from laro.games.lama.game import LamaGame
from laro.games.lama.sampling import LamaSampler
from laro.games.lama.sampling import sampler as lama_sampler
from laro.games.lama.scoring import round_totals, score_round
from laro.games.lama.state import LamaState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from laro.bots.lama_deals import Dealt

__all__ = ["LamaJudge"]


class LamaJudge:
    """Playouts to the round's end (see the module docstring)."""

    def __init__(
        self, randomness: float = 0.0, reading: bool = True, specialised: bool = True, batched: bool = True
    ) -> None:
        self.randomness = randomness  # the share of playout moves made at random
        self.reading = reading  # deal the other hands as their draws and quits tell
        self.specialised = specialised  # a round without random moves: the specialised loops
        self.batched = batched  # and the paired search's playouts in batches (laro.bots.lama_batch)

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

    def batches(self, sample: Callable[[random.Random], GameState]) -> bool:
        """Whether :meth:`play_batch` plays ``sample``'s determinisations (the search then asks it for them)."""
        return isinstance(sample, LamaSampler) and self.batched and self.specialised and not self.randomness

    def play_batch(
        self,
        sample: Callable[[random.Random], GameState],
        actions: Sequence[Action],
        count: int,
        rng: random.Random,
        first: GameState | None = None,
    ) -> npt.NDArray[np.float64]:
        """``count`` determinisations of ``sample`` (``first`` the first of them, if already drawn), each played out
        from every one of ``actions`` at once (see :mod:`laro.bots.lama_batch`): the seat to move's values,
        ``(count, len(actions))``, the same as :meth:`play_each` of each determinisation (only where
        :meth:`batches`)."""
        from laro.bots.lama_deals import deal_many

        lama = cast(LamaSampler, sample)
        return self.value_dealt(lama, deal_many(lama, rng, count, cast(LamaState | None, first)), actions)

    def value_dealt(self, sample: LamaSampler, dealt: Dealt, actions: Sequence[Action]) -> npt.NDArray[np.float64]:
        """The seat's values of the ``dealt`` determinisations of ``sample`` played out from every one of
        ``actions``, ``(determinisations, actions)``: by the heuristic's moves
        (:func:`~laro.bots.lama_batch.values_of`); a judge that plays its playouts otherwise overrides this."""
        from laro.bots.lama_batch import values_of

        return values_of(self, sample, dealt, actions)

    def play_each(self, state: GameState, actions: Sequence[Action], rng: random.Random) -> list[Sequence[float]]:
        """A playout after each of ``actions`` in ``state`` (the paired search's inner loop): the same values as
        :meth:`playout` of each action's state, from the numbers straight where the specialised loop plays."""
        lama = cast(LamaState, state)
        seat = lama.current_player
        if seat is None or not self._specialised(lama):
            return [self.playout(lama.apply(action), rng) for action in actions]
        leaning = _leaning(lama)
        end_score = lama.options["end_score"]
        party = lama.party
        finish = finish_party_round if party else finish_round
        deck, position, quit_mask, top = lama.deck, lama.draw_pos, lama.quit_mask, RANK[lama.discard[-1]]
        values: list[Sequence[float]] = []
        for action in actions:
            card = cast(LamaAction, action).card
            hands = lama.hands.copy()
            move = card if card is not None else DRAW_MOVE if action is DRAW else QUIT_MOVE
            moved = make_move(hands, deck, position, quit_mask, top, seat, move)
            if moved is None:  # the move ends the round: the rules score it and deal the next
                values.append(self.playout(lama.apply(action), rng))
                continue
            ended_by = finish(hands, deck, *moved, leaning)
            values.append(round_value(round_totals(hands, lama.scores, ended_by, party), end_score))
        return values

    def playout(self, state: GameState, rng: random.Random) -> Sequence[float]:
        lama = cast(LamaState, state)
        seat = lama.current_player
        if seat is None:
            return win_shares(lama)
        if self._specialised(lama):
            hands = lama.hands.copy()
            top = RANK[lama.discard[-1]]
            finish = finish_party_round if lama.party else finish_round
            ended_by = finish(hands, lama.deck, lama.draw_pos, lama.quit_mask, top, seat, _leaning(lama))
            totals = round_totals(hands, lama.scores, ended_by, lama.party)
            return round_value(totals, lama.options["end_score"])
        if lama.party:
            hands = lama.hands.copy()
            ended_by = lama_party.finish_party_round(
                hands,
                lama.deck,
                lama.draw_pos,
                lama.quit_mask,
                lama.discard[-1],
                seat,
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
        return win_chances(scores, lama.options["end_score"])

    def general(self) -> LamaJudge:
        """This judge with its general playouts only: every round move by move (the reference the specialised
        loop is tested against, and the search benchmark's baseline)."""
        return LamaJudge(self.randomness, self.reading, specialised=False, batched=False)

    def _specialised(self, lama: LamaState) -> bool:
        """Whether the specialised loops play ``lama``'s round out (a round without random moves)."""
        return self.specialised and not self.randomness

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
        return DRAW if card == DRAW_MOVE else QUIT if card == QUIT_MOVE else PLAY[card]

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
            same = (hand >> SHIFT[top]) & 15
            after = (hand >> SHIFT[FOLLOWING[top]]) & 15
            if exact and (same or after) and not (same and after):  # one card fits: play it (the common case)
                card = top if same else FOLLOWING[top]
            else:
                card = move(seat, hands, sizes, top, quit_mask, position < end, leaning, rng)
            if card >= 0:  # play it
                hands[seat] -= 1 << SHIFT[card]
                sizes[seat] -= 1
                top = card
                if not sizes[seat]:
                    return seat, hands
            elif card == DRAW_MOVE:
                hands[seat] += 1 << SHIFT[deck[position]]
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
        """The playout's move: a card to play, :data:`DRAW_MOVE` or :data:`QUIT_MOVE` (``sizes``: the hands' sizes, or
        ``None`` to count them when needed)."""
        hand = hands[seat]
        following = FOLLOWING[top]
        same = (hand >> SHIFT[top]) & 15
        after = (hand >> SHIFT[following]) & 15
        n = len(hands)
        can_draw = cards_left and (quit_mask | (1 << seat)) != (1 << n) - 1
        if self.randomness and rng.random() < self.randomness:  # any legal move
            choices = [QUIT_MOVE]
            if same:
                choices.append(top)
            if after:
                choices.append(following)
            if can_draw:
                choices.append(DRAW_MOVE)
            return choices[int(rng.random() * len(choices))]
        if same:
            if not after:
                return top
            # the seat to move is still in, so the others still in are the seats not quit, but for it
            opponents = n - 1 - quit_mask.bit_count()
            return keeps_chain(hand, top, opponents)
        if after:
            return following
        if not can_draw:
            return QUIT_MOVE
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
        threshold += SHORTEST_OPPONENT[shortest] + leaning[seat]
        if (hand >> SHIFT[FOLLOWING[following]]) & 15:
            threshold += QUIT_IF_HOLDING_TWO_AHEAD
        if (hand >> SHIFT[FOLLOWING[FOLLOWING[following]]]) & 15:
            threshold += QUIT_IF_HOLDING_THREE_AHEAD
        return DRAW_MOVE if penalty(hand) > threshold else QUIT_MOVE


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


def _leaning(lama: LamaState) -> tuple[float, ...]:
    """Per seat, the part of the quit threshold that stays put during a round: a black token to win back, and
    the risk a trailing seat must take in what is probably the last round."""
    return _leaning_of(lama.scores, lama.options["end_score"])


@functools.lru_cache(maxsize=4096)
def _leaning_of(scores: tuple[int, ...], end_score: int) -> tuple[float, ...]:
    return tuple(leaning(scores, seat, end_score) for seat in range(len(scores)))
