"""The PettingZoo AEC environment of a laro game: one agent per seat, turn by turn as the game decides.

>>> from laro.rl import lama_v0
>>> env = lama_v0.env(num_players=3)
>>> env.reset(seed=1)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, observation["action_mask"].tolist()
((40,), [1, 0, 0, 0, 0, 0, 0, 1, 1])
>>> env.step(8)  # quit
>>> env.agent_selection
'player_1'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from laro.core import GameState
from laro.core.errors import OptionError
from laro.rl.spec import Table

__all__ = ["LaroAECEnv", "make_env", "make_parallel_env"]

ILLEGAL_REWARD = -1.0


class LaroAECEnv(
    AECEnv[  # type: ignore[misc]  # pettingzoo is untyped
        str, dict[str, npt.NDArray[Any]], int
    ]
):
    """Seats ``player_0`` … ``player_{n-1}``; the observation is ``{"observation", "action_mask"}``.

    Rewards come at the end of the game (see :meth:`Table.rewards`). An action outside the mask ends the game:
    the seat that took it is given -1 and the others 0 (PettingZoo's convention for illegal moves in its classic
    games), and ``info["illegal_action"]`` says so. With ``max_cycles``, the game is truncated after
    ``max_cycles * num_players`` turns.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "laro_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        reward: str = "win",
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
        ):
            raise OptionError(f"max_cycles must be a whole number of at least 1; got {max_cycles!r}")
        self.table = Table(game, num_players, options, reward)
        self.metadata = {**self.metadata, "name": f"{game}_v0"}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size, actions = self.table.observation_size, self.table.num_actions
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(actions)
        self._rng = np.random.default_rng()
        self.state_: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state_ = self.table.new_state(int(self._rng.integers(2**63)))
        self.turns = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._to_move()]

    def _to_move(self) -> int:
        assert self.state_ is not None and self.state_.current_player is not None
        return self.state_.current_player

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        if self.state_ is None:
            raise RuntimeError("call reset() before observe()")
        seat = self._seat[agent]
        return {"observation": self.table.encode(self.state_, seat), "action_mask": self.table.mask(self.state_, seat)}

    def step(self, action: int | None) -> None:
        if self.state_ is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        legal = {a.index: a for a in state.legal_actions()}
        chosen = legal.get(int(action)) if action is not None else None
        if chosen is None:
            self.rewards[agent] = ILLEGAL_REWARD
            self.infos[agent] = {"illegal_action": True}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            return
        self.state_ = state = state.apply(chosen)
        self.turns += 1
        if state.is_over:
            for seat, value in enumerate(self.table.rewards(state)):
                self.rewards[self.possible_agents[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self._to_move()]
            if self.max_cycles is not None and self.turns >= self.max_cycles * self.table.num_players:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        assert self.state_ is not None
        return self.table.render(self.state_, self._seat[self.agent_selection])  # through the mover's eyes

    def close(self) -> None:
        pass


def make_env(game: str, wrapped: bool, **kwargs: Any) -> AECEnv[str, dict[str, npt.NDArray[Any]], int]:
    env: AECEnv[str, dict[str, npt.NDArray[Any]], int] = LaroAECEnv(game, **kwargs)
    if wrapped:
        env = wrappers.OrderEnforcingWrapper(env)
    return env


def make_parallel_env(game: str, **kwargs: Any) -> ParallelEnv[str, dict[str, npt.NDArray[Any]], int | None]:
    """PettingZoo's parallel face of the turn-based game (``turn_based_aec_to_parallel``): every live agent
    observes each step; only the action of the agent to move, ``infos[agent]["active_agent"]``, is taken, and the
    others' masks are all 0."""
    parallel: ParallelEnv[str, dict[str, npt.NDArray[Any]], int | None] = turn_based_aec_to_parallel(
        LaroAECEnv(game, **kwargs)
    )
    return parallel
