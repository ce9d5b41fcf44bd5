"""Fixtures of the tests of an installed game: see installing.py."""

from tests.plugins.installing import ember_site, installed

__all__ = ["ember_site", "installed"]
