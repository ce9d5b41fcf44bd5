"""The L.A.M.A. Party Edition in the terminal: a whole game typed in, plus cards and the pink llama drawn
distinctly, "another turn" said plainly, pink tokens, and its own rules page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from rich.console import Console
from tests.cli.test_cli_play import only_record, play_args
from tests.lama.test_rules import build

from laro.cli.lama_view import LamaView, card_tag, tokens_text
from laro.cli.saved import load_resumable
from laro.cli.views import PlayerInfo
from laro.core import replay
from laro.games.lama.tokens import Tokens

Run = Callable[..., Result]
PARTY_KEYS = "1\n1+\n2\n2+\n3\n3+\n4\n4+\n5\n5+\n6\n6+\nL\nP\nd\nquit\n" * 150
PLAYERS = [PlayerInfo("You", True), PlayerInfo("Bot 1 (heuristic)", False)]


def _text(renderable: object) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_a_whole_party_game_typed_in(run: Run, tmp_path: Path) -> None:
    args = play_args(tmp_path, "-n", "3", "--seed", "6", "-o", "edition=party", "-o", "end_score=20", bots="heuristic")
    result = run(*args, input=PARTY_KEYS)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())  # the terminal wraps at 80 columns
    assert "Party Edition" in out and "Game over" in out
    assert "a plus card: Bot 2 (heuristic) takes another turn" in out
    record = load_resumable(only_record(tmp_path))
    assert record.options["edition"] == "party" and replay(record).is_over
    assert any("+" in action or action == "play P" for action in record.actions)


def test_plus_cards_and_the_pink_llama_are_drawn_distinctly() -> None:
    assert card_tag("3+").plain == " 3+ " and "italic" in str(card_tag("3+").style)
    assert card_tag("P").plain == " P " and "deep_pink" in str(card_tag("P").style)
    assert card_tag("3").style != card_tag("3+").style
    assert tokens_text(Tokens(white=2, pink=1)).plain.startswith("◆×1")


def test_another_turn_is_said_plainly() -> None:
    view = LamaView()
    state = build(["3+45", "11"], "3", options={"edition": "party"})
    after = state.apply("play 3+")
    assert "a plus card: you take another turn" in _text(view.move(state, "play 3+", after, 0, PLAYERS))
    assert "another turn for you (3+ played)" in _text(view.turn(after, 0, PLAYERS))
    assert [key for key, _ in view.choices(after)] == ["4", "d", "q"]
    assert (
        view.parse("3+", state) == "play 3+"
        and view.parse("p", build(["P4", "11"], "3", options={"edition": "party"})) == "play P"
    )


def test_the_round_summary_gives_back_a_pink_token() -> None:
    view = LamaView()
    state = build(["5", "PL3"], "4", scores=[25, 0], options={"edition": "party"})
    after = state.apply("play 5")
    text = _text(view.round_end(state, after, PLAYERS))
    assert "a pink token ◆ (−20)" in text and "+23" in text and "20 with the pink llama" in text


def test_the_party_rules_page(run: Run) -> None:
    result = run("rules", "lama", "--option", "edition=party")
    assert result.exit_code == 0 and "Party Edition" in result.output and "pink llama" in result.output
    korean = run("rules", "lama", "-o", "edition=party", "--lang", "ko")
    assert korean.exit_code == 0 and "분홍 라마" in korean.output
    assert "Party Edition — rules" not in run("rules", "lama").output
    refused = run("rules", "lama", "-o", "edition=fun")
    assert refused.exit_code != 0 and "must be one of classic, party" in refused.output
