"""The ``learned`` L.A.M.A. bot: its shipped networks record what they were trained for and what they read, it plays
legal moves of both editions at four-player tables, and a table of another size is refused before its game begins."""

from __future__ import annotations

import random

import pytest

from laro.bots import BotError, check_table, get_bot, list_bots
from laro.bots.lama_learned import ADVANTAGE_INPUTS, NETWORKS, LearnedBot, load_network
from laro.games.lama import GAME
from laro.sim.tournament import Tournament, TournamentError


def test_the_learned_bot_is_a_lama_bot() -> None:
    assert "learned" in list_bots("lama") and "learned" not in list_bots("kamara")
    assert isinstance(get_bot("learned", "lama"), LearnedBot)


@pytest.mark.parametrize("edition", sorted(NETWORKS))
def test_each_network_records_its_table(edition: str) -> None:
    network = load_network(edition)
    meta = network.meta
    assert meta["game"] == "lama" and meta["num_players"] == 4 and meta["options"]["edition"] == edition
    assert meta["activation"] == "tanh"
    sizes = [network.layers[0][0].shape[0], *(weights.shape[1] for weights, _ in network.layers)]
    assert meta["layer_sizes"] == sizes and sizes[0] == network.encoding.size + sizes[-1]  # and the heuristic's move
    assert network.reads_heuristic and tuple(meta["inputs"]) == ADVANTAGE_INPUTS and 0 < meta["margin"] < 1
    assert meta["seed"] is not None and "distil_lama" in meta["command"] and meta["positions"] > 100_000
    assert meta["curve"][-1]["win_share"] > 0.25


@pytest.mark.parametrize("edition", sorted(NETWORKS))
def test_it_plays_whole_games_of_legal_moves(edition: str) -> None:
    state = GAME.new_game(4, seed=3, options={"edition": edition, "end_score": 20})
    bots = [get_bot("learned", "lama"), *(get_bot("heuristic", "lama") for _ in range(3))]
    rng = random.Random(1)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        action = bots[seat].choose(state.observation(seat), legal, rng)
        assert action in legal
        state = state.apply(action)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_another_number_of_players_is_refused_before_the_game(players: int) -> None:
    with pytest.raises(BotError, match=f"plays 4 players.*this table is for {players}"):
        check_table(get_bot("learned", "lama"), players, {})
    with pytest.raises((BotError, TournamentError)):
        Tournament.create("lama", ["learned", *["heuristic"] * (players - 1)], seed=1)
