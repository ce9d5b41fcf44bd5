"""The ISMCTS bot: legal, reproducible choices within its budget, from the observation alone."""

from __future__ import annotations

import random

import pytest

import laro
from laro.bots import BotError, get_bot, list_bots
from laro.bots.ismcts import LEVELS, IsmctsBot, Level, level_of, parse_budget
from laro.bots.judges import PlayoutJudge, judge_for, rank_values, win_shares
from laro.games.lama import GAME as LAMA
from laro.games.lama.actions import ACTIONS


def _midgame(name: str, players: int, seed: int, moves: int) -> laro.GameState:
    game = laro.get_game(name)
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("name", ["lama", "kamara"])
def test_chooses_a_legal_action_and_repeats_itself(name: str) -> None:
    for seed in range(4):
        state = _midgame(name, 3, seed, 2 + seed)
        seat = state.current_player
        assert seat is not None
        bot = IsmctsBot(simulations=60)
        first = bot.choose(state.observation(seat), state.legal_actions(), random.Random(seed))
        assert first in state.legal_actions()
        assert bot.stats.simulations == 60 or len(state.legal_actions()) == 1
        again = IsmctsBot(simulations=60).choose(state.observation(seat), state.legal_actions(), random.Random(seed))
        assert again == first


def test_a_single_legal_action_needs_no_search() -> None:
    state = _midgame("lama", 2, 3, 0)
    bot = IsmctsBot(simulations=50)
    legal = state.legal_actions()[:1]
    assert bot.choose(state.observation(state.current_player or 0), legal, random.Random(0)) == legal[0]
    assert bot.stats.simulations == 0


def test_visits_add_up_to_the_simulations() -> None:
    state = _midgame("lama", 4, 11, 5)
    bot = IsmctsBot(simulations=300)
    bot.choose(state.observation(state.current_player or 0), state.legal_actions(), random.Random(2))
    assert sum(visits for _, visits, _ in bot.stats.actions) == 300
    assert {text for text, _, _ in bot.stats.actions} == {str(a.index) for a in state.legal_actions()}
    assert all(0.0 <= value <= 1.0 for _, _, value in bot.stats.actions)


def test_a_time_budget_stops_the_search() -> None:
    state = _midgame("lama", 4, 5, 3)
    bot = IsmctsBot(seconds=0.05)
    assert bot.choose(state.observation(state.current_player or 0), state.legal_actions(), random.Random(0))
    assert bot.stats.simulations > 0
    assert bot.stats.seconds < 2.0  # it stopped (a generous bound: the check is on the clock every 16 simulations)


def test_it_plays_out_a_hand_that_empties() -> None:
    """One card left that can be played: playing it ends the round with no penalty (and a token back)."""
    data = LAMA.new_game(3, seed=1).to_json()
    pool = sorted(card for hand in data["hands"] for card in hand) + data["draw_pile"]
    card = data["discard_pile"][0]
    pool.remove(card)  # the deck has eight of each card: one more besides the top
    data["hands"] = [[card], pool[:6], pool[6:12]]
    data["draw_pile"] = pool[12:]
    data["current_player"] = 0
    data["quit"] = [False, False, False]
    data["scores"] = [20, 20, 20]
    state = LAMA.from_json(data)
    bot = IsmctsBot(simulations=200)
    choice = bot.choose(state.observation(0), state.legal_actions(), random.Random(0))
    assert str(choice) == f"play {card}"


def test_levels_and_budgets() -> None:
    assert level_of("lama", "easy").simulations < level_of("lama", "medium").simulations
    assert level_of("lama", "medium").simulations < level_of("lama", "hard").simulations
    assert {name for _, name in LEVELS} == {"easy", "medium", "hard"}
    with pytest.raises(ValueError, match="levels: easy, hard, medium"):
        IsmctsBot(level="expert")
    assert parse_budget("250") == (250, None)
    assert parse_budget("0.25s") == (None, 0.25)
    for bad in ("", "0", "-5", "s", "fast", "1.5"):
        with pytest.raises(ValueError, match="budget"):
            parse_budget(bad)


def test_the_bots_are_registered_for_every_game() -> None:
    for name in ("lama", "kamara"):
        assert {"easy", "medium", "hard", "ismcts"} <= set(list_bots(name))
        assert get_bot("ismcts:40", name).name == "ismcts:40"
    with pytest.raises(BotError, match="budget"):
        get_bot("ismcts:lots", "lama")
    with pytest.raises(BotError, match="with a budget"):
        get_bot("heuristic:5", "lama")


def test_judges() -> None:
    assert isinstance(judge_for(laro.get_game("lama")), object)
    assert rank_values([3, 1, 2], lower_is_better=True) == (0.0, 1.0, 0.5)
    assert rank_values([3, 1, 2], lower_is_better=False) == (1.0, 0.0, 0.5)
    state = _midgame("lama", 3, 2, 10_000)
    assert state.is_over
    shares = win_shares(state)
    assert sum(shares) == pytest.approx(1.0)
    assert PlayoutJudge().playout(state, random.Random(0)) == shares
    values = judge_for(LAMA).playout(_midgame("lama", 4, 9, 4), random.Random(0))
    assert len(values) == 4 and all(0.0 <= v <= 1.0 for v in values)


