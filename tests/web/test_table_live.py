"""Live play in real browsers: two players at one table, a server restart, a reload that keeps the seat."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect
from tests.web.conftest import Server, new_context
from tests.web.lama_play import seq, take_turn, wait_turn_or_over

NAMES = ["Ana", "Bo"]
MOVE_WORDS = re.compile(r"plays a|draws a card|quits the round")  # a move told in words, not as "play 3"


@contextmanager
def two_players(server: Server, browser: Browser, end_score: int = 200) -> Iterator[tuple[str, list[Page]]]:
    """A L.A.M.A. table with two people (each in their own browser) and a bot; yields its id and their pages."""
    created = server.post(
        "/api/tables", {"game": "lama", "players": 3, "bots": {"2": "heuristic"}, "options": {"end_score": end_score}}
    )
    contexts = [new_context(browser) for _ in NAMES]
    try:
        pages = []
        for context, invite, name in zip(contexts, created["seats"], NAMES, strict=True):
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(server.url + invite["invite"])
            page.get_by_test_id("join-name").fill(name)
            page.get_by_test_id("join").click()
            pages.append(page)
        for page in pages:
            expect(page.locator("body")).to_have_attribute("data-status", "running")
        yield created["id"], pages
    finally:
        for context in contexts:
            context.close()


def whose_turn(pages: list[Page], timeout: float = 15.0) -> Page | None:
    """The page whose turn it is (once it has its state and nothing is on its way); None once the game is over."""
    deadline = time.monotonic() + timeout
    script = "d => d.yourTurn === 'true' && d.connection === 'open' && !d.pending"
    while time.monotonic() < deadline:
        for page in pages:
            if page.evaluate(f"({script})(document.body.dataset)"):
                return page
        if all(page.evaluate("document.body.dataset.status") == "over" for page in pages):
            return None
        time.sleep(0.03)
    raise AssertionError("nobody's turn came")


def play_and_check(pages: list[Page], moves: int) -> None:
    """Take ``moves`` turns by clicking; after each, the other player's page shows the move in its log."""
    for _ in range(moves):
        mover = whose_turn(pages)
        assert mover is not None, "the game ended early"
        before = int(seq(mover))
        name = NAMES[pages.index(mover)]
        take_turn(mover)
        for page in pages:  # the move is the next entry, or comes after the notice of a server that came back
            page.wait_for_function(
                """([after, name, words]) => [...document.querySelectorAll("[data-testid=log] li")].some(li =>
                    +li.dataset.seq > after && li.textContent.includes(name) && new RegExp(words).test(li.textContent)
                )""",
                arg=[before, name, MOVE_WORDS.pattern],
                timeout=5_000,
            )


def test_two_players_see_each_other(server: Server, browser: Browser) -> None:
    """Two browsers at one table: each sees the other's moves, hand sizes and turn, live."""
    with two_players(server, browser) as (table_id, pages):
        for page, other in zip(pages, reversed(pages), strict=True):
            expect(page.get_by_test_id("players")).to_contain_text(NAMES[pages.index(other)])
            expect(page.locator(".player.me")).to_contain_text(NAMES[pages.index(page)])
        play_and_check(pages, moves=6)
        # the same table on both screens: the same seq, top card and hand sizes (once a person is to move, the
        # bot has moved and the table holds still)
        ana, bo = pages
        assert whose_turn(pages) is not None
        latest = str(server.get(f"/api/tables/{table_id}")["seq"])
        for page in pages:
            page.wait_for_function("s => document.body.dataset.seq === s", arg=latest)
        tops = {page.get_by_test_id("discard").get_attribute("data-top") for page in pages}
        assert len(tops) == 1
        bo_cards = bo.get_by_test_id("hand").locator(".card").count()
        expect(ana.locator(".opponent[data-seat='1'] [data-testid=card-count]")).to_have_text(
            f"{bo_cards} cards" if bo_cards != 1 else "1 card"
        )


@pytest.mark.slow  # a server stopped and started again
def test_reconnects_after_server_restart(server: Server, browser: Browser) -> None:
    """When the server goes away the players see a notice; it reconnects by itself and play goes on."""
    with two_players(server, browser) as (_, pages):
        play_and_check(pages, moves=2)
        before = seq(pages[0])
        server.stop()
        for page in pages:
            notice = page.get_by_test_id("reconnect-notice")
            expect(notice).to_be_visible()
            expect(notice).to_contain_text("Connection lost")
            expect(page.get_by_test_id("connection")).to_have_text("Offline")
        server.start()
        for page in pages:
            expect(page.locator("body")).to_have_attribute("data-connection", "open", timeout=15_000)
            expect(page.get_by_test_id("reconnected-notice")).to_be_visible()
            assert int(seq(page)) >= int(before)
        play_and_check(pages, moves=2)

        server.restart()  # a restart in one go: the clients come back on their own
        for page in pages:
            expect(page.locator("body")).to_have_attribute("data-connection", "open", timeout=15_000)
        play_and_check(pages, moves=2)


