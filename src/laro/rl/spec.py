"""What the environments need to know of a game: its encoding, its action mask, its rewards and a text view.

>>> table = Table("lama", num_players=2, options=None)
>>> state = table.new_state(seed=3)
>>> table.mask(state).tolist()
[0, 0, 0, 0, 0, 1, 0, 1, 1]
>>> table.observation_size, table.num_actions
(34, 9)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt

from laro.core import GameState, get_game
from laro.core.errors import OptionError
from laro.core.registry import plugin
from laro.games.kamara.state import KamaraState
from laro.games.lama.cards import ALL_CARD_TEXT, CARD_TEXT
from laro.games.lama.state import LamaState
from laro.rl.kamara_encoding import KamaraEncoding
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.render import render_text

__all__ = ["REWARDS", "Reward", "Table"]

Reward = Literal["win", "score"]
REWARDS: tuple[Reward, ...] = ("win", "score")


class Table:
    """One game, a number of players and its options, as the environments see them."""

    def __init__(
        self, game_name: str, num_players: int, options: Mapping[str, Any] | None, reward: str = "win"
    ) -> None:
        self.game = get_game(game_name)
        if reward not in REWARDS:
            raise OptionError(f"reward must be one of {', '.join(REWARDS)}; got {reward!r}")
        self.reward: Reward = reward
        self.num_players = num_players
        self.options = dict(options or {})
        probe = self.game.new_game(num_players, seed=0, options=self.options)  # checks players and options
        self.encoding: LamaEncoding | KamaraEncoding
        if game_name == "lama":  # the Party Edition's cards are more kinds (plus cards, the pink llama)
            self.encoding = LamaEncoding(num_players, ALL_CARD_TEXT if getattr(probe, "party", False) else CARD_TEXT)
        else:
            self.encoding = KamaraEncoding(num_players, cast(KamaraState, probe).components)
        self.observation_size = self.encoding.size
        self.num_actions: int = getattr(probe, "num_actions", self.game.num_actions)  # a L.A.M.A. edition's own

    def new_state(self, seed: int) -> GameState:
        return self.game.new_game(self.num_players, seed=seed, options=self.options)

    def encode(self, state: GameState, seat: int) -> npt.NDArray[np.float32]:
        """The seat's observation vector: read from a L.A.M.A. state directly (the same vector, faster), from the
        seat's observation otherwise."""
        if isinstance(self.encoding, LamaEncoding):
            return self.encoding.encode_state(cast(LamaState, state), seat)
        return self.encoding.encode(state.observation(seat))

    def mask(self, state: GameState, seat: int | None = None) -> npt.NDArray[np.int8]:
        """1 for each legal action of ``seat`` (the player to move by default), 0 elsewhere."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if seat is None or seat == state.current_player:
            mask[[action.index for action in state.legal_actions()]] = 1
        return mask

    def rewards(self, state: GameState) -> list[float]:
        """Each seat's reward for a finished game: its share of the win (1 / number of winners, or 0), and with
        ``reward="score"`` also its score against the others' mean, divided by the game's scale (L.A.M.A.'s end
        score, Kamara's target matches), the sign turned so that more is better in both games."""
        n = state.num_players
        winners = state.winners
        result = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(n)]
        if self.reward == "score":
            scores = state.scores
            sign = -1.0 if self.game.score_order == "low" else 1.0
            options = state.observation(0)["options"]
            scale = float(options["end_score"] if "end_score" in options else options["target_matches"])
            for seat in range(n):
                others = (sum(scores) - scores[seat]) / (n - 1)
                result[seat] += sign * (scores[seat] - others) / scale
        return result

    def render(self, state: GameState, seat: int) -> str:
        """The terminal's picture of the table through ``seat``'s eyes (``laro play`` draws the same), found in
        the ``laro.views`` entry-point group that laro's command line fills; without it, a short spectator's
        text."""
        if not hasattr(self, "_view"):  # looked up once, at the first render
            self._view = cast(Callable[[GameState, int | None], str] | None, plugin("laro.views", self.game.name))
        if self._view is None:
            return render_text(state.public_observation())
        return self._view(state, seat)
