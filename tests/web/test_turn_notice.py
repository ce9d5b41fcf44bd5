"""A player whose table is in a background tab learns that their turn has come: the tab's title is marked until
the page is seen again, and — once they asked for it with the bell at the table, remembered by the browser — a
notification names the game and the other players. Chromium with the notification permission granted; a page's
hidden state is emulated (``document.hidden`` and a ``visibilitychange``), as a tab in the background would be.

The browser's notifications are asked for (``getNotifications``) only once the page has noted one shown
(``window.laroNotices``, written when ``showNotification`` has resolved). Chromium can drop a notification it has
stored but not yet displayed when ``getNotifications`` is asked in between, so asking while one is on its way can
lose it: seen once on a loaded machine, noted by the page and never listed."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute
from tests.web.conftest import LocalServer, screenshot, until
from tests.web.lama_play import seq, take_turn, wait_turn_or_over

HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  const state = () => (hidden ? "hidden" : "visible");
  Object.defineProperty(document, "visibilityState", { configurable: true, get: state });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOWN = "() => navigator.serviceWorker.ready.then((registration) => registration.getNotifications())"
WORDS = {
    "en-US": ("● Your turn — laro", "▶ L.A.M.A. — laro", "Your turn at L.A.M.A. with Ana, Bora"),
    "ko-KR": ("● 내 차례 — laro", "▶ 라마 — laro", "Ana, Bora와 함께하는 라마: 내 차례입니다"),
}


def _table(server: LocalServer) -> str:
    """A L.A.M.A. table where Cleo holds seat 0 and Ana and Bora have handed theirs to bots; Cleo's invite."""
    created = server.post("/api/tables", {"game": "lama", "players": 3, "seed": 11})
    seats = created["seats"]
    for seat, name in ((1, "Ana"), (2, "Bora")):
        server.post(f"/api/tables/{created['id']}/seats/{seat}/join", {"token": seats[seat]["token"], "name": name})
        server.post(f"/api/tables/{created['id']}/seats/{seat}/bot", {"token": seats[seat]["token"], "bot": "random"})
    server.post(f"/api/tables/{created['id']}/seats/0/join", {"token": seats[0]["token"], "name": "Cleo"})
    return str(seats[0]["invite"])


def _next_turn(page: Page) -> None:
    """Take this turn, then wait until the bots have played and it is this page's turn again."""
    before = seq(page)
    take_turn(page)
    wait_turn_or_over(page, after=before)
    assert page.evaluate("document.body.dataset.status") == "running"


@pytest.mark.parametrize("locale", ["en-US", pytest.param("ko-KR", marks=pytest.mark.slow)])  # the same, in Korean
def test_a_turn_in_a_background_tab_marks_the_title_and_notifies_once_asked(
    shared_server: LocalServer, full_browser: Browser, locale: str
) -> None:
    mark, title, notice = WORDS[locale]
    context = full_browser.new_context(
        locale=locale, permissions=["notifications"], viewport={"width": 1280, "height": 860}
    )
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(shared_server.url + _table(shared_server))
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        wait_turn_or_over(page)
        assert page.title() == title
        bell = page.get_by_test_id("notify")
        assert bell.get_attribute("aria-pressed") == "false"
        # in the background: the title is marked; not asked for, no notification
        page.evaluate(HIDE, True)
        assert page.title() == mark
        _next_turn(page)
        assert page.title() == mark
        assert page.evaluate(SHOWN) == [] and page.evaluate("window.laroNotices") == []
        page.evaluate(HIDE, False)
        assert page.title() == title
        # asked for (the permission is granted): the next turn in the background is told
        bell.click()
        page.wait_for_function("() => document.querySelector('[data-testid=notify]').ariaPressed === 'true'")
        page.evaluate(HIDE, True)
        _next_turn(page)
        until(page, "() => window.laroNotices.length")  # shown: the browser is asked no sooner (the module's notes)
        told = f"{SHOWN}.then((shown) => shown.length && shown.map((each) => [each.title, each.body, each.data]))"
        shown = until(page, told)
        table = page.evaluate("location.pathname")
        assert shown == [[notice, shown[0][1], {"url": table}]] and shown[0][1]
        assert page.evaluate("window.laroNotices.length") == 1 and page.title() == mark
        # seen again: the title is the table's, the notification goes
        page.evaluate(HIDE, False)
        assert page.title() == title
        until(page, f"{SHOWN}.then((shown) => shown.length === 0)")
        screenshot(page, f"turn-notice-{locale[:2]}")
        # the choice is remembered
        page.reload()
        wait_turn_or_over(page)
        assert page.get_by_test_id("notify").get_attribute("aria-pressed") == "true"
    finally:
        context.close()


def test_a_turn_is_told_when_the_states_between_were_skipped(shared_server: LocalServer, full_browser: Browser) -> None:
    """A slow page is sent only the newest state: it may go from its turn straight to its next turn, never seeing
    the others' (emulated by dropping every state of another seat's turn on the way to the page). The turn that
    came round is told all the same."""
    context = full_browser.new_context(permissions=["notifications"], viewport={"width": 1280, "height": 860})
    skipped: list[int] = []

    def route(socket: WebSocketRoute) -> None:
        upstream = socket.connect_to_server()

        def to_page(message: str | bytes) -> None:
            sent = json.loads(message)
            if sent.get("type") == "state" and not sent.get("your_turn") and sent["table"]["status"] == "running":
                skipped.append(sent["seq"])
                return
            socket.send(message)

        upstream.on_message(to_page)

    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.route_web_socket(re.compile(r"/ws/tables/"), route)
        page.goto(shared_server.url + _table(shared_server))
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        wait_turn_or_over(page)
        page.get_by_test_id("notify").click()
        page.wait_for_function("() => document.querySelector('[data-testid=notify]').ariaPressed === 'true'")
        page.evaluate(HIDE, True)
        before = len(skipped)
        _next_turn(page)
        assert len(skipped) > before  # the page never drew the others' turns
        until(page, "() => window.laroNotices.length")  # shown: the browser is asked no sooner (the module's notes)
        assert until(page, f"{SHOWN}.then((shown) => shown.length)") == 1
    finally:
        context.close()
