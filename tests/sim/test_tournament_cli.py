"""``laro tournament``: the table and what it means, checks before anything is played or written, resuming a
file, and a real run killed with SIGKILL and started again."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from laro.cli.main import cli
from laro.sim.executors import get_executor
from laro.sim.tournament import Tournament, run_tournament, summarize


def laro(*args: str) -> Result:
    return CliRunner().invoke(cli, ["tournament", *args], catch_exceptions=False)


def flat(text: str) -> str:
    """``text`` with every run of whitespace one space (the console wraps long lines)."""
    return " ".join(text.split())


def test_the_table_and_its_meaning() -> None:
    result = laro("lama", "--bots", "heuristic,random,random,random", "--games", "40", "--seed", "1", "--jobs", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "lama: 4 players, 40 games, seed 1" in out
    for header in ("bot", "games", "wins", "win rate", "95% CI", "fair", "share", "avg", "score", "rating"):
        assert header in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if len(line.split()) == 8}
    assert rows["heuristic"][1] == "40" and rows["random"][1] == "120"  # seat-games
    assert rows["heuristic"][5] == "25.0%"  # the fair share of four players
    assert "heuristic is best: it won" in out and "the fair share of 25.0%" in flat(out)
    assert "40/40" in result.stderr  # the progress bar, on stderr


def test_piped_the_table_is_whole_and_says_how_it_rates() -> None:
    """Not a terminal (as when piped): no column cut or wrapped at 80 characters."""
    result = laro("lama", "--bots", "heuristic,random,random,random", "--games", "8", "--seed", "1", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    header = next(line for line in result.stdout.splitlines() if line.split()[:1] == ["bot"])
    assert header.split("  ")[-1].strip() == "rating" and "fair share" in header and "avg score" in header
    assert "…" not in result.stdout
    assert "rating: Bradley–Terry fit of all games at once (choix), Elo scale, mean 1500" in result.stdout


def test_the_summary_as_json() -> None:
    args = ("lama", "--bots", "heuristic,random,random,random", "--games", "8", "--seed", "1", "-j", "1")
    result = laro(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)  # nothing else on standard output
    assert summary["games"] == 8 and summary["seed"] == 1 and summary["rating_method"].startswith("Bradley–Terry")
    by_bot = {standing["bot"]: standing for standing in summary["standings"]}
    assert by_bot["heuristic"]["games"] == 8 and by_bot["random"]["games"] == 24
    assert by_bot["heuristic"]["wins"] + by_bot["random"]["wins"] == pytest.approx(8)
    assert "8/8" in result.stderr and "lama: heuristic" in result.stderr  # progress and notes on standard error


def test_without_the_ratings_extra_the_table_says_how_to_get_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "choix", None)  # as if not installed
    result = laro("lama", "--bots", "heuristic,random", "--games", "4", "--seed", "1", "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    header = next(line for line in result.stdout.splitlines() if line.split()[:1] == ["bot"])
    assert header.split()[-2:] == ["avg", "score"] and "pip install 'laro[ratings]'" in result.stdout


def test_quiet_shows_no_progress() -> None:
    result = laro("lama", "--bots", "heuristic,random", "--games", "6", "--seed", "1", "-j", "1", "--quiet")
    assert result.exit_code == 0 and result.stderr == ""
    assert "heuristic" in result.stdout


def test_a_fresh_seed_is_printed_and_recorded(tmp_path: Path) -> None:
    out = tmp_path / "fresh.jsonl"
    first = laro("lama", "--bots", "random,heuristic", "--games", "5", "--out", str(out), "-j", "1")
    assert first.exit_code == 0, first.output
    seed = json.loads(out.read_text().splitlines()[0])["seed"]
    assert f"seed {seed} (a fresh one: give --seed to repeat this run)" in first.stdout
    again = laro("lama", "--bots", "random,heuristic", "--out", str(out))  # the file's seed and games
    assert again.exit_code == 0, again.output
    assert "already holds all 5 games" in again.stdout and f"seed {seed}" in again.stdout


def test_resuming_plays_only_what_is_missing(tmp_path: Path) -> None:
    out = tmp_path / "grow.jsonl"
    laro("lama", "--bots", "heuristic,random", "--games", "8", "--seed", "3", "--out", str(out), "-j", "1")
    result = laro("lama", "--bots", "heuristic,random", "--games", "20", "--seed", "3", "--out", str(out))
    assert "resuming" in result.stdout and "8 of 20 games already played" in result.stdout
    reference = tmp_path / "reference.jsonl"
    run_tournament(Tournament.create("lama", ["heuristic", "random"], seed=3), 20, out=reference)
    assert out.read_bytes() == reference.read_bytes()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "heuristic,nosuch"], "no bot 'nosuch' for lama; available: "),
        (["--bots", "heuristic"], "L.A.M.A. takes 2 to 6 players; the lineup has 1 bot"),
        (["--bots", "heuristic,,random"], "give bot names separated by commas"),
        (["--bots", "random,random", "-o", "end_score=0"], "option 'end_score' must be at least 1"),
        (["--bots", "random,random", "-o", "speed=9"], "unknown option(s) speed"),
        (["--bots", "random,random", "--address", "x:1"], "--address is for a ray or dask cluster"),
    ],
)
def test_bad_settings_are_refused_before_anything_is_written(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "never.jsonl"
    result = laro("lama", *args, "--games", "3", "--out", str(out))
    assert result.exit_code == 2
    assert message in flat(result.output)
    assert not out.exists()


def test_an_unknown_game_is_refused() -> None:
    result = laro("chess", "--bots", "random,random")
    assert result.exit_code == 2 and "known games: kamara, lama" in result.output


def test_another_tournaments_file_is_refused_and_kept(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    laro("lama", "--bots", "heuristic,random", "--games", "4", "--seed", "3", "--out", str(out), "-j", "1")
    before = out.read_bytes()
    result = laro("lama", "--bots", "random,heuristic", "--games", "4", "--seed", "3", "--out", str(out))
    assert result.exit_code == 2
    assert "holds another tournament" in result.output and "rerun with its settings" in result.output
    assert out.read_bytes() == before


def test_a_missing_plot_extra_is_refused_before_playing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from laro.sim import plot

    def missing() -> None:
        raise plot.PlotError("--plot needs the plot extra: pip install 'laro[plot]'")

    monkeypatch.setattr("laro.cli.tournament.check_plotting", missing)
    out = tmp_path / "t.jsonl"
    result = laro("lama", "--bots", "heuristic,random", "--out", str(out), "--plot", str(tmp_path / "p.png"))
    assert result.exit_code == 2 and "pip install 'laro[plot]'" in result.output
    assert not out.exists()


def test_the_plot_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / "plot.png"
    result = laro("lama", "--bots", "heuristic,random,random", "--games", "12", "--seed", "2", "--plot", str(picture))
    assert result.exit_code == 0, result.output
    assert picture.read_bytes().startswith(b"\x89PNG") and picture.stat().st_size > 20_000
    assert f"plot saved to {picture}" in result.stdout


def test_the_plots_labels_do_not_overlap_and_games_are_whole() -> None:
    """Two bots, four games: the loser's "0.0%" stands near the fair share's line, at the right."""
    pytest.importorskip("matplotlib")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from laro.sim.plot import draw_summary

    tournament = Tournament.create("lama", ["heuristic", "random"], seed=1)
    figure = draw_summary(summarize(tournament, run_tournament(tournament, 4)))
    FigureCanvasAgg(figure).draw()
    renderer = figure.canvas.get_renderer()
    bars, ratings = figure.axes
    texts = [text for text in [*bars.texts, bars.title] if text.get_text()]
    boxes = [text.get_window_extent(renderer) for text in texts]
    for (one, first), (other, second) in itertools.combinations(zip(texts, boxes, strict=True), 2):
        assert not first.overlaps(second), (one.get_text(), other.get_text())
    assert "fair share, 50%" in bars.get_title()
    ticks = [tick for tick in ratings.get_xticks() if 0 <= tick <= 4]
    assert ticks and all(tick == int(tick) for tick in ticks), ticks


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.slow  # a kill and a resumed run
def test_a_killed_run_resumes_to_the_same_file(tmp_path: Path) -> None:
    """SIGKILL a real ``laro tournament`` mid-run (no chance to tidy up), run it again: the file ends exactly as
    an uninterrupted run's."""
    out = tmp_path / "killed.jsonl"
    args = ["kamara", "--bots", "heuristic,random,random", "--games", "90", "--seed", "4", "--out", str(out), "-q"]
    command = [sys.executable, "-m", "laro", "tournament", *args]
    process = subprocess.Popen(
        [*command, "--jobs", "1"], start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        while _lines(out) < 6 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    killed_at = _lines(out) - 1
    assert 5 <= killed_at < 90, f"the run was not killed mid-way ({killed_at} games saved)"

    again = subprocess.run([*command, "--jobs", "2"], capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    reference = tmp_path / "reference.jsonl"
    tournament = Tournament.create("kamara", ["heuristic", "random", "random"], seed=4)
    run_tournament(tournament, 90, get_executor("local", jobs=2), out=reference)
    assert out.read_bytes() == reference.read_bytes()
