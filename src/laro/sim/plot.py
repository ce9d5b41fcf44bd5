"""A tournament's picture (extra ``plot``): each bot's win rate with its 95% interval against the fair share, and
each bot's rating fitted to the games played so far. Drawn with matplotlib's Agg canvas: no window, no global
figure state.

>>> import importlib.util, pathlib, tempfile
>>> from laro.sim.tournament import Tournament, run_tournament, summarize
>>> tournament = Tournament.create("lama", ["heuristic", "random"], seed=1)
>>> summary = summarize(tournament, run_tournament(tournament, games=6))
>>> with tempfile.TemporaryDirectory() as folder:
...     if importlib.util.find_spec("matplotlib"):  # the plot extra is installed
...         path = plot_summary(summary, pathlib.Path(folder) / "tournament.png")
...         assert path.read_bytes().startswith(b"\\x89PNG")
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

from laro.core import LaroError
from laro.sim.ratings import START
from laro.sim.tournament import Summary

__all__ = ["PlotError", "check_plotting", "draw_summary", "plot_summary"]


class PlotError(LaroError, RuntimeError):
    """The plot extra (matplotlib) is not installed."""


def check_plotting() -> None:
    """Raise :class:`PlotError` with the install command if matplotlib is missing (checked before a long run).

    >>> try:
    ...     check_plotting()
    ... except PlotError as error:
    ...     assert "laro[plot]" in str(error)
    """
    _figure_class()


def _figure_class() -> Any:
    try:
        return importlib.import_module("matplotlib.figure").Figure
    except ImportError as error:
        raise PlotError(f"--plot needs the plot extra: pip install 'laro[plot]' ({error})") from None


def plot_summary(summary: Summary, path: str | os.PathLike[str]) -> Path:
    """Draw ``summary`` into the image file ``path`` (PNG, SVG or PDF by its suffix) and return its path: the win
    rates, and (with the ratings extra) the ratings fitted to the games played so far."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    draw_summary(summary).savefig(path)
    return path


def draw_summary(summary: Summary) -> Any:
    """The picture of ``summary`` as a matplotlib figure (not shown, not saved)."""
    figure = _figure_class()(figsize=(11, 4.6), dpi=110, layout="constrained")
    history = summary.rating_history()
    if history:
        bars, ratings = figure.subplots(1, 2, width_ratios=(1, 1.5))
        _draw_ratings(ratings, summary, history)
    else:
        bars = figure.subplots(1, 1)
    _draw_win_rates(bars, summary)
    figure.suptitle(f"{summary.game}: {summary.players} players, {summary.games:,} games", fontweight="bold")
    return figure


def _draw_win_rates(axes: Any, summary: Summary) -> None:
    names = [standing.name for standing in summary.standings]
    rates = [100 * standing.win_rate for standing in summary.standings]
    pairs = list(zip(rates, summary.standings, strict=True))
    below = [max(0.0, rate - 100 * standing.interval[0]) for rate, standing in pairs]
    above = [max(0.0, 100 * standing.interval[1] - rate) for rate, standing in pairs]
    colours = [f"C{number}" for number in range(len(names))]
    axes.bar(names, rates, color=colours, alpha=0.8, yerr=[below, above], capsize=6, ecolor="0.2")
    share = 100 * summary.standings[0].share
    axes.axhline(share, color="0.3", linestyle="--", linewidth=1)  # named in the title: a bar's label may stand here
    for number, (rate, standing) in enumerate(pairs):
        axes.annotate(
            f"{rate:.1f}%",
            (number, 100 * standing.interval[1]),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            fontsize=9,
            bbox={"facecolor": "white", "edgecolor": "none", "pad": 1},  # over the fair share's line, if there
        )
    top = max(100 * standing.interval[1] for standing in summary.standings)
    limit = min(112.0, top * 1.15 + 5)  # room for the labels above the bars, even at 100%
    axes.set_ylim(0, limit)
    axes.set_yticks([tick for tick in axes.get_yticks() if 0 <= tick <= min(100.0, limit)])
    axes.set_ylabel("win rate, % of seat-games (95% interval)")
    axes.set_title(f"win rate (dashed: the fair share, {share:.0f}%)")
    axes.grid(axis="y", alpha=0.3)


def _draw_ratings(axes: Any, summary: Summary, history: list[tuple[int, dict[str, float]]]) -> None:
    games = [played for played, _ in history]
    for number, standing in enumerate(summary.standings):
        values = [ratings[standing.name] for _, ratings in history]
        label = f"{standing.name} ({standing.rating or START:.0f})"
        axes.plot(games, values, color=f"C{number}", linewidth=1.5, label=label)
    axes.axhline(START, color="0.5", linestyle=":", linewidth=1)
    axes.set_xlabel("games played")
    axes.xaxis.set_major_locator(importlib.import_module("matplotlib.ticker").MaxNLocator(integer=True))
    axes.set_ylabel("rating (Bradley–Terry, Elo scale)")
    axes.set_title("rating fitted to the games so far")
    axes.set_xlim(0, max(1, summary.games))
    axes.legend(loc="best", fontsize=9)
    axes.grid(alpha=0.3)
