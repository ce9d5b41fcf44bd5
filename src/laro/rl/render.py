"""A short text view of a table as a spectator sees it (no seat's hidden cards): ``render_mode="ansi"`` when
the terminal's views are not installed (see :meth:`laro.rl.spec.Table.render`).

>>> from laro.games.lama import GAME
>>> print(render_text(GAME.new_game(2, seed=3).public_observation()))
L.A.M.A. round 1 · top card 5 · draw pile 43 · seat 1 to move
  seat 0: 6 cards, 0 points
> seat 1: 6 cards, 0 points
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["render_text"]


def render_text(public: Mapping[str, Any]) -> str:
    if public["game"] == "lama":
        return _lama(public)
    return _kamara(public)


def _turn(public: Mapping[str, Any]) -> str:
    if public["is_over"]:
        return "over, won by seat " + " and ".join(map(str, public["winners"]))
    return f"seat {public['current_player']} to move"


def _lama(public: Mapping[str, Any]) -> str:
    lines = [
        f"L.A.M.A. round {public['round']} · top card {public['top_card']} · draw pile "
        f"{public['draw_pile_count']} · {_turn(public)}"
    ]
    for seat, size in enumerate(public["hand_sizes"]):
        mark = ">" if seat == public["current_player"] else " "
        quit_ = ", has quit" if public["quit"][seat] else ""
        lines.append(f"{mark} seat {seat}: {size} cards, {public['scores'][seat]} points{quit_}")
    return "\n".join(lines)


def _kamara(public: Mapping[str, Any]) -> str:
    lines = [f"Kamara {public['phase']} · round {public['round']} · {_turn(public)}"]
    placed = [f"{slot}={t['tile']}/{t['face']}" for slot, t in public["tiles"].items() if t is not None]
    lines.append("  chamber: " + (" ".join(placed) or "empty"))
    for seat, colour in enumerate(public["colours"]):
        mark = ">" if seat == public["current_player"] else " "
        where = public["diwa"].get(colour, "-") if colour else "-"
        lines.append(
            f"{mark} seat {seat}: {colour or 'no colour'} diwa at {where}, {len(public['matched'][seat])} matched"
        )
    return "\n".join(lines)
