"""Tournaments: seats rotate, games are pure functions of their index, results do not depend on the number of
jobs, and a results file resumes (cut lines repaired, other tournaments refused, nothing changed on an error)."""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from laro.bots import base
from laro.core import Action, JSONDict, get_game, replay
from laro.core.record import GameRecord
from laro.sim.executors import get_executor
from laro.sim.tournament import (
    GameResult,
    Tournament,
    TournamentError,
    play_game,
    prepare,
    run_tournament,
    summarize,
)

LINEUP = ["heuristic", "random", "random"]


@pytest.fixture(scope="module")
def lama() -> Tournament:
    return Tournament.create("lama", LINEUP, seed=11)


@pytest.fixture(scope="module")
def reference(lama: Tournament, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted run of 30 games, in one process."""
    path = tmp_path_factory.mktemp("reference") / "lama.jsonl"
    run_tournament(lama, 30, get_executor("local", jobs=1), out=path)
    return path


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def test_the_lineup_turns_one_seat_each_game(lama: Tournament) -> None:
    assert [lama.seats(i) for i in range(4)] == [
        ("heuristic", "random", "random"),
        ("random", "heuristic", "random"),
        ("random", "random", "heuristic"),
        ("heuristic", "random", "random"),
    ]
    seats = Counter(play_game(lama, i).seats.index("heuristic") for i in range(6))
    assert seats == {0: 2, 1: 2, 2: 2}


def test_a_game_is_a_pure_function_of_its_index(lama: Tournament) -> None:
    assert play_game(lama, 7) == play_game(Tournament.create("lama", LINEUP, seed=11), 7)
    assert play_game(lama, 7) != play_game(lama, 8)
    assert play_game(lama, 7).seed != play_game(Tournament.create("lama", LINEUP, seed=12), 7).seed


def test_a_result_holds_each_seats_share_and_reads_back(lama: Tournament) -> None:
    result = play_game(lama, 3)
    assert result.length > 0 and result.rounds is not None and result.rounds >= 1
    assert sum(result.result) == pytest.approx(1.0)
    assert all((share > 0) == (seat in result.winners) for seat, share in enumerate(result.result))
    assert result.line().endswith(b"\n") and result.line().count(b"\n") == 1
    assert GameResult.from_json(json.loads(result.line())) == result


def test_one_job_and_two_give_the_same_file_and_summary(lama: Tournament, reference: Path, tmp_path: Path) -> None:
    two = tmp_path / "two.jsonl"
    results = run_tournament(lama, 30, get_executor("local", jobs=2), out=two)
    assert two.read_bytes() == reference.read_bytes()
    saved = [GameResult.from_json(json.loads(line)) for line in lines(reference)[1:]]
    assert results == saved
    assert summarize(lama, results) == summarize(lama, saved)


def test_the_file_starts_with_a_header_and_holds_one_line_per_game(lama: Tournament, reference: Path) -> None:
    header, *games = (json.loads(line) for line in lines(reference))
    assert header == {
        "tournament": 1,
        "game": "lama",
        "rules_version": lama.rules_version,
        "bots": LINEUP,
        "seed": 11,
        "options": lama.options,
        "games": 30,
    }
    assert [game["index"] for game in games] == list(range(30))
    assert set(games[0]) == {"index", "seed", "seats", "bots", "winners", "scores", "result", "length", "rounds"}


def test_summary_adds_up_seats_of_the_same_bot(lama: Tournament) -> None:
    results = run_tournament(lama, 9)
    summary = summarize(lama, results)
    by_name = {standing.name: standing for standing in summary.standings}
    assert by_name["heuristic"].games == 9 and by_name["random"].games == 18
    assert by_name["heuristic"].wins + by_name["random"].wins == pytest.approx(9)
    assert by_name["random"].share == pytest.approx(1 / 3)
    history = summary.rating_history()
    assert history[0] == (0, {"heuristic": 1500.0, "random": 1500.0})
    assert history[-1] == (9, {name: standing.rating for name, standing in by_name.items()})
    heuristic_scores = [r.scores[r.seats.index("heuristic")] for r in results]
    assert by_name["heuristic"].average_score == pytest.approx(sum(heuristic_scores) / 9)
    assert summary.standings[0].win_rate >= summary.standings[1].win_rate


def test_a_shared_win_is_split(tmp_path: Path) -> None:
    tournament = Tournament.create("lama", ["random", "heuristic"], seed=1)
    shared = GameResult(0, 1, ("random", "heuristic"), ("random", "heuristic"), (0, 1), (5, 5), (0.5, 0.5), 10)
    summary = summarize(tournament, [shared])
    assert [standing.wins for standing in summary.standings] == [0.5, 0.5]
    assert [standing.rating for standing in summary.standings] == [1500.0, 1500.0]


def test_without_the_ratings_extra_the_summary_has_no_ratings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "choix", None)  # as if not installed
    tournament = Tournament.create("lama", ["random", "heuristic"], seed=1)
    summary = summarize(tournament, run_tournament(tournament, 2))
    assert summary.rating_method is None and summary.rating_history() == []
    assert [standing.rating for standing in summary.standings] == [None, None]
    assert "rated" not in summary.verdict()


# -- resuming -----------------------------------------------------------------------------------------------------


class Recording:
    """A one-process executor that notes which games it was asked to play."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def __call__(self, function: Callable[[int], GameResult], indices: Sequence[int]) -> Iterator[GameResult]:
        self.asked += indices
        return get_executor("local", jobs=1)(function, indices)


def test_a_cut_last_line_is_dropped_and_only_missing_games_are_played(
    lama: Tournament, reference: Path, tmp_path: Path
) -> None:
    path = tmp_path / "cut.jsonl"
    kept = lines(reference)[:13]  # the header and games 0-11
    path.write_bytes(b"".join(kept) + lines(reference)[13][:25])  # game 12 cut short by a kill
    plan = prepare(lama, 30, path)
    assert len(plan.done) == 12 and plan.missing == range(12, 30)
    assert path.read_bytes().endswith(lines(reference)[13][:25])  # preparing changes nothing
    recording = Recording()
    plan.run(recording)
    assert recording.asked == list(range(12, 30))
    assert path.read_bytes() == reference.read_bytes()


def test_a_damaged_last_line_is_replaced(lama: Tournament, reference: Path, tmp_path: Path) -> None:
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(b"".join(lines(reference)[:6]) + b'{"index": 5, "seed\x00\x00\x00\n')
    run_tournament(lama, 30, out=path)
    assert path.read_bytes() == reference.read_bytes()


def test_a_damaged_line_before_others_is_an_error(lama: Tournament, reference: Path, tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    content = lines(reference)
    content[4] = b"not json\n"
    path.write_bytes(b"".join(content))
    with pytest.raises(TournamentError, match=r"line 5 of .* is not a game record"):
        run_tournament(lama, 30, out=path)
    assert path.read_bytes() == b"".join(content)


def test_more_games_extend_the_file(lama: Tournament, reference: Path, tmp_path: Path) -> None:
    path = tmp_path / "grow.jsonl"
    run_tournament(lama, 10, out=path)
    assert json.loads(lines(path)[0])["games"] == 10 and len(lines(path)) == 11
    results = run_tournament(lama, 30, get_executor("local", jobs=2), out=path)
    assert path.read_bytes() == reference.read_bytes()  # the header says 30 now, as if run at once
    assert [result.index for result in results] == list(range(30))


def test_a_complete_file_is_left_alone(lama: Tournament, reference: Path, tmp_path: Path) -> None:
    path = tmp_path / "done.jsonl"
    path.write_bytes(reference.read_bytes())
    before = path.stat().st_mtime_ns
    recording = Recording()
    results = run_tournament(lama, 30, recording, out=path)
    assert recording.asked == [] and len(results) == 30 and path.stat().st_mtime_ns == before


def test_fewer_games_than_the_file_holds_is_an_error(lama: Tournament, reference: Path) -> None:
    with pytest.raises(TournamentError, match="already holds 30 games, more than the 20 asked for"):
        prepare(lama, 20, reference)


@pytest.mark.parametrize(
    ("game", "bots", "seed", "options", "what"),
    [
        ("lama", ["heuristic", "random", "random"], 12, {}, "seed 11 there, 12 here"),
        ("lama", ["random", "heuristic", "random"], 11, {}, "bots"),
        ("lama", ["heuristic", "random", "random"], 11, {"end_score": 20}, "options"),
        ("kamara", ["heuristic", "random", "random"], 11, {}, "game 'lama' there, 'kamara' here"),
    ],
)
def test_another_tournaments_file_is_refused_and_unchanged(
    reference: Path, tmp_path: Path, game: str, bots: list[str], seed: int, options: JSONDict, what: str
) -> None:
    path = tmp_path / "other.jsonl"
    content = b"".join(lines(reference)[:8])
    path.write_bytes(content)
    with pytest.raises(TournamentError, match="holds another tournament") as error:
        run_tournament(Tournament.create(game, bots, seed, options), 30, out=path)
    assert what in str(error.value)
    assert path.read_bytes() == content


def test_a_file_that_is_no_tournament_is_refused(lama: Tournament, tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping list\n")
    with pytest.raises(TournamentError, match="not a laro tournament results file"):
        run_tournament(lama, 3, out=path)
    assert path.read_text() == "shopping list\n"


# -- checks before playing, and bots that break the rules ------------------------------------------------------------


def test_create_checks_everything_before_a_game_is_played() -> None:
    with pytest.raises(base.BotError, match=r"no bot 'nosuch' for lama; available: .*heuristic.*random"):
        Tournament.create("lama", ["heuristic", "nosuch"], seed=1)
    with pytest.raises(TournamentError, match="takes 2 to 6 players; the lineup has 7 bots"):
        Tournament.create("lama", ["random"] * 7, seed=1)
    with pytest.raises(ValueError, match="unknown option"):
        Tournament.create("lama", ["random", "random"], seed=1, options={"bogus": 1})


class Cheat:
    """Plays an action that is not among the legal ones."""

    name = "cheat"

    def choose(self, observation: JSONDict, legal: Sequence[Action], rng: random.Random) -> Action:
        game = get_game("lama")
        return next(
            action
            for action in (game.action_from_index(index) for index in range(game.num_actions))
            if action not in legal
        )


class Crash:
    name = "crash"

    def choose(self, observation: JSONDict, legal: Sequence[Action], rng: random.Random) -> Action:
        raise RuntimeError("out of ideas")


def test_a_bot_playing_an_illegal_action_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(base._BOTS, ("cheat", "lama"), Cheat)
    tournament = Tournament.create("lama", ["random", "cheat"], seed=1)
    with pytest.raises(TournamentError, match=r"bot 'cheat' \(seat \d\) chose .* which is not legal; legal: "):
        run_tournament(tournament, 2)


def test_a_bot_that_fails_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(base._BOTS, ("crash", "lama"), Crash)
    tournament = Tournament.create("lama", ["crash", "random"], seed=1)
    with pytest.raises(TournamentError, match=r"bot 'crash' \(seat 0\) failed in game 0 .*out of ideas"):
        run_tournament(tournament, 2, out=tmp_path / "crash.jsonl")
    assert len(lines(tmp_path / "crash.jsonl")) == 1  # the header only: no game finished


def test_results_are_the_record_of_a_replayable_game(lama: Tournament) -> None:
    """Playing the seats' bots again by hand from the game's seed reaches the saved result."""
    from laro.bots import get_bot
    from laro.core import make_rng

    result = play_game(lama, 4)
    game = get_game("lama")
    state = game.new_game(3, seed=result.seed, options=lama.options)
    record = GameRecord.start(state, result.seed)
    bots = [get_bot(name, "lama") for name in result.seats]
    rngs = [make_rng(result.seed, "seat", seat) for seat in range(3)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(state.observation(seat), state.legal_actions(), rngs[seat])
        state = state.apply(action)
        record.actions.append(str(action))
    assert replay(record).winners == result.winners
    assert (tuple(state.scores), len(record.actions)) == (result.scores, result.length)
