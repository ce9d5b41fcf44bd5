"""``undo`` in ``laro play``: a step back within your turn (Kamara's move, port and poke), refused where it
reveals something, and with ``--takebacks`` your last turn back — kept in the record and across ``--resume``."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from laro.bots import get_bot
from laro.cli.saved import load_resumable
from laro.core import make_rng, replay, traits_of
from laro.games.kamara import GAME as KAMARA

Run = Callable[..., Result]
KAMARA_STEPS = traits_of(KAMARA).steps
SHORT = {"max_rounds": 6, "actions_per_turn": 4}


def _args(records: Path, game: str, *extra: str, options: dict[str, int] | None = None) -> list[str]:
    pairs = [arg for key, value in (options or {}).items() for arg in ("-o", f"{key}={value}")]
    common = ["--players", "2", "--bots", "random", "--delay", "0", "--seed", "21", "--records", str(records)]
    return ["play", game, *common, *pairs, *extra]


def _word(action: str) -> str:
    return action.split(" ", 1)[0]


def test_kamara_steps_are_taken_back_and_the_rest_refused(run: Run, tmp_path: Path) -> None:
    """The person plays at random; after each step that revealed nothing they type undo, then the same step
    again; after anything else undo is refused. The bots play as the session seeds them, so the script knows the
    game in advance: the record holds exactly the actions in force."""
    state = KAMARA.new_game(2, seed=21, options=SHORT)
    bot, rng, person = get_bot("random", "kamara"), make_rng(21, "bot", 1), random.Random(3)
    lines: list[str] = []
    actions: list[str] = []
    taken = refused = 0
    while not state.is_over:
        if state.current_player == 1:
            action = str(bot.choose(state.observation(1), state.legal_actions(), rng))
        else:
            legal = [str(a) for a in state.legal_actions()]
            action = person.choice([a for a in legal if a != "end"] or legal)
            lines.append(action)
            if state.apply(action).current_player == 0:  # the turn goes on: undo is a step back, or refused
                lines.append("undo")
                if _word(action) in KAMARA_STEPS:
                    lines.append(action)
                    taken += 1
                else:
                    refused += 1
        state = state.apply(action)
        actions.append(action)
    assert taken > 10 and refused > 3
    result = run(*_args(tmp_path, "kamara", options=SHORT), input="\n".join(["undo", *lines, ""]))
    assert result.exit_code == 0, result.output[-3000:]
    output = " ".join(result.output.split())
    assert output.count("You take back move") + output.count("You take back p") == taken
    assert output.count("cannot be taken back: only a move, poke or port can") == refused
    assert "You have taken no step this turn. (takebacks need --takebacks)" in output  # the first undo
    (path,) = tmp_path.glob("*.json")
    record = load_resumable(path)
    assert record.actions == actions and not record.practice
    assert "practice" not in path.read_text()  # a game without takebacks: its record is as before


def test_a_lama_takeback_against_bots_is_recorded_and_survives_resume(run: Run, tmp_path: Path) -> None:
    """L.A.M.A. has no step to take back; with --takebacks the person's last turn comes back (the bot's move
    after it too); the record says it was a practice game, and a resumed game still takes turns back."""
    plain = run(*_args(tmp_path / "plain", "lama"), input="d\nundo\nundo turn\nexit\ny\n")
    said = " ".join(plain.output.split())
    assert "You have taken no step this turn. (takebacks need --takebacks)" in said
    assert "This game was started without takebacks: a game started with --takebacks" in said  # undo turn
    assert "table" not in said.lower()  # the terminal has no table
    records = tmp_path / "practice"
    first = run(*_args(records, "lama", "--takebacks"), input="d\nd\nundo\nundo turn\nundo\nexit\ny\n")
    assert first.exit_code == 0, first.output[-3000:]
    output = " ".join(first.output.split())
    assert "An unrated practice game" in output
    assert output.count("You take back your last turn") == 2
    assert "You have no turn to take back." in output  # the third undo: back at the start already
    (path,) = records.glob("*.json")
    record = load_resumable(path)
    assert record.practice and record.takebacks == 2
    assert len(record.actions) <= 1  # back at the game's start, or after the bot's first move if it began
    assert replay(record).current_player == 0
    shown = run("replay", str(path), "--all")
    assert "A practice game with takebacks (unrated): 2 turns taken back" in shown.output
    again = run("play", "lama", "--resume", str(path), "--delay", "0", input="d\nundo turn\nexit\ny\n")
    assert again.exit_code == 0, again.output[-3000:]
    assert "You take back your last turn" in " ".join(again.output.split())
    resumed = load_resumable(path)
    assert resumed.practice and resumed.takebacks == 3 and resumed.actions == record.actions
