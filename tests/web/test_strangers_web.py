"""Two strangers, end to end in the browser: each signs up, presses "Play now", they meet at one table, chat,
finish the game (each quits every round at once: the shortest whole game), see their rating changes at its end,
and each opens their own profile, where the game is listed with its replay.

Screenshots go to tests/web/screenshots/ (strangers_*.png)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import LocalServer, new_context, screenshot
from tests.web.test_match_web import _play_now, _sign_up

pytestmark = pytest.mark.slow  # a whole rated game by two strangers in two browsers


def _quit_round(page: Page) -> None:
    page.get_by_test_id("quit").click()
    page.locator("[data-testid=confirm-dialog] [data-confirm=yes]").click()


def _table_of(page: Page) -> str:
    return page.url.rsplit("/", 1)[1].split("#")[0].split("?")[0]


# this page may act now: its turn, connected, nothing on its way to the server
_MAY_ACT = """() => {
  const d = document.body.dataset;
  return d.status === "running" && d.yourTurn === "true" && d.connection === "open" && !d.pending;
}"""


def _finish_by_quitting(pages: list[Page], deadline: float) -> None:
    """Whoever is to play quits the round at once, until the game is over on both pages."""
    while not all(page.evaluate("document.body.dataset.status") == "over" for page in pages):
        assert time.monotonic() < deadline, "the game did not end"
        acted = False
        for page in pages:
            if page.evaluate(_MAY_ACT) and page.get_by_test_id("quit").is_enabled():
                before = page.evaluate("document.body.dataset.seq")
                _quit_round(page)
                page.wait_for_function("seq => document.body.dataset.seq !== seq", arg=before, timeout=20_000)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(100)  # a round's end is shown a moment before the next starts


def test_two_strangers_sign_up_meet_chat_finish_and_see_their_ratings(server: LocalServer, browser: Browser) -> None:
    contexts = [new_context(browser), new_context(browser, locale="ko-KR")]
    try:
        ana, bo = (context.new_page() for context in contexts)
        for page, name in ((ana, "Ana Stranger"), (bo, "Bo Stranger")):
            page.set_default_timeout(15_000)
            _sign_up(page, server.url, name)
            _play_now(page)
        for page in (ana, bo):
            page.wait_for_url("**/table/*", timeout=20_000)
        assert _table_of(ana) == _table_of(bo)
        table = _table_of(ana)

        ana.get_by_test_id("chat-input").fill("hello, good luck!")
        ana.get_by_test_id("chat-input").press("Enter")
        expect(bo.get_by_test_id("chat-lines").locator(".chat-text")).to_have_text(["hello, good luck!"])
        bo.get_by_test_id("chat-input").fill("고마워요 <b>you too</b>")
        bo.get_by_test_id("chat-input").press("Enter")
        expect(ana.get_by_test_id("chat-lines").locator(".chat-text")).to_have_text(
            ["hello, good luck!", "고마워요 <b>you too</b>"]
        )

        _finish_by_quitting([ana, bo], time.monotonic() + 120)
        for page in (ana, bo):
            changes = page.get_by_test_id("rating-changes")
            expect(changes.locator("li")).to_have_count(2, timeout=20_000)
            expect(changes).to_contain_text("1000 →")
        screenshot(ana, "strangers_end")
        screenshot(bo, "strangers_end_ko")
        record = server.get(f"/api/tables/{table}/record")
        assert "good luck" not in str(record)  # the chat stays at the table, out of its record

        ana.get_by_test_id("rating-changes").get_by_role("link", name="Ana Stranger").click()
        ana.wait_for_url("**/players/Ana%20Stranger")
        expect(ana.locator("h1")).to_have_text("Ana Stranger")
        expect(ana.get_by_test_id("recent-games").locator("tbody tr")).to_have_count(1)
        assert ana.get_by_test_id("recent-replay").get_attribute("href") == f"/table/{table}/replay"
        assert server.get("/api/players/Bo%20Stranger")["games_played"] == 1
    finally:
        for context in contexts:
            context.close()
