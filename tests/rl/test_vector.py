"""The batched engine is the scalar engine: given the same deals, every batched game is the scalar game."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from laro.core import IllegalActionError, OptionError
from laro.games.lama import GAME
from laro.games.lama.cards import NUM_KINDS, count_of
from laro.games.lama.state import LamaState, deal_round
from laro.rl.lama_encoding import LamaEncoding
from laro.rl.vector import Deal, Dealer, VectorLama

BASE_SEED = 1000


def scalar_dealer(num_players: int) -> Dealer:
    """The scalar engine's deals: game ``g`` of the batch is the scalar game of seed ``BASE_SEED + g``."""

    def deal(games: npt.NDArray[np.int64], rounds: npt.NDArray[np.int64]) -> Deal:
        hands = np.zeros((len(games), num_players, NUM_KINDS), dtype=np.int8)
        rests, starters = [], []
        for i, (game, round_number) in enumerate(zip(games.tolist(), rounds.tolist(), strict=True)):
            packed, rest, starter = deal_round(BASE_SEED + game, round_number, num_players)
            for seat, hand in enumerate(packed):
                hands[i, seat] = [count_of(hand, card) for card in range(NUM_KINDS)]
            rests.append(rest)
            starters.append(starter)
        return hands, np.array(rests, dtype=np.int8), np.array(starters, dtype=np.int64)

    return deal


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"next_round_starter": "ended_round"}), (4, {"end_score": 25}), (6, {"token_supply": "boxed"})],
)
def test_every_batched_game_is_the_scalar_game(players: int, options: dict[str, object]) -> None:
    batch = 48
    engine = VectorLama(batch, players, options=options, dealer=scalar_dealer(players))
    encoding = LamaEncoding(players)
    obs, mask = engine.reset()
    states: list[LamaState] = [GAME.new_game(players, seed=BASE_SEED + g, options=options) for g in range(batch)]
    next_game = batch
    rng = np.random.default_rng(players)
    finished = 0
    for _ in range(300):
        for g, state in enumerate(states):
            seat = state.current_player
            assert engine.current[g] == seat
            assert sorted(np.flatnonzero(mask[g]).tolist()) == [a.index for a in state.legal_actions()]
            assert np.array_equal(obs[g], encoding.encode(state.observation(seat)))
            assert engine.scores[g].tolist() == list(state.scores)
        actions = engine.random_actions(rng)
        obs, mask, rewards, done = engine.step(actions)
        for g in range(batch):
            after = states[g].apply(int(actions[g]))
            assert bool(done[g]) == after.is_over
            if after.is_over:
                share = [1 / len(after.winners) if s in after.winners else 0.0 for s in range(players)]
                assert rewards[g].tolist() == pytest.approx(share)
                assert engine.final_scores[g].tolist() == list(after.scores)
                after = GAME.new_game(players, seed=BASE_SEED + next_game, options=options)
                next_game += 1
                finished += 1
            else:
                assert not rewards[g].any()
            states[g] = after
    assert finished > 3 * batch and engine.games_finished == finished


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    engine = VectorLama(4, 3, seed=2)
    _, mask = engine.reset()
    before = engine.hands.copy(), engine.current.copy()
    actions = np.argmax(mask, axis=1)
    actions[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(IllegalActionError, match="not legal in game 2; its legal action indices are"):
        engine.step(actions)
    with pytest.raises(IllegalActionError, match="one action per game"):
        engine.step(actions[:3])
    assert np.array_equal(engine.hands, before[0]) and np.array_equal(engine.current, before[1])


def test_the_default_dealer_deals_whole_decks() -> None:
    engine = VectorLama(64, 5, seed=3)
    engine.reset()
    cards = engine.hands.sum(axis=1) + np.stack([np.bincount(d, minlength=NUM_KINDS) for d in engine.deck])
    assert (cards == 8).all() and (engine.sizes == 6).all()


def test_the_batched_engine_refuses_what_it_does_not_play() -> None:
    with pytest.raises(OptionError, match="classic game, not the party edition"):
        VectorLama(4, 3, options={"edition": "party"})
    with pytest.raises(OptionError, match="2 to 6 players"):
        VectorLama(4, 7)
    with pytest.raises(OptionError, match="unknown option"):
        VectorLama(4, 3, options={"colour": "red"})
