"""Kamara as a PettingZoo AEC environment (see docs/rl.md).

>>> from laro.rl import kamara_v0
>>> env = kamara_v0.env(num_players=3, options={"actions_per_turn": 4}, render_mode="ansi")
>>> env.reset(seed=7)
>>> env.possible_agents
['player_0', 'player_1', 'player_2']
"""

from __future__ import annotations

from typing import Any

from laro.rl.aec import LaroAECEnv, make_env, make_parallel_env

__all__ = ["env", "parallel_env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's order checks: ``num_players``, ``options``, ``reward``, ``max_cycles``,
    ``render_mode`` as in :class:`laro.rl.aec.LaroAECEnv`."""
    return make_env("kamara", wrapped=True, **kwargs)


def raw_env(**kwargs: Any) -> LaroAECEnv:
    """The environment itself, without wrappers."""
    return LaroAECEnv("kamara", **kwargs)


def parallel_env(**kwargs: Any) -> Any:
    """The same game through PettingZoo's parallel API, one turn a step (see :func:`laro.rl.aec.make_parallel_env`)."""
    return make_parallel_env("kamara", **kwargs)
