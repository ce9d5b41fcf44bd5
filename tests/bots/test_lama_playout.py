"""The judge's specialised round playouts play exactly as its general, move-by-move ones, in both editions: the
same moves, the same hands at the end, the same values, so the ``hard`` bot makes the same choices from the same
seed."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from laro.bots import lama_party
from laro.bots.base import get_bot
from laro.bots.ismcts import IsmctsBot, Level
from laro.bots.lama_judge import LamaJudge, _leaning
from laro.bots.lama_party import DRAW_MOVE, QUIT_MOVE
from laro.bots.lama_playout import finish_party_round, finish_round, make_move, round_value, win_chances
from laro.games.lama import GAME, LamaState
from laro.games.lama.actions import DRAW
from laro.games.lama.cards import RANK

SPECIALISED, GENERAL = LamaJudge(batched=False), LamaJudge(specialised=False)


def _states(players: int, seed: int, edition: str = "classic") -> Iterator[LamaState]:
    """Every state of a game whose seats play by turns like the heuristic and at random (quits, empty draw
    piles and lone players included), with a low end score so that games end too."""
    options = {"edition": edition, "end_score": 20 + seed % 3 * 10}
    if seed % 2:
        options["token_supply"] = "boxed"
    state = GAME.new_game(players, seed=seed, options=options)
    heuristic = get_bot("heuristic", "lama")
    rng = random.Random(seed)
    while not state.is_over:
        yield state
        legal = state.legal_actions()
        if rng.random() < 0.5:
            action = heuristic.choose(state.observation(state.current_player or 0), legal, rng)
        else:
            action = legal[rng.randrange(len(legal))]
        state = state.apply(action)
    yield state


def _general_round(state: LamaState, rng: random.Random) -> tuple[int, list[int]]:
    """Who ends the round of ``state`` and the hands then, by the judge's general loops."""
    if not state.party:
        return GENERAL._finish_round(state, rng)
    hands = state.hands.copy()
    seat = state.current_player or 0
    args = (state.deck, state.draw_pos, state.quit_mask, state.discard[-1], seat, _leaning(state), 0.0, rng)
    return lama_party.finish_party_round(hands, *args), hands


@pytest.mark.parametrize("edition", ["classic", "party"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_specialised_round_plays_as_the_general_one(players: int, edition: str) -> None:
    compared = 0
    finish = finish_party_round if edition == "party" else finish_round
    for seed in range(20):
        for state in _states(players, seed, edition):
            rng = random.Random(seed)
            assert list(SPECIALISED.playout(state, rng)) == list(GENERAL.playout(state, rng))
            if state.is_over:
                continue
            hands = state.hands.copy()
            seat = state.current_player or 0
            top = RANK[state.discard[-1]]
            ended_by = finish(hands, state.deck, state.draw_pos, state.quit_mask, top, seat, _leaning(state))
            assert (ended_by, hands) == _general_round(state, rng)
            compared += 1
    assert compared > 300


@pytest.mark.parametrize("edition", ["classic", "party"])
def test_each_action_plays_out_as_its_state(edition: str) -> None:
    """``play_each`` gives every action the value of a playout of its state, also when the action itself ends
    the round (a last card, a last quit) or the game."""
    ends = compared = 0
    for seed in range(12):
        for state in _states(2 + seed % 5, seed, edition):
            if state.is_over:
                continue
            legal = state.legal_actions()
            rng = random.Random(seed)
            after = [state.apply(action) for action in legal]
            assert SPECIALISED.play_each(state, legal, rng) == [SPECIALISED.playout(s, rng) for s in after]
            ends += sum(s.round != state.round or s.is_over for s in after)
            compared += len(legal)
    assert compared > 500 and ends > 5


@pytest.mark.parametrize("edition", ["classic", "party"])
def test_a_move_on_the_numbers_is_the_rules_move(edition: str) -> None:
    again = 0
    for seed in range(10):
        for state in _states(2 + seed % 5, seed, edition):
            for action in state.legal_actions():
                hands = state.hands.copy()
                move = action.card if action.card is not None else DRAW_MOVE if action is DRAW else QUIT_MOVE
                seat = state.current_player or 0
                top = RANK[state.discard[-1]]
                moved = make_move(hands, state.deck, state.draw_pos, state.quit_mask, top, seat, move)
                after = state.apply(action)
                if moved is None:
                    assert after.is_over or after.round == state.round + 1
                    continue
                assert after.round == state.round
                assert moved == (after.draw_pos, after.quit_mask, RANK[after.discard[-1]], after.current_player)
                assert hands == after.hands
                again += after.current_player == seat
    assert edition == "classic" or again > 10  # plus cards give another turn


def _decisions(players: int, count: int, edition: str) -> Iterator[LamaState]:
    """Decisions with a choice to make, from heuristic games."""
    found = 0
    for seed in range(100):
        for state in _states(players, seed, edition):
            if len(state.legal_actions()) > 2 and found < count:
                found += 1
                yield state


@pytest.mark.parametrize(("players", "edition"), [(3, "classic"), (5, "classic"), (4, "party")])
def test_the_hard_bot_searches_as_with_the_general_playout(players: int, edition: str) -> None:
    """The same seed gives the same search: every action's visits and mean value, and the choice."""
    settings = Level(simulations=240, confidence=2.0)
    for k, state in enumerate(_decisions(players, 4, edition)):
        seat = state.current_player or 0
        searched = []
        for judge in (SPECIALISED, GENERAL):
            bot = IsmctsBot(level="hard")
            sample = judge.sampler(GAME, state.observation(seat), {})
            bot.search(sample, judge, random.Random(k), settings)
            searched.append((bot.stats.simulations, bot.stats.actions, bot.preferred))
        assert searched[0] == searched[1]


def test_a_round_that_ends_the_game_gives_the_win() -> None:
    assert round_value((12, 41, 12), 40) == [0.5, 0.0, 0.5]
    for totals in ([10, 20, 30], [0, 0, 39, 7], [25, 3, 31, 31, 30, 12]):
        assert round_value(totals, 40) == win_chances(totals, 40)  # the same numbers, to the last bit
