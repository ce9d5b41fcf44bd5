"""How Kamara looks in the terminal: the chamber beside the players and your cards, a grouped menu, short forms
for typing actions, and a line in words for everything that happens.

The screen shows a seat only what it may know: everything comes from that seat's observation, except the
tiles' geometry, which is public. A replay (no viewer) shows every card.

>>> from laro.games.kamara import GAME
>>> state = GAME.new_game(2, seed=5, options={"elder": 0})
>>> view = KamaraView()
>>> view.parse("sulok nw b", state), view.parse("Place KAMARA c a 90", state)
('place sulok NW B', 'place kamara C A 90')
>>> view.parse("nw", state)
Traceback (most recent call last):
...
laro.core.errors.IllegalActionError: move NW is not allowed: the chamber is being built: place a tile
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from laro.cli.fit import Fill, Fitted, Pieces, Size, SizeNote
from laro.cli.kamara_board import (
    ARROWS,
    DIWA_LETTERS,
    BesideOrBelow,
    board_text,
    diwa_tag,
    layout_of,
    legend_text,
    pool_picture,
    short_legend_text,
)
from laro.cli.kamara_panel import (
    card_id,
    colour_of,
    heading,
    more,
    more_hint,
    panel,
    panel_parts,
    seen_by,
    tag,
)
from laro.cli.views import PlayerInfo
from laro.cli.words import a, counted
from laro.core import GameState, IllegalActionError, MalformedActionError
from laro.games.kamara import COLOURS, KamaraState, public_text, square_index
from laro.games.kamara.actions import (
    DIWA,
    END,
    EXCHANGE,
    FLIP,
    KEEP,
    MATCH,
    MOVE,
    ORDER,
    PLACE,
    POKE,
    PORT,
    TULAK,
    KamaraAction,
)
from laro.games.kamara.chamber import CENTRE, FILES, SLOT_KIND, SLOTS, square_name
from laro.games.kamara.components import DIRECTIONS, EFFECTS

__all__ = [
    "FULL_SIZE",
    "HELP_MARKDOWN",
    "KamaraView",
    "MenuEntry",
    "describe_move",
    "menu_entries",
    "move_words",
    "numbered",
]

HELP_MARKDOWN = """\
**Kamara in short.** Flip tiles until their paltik marks (○ light, ● dark) show the code of your secret yellow
card, read from the logo's arrow; then stand on a tapos (◇, or the logo square) and `match`. Three matched cards
win. A turn has up to five actions; `end` stops early.

**Typing an action.** Type an action as listed under *You can*, or the number before it. Short forms:

- a direction alone moves: `ne` is `move NE` (`n ne e se s sw w nw`; so `e` moves east — type `end` to end);
- a square alone ports there: `i1` is `port i1` (or `play tawag i1` when that is what you can do);
- green cards without `play`: `tulak blue n e`, `sigla`, `pitik nw`, `ignore`…;
- a colour may be its letter: `poke r d4`, `tulak b n`;
- setup without the first word: `sulok nw a` is `place sulok NW A` (the centre takes a rotation: `kamara c b 90`),
  `teal b7` or `t b7` is `diwa teal b7`;
- decisions: `order Y03 Y01 Y07` (top first) and `keep Y05`, or just the card ids.

**The board.** Files `a`–`i`, ranks `1`–`9` (`a9` top left); slots `NW N NE / W C E / SW S SE`. Heavy lines ━┃
are walls, thin lines the seams between tiles, the yellow frame the border. ███ blocks, ○/● paltik (light/dark),
◇ tapos, the arrow is the logo. Diwa are capital letters: R red, B blue, O orange, P purple, K pink, W white,
X black, T teal; yours is underlined. ░ marks a locked tile. Your yellow card is drawn beside the board as
printed (arrow up) and turned onto the chamber, with ✓/✗ for what the chamber shows now. On a terminal smaller
than 100×36 the board is drawn one character a square, with your cards and choices beside it (a diwa's letter
then hides the mark under it); `more` shows what that screen leaves out — the tiles still to place with both faces,
the key and your cards in full.

