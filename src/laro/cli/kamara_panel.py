"""What stands beside Kamara's chamber in the terminal: the heading, the players with their diwa, matches and
cards held, the decks and locks, and the viewer's own cards; in a compact form for small terminals, with the rest
one command away (:func:`more`).

The panel shows a seat only what it may know: everything comes from that seat's observation. A replay (no viewer)
shows every card.

>>> from laro.cli.views import PlayerInfo
>>> from laro.games.kamara import GAME
>>> state = GAME.new_game(2, seed=5, options={"elder": 0})
>>> heading(state, 0, [PlayerInfo("You", is_you=True), PlayerInfo("Bot 1")])
'Setup: placing tiles · your turn'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from laro.cli.kamara_board import (
    Layout,
    card_grid,
    code_picture,
    diwa_tag,
    legend_text,
    pool_picture,
    relative_light,
    side_by_side,
)
from laro.cli.views import PlayerInfo
from laro.cli.words import counted
from laro.games.kamara import COLOURS, KamaraState

__all__ = [
    "card_id",
    "colour_of",
    "heading",
    "more",
    "more_hint",
    "panel",
    "panel_parts",
    "possessive",
    "seen_by",
    "tag",
]


def seen_by(state: KamaraState, viewer: int | None) -> dict[str, Any]:
    """What the screen may show: the viewer's observation, or everything in a replay (``viewer`` None)."""
    if viewer is not None:
        return state.observation(viewer)
    data = state.to_json()
    data["yellow_deck_count"] = len(data["yellow_deck"])
    data["green_deck_count"] = len(data["green_deck"])
    data["seen_on_top"] = []
    return data


def card_id(number: int) -> str:
    """A yellow card's id as printed: ``Y01`` … ``Y32``."""
    return f"Y{number + 1:02d}"


def colour_of(state: KamaraState, seat: int) -> str | None:
    """The colour of the seat's diwa, once chosen."""
    return COLOURS[state.colours[seat]] if state.colours[seat] >= 0 else None


def tag(colour: str | None, name: bool = True) -> Text:
    """A diwa chip, with its colour's name after it."""
    chip = diwa_tag(colour)
    if colour is not None and name:
        chip.append(f" {colour}", style="")
    return chip


def possessive(label: str) -> str:
    """``your`` for the person at the terminal, else ``Name's``."""
    return "your" if label == "You" else f"{label}'s"


def heading(state: KamaraState, viewer: int | None, players: Sequence[PlayerInfo]) -> str:
    """The line above the chamber: the phase or round, whose turn and the actions left."""
    current = state.current_player
    who = "nobody's" if current is None else ("your" if current == viewer else possessive(players[current].label))
    if state.phase == "tiles":
        return f"Setup: placing tiles · {who} turn"
    if state.phase == "diwa":
        return f"Setup: choosing diwa · {who} turn"
    if current is None:
        return f"Round {state.round} · game over"
    total = state.options["actions_per_turn"]
    return f"Round {state.round} · {who} turn · {state.actions_left} of {total} actions left"


def panel(
    state: KamaraState,
    seen: dict[str, Any],
    viewer: int | None,
    players: Sequence[PlayerInfo],
    layout: Layout,
) -> RenderableType:
    """The players (diwa, matched cards, cards held), the decks, locks and the viewer's own cards."""
    return Group(*(part for part, _ in panel_parts(state, seen, viewer, players, layout)))


