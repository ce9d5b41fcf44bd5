"""Look-up tables of the actions that do not depend on the component set, by their arguments.

>>> MOVE_ACTIONS[2], PORT_ACTIONS[40], POKE_ACTIONS[0][0]
(KamaraAction('move E'), KamaraAction('port e5'), KamaraAction('poke red a9'))
"""

from __future__ import annotations

from laro.games.kamara.actions import (
    DIWA,
    END,
    EXCHANGE,
    FLIP,
    IKOT,
    KANDADO,
    KEEP,
    LIPAT,
    MATCH,
    MOVE,
    ORDER,
    PALITAN,
    PANAGINIP,
    PITIK,
    PLAY_IGNORE,
    POKE,
    PORT,
    SIGLA,
    SILIP,
    TAGOS,
    TAWAG,
    TULAK,
    KamaraAction,
    action_space,
)
from laro.games.kamara.components import default_components

__all__ = [
    "DIWA_ACTIONS",
    "END_ACTION",
    "EXCHANGE_ACTION",
    "FLIP_ACTION",
    "IKOT_ACTIONS",
    "KANDADO_ACTIONS",
    "KEEP_ACTIONS",
    "LIPAT_ACTIONS",
    "MATCH_ACTION",
    "MOVE_ACTIONS",
    "ORDER_ACTIONS",
    "PALITAN_ACTIONS",
    "PANAGINIP_ACTION",
    "PITIK_ACTIONS",
    "PLAY_IGNORE_ACTION",
    "POKE_ACTIONS",
    "PORT_ACTIONS",
    "SIGLA_ACTION",
    "SILIP_ACTION",
    "TAGOS_ACTIONS",
    "TAWAG_ACTIONS",
    "TULAK_ACTIONS",
]

_BY_ARGS: dict[tuple[int, tuple[int, ...]], KamaraAction] = {
    (action.kind, action.args): action for action in action_space(default_components()).by_index
}


def _one(kind: int) -> KamaraAction:
    return _BY_ARGS[kind, ()]


def _per(kind: int, count: int) -> tuple[KamaraAction, ...]:
    return tuple(_BY_ARGS[kind, (i,)] for i in range(count))


MOVE_ACTIONS = _per(MOVE, 8)
FLIP_ACTION = _one(FLIP)
MATCH_ACTION = _one(MATCH)
EXCHANGE_ACTION = _one(EXCHANGE)
END_ACTION = _one(END)
PORT_ACTIONS = _per(PORT, 81)
TAWAG_ACTIONS = _per(TAWAG, 81)
DIWA_ACTIONS = tuple(tuple(_BY_ARGS[DIWA, (colour, square)] for square in range(81)) for colour in range(8))
POKE_ACTIONS = tuple(tuple(_BY_ARGS[POKE, (colour, square)] for square in range(81)) for colour in range(8))
PLAY_IGNORE_ACTION = _one(PLAY_IGNORE)
SIGLA_ACTION = _one(SIGLA)
SILIP_ACTION = _one(SILIP)
PANAGINIP_ACTION = _one(PANAGINIP)
PITIK_ACTIONS = {args[0]: action for (kind, args), action in _BY_ARGS.items() if kind == PITIK}
IKOT_ACTIONS = {args[0]: action for (kind, args), action in _BY_ARGS.items() if kind == IKOT}  # 1 cw, 3 ccw
PALITAN_ACTIONS = {args: action for (kind, args), action in _BY_ARGS.items() if kind == PALITAN}
TULAK_ACTIONS = {args: action for (kind, args), action in _BY_ARGS.items() if kind == TULAK}
LIPAT_ACTIONS = _per(LIPAT, 8)
TAGOS_ACTIONS = tuple(_BY_ARGS[TAGOS, (direction,)] for direction in (0, 2, 4, 6))
KANDADO_ACTIONS = _per(KANDADO, 9)
ORDER_ACTIONS = {args: action for (kind, args), action in _BY_ARGS.items() if kind == ORDER}
KEEP_ACTIONS = _per(KEEP, 32)
