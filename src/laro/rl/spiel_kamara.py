"""Kamara as an OpenSpiel Python game, ``python_laro_kamara``: load it with ``pyspiel.load_game`` once this
module is imported (``laro.rl.spiel`` imports both games).

Kamara's chance is all in its setup: the elder, the order of the yellow deck and of the green deck. Chance is
explicit (``EXPLICIT_STOCHASTIC``): the game begins with a chance node for the elder, then one for each yellow
card in deck order (the first ones are the cards the players draw), then one for each green card; nobody sees
these outcomes but what the rules show them. ``resample_from_infostate`` deals what a seat cannot see again with
laro's sampler, the deck orders included.

>>> import pyspiel
>>> game = pyspiel.load_game("python_laro_kamara", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())  # the elder
(True, 3)
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

from laro.games.kamara import GAME, KamaraState
from laro.games.kamara.components import CARD_IDS, EFFECTS
from laro.rl.kamara_encoding import KamaraEncoding
from laro.rl.spiel_common import Shared, game_info, game_type, share_of_win

__all__ = ["KamaraSpielGame", "KamaraSpielState"]

_PARAMETERS = {"players": 2, "actions_per_turn": 5, "target_matches": 3, "max_rounds": 100}
_TYPE = game_type("python_laro_kamara", "Kamara (laro)", GAME, _PARAMETERS)


class KamaraSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """Parameters: ``players`` (2-8) and the options ``actions_per_turn``, ``target_matches`` and ``max_rounds``
    as in laro (the default components)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        self.num_seats = int(params["players"])
        self.laro_options = {name: int(params[name]) for name in ("actions_per_turn", "target_matches", "max_rounds")}
        probe = GAME.new_game(self.num_seats, seed=0, options=self.laro_options)  # refuses bad players and options
        self.blank = probe.to_json()
        self.yellow_ids = tuple(CARD_IDS.index(card.id) for card in probe.components.yellow)
        self.green_cards = tuple(probe.components.green_deck)
        per_turn = 3 * self.laro_options["actions_per_turn"] + 1  # every action, its decisions, and the end
        info = game_info(
            GAME.num_actions,
            max(len(CARD_IDS), len(EFFECTS), self.num_seats),
            self.num_seats,
            self.laro_options["max_rounds"] * self.num_seats * per_turn + 9 + self.num_seats,
        )
        super().__init__(_TYPE, info, params)
        self.encoding = KamaraEncoding(self.num_seats, probe.components)

    def new_initial_state(self) -> KamaraSpielState:
        return KamaraSpielState(self, None)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KamaraObserver:
        return KamaraObserver(self, iig_obs_type is not None and iig_obs_type.perfect_recall)


class KamaraSpielState(pyspiel.State):  # type: ignore[misc]
    """A laro Kamara state (``None`` while chance sets the game up) and the moves each player has heard (others'
    ``order`` and ``keep`` without their cards)."""

    def __init__(self, game: KamaraSpielGame, state: KamaraState | None) -> None:
        super().__init__(game)
        self._game = Shared(game)
        self.laro = state
        self.setup: list[int] = []  # the elder, then the yellow cards, then the green cards
        self.heard: list[list[str]] = [[] for _ in range(game.num_seats)]

    @property
    def laro(self) -> KamaraState | None:
        return self._laro.value

    @laro.setter
    def laro(self, state: KamaraState | None) -> None:
        self._laro = Shared(state)

    @property
    def spiel_game(self) -> KamaraSpielGame:
        return self._game.value

    def current_player(self) -> int:
        if self.laro is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.laro.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        assert self.laro.current_player is not None
        return self.laro.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.laro is not None
        return sorted(action.index for action in self.laro.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        game, done = self.spiel_game, len(self.setup)
        if not done:
            return [(seat, 1.0 / game.num_seats) for seat in range(game.num_seats)]
        yellow = len(game.yellow_ids)
        if done <= yellow:
            left = sorted(set(game.yellow_ids) - set(self.setup[1:]))
            return [(card, 1.0 / len(left)) for card in left]
        left_green = Counter(game.green_cards)
        left_green.subtract(self.setup[1 + yellow :])
        total = sum(left_green.values())
        return [(effect, left_green[effect] / total) for effect in sorted(left_green) if left_green[effect]]

    def _set_up(self, outcome: int) -> None:
        game = self.spiel_game
        self.setup.append(outcome)
        yellow = len(game.yellow_ids)
        if len(self.setup) < 1 + yellow + len(game.green_cards):
            return
        n = game.num_seats
        data = copy.deepcopy(game.blank)
        cards = [CARD_IDS[card] for card in self.setup[1 : 1 + yellow]]
        data["elder"] = data["current_player"] = self.setup[0]
        data["yellow"], data["yellow_deck"] = cards[:n], cards[n:]
        data["green_deck"] = [EFFECTS[effect] for effect in self.setup[1 + yellow :]]
        self.laro = GAME.from_json(data)
        for seat, heard in enumerate(self.heard):
            heard.append(f"elder p{self.setup[0]}, you drew {cards[seat]}")

    def _apply_action(self, action: int) -> None:
        if self.laro is None:
            self._set_up(action)
            return
        seat = self.laro.current_player
        move = GAME.action_from_index(action)
        told = GAME.public_text(str(move))
        for other, heard in enumerate(self.heard):
            heard.append(f"p{seat} {move if other == seat else told}")
        self.laro = self.laro.apply(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"setup {len(self.setup)}: {action}"
        return str(GAME.action_from_index(action))

    def is_terminal(self) -> bool:
        return self.laro is not None and self.laro.is_over

    def returns(self) -> list[float]:
        if self.laro is None or not self.laro.is_over:
            return [0.0] * self.spiel_game.num_seats
        return share_of_win(self.laro.winners, self.spiel_game.num_seats)

    def __str__(self) -> str:
        return f"setting up ({len(self.setup)} chance outcomes)" if self.laro is None else repr(self.laro)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> KamaraSpielState:
        """A state ``player`` cannot tell from this one, from laro's sampler: the cards it cannot see and the deck
        orders drawn again; the others are left with what ``player`` heard of their moves."""
        new: KamaraSpielState = self.clone()
        if self.laro is None or self.laro.is_over:
            return new
        rng = random.Random(int(probability_sampler() * 2**53))
        new.laro = GAME.sampler(self.laro.observation(player))(rng)
        new.heard = [
            self.heard[player].copy() if other == player else _public(self.heard[player])
            for other in range(self.spiel_game.num_seats)
        ]
        return new


def _public(heard: list[str]) -> list[str]:
    return [" ".join(text.split()[:2]) if text.split()[1] in ("order", "keep") else text for text in heard]


class KamaraObserver:
    """OpenSpiel's observer: the tensor is laro's encoding of the seat's observation (the same for the information
    state); the information state string adds every move the seat has heard since the game began."""

    def __init__(self, game: KamaraSpielGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KamaraSpielState, player: int) -> None:
        if state.laro is None:
            self.tensor[:] = 0.0
            return
        self.tensor[:] = self.game.encoding.encode(state.laro.observation(player))

    def string_from(self, state: KamaraSpielState, player: int) -> str:
        if state.laro is None:
            return f"p{player}: setting up"
        text = json.dumps(state.laro.observation(player), sort_keys=True, separators=(",", ":"))
        return text + (" | " + ", ".join(state.heard[player]) if self.perfect_recall else "")


pyspiel.register_game(_TYPE, KamaraSpielGame)
