"""Kamara, complete: the chamber, its components as data, and every rule and ruling of the project's rules page.

>>> from laro.games.kamara import GAME
>>> state = GAME.new_game(num_players=3, seed=42)
>>> state.phase, len(state.legal_actions()) > 0
('tiles', True)
"""

from laro.games.kamara.actions import COLOURS, KamaraAction
from laro.games.kamara.chamber import SLOTS, square_index, square_name
from laro.games.kamara.components import ComponentError, Components, default_components, load_components
from laro.games.kamara.game import GAME, OPTIONS, KamaraGame
from laro.games.kamara.serial import public_text
from laro.games.kamara.state import KamaraState

__all__ = [
    "COLOURS",
    "GAME",
    "OPTIONS",
    "SLOTS",
    "ComponentError",
    "Components",
    "KamaraAction",
    "KamaraGame",
    "KamaraState",
    "default_components",
    "load_components",
    "public_text",
    "square_index",
    "square_name",
]
