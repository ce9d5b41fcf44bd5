"""Move analysis: deterministic for a seed and budget, grades from the seat's knowledge, marks the moves that
lose, and refuses what it cannot do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import laro
from laro.bots.analysis import BLUNDER, INACCURACY, MISTAKE, AnalysisError, analyse, verdict
from laro.core import GameRecord, RecordError

GOLDEN = Path(__file__).parent.parent / "golden"


def golden(name: str) -> GameRecord:
    return GameRecord.from_json(json.loads((GOLDEN / f"{name}.json").read_text())["record"])


def test_the_same_seed_and_budget_give_the_same_analysis() -> None:
    record = golden("lama-4p-ended-round")
    first = analyse(record, seat=1, budget=40, seed=5).to_json()
    assert first == analyse(record, seat=1, budget=40, seed=5).to_json()
    other = analyse(record, seat=1, budget=40, seed=6).to_json()
    assert [d["move"] for d in other["decisions"]] == [d["move"] for d in first["decisions"]]
    assert [d["played_value"] for d in other["decisions"]] != [d["played_value"] for d in first["decisions"]]
    wider = analyse(record, seat=1, budget=41, seed=5).to_json()
    assert [d["played_value"] for d in wider["decisions"]] != [d["played_value"] for d in first["decisions"]]


def test_kamara_analysis_is_deterministic_and_skips_the_level_setup() -> None:
    record = golden("kamara-4p-one-match-wins")
    record.actions = record.actions[:120]
    first = analyse(record, seat=2, budget=4, seed=3)
    assert first == analyse(record, seat=2, budget=4, seed=3)
    assert first.level > 0  # the tiles and diwa placed at setup: the judge values them all alike
    assert first.won is None  # the record stops before the game ends
    assert all(d.loss >= 0 and d.verdict == verdict(d.loss) for d in first.decisions)


def test_every_decision_of_the_seat_is_graded_or_counted() -> None:
    record = golden("lama-4p-ended-round")
    analysis = analyse(record, seat=0, budget=20)
    state = laro.get_game("lama").new_game(record.num_players, seed=record.seed, options=record.options)
    turns = []
    for number, action in enumerate(record.actions, start=1):
        if state.current_player == 0:
            turns.append((number, len(state.legal_actions())))
        state = state.apply(action)
    graded = {d.move for d in analysis.decisions}
    assert graded == {number for number, legal in turns if legal > 1}
    assert analysis.forced == sum(legal == 1 for _, legal in turns)
    for decision in analysis.decisions:
        assert decision.played == record.actions[decision.move - 1]
        assert decision.compared[0] == (decision.best, decision.best_value)
        assert len(decision.compared) == decision.legal  # L.A.M.A.: every legal move is compared
    assert analysis.won == (0 in state.winners)


def test_quitting_a_fresh_hand_is_a_mistake() -> None:
    """Quitting at once with six cards in hand and a card to play is marked."""
    state = laro.get_game("lama").new_game(3, seed=2)
    record = GameRecord.start(state, seed=2)
    seat = state.current_player
    assert any(str(action).startswith("play") for action in state.legal_actions())
    record.actions.append("quit")
    decision = analyse(record, seat=seat, budget=60).decisions[0]
    assert decision.played == "quit" and decision.best != "quit"
    assert decision.loss >= MISTAKE and decision.verdict in ("mistake", "blunder")


def test_summary_counts_the_marks() -> None:
    analysis = analyse(golden("lama-5p-boxed"), seat=3, budget=30, seed=2)
    summary = analysis.summary()
    marks = [d.verdict for d in analysis.decisions]
    assert summary["graded"] == len(marks)
    assert summary["inaccuracies"] == marks.count("inaccuracy")
    assert summary["mistakes"] == marks.count("mistake") and summary["blunders"] == marks.count("blunder")
    assert summary["accuracy"] == pytest.approx(marks.count("good") / len(marks), abs=1e-4)
    losses = {d.move: d.loss for d in analysis.decisions}
    biggest = summary["biggest"]
    assert [losses[move] for move in biggest] == sorted((losses[move] for move in biggest), reverse=True)
    assert all(losses[move] >= INACCURACY for move in biggest)


def test_thresholds() -> None:
    assert [verdict(x) for x in (0.0, INACCURACY - 1e-9, INACCURACY, MISTAKE, BLUNDER, 1.0)] == [
        "good", "good", "inaccuracy", "mistake", "blunder", "blunder",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("seat", "budget", "message"), [(4, 10, "seat 4 is not in"), (-1, 10, "seat -1"), (0, 0, "at least 1")]
)
def test_bad_requests_are_refused(seat: int, budget: int, message: str) -> None:
    with pytest.raises(AnalysisError, match=message):
        analyse(golden("lama-4p-ended-round"), seat=seat, budget=budget)


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = golden("lama-2p-default")
    record.actions = [*record.actions[:3], "play 99"]
    with pytest.raises(RecordError, match="action 4"):
        analyse(record, seat=0, budget=5)


class _Guarded:
    """A state of the replay that lends the analysis only what the seat may know at its turn: whose turn it is,
    the seat's observation, the legal moves and the move's text, and the outcome once the game is over."""

    ALLOWED = frozenset({"current_player", "legal_actions", "parse_action", "is_over", "winners"})

    def __init__(self, state: object, seat: int) -> None:
        self._state, self._seat = state, seat

    def observation(self, seat: int) -> object:
        assert seat == self._seat, f"the analysis of seat {self._seat} read seat {seat}'s observation"
        return self._state.observation(seat)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        assert name in self.ALLOWED, f"the analysis read {name!r} of the true state"
        if name == "winners":
            assert self._state.is_over  # type: ignore[attr-defined]
        return getattr(self._state, name)


@pytest.mark.parametrize(("name", "seat", "budget"), [("lama-4p-ended-round", 2, 10), ("kamara-2p-default", 1, 2)])
def test_the_analysis_reads_only_what_the_seat_knows(
    monkeypatch: pytest.MonkeyPatch, name: str, seat: int, budget: int
) -> None:
    """Never the true state's hidden parts (other hands, the deck, the seed): only the seat's observation."""
    import laro.bots.analysis as module

    record = golden(name)
    record.actions = record.actions[:150]
    real = module.iter_replay

    def guarded(played: GameRecord) -> object:
        for action, state in real(played):
            yield action, _Guarded(state, seat)

    monkeypatch.setattr(module, "iter_replay", guarded)
    guarded_analysis = analyse(record, seat=seat, budget=budget, seed=4)
    monkeypatch.setattr(module, "iter_replay", real)
    assert guarded_analysis == analyse(record, seat=seat, budget=budget, seed=4)
    assert guarded_analysis.decisions
