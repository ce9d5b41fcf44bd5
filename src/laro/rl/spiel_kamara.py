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
from operator import itemgetter
from typing import Any

import numpy as np
import pyspiel

from laro.games.kamara import GAME, KamaraState
from laro.games.kamara.components import CARD_IDS, EFFECTS
from laro.rl.kamara_encoding import KamaraEncoding
from laro.rl.spiel_common import Shared, game_info, game_type, share_of_win

__all__ = ["Heard", "KamaraSpielGame", "KamaraSpielState"]

_PARAMETERS = {"players": 2, "actions_per_turn": 5, "target_matches": 3, "max_rounds": 100}
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
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
    ``order`` and ``keep`` without their cards), kept in a :class:`Heard` that its clones share."""

    _to_play: int  # the seat to play, or OpenSpiel's chance or terminal player

    def __init__(self, game: KamaraSpielGame, state: KamaraState | None) -> None:
        super().__init__(game)
        self._game = Shared(game)
        self.laro = state
        self.setup = ()
        self.heard = Heard(("",) * game.num_seats, [], 0)

    @property
    def laro(self) -> KamaraState | None:
        return self._laro.value

    @laro.setter
    def laro(self, state: KamaraState | None) -> None:
        self._laro = Shared(state)
        if state is None:
            self._to_play = _CHANCE
        else:
            self._to_play = _TERMINAL if state.current_player is None else state.current_player

    @property
    def setup(self) -> tuple[int, ...]:
        """The chance outcomes so far: the elder, then the yellow cards, then the green cards."""
        return self._setup.value

    @setup.setter
    def setup(self, outcomes: tuple[int, ...]) -> None:
        self._setup = Shared(outcomes)

    @property
    def heard(self) -> Heard:
        return self._heard.value

    @heard.setter
    def heard(self, heard: Heard) -> None:
        self._heard = Shared(heard)

    @property
    def spiel_game(self) -> KamaraSpielGame:
        return self._game.value

    def current_player(self) -> int:
        return self._to_play

    def _legal_actions(self, player: int) -> list[int]:
        laro = self._laro.value
        assert laro is not None
        return sorted([action.index for action in laro.legal_actions()])

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
        self.setup += (outcome,)
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
        self.heard = Heard(tuple(f"elder p{self.setup[0]}, you drew {cards[seat]}" for seat in range(n)), [], 0)

    def _apply_action(self, action: int) -> None:
        laro = self._laro.value
        if laro is None:
            self._set_up(action)
            return
        seat = self._to_play
        move = GAME.action_from_index(action)
        self.heard = self.heard.after(seat, f"p{seat} {move.text}", f"p{seat} {GAME.public_text(move.text)}")
        self.laro = laro.apply(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"setup {len(self.setup)}: {action}"
        return str(GAME.action_from_index(action))

    def is_terminal(self) -> bool:
        return self._to_play == _TERMINAL

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
        new.heard = self.heard.as_heard_by(player)
        return new


class Heard:
    """What the seats have heard: each seat's line about the setup, then one entry per move: each seat's text of
    it, then its public text. The entries are a list a state shares with its clones and the states after them,
    each knowing how many are its own; a state that adds to a list some other state has added to first copies its
    own part (so a clone costs the same however long the game has run).

    A resampled state's seats hear what one seat, ``viewer``, heard: before entry ``upto`` the others hear only
    the public texts, even of their own moves.
    """

    __slots__ = ("drew", "entries", "length", "upto", "viewer")

    def __init__(
        self, drew: tuple[str, ...], entries: list[tuple[str, ...]], length: int, viewer: int = -1, upto: int = 0
    ) -> None:
        self.drew = drew
        self.entries = entries
        self.length = length
        self.viewer = viewer
        self.upto = upto

    def after(self, player: int, text: str, told: str) -> Heard:
        """What is heard once ``player`` made a move: ``text`` for them, ``told`` for the others."""
        entries = self.entries
        if len(entries) != self.length:
            entries = entries[: self.length]
        entries.append(_entry(len(self.drew), player, text, told))
        return Heard(self.drew, entries, self.length + 1, self.viewer, self.upto)

    def by(self, seat: int) -> list[str]:
        """What ``seat`` has heard since the game began, in order."""
        public = 0 if self.viewer < 0 or seat == self.viewer else self.upto
        entries = self.entries
        heard = [self.drew[seat]]
        heard += map(itemgetter(len(self.drew)), entries[:public])
        heard += map(itemgetter(seat), entries[public : self.length])
        return heard

    def as_heard_by(self, seat: int) -> Heard:
        """Every seat hears what ``seat`` heard, the others without the cards of ``order`` and ``keep``."""
        drew = (self.drew[seat],) * len(self.drew)
        if self.viewer < 0 or seat == self.viewer:
            return Heard(drew, self.entries, self.length, seat, self.length)
        entries = [_entry(len(drew), seat, text, _public(text)) for text in self.by(seat)[1:]]
        return Heard(drew, entries, len(entries))


def _entry(seats: int, player: int, text: str, told: str) -> tuple[str, ...]:
    entry = [told] * (seats + 1)
    entry[player] = text
    return tuple(entry)


def _public(text: str) -> str:
    """A seat's own text as the others heard it (``order`` and ``keep`` without their cards)."""
    words = text.split()
    return " ".join(words[:2]) if len(words) > 1 and words[1] in ("order", "keep") else text


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
        return text + (" | " + ", ".join(state.heard.by(player)) if self.perfect_recall else "")


pyspiel.register_game(_TYPE, KamaraSpielGame)
