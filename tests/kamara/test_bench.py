"""``laro bench kamara``'s figures against baselines measured in the same run: the engine's random playouts
against OpenSpiel's pure-Python tic-tac-toe and against the engine reading its geometry from the walls; the
OpenSpiel game's playouts against the engine itself; the hard search against OpenSpiel's tic-tac-toe."""

from __future__ import annotations

import pytest

from laro.games.kamara import GAME
from laro.sim.bench import BRIDGE_RATIO, SPIEL_BASELINES, SPIEL_RATIO, _against_spiel, _baselines, against_bridge
from laro.sim.search_bench import SEARCH_AGAINST_SPIEL, SEARCH_SPIEL, decision_positions
from laro.sim.search_bench import _against_spiel as search_against_spiel


def test_the_playouts_are_measured_against_the_geometry_read_from_the_walls() -> None:
    found = dict(_baselines("kamara", 3, 0.05))
    rebuilt = next(moves for name, moves in found.items() if "geometry" in name)
    assert rebuilt > 0


def test_the_playouts_are_measured_against_openspiels_tic_tac_toe() -> None:
    pytest.importorskip("pyspiel")
    against = _against_spiel("kamara", lambda seed: GAME.new_game(4, seed=seed), 0.05)
    assert against is not None and against.name == SPIEL_RATIO
    assert against.value > 0 and against.baseline is not None and against.baseline > 0
    assert "pure-Python python_tic_tac_toe" in against.baseline_name
    assert against.target_ratio == SPIEL_BASELINES["kamara"][1] == 3.0


def test_the_openspiel_game_is_measured_against_the_engine() -> None:
    pytest.importorskip("pyspiel")
    import laro.rl.spiel  # noqa: F401  # registers python_laro_kamara

    figure = against_bridge("kamara", 2, 0.05)
    assert figure.name == BRIDGE_RATIO and figure.value > 0
    assert figure.baseline is not None and figure.baseline > 0 and "played directly" in figure.baseline_name


def test_the_hard_search_is_measured_against_openspiels_tic_tac_toe() -> None:
    pytest.importorskip("pyspiel")
    figure = search_against_spiel(decision_positions("kamara", 3, 4), 0.2)
    assert figure is not None and figure.name == SEARCH_SPIEL
    assert figure.value > 0 and figure.baseline is not None and figure.baseline > 0
    assert figure.target_ratio == SEARCH_AGAINST_SPIEL["kamara"][1] > 0
