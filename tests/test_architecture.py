"""The import arrows of docs/architecture.md ("The layers"): every module under src/laro is read with ast and
each import is checked against its layer's rule.

- core imports only the standard library and laro.core;
- games/<x> imports only laro.core and its own package (never another game, bots or an adapter), stdlib only;
- bots import only laro.core, laro.games and laro.bots, the standard library and numpy (a dependency of laro
  itself: the hard L.A.M.A. search plays its playouts in batches, and the learned bot's network runs on it);
- adapters (cli, server, sim, rl, web) may import core, games, bots and third-party packages, but not each other,
  except from cli: the command line is the face of the other adapters (`laro bench` and `laro tournament` run
  sim's code, `laro serve` starts the server, `laro bench server` measures it, `laro bench rl` measures the
  batched engine), so cli -> sim, cli -> server and cli -> rl are allowed on purpose;
- rl (the environments, the OpenSpiel bridge and the batched engine) imports only core, games and bots, plus its
  own extra's packages (numpy, gymnasium, pettingzoo, open_spiel): never cli, server or sim;
- the package root (laro/__init__.py) is the public facade over core: stdlib and laro.core only; adapters may
  import it (e.g. for ``laro.__version__``), inner layers import laro.core instead.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import laro

SRC = Path(laro.__file__).resolve().parent
ADAPTERS = ("cli", "server", "sim", "rl", "web")
ALLOWED_BETWEEN_ADAPTERS = {("cli", "sim"), ("cli", "server"), ("cli", "rl")}
STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def module_name(path: Path) -> str:
    parts = ["laro", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(SRC.rglob("*.py"))}


def imported(name: str, path: Path, tree: ast.AST) -> list[str]:
    """The absolute names of everything ``tree`` imports (imports under TYPE_CHECKING included)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.append(candidate if candidate in MODULES else base)
    return found


def layer(name: str) -> str:
    """core, games, bots, an adapter's name, root (laro itself) or main (laro.__main__, the cli's entry)."""
    parts = name.split(".")
    if len(parts) == 1:
        return "root"
    if parts[1] == "__main__":
        return "cli"
    return parts[1]


def wrong_arrows(name: str, targets: list[str]) -> list[str]:
    """Why each import of module ``name`` breaks the rules (empty if none does)."""
    source = layer(name)
    errors = []
    for target in targets:
        top = target.split(".")[0]
        if top != "laro":
            if top not in STDLIB and source not in ADAPTERS and not (source == "bots" and top == "numpy"):
                errors.append(f"{name} imports the third-party {target!r}: only adapters may")
            continue
        if target == "laro":  # the facade (core's public names and __version__), for adapters only
            if source not in ADAPTERS:
                errors.append(f"{name} imports the laro facade; import from laro.core instead")
            continue
        to = layer(target)
        if source in ("core", "root"):
            ok = to == "core"
        elif source == "games":
            own = ".".join(name.split(".")[:3])  # laro.games.<x>; laro.games itself for the package module
            ok = to == "core" or target == own or target.startswith(own + ".") or target == "laro.games"
        elif source == "bots":
            ok = to in ("core", "games", "bots")
        elif source in ADAPTERS:
            ok = to in ("core", "games", "bots", source) or (source, to) in ALLOWED_BETWEEN_ADAPTERS
        else:
            errors.append(f"{name} is in no known layer; add {source!r} to {Path(__file__).name}")
            break
        if not ok:
            errors.append(f"{name} ({source}) must not import {target} ({to})")
    return errors


@pytest.mark.parametrize("name", sorted(MODULES))
def test_import_arrows_point_inward(name: str) -> None:
    """Each module imports only what its layer may (see the module docstring)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert wrong_arrows(name, imported(name, path, tree)) == []


def test_every_layer_is_known() -> None:
    """Every subpackage of laro is a layer this test knows."""
    assert {layer(name) for name in MODULES} <= {"root", "core", "games", "bots", *ADAPTERS}
    assert {"laro.core", "laro.games.lama", "laro.rl"} <= set(MODULES)


def _check(name: str, source: str) -> list[str]:
    path = SRC.joinpath(*name.split(".")[1:]).with_suffix(".py")
    return wrong_arrows(name, imported(name, path, ast.parse(source)))


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("laro.core.x", "import laro.games.lama"),
        ("laro.core.x", "from laro.bots import base"),
        ("laro.core.x", "import numpy"),
        ("laro.core.x", "import laro"),
        ("laro.games.lama.x", "from laro.games.kamara import cards"),
        ("laro.games.lama.x", "from laro.bots.base import Bot"),
        ("laro.games.lama.x", "from ...cli import main"),
        ("laro.games.lama.x", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import laro.sim"),
        ("laro.games.lama.x", "import click"),
        ("laro.bots.x", "import laro.cli"),
        ("laro.bots.x", "import gymnasium"),
        ("laro.games.lama.x", "import numpy as np"),
        ("laro.server.x", "from laro.cli import main"),
        ("laro.sim.x", "import laro.cli.main"),
        ("laro.rl.x", "from laro.server import app"),
        ("laro.rl.x", "from laro.sim.tournament import play_match"),
        ("laro.rl.x", "import laro.cli.views"),
        ("laro.rl.x", "from laro.web import static"),
        ("laro.mystery.x", "import laro.core"),
    ],
)
def test_the_checker_catches_wrong_arrows(name: str, source: str) -> None:
    """The checker itself: each of these imports is a wrong arrow."""
    assert _check(name, source)


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("laro.core.x", "import json\nfrom laro.core.errors import LaroError\nfrom . import rng"),
        ("laro.games.lama.x", "from laro.core import Game\nfrom .cards import LLAMA\nfrom . import tokens"),
        ("laro.bots.x", "from laro.games.lama import GAME\nfrom laro.core import Action\nimport random"),
        ("laro.cli.x", "import click\nfrom laro.sim import tournament\nfrom laro.bots import get_bot"),
        ("laro.cli.x", "import laro\nfrom laro import __version__"),
        ("laro.server.x", "import starlette\nfrom laro.core import get_game\nfrom .store import Store"),
        (
            "laro.rl.x",
            "import numpy\nfrom laro.bots import get_bot\nfrom laro.games.lama import GAME\nfrom .spec import Table",
        ),
    ],
)
def test_the_checker_allows_right_arrows(name: str, source: str) -> None:
    """The checker itself: these imports are allowed."""
    assert _check(name, source) == []
