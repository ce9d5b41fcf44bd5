"""How L.A.M.A. looks in the terminal: cards as coloured tags, the table, moves, round and game summaries.

>>> from laro.games.lama import GAME
>>> state = GAME.new_game(2, seed=3)
>>> view = LamaView()
>>> [key for key, _ in view.choices(state)]
['6', 'd', 'q']
>>> view.parse("d", state), view.parse(" Play l ", state), view.parse("6", state)
('draw', 'play L', 'play 6')
>>> cards_text(["3", "4", "L"], playable=["4"]).plain
' 3  [4]  L '
>>> cards_text(["3+", "P"], playable=["3+"]).plain  # the Party Edition's plus card and pink llama
'[3+]  P '
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from laro.cli.views import PlayerInfo
from laro.cli.words import counted
from laro.core import GameState, MalformedActionError
from laro.games.lama import DRAW, QUIT, LamaState
from laro.games.lama.cards import ALL_CARD_TEXT, HAND_SIZE, LLAMA_POINTS, PINK, PINK_POINTS, PLUS
from laro.games.lama.scoring import RoundResult
from laro.games.lama.tokens import Tokens

__all__ = ["LamaView", "card_tag", "cards_text", "tokens_text"]

CARD_STYLES = {
    "1": "bold white on red3",
    "2": "bold black on orange3",
    "3": "bold black on yellow3",
    "4": "bold black on green3",
    "5": "bold white on dodger_blue2",
    "6": "bold white on medium_purple3",
    "L": "bold black on grey85",
    "P": "bold white on deep_pink2",  # the Party Edition's pink llama
}
PINK_STYLE = "bold deep_pink2"

HELP_MARKDOWN = """\
**L.A.M.A. in short.** Get rid of your cards. On your turn do one thing:

- **play** a card that is the *same* as the top of the discard pile or *one higher*
  (on a 6 a llama `L`, on a llama a 1);
- **draw** a card (not when the draw pile is empty or everyone else has quit);
- **quit** the round: your cards are laid down and count against you.

The round ends when someone plays their last card (they give back a token) or everyone has quit. Cards left
in hand cost their value, **each value only once**; any llamas cost 10. Tokens: black ● = 10, white ○ = 1.
After a round in which someone reaches the end score (40 unless changed), the fewest points win.

**Party Edition** (`--option edition=party`). A **plus card** (`3+`) is played like its number, and then
*you take another turn at once*. The **pink llama** `P` goes on any card; only a llama or a 1 may follow it.
Held at the end it costs 20 (with any llamas: 20 in all). Pink tokens ◆ = 20.

**Commands.** Type a card to play it (`3`, `L`, `3+`, `P`, or `play 3`), `d` or `draw`, `q` or `quit` (quit the
*round*).
The choices are listed before each move, with the key to type. `help` shows this, `rules` the full rules,
`exit` stops the game (it is saved: `laro play lama --resume FILE` continues it).
"""

_SHORT = {"d": "draw", "draw": "draw", "q": "quit", "quit": "quit"}
_CARD_WORDS = {text.lower(): text for text in ALL_CARD_TEXT} | {"llama": "L", "lama": "L", "pink": "P"}


def card_tag(card: str, playable: bool = False) -> Text:
    """One card as a coloured tag; a playable card is bracketed (``[3]``) so it stands out without colour too. A
    plus card (``3+``) has its number's colour and is drawn in italics, the pink llama (``P``) in pink."""
    style = CARD_STYLES.get(card.removesuffix("+"), "bold") + (" italic" if card.endswith("+") else "")
    return Text(f"[{card}]" if playable else f" {card} ", style=style + (" underline" if playable else ""))


def cards_text(cards: Iterable[str], playable: Iterable[str] = (), gap: str = " ") -> Text:
    """Cards as tags separated by ``gap``; ``—`` for no cards."""
    can_play = set(playable)
    tags = [card_tag(card, card in can_play) for card in cards]
    return Text(gap).join(tags) if tags else Text("—", style="dim")


def tokens_text(tokens: Tokens) -> Text:
    """Penalty tokens: the pink ones of the Party Edition (◆, 20 points), the black ones (●, 10 points) and white
    ones (○, 1 point) with their counts, plus points owed when a boxed supply ran out.

    >>> [part[0] for part in tokens_text(Tokens(white=3, black=1, pink=2)).plain.split()]
    ['◆', '●', '○']
    """
    parts = []
    if tokens.pink:
        parts.append(f"◆×{tokens.pink}")
    if tokens.black:
        parts.append(f"●×{tokens.black}")
    if tokens.white:
        parts.append(f"○×{tokens.white}")
    if tokens.owed:
        parts.append(f"+{tokens.owed} owed")
    if not parts:
        return Text("—", style="dim")
    text = Text(" ".join(parts))
    if tokens.pink:
        text.stylize(PINK_STYLE, 0, len(parts[0]))
    return text


