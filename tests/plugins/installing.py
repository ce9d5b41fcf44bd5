"""A game laro does not ship, installed as a package: ``ember`` (tests/plugins/ember.py) in a folder of its own
with an ``ember-1.0.dist-info`` whose ``entry_points.txt`` offers it in the ``laro.games`` group — what ``pip
install`` would leave in site-packages. The folder is put on this process's path and on ``PYTHONPATH`` for the
processes it starts (the server, its bot workers, a tournament's); nothing of laro is changed for it.

The fixtures are registered in tests/plugins/conftest.py and imported by the browser test (tests/web).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.web.conftest import browser, playwright_instance

from laro.core import registry

__all__ = ["browser", "ember_site", "installed", "playwright_instance"]

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def ember_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder that holds the ``ember`` package as an installer leaves it."""
    site = tmp_path_factory.mktemp("site")
    shutil.copy(HERE / "ember.py", site / "ember.py")
    info = site / "ember-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ember\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[laro.games]\nember = ember:GAME\n", encoding="utf-8")
    return site


@pytest.fixture
def installed(ember_site: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Ember installed for this test: on ``sys.path``, on ``PYTHONPATH`` for child processes, the registry's
    reading of the entry points made afresh (and again after the test, without it)."""
    monkeypatch.syspath_prepend(str(ember_site))
    before = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", str(ember_site) if not before else f"{ember_site}{os.pathsep}{before}")
    _forget()
    yield ember_site
    _forget()
    sys.modules.pop("ember", None)


def _forget() -> None:
    registry._installed = None
    registry._loaded.pop("ember", None)
