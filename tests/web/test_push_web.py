"""A player who turns the bell on at a table is told of their turns by Web Push once their page is closed: the page
subscribes with the server's key and gives the subscription to the server, the server pushes the turn to the
push service when it comes, and the service worker shows it in the page's language; the bell turned off forgets
the subscription.

Headless Chromium has no push service to subscribe with: its ``PushManager.subscribe`` refuses ("AbortError:
Registration failed - permission denied") even with the notification and push permissions granted. So here the
browser's push service is played by the tests' own (tests/server/push_service.py), which decrypts what the server
sends with the subscription's keys: ``PushManager`` is given that subscription (a stub of ``subscribe`` and
``getSubscription``, which records the key it was asked to subscribe with). The push is handed to the service
worker as Chromium's push service would, through the DevTools protocol (``ServiceWorker.deliverPushMessage``).
A click on a notification cannot be made in headless Chromium: ``notificationclick`` is not exercised here."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route
from tests.server.push_service import PushService
from tests.server.server_process import RELAXED
from tests.web.conftest import LocalServer, until
from tests.web.lama_play import seq, take_turn, wait_turn_or_over

STUB = """(subscription) => {
  window.laroSubscribed = [];
  let made = null;
  const toBase64 = (bytes) =>
    btoa(String.fromCharCode(...bytes)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.laroSubscribed.push({ key: toBase64(key), userVisibleOnly: options.userVisibleOnly });
    made = { endpoint: subscription.endpoint, options: { applicationServerKey: key.buffer }, toJSON: () => subscription,
             unsubscribe: async () => { made = null; return true; } };
    return made;
  };
  PushManager.prototype.getSubscription = async function () { return made; };
}"""
SHOWN = """() => navigator.serviceWorker.ready
  .then((registration) => registration.getNotifications())
  .then((shown) => shown.map((each) => [each.title, each.body, each.data]))"""
WORDS = "() => caches.match('/laro-push-words.json', { cacheName: 'laro-push-words' }).then((r) => r && r.json())"
SAID = {  # the turn, the time left (a minute and some: the stand-in takes an absent player's turn after 2), the body
    "en-US": ("Your turn at L.A.M.A. with Ana, Bora", "1 min left", "Click to go back to the table."),
    "ko-KR": ("Ana, Bora와 함께하는 라마: 내 차례입니다", "1분 남음", "누르면 테이블로 돌아갑니다."),
}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[LocalServer]:
    # the bots take a second a move: time for Cleo to close her page before her next turn
    running = LocalServer(tmp_path, bot_delay=1.0, limits=[*RELAXED, "--push-over-http"])
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _kept(served: LocalServer, table: str) -> list[int]:
    con = sqlite3.connect(f"file:{served.db_path}?mode=ro", uri=True, timeout=10)
    try:
        return [seat for (seat,) in con.execute("SELECT seat FROM laro_push WHERE table_id = ?", (table,))]
    finally:
        con.close()


def _table(server: LocalServer) -> tuple[str, str]:
    """A L.A.M.A. table where Cleo holds seat 0 and Ana and Bora have handed theirs to bots: its id, Cleo's invite."""
    created = server.post("/api/tables", {"game": "lama", "players": 3, "seed": 11})
    seats = created["seats"]
    for seat, name in ((1, "Ana"), (2, "Bora")):
        server.post(f"/api/tables/{created['id']}/seats/{seat}/join", {"token": seats[seat]["token"], "name": name})
        server.post(f"/api/tables/{created['id']}/seats/{seat}/bot", {"token": seats[seat]["token"], "bot": "random"})
    server.post(f"/api/tables/{created['id']}/seats/0/join", {"token": seats[0]["token"], "name": "Cleo"})
    return str(created["id"]), str(seats[0]["invite"])


def _deliver(context: BrowserContext, page: Page, origin: str, payload: dict[str, Any]) -> None:
    """Hand ``payload`` to the service worker as the browser's push service would (the worker started first, as
    Chromium does for a push)."""
    cdp = context.new_cdp_session(page)
    registrations: list[str] = []
    running: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(each["registrationId"] for each in event["registrations"]),
    )
    cdp.on(
        "ServiceWorker.workerVersionUpdated",
        lambda event: running.extend(
            each["registrationId"] for each in event["versions"] if each["runningStatus"] == "running"
        ),
    )
    cdp.send("ServiceWorker.enable")
    cdp.send("ServiceWorker.startWorker", {"scopeURL": f"{origin}/"})
    deadline = time.monotonic() + 10
    while not (registrations and running) and time.monotonic() < deadline:  # the events come in meanwhile
        page.wait_for_timeout(50)
    assert registrations and running, f"no service worker running: {registrations}, {running}"
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": origin, "registrationId": running[-1], "data": json.dumps(payload)},
    )


def _shown_once_delivered(page: Page, origin: str, payload: dict[str, Any]) -> Any:
    """The notifications shown once ``payload`` is delivered: delivered again (up to three times in all) while none
    shows. A push handed over through DevTools while the worker was still starting was once dropped (no notification
    in 15 s); a push service delivers again, and the notification's tag (per table) makes a second one replace the
    first, so what is shown is the same."""
    for _ in range(3):
        _deliver(page.context, page, origin, payload)
        with contextlib.suppress(AssertionError):
            return until(page, f"() => ({SHOWN})().then((shown) => shown.length && shown)", seconds=8.0)
    raise AssertionError("no notification shown after three deliveries")


@dataclasses.dataclass(frozen=True)
class Cleo:
    page: Page
    table: str  # its id
    invite: str  # her invitation's path
    service: PushService  # the push service her browser subscribes with (the tests' own)