`help` shows this, `rules` the full rules, `exit` stops the game (it is saved; `laro play kamara --resume FILE`).
"""

FULL_SIZE = Size(100, 36)  # the full board with the panel beside it, the menu and the prompt below
_FORMS = {
    "move": "move <dir>, e.g. move NE (directions N NE E SE S SW W NW)",
    "port": "port <square>, e.g. port i1",
    "poke": "poke <colour> <square>, e.g. poke red d4",
    "play": "play <effect> [args], e.g. play tulak blue N E, or play ignore",
    "place": "place <tile> <slot> <face> [<rotation>], e.g. place sulok NW A",
    "diwa": "diwa <colour> <square>, e.g. diwa teal b7",
    "order": "order <id> <id> <id>, top first",
    "keep": "keep <id>",
}
_KEEP_TOGETHER = "\u00a0"  # a space that the menu never breaks a line at
_LETTER_COLOUR = {letter.lower(): colour for colour, letter in DIWA_LETTERS.items()}
_NEEDS_COLOUR = ("diwa", "poke", "tulak", "lipat")
_POINTS = ("north", "east", "south", "west")


def _kamara(state: GameState) -> KamaraState:
    if not isinstance(state, KamaraState):
        raise TypeError(f"the Kamara view needs a Kamara state, not {type(state).__name__}")
    return state


# -- the menu --------------------------------------------------------------------------------------------------


@dataclass
class MenuEntry:
    """One line of the menu: a label (``move``, ``poke red``), its choices ``(shown, action text)`` and a note."""

    label: str
    items: list[tuple[str, str]] = field(default_factory=list)
    note: str = ""


def menu_entries(state: KamaraState) -> list[MenuEntry]:
    """The legal actions grouped for reading; the long setup lists are summarised instead of listed."""
    legal = state.legal_actions()
    if legal and legal[0].kind == PLACE and len(legal) > 12:
        return _place_summary(state, legal)
    if legal and legal[0].kind == DIWA:
        return _diwa_summary(legal)
    entries: dict[str, MenuEntry] = {}
    for action in legal:
        label, shown, note = _entry(state, action)
        entry = entries.setdefault(label, MenuEntry(label))
        entry.note = entry.note or note
        if action.kind == TULAK and len(action.args) == 3:
            entry.note = "or two steps, e.g. " + action.text
        else:
            entry.items.append((shown, action.text))
    return list(entries.values())


def numbered(entries: Sequence[MenuEntry]) -> list[str]:
    """The action texts in the order the menu numbers them (from 1)."""
    return [text for entry in entries for _, text in entry.items]


def _entry(state: KamaraState, action: KamaraAction) -> tuple[str, str, str]:
    """The menu label, the short text shown and a note, for one action."""
    kind, words = action.kind, action.text.split()
    me = state.diwa[state.current_player] if state.current_player is not None else -1
    if kind == MOVE:
        return "move", f"{words[1]}→{square_name(state.geometry.step[me * 8 + action.args[0]])}", ""
    if kind == FLIP:
        slot = state.geometry.paltik_slot[me]
        placed = state.tiles[slot]
        becomes = "dark" if placed is not None and placed[1] == 0 else "light"
        return "flip", "", f"the {SLOTS[slot]} tile: its paltik becomes {becomes}"
    if kind == MATCH:
        return "match", "", "the chamber shows your card!"
    if kind == EXCHANGE:
        return "exchange", "", "your yellow card for the deck's top"
    if kind == END:
        return "end", "", f"the turn ({counted(state.actions_left, 'action')} left)"
    if kind == TULAK:
        seat = state.seat_of_colour(action.args[0])
        target = state.geometry.step[state.diwa[seat] * 8 + action.args[1]]
        return " ".join(words[:3]), f"{words[3]}→{square_name(target)}", ""
    if kind in (PORT, POKE) or words[:2] in (["play", "tawag"], ["play", "lipat"]):
        return " ".join(words[:-1]), words[-1], ""
    if words[0] == "play" and len(words) > 2:
        return " ".join(words[:2]), "↔".join(words[2:]) if words[1] == "palitan" else " ".join(words[2:]), ""
    if words[0] == "play":
        return "play", words[1], ""
    return words[0], " ".join(words[1:]), ""  # place, order, keep


def _place_summary(state: KamaraState, legal: Sequence[KamaraAction]) -> list[MenuEntry]:
    tiles = state.components.tiles
    by_kind: dict[str, tuple[list[str], list[str]]] = {}
    for action in legal:
        tile, slot = tiles[action.args[0]], SLOTS[action.args[1]]
        names, slots = by_kind.setdefault(tile.kind, ([], []))
        names += [] if tile.id in names else [tile.id]
        slots += [] if slot in slots else [slot]
    example = next((action for action in legal if action.args[1] != CENTRE), legal[0]).text.removeprefix("place ")
    entries = [MenuEntry("place", [], f"<tile> <slot> <face>, e.g. {example}")]
    entries += [
        MenuEntry("", [], f"{kind} {' '.join(names)} → {' '.join(slots)}") for kind, (names, slots) in by_kind.items()
    ]
    centre = "; the centre adds 0, 90, 180 or 270 (where its arrow points)" if "centre" in by_kind else ""
    entries.append(MenuEntry("", [], f"face A: paltik light, B: dark{centre}"))
    return entries


def _diwa_summary(legal: Sequence[KamaraAction]) -> list[MenuEntry]:
    colours = sorted({action.args[0] for action in legal})
    squares = {action.args[1] for action in legal}
    names = " ".join(f"{COLOURS[c]}{_KEEP_TOGETHER}({DIWA_LETTERS[COLOURS[c]]})" for c in colours)
    where = f"any of the {len(squares)} empty squares of the corner and edge tiles, not a block or a paltik"
    return [
        MenuEntry("diwa", [], f"<colour> <square>, e.g. {legal[0].text}"),
        MenuEntry("", [], f"colours left: {names}"),
        MenuEntry("", [], f"squares: {where}"),
    ]


# -- the view --------------------------------------------------------------------------------------------------


class KamaraView:
    """The terminal view of Kamara (a :class:`laro.cli.views.GameView` and ``MenuView``)."""

    game = "kamara"
    help_markdown = HELP_MARKDOWN

    def turn(self, state: GameState, viewer: int | None, players: Sequence[PlayerInfo]) -> RenderableType:
        """The chamber beside the players and the viewer's cards; during setup the tiles still to place. On a
        terminal smaller than :data:`FULL_SIZE` the board is drawn one character a square with a shorter panel
        beside it, to fit the terminal's height; what it leaves out (the tiles to place, the key, the cards' whole
        text) is one word away: ``more`` (a replay shows the tiles below)."""
        return self._picture(_kamara(state), viewer, players, with_menu=False)

    def screen(self, state: GameState, viewer: int | None, players: Sequence[PlayerInfo]) -> RenderableType:
        """The turn with the menu: below it in the full layout, beside the board in the compact one, so that on
        a small terminal (80 by 24 and up) the board, your cards and your choices are in view together with the
        prompt."""
        return self._picture(_kamara(state), viewer, players, with_menu=True)

    def _picture(
        self, kamara: KamaraState, viewer: int | None, players: Sequence[PlayerInfo], with_menu: bool
    ) -> RenderableType:
        seen = seen_by(kamara, viewer)
        layout = layout_of(kamara)
        diwa = {square_index(square): colour for colour, square in seen["diwa"].items()}
        locks = {SLOTS.index(slot): seen["colours"][seat] for slot, seat in seen["locks"].items()}
        focus = viewer if viewer is not None else kamara.current_player  # whose diwa is underlined
        mine = frozenset({kamara.diwa[focus]} if focus is not None and kamara.diwa[focus] >= 0 else ())
        setup = kamara.phase in ("tiles", "diwa")
        menu = [self.menu(kamara)] if with_menu else []
        hint = more_hint(kamara) if viewer is not None else ""
        short_menu = [self.menu(kamara, hint, compact=True)] if with_menu else []
        pool = [pool_picture([kamara.components.tiles[n] for n in kamara.pool])] if kamara.phase == "tiles" else []
        full = Group(
            BesideOrBelow(board_text(layout, diwa, locks, mine), panel(kamara, seen, viewer, players, layout)),
            *pool,
            legend_text(colours=setup),
            *menu,
        )
        board = board_text(layout, diwa, locks, mine, compact=True)
        column = Fill(
            [
                *panel_parts(kamara, seen, viewer, players, layout, compact=True),
                (short_legend_text(colours=False), True),
                *((part, False) for part in short_menu),
            ],
            lines=len(board.split()),
        )
        compact: RenderableType = BesideOrBelow(board, column, panel_width=50, gap=2)
        if viewer is None:  # a replay has no prompt to ask for more: the tiles to place come below
            compact = Group(compact, *pool)
        return Group(Rule(heading(kamara, viewer, players), style="cyan"), Fitted(full, compact, FULL_SIZE))

    def command(
        self, word: str, state: GameState, viewer: int | None, players: Sequence[PlayerInfo]
    ) -> RenderableType | None:
        """What the view answers to ``word`` beside actions: ``more`` shows what the compact screen leaves out
        (the tiles to place; the key and your cards in full). None for any other word."""
        if word != "more":
            return None
        kamara = _kamara(state)
        return more(kamara, viewer, layout_of(kamara))

    # -- input --------------------------------------------------------------------------------------------

    def choices(self, state: GameState) -> list[tuple[str, str]]:
        """Every legal action, as ``(what to type, what it is)``."""
        return [(action.text, action.text) for action in _kamara(state).legal_actions()]

    def menu(self, state: GameState, hint: str = "", compact: bool = False) -> RenderableType:
        """The legal actions grouped by kind, one line each; what is listed is numbered, and no choice is broken
        across two lines. ``hint`` follows the title; ``compact`` labels green cards without ``play`` (as they
        may be typed)."""
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        number = 0
        for entry in menu_entries(_kamara(state)):
            pieces: list[tuple[int, Text]] = []
            for shown, _ in entry.items:
                number += 1
                pieces.append((2, Text.assemble((str(number), "bold cyan"), f" {shown}" if shown else "")))
            style = "dim" if pieces else ""
            words = [word.replace(_KEEP_TOGETHER, " ") for word in entry.note.split(" ") if word]
            pieces += [(1 if n else 2, Text(word, style=style)) for n, word in enumerate(words)]
            label = entry.label.removeprefix("play ") if compact else entry.label
            grid.add_row(label, Pieces(pieces))
        return Group(Text.assemble(("You can:", "bold"), (f"  {hint}" if hint else "", "dim")), grid)

    def prompt(self, state: GameState) -> str:
        """The question asked for a move."""
        count = len(numbered(menu_entries(_kamara(state))))
        numbers = {0: "", 1: "1 or "}.get(count, f"1–{count} or ")
        return f"[bold]Your move[/] ({numbers}an action · help): "

    def parse(self, text: str, state: GameState) -> str:
        """The action meant by a number from the menu, an action's text or a short form (see the help); a
        ``ValueError`` says briefly why it is not possible."""
        kamara = _kamara(state)
        words = text.lower().split()
        if len(words) == 1 and words[0].isdigit():
            listed = numbered(menu_entries(kamara))
            if not 1 <= int(words[0]) <= len(listed):
                raise MalformedActionError(
                    f"choose a number from 1 to {len(listed)}" if listed else "no choice is numbered here: type it"
                )
            return listed[int(words[0]) - 1]
        full = _expand(words, kamara)
        try:
            action = kamara.space.parse(" ".join(full))
        except MalformedActionError:
            form = _FORMS.get(full[0] if full else "")
            hint = _place_hint(full, kamara) or (f"the form is {form}" if form else "")
            hint = hint or "type an action from the list, its number, or help"
            raise MalformedActionError(f"{text.strip()!r} is not an action here; {hint}") from None
        if action not in kamara.legal_actions():
            try:
                kamara.apply(action)
            except IllegalActionError as error:  # the reason only, not the list of every allowed action
                raise IllegalActionError(str(error).split("; allowed: ")[0]) from None
        return action.text

    def confirmation(self, typed: str, action: str, state: GameState) -> str | None:
        """A question before ``end`` gives up actions the turn still has (not when ending is all that is left)."""
        kamara = _kamara(state)
        if action != "end" or not kamara.actions_left or len(kamara.legal_actions()) == 1:
            return None
        return f"End your turn with {counted(kamara.actions_left, 'action')} left unused? [y/N]"

    # -- what happened ------------------------------------------------------------------------------------

    def move(
        self, before: GameState, action: str, after: GameState, viewer: int | None, players: Sequence[PlayerInfo]
    ) -> RenderableType:
        """Who did what, in words; the actor's private cards only for the actor (or in a replay)."""
        return describe_move(_kamara(before), action, _kamara(after), viewer, players)

    def words(self, before: GameState, action: str, after: GameState, viewer: int | None, outcome: bool = True) -> Text:
        """What a move did, without who did it (see :func:`move_words`)."""
        return move_words(_kamara(before), action, _kamara(after), viewer, outcome=outcome)

    def round_end(self, before: GameState, after: GameState, players: Sequence[PlayerInfo]) -> RenderableType | None:
        """Nothing: a new round is told in the move lines, and nobody has to press Enter for it."""
        return None

    def round_start(self, state: GameState, players: Sequence[PlayerInfo]) -> RenderableType | None:
        """At the very start: how the setup goes; at any start, on a small terminal, the size the full layout
        needs."""
        kamara = _kamara(state)
        note = SizeNote("the chamber", FULL_SIZE)
        if kamara.phase != "tiles" or len(kamara.pool) < len(kamara.components.tiles):
            return note  # nothing to say on a terminal big enough
        return Group(
            note,
            Rule("Setup", style="bold cyan"),
            Text(
                f"Everyone has drawn a secret yellow card. The elder, {players[kamara.elder].label}, places the first "
                "tile; then each player to the left places one until the chamber is complete. Then everyone "
                "chooses a diwa."
            ),
        )

    def game_end(self, state: GameState, players: Sequence[PlayerInfo]) -> RenderableType:
        """How the game ended, the ranking by matched cards, and the winners."""
        kamara = _kamara(state)
        target, scores = kamara.options["target_matches"], kamara.scores
        if any(score >= target for score in scores):
            how = f"{players[kamara.winners[0]].label} matched {target} yellow cards."
        elif not kamara.yellow_deck:
            how = "The yellow deck ran out: the most matched cards win."
        else:
            how = f"After {kamara.round} rounds the game stops: the most matched cards win."
        table = Table(box=None, pad_edge=False, padding=(0, 1))
        for name in ("Rank", "Diwa", "Player", "Matched"):
            table.add_column(name)
        for seat in sorted(range(len(players)), key=lambda s: (-scores[s], s)):
            rank = 1 + sum(1 for other in scores if other > scores[seat])
            style = "bold green" if seat in kamara.winners else ""
            cards = " ".join(map(card_id, kamara.matched[seat]))
            label = Text(players[seat].label, style=style)
            table.add_row(f"{rank}.", tag(colour_of(kamara, seat)), label, f"{scores[seat]} {cards}")
        winners = [players[seat] for seat in kamara.winners]
        if len(winners) == 1:
            line = "You win!" if winners[0].is_you else f"{winners[0].label} wins."
        else:
            line = "Shared win: " + ", ".join(w.label for w in winners)
            line += " — you share the win!" if any(w.is_you for w in winners) else "."
        seen = kamara.public_observation()
        diwa = {square_index(square): colour for colour, square in seen["diwa"].items()}
        summary = Group(Text(how), Text(), table, Text(), Text(line, style="bold green"))
        layout = layout_of(kamara)
        return Group(
            Rule("Game over", style="bold yellow"),
            Fitted(
                BesideOrBelow(board_text(layout, diwa, {}), summary),
                BesideOrBelow(board_text(layout, diwa, {}, compact=True), summary, panel_width=50, gap=2),
                FULL_SIZE,
            ),
        )