def test_reload_keeps_the_seat(server: Server, browser: Browser) -> None:
    """Reloading the page (or opening the table again) keeps this browser's seat, name and cards."""
    with two_players(server, browser) as (table_id, pages):
        bo = pages[1]
        play_and_check(pages, moves=1)
        cards = "cards => cards.map(c => c.dataset.card)"
        hand = bo.get_by_test_id("hand").locator(".card").evaluate_all(cards)
        round_before = bo.get_by_test_id("round").inner_text()
        bo.reload()
        expect(bo.locator("body")).to_have_attribute("data-seat", "1")
        assert "token" not in bo.url
        expect(bo.get_by_test_id("join-box")).to_be_hidden()
        expect(bo.locator(".player.me")).to_contain_text("Bo")
        expect(bo.get_by_test_id("hand").locator(".card")).not_to_have_count(0)
        if bo.get_by_test_id("round").inner_text() == round_before:  # only Bo's own moves change Bo's hand
            assert bo.get_by_test_id("hand").locator(".card").evaluate_all(cards) == hand
        # a new tab of the same browser, by the table's plain address
        other = bo.context.new_page()
        other.goto(f"{bo.url.split('/table/')[0]}/table/{table_id}")
        expect(other.locator("body")).to_have_attribute("data-seat", "1")
        expect(other.get_by_test_id("hand").locator(".card")).not_to_have_count(0)
        play_and_check(pages, moves=2)
        other.close()


def test_an_action_lost_with_its_connection_is_sent_again(server: Server, page: Page) -> None:
    """The connection ends with a click's action on its way, before the server had it: on the new connection the
    table has not moved, so the page sends the action again, and the one click takes the turn."""
    created = server.post("/api/tables", {"game": "lama", "players": 2, "bots": {"1": "heuristic"}})
    connections: list[WebSocketRoute] = []
    lost: list[str] = []

    def route(socket: WebSocketRoute) -> None:
        connections.append(socket)
        upstream = socket.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if not lost and json.loads(message).get("type") == "act":
                lost.append(str(message))  # never reaches the server: the connection ends with it
                socket.close()
                upstream.close()
                return
            upstream.send(message)

        socket.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    page.goto(server.url + created["seats"][0]["invite"])
    page.get_by_test_id("join-name").fill("Ana")
    page.get_by_test_id("join").click()
    wait_turn_or_over(page)
    before = seq(page)
    take_turn(page)
    page.wait_for_function("seq => document.body.dataset.seq !== seq", arg=before, timeout=15_000)
    assert len(lost) == 1 and len(connections) == 2  # the action was lost once, and went again on a new connection
    expect(page.locator(".toast")).to_have_count(0)  # nothing to tell the player: the turn was taken


@pytest.mark.slow  # two whole games in two browsers
def test_rematch_with_the_other_player(server: Server, browser: Browser) -> None:
    """After the game, Rematch makes a new table for the same people: the other player is told of it at once and
    joins it with one click (each keeps their own seat and token)."""
    with two_players(server, browser, end_score=1) as (table_id, pages):
        ana, bo = pages
        while (mover := whose_turn(pages)) is not None:
            before = seq(mover)
            mover.get_by_test_id("quit").click()
            mover.get_by_test_id("confirm-dialog").locator("[data-confirm=yes]").click()
            mover.wait_for_function("s => document.body.dataset.seq !== s", arg=before)
        for page in pages:
            expect(page.get_by_test_id("ranking").locator("li")).to_have_count(3)
            expect(page.get_by_test_id("round-result")).to_contain_text("Round 1 scored")
        ana.get_by_test_id("rematch").click()
        ana.wait_for_url(lambda url: "/table/" in url and table_id not in url)
        new_id = ana.url.rsplit("/", 1)[1]
        expect(ana.get_by_test_id("status")).to_have_text("Waiting for players")
        expect(bo.get_by_test_id("rematch")).to_have_text("Join the rematch")  # told without reloading
        bo.get_by_test_id("rematch").click()
        bo.wait_for_url(lambda url: new_id in url)
        for page in pages:
            expect(page.locator("body")).to_have_attribute("data-status", "running")
        summary = server.get(f"/api/tables/{new_id}")
        assert [seat["name"] for seat in summary["seats"]] == ["Ana", "Bo", "heuristic bot"]
        assert summary["options"] == {"end_score": 1}
        assert server.get(f"/api/tables/{table_id}")["rematch"] == new_id
