"""Ratings in a real browser: a rated game's end shows each rating's change, a player's page draws the rating's
history and links the game's replay, the leaderboard ranks the players; each page passes axe-core, in English and
in Korean."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect
from tests.server.accounts_support import Visitor
from tests.server.client import Api, wait_for
from tests.web.conftest import LocalServer, new_context
from tests.web.test_accounts_web import violations


def rated_game(server: LocalServer, name: str) -> str:
    """A L.A.M.A. game of ``name``'s account against a random bot, played to its end by a stand-in."""
    player = Visitor(server.port)
    player.sign_up(name)
    made = player.call(
        "POST", "/api/tables", {"game": "lama", "players": 2, "bots": {"1": "random"}, "options": {"end_score": 1}}, 201
    )
    token = made["seats"][0]["token"]
    player.call("POST", f"/api/tables/{made['id']}/seats/0/join", {"token": token})
    player.call("POST", f"/api/tables/{made['id']}/seats/0/bot", {"token": token, "bot": "random"})
    wait_for(Api(server.base), made["id"], lambda summary: summary["status"] == "over", timeout=60)
    return str(made["id"])


def test_a_rated_game_its_changes_the_profile_and_the_leaderboard(
    server: LocalServer, page: Page, browser: Browser
) -> None:
    table = rated_game(server, "Ana Chart")
    page.goto(f"{server.url}/table/{table}?watch=1")
    changes = page.get_by_test_id("rating-changes")
    expect(changes.locator("li")).to_have_count(2, timeout=20_000)
    expect(changes).to_contain_text("1000 →")
    assert not violations(page), violations(page)

    changes.get_by_role("link", name="Ana Chart").click()
    page.wait_for_url("**/players/Ana%20Chart")
    expect(page.locator("h1")).to_have_text("Ana Chart")
    expect(page.get_by_test_id("chart-lama")).to_have_attribute("role", "img")
    expect(page.get_by_test_id("recent-games").locator("tbody tr")).to_have_count(1)
    assert page.get_by_test_id("recent-replay").get_attribute("href") == f"/table/{table}/replay"
    assert not violations(page), violations(page)

    page.goto(f"{server.url}/leaderboard/lama")
    board = page.get_by_test_id("leaderboard")
    expect(board.locator("tbody tr")).to_have_count(2)
    expect(board).to_contain_text("Ana Chart")
    assert not violations(page), violations(page)
    korean = new_context(browser, locale="ko-KR", mobile=True)
    try:
        phone = korean.new_page()
        phone.goto(f"{server.url}/leaderboard/lama")
        expect(phone.locator("h1")).to_contain_text("순위표")
        expect(phone.get_by_test_id("leaderboard").locator("tbody tr")).to_have_count(2)
        assert not violations(phone), violations(phone)
        phone.goto(f"{server.url}/players/Nobody%20Here")
        expect(phone.get_by_test_id("no-player")).to_be_visible()
    finally:
        korean.close()
