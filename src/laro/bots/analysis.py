"""Move analysis: each decision of one seat in a game record, graded by the search from that seat's knowledge.

At every decision of the seat the search starts from the seat's own observation at the time (its cards, never
another's, never the deck order), with the determinisations the bots use (the game's sampler, or its judge's,
which reads the other hands from what the seat saw before). It is the bots' paired search
(:meth:`IsmctsBot.search` with a ``confidence``): ``budget`` determinisations are drawn, and every move compared
is played out from each of them by the game's judge, so the moves meet the same hidden cards and their
difference is measured on equal terms. A move's value is the judge's estimate of the seat's **chance to win the
game** (0 to 1; a shared win counts as a share) after that move. The move played is set against the best move
found; the difference is the move's *loss*:

- ``inaccuracy``: a loss of at least :data:`INACCURACY` (3 points of win chance),
- ``mistake``: at least :data:`MISTAKE` (7 points),
- ``blunder``: at least :data:`BLUNDER` (15 points).

The moves compared are all the legal ones, or, when there are more than :data:`WIDEST` and the judge names the
moves worth comparing (Kamara's does: its planned move, and keeping the card instead of renewing it), the move
played and those. A decision with one legal move is *forced* and not graded, nor is one where every move compared
has the same value (*level*: the judge sees no difference, as Kamara's at setup). The same record, seat, budget and
seed always give the same analysis.

>>> import laro
>>> from laro.core import GameRecord
>>> state = laro.get_game("lama").new_game(2, seed=4)
>>> record = GameRecord.start(state, seed=4)
>>> for _ in range(6):
...     action = state.legal_actions()[0]
...     record.actions.append(str(action))
...     state = state.apply(action)
>>> analysis = analyse(record, seat=0, budget=20, seed=1)
>>> analysis == analyse(record, seat=0, budget=20, seed=1)
True
>>> all(0.0 <= d.played_value <= d.best_value <= 1.0 for d in analysis.decisions)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from laro.bots.ismcts import IsmctsBot, Level, Node
from laro.bots.judges import Judge, judge_for
from laro.core import Action, GameRecord, GameState, JSONDict, LaroError, get_game, iter_replay, make_rng

__all__ = [
    "ANALYSIS_FORMAT",
    "BLUNDER",
    "DEFAULT_BUDGET",
    "DEFAULT_BUDGETS",
    "INACCURACY",
    "MISTAKE",
    "WIDEST",
    "Analysis",
    "AnalysisError",
    "Decision",
    "analyse",
    "default_budget",
    "verdict",
]

ANALYSIS_FORMAT = "laro-analysis/1"
DEFAULT_BUDGET = 200  # determinisations per decision; each move compared is played out from every one
# a game whose judge looks far ahead (Kamara's plays four turns on from each move) has a smaller default
DEFAULT_BUDGETS = {"kamara": 30}
INACCURACY = 0.03  # losses of win chance (0 to 1) from which a move is marked
MISTAKE = 0.07
BLUNDER = 0.15
WIDEST = 12  # up to this many legal moves, all are compared
_BIGGEST = 3  # mistakes named in the summary


class AnalysisError(LaroError, ValueError):
    """An analysis was asked for something it cannot do (a seat not in the game, a budget below 1)."""


def default_budget(game: str) -> int:
    """The determinisations per decision an analysis of ``game`` uses unless told otherwise.

    >>> default_budget("lama"), default_budget("kamara")
    (200, 30)
    """
    return DEFAULT_BUDGETS.get(game, DEFAULT_BUDGET)


def verdict(loss: float) -> str:
    """The mark of a move that lost ``loss`` of win chance against the best move found.

    >>> verdict(0.0), verdict(0.05), verdict(0.1), verdict(0.3)
    ('good', 'inaccuracy', 'mistake', 'blunder')
    """
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return "good"


@dataclass(frozen=True, slots=True)
class Decision:
    """One graded decision: the record's action number ``move`` (1 = the first action), the move played and the
    best found, their win chances, and every move compared with its win chance (best first)."""

    move: int
    played: str
    best: str
    played_value: float
    best_value: float
    legal: int
    compared: tuple[tuple[str, float], ...]

    @property
    def loss(self) -> float:
        return self.best_value - self.played_value

    @property
    def verdict(self) -> str:
        return verdict(self.loss)

    def to_json(self) -> JSONDict:
        return {
            "move": self.move,
            "played": self.played,
            "best": self.best,
            "played_value": round(self.played_value, 4),
            "best_value": round(self.best_value, 4),
            "loss": round(self.loss, 4),
            "verdict": self.verdict,
            "legal": self.legal,
            "compared": [[text, round(value, 4)] for text, value in self.compared],
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis of ``seat``'s decisions in a record (see the module docstring)."""

    game: str
    seat: int
    player: str
    budget: int
    seed: int
    actions: int
    forced: int
    level: int
    won: bool | None  # None: the record ends before the game does
    decisions: tuple[Decision, ...]

    def summary(self) -> JSONDict:
        """Accuracy (the share of graded decisions marked ``good``), the average loss, the marks counted, and the
        biggest mistakes (their action numbers, largest loss first)."""
        graded = len(self.decisions)
        marks = {name: sum(d.verdict == name for d in self.decisions) for name in ("inaccuracy", "mistake", "blunder")}
        worst = sorted((d for d in self.decisions if d.verdict != "good"), key=lambda d: (-d.loss, d.move))
        return {
            "graded": graded,
            "forced": self.forced,
            "level": self.level,
            "accuracy": round(sum(d.verdict == "good" for d in self.decisions) / graded, 4) if graded else None,
            "average_loss": round(sum(d.loss for d in self.decisions) / graded, 4) if graded else None,
            "best_played": sum(d.played == d.best for d in self.decisions),
            "inaccuracies": marks["inaccuracy"],
            "mistakes": marks["mistake"],
            "blunders": marks["blunder"],
            "biggest": [d.move for d in worst[:_BIGGEST]],
        }

    def to_json(self) -> JSONDict:
        return {
            "format": ANALYSIS_FORMAT,
            "game": self.game,
            "seat": self.seat,
            "player": self.player,
            "value": "win chance",
            "budget": self.budget,
            "seed": self.seed,
            "actions": self.actions,
            "won": self.won,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "summary": self.summary(),
            "decisions": [decision.to_json() for decision in self.decisions],
        }


