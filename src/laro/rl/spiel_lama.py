"""L.A.M.A. as an OpenSpiel Python game, ``python_laro_lama``: load it with ``pyspiel.load_game`` once this module
is imported (``laro.rl.spiel`` imports both games). Its parameter ``edition`` chooses the classic game or the Party
Edition (``"party"``: 14 card kinds, 16 distinct actions, another turn after a plus card, the pink llama).

Chance is explicit (``EXPLICIT_STOCHASTIC``), the way OpenSpiel's card games deal: at the start of each round a
chance node deals each card of the hands, seat by seat, then the first card of the discard pile, each outcome a
card kind with the probability of the cards still undealt; the first round begins with a chance node choosing
the starting seat; and every ``draw`` is followed by a chance node for the card drawn, from the draw pile's cards.
That is the same distribution as a shuffled deck, without a deck order anybody could know. The rules are the
scalar engine's (``laro.games.lama``): this module deals, the engine plays.

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

import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

from laro.games.lama import CARD_TEXT, DRAW, GAME, LamaState
from laro.games.lama.actions import ALL_ACTIONS
from laro.games.lama.cards import ALL_CARD_TEXT, COPIES, DECK, HAND_SIZE, NUM_KINDS, PARTY_COPIES, party_card_from_text
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.spiel_common import Shared, game_info, game_type, share_of_win

__all__ = ["LamaSpielGame", "LamaSpielState"]

_PRIVATE = ("dealt", "drew", "holds")  # what only the player itself sees
_PARAMETERS = {"players": 2, "edition": "classic", "end_score": 40, "next_round_starter": "last_card"}
_TYPE = game_type("python_laro_lama", "L.A.M.A. (laro)", GAME, _PARAMETERS)


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
        self.cards = ALL_CARD_TEXT if self.party else CARD_TEXT  # the edition's card kinds, by card number
        self.copies = PARTY_COPIES if self.party else (COPIES,) * NUM_KINDS
        longest = _longest_game(self.num_seats, self.laro_options["end_score"])
        info = game_info(probe.num_actions, max(len(self.cards), self.num_seats), self.num_seats, longest)
        super().__init__(_TYPE, info, params)
        self.encoding = LamaEncoding(self.num_seats, self.cards)

    def new_initial_state(self) -> LamaSpielState:
        return LamaSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> LamaObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return LamaObserver(self, perfect_recall)


class LamaSpielState(pyspiel.State):  # type: ignore[misc]
    """A laro state, or a round being dealt; the history each player has seen, for the information states.

    ``phase`` is ``starter`` (chance picks the first round's starter), ``deal`` (chance deals the round card by
    card), ``play`` (a player moves), ``draw`` (chance picks the card drawn) or ``over``.
    """

    def __init__(self, game: LamaSpielGame) -> None:
        super().__init__(game)
        self._game = Shared(game)
        self.n = game.num_seats
        self.phase = "starter"
        self.laro: LamaState | None = None  # None until the first round is dealt
        self.starter = 0
        self.dealt: list[int] = []  # the cards of the round being dealt, seat by seat, then the discard
        self.seen: list[list[str]] = [[] for _ in range(self.n)]  # per player: everything they have seen

    @property
    def laro(self) -> LamaState | None:
        return self._laro.value

    @laro.setter
    def laro(self, state: LamaState | None) -> None:
        self._laro = Shared(state)

    @property
    def spiel_game(self) -> LamaSpielGame:
        return self._game.value

    # -- the OpenSpiel API ----------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == "over":
            return int(pyspiel.PlayerId.TERMINAL)
        if self.phase != "play":
            return int(pyspiel.PlayerId.CHANCE)
        assert self.laro is not None and self.laro.current_player is not None
        return self.laro.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.laro is not None
        return sorted(action.index for action in self.laro.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "starter":
            return [(seat, 1.0 / self.n) for seat in range(self.n)]
        left = self._undealt() if self.phase == "deal" else self._draw_pile()
        total = sum(left.values())
        return [(card, left[card] / total) for card in range(len(self.cards)) if left[card]]

    @property
    def cards(self) -> tuple[str, ...]:
        """The edition's card kinds: a card's number is its chance outcome."""
        return self.spiel_game.cards

    def _undealt(self) -> Counter[int]:
        left = Counter(dict(enumerate(self.spiel_game.copies)))
        left.subtract(self.dealt)
        return left

    def _draw_pile(self) -> Counter[int]:
        assert self.laro is not None
        return Counter(party_card_from_text(card) for card in self.laro.to_json()["draw_pile"])

    def _apply_action(self, action: int) -> None:
        if self.phase == "starter":
            self.starter = action
            self._tell_all(f"p{action} starts")
            self.phase = "deal"
        elif self.phase == "deal":
            self._deal(action)
        elif self.phase == "draw":
            self._draw(action)
        else:
            self._play(action)

    def _deal(self, card: int) -> None:
        self.dealt.append(card)
        if len(self.dealt) <= HAND_SIZE * self.n:
            seat = (len(self.dealt) - 1) // HAND_SIZE
            self.seen[seat].append(f"dealt {ALL_CARD_TEXT[card]}")
            return
        self._tell_all(f"discard {ALL_CARD_TEXT[card]}")
        if self.laro is None:
            data = GAME.new_game(self.n, seed=0, options=self.spiel_game.laro_options).to_json()
            data["starter"] = data["current_player"] = self.starter
        else:  # the engine dealt the round from its seed; chance has dealt it again
            data = self.laro.to_json()
        hands = [self.dealt[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s in range(self.n)]
        left = self._undealt()
        data["hands"] = [[ALL_CARD_TEXT[c] for c in sorted(hand)] for hand in hands]
        data["discard_pile"] = [ALL_CARD_TEXT[card]]
        data["draw_pile"] = [ALL_CARD_TEXT[c] for c in range(len(self.cards)) for _ in range(left[c])]
        self.laro = GAME.from_json(data)
        self.dealt = []
        self.phase = "play"

    def _draw(self, card: int) -> None:
        assert self.laro is not None and self.laro.current_player is not None
        data = self.laro.to_json()
        pile: list[str] = data["draw_pile"]
        pile.remove(ALL_CARD_TEXT[card])
        data["draw_pile"] = [ALL_CARD_TEXT[card], *pile]
        self.seen[self.laro.current_player].append(f"drew {ALL_CARD_TEXT[card]}")
        self._after(GAME.from_json(data).apply(DRAW))

    def _play(self, action: int) -> None:
        assert self.laro is not None
        self._tell_all(f"p{self.laro.current_player} {ALL_ACTIONS[action]}")
        if ALL_ACTIONS[action] is DRAW:
            self.phase = "draw"
        else:
            self._after(self.laro.apply(ALL_ACTIONS[action]))

    def _after(self, state: LamaState) -> None:
        before = self.laro
        self.laro = state
        if state.is_over:
            self.phase = "over"
        elif before is not None and state.round != before.round:
            self._tell_all(f"round {state.round} p{state.starter} starts")
            self.phase = "deal"
        else:
            self.phase = "play"

    def _tell_all(self, text: str) -> None:
        for seen in self.seen:
            seen.append(text)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"starter p{action}" if self.phase == "starter" else f"card {ALL_CARD_TEXT[action]}"
        return str(ALL_ACTIONS[action])

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> list[float]:
        if self.laro is None or self.phase != "over":
            return [0.0] * self.n
        return share_of_win(self.laro.winners, self.n)

    def __str__(self) -> str:
        if self.phase in ("starter", "deal"):
            return f"dealing round {1 if self.laro is None else self.laro.round}: {len(self.dealt)} cards dealt"
        return repr(self.laro)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> LamaSpielState:
        """A state ``player`` cannot tell from this one: the cards it has not seen dealt again at random by laro's
        sampler (``Game.sampler``); what the others saw of their own cards becomes their sampled hands."""
        new: LamaSpielState = self.clone()
        if self.phase != "play":
            return new
        assert self.laro is not None
        rng = random.Random(int(probability_sampler() * 2**53))
        sample = GAME.sampler(self.laro.observation(player))(rng)
        new.laro = sample
        for other in range(self.n):
            if other != player:
                public = [text for text in self.seen[other] if text.split()[0] not in _PRIVATE]
                new.seen[other] = [*public, "holds " + " ".join(sample.hand(other))]
        return new

    # -- views ------------------------------------------------------------------------------------------

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` knows now, in the form of a laro observation (also while a round is dealt)."""
        if self.laro is not None and self.phase not in ("starter", "deal"):
            return self.laro.observation(player)
        hands = [self.dealt[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s in range(self.n)]
        scores = [0] * self.n if self.laro is None else list(self.laro.scores)
        return {
            "seat": player,
            "options": self.spiel_game.laro_options,
            "hand": [ALL_CARD_TEXT[c] for c in sorted(hands[player])],
            "hand_sizes": [len(hand) for hand in hands],
            "discard_pile": [],
            "top_card": None,
            "draw_pile_count": 0,
            "current_player": None,
            "starter": self.starter if self.laro is None else self.laro.starter,
            "last_player": None,
            "quit": [False] * self.n,
            "scores": scores,
            "is_over": False,
        }


class LamaObserver:
    """OpenSpiel's observer: the observation is laro's encoding of the seat's observation; the information state
    adds, for each seat, how often it drew and quit on each top card this round, and its string is everything the
    seat has seen since the game began (the cards dealt to it and drawn by it, every public move)."""

    def __init__(self, game: LamaSpielGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.encoding.size + (2 * len(game.cards) * game.num_seats if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: game.encoding.size]}
        if perfect_recall:
            self.dict["moves"] = self.tensor[game.encoding.size :].reshape(game.num_seats, 2, len(game.cards))

    def set_from(self, state: LamaSpielState, player: int) -> None:
        self.tensor[: self.game.encoding.size] = self.game.encoding.encode(state.view(player))
        if self.perfect_recall:
            moves = self.dict["moves"]
            moves[:] = 0.0
            top = None
            for text in state.seen[player]:
                words = text.split()
                if words[0] in ("discard", "round"):
                    top = party_card_from_text(words[1]) if words[0] == "discard" else None
                    if words[0] == "round":
                        moves[:] = 0.0
                elif words[0].startswith("p") and len(words) >= 2 and words[1] in ("draw", "quit", "play"):
                    seat = (int(words[0][1:]) - player) % state.n
                    if words[1] == "play":
                        top = party_card_from_text(words[2])
                    elif top is not None:
                        moves[seat, 0 if words[1] == "draw" else 1, top] += 1.0 / COPIES

    def string_from(self, state: LamaSpielState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player}: " + ", ".join(state.seen[player])
        view = state.view(player)
        return (
            f"p{player} hand {' '.join(view['hand'])} | top {view['top_card']} | draw pile {view['draw_pile_count']}"
            f" | hands {view['hand_sizes']} | quit {[int(q) for q in view['quit']]} | scores {view['scores']}"
        )


pyspiel.register_game(_TYPE, LamaSpielGame)
