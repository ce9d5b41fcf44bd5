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

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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


def numpy_dealer(num_players: int, seed: int | None, edition: str = "classic", bulk: int = 4096) -> Dealer:
    """Shuffled decks of the ``edition``'s 56 cards from numpy's generator (the default; fast, not the scalar
    engine's deals): each deck is ordered by 32-bit random keys, so it is a uniform shuffle but for ties (under 4
    in 10 million decks). The decks are shuffled, their hands counted and the first round's starters drawn
    ``bulk`` at a time (or as many as one call asks for, if more), and handed out in order."""
    return _BulkDealer(num_players, seed, edition, bulk)


class _BulkDealer:
    def __init__(self, num_players: int, seed: int | None, edition: str, bulk: int) -> None:
        self.cards = np.array(_EDITIONS[edition].cards, dtype=np.int8)
        self.kinds = int(self.cards.max()) + 1
        self.rng = np.random.default_rng(seed)
        self.n, self.bulk = num_players, bulk
        self.dealt = HAND_SIZE * num_players
        self.seat_of = np.repeat(np.arange(num_players), HAND_SIZE)  # the seat of each dealt card
        self.hands = np.zeros((0, num_players, self.kinds), np.int8)
        self.rests = np.zeros((0, len(self.cards) - self.dealt), np.int8)
        self.starters = np.zeros(0, np.int64)
        self.at = 0

    def _shuffle(self, m: int) -> None:
        n, kinds, rng = self.n, self.kinds, self.rng
        keys = rng.bit_generator.random_raw((m, len(self.cards) // 2)).view(np.uint32)  # 32 random bits a card
        decks = self.cards[np.argsort(keys, axis=1)]
        slots = (np.arange(m)[:, None] * n + self.seat_of) * kinds + decks[:, : self.dealt]
        hands = np.bincount(slots.reshape(-1), minlength=m * n * kinds).astype(np.int8)
        self.hands, self.rests = hands.reshape(m, n, kinds), decks[:, self.dealt :]
        self.starters, self.at = rng.integers(n, size=m), 0

    def __call__(self, games: npt.NDArray[np.int64], rounds: npt.NDArray[np.int64]) -> Deal:
        m, at = len(games), self.at
        if at + m > len(self.hands):
            self._shuffle(max(self.bulk, m))
            at = 0
        self.at = at + m
        return self.hands[at : at + m], self.rests[at : at + m], self.starters[at : at + m]


@functools.cache
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


_BYTE_LOW_BITS, _GATHER_BYTES = np.uint64(0x0101010101010101), np.uint64(0x0102040810204080)


def _held(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """For eight counts a word (one a byte, 0 to 8), one bit per count that is not 0: the bytes' low four bits
    folded onto their lowest, then gathered into the top byte by one multiplication."""
    folded = (words | (words >> np.uint64(1)) | (words >> np.uint64(2)) | (words >> np.uint64(3))) & _BYTE_LOW_BITS
    held: npt.NDArray[np.int64] = ((folded * _GATHER_BYTES) >> np.uint64(56)).view(np.int64)
    return held


@dataclass(frozen=True, slots=True)
class _Tables:
    """An edition's lookups, made once: the follower slots and legal actions (see ``_legal_table``), the legal
    row by top rank and cards held, and per legal row the number of legal actions and their list (padded)."""

    slots: npt.NDArray[np.int64]
    legal: npt.NDArray[np.bool_]
    row_of: npt.NDArray[np.int16]
    count: npt.NDArray[np.int64]
    most: int
    listed: npt.NDArray[np.int64]


@functools.cache
def _edition_tables(edition: str, kinds: int) -> _Tables:
    slots, legal = _legal_table(_EDITIONS[edition], kinds)
    width = 8 if kinds <= 8 else 16
    count = legal.sum(axis=1)
    most = int(count.max())
    listed = np.zeros((len(legal), most), dtype=np.int64)
    for row, actions in enumerate(legal):
        found = np.flatnonzero(actions)
        listed[row, : len(found)] = found
    return _Tables(slots, legal, _rows_by_holding(slots, 1 << (len(slots) + 1), width), count, most, listed.reshape(-1))


def _rows_by_holding(slots: npt.NDArray[np.int64], rows_per_rank: int, width: int) -> npt.NDArray[np.int16]:
    """The row of the legal table (without its draw bit) by top rank and the card kinds held (one bit per kind,
    ``width`` bits): the rank's first row plus one bit per follower slot whose card is held."""
    held = np.arange(1 << width)
    rows = np.zeros((NUM_KINDS, 1 << width), dtype=np.int16)
    for rank in range(NUM_KINDS):
        key = np.zeros(1 << width, dtype=np.int64)
        for s in range(len(slots)):
            key |= ((held >> slots[s][rank]) & 1) << s
        rows[rank] = rank * rows_per_rank + key
    return rows.reshape(-1)


@functools.cache
def _seat_flags(n: int) -> npt.NDArray[np.float32]:
    """The seats' parts of the observation but for hand sizes and scores (left 0): has quit, is to move,
    started the round, played the last card, from the player to move on; by a key of the quit bits, the player
    to move, the starter and the last player (-1 for none)."""
    flags = np.zeros((1 << n, n, n, n + 1, n, len(PER_SEAT)), dtype=np.float32)
    seats = np.arange(n)
    for quit_bits, mover, starter, last in np.ndindex(1 << n, n, n, n + 1):
        seat = (mover + seats) % n
        row = flags[quit_bits, mover, starter, last]
        row[:, 1] = (quit_bits >> seat) & 1
        row[:, 3] = seat == mover
        row[:, 4] = seat == starter
        row[:, 5] = seat == last - 1
    return flags.reshape(-1, n * len(PER_SEAT))


# every array with one row per game: what take and put copy
_GAME_ROWS = (
    "_hand_store",
    "sizes",
    "deck",
    "draw_pos",
    "top",
    "_pile",
    "_size_seen",
    "_score_seen",
    "quit_bits",
    "current",
    "starter",
    "last_player",
    "scores",
    "round",
    "game_number",
    "final_scores",
    "_legal_row",
    "obs",
    "mask",
)


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
        self.dealer = dealer or numpy_dealer(num_players, seed, self.options["edition"], bulk=max(256, batch))
        # the environments' encoding of this edition: its card kinds, and the scales of counts and sizes
        self.encoding = encoding = LamaEncoding(num_players, ALL_CARD_TEXT if self.party else CARD_TEXT)
        self.kinds = k = len(encoding.kinds)
        self._copies, self._deck_size = np.float32(1.0 / encoding.copies), encoding.deck_size
        self._rest = len(edition.cards) - HAND_SIZE * num_players  # discard + draw pile after the deal
        self._following = _following(num_players)
        tables = _edition_tables(self.options["edition"], k)
        self._slots, self._legal = tables.slots, tables.legal
        self.num_actions = self._legal.shape[1]
        self._width = len(self._slots)  # the follower slots of a key
        self._rows_per_rank = 1 << (self._width + 1)
        self._full = (1 << num_players) - 1
        n, b = num_players, batch
        self._rows = np.arange(b)
        self._seat_rows = self._rows * n
        self.obs_size = encoding.size
        # each hand in 8 or 16 bytes, so that the hand of the player to move is one word read per game
        width = self._hand_width = 8 if k <= 8 else 16
        self._hand_store = np.zeros((b, n, width), dtype=np.int8)
        self._hand_views()
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
        # the observation's parts kept from step to step: the top card (one-hot) and the discard pile (counts /
        # copies) side by side, and each seat's score as the observation has it
        self._pile = np.zeros((b, 2 * k), dtype=np.float32)
        self._size_seen = np.zeros((b, n), dtype=np.float32)
        self._score_seen = np.zeros((b, n), dtype=np.float32)
        # lookups that keep the inner loop to a few whole-array operations
        self._next_game = b
        self._deck_rows = self._rows * self._rest
        self._pile_rows = self._rows * 2 * k
        self._row_of = tables.row_of
        self._rank = np.array(RANK[:k], dtype=np.int64)  # a plus card ranks as its number, the pink llama as a llama
        # per action index: the card it plays (-1: draw or quit), and whether it gives another turn (a plus card)
        self._card_of = np.array([-1 if a.card is None else a.card for a in ALL_ACTIONS[: self.num_actions]])
        self._again = np.array([a.card is not None and ANOTHER_TURN[a.card] for a in ALL_ACTIONS[: self.num_actions]])
        # the seats from each seat's point of view (itself first), as one word per seat
        rotations = np.zeros((n, 8), dtype=np.int8)
        rotations[:, :n] = (np.arange(n)[:, None] + np.arange(n)) % n
        self._rotation_words = rotations.view(np.uint64).reshape(n)
        self._seat_flags = _seat_flags(n)
        self._legal_flat = self._legal.reshape(-1)
        self._legal_count, self._most_legal, self._legal_list = tables.count, tables.most, tables.listed
        self._legal_row = np.zeros(b, dtype=np.int64)

    def _hand_views(self) -> None:
        """The hands as card counts, and as one word per hand, over the same bytes."""
        self.hands = self._hand_store[:, :, : self.kinds]
        self._hand_words = self._hand_store.view(np.dtype((np.void, self._hand_width))).reshape(-1)

    def take(self, games: npt.NDArray[np.int64]) -> VectorLama:
        """A new engine holding a copy of ``games`` (indices), to be stepped apart (cheaper than this whole batch
        when they are few) and given back with :meth:`put`; it deals from the same dealer."""
        part = VectorLama(len(games), self.num_players, options=self.options, dealer=self.dealer)
        for name in _GAME_ROWS:
            setattr(part, name, getattr(self, name)[games])
        part._hand_views()
        part._next_game = self._next_game
        return part

    def put(self, games: npt.NDArray[np.int64], part: VectorLama) -> None:
        """Give back ``games`` taken with :meth:`take`, as ``part`` has played them (a new observation array)."""
        self.obs, self.mask = self.obs.copy(), self.mask.copy()
        for name in _GAME_ROWS:
            getattr(self, name)[games] = getattr(part, name)
        self._next_game = part._next_game
        self.games_finished += part.games_finished

    # -- dealing ------------------------------------------------------------------------------------------

    def _deal(self, games: npt.NDArray[np.int64], starters: npt.NDArray[np.int64]) -> None:
        """Deal a round in each of ``games``, started by ``starters`` (-1: a new game, whose starter is drawn)."""
        hands, rest, drawn_starters = self.dealer(self.game_number[games], self.round[games])
        k = self.kinds
        self.hands[games] = hands
        self.sizes[games] = HAND_SIZE
        self._size_seen[games] = HAND_SIZE / self._deck_size
        self.deck[games] = rest
        self.draw_pos[games] = 1
        top = rest[:, 0].astype(np.int64)
        self.top[games] = top
        pile = np.zeros((len(games), 2 * k), dtype=np.float32)
        pile[np.arange(len(games)), top] = 1.0
        pile[np.arange(len(games)), k + top] = self._copies
        self._pile[games] = pile
        self.quit_bits[games] = 0
        self.last_player[games] = -1
        chosen = np.where(starters >= 0, starters, drawn_starters)
        self.starter[games] = chosen
        self.current[games] = chosen

    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Start ``batch`` new games; the observations and masks of the players to move."""
        everyone = self._rows.astype(np.int64)
        self.scores[:] = 0
        self.round[:] = 1
        self._score_seen[:] = 0.0
        self._deal(everyone, np.full(self.batch, -1))
        self._observe()
        return self.obs, self.mask

    def place(
        self,
        games: npt.NDArray[np.int64],
        *,
        hands: npt.ArrayLike,
        deck: npt.ArrayLike,
        drawn: npt.ArrayLike,
        discard: npt.ArrayLike,
        top: npt.ArrayLike,
        quit_bits: npt.ArrayLike,
        current: npt.ArrayLike,
        starter: npt.ArrayLike,
        last_player: npt.ArrayLike,
        scores: npt.ArrayLike,
        rounds: npt.ArrayLike,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Put positions in the middle of a round into ``games`` (indices) in place of what they held, to be played
        on from there; the observations and masks of the players to move in every game. Each argument holds one
        row per game, or one for them all: ``hands`` ``(n, kinds)`` card counts; ``deck`` the round's cards after
        the deal in the order they come (``56 - 6n``: the first discard, then the draw pile) and ``drawn`` how many
        of them have come (at least 1), so the draw pile is ``deck[drawn:]``; ``discard`` ``(kinds,)`` how many of
        each card the discard pile holds, ``top`` among them; ``quit_bits`` the seats that quit (bit ``s`` for seat
        ``s``); ``current``, ``starter`` and ``last_player`` (-1 for none) seats; ``scores`` ``(n,)`` the totals
        before the round; ``rounds`` its number. A position that breaks these shapes or ranges is refused with an
        :class:`~laro.core.errors.OptionError` and changes nothing; that its cards add up to the edition's deck is
        the caller's to keep."""
        games = np.asarray(games, dtype=np.int64).reshape(-1)
        g, n, k = len(games), self.num_players, self.kinds
        arguments = {"hands": hands, "deck": deck, "drawn": drawn, "discard": discard, "top": top}
        arguments |= {"quit_bits": quit_bits, "current": current, "starter": starter, "last_player": last_player}
        arguments |= {"scores": scores, "rounds": rounds}
        shapes = {"hands": (g, n, k), "deck": (g, self._rest), "discard": (g, k), "scores": (g, n)}
        try:
            given = {
                name: np.broadcast_to(np.asarray(value, dtype=np.int64), shapes.get(name, (g,)))
                for name, value in arguments.items()
            }
        except ValueError as error:
            raise OptionError(f"place takes one row per game or one for all ({g} games): {error}") from None
        why = _misplaced(given, self.batch, games, n, k, self._rest)
        if why:
            raise OptionError(f"place: {why}")
        self.hands[games] = given["hands"]
        self.sizes[games] = given["hands"].sum(axis=2)
        self._size_seen[games] = self.sizes[games] / self._deck_size
        self.deck[games] = given["deck"]
        self.draw_pos[games] = given["drawn"]
        top_card = given["top"]
        self.top[games] = top_card
        pile = np.zeros((g, 2 * k), dtype=np.float32)
        pile[np.arange(g), top_card] = 1.0
        pile[:, k:] = given["discard"] * self._copies
        self._pile[games] = pile
        self.quit_bits[games] = given["quit_bits"]
        self.current[games] = given["current"]
        self.starter[games] = given["starter"]
        self.last_player[games] = given["last_player"]
        self.scores[games] = given["scores"]
        self._score_seen[games] = np.minimum(1.0, given["scores"] / self.end_score)
        self.round[games] = given["rounds"]
        self._observe()
        return self.obs, self.mask

    # -- stepping -----------------------------------------------------------------------------------------

    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly random legal action in every game."""
        choice = (rng.random(self.batch, dtype=np.float32) * self._legal_count[self._legal_row]).astype(np.int64)
        actions: npt.NDArray[np.int64] = self._legal_list[self._legal_row * self._most_legal + choice]
        return actions

    def restart(self, games: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Abandon ``games`` (indices) and start new ones in their place; the observations and masks of the players
        to move in every game."""
        games = np.asarray(games, dtype=np.int64)
        if len(games):
            self.game_number[games] = self._next_game + np.arange(len(games))
            self._next_game += len(games)
            self.scores[games] = 0
            self.round[games] = 1
            self._score_seen[games] = 0.0
            self._deal(games, np.full(len(games), -1))
        self._observe()
        return self.obs, self.mask

    def step(
        self, actions: npt.NDArray[np.integer[Any]], active: npt.NDArray[np.bool_] | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Apply one action per game; returns observations, masks, rewards ``(batch, n)`` and ``done``. With
        ``active``, only the games where it is true move (the others' actions are not read)."""
        a = np.asarray(actions, dtype=np.int64)
        if a.shape != (self.batch,):
            raise IllegalActionError(self._why(a))
        if active is not None:
            active = np.asarray(active, dtype=np.bool_)
            a = np.where(active, a, _QUIT)  # always legal; taken nowhere
        if (
            a.min() < 0
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
        is_quit = a == _QUIT
        if active is not None:
            is_play, is_draw, is_quit = is_play & active, is_draw & active, is_quit & active
        seat_row = self._seat_rows + p
        drawn = self.deck.reshape(-1)[self._deck_rows + np.minimum(self.draw_pos, self._rest - 1)]
        card = np.where(is_play, played, drawn)
        delta = is_draw.astype(np.int8) - is_play
        self._hand_store.reshape(-1)[seat_row * self._hand_width + card] += delta
        sizes = self.sizes.reshape(-1)
        sizes[seat_row] += delta
        self._size_seen.reshape(-1)[seat_row] = sizes[seat_row] / self._deck_size
        self.draw_pos += is_draw
        top = np.where(is_play, played, self.top)
        pile = self._pile.reshape(-1)
        pile[self._pile_rows + self.top] -= is_play  # the old top card's one-hot off, the new one's on
        pile[self._pile_rows + top] += is_play
        pile[self._pile_rows + k + top] += is_play * self._copies
        self.top = top
        self.last_player = np.where(is_play, p, self.last_player)
        self.quit_bits |= is_quit << p
        ended = (is_play & (sizes[seat_row] == 0)) | (self.quit_bits == self._full)
        self.current = self._following[p, self.quit_bits]
        if self.party:  # a plus card: the same player again (a last card ends the round below all the same)
            self.current = np.where(self._again[a], p, self.current)
        if active is not None:
            self.current = np.where(active, self.current, p)
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
        if self.last_card_starts:
            last = self.last_player[games]
            by = np.where(last >= 0, last, by)
        self.round[games] = np.where(over, 1, self.round[games] + 1)
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
        self._deal(games, np.where(over, -1, by))
        self._score_seen[games] = np.minimum(1.0, self.scores[games] / self.end_score)

    def _observe(self) -> None:
        """The masks and observations of the players to move: a new observation array each step, written in a few
        whole-array steps (the seats' flags from one table, the hands and seats read a word per game)."""
        k, n, b, c = self.kinds, self.num_players, self.batch, self.current
        words = self._hand_words.take(self._seat_rows + c).view("<u8").reshape(b, -1)
        hand = words.view(np.int8)
        held = _held(words[:, 0])
        if words.shape[1] > 1:  # the Party Edition's kinds 8 to 13
            held |= _held(words[:, 1]) << 8
        rank = self._rank[self.top] if self.party else self.top
        may_draw = (self.draw_pos < self._rest) & ((self.quit_bits | (1 << c)) != self._full)
        self._legal_row = self._row_of[(rank << self._hand_width) | held] + (may_draw << self._width)
        self.mask = self._legal.take(self._legal_row, axis=0)
        obs = self.obs = np.empty((b, self.obs_size), dtype=np.float32)
        np.multiply(hand[:, :k], self._copies, out=obs[:, :k])
        obs[:, k : 3 * k] = self._pile
        obs[:, 3 * k] = (self._rest - self.draw_pos) / self._deck_size
        flags = ((self.quit_bits * n + c) * n + self.starter) * (n + 1) + self.last_player + 1
        obs[:, 3 * k + 1 :] = self._seat_flags.take(flags, axis=0)
        seats = obs[:, 3 * k + 1 :].reshape(b, n, len(PER_SEAT))
        seat = self._seat_rows[:, None] + self._rotation_words.take(c).view(np.int8).reshape(b, 8)[:, :n]
        seats[:, :, 0] = self._size_seen.reshape(-1).take(seat)
        seats[:, :, 2] = self._score_seen.reshape(-1).take(seat)

    def _why(self, a: npt.NDArray[np.int64]) -> str:
        if a.shape != (self.batch,):
            return f"step takes one action per game, shape ({self.batch},); got {a.shape}"
        last = self.num_actions - 1
        bad = int(np.flatnonzero((a < 0) | (a > last) | ~self.mask[self._rows, np.clip(a, 0, last)])[0])
        allowed = np.flatnonzero(self.mask[bad]).tolist()
        return f"action {int(a[bad])} is not legal in game {bad}; its legal action indices are {allowed}"


def _misplaced(
    given: Mapping[str, npt.NDArray[np.int64]], batch: int, games: npt.NDArray[np.int64], n: int, k: int, rest: int
) -> str:
    """What is wrong with positions given to :meth:`VectorLama.place` ("" for nothing)."""

    def outside(name: str, low: int, high: int) -> bool:  # any value of ``name`` outside [low, high)
        return bool(((given[name] < low) | (given[name] >= high)).any())

    if len(games) and (games.min() < 0 or games.max() >= batch):
        return f"games are indices below {batch}; got {games.min()} to {games.max()}"
    if (given["hands"] < 0).any() or (given["discard"] < 0).any():
        return "card counts are never negative"
    if outside("deck", 0, k) or outside("top", 0, k):
        return f"cards are indices below {k}"
    if outside("drawn", 1, rest + 1):
        return f"drawn is from 1 (the first discard) to {rest}"
    if outside("current", 0, n) or outside("starter", 0, n) or outside("last_player", -1, n):
        return f"seats are from 0 to {n - 1} (last_player -1 for none)"
    if outside("quit_bits", 0, 1 << n) or ((given["quit_bits"] >> given["current"]) & 1).any():
        return "quit_bits are seats' bits, and the player to move has not quit"
    if (given["discard"][np.arange(len(games)), given["top"]] < 1).any():
        return "the top card is in the discard pile"
    if (given["hands"].sum(axis=2) < 1).any() or (given["rounds"] < 1).any():
        return "every hand holds a card mid-round, and rounds count from 1"
    return ""