# -- short forms -----------------------------------------------------------------------------------------------


def _expand(words: list[str], state: KamaraState) -> list[str]:
    """Short forms as full action words: a bare direction moves, a bare square ports, effects need no ``play``…"""
    if not words:
        return words
    first = words[0]
    if len(words) == 1 and first.upper() in DIRECTIONS:
        words = ["move", first]
    elif len(words) == 1 and _is_square(first) and state.phase == "play":
        legal = state.legal_actions()
        tawag = state.space.by_text.get(f"play tawag {first}")
        words = (
            ["play", "tawag", first] if tawag in legal and f"port {first}" not in map(str, legal) else ["port", first]
        )
    elif first in EFFECTS or first == "ignore":
        words = ["play", *words]
    elif words == ["end", "turn"]:
        words = ["end"]
    elif state.phase == "tiles" and first in {tile.id for tile in state.components.tiles}:
        words = ["place", *words]
    elif state.phase == "diwa" and (first in COLOURS or first in _LETTER_COLOUR):
        words = ["diwa", *words]
    elif state.pending is not None and all(_is_card(word) for word in words):
        words = ["keep" if state.pending[0] == KEEP else "order", *words]
    for i in range(1, len(words)):
        if words[i - 1] in _NEEDS_COLOUR and words[i] in _LETTER_COLOUR:
            words[i] = _LETTER_COLOUR[words[i]]
    return words


