"""examples/lama_hand_information.py: what knowing the other hands is worth (docs/bots.md quotes its figures)."""

from __future__ import annotations

import random
import re
from types import ModuleType

import pytest
from tests.examples import load_example

import laro


@pytest.fixture(scope="module")
def example() -> ModuleType:
    return load_example("lama_hand_information")


@pytest.mark.parametrize("edition", ["classic", "party"])
def test_known_hands_keep_every_hand_and_shuffle_only_the_unseen_draw_pile(example: ModuleType, edition: str) -> None:
    state = laro.get_game("lama").new_game(4, seed=3, options={"edition": edition})
    for action in ("draw", "draw"):
        state = state.apply(action)
    sample = example.known_hands(state)(random.Random(1))
    assert sample.hands == state.hands
    assert sample.deck[: state.draw_pos] == state.deck[: state.draw_pos]
    assert sorted(sample.deck) == sorted(state.deck)
    assert sample.deck != state.deck  # 29 cards left in the pile: the same order would be a broken shuffle
    assert sample.seed != state.seed and sample.legal_actions() == state.legal_actions()


def test_hidden_hands_are_the_games_own_determinisations(example: ModuleType) -> None:
    state = laro.get_game("lama").new_game(4, seed=3)
    seat = state.current_player
    sample = example.hidden_hands(state)(random.Random(1))
    assert sample.observation(seat) == state.observation(seat)
    assert sample.hands != state.hands


def test_the_script_prints_the_share(example: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    example.main(["--games", "4", "--samples", "5", "--hands", "known"])
    line = capsys.readouterr().out.strip()
    found = re.fullmatch(r"hands known, classic: the searching seat won (\d+\.\d)% of 4 games \(95% CI .*", line)
    assert found is not None, line
    assert float(found.group(1)) * 4 / 100 in {0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4}  # whole or shared wins
