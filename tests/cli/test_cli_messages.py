"""What the terminal says when something is off: damaged files, bracketed text, resumed rounds, progress."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.console import Console

from laro.cli.bench import render
from laro.cli.lama_view import LamaView
from laro.cli.tournament import tournament
from laro.cli.views import PlayerInfo
from laro.core import GameRecord
from laro.games.lama import CARD_TEXT, GAME
from laro.sim.bench import BenchReport

Run = Callable[..., Result]
MakeRecord = Callable[..., Path]
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00\xff\xfe\xfa"


@pytest.mark.parametrize("command", [("replay",), ("play", "lama", "--resume")])
def test_a_file_that_is_not_text_is_one_clear_line(run: Run, tmp_path: Path, command: tuple[str, ...]) -> None:
    path = tmp_path / "picture.png"
    path.write_bytes(PNG)
    result = run(*command, str(path))
    assert result.exit_code in (1, 2)
    assert "Traceback" not in result.output and "UnicodeDecodeError" not in result.output
    assert "is not a game record: it is not text" in result.output
    assert path.read_bytes() == PNG


def test_the_exit_confirmation_shows_its_choices(run: Run, tmp_path: Path) -> None:
    args = ["play", "lama", "-n", "2", "--bots", "random", "--delay", "0", "--seed", "4", "--records", str(tmp_path)]
    result = run(*args, input="exit\ny\n")
    assert "Stop the game here? It is saved, to be continued with --resume. [y/N]" in result.output


def test_bench_notes_keep_their_brackets() -> None:
    report = BenchReport(game="lama", players=4, seconds=1.0, machine="test [2 cores]")
    report.notes.append("rlcard is not installed: pip install 'laro[bench]' adds its UNO engine as a baseline")
    console = Console(file=io.StringIO(), width=200)
    render(report, console)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "pip install 'laro[bench]'" in out and "test [2 cores]" in out


def test_a_resumed_round_names_the_card_it_started_with(run: Run, tmp_path: Path) -> None:
    state = GAME.new_game(3, seed=5)
    record = GameRecord.start(
        state, 5, players=["You", "Bot 1 (random)", "Bot 2 (random)"], bots={1: "random", 2: "random"}
    )
    while len(state.discard) < 3:  # play a card whenever one can be played, else draw
        action = str(state.legal_actions()[0])
        state = state.apply(action)
        record.actions.append(action)
    path = record.save(tmp_path / "mid.json")
    first, top = CARD_TEXT[state.discard[0]], state.top_card
    assert state.round == 1 and first != top
    result = run("play", "lama", "--resume", str(path), "--delay", "0", input="exit\ny\n")
    out = " ".join(result.output.split())
    assert f"The round is under way. It started with 6 cards each and {first} on the discard pile" in out
    assert "The discard pile starts with" not in out


def test_a_bad_bot_in_a_record_is_blamed_on_the_record(run: Run, make_record: MakeRecord) -> None:
    path = make_record(moves=3)
    data = json.loads(path.read_text())
    data["bots"] = {"1": "random", "2": "grandmaster"}
    path.write_text(json.dumps(data))
    result = run("play", "lama", "--resume", str(path))
    assert result.exit_code == 2
    assert "--resume" in result.output and "--bots" not in result.output
    assert "names a bot this laro cannot play" in result.output and "grandmaster" in result.output


def test_the_tournament_progress_labels_elapsed_and_left() -> None:
    args = ["lama", "--bots", "heuristic,random", "--games", "4", "--seed", "1", "--jobs", "1"]
    result = CliRunner().invoke(tournament, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "elapsed 0:00:0" in result.stderr and "· left" in result.stderr


def test_a_card_on_a_llama_reads_as_spoken() -> None:
    state = GAME.new_game(2, seed=3)
    data = state.to_json()
    data["draw_pile"].remove("L")  # a llama from the draw pile goes on the discard pile
    data["discard_pile"] = [*data["discard_pile"], "L"]
    on_llama = GAME.from_json(data)
    held = next(card for card in on_llama.hand(on_llama.current_player or 0) if card not in ("1", "L"))
    with pytest.raises(ValueError, match=f"a {held} cannot go on a llama"):
        on_llama.apply(f"play {held}")


def test_the_ending_line_speaks_to_you_in_lower_case() -> None:
    for seed in range(1, 40):  # the first seed after which you hold the most points
        state = GAME.new_game(2, seed=seed, options={"end_score": 1})
        while not state.is_over:
            state = state.apply("quit")
        if state.scores[0] > state.scores[1]:
            break
    assert state.scores[0] > state.scores[1]
    players = [PlayerInfo("You", is_you=True), PlayerInfo("Bot 1 (random)")]
    console = Console(file=io.StringIO(), width=200)
    console.print(LamaView().game_end(state, players))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert f"After 1 round, you reached {state.scores[0]} points" in out


def test_watching_the_bots_shows_a_round_after_the_summary_of_the_last(run: Run, tmp_path: Path) -> None:
    args = ["play", "lama", "-n", "3", "--bots", "random", "--delay", "0.001", "--seed", "6"]
    result = run(*args, "--records", str(tmp_path), input="quit\n" * 60)
    out = result.output
    assert result.exit_code == 0 and "Round 2 ·" in out
    assert out.index("Round 1 is over") < out.index("Round 2 ·")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_rules_speak_of_tokens_without_formulas(lang: str) -> None:
    text = GAME.rules_text(lang)
    assert "//" not in text and "S %" not in text
    assert ("27 points are 2 black and 7 white" if lang == "en" else "27점은 검정 2개와 하얀 7개") in text
