"""The L.A.M.A. table in a real browser: a whole game against bots by clicking, the quit dialog, a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import Server, new_context
from tests.web.lama_play import (
    errors_shown,
    play_until_over,
    seq,
    server_state,
    snap,
    take_turn,
    wait_turn_or_over,
)


def _create_from_lobby(server: Server, page: Page, end_score: int) -> None:
    page.goto(server.url + "/")
    page.get_by_test_id("name").fill("Ana")
    page.locator(".game-choice[data-game=lama]").click()
    page.get_by_test_id("players").select_option("3")
    page.get_by_test_id("seat-kind-2").select_option("bot:random")
    page.locator("details.options summary").click()
    page.get_by_test_id("option-end_score").fill(str(end_score))
    page.get_by_test_id("create").click()
    page.wait_for_url("**/table/*")


@pytest.mark.slow  # a whole game or record played out in the browser
def test_whole_game_against_bots(server: Server, page: Page) -> None:
    """Create a table in the lobby, play it to the end by clicking, see the ranking, and start a rematch."""
    _create_from_lobby(server, page, end_score=30)
    expect(page.get_by_test_id("hand").locator(".card")).to_have_count(6, timeout=10_000)
    expect(page.get_by_test_id("opponents").locator(".opponent")).to_have_count(2)
    expect(page.get_by_test_id("players")).to_contain_text("Ana")
    shot = {"taken": False}

    def look(turn_page: Page, turn: int) -> None:
        # mid-game: once a round has been scored (or after a few turns), keep a picture of the table
        if shot["taken"]:
            return
        if turn_page.get_by_test_id("round-result").is_visible() or turn >= 12:
            snap(turn_page, "lama_table_midgame")
            shot["taken"] = True
        # what the player sees on their turn: the highlighted cards are exactly the legal plays
        for card in turn_page.locator("[data-testid=hand] .card.playable").all():
            value = card.get_attribute("data-card")
            top = turn_page.get_by_test_id("discard").get_attribute("data-top")
            order = ["1", "2", "3", "4", "5", "6", "L"]
            assert value in (top, order[(order.index(str(top)) + 1) % 7])

    turns = play_until_over(page, on_turn=look)
    assert turns > 0
    ranking = page.get_by_test_id("ranking")
    expect(ranking.locator("li")).to_have_count(3)
    expect(page.get_by_test_id("end")).to_contain_text("points")
    expect(page.get_by_test_id("round-result")).to_be_visible()
    expect(page.get_by_test_id("status")).to_have_text("Finished")
    table_id = page.url.rsplit("/", 1)[1]
    result = server.get(f"/api/tables/{table_id}")["result"]
    scores = [int(row.get_attribute("data-seat") or -1) for row in ranking.locator("li").all()]
    assert sorted(scores) == [0, 1, 2]
    assert result["scores"][scores[0]] == min(result["scores"])  # fewest points first
    assert errors_shown(page) == []
    last = server_state(server.url, table_id)["log"][-1]
    if last["type"] == "act" and last["text"].split(": ")[-1].startswith("play "):
        # the last card played lies on top of the discard pile
        card = last["text"].rsplit(" ", 1)[1]
        expect(page.get_by_test_id("discard")).to_have_attribute("data-top", card)
    # the log shows the newest entries: it follows the game to its last move
    log = page.get_by_test_id("log")
    expect(log.locator("li").last).to_have_attribute("data-seq", str(last["seq"]))
    assert log.evaluate("list => list.scrollHeight - list.scrollTop - list.clientHeight") < 4
    snap(page, "lama_final")

    # a rematch: a new table with the same players, bots and options, and this browser in its seat again
    page.get_by_test_id("rematch").click()
    page.wait_for_url(lambda url: "/table/" in url and table_id not in url)
    expect(page.get_by_test_id("hand").locator(".card")).to_have_count(6, timeout=10_000)
    new_id = page.url.rsplit("/", 1)[1]
    summary = server.get(f"/api/tables/{new_id}")
    assert summary["options"] == {"end_score": 30}
    assert [seat["kind"] for seat in summary["seats"]] == ["human", "bot", "bot"]
    assert summary["seats"][0]["name"] == "Ana" and summary["seats"][2]["bot"] == "random"


def test_quit_asks_first(server: Server, page: Page) -> None:
    """Quitting the round asks for confirmation; cancel changes nothing, confirm quits."""
    created = server.post("/api/tables", {"game": "lama", "players": 2, "bots": {"1": "heuristic"}})
    page.goto(server.url + created["seats"][0]["invite"])
    page.get_by_test_id("join-name").fill("Bo")
    page.get_by_test_id("join").click()
    wait_turn_or_over(page)
    before = seq(page)
    page.get_by_test_id("quit").click()
    dialog = page.get_by_test_id("confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("points")
    dialog.locator("[data-confirm=no]").click()
    expect(dialog).to_have_count(0)
    assert seq(page) == before
    page.get_by_test_id("quit").click()
    page.get_by_test_id("confirm-dialog").locator("[data-confirm=yes]").click()
    page.wait_for_function("s => document.body.dataset.seq !== s", arg=before)
    expect(page.get_by_test_id("log")).to_contain_text("Bo quits the round")


def test_phone_view(server: Server, browser: Browser) -> None:
    """On a 390 by 844 phone the table fits the width and can be played."""
    context = new_context(browser, mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        created = server.post(
            "/api/tables", {"game": "lama", "players": 4, "bots": {"1": "random", "2": "heuristic", "3": "random"}}
        )
        page.goto(server.url + created["seats"][0]["invite"])
        page.get_by_test_id("join-name").fill("Mia")
        page.get_by_test_id("join").click()
        wait_turn_or_over(page)
        for _ in range(2):
            before = seq(page)
            take_turn(page)
            wait_turn_or_over(page, before)
        expect(page.get_by_test_id("hand").locator(".card").first).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide on a 390px screen"
        snap(page, "phone_lama_table")
        page.goto(server.url + "/")
        expect(page.get_by_test_id("create-form")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        snap(page, "phone_lobby")
    finally:
        context.close()