def panel_parts(
    state: KamaraState,
    seen: dict[str, Any],
    viewer: int | None,
    players: Sequence[PlayerInfo],
    layout: Layout,
    compact: bool = False,
) -> list[tuple[RenderableType, bool]]:
    """The parts of the :func:`panel`, each with whether a small terminal may go without it (the decks' line).
    ``compact`` (for small terminals) names the diwa by their letter only, leaves out the table's header and the
    blank lines, and keeps each card to a few lines."""
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 1), show_header=not compact)
    for name in ("", "Diwa", "Player", "Matched", "Holds"):
        table.add_column(name, no_wrap=name != "Player")
    target = state.options["target_matches"]
    for seat, player in enumerate(players):
        held = [seen["yellow"][seat], seen["green"][seat]]
        holds = " ".join(
            {"?": kind}.get(card, card) for card, kind in zip(held, ("yellow", "green"), strict=True) if card
        )
        to_play = seat == state.current_player
        table.add_row(
            Text("▶", style="bold cyan") if to_play else "",
            tag(seen["colours"][seat], name=not compact),
            Text(player.label, style="bold" if to_play else ""),
            f"{len(seen['matched'][seat])}/{target} " + " ".join(seen["matched"][seat]),
            holds or Text("—", style="dim"),
        )
    decks = Text(f"Decks: yellow {seen['yellow_deck_count']} · green {seen['green_deck_count']}", style="dim")
    parts: list[tuple[RenderableType, bool]] = [(table, False), (decks, True)]
    for slot, seat in seen["locks"].items():
        parts.append((Text(f"░ The {slot} tile is locked by {players[seat].label} until their next turn."), False))
    focus = viewer if viewer is not None else state.current_player
    if focus is not None:
        whose = "your" if viewer is not None else possessive(players[focus].label)
        whose = whose[:1].upper() + whose[1:]
        cards = _cards(state, seen, focus, whose, layout, hints=viewer is not None, compact=compact)
        parts += [(card, False) for card in cards]
    return parts


def _cards(
    state: KamaraState,
    seen: dict[str, Any],
    seat: int,
    whose: str,
    layout: Layout,
    hints: bool,
    compact: bool = False,
) -> list[RenderableType]:
    """A seat's yellow card (drawn, and checked against the chamber), green card and pending decision; with
    ``hints`` (the person at the terminal) how to get a missing card, when they can."""
    yellow = state.components.yellow_by_number
    card = seen["yellow"][seat]
    parts: list[RenderableType] = [] if compact else [Text()]
    if card is None:
        parts.append(Text(f"{whose} yellow card: none (one is drawn at the start of the turn)", style="dim"))
    else:
        code = yellow[int(card[1:]) - 1].code_text()
        parts += code_picture(f"{whose} yellow card {card}", code, layout, compact=compact)
    effect = seen["green"][seat]
    if effect is None:
        can_draw = (
            hints
            and state.phase == "play"
            and state.current_player == seat
            and not state.green_drawn
            and seen["green_deck_count"]
        )
        hint = " (flip a paltik to draw one)" if can_draw else ""
        parts.append(Text(f"{whose} green card: none{hint}", style="dim"))
    else:
        green = next(card for card in state.components.green if card.effect == effect)
        line = Text.assemble(f"{whose} green card: ", (green.name, "bold green"), f" — {green.text}")
        if compact:  # one line: the whole text is a command away (more)
            line.no_wrap, line.overflow = True, "ellipsis"
        parts.append(line)
    if seen["seen_on_top"]:
        parts.append(Text(f"Top of the yellow deck (you looked): {' '.join(seen['seen_on_top'])}"))
    pending = seen.get("pending")
    if pending and state.current_player == seat:
        if pending["decision"] == "order":
            cards = pending.get("cards") or [card_id(c) for c in state.yellow_deck[: pending["count"]]]
            title = "Put them back on the yellow deck, top first (order …):"
        else:
            cards = [*pending.get("drawn", []), *([card] if card else [])]
            title = "Keep one of these (keep …); the others go to the bottom of the yellow deck:"
        marks = relative_light(layout) if layout.logo is not None else None
        blocks = [
            [
                Text(c + (" (yours)" if c == card else ""), style="bold"),
                *card_grid(yellow[int(c[1:]) - 1].code_text(), marks),
            ]
            for c in cards
        ]
        parts += [*([] if compact else [Text()]), Text(title, style="bold"), *side_by_side(blocks, gap=4)]
    return parts


def more_hint(state: KamaraState) -> str:
    """The compact screen's pointer to what it leaves out."""
    if state.phase == "tiles":
        count = len(state.pool)
        return f"(more: the {counted(count, 'tile')} to place, both faces)"
    return "(more: the key, your cards in full)"


def more(state: KamaraState, viewer: int | None, layout: Layout) -> RenderableType:
    """What the compact screen leaves out: while the chamber is built, the tiles still to place with both faces;
    later the key to the board and the viewer's cards in full."""
    if state.phase == "tiles":
        return pool_picture([state.components.tiles[n] for n in state.pool])
    parts: list[RenderableType] = [legend_text(colours=True)]
    if viewer is not None:
        parts += _cards(state, seen_by(state, viewer), viewer, "Your", layout, hints=True)
    return Group(*parts)
