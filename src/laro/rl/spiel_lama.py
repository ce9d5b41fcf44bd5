"""L.A.M.A. as an OpenSpiel Python game, ``python_laro_lama``: load it with ``pyspiel.load_game`` once this module
is imported (``laro.rl.spiel`` imports both games). Its parameter ``edition`` chooses the classic game or the Party
Edition (``"party"``: 14 card kinds, 16 distinct actions, another turn after a plus card, the pink llama).

Chance is explicit (``EXPLICIT_STOCHASTIC``), the way OpenSpiel's card games deal: at the start of each round a
chance node deals each card of the hands, seat by seat, then the first card of the discard pile, each outcome a
card kind with the probability of the cards still undealt; the first round begins with a chance node choosing
the starting seat; and every ``draw`` is followed by a chance node for the card drawn, from the draw pile's cards.
That is the same distribution as a shuffled deck, without a deck order anybody could know. The rules are the
scalar engine's (``laro.games.lama``): this module deals, the engine plays.

A state keeps everything in one value that never changes once built (the laro state, the cards being dealt, a
chained log of what each seat saw), so OpenSpiel's ``clone`` shares it instead of copying it, and a chance node
lists its outcomes from card counts.

>>> import pyspiel
>>> game = pyspiel.load_game("python_laro_lama", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())  # the starting seat
(True, 3)
>>> party = pyspiel.load_game("python_laro_lama", {"players": 3, "edition": "party"})
>>> party.num_distinct_actions(), party.max_chance_outcomes(), party.observation_tensor_size()
(16, 14, 61)
"""

from __future__ import annotations

import operator
import random
from typing import Any

import pyspiel

from laro.games.lama import CARD_TEXT, DRAW, GAME, LamaState
from laro.games.lama.actions import ALL_ACTIONS
from laro.games.lama.cards import (
    ALL_CARD_TEXT,
    COPIES,
    DECK,
    HAND_SIZE,
    NUM_KINDS,
    PARTY_COPIES,
    RANK,
    cards_of,
    hand_from_cards,
    texts,
)
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.spiel_common import Shared, game_info, game_type, share_of_win
from laro.rl.spiel_lama_observer import PUBLIC, LamaObserver, Log, entries

__all__ = ["LamaSpielGame", "LamaSpielState"]

_PARAMETERS = {"players": 2, "edition": "classic", "end_score": 40, "next_round_starter": "last_card"}
_TYPE = game_type("python_laro_lama", "L.A.M.A. (laro)", GAME, _PARAMETERS)
_FIELDS = LamaState.__slots__
_fields_of = operator.attrgetter(*_FIELDS)
_new = object.__new__


def _longest_game(players: int, end_score: int) -> int:
    """OpenSpiel's bound on the player actions of a game: a round has at most 56 plays (a plus card's extra turn
    is one of them), 56 draws and a quit per player, taken over ``2 * end_score`` rounds. It is a practical
    bound, not a certain one: every player left holding cards scores at least 1 in a round, but the token
    returned for an emptied hand can take points back, so rounds that each end that way could in principle go
    on longer. Games end far sooner: random ones within a handful of rounds."""
    return 2 * end_score * (2 * len(DECK) + players)  # 56 cards in either edition


class LamaSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """Parameters: ``players`` (2-6), ``edition``, ``end_score`` and ``next_round_starter`` as in laro's options."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        self.num_seats = int(params["players"])
        self.laro_options = {
            "edition": params["edition"],
            "end_score": int(params["end_score"]),
            "next_round_starter": params["next_round_starter"],
        }
        probe = GAME.new_game(self.num_seats, seed=0, options=self.laro_options)  # refuses bad players and options
        self.party = probe.party
        self.first_round = probe  # the first round's state, its hands and deck replaced by the cards chance deals
        self.cards = ALL_CARD_TEXT if self.party else CARD_TEXT  # the edition's card kinds, by card number
        self.copies = PARTY_COPIES if self.party else (COPIES,) * NUM_KINDS
        longest = _longest_game(self.num_seats, self.laro_options["end_score"])
        info = game_info(probe.num_actions, max(len(self.cards), self.num_seats), self.num_seats, longest)
        super().__init__(_TYPE, info, params)
        self.encoding = LamaEncoding(self.num_seats, self.cards)
        self.starters = [(seat, 1.0 / self.num_seats) for seat in range(self.num_seats)]
        self.shared = Shared(self)
        self.start = Now("starter", None, 0, (), tuple(self.copies), None)

    def new_initial_state(self) -> LamaSpielState:
        return LamaSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> LamaObserver:
        if params:
            raise ValueError(f"python_laro_lama's observer takes no parameters; got {params}")
        return LamaObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class Now:
    """What a state holds, never changed once built: ``phase`` is ``starter`` (chance picks the first round's
    starter), ``deal`` (chance deals the round card by card), ``play`` (a player moves), ``draw`` (chance picks
    the card drawn) or ``over``; ``laro`` is the engine's state (None until the first round is dealt),
    ``dealt`` the cards of the round being dealt (seat by seat, then the discard), ``left`` the count of each
    card kind not yet dealt, ``log`` what each seat has seen (see :mod:`laro.rl.spiel_lama_observer`)."""

    __slots__ = ("dealt", "laro", "left", "log", "phase", "starter")

    def __init__(
        self,
        phase: str,
        laro: LamaState | None,
        starter: int,
        dealt: tuple[int, ...],
        left: tuple[int, ...],
        log: Log,
    ) -> None:
        self.phase, self.laro, self.starter, self.dealt, self.left, self.log = phase, laro, starter, dealt, left, log

    def __deepcopy__(self, memo: dict[int, Any]) -> Now:
        return self  # OpenSpiel's clone shares it


def _copy(state: LamaState) -> LamaState:
    """A copy of an engine state, to be changed before anyone else sees it."""
    new: LamaState = _new(type(state))
    for name, value in zip(_FIELDS, _fields_of(state), strict=True):
        object.__setattr__(new, name, value)
    return new


def _dealt_round(base: LamaState, dealt: tuple[int, ...], left: tuple[int, ...], starter: int | None) -> LamaState:
    """``base`` (the round the engine dealt from its seed) with the hands and the discard that chance dealt; the
    draw pile holds the ``left`` cards in no particular order, since chance picks each card drawn."""
    n = base.num_players
    discard = dealt[-1]
    state = _copy(base)
    state.hands = [hand_from_cards(dealt[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(n)]
    state.deck = (discard, *(card for card, count in enumerate(left) for _ in range(count)))
    state.discard = (discard,)
    state.draw_pos = 1
    if starter is not None:  # the first round: chance chose the starter
        state.starter = state.current_player = starter
    seat = state.current_player
    assert seat is not None
    top = RANK[discard]
    may_draw = len(state.deck) > 1 and n > 1
    # the engine's legal actions after a deal, from its own table (as LamaState._set_legal reads it)
    state._legal = state.legal_rows[top][may_draw][state.hands[seat] & state.legal_masks[top]]
    return state


def _drawing(state: LamaState, card: int) -> LamaState:
    """``state`` with ``card`` on top of its draw pile (the order of the draw pile is chance's, card by card)."""
    pos, deck = state.draw_pos, state.deck
    at = deck.index(card, pos)
    new = _copy(state)
    new.deck = (*deck[:pos], card, *deck[pos:at], *deck[at + 1 :])
    return new


class LamaSpielState(pyspiel.State):  # type: ignore[misc]
    """A laro state, or a round being dealt; the history each player has seen, for the information states."""

    def __init__(self, game: LamaSpielGame) -> None:
        super().__init__(game)
        self._game = game.shared
        self._now = game.start

    @property
    def laro(self) -> LamaState | None:
        return self._now.laro

    @property
    def phase(self) -> str:
        return self._now.phase

    @property
    def spiel_game(self) -> LamaSpielGame:
        game: LamaSpielGame = self._game.value
        return game

    @property
    def n(self) -> int:
        return self.spiel_game.num_seats

    @property
    def cards(self) -> tuple[str, ...]:
        """The edition's card kinds: a card's number is its chance outcome."""
        return self.spiel_game.cards

    @property
    def log(self) -> Log:
        """What each seat has seen, newest first (see :mod:`laro.rl.spiel_lama_observer`)."""
        return self._now.log

    def seen(self, player: int) -> list[str]:
        """Everything ``player`` has seen since the game began, oldest first."""
        return [text for seat, text in entries(self._now.log) if seat in (PUBLIC, player)]

    # -- the OpenSpiel API ----------------------------------------------------------------------------------

    def current_player(self) -> int:
        now = self._now
        if now.phase == "play":
            return now.laro.current_player  # type: ignore[union-attr,return-value]  # a round is dealt, not over
        return int(pyspiel.PlayerId.TERMINAL if now.phase == "over" else pyspiel.PlayerId.CHANCE)

    def _legal_actions(self, player: int) -> list[int]:
        # sorted: the Party Edition's plus cards and pink llama come after draw and quit among the indices
        return sorted(action.index for action in self._now.laro.legal_actions())  # type: ignore[union-attr]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        now = self._now
        if now.phase == "starter":
            return self.spiel_game.starters
        if now.phase == "deal":
            left = now.left
        else:
            assert now.laro is not None
            counts = [0] * len(now.left)
            for card in now.laro.deck[now.laro.draw_pos :]:
                counts[card] += 1
            left = tuple(counts)
        total = sum(left)
        return [(card, count / total) for card, count in enumerate(left) if count]

    def _apply_action(self, action: int) -> None:
        now = self._now
        phase = now.phase
        if phase == "play":
            assert now.laro is not None
            seat = now.laro.current_player
            log = (PUBLIC, f"p{seat} {ALL_ACTIONS[action]}", now.log)
            if ALL_ACTIONS[action] is DRAW:
                self._now = Now("draw", now.laro, now.starter, (), now.left, log)
            else:
                self._after(now.laro.apply(ALL_ACTIONS[action]), log)
        elif phase == "draw":
            assert now.laro is not None and now.laro.current_player is not None
            log = (now.laro.current_player, f"drew {ALL_CARD_TEXT[action]}", now.log)
            self._after(_drawing(now.laro, action).apply(DRAW), log)
        elif phase == "deal":
            self._deal(action)
        else:
            log = (PUBLIC, f"p{action} starts", now.log)
            self._now = Now("deal", None, action, (), now.left, log)

    def _deal(self, card: int) -> None:
        now = self._now
        dealt = (*now.dealt, card)
        left = (*now.left[:card], now.left[card] - 1, *now.left[card + 1 :])
        if len(dealt) <= HAND_SIZE * self.n:
            log = ((len(dealt) - 1) // HAND_SIZE, f"dealt {ALL_CARD_TEXT[card]}", now.log)
            self._now = Now("deal", now.laro, now.starter, dealt, left, log)
            return
        log = (PUBLIC, f"discard {ALL_CARD_TEXT[card]}", now.log)
        if now.laro is None:
            laro = _dealt_round(self.spiel_game.first_round, dealt, left, now.starter)
        else:  # the engine dealt the round from its seed; chance has dealt it again
            laro = _dealt_round(now.laro, dealt, left, None)
        self._now = Now("play", laro, now.starter, (), tuple(self.spiel_game.copies), log)

    def _after(self, state: LamaState, log: Log) -> None:
        now = self._now
        if state.is_over:
            self._now = Now("over", state, now.starter, (), now.left, log)
        elif state.round != now.laro.round:  # type: ignore[union-attr]
            log = (PUBLIC, f"round {state.round} p{state.starter} starts", log)
            self._now = Now("deal", state, now.starter, (), tuple(self.spiel_game.copies), log)
        else:
            self._now = Now("play", state, now.starter, (), now.left, log)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"starter p{action}" if self.phase == "starter" else f"card {ALL_CARD_TEXT[action]}"
        return str(ALL_ACTIONS[action])

    def is_terminal(self) -> bool:
        return self._now.phase == "over"

    def returns(self) -> list[float]:
        if self._now.phase != "over":
            return [0.0] * self.n
        return share_of_win(self._now.laro.winners, self.n)  # type: ignore[union-attr]

    def __str__(self) -> str:
        """The whole state, hidden cards included (as OpenSpiel's card games print theirs)."""
        now, n = self._now, self.n
        laro = now.laro
        scores = [0] * n if laro is None else list(laro.scores)
        if now.phase in ("starter", "deal"):
            rounds = 1 if laro is None else laro.round
            starter = now.starter if laro is None else laro.starter
            head = f"round {rounds} being dealt, p{starter} starts" if now.phase == "deal" else "round 1"
            hands = " | ".join(f"p{seat} dealt {' '.join(texts(self.hand_cards(seat)))}" for seat in range(n))
            return f"{head} | {hands} | scores {scores}"
        assert laro is not None
        hands = " | ".join(f"p{seat} hand {' '.join(laro.hand(seat))}" for seat in range(n))
        pile = texts(sorted(laro.deck[laro.draw_pos :]))
        mover = "over" if laro.current_player is None else f"p{laro.current_player} to {self.phase}"
        quits = [int(laro.has_quit(seat)) for seat in range(n)]
        tokens = [laro.tokens_of(seat).to_json(laro.party) for seat in range(n)]
        return (
            f"round {laro.round}, p{laro.starter} started | {hands} | discard {' '.join(texts(laro.discard))}"
            f" | draw pile {' '.join(pile)} | {mover} | quit {quits} | last card p{laro.last_player}"
            f" | scores {scores} | tokens {tokens}"
        )

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> LamaSpielState:
        """A state ``player`` cannot tell from this one: the cards it has not seen dealt again at random by laro's
        sampler (``Game.sampler``); what the others saw of their own cards becomes their sampled hands."""
        new: LamaSpielState = self.clone()
        now = self._now
        if now.phase != "play":
            return new
        assert now.laro is not None
        rng = random.Random(int(probability_sampler() * 2**53))
        sample = GAME.sampler(now.laro.observation(player))(rng)
        log: Log = None
        for seat, text in entries(now.log):
            if seat in (PUBLIC, player):
                log = (seat, text, log)
        for other in range(self.n):
            if other != player:
                log = (other, "holds " + " ".join(sample.hand(other)), log)
        new._now = Now("play", sample, now.starter, (), now.left, log)
        return new

    # -- views ------------------------------------------------------------------------------------------

    def hand_cards(self, seat: int) -> list[int]:
        """The cards of ``seat``'s hand (while a round is dealt: those dealt to it so far)."""
        now = self._now
        if now.phase in ("starter", "deal"):
            return sorted(now.dealt[HAND_SIZE * seat : HAND_SIZE * (seat + 1)])
        assert now.laro is not None
        return cards_of(now.laro.hands[seat])

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` knows now, in the form of a laro observation (also while a round is dealt)."""
        now = self._now
        if now.laro is not None and now.phase not in ("starter", "deal"):
            return now.laro.observation(player)
        dealt = now.dealt
        scores = [0] * self.n if now.laro is None else list(now.laro.scores)
        return {
            "seat": player,
            "options": self.spiel_game.laro_options,
            "hand": texts(self.hand_cards(player)),
            "hand_sizes": [len(dealt[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(self.n)],
            "discard_pile": [],
            "top_card": None,
            "draw_pile_count": 0,
            "current_player": None,
            "starter": now.starter if now.laro is None else now.laro.starter,
            "last_player": None,
            "quit": [False] * self.n,
            "scores": scores,
            "is_over": False,
        }


pyspiel.register_game(_TYPE, LamaSpielGame)
