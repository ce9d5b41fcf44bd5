"""``laro play lama``: whole games fed through standard input, wrong entries, help, interruptions, the record."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from laro.bots import base as bots_base
from laro.cli import play as play_module
from laro.cli import session as session_module
from laro.cli.saved import load_resumable
from laro.cli.views import GenericView
from laro.core import replay, result_of
from laro.games.lama import GAME

Run = Callable[..., Result]


def play_args(records: Path, *extra: str, bots: str = "random") -> list[str]:
    """Arguments for a quick game against ``bots`` (random ones by default) with no pause between moves."""
    return ["play", "lama", "--bots", bots, "--delay", "0", "--records", str(records), *extra]


def only_record(records: Path) -> Path:
    """The single record file written into ``records``."""
    files = sorted(records.glob("*.json"))
    assert len(files) == 1, files
    return files[0]


# every key the person might type, cycled: wrong ones are explained and asked again, so the game goes on
EVERY_KEY = "1\n2\n3\n4\n5\n6\nL\nd\nquit\n" * 150  # quit in full: q alone asks first


def test_a_whole_game_to_the_end(run: Run, tmp_path: Path) -> None:
    result = run(*play_args(tmp_path, "--players", "3", "--seed", "11", "-o", "end_score=15"), input=EVERY_KEY)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Round 1" in out and "your turn" in out
    assert "You played" in out and "is over" in out
    assert "Game over" in out and ("wins with" in out or "Shared win" in out or "You win" in out)
    path = only_record(tmp_path)
    assert f"saved to {path}" in out.replace("\n", "")
    record = load_resumable(path)
    final = replay(record)
    assert final.is_over
    assert record.result == result_of(final)
    assert record.seed == 11 and record.options["end_score"] == 15
    assert record.players == ["You", "Bot 1 (random)", "Bot 2 (random)"]


def test_a_whole_game_against_the_hard_search_bot(run: Run, tmp_path: Path) -> None:
    args = play_args(tmp_path, "-n", "3", "--seed", "5", "-o", "end_score=25", bots="hard")
    result = run(*args, input=EVERY_KEY)
    assert result.exit_code == 0, result.output
    assert "Bot 1 (hard)" in result.output and "Game over" in result.output
    record = load_resumable(only_record(tmp_path))
    assert replay(record).is_over and record.players == ["You", "Bot 1 (hard)", "Bot 2 (hard)"]
    assert "Round 2" in result.output  # a game of several rounds


def test_always_quitting_reaches_the_end(run: Run, tmp_path: Path) -> None:
    result = run(*play_args(tmp_path, "--seed", "3", "-o", "end_score=10", "--name", "Ana"), input="quit\n" * 40)
    assert result.exit_code == 0, result.output
    assert "Ana (you) quit the round" in result.output
    assert "Game over" in result.output
    assert replay(load_resumable(only_record(tmp_path))).is_over


def _human_starts(players: int = 3, seed: int = 5) -> tuple[int, list[str]]:
    """The seat that starts the game of ``seed``, and its first legal actions."""
    state = GAME.new_game(players, seed=seed)
    assert state.current_player is not None
    return state.current_player, [str(a) for a in state.legal_actions()]


def test_a_wrong_entry_is_explained_and_asked_again(run: Run, tmp_path: Path) -> None:
    seat, legal = _human_starts()
    illegal = next(f"play {card}" for card in "123456L" if f"play {card}" not in legal)
    entries = f"banana\n{illegal}\n{legal[0]}\n"
    result = run(*play_args(tmp_path, "--players", "3", "--seed", "5", "--seat", str(seat)), input=entries)
    out = result.output
    assert "'banana' is not a move here" in out
    assert f"{illegal} is not allowed" in out
    said = {"draw": "You drew a card", "quit": "You quit the round"}.get(legal[0], "You played")
    assert said in out
    assert load_resumable(only_record(tmp_path)).actions[0] == legal[0]


def test_short_forms_and_full_texts(run: Run, tmp_path: Path) -> None:
    seat, _ = _human_starts()
    result = run(*play_args(tmp_path, "--players", "3", "--seed", "5", "--seat", str(seat)), input="Q\ny\n")
    assert "Quit this round? Your 6 cards will count against you. [y/N]" in result.output
    assert "You quit the round" in result.output
    assert load_resumable(only_record(tmp_path)).actions[0] == "quit"


def test_q_asks_before_quitting_the_round(run: Run, tmp_path: Path) -> None:
    """A lone q (in a replay it stops) asks first; no keeps you in the round, quit typed out is taken at once."""
    seat, _ = _human_starts()
    args = play_args(tmp_path, "--players", "3", "--seed", "5", "--seat", str(seat))
    result = run(*args, input="q\nn\n")
    assert result.output.count("Quit this round?") == 1 and "You quit the round" not in result.output
    assert load_resumable(only_record(tmp_path)).actions == []
    result = run(*args, input="quit\n")
    assert "Quit this round?" not in result.output and "You quit the round" in result.output


def test_help_and_rules_at_the_prompt(run: Run, tmp_path: Path) -> None:
    seat, _ = _human_starts()
    result = run(*play_args(tmp_path, "--players", "3", "--seed", "5", "--seat", str(seat)), input="help\nrules\n")
    out = result.output
    assert "L.A.M.A. in short" in out and "Commands" in out
    assert "Cards and tokens" in out  # a heading of the full rules


def test_end_of_input_saves_the_game_so_far(run: Run, tmp_path: Path) -> None:
    result = run(*play_args(tmp_path, "--seed", "8"), input="quit\n")
    assert result.exit_code == 1
    assert "Input ended" in result.output and "Unfinished game" in result.output
    record = load_resumable(only_record(tmp_path))
    assert "quit" in record.actions and record.result is None
    assert not replay(record).is_over


def test_ctrl_c_saves_the_game(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*_: object, **__: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(session_module, "ask", interrupt)
    result = run(*play_args(tmp_path, "--seed", "8"))
    assert result.exit_code == 130
    assert "Interrupted" in result.output
    assert load_resumable(only_record(tmp_path)).result is None


def test_exit_asks_then_stops(run: Run, tmp_path: Path) -> None:
    seat, _ = _human_starts()
    args = play_args(tmp_path, "--players", "3", "--seed", "5", "--seat", str(seat))
    result = run(*args, input="exit\nn\nexit\ny\n")
    assert result.exit_code == 0
    assert result.output.count("Stop the game here?") == 2
    assert load_resumable(only_record(tmp_path)).actions == []


def test_the_seed_is_shown_only_at_the_end(run: Run, tmp_path: Path) -> None:
    seed = 987654321987
    result = run(*play_args(tmp_path, "--seed", str(seed), "-o", "end_score=5"), input="quit\n" * 40)
    out = result.output
    assert out.count(str(seed)) == 1
    assert out.index(str(seed)) > out.index("Game over")
    assert out.index(str(seed)) > out.index("saved to")


def test_the_seed_is_not_shown_when_interrupted(run: Run, tmp_path: Path) -> None:
    """An unfinished game can be resumed, so its seed (which reveals the cards) stays hidden."""
    seed = 123123123123
    out = run(*play_args(tmp_path, "--seed", str(seed)), input="quit\n").output
    assert str(seed) not in out
    assert "--resume" in out


def test_boxed_tokens_and_other_options(run: Run, tmp_path: Path) -> None:
    args = ["-o", "token_supply=boxed", "-o", "next_round_starter=ended_round", "-o", "end_score=12"]
    result = run(*play_args(tmp_path, "--players", "2", "--seed", "4", *args), input="quit\n" * 30)
    assert result.exit_code == 0, result.output
    options = json.loads(only_record(tmp_path).read_text())["options"]
    assert options == {
        "edition": "classic",
        "next_round_starter": "ended_round",
        "token_supply": "boxed",
        "end_score": 12,
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "2 to 6 players"),
        (["--seat", "4"], "your seat must be 0 to 3"),
        (["--bots", "random,random"], "one bot name for all 3 other seats"),
        (["--bots", "nosuch"], "no bot 'nosuch'"),
        (["-o", "nope=1"], "unknown option(s) nope"),
        (["-o", "end_score=zero"], "must be a whole number"),
        (["-o", "end_score"], "is not key=value"),
    ],
)
def test_bad_options_are_explained(run: Run, tmp_path: Path, args: list[str], message: str) -> None:
    result = run(*play_args(tmp_path, *args))
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not list(tmp_path.glob("*.json"))


def test_a_bot_that_cannot_be_loaded(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bots_base._BOTS, ("broken", "lama"), "laro.no_such_module:Bot")
    result = run(*play_args(tmp_path, "--bots", "broken"))
    assert result.exit_code == 2
    assert "bot 'broken' cannot be loaded" in result.output


def test_an_unknown_game_lists_the_games(run: Run, tmp_path: Path) -> None:
    result = run("play", "chess")
    assert result.exit_code == 2
    assert "unknown game 'chess'; known games: kamara, lama" in result.output


def test_record_names_are_readable_and_new(tmp_path: Path) -> None:
    from datetime import datetime

    moment = datetime(2025, 1, 31, 14, 5, 9)
    first = session_module.record_path(tmp_path, "lama", moment)
    assert first.name == "lama_2025-01-31_14-05-09.json"
    first.write_text("{}")
    assert session_module.record_path(tmp_path, "lama", moment).name == "lama_2025-01-31_14-05-09_2.json"


def test_other_hands_stay_hidden_during_play(run: Run, tmp_path: Path) -> None:
    out = run(*play_args(tmp_path, "--seed", "21", "-o", "end_score=15"), input=EVERY_KEY).output
    assert "Hand " not in out  # the replay's all-hands column never appears in play
    bot_draws = [line for line in out.splitlines() if line.startswith("Bot") and "drew a card" in line]
    assert bot_draws and all(line.rstrip().endswith("drew a card") for line in bot_draws)
    assert "You drew a card:" in out  # your own draw is shown to you


def test_a_game_without_its_own_view_is_played_by_numbers(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play_module, "view_for", GenericView)
    result = run(*play_args(tmp_path, "--players", "2", "--seed", "2", "-o", "end_score=10"), input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert '"hand"' in result.output and '"draw_pile"' not in result.output  # the observation, not the state
    assert "Winner(s):" in result.output
    assert replay(load_resumable(only_record(tmp_path))).is_over