def analyse(
    record: GameRecord,
    seat: int,
    budget: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Grade every decision of ``seat`` in ``record`` with ``budget`` determinisations each (see the module
    docstring; ``None``: :func:`default_budget`); ``progress(done, total)`` is called after each action of the
    record. Raises :class:`~laro.core.RecordError` if the record does not replay, :class:`AnalysisError` for a bad
    seat or budget."""
    if isinstance(seat, bool) or not 0 <= seat < record.num_players:
        raise AnalysisError(
            f"seat {seat} is not in this {record.num_players}-player game (seats 0-{record.num_players - 1})"
        )
    budget = default_budget(record.game) if budget is None else budget
    if budget < 1:
        raise AnalysisError(f"the budget is at least 1 determinisation a decision; got {budget}")
    game = get_game(record.game)
    judge = judge_for(game)
    searcher = IsmctsBot("hard", name="analysis")  # holds the seat's reading of the game from decision to decision
    decisions: list[Decision] = []
    forced = level = 0
    before: GameState | None = None
    total = len(record.actions)
    for number, (text, after) in enumerate(iter_replay(record)):
        if text is not None and before is not None and before.current_player == seat:
            legal = before.legal_actions()
            observation = before.observation(seat)
            sample = searcher.determinisations(game, judge, observation)
            if len(legal) < 2:
                forced += 1
            else:
                rng = make_rng(seed, "analysis", seat, number)
                played = before.parse_action(text)
                shortlist = _compared(judge, observation, legal, played, rng)
                paired = Level(simulations=budget * len(shortlist), confidence=0.0)
                root = searcher.search(sample, judge, rng, paired, shortlist)
                decision = _decision(number, played, legal, root.children)
                if len(decision.compared) > 1 and decision.compared[-1][1] == decision.best_value:
                    level += 1  # the judge sees no difference (Kamara's values setup positions all alike)
                else:
                    decisions.append(decision)
        if progress is not None and text is not None:
            progress(number, total)
        before = after
    assert before is not None
    players = [str(name) for name in record.players]
    return Analysis(
        game=record.game,
        seat=seat,
        player=players[seat] if seat < len(players) else f"Seat {seat}",
        budget=budget,
        seed=seed,
        actions=total,
        forced=forced,
        level=level,
        won=(seat in before.winners) if before.is_over else None,
        decisions=tuple(decisions),
    )


def _compared(
    judge: Judge, observation: JSONDict, legal: Sequence[Action], played: Action, rng: random.Random
) -> tuple[int, ...]:
    """The indices of the moves to compare, the one played first."""
    candidates = getattr(judge, "candidates", None)
    chosen = list(legal) if len(legal) <= WIDEST or candidates is None else candidates(observation, legal, rng)
    indices = [played.index]
    indices += [action.index for action in chosen if action.index != played.index]
    return tuple(indices)


def _decision(number: int, played: Action, legal: Sequence[Action], children: dict[int, Node]) -> Decision:
    texts = {action.index: str(action) for action in legal}
    values = {index: node.total / node.visits for index, node in children.items() if node.visits}
    if played.index not in values:  # pragma: no cover - every determinisation shares the seat's legal moves
        raise LaroError(f"action {number}: the search never played out the move played")
    ranked = sorted(values.items(), key=lambda item: (-item[1], item[0] != played.index, item[0]))
    best_index, best_value = ranked[0]
    return Decision(
        move=number,
        played=texts[played.index],
        best=texts[best_index],
        played_value=values[played.index],
        best_value=best_value,
        legal=len(legal),
        compared=tuple((texts[index], value) for index, value in ranked),
    )
