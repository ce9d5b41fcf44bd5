"""An analysis's picture (extra ``plot``): the seat's win chance over the game after each move it played, the best
move's beside it, and its marked moves. Drawn with matplotlib's Agg canvas, like the tournament's plot.

>>> import importlib.util, pathlib, tempfile, laro
>>> from laro.bots.analysis import analyse
>>> from laro.core import GameRecord
>>> record = GameRecord.start(laro.get_game("lama").new_game(2, seed=4), seed=4)
>>> record.actions = ["play 5", "play 5", "play 5", "play 6", "play 6", "play L"]
>>> data = analyse(record, seat=0, budget=10).to_json()
>>> with tempfile.TemporaryDirectory() as folder:
...     if importlib.util.find_spec("matplotlib"):  # the plot extra is installed
...         path = plot_analysis(data, pathlib.Path(folder) / "analysis.png")
...         assert path.read_bytes().startswith(b"\\x89PNG")
"""

from __future__ import annotations

import os
from pathlib import Path

from laro.core import JSONDict
from laro.sim.plot import _figure_class

__all__ = ["plot_analysis"]

_MARKS = {"inaccuracy": ("#d9a400", "inaccuracy"), "mistake": ("#e06c00", "mistake"), "blunder": ("#c62828", "blunder")}


def plot_analysis(analysis: JSONDict, path: str | os.PathLike[str]) -> Path:
    """Draw ``analysis`` (as :meth:`laro.bots.analysis.Analysis.to_json` gives it) into the image file ``path``
    (PNG, SVG or PDF by its suffix) and return its path."""
    figure = _figure_class()(figsize=(10, 4), dpi=110, layout="constrained")
    axes = figure.subplots()
    decisions = analysis["decisions"]
    moves = [d["move"] for d in decisions]
    axes.plot(
        moves,
        [100 * d["best_value"] for d in decisions],
        color="0.6",
        linewidth=1,
        linestyle="--",
        label="best move found",
    )
    axes.plot(
        moves, [100 * d["played_value"] for d in decisions], color="C0", linewidth=1.8, marker=".", label="move played"
    )
    for mark, (colour, label) in _MARKS.items():
        marked = [d for d in decisions if d["verdict"] == mark]
        if marked:
            axes.scatter(
                [d["move"] for d in marked],
                [100 * d["played_value"] for d in marked],
                color=colour,
                zorder=3,
                s=36,
                label=f"{label} ({len(marked)})",
            )
    axes.set_ylim(0, 100)
    axes.set_xlim(0, max(1, analysis["actions"]))
    axes.set_xlabel("move of the game")
    axes.set_ylabel("win chance, % (the search's estimate)")
    summary = analysis["summary"]
    accuracy = "—" if summary["accuracy"] is None else f"{100 * summary['accuracy']:.0f}%"
    axes.set_title(
        f"{analysis['player']} (seat {analysis['seat']}), {analysis['game']}: accuracy {accuracy}, "
        f"budget {analysis['budget']}, seed {analysis['seed']}"
    )
    axes.grid(alpha=0.3)
    axes.legend(loc="best", fontsize=9)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    return path
