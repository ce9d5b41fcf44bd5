"""The runnable examples in the docstrings of every laro module pass."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import laro


def _modules() -> list[str]:
    names = ["laro"]
    names += [info.name for info in pkgutil.walk_packages(laro.__path__, prefix="laro.")]
    names.remove("laro.__main__")  # runs the command line when imported
    return sorted(names)


MODULES = _modules()


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    """Every example in the module's docstrings runs and prints what it shows."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed in {name}"


def test_doctests_exist() -> None:
    """The modules carry examples (the style guide asks for a runnable example on public functions)."""
    finder = doctest.DocTestFinder()  # the examples test_doctests runs, counted here without running them again
    examples = sum(len(test.examples) for name in MODULES for test in finder.find(importlib.import_module(name)))
    assert examples >= 20
    assert laro.__doc__ and ">>>" in laro.__doc__
