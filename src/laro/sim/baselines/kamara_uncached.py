"""laro's own Kamara engine with its geometry caches switched off: the benchmark's in-project baseline.

The engine computes a chamber's step tables (walls, blocks, diagonals, ports) once per arrangement of tiles and
keeps them; this baseline rebuilds them for every state, as an engine that reads the walls on every move would.
The rules are the very same, so the ratio shows what the precomputed geometry buys.

>>> game = UncachedKamara.new_game(3, seed=4)
>>> [str(a) for a in game.legal_actions()] == [str(a) for a in GAME.new_game(3, seed=4).legal_actions()]
True
"""

from __future__ import annotations

import dataclasses
from typing import Any

from laro.games.kamara import GAME, KamaraAction, KamaraState, default_components

__all__ = ["UncachedKamara"]


class _Forgetful(dict[Any, Any]):
    """A cache that keeps nothing."""

    def __setitem__(self, key: Any, value: Any) -> None:
        return None


class UncachedKamara:
    """A Kamara state whose chamber geometry is rebuilt whenever it is needed."""

    __slots__ = ("state",)

    def __init__(self, state: KamaraState) -> None:
        self.state = state

    @classmethod
    def new_game(cls, num_players: int, seed: int) -> UncachedKamara:
        state = GAME.new_game(num_players, seed=seed)
        state.components = dataclasses.replace(default_components(), geometry_cache=_Forgetful())
        return cls(state)

    def legal_actions(self) -> tuple[KamaraAction, ...]:
        self.state._geometry = None
        return self.state.legal_actions()

    def apply(self, action: KamaraAction) -> UncachedKamara:
        new = self.state.apply(action)
        new._geometry = None
        return UncachedKamara(new)
