"""laro.rl.distil_lama: the learned bot's training by distilling the hard search's values (docs/rl.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

import laro
from laro.bots import BotError
from laro.bots.lama_learned import ADVANTAGE_INPUTS, ADVANTAGE_SCALE
from laro.rl import distil_lama
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.policy_bot import policy_bot


def test_labels_are_the_heuristic_games_decisions_valued_for_every_legal_action() -> None:
    labels = distil_lama.label("classic", 3, 1, 8)
    x, h, q, s = labels["x"], labels["h"], labels["q"], labels["s"]
    assert len(x) == len(h) == len(q) == len(s) > 20
    assert x.shape[1] == LamaEncoding(4).size and q.shape[1] == 9
    legal = ~np.isnan(q)
    assert legal[np.arange(len(h)), h].all() and (legal.sum(axis=1) > 1).all()
    assert ((q[legal] >= 0) & (q[legal] <= 1)).all()
    assert (s[np.arange(len(h)), h] == 0).all()  # the heuristic's move against itself: no spread
    state = laro.get_game("lama").new_game(4, seed=300_000, options={"edition": "classic"})
    assert state.current_player is not None
    assert np.array_equal(x[0], LamaEncoding(4).encode(state.observation(state.current_player)))


def test_a_margin_no_advantage_reaches_keeps_the_heuristics_move() -> None:
    labels = distil_lama.label("party", 3, 1, 4)
    layers, held, curve = distil_lama.fit(labels, [8], 1, 0)
    q, moves = labels["q"].astype(np.float64), labels["h"].astype(np.int64)
    x = distil_lama.features(labels["x"].astype(np.float64), moves, q.shape[1])
    assert len(held) == len(q) // 10 and len(curve) == 1 and curve[0]["held_out_error"] >= 0
    assert np.array_equal(distil_lama.choose(layers, x, moves, ~np.isnan(q), 1e9), moves)
    chosen = distil_lama.choose(layers, x, moves, ~np.isnan(q), -1e9)  # any other legal action beats nothing
    assert (~np.isnan(q[np.arange(len(q)), chosen])).all()


def test_the_command_saves_a_network_the_learned_bot_plays(tmp_path: Path) -> None:
    out = tmp_path / "net.npz"
    distil_lama.main(
        ["--edition", "classic", "--games", "1", "--determinisations", "4", "--hidden", "8", "--epochs", "2",
         "--eval-every", "1", "--eval-games", "20", "--out", str(out), "--labels", str(tmp_path / "labels.npz")]
    )  # fmt: skip
    assert (tmp_path / "labels.npz").exists()
    with np.load(out) as data:
        meta = json.loads(str(data["meta"]))
    assert meta["inputs"] == list(ADVANTAGE_INPUTS) and meta["margin"] == pytest.approx(0.1)
    assert meta["layer_sizes"] == [LamaEncoding(4).size + 9, 8, 9] and "distil_lama" in meta["command"]
    assert [point["epoch"] for point in meta["curve"]] == [1, 2] and 0 <= meta["curve"][-1]["win_share"] <= 1
    with pytest.raises(BotError, match="not only the observation"):
        policy_bot(str(out), "lama")


def test_an_advantage_network_keeps_the_heuristics_move_below_its_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    from laro.bots import lama_learned

    network = lama_learned.load_network("classic")
    state = laro.get_game("lama").new_game(4, seed=5)
    bot = lama_learned.LearnedBot()
    for _ in range(40):
        seat = state.current_player
        if seat is None:
            break
        observation, legal = state.observation(seat), state.legal_actions()
        heuristic = laro.bots.get_bot("heuristic", "lama").choose(observation, legal, random.Random(0))
        monkeypatch.setattr(network, "margin", 1e9)
        assert bot.choose(observation, legal, random.Random(0)) == heuristic
        monkeypatch.setattr(network, "margin", -1e9)
        vector = network.encoding.encode(observation)
        one_hot = np.eye(network.num_actions, dtype=np.float32)[heuristic.index]
        out = network.logits(np.concatenate([vector, one_hot]))
        assert bot.choose(observation, legal, random.Random(0)).index == max(legal, key=lambda a: out[a.index]).index
        state = state.apply(heuristic)


@pytest.mark.parametrize("edition", ["classic", "party"])
def test_the_bot_plays_what_the_training_measured(edition: str) -> None:
    """The learned bot at the table (the heuristic bot's move, the network in float32) chooses as the training's
    win share does on the batched engine (the batched heuristic's move, the network in float64)."""
    from laro.bots.lama_learned import LearnedBot, load_network
    from laro.rl.train_lama import heuristic_actions

    network = load_network(edition)
    layers = [(weights.astype(np.float64), bias.astype(np.float64)) for weights, bias in network.layers]
    bot, rng = LearnedBot(), random.Random(0)
    decisions = left = 0
    for seed in (1, 2):
        state = laro.get_game("lama").new_game(4, seed=seed, options={"edition": edition})
        while (seat := state.current_player) is not None:
            observation, legal = state.observation(seat), state.legal_actions()
            action = bot.choose(observation, legal, rng)
            vector = network.encoding.encode(observation)[None]
            moves = heuristic_actions(vector, 4, {"edition": edition})
            mask = np.zeros((1, network.num_actions), dtype=bool)
            mask[0, [each.index for each in legal]] = True
            x = distil_lama.features(vector, moves, network.num_actions)
            assert distil_lama.choose(layers, x, moves, mask, network.margin / ADVANTAGE_SCALE)[0] == action.index
            decisions += 1
            left += int(action.index != moves[0])
            state = state.apply(action)
    assert decisions > 100 and 0 < left < decisions / 4  # it leaves the heuristic's move, now and then