def _place_hint(words: list[str], state: KamaraState) -> str:
    """Why ``place`` words name no action: a tile already placed, a tile in a slot of another kind, or the centre
    without a rotation or with one that is no quarter turn."""
    tiles = {tile.id: tile for tile in state.components.tiles}
    if words[:1] != ["place"] or len(words) < 3 or words[1] not in tiles or words[2].upper() not in SLOTS:
        return ""
    number = [tile.id for tile in state.components.tiles].index(words[1])
    placed = [slot for slot, tile in zip(SLOTS, state.tiles, strict=True) if tile is not None and tile[0] == number]
    if placed:
        return f"{words[1]} is already placed, in {placed[0]}"
    kind = tiles[words[1]].kind
    slots = " ".join(slot for slot, slot_kind in zip(SLOTS, SLOT_KIND, strict=True) if slot_kind == kind)
    if SLOT_KIND[SLOTS.index(words[2].upper())] != kind:
        return f"{words[1]} is {a(kind + ' tile')}: it goes into {a(kind + ' slot')} ({slots})"
    if kind == "centre" and len(words) == 4:
        return f"the centre tile also takes a rotation: place {words[1]} C {words[3].upper()} 0 (or 90, 180, 270)"
    if len(words) == 5 and words[3].upper() in ("A", "B") and kind == "centre":
        return f"the rotation is 0, 90, 180 or 270 (degrees clockwise), e.g. place {words[1]} C {words[3].upper()} 90"
    if len(words) == 5 and words[3].upper() in ("A", "B"):
        return f"only the centre tile takes a rotation: place {words[1]} {words[2].upper()} {words[3].upper()}"
    return f"the form is {_FORMS['place']}"


