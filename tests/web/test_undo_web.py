"""Undo in a real browser: the lobby's takebacks choice, the practice badge, the Undo button taking back a misclicked
Kamara step (and Ctrl+Z), and Take back turn against a bot.

Screenshots go to tests/web/screenshots/ (undo_*.png).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from playwright.sync_api import Page, expect
from tests.server.client import Client
from tests.web.conftest import Server, screenshot
from tests.web.test_kamara_web import KAMARA, Watch

TABLE = {"game": "kamara", "players": 2, "bots": {"1": "random"}, "options": {"max_rounds": 20}, "takebacks": True}


def _setup_played(server: Server, created: dict[str, Any]) -> None:
    """Take seat 0 and play the setup (the first legal action each time) until its first turn of play."""
    token = created["seats"][0]["token"]
    server.post(f"/api/tables/{created['id']}/seats/0/join", {"token": token, "name": "Ana"})

    async def play() -> None:
        client = await Client.connect(server.url.replace("http://", "ws://"), created["id"], token)
        while True:
            state = await client.wait_state(lambda s: s["your_turn"] and s["seq"] not in client.acted)
            if state["observation"]["phase"] == "play":
                break
            await client.act(state["legal_actions"][0], state["seq"])
        await client.close()

    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's event loop
        thread.submit(asyncio.run, play()).result(timeout=60)


def _seq(page: Page) -> int:
    return int(page.evaluate("() => document.body.dataset.seq"))


def _after(page: Page, seq: int) -> None:
    page.wait_for_function("(seq) => Number(document.body.dataset.seq) > seq", arg=seq, timeout=15_000)


def _my_turn(page: Page) -> None:
    page.wait_for_function(
        f"() => document.body.dataset.yourTurn === 'true' && {KAMARA} && {KAMARA}.dataset.busy !== 'true'",
        timeout=30_000,
    )


def _click_a_move(page: Page) -> None:
    seq = _seq(page)
    page.locator(".k-target[data-kind=move]").first.click()
    _after(page, seq)


def test_the_undo_button_takes_back_a_step_and_a_turn(server: Server, page: Page) -> None:
    created = server.post("/api/tables", TABLE)
    _setup_played(server, created)
    watch = Watch(page)
    page.goto(server.url + created["seats"][0]["invite"])
    _my_turn(page)
    start = watch.state["observation"]
    step, takeback = page.get_by_test_id("undo-step"), page.get_by_test_id("undo-takeback")
    expect(page.get_by_test_id("practice")).to_be_visible()
    expect(step).to_be_disabled()
    expect(takeback).to_be_enabled()  # the setup's diwa was a turn of its own

    _click_a_move(page)  # the misclick
    expect(step).to_be_enabled()
    screenshot(page, "undo_step_offered")
    seq = _seq(page)
    step.click()
    _after(page, seq)
    assert watch.state["observation"] == start
    expect(page.get_by_test_id("log").locator("li.log-undo").last).to_contain_text("Ana takes back move")

    _click_a_move(page)  # Ctrl+Z takes a step back too
    seq = _seq(page)
    page.keyboard.press("Control+z")
    _after(page, seq)
    assert watch.state["observation"] == start

    _click_a_move(page)
    seq = _seq(page)
    page.locator("[data-k=end]").click()
    _after(page, seq)
    _my_turn(page)  # the bot played its turn
    expect(step).to_be_disabled()
    assert "no step" in (step.get_attribute("title") or "")
    seq = _seq(page)
    takeback.click()
    _after(page, seq)
    _my_turn(page)
    assert watch.state["observation"] == start
    assert watch.state["table"]["takebacks_taken"] == 1
    expect(page.get_by_test_id("log").locator("li.log-undo").last).to_contain_text("takes back their last turn")
    screenshot(page, "undo_taken_back")
    assert not watch.errors, watch.errors


def test_without_takebacks_only_the_step_is_offered(server: Server, page: Page) -> None:
    created = server.post("/api/tables", {**TABLE, "takebacks": False})
    _setup_played(server, created)
    page.goto(server.url + created["seats"][0]["invite"])
    _my_turn(page)
    expect(page.get_by_test_id("undo-step")).to_be_disabled()
    expect(page.get_by_test_id("undo-takeback")).to_have_count(0)
    expect(page.get_by_test_id("practice")).to_have_count(0)
    # why not, in the page's language
    expect(page.get_by_test_id("undo-step")).to_have_attribute("title", "You have taken no step this turn")
    page.get_by_test_id("lang-switch").select_option("ko")
    expect(page.get_by_test_id("undo-step")).to_have_attribute("title", "이번 차례에 무를 행동이 없습니다")


def test_the_lobby_makes_a_practice_table_against_bots(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    page.locator("[data-game=lama] input").check()
    page.locator("#name").fill("Ana")
    takebacks = page.get_by_test_id("takebacks")
    expect(takebacks).to_be_enabled()  # every other seat is a bot by default
    page.get_by_test_id("seat-kind-1").select_option("human")
    expect(takebacks).to_be_disabled()  # a friend at the table: no takebacks
    page.get_by_test_id("seat-kind-1").select_option("bot:heuristic")
    takebacks.check()
    screenshot(page, "undo_lobby_takebacks")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/table/**")
    table_id = page.url.rsplit("/", 1)[1].split("?")[0].split("#")[0]
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["takebacks"] is True and summary["practice"] is True
    expect(page.get_by_test_id("practice")).to_be_visible()
    page.goto(server.url + "/")
    expect(page.locator(f"[data-table='{table_id}'] [data-testid=practice]")).to_be_visible()
