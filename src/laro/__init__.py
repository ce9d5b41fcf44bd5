"""laro: play Kamara and L.A.M.A. with friends and strong bots.

>>> import laro
>>> laro.list_games()
['kamara', 'lama']
>>> state = laro.get_game("lama").new_game(num_players=4, seed=7)
>>> state.current_player in range(4)
True
"""

from laro.core import GameRecord, get_game, list_games, replay

__all__ = ["GameRecord", "__version__", "get_game", "list_games", "replay"]
__version__ = "0.1.0"
