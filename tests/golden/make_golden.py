"""Regenerate the golden game records: ``.venv/bin/python tests/golden/make_golden.py``.

Each case plays one game with random actions from a fixed generator and writes ``<name>.json`` beside this file:
``{"record": GameRecord.to_json(), "final_state": final state.to_json()}``. ``test_golden.py`` replays the
checked-in records and compares them with the checked-in final states; regenerate only when the rules change on
purpose (and bump the game's rules_version), then review the diff.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import laro
from laro.core import GameRecord, result_of

HERE = Path(__file__).resolve().parent

# name: (game, players, seed, options, how often the random policy may quit: low values draw the pile empty;
# Kamara has no quit)
CASES: dict[str, tuple[str, int, int, dict[str, Any], float]] = {
    "lama-2p-default": ("lama", 2, 20240101, {}, 1.0),
    "lama-3p-drawn-out": ("lama", 3, 31337, {}, 0.02),
    "lama-4p-ended-round": ("lama", 4, 4444, {"next_round_starter": "ended_round"}, 0.3),
    "lama-5p-boxed": ("lama", 5, 55555, {"token_supply": "boxed"}, 0.3),
    "lama-6p-end-score-25": ("lama", 6, 666666, {"end_score": 25}, 0.3),
    "lama-party-3p": ("lama", 3, 20201001, {"edition": "party"}, 0.1),
    "lama-party-5p-boxed-ended-round": (
        "lama",
        5,
        4040,
        {"edition": "party", "token_supply": "boxed", "next_round_starter": "ended_round"},
        0.1,
    ),
    "kamara-2p-default": ("kamara", 2, 20261130, {}, 1.0),
    "kamara-4p-one-match-wins": ("kamara", 4, 4242, {"target_matches": 1}, 1.0),
    "kamara-5p-open-cards": ("kamara", 5, 5005, {"open_cards": True, "max_rounds": 30}, 1.0),
    "kamara-8p-short": ("kamara", 8, 88888888, {"max_rounds": 12, "actions_per_turn": 3, "elder": 5}, 1.0),
}


def build(name: str) -> dict[str, Any]:
    """Play the case ``name`` and return its golden file's content."""
    game_name, num_players, seed, options, quit_weight = CASES[name]
    rng = random.Random(name)
    state = laro.get_game(game_name).new_game(num_players, seed=seed, options=options)
    record = GameRecord.start(state, seed=seed, players=[f"random-{seat}" for seat in range(num_players)])
    while not state.is_over:
        legal = state.legal_actions()
        others = [action for action in legal if str(action) != "quit"]
        action = rng.choice(others) if others and rng.random() > quit_weight else rng.choice(legal)
        record.actions.append(str(action))
        state = state.apply(action)
    record.result = result_of(state)
    return {"record": record.to_json(), "final_state": state.to_json()}


def main() -> None:
    for name in CASES:
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(build(name), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(HERE.parent.parent)}")


if __name__ == "__main__":
    main()
