"""laro for learning agents: PettingZoo and Gymnasium environments of both games (extra ``rl``).

Importing the package registers the Gymnasium environments ``laro/Lama-v0`` and ``laro/Kamara-v0``;
``gymnasium.make_vec("laro/Lama-v0", num_envs=…)`` makes L.A.M.A.'s vector environment over the batched engine
(``laro.rl.gym_vector``).

>>> import gymnasium, laro.rl
>>> env = gymnasium.make("laro/Lama-v0", num_players=3, opponents="heuristic")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["action_mask"].sum()) > 0
((40,), True)
"""

from __future__ import annotations

import gymnasium

from laro.rl import kamara_v0, lama_v0

__all__ = ["kamara_v0", "lama_v0"]

for _id, _game, _vector in (
    ("laro/Lama-v0", "lama", "laro.rl.gym_vector:LamaVectorEnv"),  # gymnasium.make_vec: the batched engine
    ("laro/Kamara-v0", "kamara", None),
):
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id, entry_point="laro.rl.gym_env:LaroGymEnv", vector_entry_point=_vector, kwargs={"game": _game}
        )
