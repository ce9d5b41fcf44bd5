"""The analysis panel says each move as the table's log does, in the page's language: "plays a 3", "draws a
card", "flips the tile under their diwa" (Korean: "3을 냄", "카드를 뽑음"…), never the action's raw text.

Screenshots go to tests/web/screenshots/ (analysis_words_*.png).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import Server, new_context, screenshot

pytestmark = pytest.mark.slow  # whole games analysed, then read move by move in the browser

# an action's raw text (docs/protocol.md): what the panel must not show
RAW = {
    "lama": re.compile(r"^(play \S+|draw|quit)$"),
    "kamara": re.compile(r"^(place|diwa|move|port|poke|flip|match|exchange|end|order|keep|play)( |$)"),
}
# the log's words (js/i18n/*.js), by game and language
WORDS = {
    ("lama", "en"): re.compile(
        r"^(plays an? \S+( and takes another turn)?|plays a llama|plays the pink llama|draws a card|quits the round)$"
    ),
    ("lama", "ko"): re.compile(r"^(\S+[을를] 냄|라마를 냄|카드를 뽑음|라운드에서 빠짐)$"),
    ("kamara", "en"): re.compile(
        r"^(places|takes|moves|ports|pokes|flips|matches|exchanges|ends|puts|keeps|discards|plays) "
    ),
    ("kamara", "ko"): re.compile(r"[가-힣]"),
}


def _finished(server: Server, game: str, options: dict[str, Any], players: int) -> str:
    table = {"game": game, "players": players, "bots": dict.fromkeys(map(str, range(players)), "heuristic")}
    created = server.post("/api/tables", {**table, "options": options, "seed": 5})
    deadline = time.monotonic() + 90
    while server.get(f"/api/tables/{created['id']}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game in time"
        time.sleep(0.2)
    return str(created["id"])


def _rows(page: Page) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=analysis-moves] tbody tr')].map((tr) => ({
            played: tr.dataset.played, best: tr.dataset.best,
            playedText: tr.cells[1].textContent, bestText: tr.cells[3].textContent,
        }))"""
    )
    return rows


def _check_words(page: Page, game: str, lang: str) -> None:
    rows = _rows(page)
    assert rows, "no decision listed"
    words, raw = WORDS[(game, lang)], RAW[game]
    for row in rows:
        assert raw.match(row["played"]), row  # the row keeps the action it grades
        assert words.search(row["playedText"]) and not raw.match(row["playedText"]), row
        if row["best"] != row["played"]:
            best = row["bestText"].rsplit(" (", 1)[0]  # "draws a card (41%)"
            assert words.search(best) and not raw.match(best), row
    alternatives: list[list[str]] = page.evaluate(
        "() => [...document.querySelectorAll('.analysis-compared li')].map((li) => [li.dataset.action, li.textContent])"
    )
    assert alternatives, "no decision lists the moves it compared"
    for action, text in alternatives:
        said = text.rsplit(" (", 1)[0]  # "draws a card (41%) · played"
        assert raw.match(action) and words.search(said) and not raw.match(said), (action, text)
    biggest = page.get_by_test_id("analysis-biggest")
    if biggest.count():
        for text in biggest.locator("li").all_inner_texts():
            assert not any(raw.match(part.strip()) for part in re.split(r"[:;(]", text)), text


@pytest.mark.parametrize(
    ("game", "options", "players"), [("lama", {"end_score": 8}, 3), ("kamara", {"max_rounds": 4}, 2)]
)
def test_the_analysis_says_the_moves_as_the_log_does(
    server: Server, browser: Browser, game: str, options: dict[str, Any], players: int
) -> None:
    table = _finished(server, game, options, players)
    for locale, mobile in (("en-US", False), ("ko-KR", True)):
        lang = locale[:2]
        context = new_context(browser, locale=locale, mobile=mobile)
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(f"{server.url}/table/{table}")
            page.wait_for_function("() => document.body.dataset.status === 'over'", timeout=30_000)
            if lang == "en":
                page.get_by_test_id("analyse").click()  # made once; the Korean page shows it at once
            expect(page.get_by_test_id("analysis-summary")).to_be_visible(timeout=90_000)
            _check_words(page, game, lang)
            page.locator(".analysis-compared summary").first.click()
            expect(page.locator(".analysis-compared[open] li").first).to_be_visible()
            page.get_by_test_id("analysis").scroll_into_view_if_needed()
            screenshot(page, f"analysis_words_{game}_{lang}")
        finally:
            context.close()
