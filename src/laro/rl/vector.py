"""A batched L.A.M.A. engine in numpy: ``B`` games of ``n`` players stepped at once.

Each step takes one action per game (a dense action index) and returns, for the player now to move in every
game, the observation tensor (the layout of :class:`~laro.rl.lama_encoding.LamaEncoding`) and the mask of legal
actions. A finished game gives every seat its reward (the share of the win) in that step's ``rewards`` row and
is replaced at once by a new game (``done`` says which); its scores are in ``final_scores``. The rules are the
scalar engine's (``laro.games.lama``) with every option of both editions; the differential test plays both side
by side. With ``options={"edition": "party"}`` it plays the Party Edition: 14 card kinds in the observation, 16
actions in the mask, another turn after a plus card, the pink llama's 20 points and the return of a pink token.

>>> engine = VectorLama(batch=8, num_players=3, seed=1)
>>> obs, mask = engine.reset()
>>> obs.shape, mask.shape, bool(mask[:, 8].all())  # quitting is always allowed
((8, 40), (8, 9), True)
>>> rng = np.random.default_rng(0)
>>> for _ in range(500):
...     obs, mask, rewards, done = engine.step(engine.random_actions(rng))
>>> int(engine.games_finished) > 0, bool((mask.sum(1) >= 1).all())
(True, True)
>>> party = VectorLama(batch=8, num_players=3, seed=1, options={"edition": "party"})
>>> [part.shape for part in party.reset()]
[(8, 61), (8, 16)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from laro.core.errors import IllegalActionError, OptionError
from laro.core.options import validate_options
from laro.games.lama import OPTIONS
from laro.games.lama.actions import ALL_ACTIONS, DRAW, PLAY, QUIT
from laro.games.lama.cards import (
    ALL_CARD_TEXT,
    ANOTHER_TURN,
    CARD_TEXT,
    HAND_SIZE,
    LLAMA,
    LLAMA_POINTS,
    NUM_KINDS,
    PINK,
    PINK_POINTS,
    PLUS,
    RANK,
)
from laro.games.lama.party import PartyLamaState
from laro.games.lama.state import LamaState
from laro.rl.lama_encoding import PER_SEAT, LamaEncoding

__all__ = ["Deal", "Dealer", "VectorLama", "numpy_dealer"]

_DRAW, _QUIT = DRAW.index, QUIT.index
_POINTS = np.array([rank + 1 for rank in range(LLAMA)] + [LLAMA_POINTS], dtype=np.int32)  # by rank
_EDITIONS: dict[str, type[LamaState]] = {"classic": LamaState, "party": PartyLamaState}

# A deal for m games: hands (m, n, kinds) card counts, the rest of the deck (m, 56 - 6n) with the first discard
# at 0, and the first round's starter (m,).
Deal = tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int64]]
Dealer = Callable[[npt.NDArray[np.int64], npt.NDArray[np.int64]], Deal]  # (game numbers, round numbers) -> Deal


def numpy_dealer(num_players: int, seed: int | None, edition: str = "classic") -> Dealer:
    """Shuffled decks of the ``edition``'s 56 cards from numpy's generator (the default; fast, not the scalar
    engine's deals): each deck is ordered by 32-bit random keys, so it is a uniform shuffle but for ties (under 4
    in 10 million decks)."""
    cards = np.array(_EDITIONS[edition].cards, dtype=np.int8)
    kinds = int(cards.max()) + 1
    rng = np.random.default_rng(seed)
    dealt = HAND_SIZE * num_players
    seat_of = np.repeat(np.arange(num_players), HAND_SIZE)  # the seat of each dealt card

    def deal(games: npt.NDArray[np.int64], rounds: npt.NDArray[np.int64]) -> Deal:
        m = len(games)
        decks = cards[np.argsort(rng.integers(0, 2**32, (m, len(cards)), dtype=np.uint32), axis=1)]
        slots = (np.arange(m)[:, None] * num_players + seat_of) * kinds + decks[:, :dealt]
        hands = np.bincount(slots.reshape(-1), minlength=m * num_players * kinds).astype(np.int8)
        return hands.reshape(m, num_players, kinds), decks[:, dealt:], rng.integers(num_players, size=m)

    return deal


def _following(n: int) -> npt.NDArray[np.int64]:
    """The next seat still in the round, by seat and quit bits."""
    following = np.zeros((n, 1 << n), dtype=np.int64)
    for seat in range(n):
        for bits in range(1 << n):
            for step in range(1, n + 1):
                other = (seat + step) % n
                if not (bits >> other) & 1:
                    following[seat, bits] = other
                    break
    return following


def _legal_table(edition: type[LamaState], kinds: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The cards that may follow each top rank, read from the scalar engine's ``legal_masks`` (the one place that
    decides legality), as ``slots`` (slot, rank) -> card; and the legal actions by top rank and a key of one bit
    per slot (holds that card) and a last bit (may draw). A rank with fewer followers repeats its first in the
    spare slots, whose bits the table ignores."""
    followers = [[card for card in range(kinds) if (mask >> (4 * card)) & 15] for mask in edition.legal_masks]
    width = max(map(len, followers))
    slots = np.array([[cards[s] if s < len(cards) else cards[0] for cards in followers] for s in range(width)])
    rows = 1 << (width + 1)
    legal = np.zeros((NUM_KINDS * rows, len(ALL_ACTIONS) if edition.party else _QUIT + 1), dtype=np.bool_)
    for rank, cards in enumerate(followers):
        for key in range(rows):
            row = legal[rank * rows + key]
            for s, card in enumerate(cards):
                row[PLAY[card].index] |= bool((key >> s) & 1)
            row[_DRAW] = bool((key >> width) & 1)
            row[_QUIT] = True
    return slots, legal


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
        edition = _EDITIONS[self.options["edition"]]
        self.party = edition.party
        self.batch, self.num_players = batch, num_players
        self.end_score = int(self.options["end_score"])
        self.last_card_starts = self.options["next_round_starter"] == "last_card"
        self.dealer = dealer or numpy_dealer(num_players, seed, self.options["edition"])
        # the environments' encoding of this edition: its card kinds, and the scales of counts and sizes
        self.encoding = encoding = LamaEncoding(num_players, ALL_CARD_TEXT if self.party else CARD_TEXT)
        self.kinds = k = len(encoding.kinds)
        self._copies, self._deck_size = np.float32(1.0 / encoding.copies), encoding.deck_size
        self._rest = len(edition.cards) - HAND_SIZE * num_players  # discard + draw pile after the deal
        self._following = _following(num_players)
        self._slots, self._legal = _legal_table(edition, k)
        self.num_actions = self._legal.shape[1]
        self._width = len(self._slots)  # the follower slots of a key
        self._first_is_rank = bool((self._slots[0] == np.arange(NUM_KINDS)).all())  # the classic game's: no lookup
        self._rows_per_rank = 1 << (self._width + 1)
        self._full = (1 << num_players) - 1
        n, b = num_players, batch
        self._rows = np.arange(b)
        self._seat_rows = self._rows * n
        self._rotation = np.arange(n)
        self.obs_size = encoding.size
        self.hands = np.zeros((b, n, k), dtype=np.int8)
        self.sizes = np.zeros((b, n), dtype=np.int16)
        self.deck = np.zeros((b, self._rest), dtype=np.int8)
        self.draw_pos = np.zeros(b, dtype=np.int64)
        self.top = np.zeros(b, dtype=np.int64)  # the top card of the discard pile (a card, not its rank)
        self.quit_bits = np.zeros(b, dtype=np.int64)
        self.current = np.zeros(b, dtype=np.int64)
        self.starter = np.zeros(b, dtype=np.int64)
        self.last_player = np.full(b, -1, dtype=np.int64)
        self.scores = np.zeros((b, n), dtype=np.int32)
        self.round = np.ones(b, dtype=np.int64)
        self.game_number = np.arange(b, dtype=np.int64)
        self.games_finished = 0
        self.final_scores = np.zeros((b, n), dtype=np.int32)
        self.mask = np.zeros((b, self.num_actions), dtype=np.bool_)
        self.obs = np.zeros((b, self.obs_size), dtype=np.float32)
        # lookups that keep the inner loop to a few whole-array operations
        self._next_game = b
        self._deck_rows = self._rows * self._rest
        self._obs_rows = self._rows * self.obs_size
        self._hand_rows = self._rows * k
        self._eye = np.eye(k, dtype=np.float32)
        self._rank = np.array(RANK[:k], dtype=np.int64)  # a plus card ranks as its number, the pink llama as a llama
        # per action index: the card it plays (-1: draw or quit), and whether it gives another turn (a plus card)
        self._card_of = np.array([-1 if a.card is None else a.card for a in ALL_ACTIONS[: self.num_actions]])
        self._again = np.array([a.card is not None and ANOTHER_TURN[a.card] for a in ALL_ACTIONS[: self.num_actions]])
        self._rotations = (np.arange(n)[:, None] + np.arange(n)) % n  # seats from each seat's point of view
        self._to_move = (np.arange(n) == 0).astype(np.float32)
        self._seat_feats = np.zeros((b, n, len(PER_SEAT)), dtype=np.float32)  # by absolute seat
        self._legal_flat = self._legal.reshape(-1)
        self._legal_count = self._legal.sum(axis=1)
        most = int(self._legal_count.max())
        self._most_legal = most
        self._legal_list = np.array([np.pad(np.flatnonzero(row), (0, most - row.sum())) for row in self._legal])
        self._legal_list = self._legal_list.reshape(-1)
        self._legal_row = np.zeros(b, dtype=np.int64)

    # -- dealing ------------------------------------------------------------------------------------------

    def _deal(self, games: npt.NDArray[np.int64], starters: npt.NDArray[np.int64] | None) -> None:
        hands, rest, drawn_starters = self.dealer(self.game_number[games], self.round[games])
        k = self.kinds
        self.hands[games] = hands
        self.sizes[games] = HAND_SIZE
        self.deck[games] = rest
        self.draw_pos[games] = 1
        top = rest[:, 0].astype(np.int64)
        self.top[games] = top
        self.obs[games, 2 * k : 3 * k] = 0.0
        self.obs[games, 2 * k + top] = self._copies
        self.quit_bits[games] = 0
        self.last_player[games] = -1
        chosen = drawn_starters if starters is None else starters
        self.starter[games] = chosen
        self.current[games] = chosen
        feats = self._seat_feats[games]
        feats[:, :, 0] = HAND_SIZE / self._deck_size
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
        actions: npt.NDArray[np.int64] = self._legal_list[self._legal_row * self._most_legal + choice]
        return actions

    def step(
        self, actions: npt.NDArray[np.integer[Any]]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Apply one action per game; returns observations, masks, rewards ``(batch, n)`` and ``done``."""
        a = np.asarray(actions, dtype=np.int64)
        if (
            a.shape != (self.batch,)
            or a.min() < 0
            or a.max() >= self.num_actions
            or not self._legal_flat[self._legal_row * self.num_actions + a].all()
        ):
            raise IllegalActionError(self._why(a))
        k = self.kinds
        p = self.current
        if self.party:
            played = self._card_of[a]
            is_play = played >= 0
        else:  # the classic game's plays are its cards' indices
            played = a
            is_play = a < k
        is_draw = a == _DRAW
        seat_row = self._seat_rows + p
        drawn = self.deck.reshape(-1)[self._deck_rows + np.minimum(self.draw_pos, self._rest - 1)]
        card = np.where(is_play, played, drawn)
        delta = is_draw.astype(np.int8) - is_play
        self.hands.reshape(-1)[seat_row * k + card] += delta
        sizes = self.sizes.reshape(-1)
        sizes[seat_row] += delta
        self.draw_pos += is_draw
        self.top = np.where(is_play, played, self.top)
        self.obs.reshape(-1)[self._obs_rows + 2 * k + np.where(is_play, played, 0)] += is_play * self._copies
        self.last_player = np.where(is_play, p, self.last_player)
        self.quit_bits |= (a == _QUIT) << p
        seat_feats = self._seat_feats.reshape(-1, len(PER_SEAT))
        seat_feats[seat_row, 0] = sizes[seat_row] / self._deck_size
        seat_feats[seat_row, 1] = (self.quit_bits >> p) & 1
        ended = (is_play & (sizes[seat_row] == 0)) | (self.quit_bits == self._full)
        self.current = self._following[p, self.quit_bits]
        if self.party:  # a plus card: the same player again (a last card ends the round below all the same)
            self.current = np.where(self._again[a], p, self.current)
        rewards = np.zeros((self.batch, self.num_players), dtype=np.float32)
        done = np.zeros(self.batch, dtype=np.bool_)
        if ended.any():
            self._end_rounds(np.flatnonzero(ended), p, rewards, done)
        self._observe()
        return self.obs, self.mask, rewards, done

    def _penalties(self, hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
        """Each hand's points: every rank held counts once (a plus card is its number, the pink llama a llama),
        the llama group 10, or 20 with the pink llama in it."""
        present = hands > 0
        if not self.party:
            points: npt.NDArray[np.int32] = (present * _POINTS).sum(axis=2)
            return points
        ranks = present[:, :, :NUM_KINDS] | present[:, :, PLUS:]  # 1+..6+ then P, in rank order
        points = (ranks * _POINTS).sum(axis=2) + (PINK_POINTS - LLAMA_POINTS) * present[:, :, PINK]
        return points

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
        scores = self.scores[games] + self._penalties(self.hands[games])
        emptied = self.sizes[games, by] == 0
        held = scores[m, by]
        returned = np.where(held >= 10, 10, np.where(held >= 1, 1, 0))  # the best token: a black, else a white
        if self.party:  # or a pink
            returned = np.where(held >= PINK_POINTS, PINK_POINTS, returned)
        scores[m, by] -= returned * emptied
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
        k, c, top = self.kinds, self.current, self.top
        hand_rows = self._seat_rows + c
        hand = self.hands.reshape(-1, k)[hand_rows]
        hand_flat = hand.reshape(-1)
        rank = self._rank[top] if self.party else top
        slots, at = self._slots, self._hand_rows
        key = hand_flat[at + (rank if self._first_is_rank else slots[0][rank])] > 0
        for s in range(1, self._width):
            key = key | ((hand_flat[at + slots[s][rank]] > 0) << s)
        may_draw = (self.draw_pos < self._rest) & ((self.quit_bits | (1 << c)) != self._full)
        self._legal_row = rank * self._rows_per_rank + key + (may_draw << self._width)
        self.mask = self._legal[self._legal_row]
        obs = self.obs
        obs[:, :k] = hand.astype(np.float32) * self._copies
        obs[:, k : 2 * k] = self._eye[top]
        obs[:, 3 * k] = (self._rest - self.draw_pos) / self._deck_size
        feats = self._seat_feats
        feats[:, :, 5] = self._rotation == self.last_player[:, None]
        rotated = feats.reshape(-1, len(PER_SEAT))[self._seat_rows[:, None] + self._rotations[c]]
        rotated[:, :, 3] = self._to_move
        obs[:, 3 * k + 1 :] = rotated.reshape(self.batch, -1)

    def _why(self, a: npt.NDArray[np.int64]) -> str:
        if a.shape != (self.batch,):
            return f"step takes one action per game, shape ({self.batch},); got {a.shape}"
        last = self.num_actions - 1
        bad = int(np.flatnonzero((a < 0) | (a > last) | ~self.mask[self._rows, np.clip(a, 0, last)])[0])
        allowed = np.flatnonzero(self.mask[bad]).tolist()
        return f"action {int(a[bad])} is not legal in game {bad}; its legal action indices are {allowed}"
