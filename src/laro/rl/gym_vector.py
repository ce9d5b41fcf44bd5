"""Gymnasium vector environments over the batched engine (:class:`~laro.rl.vector.VectorLama`): ``num_envs``
L.A.M.A. games stepped at once in numpy.

- :class:`LamaVectorEnv` — one learner, seat 0 of every game, against opponents played inside the environment:
  ``"random"`` (a uniformly random legal action) or any function from the observations and masks of the games
  (and the environments they are in) to their actions (a frozen copy of the learner, a pool of past selves:
  :class:`PolicyPool`). Each ``step`` takes the learner's action in every game and plays the opponents until it
  is the learner's turn again. ``gymnasium.make_vec("laro/Lama-v0", num_envs=…)`` makes one.
- :class:`LamaSelfPlayEnv` — self-play: the learner plays every seat. Each ``step`` takes the action of whoever is
  to move in each game; the reward is that seat's, and ``infos["rewards"]`` has every seat's (a game's end pays
  all of them at once), ``infos["player"]`` who moved and ``infos["next_player"]`` who moves now.

Both return new arrays every step; the observation is the seat's L.A.M.A. vector (``LamaEncoding``), the legal
actions are ``infos["action_mask"]`` (and :meth:`action_masks`, as sb3-contrib's maskable learners ask). A game
that ends is replaced at once by a new game (``autoreset_mode`` ``SAME_STEP``): the step that ends it returns the
reward and ``terminated``, with the new game's first observation, and ``infos["final_scores"]`` the points of the
game that ended (a game is never truncated, so no final observation is needed to value it: its value is 0). An
action outside the mask ends that game at once with -1 for the seat that took it, as in laro's other environments.

>>> import gymnasium, numpy as np, laro.rl
>>> envs = gymnasium.make_vec("laro/Lama-v0", num_envs=8, num_players=3)
>>> observations, infos = envs.reset(seed=1)
>>> observations.shape, infos["action_mask"].shape
((8, 40), (8, 9))
>>> rng = np.random.default_rng(0)
>>> for _ in range(200):
...     actions = [rng.choice(np.flatnonzero(mask)) for mask in infos["action_mask"]]
...     observations, rewards, terminated, truncated, infos = envs.step(np.array(actions))
>>> envs.unwrapped.engine.games_finished > 0
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from laro.core.errors import OptionError
from laro.rl.aec import ILLEGAL_REWARD
from laro.rl.vector import VectorLama

__all__ = ["LamaSelfPlayEnv", "LamaVectorEnv", "Opponent", "PolicyPool"]

Observations = npt.NDArray[np.float32]
Masks = npt.NDArray[np.bool_]
# observations, masks and the environments they come from -> one action each
Opponent = Callable[[Observations, Masks, npt.NDArray[np.int64]], npt.NDArray[np.integer[Any]]]
_MOST_TURNS = 100_000  # a bound on the opponents' turns in one step, far above any game's length
_APART = 4  # the opponents' games are played apart once fewer than one in this many still wait


class _LamaVector(VectorEnv[Observations, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """What both environments share: the spaces, the engine, resets and actions outside the mask."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int, num_players: int, options: Mapping[str, Any] | None) -> None:
        self.num_envs, self.num_players = num_envs, num_players
        self.options = dict(options or {})
        self.engine = VectorLama(num_envs, num_players, seed=0, options=self.options)  # checks players and options
        self.single_observation_space = spaces.Box(0.0, 1.0, (self.engine.obs_size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.engine.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)
        self._masks: Masks = np.zeros((num_envs, self.engine.num_actions), dtype=np.bool_)
        self._fresh = True  # the first reset makes the engine from the environment's generator
        self.game_steps = 0  # the actions taken in all games, the learner's and the opponents'

    def action_masks(self) -> Masks:
        """The legal actions of the seats to move, as sb3-contrib's maskable learners ask for them."""
        return self._masks.copy()

    def _new_engine(self) -> None:
        seed = int(self.np_random.integers(2**63))
        self.engine = VectorLama(self.num_envs, self.num_players, seed=seed, options=self.options)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        """New games in every environment (a new engine seeded from ``seed``), or with ``options={"reset_mask":
        mask}`` only in those where ``mask`` is true."""
        super().reset(seed=seed, options=options)
        reset_mask = (options or {}).get("reset_mask")
        if reset_mask is None:
            if seed is not None or self._fresh:
                self._new_engine()
            self._fresh = False
            observations, self._masks = self.engine.reset()
        else:
            observations, self._masks = self.engine.restart(np.flatnonzero(np.asarray(reset_mask, dtype=np.bool_)))
        observations, _, _ = self._settle(observations)
        return observations, self._info()

    def _settle(self, observations: Observations) -> tuple[Observations, npt.NDArray[np.float32], Masks]:
        """Play on until every game waits for the learner; its rewards and the games that ended meanwhile."""
        return observations, np.zeros(self.num_envs, dtype=np.float32), np.zeros(self.num_envs, dtype=np.bool_)

    def _info(self, finished: Masks | None = None, **more: npt.NDArray[Any]) -> dict[str, Any]:
        """The step's infos, each key with its ``_key`` mask as Gymnasium's vector infos have them; the final
        points of the games in ``finished``."""
        info: dict[str, Any] = {"action_mask": self._masks.copy(), "_action_mask": np.ones(self.num_envs, np.bool_)}
        for key, value in more.items():
            info[key], info[f"_{key}"] = value, np.ones(self.num_envs, np.bool_)
        if finished is not None and finished.any():
            info["final_scores"], info["_final_scores"] = self.engine.final_scores.copy(), finished.copy()
        return info

    def _apply(
        self, actions: npt.ArrayLike, seat: npt.NDArray[np.int64] | int
    ) -> tuple[Observations, npt.NDArray[np.float32], Masks, Masks, npt.NDArray[np.float32]]:
        """Take ``actions`` in every game: an action outside the mask ends its game with the illegal reward for
        the seat that took it. Returns the observations, the reward of ``seat`` (one per game or the same for
        all), the games that ended by the rules, those that ended by an illegal action, and every seat's
        rewards."""
        a = np.asarray(actions).astype(np.int64, copy=False).reshape(-1)
        if a.shape != (self.num_envs,):
            raise ValueError(f"step takes one action per environment, shape ({self.num_envs},); got {a.shape}")
        legal = (a >= 0) & (a < self.engine.num_actions)
        legal &= self._masks[self._rows, np.clip(a, 0, self.engine.num_actions - 1)]
        illegal = np.flatnonzero(~legal)
        all_rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        if len(illegal):
            all_rewards[illegal, np.broadcast_to(seat, (self.num_envs,))[illegal]] = ILLEGAL_REWARD
            self.engine.restart(illegal)
        observations, self._masks, rewards, done = self.engine.step(np.where(legal, a, 0), active=legal)
        self.game_steps += int(legal.sum())
        all_rewards += rewards
        return observations, all_rewards[self._rows, seat], done, ~legal, all_rewards


def random_opponent(rng: np.random.Generator) -> Opponent:
    """A uniformly random legal action for every game."""

    def choose(observations: Observations, masks: Masks, envs: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        weights = masks.cumsum(axis=1)
        pick = (rng.random(len(masks)) * weights[:, -1]).astype(np.int64)
        chosen: npt.NDArray[np.int64] = (weights <= pick[:, None]).sum(axis=1)
        return chosen

    return choose


class LamaVectorEnv(_LamaVector):
    """``num_envs`` games of ``num_players``; the learner is seat 0 of each, ``opponents`` play the others (see
    the module docstring). ``options`` are L.A.M.A.'s (both editions)."""

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        opponents: str | Opponent = "random",
        game: str = "lama",
        **unused: Any,
    ) -> None:
        if game != "lama":
            raise OptionError(f"the batched engine plays L.A.M.A. only; got {game!r}")
        if unused:
            raise OptionError(f"the vector environment takes no {', '.join(sorted(unused))}")
        if not (opponents == "random" or callable(opponents)):
            raise OptionError(
                f"the vector environment's opponents are 'random' or a function from observations and masks to "
                f"actions (a PolicyPool, say); got {opponents!r} (laro's other bots play in laro/Lama-v0 itself)"
            )
        super().__init__(num_envs, num_players, options)
        self.opponents = opponents

    def _settle(self, observations: Observations) -> tuple[Observations, npt.NDArray[np.float32], Masks]:
        opponent = self.opponents if callable(self.opponents) else random_opponent(self.np_random)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        ended = np.zeros(self.num_envs, dtype=np.bool_)
        self._play(self.engine, opponent, self._rows, rewards, ended)
        observations, self._masks = self.engine.obs, self.engine.mask
        return observations, rewards, ended

    def _play(
        self,
        engine: VectorLama,
        opponent: Opponent,
        envs: npt.NDArray[np.int64],
        rewards: npt.NDArray[np.float32],
        ended: Masks,
    ) -> None:
        """The opponents' turns in ``engine`` (the games of ``envs``) until the learner's turn in every game, its
        rewards and the games that ended written at ``envs``. Once few games still wait, they go on apart, in an
        engine of their own, so that a long wait in one game does not step the whole batch."""
        for _ in range(_MOST_TURNS):
            waiting = engine.current != 0
            count = int(waiting.sum())
            if not count:
                return
            if count * _APART <= engine.batch and engine.batch > _APART:
                games = np.flatnonzero(waiting)
                part = engine.take(games)
                self._play(part, opponent, envs[games], rewards, ended)
                engine.put(games, part)
                return
            chosen = np.asarray(opponent(engine.obs, engine.mask, envs)).astype(np.int64, copy=False)
            _, _, all_rewards, done = engine.step(np.where(waiting, chosen, 0), active=waiting)
            rewards[envs] += all_rewards[:, 0]
            ended[envs] |= done
            self.game_steps += count
        raise RuntimeError(f"the opponents took more than {_MOST_TURNS} turns in one step")

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Observations, npt.NDArray[np.float32], Masks, Masks, dict[str, Any]]:
        """The learner's action in every game, then the opponents' until the learner's turn again."""
        observations, rewards, done, illegal, _ = self._apply(actions, 0)
        observations, later, done_later = self._settle(observations)
        done |= done_later
        terminated = done | illegal
        return observations, rewards + later, terminated, np.zeros(self.num_envs, np.bool_), self._info(done)