@contextlib.contextmanager
def _cleo_at_her_table(served: LocalServer, browser: Browser, locale: str = "en-US") -> Iterator[Cleo]:
    """Cleo's page at her table (``_table``), at her turn or the end."""
    service = PushService(served.get("/api/push")["key"])
    table, invite = _table(served)
    context = browser.new_context(locale=locale, permissions=["notifications"], viewport={"width": 1280, "height": 860})
    try:
        context.add_init_script(script=f"({STUB})({json.dumps(service.subscription('cleo'))})")
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(served.url + invite)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        wait_turn_or_over(page)
        yield Cleo(page, table, invite, service)
    finally:
        context.close()
        service.close()


@pytest.mark.parametrize("locale", SAID)
def test_the_bell_subscribes_the_seat_and_a_turn_pushed_is_shown(
    served: LocalServer, full_browser: Browser, locale: str
) -> None:
    key = served.get("/api/push")["key"]
    with _cleo_at_her_table(served, full_browser, locale) as cleo:
        page, table = cleo.page, cleo.table
        page.get_by_test_id("notify").click()  # the bell: the permission is granted, the seat subscribes
        until(page, "() => window.laroPush && window.laroPush.table")
        assert page.evaluate("window.laroSubscribed") == [{"key": key, "userVisibleOnly": True}]
        assert _kept(served, table) == [0]
        words = until(page, WORDS)
        turn, left, body = SAID[locale]
        assert words["tables"][table]["turn"] == turn and words["body"] == body
        # Cleo plays, then closes the table: her next turn is pushed
        while page.evaluate("document.body.dataset.yourTurn") == "true":  # a round she ends may start with her
            before = seq(page)
            take_turn(page)
            page.wait_for_function(
                f"() => Number(document.body.dataset.seq) > {before} && !document.body.dataset.pending"
            )
        page.goto(served.url + "/")
        (pushed,) = cleo.service.wait("cleo", 1)
        assert pushed["type"] == "turn" and pushed["url"] == f"/table/{table}" and pushed["others"] == ["Ana", "Bora"]
        assert 60 <= pushed["left"] < 120 and pushed["text"] == "Your turn at L.A.M.A. with Ana, Bora — 1 min left"
        # the push reaches the service worker, which shows it in the page's words
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        shown = _shown_once_delivered(page, served.url, pushed)
        assert shown == [[f"{turn} — {left}", body, {"url": f"/table/{table}"}]]
        # back at the table: the push's notification goes; the bell turned off forgets the subscription
        page.goto(served.url + cleo.invite)
        wait_turn_or_over(page)
        until(page, f"() => ({SHOWN})().then((shown) => shown.length === 0)")
        page.get_by_test_id("notify").click()
        page.wait_for_function("() => document.querySelector('[data-testid=notify]').ariaPressed === 'false'")
        until(page, "() => window.laroPush === null")
        deadline = time.monotonic() + 10
        while _kept(served, table) and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert _kept(served, table) == []


def test_the_bell_turned_off_while_the_subscription_is_on_its_way_keeps_none(
    served: LocalServer, full_browser: Browser
) -> None:
    """On, then off before the server has the subscription: once it has it, the page has the server forget it."""
    with _cleo_at_her_table(served, full_browser) as cleo:
        page, table = cleo.page, cleo.table
        held: list[Route] = []

        def hold_the_first_post(route: Route) -> None:
            if route.request.method == "POST" and not held:
                held.append(route)
            else:
                route.continue_()

        page.route("**/seats/0/push", hold_the_first_post)
        page.get_by_test_id("notify").click()  # on: the subscription is held on its way to the server
        deadline = time.monotonic() + 15
        while not held:
            assert time.monotonic() < deadline, "no subscription was sent"
            page.wait_for_timeout(50)
        page.get_by_test_id("notify").click()  # off, before the server has it
        page.wait_for_function("() => document.querySelector('[data-testid=notify]').ariaPressed === 'false'")
        with page.expect_request(lambda request: request.method == "DELETE" and request.url.endswith("/seats/0/push")):
            held[0].continue_()
        until(page, "() => window.laroPush === null")
        deadline = time.monotonic() + 10
        while _kept(served, table) and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert _kept(served, table) == [] and page.evaluate("window.laroPush") is None


def test_the_bell_turned_off_while_the_page_subscribes_again_forgets_the_seat(
    served: LocalServer, full_browser: Browser
) -> None:
    """The page comes back with the bell on and subscribes again; the bell turned off before that reached the server
    has the server forget the seat's subscription, the one it kept from before included."""
    with _cleo_at_her_table(served, full_browser) as cleo:
        page, table = cleo.page, cleo.table
        page.get_by_test_id("notify").click()
        until(page, "() => window.laroPush && window.laroPush.table")
        assert _kept(served, table) == [0]
        held: list[Route] = []
        page.route("**/api/push", lambda route: held.append(route) if not held else route.continue_())
        page.reload()  # the bell is on: the page subscribes again, held at the server's key
        wait_turn_or_over(page)
        deadline = time.monotonic() + 15
        while not held:
            assert time.monotonic() < deadline, "the page did not subscribe again"
            page.wait_for_timeout(50)
        page.get_by_test_id("notify").click()  # off, before the server heard of the page again
        page.wait_for_function("() => document.querySelector('[data-testid=notify]').ariaPressed === 'false'")
        held[0].continue_()
        deadline = time.monotonic() + 10
        while _kept(served, table) and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert _kept(served, table) == []
        until(page, "() => window.laroPush === null")
