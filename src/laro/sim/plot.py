"""A tournament's picture (extra ``plot``): each bot's win rate with its 95% interval against the fair share, and
each bot's rating over the games. Drawn with matplotlib's Agg canvas: no window, no global figure state.

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
from laro.sim.tournament import Summary

__all__ = ["PlotError", "check_plotting", "plot_summary"]


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


def plot_summary(summary: Summary, path: str | os.PathLike[str], start: float = 1500.0) -> Path:
    """Draw ``summary`` into the image file ``path`` (PNG, SVG or PDF by its suffix) and return its path.
    ``start`` is the rating every bot had before the first game."""
    figure = _figure_class()(figsize=(11, 4.6), dpi=110, layout="constrained")
    bars, ratings = figure.subplots(1, 2, width_ratios=(1, 1.5))
    _draw_win_rates(bars, summary)
    _draw_ratings(ratings, summary, start)
    figure.suptitle(f"{summary.game}: {summary.players} players, {summary.games:,} games", fontweight="bold")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    return path


def _draw_win_rates(axes: Any, summary: Summary) -> None:
    names = [standing.name for standing in summary.standings]
    rates = [100 * standing.win_rate for standing in summary.standings]
    pairs = list(zip(rates, summary.standings, strict=True))
    below = [max(0.0, rate - 100 * standing.interval[0]) for rate, standing in pairs]
    above = [max(0.0, 100 * standing.interval[1] - rate) for rate, standing in pairs]
    colours = [f"C{number}" for number in range(len(names))]
    axes.bar(names, rates, color=colours, alpha=0.8, yerr=[below, above], capsize=6, ecolor="0.2")
    share = 100 * summary.standings[0].share
    axes.axhline(share, color="0.3", linestyle="--", linewidth=1)
    axes.annotate(
        f"fair share {share:.0f}%",
        (1, share),
        xycoords=("axes fraction", "data"),
        xytext=(-4, 4),
        textcoords="offset points",
        ha="right",
        fontsize=9,
        color="0.3",
    )
    for number, (rate, standing) in enumerate(pairs):
        axes.annotate(
            f"{rate:.1f}%",
            (number, 100 * standing.interval[1]),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            fontsize=9,
        )
    top = max(100 * standing.interval[1] for standing in summary.standings)
    limit = min(112.0, top * 1.15 + 5)  # room for the labels above the bars, even at 100%
    axes.set_ylim(0, limit)
    axes.set_yticks([tick for tick in axes.get_yticks() if 0 <= tick <= min(100.0, limit)])
    axes.set_ylabel("win rate, % of seat-games (95% interval)")
    axes.set_title("win rate")
    axes.grid(axis="y", alpha=0.3)


def _draw_ratings(axes: Any, summary: Summary, start: float) -> None:
    games = range(len(summary.history) + 1)
    for number, standing in enumerate(summary.standings):
        values = [start, *(ratings.get(standing.name, start) for ratings in summary.history)]
        axes.plot(games, values, color=f"C{number}", linewidth=1.5, label=f"{standing.name} ({standing.rating:.0f})")
    axes.axhline(start, color="0.5", linestyle=":", linewidth=1)
    axes.set_xlabel("games played")
    axes.set_ylabel("Elo rating")
    axes.set_title("rating over the games")
    axes.set_xlim(0, max(1, len(summary.history)))
    axes.legend(loc="best", fontsize=9)
    axes.grid(alpha=0.3)