class LamaSelfPlayEnv(_LamaVector):
    """Self-play: ``num_envs`` games of ``num_players``, every seat the learner's (see the module docstring)."""

    def __init__(self, num_envs: int, num_players: int = 2, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(num_envs, num_players, options)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        observations, info = super().reset(seed=seed, options=options)
        info["player"], info["_player"] = self.engine.current.copy(), np.ones(self.num_envs, np.bool_)
        return observations, info

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Observations, npt.NDArray[np.float32], Masks, Masks, dict[str, Any]]:
        """The action of the seat to move in every game; its reward, and every seat's in ``infos["rewards"]``."""
        player = self.engine.current.copy()
        observations, rewards, done, illegal, all_rewards = self._apply(actions, player)
        info = self._info(done, rewards=all_rewards, player=player, next_player=self.engine.current.copy())
        return observations, rewards, done | illegal, np.zeros(self.num_envs, np.bool_), info


class PolicyPool:
    """Opponents for :class:`LamaVectorEnv` from a pool of policies (opponents themselves, such as :func:`greedy`):
    each environment's opponents play one policy of the pool, drawn again for every environment when the pool
    changes, so that a learner meets its past selves. ``add`` a policy (the oldest leaves a full pool).

    >>> pool = PolicyPool(size=3, seed=0)
    >>> pool.add(lambda observations, masks, envs: masks.argmax(axis=1))
    >>> pool(np.zeros((2, 5), np.float32), np.array([[0, 1], [1, 0]], bool), np.array([0, 1])).tolist()
    [1, 0]
    """

    def __init__(self, size: int = 8, seed: int | None = None) -> None:
        if size < 1:
            raise ValueError(f"a pool holds at least one policy; got {size}")
        self.size = size
        self.policies: list[Opponent] = []
        self._rng = np.random.default_rng(seed)
        self._drawn = np.zeros(0, dtype=np.int64)  # the policy of each environment

    def add(self, policy: Opponent) -> None:
        self.policies = [*self.policies, policy][-self.size :]
        self._drawn = np.zeros(0, dtype=np.int64)

    def __call__(self, observations: Observations, masks: Masks, envs: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        if not self.policies:
            raise ValueError("the pool has no policy yet; add one")
        if len(envs) and envs.max() >= len(self._drawn):
            more = self._rng.integers(len(self.policies), size=int(envs.max()) + 1 - len(self._drawn))
            self._drawn = np.concatenate([self._drawn, more])
        drawn = self._drawn[envs]
        actions = np.zeros(len(masks), dtype=np.int64)
        for index, policy in enumerate(self.policies):
            rows = drawn == index
            if rows.any():
                actions[rows] = np.asarray(policy(observations[rows], masks[rows], envs[rows]))
        return actions


def greedy(layers: Sequence[tuple[npt.ArrayLike, npt.ArrayLike]], activation: str = "tanh") -> Opponent:
    """A network's best legal action in every game: an MLP of ``(weights, bias)`` layers (as a ``policy:`` file
    holds them) applied to a batch of observations, the illegal actions masked out."""
    from laro.rl.policy_bot import ACTIVATIONS

    weights = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in layers]
    act = ACTIVATIONS[activation]

    def choose(observations: Observations, masks: Masks, envs: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        x = observations
        for i, (w, b) in enumerate(weights):
            x = x @ w + b
            if i < len(weights) - 1:
                x = act(x)
        chosen: npt.NDArray[np.int64] = np.where(masks, x, -np.inf).argmax(axis=1)
        return chosen

    return choose