def test_the_lama_judge_policy_is_legal() -> None:
    judge = judge_for(LAMA)
    for seed in range(30):
        state = _midgame("lama", 2 + seed % 5, seed, seed * 3)
        if state.is_over:
            continue
        assert judge.policy(state, random.Random(seed)) in state.legal_actions()


def test_the_bot_sees_only_the_observation() -> None:
    """Two states that differ only in hidden cards get the same choice from the same rng."""
    state = _midgame("lama", 4, 21, 6)
    seat = state.current_player or 0
    data = state.to_json()
    others = [s for s in range(4) if s != seat]
    data["hands"][others[0]], data["hands"][others[1]] = data["hands"][others[1]], data["hands"][others[0]]
    data["hands"][others[0]], data["hands"][others[1]] = sorted(data["hands"][others[0]]), data["hands"][others[1]]
    data["seed"] += 1
    twin = LAMA.from_json(data)
    first = IsmctsBot(simulations=100).choose(state.observation(seat), state.legal_actions(), random.Random(4))
    second = IsmctsBot(simulations=100).choose(twin.observation(seat), twin.legal_actions(), random.Random(4))
    assert first == second


def test_the_lama_playout_policy_is_the_heuristic() -> None:
    """Without its random share, the L.A.M.A. judge's fast policy makes the heuristic bot's every choice."""
    from laro.bots.lama_judge import LamaJudge

    judge = LamaJudge(randomness=0.0)
    heuristic = get_bot("heuristic", "lama")
    compared = 0
    for seed in range(40):
        state = LAMA.new_game(2 + seed % 5, seed=seed, options={"end_score": 25 + seed})
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.current_player or 0
            expected = heuristic.choose(state.observation(seat), state.legal_actions(), rng)
            assert judge.policy(state, rng) == expected
            compared += 1
            state = state.apply(expected)
    assert compared > 2000


class _DrawPays:
    """A judge whose model quits, and whose playouts favour a state where a card was drawn by ``gain``, with a
    noise that depends on the hidden cards (the same for every action from one determinisation)."""

    def __init__(self, gain: float) -> None:
        self.gain = gain

    def policy(self, state: laro.GameState, rng: random.Random) -> laro.Action:
        return next(action for action in state.legal_actions() if str(action) == "quit")

    def playout(self, state: laro.GameState, rng: random.Random) -> list[float]:
        drew = getattr(state, "draw_pos", 0) > 0  # a determinisation deals the draw pile from position 0
        noise = hash(state.deck) % 1000 / 2000  # type: ignore[attr-defined]
        return [noise + (self.gain if drew else 0.0)] * state.num_players


def _paired_choice(gain: float) -> str:
    state = LAMA.new_game(3, seed=2)
    seat = state.current_player or 0
    bot = IsmctsBot(level="hard")
    settings = Level(simulations=600, confidence=2.0)
    bot.search(LAMA.sampler(state.observation(seat)), _DrawPays(gain), random.Random(1), settings)
    assert bot.stats.simulations >= 600
    assert {text for text, _, _ in bot.stats.actions} == {str(a.index) for a in state.legal_actions()}
    assert bot.preferred is not None
    return ACTIONS[bot.preferred].text


def test_the_paired_search_keeps_the_judges_move_without_a_real_gain() -> None:
    assert _paired_choice(0.0) == "quit"  # the same noise after every action: nothing to gain
    assert _paired_choice(0.02) == "draw"  # a gain far below the noise, but the same in every pair


class _NoisyDrawPays(_DrawPays):
    """Like :class:`_DrawPays`, but every playout has a noise of its own: the gain shows only over many pairs."""

    def playout(self, state: laro.GameState, rng: random.Random) -> list[float]:
        drew = getattr(state, "draw_pos", 0) > 0
        return [rng.random() * 0.5 + (self.gain if drew else 0.0)] * state.num_players


def test_a_close_call_gets_more_simulations() -> None:
    state = LAMA.new_game(3, seed=2)
    sample = LAMA.sampler(state.observation(state.current_player or 0))
    bot = IsmctsBot(level="hard")
    bot.search(sample, _NoisyDrawPays(0.03), random.Random(3), Level(simulations=600, confidence=2.0))
    assert bot.stats.simulations < 700 and ACTIONS[bot.preferred or 0].text == "quit"  # not yet beyond doubt
    close = Level(simulations=600, confidence=2.0, close_calls=9000)
    bot.search(sample, _NoisyDrawPays(0.03), random.Random(3), close)
    assert 700 < bot.stats.simulations <= 9000 + 3 and ACTIONS[bot.preferred or 0].text == "draw"
    bot.search(sample, _NoisyDrawPays(0.0), random.Random(3), close)
    assert bot.stats.simulations < 9000  # no gain in sight: no more than a close call needs


def test_a_budget_given_is_kept_exactly() -> None:
    assert IsmctsBot(level="hard").settings("lama").close_calls == level_of("lama", "hard").close_calls
    assert IsmctsBot(level="hard", simulations=500).settings("lama").close_calls is None
    state = _midgame("lama", 4, 11, 5)
    bot = get_bot("ismcts:90", "lama")
    assert isinstance(bot, IsmctsBot)
    bot.choose(state.observation(state.current_player or 0), state.legal_actions(), random.Random(2))
    assert bot.stats.simulations <= 90 + len(state.legal_actions()) - 1  # whole pairs: at most one more sample