def _lama(state: GameState) -> LamaState:
    if not isinstance(state, LamaState):
        raise TypeError(f"the L.A.M.A. view needs a L.A.M.A. state, not {type(state).__name__}")
    return state


def _playable(state: LamaState) -> list[str]:
    return [ALL_CARD_TEXT[action.card] for action in state.legal_actions() if action.card is not None]


def _another_turn(state: LamaState) -> bool:
    """Whether the player to move takes another turn: they have just played a plus card (Party Edition)."""
    return (
        state.current_player is not None
        and state.last_player == state.current_player
        and PLUS <= state.discard[-1] < PINK
        and len(state.discard) > 1
    )


def _cards(count: int) -> str:
    return counted(count, "card")


class LamaView:
    """The terminal view of L.A.M.A. (see :class:`laro.cli.views.GameView`)."""

    game = "lama"
    help_markdown = HELP_MARKDOWN

    # -- a turn -------------------------------------------------------------------------------------------

    def turn(self, state: GameState, viewer: int | None, players: Sequence[PlayerInfo]) -> RenderableType:
        """The round, the players' table, the discard and draw piles and (for a viewer) their hand."""
        lama = _lama(state)
        current = lama.current_player
        if current is None:
            heading = "game over"
        elif _another_turn(lama):
            played = ALL_CARD_TEXT[lama.discard[-1]]
            heading = f"another turn for {'you' if current == viewer else players[current].label} ({played} played)"
        elif current == viewer:
            heading = "your turn"
        else:
            heading = f"{players[current].label} to play"
        edition = " · Party Edition" if lama.party else ""
        parts: list[RenderableType] = [
            Rule(f"Round {lama.round}{edition} · {heading}", style="cyan"),
            self.table(lama, viewer, players),
            Text.assemble(
                "Discard pile: ",
                card_tag(lama.top_card),
                "    Draw pile: ",
                (_cards(lama.draw_pile_count), "bold"),
            ),
        ]
        if viewer is not None:
            playable = _playable(lama) if current == viewer else []
            parts.append(Text.assemble("Your hand:    ", cards_text(lama.hand(viewer), playable)))
        return Group(*parts)

    def table(self, state: LamaState, viewer: int | None, players: Sequence[PlayerInfo]) -> Table:
        """The players' table; with ``viewer=None`` (a replay) every hand is shown."""
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("", width=1)
        table.add_column("#", justify="right", style="dim")
        table.add_column("Player")
        if viewer is None:
            table.add_column("Hand")
        else:
            table.add_column("Cards", justify="right")
        table.add_column("Round")
        table.add_column("Points", justify="right")
        table.add_column("Tokens")
        sizes = state.hand_sizes()
        for seat, player in enumerate(players):
            to_play = seat == state.current_player
            status = Text("quit", style="dim") if state.has_quit(seat) else Text("in")
            row: list[RenderableType] = [
                Text("▶", style="bold cyan") if to_play else "",
                str(seat),
                Text(player.label, style="bold" if to_play else ""),
            ]
            if viewer is None:  # every hand, compact (the colours tell the cards apart)
                row.append(cards_text(state.hand(seat), _playable(state) if to_play else (), gap=""))
            else:
                row.append(str(sizes[seat]))
            row += [status, str(state.scores[seat]), tokens_text(state.tokens_of(seat))]
            table.add_row(*row)
        return table

    # -- reading a move -----------------------------------------------------------------------------------

    def choices(self, state: GameState) -> list[tuple[str, str]]:
        """The legal actions keyed by what to type: the card (``3``, ``L``), ``d`` or ``q``."""
        pairs = []
        legal = _lama(state).legal_actions()
        for action in legal:
            if action.card is not None:
                pairs.append((ALL_CARD_TEXT[action.card], str(action)))
            elif action is DRAW:
                pairs.append(("d", "draw"))
            elif len(legal) == 1:
                pairs.append(("q", "quit the round (you can neither play nor draw)"))
            else:
                pairs.append(("q", "quit the round"))
        return pairs

    def parse(self, text: str, state: GameState) -> str:
        """The action meant by a card (``3``, ``L``, ``3+``, ``P``, ``play 3``, ``p3``), ``d``/``draw`` or
        ``q``/``quit``."""
        words = text.lower().split()
        if len(words) == 2 and words[0] in ("play", "p"):
            words = words[1:]
        elif len(words) == 1 and words[0].startswith("p") and words[0][1:] in _CARD_WORDS:
            words = [words[0][1:]]  # "p3", "pl"
        word = " ".join(words)
        if word in _SHORT:
            return _SHORT[word]
        if word in _CARD_WORDS:
            return f"play {_CARD_WORDS[word]}"
        keys = ", ".join(key for key, _ in self.choices(state))
        raise MalformedActionError(f"{text.strip()!r} is not a move here; type one of {keys} (or help)")

    def confirmation(self, typed: str, action: str, state: GameState) -> str | None:
        """A question before ``q`` quits the round (in a replay ``q`` stops): ``quit`` typed out is taken at once,
        and so is ``q`` when quitting is all that is left."""
        if action != str(QUIT) or typed.strip().lower() != "q" or len(_lama(state).legal_actions()) == 1:
            return None
        held = _cards(_lama(state).hand_sizes()[_lama(state).current_player or 0])
        return f"Quit this round? Your {held} will count against you. [y/N]"

    # -- what happened ------------------------------------------------------------------------------------

    def move(
        self, before: GameState, action: str, after: GameState, viewer: int | None, players: Sequence[PlayerInfo]
    ) -> RenderableType:
        """Who did what: played a card, drew (the card shown only to its owner, or in a replay) or quit."""
        old, new = _lama(before), _lama(after)
        actor = old.current_player
        if actor is None:
            return Text(action)
        line = Text.assemble((players[actor].label, "bold"), " ")
        line.append_text(self.words(before, action, after, viewer))
        if action == str(QUIT):
            if viewer == actor and not new.is_over and new.round == old.round:
                line.append(" — the others play the round out; press Enter to skip ahead", style="dim")
        elif action != str(DRAW):
            if old.hand_sizes()[actor] == 1:
                line.append(f" — {_their(players[actor])} last card!", style="bold")
            elif _another_turn(new) and new.round == old.round:
                who = "you take" if _is_you(players[actor]) else f"{players[actor].label} takes"
                line.append(f" — a plus card: {who} another turn", style="bold")
        return line

    def words(self, before: GameState, action: str, after: GameState, viewer: int | None, outcome: bool = True) -> Text:
        """What a move did, without who did it: ``played 3``, ``drew a card`` (``: 5`` to its owner or in a
        replay, unless ``outcome`` is false: the card drawn is not told), ``quit the round (holding 2 cards)``.

        >>> from laro.games.lama import GAME
        >>> state = GAME.new_game(2, seed=3)
        >>> view = LamaView()
        >>> view.words(state, "draw", state.apply("draw"), None).plain.split()
        ['drew', 'a', 'card:', '2']
        >>> view.words(state, "draw", state.apply("draw"), None, outcome=False).plain
        'drew a card'
        >>> view.words(state, "quit", state.apply("quit"), 0).plain
        'quit the round (holding 6 cards)'
        """
        old, new = _lama(before), _lama(after)
        actor = old.current_player
        if actor is None:
            return Text(action)
        if action == str(DRAW):
            line = Text("drew a card")
            if outcome and (viewer is None or viewer == actor):
                drawn = Counter(new.hand(actor)) - Counter(old.hand(actor))
                line.append(": ")
                line.append_text(cards_text(drawn.elements()))
            return line
        if action == str(QUIT):
            return Text.assemble("quit the round", (f" (holding {_cards(old.hand_sizes()[actor])})", "dim"))
        return Text.assemble("played ", card_tag(action.removeprefix("play ")))

    def round_end(self, before: GameState, after: GameState, players: Sequence[PlayerInfo]) -> RenderableType | None:
        """The round summary, if the move from ``before`` to ``after`` ended a round."""
        result = _lama(after).last_round
        if result is None or result is _lama(before).last_round:
            return None
        return self.round_summary(result, _lama(after), players)

    def round_summary(self, result: RoundResult, after: LamaState, players: Sequence[PlayerInfo]) -> Group:
        """The scoring of a finished round: cards left, penalties, the token given back, totals."""
        hands = result.to_json()["hands"]
        if result.emptied is not None:
            who = players[result.emptied].label
            token = {
                PINK_POINTS: "a pink token ◆ (−20)",
                10: "a black token ● (−10)",
                1: "a white token ○ (−1)",
            }.get(result.returned)
            player = players[result.emptied]
            gives = "give" if _is_you(player) else "gives"
            how = f"{who} played {_their(player)} last card" + (
                f" and {gives} back {token}." if token else " (no token to give back)."
            )
        else:
            last = players[result.ended_by]
            how = f"Everyone quit; {'you' if _is_you(last) else last.label} quit last."
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("Player")
        table.add_column("Cards left")
        table.add_column("Penalty", justify="right")
        table.add_column("Total", justify="right")
        table.add_column("Tokens")
        for seat, player in enumerate(players):
            if seat == result.emptied:
                penalty = Text(f"−{result.returned}" if result.returned else "0", style="green")
            else:
                penalty = Text(f"+{result.penalties[seat]}", style="red" if result.penalties[seat] else "")
            table.add_row(
                player.label,
                cards_text(hands[seat]),
                penalty,
                Text(str(result.scores[seat]), style="bold"),
                tokens_text(after.tokens_of(seat)),
            )
        llamas = f"any llamas count {LLAMA_POINTS}"
        if after.party:
            llamas += f", {PINK_POINTS} with the pink llama; a plus card counts as its number"
        note = Text(f"Each value left in hand counts once; {llamas}.", style="dim")
        return Group(Rule(f"Round {result.round} is over", style="yellow"), Text(how), table, note)

    def round_start(self, state: GameState, players: Sequence[PlayerInfo]) -> RenderableType | None:
        """The heading of a round: its number, the card the discard pile started with, who started; for a round
        already under way (a resumed game) in the past tense."""
        lama = _lama(state)
        if lama.is_over:
            return None
        first = card_tag(ALL_CARD_TEXT[lama.discard[0]])
        starter = (players[lama.starter].label, "bold")
        untouched = all(size == HAND_SIZE for size in lama.hand_sizes()) and len(lama.discard) == 1
        if untouched and not any(lama.has_quit(seat) for seat in range(lama.num_players)):
            intro = Text.assemble(
                f"Everyone gets {HAND_SIZE} cards. The discard pile starts with ",
                first,
                ". ",
                starter,
                " start." if _is_you(players[lama.starter]) else " starts.",
            )
        else:
            intro = Text.assemble(
                f"The round is under way. It started with {HAND_SIZE} cards each and ",
                first,
                " on the discard pile; ",
                starter,
                " started.",
            )
        return Group(Rule(f"Round {lama.round}", style="bold cyan"), intro)

    def game_end(self, state: GameState, players: Sequence[PlayerInfo]) -> RenderableType:
        """The final ranking (shared ranks for equal points) and the winners."""
        lama = _lama(state)
        scores = lama.scores
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("Rank", justify="right")
        table.add_column("Player")
        table.add_column("Points", justify="right")
        table.add_column("Tokens")
        for seat in sorted(range(len(players)), key=lambda s: (scores[s], s)):
            rank = 1 + sum(1 for other in scores if other < scores[seat])
            style = "bold green" if seat in lama.winners else ""
            table.add_row(
                f"{rank}.", Text(players[seat].label, style=style), str(scores[seat]), tokens_text(lama.tokens_of(seat))
            )
        return Group(
            Rule("Game over", style="bold yellow"),
            _ending_line(lama, players),
            table,
            _winners_line([players[seat] for seat in lama.winners], scores[lama.winners[0]] if lama.winners else 0),
        )


