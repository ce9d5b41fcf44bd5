"""laro.rl.lama_continued: decisions valued with the deciding seat playing on by a policy of its own (docs/rl.md)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt
import pytest

import laro
from laro.bots.base import BotError, get_bot
from laro.bots.lama_batch import values_of
from laro.bots.lama_deals import deal_many
from laro.bots.lama_judge import LamaJudge
from laro.bots.lama_learned import read_network
from laro.games.lama.actions import QUIT, LamaAction
from laro.games.lama.state import LamaState
from laro.rl import distil_lama
from laro.rl.lama_continued import Decision, continued_values
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.policy_bot import save_policy


def _decisions(edition: str, seed: int, count: int) -> list[Decision]:
    """The decisions of a heuristic game's first two rounds, each with ``count`` of the judge's determinisations."""
    game, judge, heuristic = laro.get_game("lama"), LamaJudge(), get_bot("heuristic", "lama")
    rng = random.Random(seed)
    state = cast(LamaState, game.new_game(4, seed=seed, options={"edition": edition}))
    memories: list[dict[object, object]] = [{} for _ in range(4)]
    decisions = []
    while (seat := state.current_player) is not None and state.round <= 2:
        observation, legal = state.observation(seat), state.legal_actions()
        sample = judge.sampler(game, observation, memories[seat])
        if len(legal) > 1:
            decisions.append(Decision(sample, deal_many(sample, rng, count), legal))  # type: ignore[arg-type]
        state = state.apply(heuristic.choose(observation, legal, rng))
    return decisions


def _ends_the_round(decision: Decision, column: int) -> bool:
    template, action = decision.sample.template, decision.actions[column]
    if isinstance(action, LamaAction) and action.card is not None:  # the last card
        return int(decision.dealt.counts[0, decision.sample.seat].sum()) == 1
    return action is QUIT and bin(template.quit_mask).count("1") == template.num_players - 1


@pytest.mark.parametrize("edition", ["classic", "party"])
def test_with_the_heuristic_playing_on_the_values_are_the_paired_searchs(edition: str) -> None:
    decisions = _decisions(edition, 4, 12)
    valued = continued_values(decisions, {"edition": edition}, lambda observations, masks, moves: moves)
    compared = 0
    for decision, values in zip(decisions, valued, strict=True):
        expected = values_of(LamaJudge(), decision.sample, decision.dealt, decision.actions)
        assert values.shape == expected.shape == (12, len(decision.actions))
        for column in range(len(decision.actions)):
            if not _ends_the_round(decision, column):  # the judge plays the next round after such a move
                assert np.array_equal(values[:, column], expected[:, column])
                compared += 1
    assert compared > 100


def test_the_seats_own_policy_moves_it_and_changes_the_values() -> None:
    decisions = _decisions("classic", 5, 8)
    asked: list[npt.NDArray[np.bool_]] = []

    def draw_when_it_may(
        observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_], moves: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.int64]:
        asked.append(masks)
        return np.where(masks[:, 7], 7, moves)  # 7: draw

    heuristic = continued_values(decisions, {}, lambda observations, masks, moves: moves)
    drawing = continued_values(decisions, {}, draw_when_it_may)
    assert asked and all(len(masks) for masks in asked)
    assert any(not np.array_equal(a, b) for a, b in zip(heuristic, drawing, strict=True))
    assert all(((values >= 0) & (values <= 1)).all() for values in drawing)


def test_labels_with_a_network_playing_on_are_made_at_the_same_positions() -> None:
    plain = distil_lama.label("party", 3, 1, 4)
    network = distil_lama.network_policy(laro.bots.lama_learned.load_network("party"))
    onward = distil_lama.label("party", 3, 1, 4, network)
    for name in ("x", "h"):
        assert np.array_equal(plain[name], onward[name])
    legal = ~np.isnan(plain["q"])
    assert np.array_equal(legal, ~np.isnan(onward["q"]))
    assert not np.array_equal(plain["q"][legal], onward["q"][legal])


def test_a_network_that_cannot_play_on_is_refused_before_any_labelling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "plain.npz"
    save_policy(plain, [(np.zeros((LamaEncoding(4).size, 9)), np.zeros(9))], "lama", 4, {}, "tanh")
    for path, reason in (
        (plain, "must read the observation and the heuristic's move"),
        (tmp_path / "no.npz", "No such"),
    ):
        with pytest.raises(SystemExit):
            distil_lama.main(["--games", "1", "--onward", str(path), "--labels", str(tmp_path / "labels.npz")])
        assert f"--onward {path}: " in (error := capsys.readouterr().err) and reason in error
        assert not (tmp_path / "labels.npz").exists()
    with pytest.raises(BotError, match="must read the observation and the heuristic's move"):
        distil_lama.network_policy(read_network(plain, "classic", "plain.npz"))
