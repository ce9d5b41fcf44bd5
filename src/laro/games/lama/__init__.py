"""L.A.M.A. (Reiner Knizia), complete: every rule and ruling of the project's rules page.

>>> from laro.games.lama import GAME
>>> state = GAME.new_game(num_players=4, seed=42)
>>> len(state.to_json()["hands"][0])
6
"""

from laro.games.lama.actions import ACTIONS, DRAW, PLAY, QUIT, LamaAction
from laro.games.lama.cards import CARD_TEXT
from laro.games.lama.game import GAME, OPTIONS, LamaGame
from laro.games.lama.state import LamaState

__all__ = [
    "ACTIONS",
    "CARD_TEXT",
    "DRAW",
    "GAME",
    "OPTIONS",
    "PLAY",
    "QUIT",
    "LamaAction",
    "LamaGame",
    "LamaState",
]