def _is_square(word: str) -> bool:
    return len(word) == 2 and word[0] in FILES and word[1] in "123456789"


def _is_card(word: str) -> bool:
    return len(word) == 3 and word[0] == "y" and word[1:].isdigit()


# -- what happened, in words -----------------------------------------------------------------------------------


def _paltik_now(state: KamaraState, slot: int) -> str:
    placed = state.tiles[slot]
    assert placed is not None
    return f"paltik now {state.components.tiles[placed[0]].faces[placed[1]].paltik}"


def describe_move(
    before: KamaraState, text: str, after: KamaraState, viewer: int | None, players: Sequence[PlayerInfo]
) -> RenderableType:
    """One line saying who did what (then what follows by itself: the next setup step, a new turn)."""
    actor = before.current_player
    if actor is None:
        return Text(text)
    colour = colour_of(after, actor)
    line = Text.assemble(*((diwa_tag(colour), " ") if colour else ()), (players[actor].label, "bold"), " ")
    line.append_text(move_words(before, text, after, viewer, you=players[actor].label == "You"))
    return Group(line, *_afterwards(before, after, viewer, players))


def move_words(
    before: KamaraState, text: str, after: KamaraState, viewer: int | None, you: bool = False, outcome: bool = True
) -> Text:
    """What a move did, without who did it (``you``: "place", else "places"): the cards it names only to their
    owner (``viewer``, or everyone in a replay), and what it drew or showed only when ``outcome`` is true.

    >>> from laro.games.kamara import GAME
    >>> state = GAME.new_game(2, seed=5, options={"elder": 0})
    >>> move_words(state, "place sulok NW B", state.apply("place sulok NW B"), None).plain
    'places sulok in NW, face B (paltik dark)'
    """
    actor = before.current_player
    if actor is None:
        return Text(text)
    action = before.space.parse(text)
    knows = viewer is None or viewer == actor  # may see the actor's private cards
    told = knows and outcome  # and the cards the move drew or showed

    def verb(base: str, third: str) -> str:
        return base if you else third

    their = "your" if you else "their"
    line = Text()
    kind, args = action.kind, action.args
    there = square_name(after.diwa[actor]) if after.diwa[actor] >= 0 else ""
    if kind == PLACE:
        tile = before.components.tiles[args[0]]
        how = f"its logo pointing {_POINTS[args[3]]} {ARROWS[args[3]]}" if len(args) > 3 else ""
        how = how or f"paltik {tile.faces[args[2]].paltik}"
        line.append(f"{verb('place', 'places')} {tile.id} in {SLOTS[args[1]]}, face {'AB'[args[2]]} ({how})")
    elif kind == DIWA:
        line.append(f"{verb('take', 'takes')} the {COLOURS[args[0]]} diwa and {verb('set', 'sets')} it on {there}")
    elif kind == MOVE:
        line.append(f"{verb('move', 'moves')} {DIRECTIONS[args[0]]} to {there}")
    elif kind == FLIP:
        slot = before.geometry.paltik_slot[before.diwa[actor]]
        line.append(f"{verb('flip', 'flips')} the {SLOTS[slot]} tile ({_paltik_now(after, slot)})")
        if before.green[actor] < 0 <= after.green[actor]:
            line.append(f" and {verb('draw', 'draws')} a green card")
            line.append(f": {EFFECTS[after.green[actor]]}" if told else "", style="bold green")
    elif kind == MATCH:
        line.append(f"{verb('match', 'matches')} {card_id(after.matched[actor][-1])}!", style="bold green")
        line.append(f" ({len(after.matched[actor])} of {before.options['target_matches']})")
        line.append(f" — {verb('you win', 'and wins')}!" if after.is_over else "", style="bold green")
    elif kind == EXCHANGE:
        line.append(f"{verb('exchange', 'exchanges')} {their} yellow card for the top of the deck")
        line.append(f" ({card_id(before.yellow[actor])} → {card_id(after.yellow[actor])})" if told else "")
    elif kind == PORT:
        line.append(f"{verb('port', 'ports')} from {square_name(before.diwa[actor])} to {there}")
    elif kind == POKE:
        moved = before.seat_of_colour(args[0])
        line.append(f"{verb('poke', 'pokes')} ")
        line.append_text(tag(COLOURS[args[0]]))
        line.append(f" from {square_name(before.diwa[moved])} to {square_name(after.diwa[moved])}")
    elif kind == END:
        unused = before.actions_left
        line.append(f"{verb('end', 'ends')} {their} turn")
        line.append(f" ({counted(unused, 'action')} unused)" if unused else "", style="dim")
    elif kind in (ORDER, KEEP):  # they name cards: the others hear only the word
        words = (text if knows else public_text(action)).split()
        if kind == KEEP:
            kept = words[1] if knows else "one yellow card"
            line.append(f"{verb('keep', 'keeps')} {kept}; the others go to the bottom of the yellow deck")
        else:
            order = f", top first: {' '.join(words[1:])}" if knows else f" in an order of {their} choosing"
            line.append(f"{verb('put', 'puts')} the cards back{order}")
    else:
        _describe_play(line, before, action, after, (knows, told), verb, their)
    return line


