"""Kamara's ``easy`` bot, also called ``ismcts`` (the search's ``hard`` level): the heuristic's moves, its
Exchanges weighed by paired playouts over a few turns. Kamara's ``medium`` and ``hard`` leave it every decision
but their turns' work."""

from __future__ import annotations

import random

import laro
from laro.bots.base import get_bot
from laro.bots.ismcts import IsmctsBot, Level
from laro.bots.judges import judge_for
from laro.bots.kamara_heuristic import KamaraHeuristicBot
from laro.bots.kamara_judge import KamaraJudge, play_on
from laro.games.kamara.actions import EXCHANGE
from laro.games.kamara.state import KamaraState

KAMARA = laro.get_game("kamara")


def _game(bot: IsmctsBot, seed: int, players: int = 4) -> tuple[int, int, int]:
    """Seat 0 is ``bot``, the rest heuristic bots: (turn moves where ``bot`` left the heuristic's choice, its
    searched decisions, all its moves)."""
    state = KAMARA.new_game(players, seed=seed, options={"max_rounds": 12})
    others = [KamaraHeuristicBot() for _ in range(players)]
    shadow = KamaraHeuristicBot()
    rngs = [random.Random(seed * 10 + seat) for seat in range(players)]
    left = searched = moves = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        observation, legal = state.observation(seat), state.legal_actions()
        if seat == 0:
            action = bot.choose(observation, legal, rngs[seat])
            planned = shadow.choose(observation, legal, random.Random(0))
            assert action in legal
            searched += bool(bot.stats.simulations)
            if action != planned and state.phase == "play":  # setup draws on the rng, the turns do not
                assert planned.kind == EXCHANGE and action.kind != EXCHANGE
                left += 1
            moves += 1
        else:
            action = others[seat].choose(observation, legal, rngs[seat])
        state = state.apply(action)
    return left, searched, moves


def test_easy_plays_the_heuristic_but_weighs_its_exchanges() -> None:
    left = searched = moves = 0
    for seed in range(3):
        bot = get_bot("easy", "kamara")
        assert isinstance(bot, IsmctsBot)
        game_left, game_searched, game_moves = _game(bot, seed)
        left, searched, moves = left + game_left, searched + game_searched, moves + game_moves
    assert moves > 50
    assert 0 < searched < moves / 4  # only the Exchanges are searched
    assert left <= searched


def test_with_a_wide_margin_hard_is_the_heuristic() -> None:
    class Sure(IsmctsBot):
        def settings(self, game: str) -> Level:
            return Level(simulations=8, confidence=50.0)

    left, searched, moves = _game(Sure(level="hard"), seed=5)
    assert left == 0 and searched > 0 and moves > 20


def test_the_candidates_are_the_heuristics_move_and_keeping_the_card() -> None:
    judge = judge_for(KAMARA)
    assert isinstance(judge, KamaraJudge)
    state = KAMARA.new_game(4, seed=3)
    bot = KamaraHeuristicBot()
    seen = 0
    for _ in range(3000):
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        observation, legal = state.observation(seat), state.legal_actions()
        planned = bot.choose(observation, legal, random.Random(1))
        if state.phase == "play":
            candidates = judge.candidates(observation, legal, random.Random(1))
            assert candidates[0] == planned
            if planned.kind == EXCHANGE and observation["pending"] is None:
                assert len(candidates) == 2 and candidates[1].kind != EXCHANGE and candidates[1] in legal
                seen += 1
            else:
                assert len(candidates) == 1
        state = state.apply(planned)
    assert seen > 0


def test_the_lookahead_plays_its_turns_and_values_every_seat() -> None:
    state = KAMARA.new_game(4, seed=2)
    bot = KamaraHeuristicBot()
    while state.phase != "play":
        seat = state.current_player
        assert seat is not None
        state = state.apply(bot.choose(state.observation(seat), state.legal_actions(), random.Random(seat)))
    assert isinstance(state, KamaraState)
    later = play_on(state, 4)
    assert later.is_over or later.current_player == state.current_player  # four turns of four players
    values = KamaraJudge().lookahead(state, random.Random(0))
    assert len(values) == 4 and all(0.0 <= v <= 1.0 for v in values)
    assert list(values) == list(KamaraJudge().lookahead(state, random.Random(9)))  # the model draws no luck
