"""The interface's words in both languages: a count of one is said in the singular ("1 move undone", never
"(1 moves undone)"), read from the string files by the page's own translation module."""

from __future__ import annotations

import re

from playwright.sync_api import Page
from tests.web.static_site import open_static

# every string that takes a count {n}, said with n = 1 in English (other parameters filled with a word)
_SAID_WITH_ONE = """
async () => {
  const i18n = await import("/static/js/i18n.js");
  const files = ["en", "lama.en", "kamara.en"];
  const keys = new Set();
  for (const file of files) {
    for (const key of Object.keys((await import(`/static/js/i18n/${file}.js`)).default)) keys.add(key);
  }
  await i18n.loadStrings(["lama", "kamara"]);
  const said = {};
  const others = { k: 1, name: "Ana", total: 4, points: 7, move: 3, played: "x", mark: "y" };
  for (const key of keys) {
    if (key.endsWith(".one")) continue;
    const text = i18n.t(key, { ...others, n: 2 });
    if (typeof text === "string" && text.includes("2")) said[key] = i18n.t(key, { ...others, n: 1 });
  }
  return said;
}
"""

# an English noun in the plural right after the number one ("1 moves", "1 inaccuracies", "1 pts")
_ONE_PLURAL = re.compile(r"(?<![\d.])1 (?!(?:is|of|plus|begins)\b)[a-z]+s\b")


def test_a_count_of_one_is_singular_in_english(page: Page) -> None:
    open_static(page)
    said = page.evaluate(_SAID_WITH_ONE)
    assert "log.undo_takeback" in said and "analysis.count.inaccuracy" in said  # the strings are read
    wrong = {key: text for key, text in said.items() if _ONE_PLURAL.search(text)}
    assert not wrong, "\n".join(f"{key}: {text}" for key, text in wrong.items())
    assert said["log.undo_takeback"] == "takes back their last turn (1 move undone)"
    assert said["analysis.count.inaccuracy"] == "1 inaccuracy (≥ 3 points)"
