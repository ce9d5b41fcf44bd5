"""The hard search's batched playouts (``laro.bots.lama_batch``) play every determinisation by every action exactly as
the specialised loops play them one at a time: the same rounds, the same values, from the same random numbers; so
the batched search is the same search, to every visit and mean value, and makes the same choices."""

from __future__ import annotations

import random
import threading

import pytest

from laro.bots import lama_batch
from laro.bots.ismcts import IsmctsBot, Level
from laro.bots.lama_batch import values_of
from laro.bots.lama_deals import deal_many
from laro.bots.lama_judge import LamaJudge
from laro.games.lama import GAME
from laro.games.lama.sampling import LamaSampler
from laro.sim.search_bench import decision_positions

BATCHED, ONE_AT_A_TIME = LamaJudge(), LamaJudge(batched=False)
CASES = [(2, "classic"), (3, "classic"), (4, "classic"), (6, "classic"), (3, "party"), (4, "party"), (5, "party")]


def _compare_with_the_scalar_loop(players: int, edition: str, positions: int, count: int) -> int:
    """Play ``count`` determinisations of each of ``positions`` decisions by every action in one batch and one at a
    time: the same values for each. Returns how many were compared."""
    compared = 0
    for k, position in enumerate(decision_positions("lama", players, positions, {"edition": edition})):
        sample = position.sampler(BATCHED)
        assert isinstance(sample, LamaSampler)
        seat = position.observation["seat"]
        actions = sample(random.Random(k)).legal_actions()
        dealt = deal_many(sample, random.Random(k), count)
        drawn = dealt.drawn()
        values = values_of(BATCHED, sample, dealt, actions)
        rng = random.Random(k)
        for row in range(count):
            state = sample(rng)  # the same determinisations, drawn one at a time
            assert (state.hands, state.deck, state.seed) == drawn[row]
            assert state.observation(seat) == position.observation
            scalar = ONE_AT_A_TIME.play_each(state, actions, rng)
            assert values[row].tolist() == [outcome[seat] for outcome in scalar]
            compared += len(actions)
    return compared


@pytest.mark.parametrize(("players", "edition"), CASES)
def test_a_batch_plays_each_determinisation_as_the_specialised_loop(players: int, edition: str) -> None:
    assert _compare_with_the_scalar_loop(players, edition, 6, 30) > 300


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_classic_batch_played_to_the_end_by_its_tables_plays_as_the_scalar_loop(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No round is handed to the scalar loop: every move of every round is read from the classic tables."""
    monkeypatch.setattr(lama_batch, "_TAIL", 0)
    monkeypatch.setattr(lama_batch, "_CLASSIC_SHIFT_TAIL", 62)
    assert _compare_with_the_scalar_loop(players, "classic", 5, 80) > 800


@pytest.mark.parametrize(("players", "edition"), CASES)
def test_determinisations_drawn_in_bulk_are_those_drawn_one_at_a_time(players: int, edition: str) -> None:
    """Every hand, draw pile and seed, with and without beliefs that limit some cards; the generator is left where
    drawing them one at a time leaves it."""
    limited = 0
    for k, position in enumerate(decision_positions("lama", players, 8, {"edition": edition})):
        sample = position.sampler(BATCHED)
        assert isinstance(sample, LamaSampler)
        limited += bool(sample.limits)
        for count, first in ((25, False), (9, True), (1, True)):
            one, many = random.Random(k), random.Random(k)
            state = sample(one) if first else None
            expected = [(state.hands, state.deck, state.seed)] if state else []
            expected += [sample.deal(one) for _ in range(count - len(expected))]
            if first:
                sample(many)
            assert deal_many(sample, many, count, state).drawn() == expected
            assert one.getstate() == many.getstate()
    assert limited or players == 2


@pytest.mark.parametrize(("players", "edition"), CASES)
def test_the_batched_search_is_the_search_one_determinisation_at_a_time(players: int, edition: str) -> None:
    """The same seed gives the same search: the simulations, every action's visits and mean value, the choice."""
    settings = Level(simulations=300, confidence=2.0, close_calls=1200)
    for k, position in enumerate(decision_positions("lama", players, 5, {"edition": edition})):
        searched = []
        for judge in (BATCHED, ONE_AT_A_TIME):
            bot = IsmctsBot(level="hard")
            bot.search(position.sampler(judge), judge, random.Random(k), settings)
            searched.append((bot.stats.simulations, bot.stats.actions, bot.preferred))
        assert searched[0] == searched[1]


def test_the_hard_bot_chooses_alike_with_and_without_batches() -> None:
    for position in decision_positions("lama", 4, 4, None):
        legal = GAME.sampler(position.observation)(random.Random(0)).legal_actions()
        bot = IsmctsBot(level="hard")
        bot.memory = dict(position.memory)
        chosen = bot.choose(position.observation, legal, random.Random(3))
        assert chosen in legal
        settings = bot.settings("lama")
        reference = IsmctsBot(level="hard")
        reference.search(position.sampler(ONE_AT_A_TIME), ONE_AT_A_TIME, random.Random(3), settings)
        assert bot.stats.actions == reference.stats.actions


def test_a_time_budget_searches_in_batches_until_the_clock() -> None:
    position = decision_positions("lama", 4, 1, None)[0]
    bot = IsmctsBot(level="hard", seconds=0.05)
    bot.search(position.sampler(BATCHED), BATCHED, random.Random(1), bot.settings("lama"))
    assert bot.stats.simulations > 0 and bot.stats.seconds < 5


def test_threads_drawing_in_bulk_at_once_each_get_their_own_determinisations() -> None:
    position = decision_positions("lama", 4, 1, None)[0]
    sample = position.sampler(BATCHED)
    assert isinstance(sample, LamaSampler)
    expected = {seed: deal_many(sample, random.Random(seed), 40).drawn() for seed in (1, 2)}
    found: dict[int, list[bool]] = {1: [], 2: []}

    def draw(seed: int) -> None:
        for _ in range(30):
            found[seed].append(deal_many(sample, random.Random(seed), 40).drawn() == expected[seed])

    threads = [threading.Thread(target=draw, args=(seed,)) for seed in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert found == {1: [True] * 30, 2: [True] * 30}
