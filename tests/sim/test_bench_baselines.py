"""``laro bench``'s figures against baselines measured in the same run: L.A.M.A.'s hard search with its judge's
specialised playouts against the same search with the judge's general ones, and the engine's random playouts
against OpenSpiel's C++ leduc_poker."""

from __future__ import annotations

import pytest

from laro.games.lama import GAME
from laro.sim.bench import SPIEL_BASELINES, SPIEL_RATIO, _against_spiel
from laro.sim.search_bench import SPECIALISED, SPECIALISED_SPEED_UP, bench_search


def test_the_specialised_playouts_are_measured_against_the_general_ones() -> None:
    figures = {figure.name: figure for figure in bench_search("lama", seconds=0.2, players=3)}
    against = figures[SPECIALISED]
    assert against.value > 0 and against.baseline is not None and against.baseline > 0
    assert against.target_ratio == SPECIALISED_SPEED_UP and against.meets_target in (True, False)
    assert "move by move" in against.baseline_name


@pytest.mark.parametrize("edition", ["classic", "party"])
def test_the_engine_is_measured_against_openspiel_when_installed(edition: str) -> None:
    pytest.importorskip("pyspiel")
    against = _against_spiel("lama", lambda seed: GAME.new_game(4, seed=seed, options={"edition": edition}), 0.05)
    assert against is not None and against.name == SPIEL_RATIO
    assert against.value > 0 and against.baseline is not None and against.baseline > 0
    assert "leduc_poker" in against.baseline_name
    assert against.target_ratio == SPIEL_BASELINES["lama"][1]