def _describe_play(
    line: Text,
    before: KamaraState,
    action: KamaraAction,
    after: KamaraState,
    sees: tuple[bool, bool],
    verb: Callable[[str, str], str],
    their: str,
) -> None:
    """The words for ``play …``: the effect and what it did; ``sees``: whether the actor's own cards are told,
    and the cards the move showed."""
    knows, told = sees
    actor: int = before.current_player  # type: ignore[assignment]
    effect, args = action.text.split()[1], action.args
    if effect == "ignore":
        line.append(f"{verb('discard', 'discards')} {their} green card unused")
        line.append(f" ({EFFECTS[before.green[actor]]})" if knows else "", style="dim")
        return
    line.append(f"{verb('play', 'plays')} ")
    line.append(effect, style="bold green")
    if effect == "sigla":
        line.append(": 3 more actions this turn")
    elif effect == "pitik":
        line.append(f": flips the {SLOTS[args[0]]} tile ({_paltik_now(after, args[0])})")
    elif effect == "ikot":
        turns = after.tiles[CENTRE][2]  # type: ignore[index]
        way = "clockwise" if args[0] == 1 else "counter-clockwise"
        line.append(f": turns the centre tile {way}; the logo now points {_POINTS[turns]} {ARROWS[turns]}")
    elif effect == "palitan":
        line.append(f": swaps the {SLOTS[args[0]]} and {SLOTS[args[1]]} tiles")
        carried = [seat for seat in range(before.num_players) if before.diwa[seat] != after.diwa[seat]]
        line.append("; the diwa on them went along: " if carried else "; no diwa stood on them")
        for number, seat in enumerate(carried):
            line.append(", " if number else "")
            line.append_text(tag(colour_of(after, seat)))
            line.append(f" {square_name(before.diwa[seat])} → {square_name(after.diwa[seat])}")
    elif effect in ("tulak", "lipat"):
        seat = before.seat_of_colour(args[0])
        line.append(": pushes " if effect == "tulak" else ": trades places with ")
        line.append_text(tag(COLOURS[args[0]]))
        start, end = square_name(before.diwa[seat]), square_name(after.diwa[seat])
        steps = ", ".join(DIRECTIONS[d] for d in args[1:])
        line.append(f" {steps} ({start} → {end})" if effect == "tulak" else f" ({end} ↔ {start})")
    elif effect in ("tawag", "tagos"):
        how = "goes to the tapos" if effect == "tawag" else f"steps {DIRECTIONS[args[0]]}, through any wall, to"
        line.append(f": {how} {square_name(after.diwa[actor])}")
    elif effect == "kandado":
        line.append(f": locks the {SLOTS[args[0]]} tile until {their} next turn")
    elif effect == "silip":
        count = after.pending[1] if after.pending else 0
        line.append(f": looks at the top {counted(count, 'yellow card')}")
        line.append(": " + " ".join(map(card_id, after.yellow_deck[:count])) if told else "")
    elif effect == "panaginip":
        drawn = after.pending[1:] if after.pending else ()
        line.append(f": draws {counted(len(drawn) or 1, 'yellow card')}")
        line.append(": " + " ".join(map(card_id, drawn)) + " — keep one" if told and drawn else "")


