"""A batched L.A.M.A. engine in numpy: ``B`` games of ``n`` players stepped at once.

Each step takes one action per game (a dense action index) and returns, for the player now to move in every
game, the observation tensor (the layout of :class:`~laro.rl.lama_encoding.LamaEncoding`) and the mask of legal
actions. A finished game gives every seat its reward (the share of the win) in that step's ``rewards`` row and
is replaced at once by a new game (``done`` says which); its scores are in ``final_scores``. The rules are the
scalar engine's (``laro.games.lama``) with every classic option; the differential test plays both side by side.

>>> engine = VectorLama(batch=8, num_players=3, seed=1)
>>> obs, mask = engine.reset()
>>> obs.shape, mask.shape, bool(mask[:, 8].all())  # quitting is always allowed
((8, 40), (8, 9), True)
>>> rng = np.random.default_rng(0)
>>> for _ in range(500):
...     obs, mask, rewards, done = engine.step(engine.random_actions(rng))
>>> int(engine.games_finished) > 0, bool((mask.sum(1) >= 1).all())
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from laro.core.errors import IllegalActionError, OptionError
from laro.core.options import validate_options
from laro.games.lama import OPTIONS
from laro.games.lama.cards import COPIES, HAND_SIZE, LLAMA, LLAMA_POINTS, NUM_KINDS
from laro.rl.lama_encoding import PER_SEAT

__all__ = ["Deal", "Dealer", "VectorLama", "numpy_dealer"]

K = NUM_KINDS
DRAW, QUIT = K, K + 1
A = K + 2
DECK_SIZE = K * COPIES
_DECK = np.repeat(np.arange(K, dtype=np.int8), COPIES)
_POINTS = np.array([card + 1 for card in range(LLAMA)] + [LLAMA_POINTS], dtype=np.int32)

# A deal for m games: hands (m, n, K) card counts, the rest of the deck (m, 56 - 6n) with the first discard at 0,
# and the first round's starter (m,).
Deal = tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int64]]
Dealer = Callable[[npt.NDArray[np.int64], npt.NDArray[np.int64]], Deal]  # (game numbers, round numbers) -> Deal


def numpy_dealer(num_players: int, seed: int | None) -> Dealer:
    """Shuffled decks from numpy's generator (the default; fast, not the scalar engine's deals): each deck is
    ordered by 32-bit random keys, so it is a uniform shuffle but for ties (under 4 in 10 million decks)."""
    rng = np.random.default_rng(seed)
    dealt = HAND_SIZE * num_players
    seat_of = np.repeat(np.arange(num_players), HAND_SIZE)  # the seat of each dealt card

    def deal(games: npt.NDArray[np.int64], rounds: npt.NDArray[np.int64]) -> Deal:
        m = len(games)
        decks = _DECK[np.argsort(rng.integers(0, 2**32, (m, DECK_SIZE), dtype=np.uint32), axis=1)]
        slots = (np.arange(m)[:, None] * num_players + seat_of) * K + decks[:, :dealt]
        hands = np.bincount(slots.reshape(-1), minlength=m * num_players * K).astype(np.int8)
        return hands.reshape(m, num_players, K), decks[:, dealt:], rng.integers(num_players, size=m)

    return deal


def _tables(n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The next seat still in the round, by seat and quit bits; the legal actions by top card and a 3-bit key
    (holds the same card, holds the next card, may draw)."""
    following = np.zeros((n, 1 << n), dtype=np.int64)
    for seat in range(n):
        for bits in range(1 << n):
            for step in range(1, n + 1):
                other = (seat + step) % n
                if not (bits >> other) & 1:
                    following[seat, bits] = other
                    break
    legal = np.zeros((K * 8, A), dtype=np.bool_)
    for top in range(K):
        for key in range(8):
            row = legal[top * 8 + key]
            row[top] |= bool(key & 1)
            row[(top + 1) % K] |= bool(key & 2)
            row[DRAW] = bool(key & 4)
            row[QUIT] = True
    return following, legal


