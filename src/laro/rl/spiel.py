"""Both games registered with OpenSpiel: ``python_laro_lama`` and ``python_laro_kamara``.

>>> import pyspiel, laro.rl.spiel
>>> sorted(name for name in pyspiel.registered_names() if name.startswith("python_laro"))
['python_laro_kamara', 'python_laro_lama']
"""

from __future__ import annotations

from laro.rl.spiel_kamara import KamaraSpielGame
from laro.rl.spiel_lama import LamaSpielGame

__all__ = ["KamaraSpielGame", "LamaSpielGame"]