def _is_you(player: PlayerInfo) -> bool:
    """Whether the player is called "You" on screen (and so takes "you play", not "plays")."""
    return player.label == "You"


def _their(player: PlayerInfo) -> str:
    return "your" if _is_you(player) else "their"


def _ending_line(state: LamaState, players: Sequence[PlayerInfo]) -> Text:
    top = max(state.scores)
    reached = [
        "you" if _is_you(players[seat]) else players[seat].label
        for seat, points in enumerate(state.scores)
        if points == top
    ]
    rounds = counted(state.round, "round")
    return Text(
        f"After {rounds}, {' and '.join(reached)} reached {top} points (the game ends at {state.options['end_score']})."
    )


def _winners_line(winners: Sequence[PlayerInfo], points: int) -> Text:
    if not winners:
        return Text("No winner.")
    if len(winners) == 1:
        winner = winners[0]
        if winner.is_you:
            return Text(f"You win with {_points(points)}!", style="bold green")
        return Text(f"{winner.label} wins with {_points(points)}.", style="bold green")
    names = ", ".join(w.label for w in winners[:-1]) + f" and {winners[-1].label}"
    you = " — you share the win!" if any(w.is_you for w in winners) else ""
    return Text(f"Shared win: {names}, with {_points(points)} each{you}", style="bold green")


def _points(points: int) -> str:
    return counted(points, "point")