class VectorLama:
    """``batch`` games of L.A.M.A. for ``num_players``; see the module docstring."""

    def __init__(
        self,
        batch: int,
        num_players: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        dealer: Dealer | None = None,
    ) -> None:
        if not 2 <= num_players <= 6:
            raise OptionError(f"L.A.M.A. takes 2 to 6 players; got {num_players}")
        if batch < 1:
            raise OptionError(f"batch must be at least 1; got {batch}")
        self.options = validate_options(OPTIONS, options)
        if self.options.get("edition", "classic") != "classic":
            raise OptionError(f"the batched engine plays the classic game, not the {self.options['edition']} edition")
        self.batch, self.num_players = batch, num_players
        self.end_score = int(self.options["end_score"])
        self.last_card_starts = self.options["next_round_starter"] == "last_card"
        self.dealer = dealer or numpy_dealer(num_players, seed)
        self._rest = DECK_SIZE - HAND_SIZE * num_players  # discard + draw pile after the deal
        self._following, self._legal = _tables(num_players)
        self._full = (1 << num_players) - 1
        n, b = num_players, batch
        self._rows = np.arange(b)
        self._seat_rows = self._rows * n
        self._rotation = np.arange(n)
        self.obs_size = 3 * K + 1 + len(PER_SEAT) * n
        self.hands = np.zeros((b, n, K), dtype=np.int8)
        self.sizes = np.zeros((b, n), dtype=np.int16)
        self.deck = np.zeros((b, self._rest), dtype=np.int8)
        self.draw_pos = np.zeros(b, dtype=np.int64)
        self.top = np.zeros(b, dtype=np.int64)
        self.quit_bits = np.zeros(b, dtype=np.int64)
        self.current = np.zeros(b, dtype=np.int64)
        self.starter = np.zeros(b, dtype=np.int64)
        self.last_player = np.full(b, -1, dtype=np.int64)
        self.scores = np.zeros((b, n), dtype=np.int32)
        self.round = np.ones(b, dtype=np.int64)
        self.game_number = np.arange(b, dtype=np.int64)
        self.games_finished = 0
        self.final_scores = np.zeros((b, n), dtype=np.int32)
        self.mask = np.zeros((b, A), dtype=np.bool_)
        self.obs = np.zeros((b, self.obs_size), dtype=np.float32)
        # lookups that keep the inner loop to a few whole-array operations
        self._next_game = b
        self._deck_rows = self._rows * self._rest
        self._obs_rows = self._rows * self.obs_size
        self._hand_rows = self._rows * K
        self._next_card = (np.arange(K) + 1) % K
        self._eye = np.eye(K, dtype=np.float32)
        self._rotations = (np.arange(n)[:, None] + np.arange(n)) % n  # seats from each seat's point of view
        self._to_move = (np.arange(n) == 0).astype(np.float32)
        self._seat_feats = np.zeros((b, n, len(PER_SEAT)), dtype=np.float32)  # by absolute seat
        self._legal_flat = self._legal.reshape(-1)
        self._legal_count = self._legal.sum(axis=1)
        self._legal_list = np.array([np.pad(np.flatnonzero(row), (0, 4 - row.sum())) for row in self._legal]).reshape(
            -1
        )
        self._legal_row = np.zeros(b, dtype=np.int64)

    # -- dealing ------------------------------------------------------------------------------------------

    def _deal(self, games: npt.NDArray[np.int64], starters: npt.NDArray[np.int64] | None) -> None:
        hands, rest, drawn_starters = self.dealer(self.game_number[games], self.round[games])
        self.hands[games] = hands
        self.sizes[games] = HAND_SIZE
        self.deck[games] = rest
        self.draw_pos[games] = 1
        top = rest[:, 0].astype(np.int64)
        self.top[games] = top
        self.obs[games, 2 * K : 3 * K] = 0.0
        self.obs[games, 2 * K + top] = 1.0 / COPIES
        self.quit_bits[games] = 0
        self.last_player[games] = -1
        chosen = drawn_starters if starters is None else starters
        self.starter[games] = chosen
        self.current[games] = chosen
        feats = self._seat_feats[games]
        feats[:, :, 0] = HAND_SIZE / DECK_SIZE
        feats[:, :, 1] = 0.0
        feats[:, :, 4] = self._rotation == chosen[:, None]
        self._seat_feats[games] = feats

    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Start ``batch`` new games; the observations and masks of the players to move."""
        everyone = self._rows.astype(np.int64)
        self.scores[:] = 0
        self.round[:] = 1
        self._seat_feats[:] = 0.0
        self._deal(everyone, None)
        self._observe()
        return self.obs, self.mask

    # -- stepping -----------------------------------------------------------------------------------------

    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly random legal action in every game."""
        choice = (rng.random(self.batch, dtype=np.float32) * self._legal_count[self._legal_row]).astype(np.int64)
        actions: npt.NDArray[np.int64] = self._legal_list[self._legal_row * 4 + choice]
        return actions

    def step(
        self, actions: npt.NDArray[np.integer[Any]]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Apply one action per game; returns observations, masks, rewards ``(batch, n)`` and ``done``."""
        a = np.asarray(actions, dtype=np.int64)
        if (
            a.shape != (self.batch,)
            or a.min() < 0
            or a.max() >= A
            or not self._legal_flat[self._legal_row * A + a].all()
        ):
            raise IllegalActionError(self._why(a))
        p = self.current
        is_play = a < K
        is_draw = a == DRAW
        seat_row = self._seat_rows + p
        drawn = self.deck.reshape(-1)[self._deck_rows + np.minimum(self.draw_pos, self._rest - 1)]
        card = np.where(is_play, a, drawn)
        delta = is_draw.astype(np.int8) - is_play
        self.hands.reshape(-1)[seat_row * K + card] += delta
        sizes = self.sizes.reshape(-1)
        sizes[seat_row] += delta
        self.draw_pos += is_draw
        self.top = np.where(is_play, a, self.top)
        self.obs.reshape(-1)[self._obs_rows + 2 * K + np.where(is_play, a, 0)] += is_play * np.float32(1.0 / COPIES)
        self.last_player = np.where(is_play, p, self.last_player)
        self.quit_bits |= (a == QUIT) << p
        seat_feats = self._seat_feats.reshape(-1, len(PER_SEAT))
        seat_feats[seat_row, 0] = sizes[seat_row] / DECK_SIZE
        seat_feats[seat_row, 1] = (self.quit_bits >> p) & 1
        ended = (is_play & (sizes[seat_row] == 0)) | (self.quit_bits == self._full)
        self.current = self._following[p, self.quit_bits]
        rewards = np.zeros((self.batch, self.num_players), dtype=np.float32)
        done = np.zeros(self.batch, dtype=np.bool_)
        if ended.any():
            self._end_rounds(np.flatnonzero(ended), p, rewards, done)
        self._observe()
        return self.obs, self.mask, rewards, done

    def _end_rounds(
        self,
        games: npt.NDArray[np.int64],
        ended_by: npt.NDArray[np.int64],
        rewards: npt.NDArray[np.float32],
        done: npt.NDArray[np.bool_],
    ) -> None:
        """Score the rounds of ``games``; finish the games someone's total ended, deal the next round of the rest."""
        by = ended_by[games]
        m = np.arange(len(games))
        penalties = ((self.hands[games] > 0) * _POINTS).sum(axis=2)
        scores = self.scores[games] + penalties
        emptied = self.sizes[games, by] == 0
        held = scores[m, by]
        scores[m, by] -= np.where(held >= 10, 10, np.where(held >= 1, 1, 0)) * emptied
        over = scores.max(axis=1) >= self.end_score
        self.scores[games] = scores
        if over.any():
            finished = games[over]
            final = scores[over]
            winners = final == final.min(axis=1, keepdims=True)
            rewards[finished] = winners / winners.sum(axis=1, keepdims=True)
            done[finished] = True
            self.final_scores[finished] = final
            self.games_finished += len(finished)
            self.game_number[finished] = self._next_game + np.arange(len(finished))
            self._next_game += len(finished)
            self.scores[finished] = 0
            self.round[finished] = 1
            self._deal(finished, None)
        going = games[~over]
        if len(going):
            last = self.last_player[going]
            by_going = by[~over]
            starters = np.where(last >= 0, last, by_going) if self.last_card_starts else by_going
            self.round[going] += 1
            self._deal(going, starters)
        self._seat_feats[games, :, 2] = np.minimum(1.0, self.scores[games] / self.end_score)

    def _observe(self) -> None:
        """The masks and observations of the players to move."""
        c, top = self.current, self.top
        hand_rows = self._seat_rows + c
        hand = self.hands.reshape(-1, K)[hand_rows]
        hand_flat = hand.reshape(-1)
        key = (hand_flat[self._hand_rows + top] > 0) | ((hand_flat[self._hand_rows + self._next_card[top]] > 0) << 1)
        may_draw = (self.draw_pos < self._rest) & ((self.quit_bits | (1 << c)) != self._full)
        self._legal_row = top * 8 + key + (may_draw << 2)
        self.mask = self._legal[self._legal_row]
        obs = self.obs
        obs[:, :K] = hand.astype(np.float32) * np.float32(1.0 / COPIES)
        obs[:, K : 2 * K] = self._eye[top]
        obs[:, 3 * K] = (self._rest - self.draw_pos) / DECK_SIZE
        feats = self._seat_feats
        feats[:, :, 5] = self._rotation == self.last_player[:, None]
        rotated = feats.reshape(-1, len(PER_SEAT))[self._seat_rows[:, None] + self._rotations[c]]
        rotated[:, :, 3] = self._to_move
        obs[:, 3 * K + 1 :] = rotated.reshape(self.batch, -1)

    def _why(self, a: npt.NDArray[np.int64]) -> str:
        if a.shape != (self.batch,):
            return f"step takes one action per game, shape ({self.batch},); got {a.shape}"
        bad = int(np.flatnonzero((a < 0) | (a >= A) | ~self.mask[self._rows, np.clip(a, 0, A - 1)])[0])
        allowed = np.flatnonzero(self.mask[bad]).tolist()
        return f"action {int(a[bad])} is not legal in game {bad}; its legal action indices are {allowed}"
