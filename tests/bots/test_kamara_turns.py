"""Kamara's ``turns`` bot: whole turns listed, searched under sampled hidden cards, and played as planned."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import laro
from laro.bots.base import get_bot, level_of_bot, list_bots, offered_bots
from laro.bots.ismcts import IsmctsBot
from laro.bots.kamara_heuristic import KamaraHeuristicBot
from laro.bots.kamara_turns import Settings, TurnSearchBot, turns
from laro.games.kamara.actions import END
from laro.games.kamara.state import KamaraState
from laro.sim.tournament import Tournament, run_tournament

KAMARA = laro.get_game("kamara")


def _in_play(seed: int, players: int = 4) -> KamaraState:
    """A position in play, some turns in, reached by heuristic bots."""
    state = KAMARA.new_game(players, seed=seed)
    bots = [KamaraHeuristicBot() for _ in range(players)]
    rng = random.Random(seed)
    while state.phase != "play" or state.round < 3:
        seat = state.current_player
        assert seat is not None
        state = state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), rng))
    while state.actions_left != state.options["actions_per_turn"] or state.pending is not None:
        seat = state.current_player
        assert seat is not None
        state = state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), rng))
    return state


def test_every_turn_listed_is_played_by_legal_actions_and_ends_the_turn() -> None:
    for seed in range(3):
        state = _in_play(seed)
        seat = state.current_player
        listed = turns(state, 4_000)
        assert len(listed) > 5
        ends = set()
        for end, path in listed:
            replayed = state
            for action in path:
                assert action in replayed.legal_actions()
                replayed = replayed.apply(action)
            assert replayed.to_json() == end.to_json()
            assert end.current_player != seat or end.is_over
            assert len(path) <= state.actions_left
            ends.add((end.diwa, end.tiles, end.yellow[seat], len(end.matched[seat]), end.green[seat]))
        assert len(ends) == len(listed)  # one sequence per position
        assert any(len(path) == 1 and path[0].kind == END for _, path in listed)


def test_the_listing_stops_at_its_limit() -> None:
    state = _in_play(1)
    assert len(turns(state, 3)) < len(turns(state, 4_000))


def _play(bot: TurnSearchBot, seed: int) -> tuple[int, int]:
    """Seat 0 is ``bot`` against heuristic bots for a few rounds: (its moves, its moves that were not legal)."""
    state = KAMARA.new_game(4, seed=seed, options={"max_rounds": 6})
    others = [KamaraHeuristicBot() for _ in range(4)]
    rngs = [random.Random(seed * 10 + seat) for seat in range(4)]
    moves = wrong = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        chooser = bot if seat == 0 else others[seat]
        action = chooser.choose(state.observation(seat), legal, rngs[seat])
        if seat == 0:
            moves += 1
            wrong += action not in legal
        state = state.apply(action)
    return moves, wrong


def test_hard_searches_turns_and_plays_only_legal_actions() -> None:
    bot = TurnSearchBot(Settings(samples=6, shortlist=3))
    moves, wrong = _play(bot, 2)
    assert moves > 20 and not wrong
    assert bot.searched > 3
    assert bot.left <= bot.searched


def test_the_same_seed_gives_the_same_game() -> None:
    first, second = TurnSearchBot(Settings(samples=4, shortlist=2)), TurnSearchBot(Settings(samples=4, shortlist=2))
    _play(first, 5)
    _play(second, 5)
    assert (first.searched, first.left) == (second.searched, second.left)


def test_kamaras_levels_are_the_paired_search_then_the_turn_search_at_two_budgets() -> None:
    for name in ("hard", "turns"):
        bot = get_bot(name, "kamara")
        assert isinstance(bot, TurnSearchBot) and bot.name == "hard" and bot.settings == Settings()
    medium = get_bot("medium", "kamara")
    assert isinstance(medium, TurnSearchBot) and medium.settings == Settings(samples=48)
    for name in ("easy", "ismcts"):  # the paired search, on its own
        easy = get_bot(name, "kamara")
        assert isinstance(easy, IsmctsBot) and easy.name == "easy" and easy.level == "hard"
    assert not isinstance(get_bot("hard", "lama"), TurnSearchBot)
    assert level_of_bot("turns", "kamara") == "hard" and level_of_bot("ismcts", "kamara") == "easy"
    assert {"ismcts", "turns"} <= set(list_bots("kamara"))
    assert offered_bots("kamara") == ["easy", "hard", "heuristic", "medium", "random"]  # each bot once


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["kamara-hard-heuristic-seed4", "kamara-medium-heuristic-seed2", "kamara-easy-heuristic-seed2"]
)
def test_the_published_games_of_the_levels_replay(name: str) -> None:
    """The first two games of a file in docs/strength come out the same from its command today: ``hard``'s,
    ``medium``'s (the turn search at ``hard``'s settings until then, played as ``turns``), and ``easy``'s (the paired
    search, played as ``hard``)."""
    path = Path(__file__).parents[2] / "docs" / "strength" / f"{name}.jsonl"
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    tournament = Tournament.create("kamara", header["bots"], seed=header["seed"])
    replayed = run_tournament(tournament, 2)
    assert [result.to_json() for result in replayed] == [json.loads(line) for line in lines[1:3]]