def _afterwards(
    before: KamaraState, after: KamaraState, viewer: int | None, players: Sequence[PlayerInfo]
) -> list[RenderableType]:
    """What follows by itself: the setup's next step, a new turn and its yellow draw."""
    current = after.current_player
    if current is None:
        return []
    player = players[current]
    you = player.label == "You"
    lines: list[RenderableType] = []
    if before.phase == "tiles" and after.phase == "diwa":
        chooses = "choose" if you else "chooses"
        lines.append(Text(f"The chamber is complete. {player.label} {chooses} a diwa first; then to the right."))
    if after.phase != "play" or (before.phase == "play" and current == before.current_player):
        return lines
    if before.phase == "diwa":
        takes = "take" if you else "takes"
        lines.append(Text(f"Every diwa is placed. {player.label} {takes} the first turn; turns pass to the left."))
    if viewer is not None and current != viewer:  # your own turn is headed by the board
        heading = Text.assemble(
            f"Round {after.round} · ", tag(colour_of(after, current), name=False), f" {player.label}"
        )
        lines.append(Rule(heading, style="dim", align="left"))
    if before.yellow[current] < 0 <= after.yellow[current]:
        card = f": {card_id(after.yellow[current])}" if viewer in (None, current) else ""
        chip = tag(colour_of(after, current), name=False)
        lines.append(Text.assemble(chip, f" {player.label} {'draw' if you else 'draws'} a yellow card{card}"))
    return lines
