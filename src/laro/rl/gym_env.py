"""Gymnasium single-agent environments: one seat learns, laro bots play the others.

>>> import gymnasium, laro.rl
>>> env = gymnasium.make("laro/Lama-v0", num_players=2, opponents="random")
>>> observation, info = env.reset(seed=3)
>>> mask = env.unwrapped.action_masks()
>>> observation, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))
>>> observation.shape
(34,)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from laro.bots import Bot, check_table, get_bot
from laro.core import GameState
from laro.core.errors import OptionError
from laro.rl.aec import ILLEGAL_REWARD
from laro.rl.spec import Table

__all__ = ["LaroGymEnv"]


class LaroGymEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """Seat ``seat`` is the learner; ``opponents`` names a laro bot for every other seat (one name for all, or
    one per seat in seat order without the learner's). The observation is the seat's encoded observation,
    ``info["action_mask"]`` and :meth:`action_masks` the legal actions. The reward comes when the game ends
    (see :meth:`Table.rewards`); an action outside the mask ends the episode with -1.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str = "lama",
        num_players: int = 2,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        options: Mapping[str, Any] | None = None,
        reward: str = "win",
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        self.table = Table(game, num_players, options, reward)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < num_players:
            raise OptionError(f"seat must be 0..{num_players - 1}; got {seat!r}")
        names = [opponents] * (num_players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != num_players - 1:
            raise OptionError(f"give one opponent or {num_players - 1}; got {len(names)}")
        self.seat = seat
        self.opponent_names = names
        self._bots: dict[int, Bot] = {}
        others = [s for s in range(num_players) if s != seat]
        for other, name in zip(others, names, strict=True):
            self._bots[other] = get_bot(name, game)  # BotError names the available ones
            check_table(self._bots[other], num_players, self.table.options)  # a policy for another table: refused
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.table.observation_size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.table.num_actions)
        self.state_: GameState | None = None
        self._bot_rng = random.Random(0)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions, as sb3-contrib's ``MaskablePPO`` asks for them."""
        if self.state_ is None:
            raise RuntimeError("call reset() before action_masks()")
        return self.table.mask(self.state_, self.seat).astype(bool)

    def _result(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        assert self.state_ is not None
        return self.table.encode(self.state_, self.seat), {"action_mask": self.table.mask(self.state_, self.seat)}

    def _play_bots(self) -> None:
        state = self.state_
        assert state is not None
        while not state.is_over and state.current_player != self.seat:
            seat = state.current_player
            assert seat is not None
            action = self._bots[seat].choose(state.observation(seat), state.legal_actions(), self._bot_rng)
            state = state.apply(action)
        self.state_ = state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        self.state_ = self.table.new_state(int(self.np_random.integers(2**63)))
        self._bot_rng = random.Random(int(self.np_random.integers(2**63)))
        self._play_bots()
        return self._result()

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if self.state_ is None:
            raise RuntimeError("call reset() before step()")
        if self.state_.is_over:
            raise RuntimeError("the game is over; call reset()")
        legal = {a.index: a for a in self.state_.legal_actions()}
        chosen = legal.get(int(action))
        if chosen is None:
            observation, info = self._result()
            info["illegal_action"] = True
            return observation, ILLEGAL_REWARD, True, False, info
        self.state_ = self.state_.apply(chosen)
        self._play_bots()
        observation, info = self._result()
        if self.state_.is_over:
            return observation, self.table.rewards(self.state_)[self.seat], True, False, info
        return observation, 0.0, False, False, info

    def render(self) -> str | None:
        if self.render_mode is None or self.state_ is None:
            return None
        return self.table.render(self.state_, self.seat)  # through the learner's eyes
