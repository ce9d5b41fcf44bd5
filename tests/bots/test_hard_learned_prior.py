"""examples/lama_hard_learned_prior.py: ``hard`` with the learned bot's move as its default (docs/rl.md quotes its
figures)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from types import ModuleType

import pytest
from tests.examples import load_example

import laro
from laro.bots import base, get_bot
from laro.sim.tournament import GameResult

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def example() -> ModuleType:
    return load_example("lama_hard_learned_prior")


@pytest.mark.parametrize("edition", ["classic", "party"])
def test_the_learned_move_is_the_default_the_search_keeps(example: ModuleType, edition: str) -> None:
    """With too few pairs to leave its default (one determinisation a decision), the bot plays the learned bot's
    move everywhere — also where that is not the heuristic's, so the default really is the prior's."""
    bot = example.HardWithPrior()
    bot.simulations = 1
    learned, heuristic = get_bot("learned", "lama"), get_bot("heuristic", "lama")
    state = laro.get_game("lama").new_game(4, seed=5, options={"edition": edition})
    rng, decisions, unlike_heuristic = random.Random(2), 0, 0
    while not state.is_over and decisions < 300:
        legal = state.legal_actions()
        observation = state.observation(state.current_player)
        chosen = bot.choose(observation, legal, rng)
        assert chosen == learned.choose(observation, legal, random.Random(0))
        unlike_heuristic += chosen != heuristic.choose(observation, legal, random.Random(0))
        state = state.apply(chosen)
        decisions += 1
    assert unlike_heuristic > 0


def _result(index: int, seats: tuple[str, ...], searcher: float) -> GameResult:
    result = tuple(searcher if name != "heuristic" else (1 - searcher) / 3 for name in seats)
    return GameResult(index, 10 + index, seats, seats, (), (0,) * 4, result, 1, 1)


def test_pairs_are_taken_game_by_game(example: ModuleType) -> None:
    mine = ("hard+learned", "heuristic", "heuristic", "heuristic")
    theirs = ("hard", "heuristic", "heuristic", "heuristic")
    ours = [_result(0, mine, 1.0), _result(1, mine, 0.0), _result(2, mine, 1.0)]
    other = [_result(0, theirs, 0.0), _result(1, theirs, 0.0), _result(3, theirs, 1.0)]  # game 2 not played there
    games, share, their_share, half = example.paired(ours, other, "hard")
    assert (games, share, their_share) == (2, 0.5, 0.0)
    assert half == pytest.approx(1.96 * 0.5)  # gaps 1 and 0: standard error 0.5
    moved = [_result(0, theirs[1:] + theirs[:1], 0.0), _result(1, theirs, 0.0)]
    with pytest.raises(SystemExit, match="another deal or seat"):
        example.paired(ours, moved, "hard")


def test_the_script_pairs_its_games_with_hards_file(
    example: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(base, "_BOTS", dict(base._BOTS))  # the bot it registers leaves with the test
    against = ROOT / "docs" / "strength" / "lama-hard-heuristic.jsonl"
    example.main(["--games", "2", "--seed", "1", "--against", str(against)])
    first, second = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"hard\+learned, classic: won (0\.0|50\.0|100\.0)% of 2 games \(95% CI .*\)", first), first
    assert re.fullmatch(r"on the same 2 games: hard\+learned .*%, hard (0\.0|50\.0|100\.0)%; the difference .*", second)


def test_the_bot_is_registered_by_the_script_alone(example: ModuleType) -> None:
    """Loading the example leaves laro's bots as they were (the lobby lists every registered bot)."""
    assert example.NAME not in base.list_bots("lama")


def test_playing_on_the_searching_seat_plays_the_learned_network_in_its_playouts(example: ModuleType) -> None:
    """``hard+onward``'s playouts differ from ``hard``'s (the learned network plays the seat on) on the same
    determinisations, and its choices are legal through a Party Edition game's first 60 decisions."""
    from laro.bots.lama_batch import batch_values
    from laro.bots.lama_judge import LamaJudge

    state = laro.get_game("lama").new_game(4, seed=5, options={"edition": "party"})
    judge = example.PlayingOnJudge()
    bot, rng = example.HardPlayingOn(), random.Random(3)
    bot.simulations = 20
    differ, decisions = False, 0
    while not state.is_over and decisions < 60:
        legal = state.legal_actions()
        observation = state.observation(state.current_player)
        sample = judge.sampler(state.game, observation, {})
        if len(legal) > 1 and not differ:
            onward = judge.play_batch(sample, legal, 16, random.Random(1))
            plain = batch_values(LamaJudge(), sample, legal, 16, random.Random(1))
            assert onward.shape == plain.shape
            differ = not (onward == plain).all()
        chosen = bot.choose(observation, legal, rng)
        assert chosen in legal
        state = state.apply(chosen)
        decisions += 1
    assert differ and decisions == 60


@pytest.mark.slow
@pytest.mark.parametrize(
    ("edition", "published"),
    [("classic", "lama-hard-onward-heuristic.jsonl"), ("party", "lama-party-hard-onward-heuristic.jsonl")],
)
def test_the_published_games_of_hard_playing_on_replay(
    example: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edition: str, published: str
) -> None:
    monkeypatch.setattr(base, "_BOTS", dict(base._BOTS))
    out = tmp_path / "replayed.jsonl"
    example.main(["--playing-on", "--edition", edition, "--games", "1", "--seed", "1", "--out", str(out)])
    games = [json.loads(line) for line in (ROOT / "docs" / "strength" / published).read_text().splitlines()[1:]]
    replayed = json.loads(out.read_text().splitlines()[1])
    assert replayed["index"] == 0 and replayed == next(game for game in games if game["index"] == 0)
