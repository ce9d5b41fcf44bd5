"""What a newcomer sees at a table in the browser: one colour per player, the bot credited for the moves it
made for you, the cards only once the game starts, last moves on the players' boxes, words for touch screens.

Screenshots go to tests/web/screenshots/ (details_*.png).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect
from tests.web.conftest import Server, screenshot

DIWA_FILLS = (
    "() => [...document.querySelectorAll('.k-playerlist li[data-seat]')].map((li) => "
    "getComputedStyle(li.querySelector('.k-diwa circle')).fill)"
)
SEAT_DOTS = "(selector) => [...document.querySelectorAll(selector)].map((dot) => getComputedStyle(dot).backgroundColor)"


def join(server: Server, page: Page, table: dict[str, Any], seat: int = 0, name: str = "Ana") -> dict[str, Any]:
    """Create ``table``, open the invite of ``seat`` and take it; returns the server's answer."""
    created = server.post("/api/tables", table)
    page.goto(server.url + created["seats"][seat]["invite"])
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join").click()
    page.wait_for_function("() => document.body.dataset.status === 'running'")
    return created


def let_a_bot_play(server: Server, created: dict[str, Any], seat: int = 0) -> None:
    token = created["seats"][seat]["token"]
    server.post(f"/api/tables/{created['id']}/seats/{seat}/bot", {"token": token, "bot": "heuristic"})


def wait_seq(page: Page, at_least: int) -> None:
    page.wait_for_function(
        "(n) => Number(document.body.dataset.seq) >= n || document.body.dataset.status === 'over'",
        arg=at_least,
        timeout=60_000,
    )


def test_kamara_gives_each_player_one_colour_everywhere(server: Server, page: Page) -> None:
    """Once the diwa are chosen, each player's dot in the players list, the log and the ranking has their diwa's
    colour, the colour of their piece on the board and in the matches panel."""
    table = {"game": "kamara", "players": 3, "bots": {"1": "heuristic", "2": "heuristic"}, "options": {"max_rounds": 2}}
    created = join(server, page, table)
    let_a_bot_play(server, created)
    page.wait_for_function("() => document.querySelector('.kamara').dataset.phase === 'play'", timeout=60_000)
    wait_seq(page, 20)
    diwa: list[str] = page.evaluate(DIWA_FILLS)  # per seat, from the matches panel
    assert len(diwa) == 3 and len(set(diwa)) == 3
    on_board = page.evaluate(
        "() => [...document.querySelectorAll('.k-boardwrap .k-diwa circle')].map((c) => getComputedStyle(c).fill)"
    )
    assert sorted(on_board) == sorted(diwa)
    assert page.evaluate(SEAT_DOTS, "[data-testid=players] .player .seat-dot") == diwa
    logged = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=log] li.log-act')]"
        ".map((li) => getComputedStyle(li.querySelector('.seat-dot')).backgroundColor)"
    )
    assert logged and set(logged) <= set(diwa)
    wait_seq(page, 10**6)
    expect(page.get_by_test_id("ranking")).to_be_visible()
    ranking = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=ranking] li')].map((li) => "
        "[Number(li.dataset.seat), getComputedStyle(li.querySelector('.seat-dot')).backgroundColor])"
    )
    assert all(colour == diwa[seat] for seat, colour in ranking)
    cards = page.locator(".k-mycards")
    expect(cards).not_to_contain_text("start of your turn")
    expect(cards).not_to_contain_text("flip a paltik to draw one")
    screenshot(page, "details_kamara_colours")


def test_the_rules_of_a_game_that_does_not_exist(server: Server, page: Page) -> None:
    page.goto(server.url + "/rules/chess")
    expect(page.get_by_test_id("no-game")).to_have_text(
        "There is no game called “chess” here: choose one of the games above."
    )
    expect(page.get_by_test_id("rules")).not_to_contain_text("not available in this language")
    page.goto(server.url + "/rules/kamara")
    expect(page.get_by_test_id("rules")).to_contain_text("chamber")


def test_a_bot_playing_for_you_is_credited(server: Server, page: Page) -> None:
    """After "Let a bot play" the log says the bot made your moves, and the end says it played for you."""
    created = join(
        server, page, {"game": "lama", "players": 2, "bots": {"1": "heuristic"}, "options": {"end_score": 8}}
    )
    let_a_bot_play(server, created)
    wait_seq(page, 10**6)
    expect(page.get_by_test_id("end")).to_be_visible()
    log = page.get_by_test_id("log")
    expect(log).to_contain_text("Smart bot for Ana")
    mine = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=log] li.log-act b')].map((b) => b.textContent)"
        ".filter((who) => who.includes('Ana'))"
    )
    assert mine and all(who == "Smart bot for Ana" for who in mine)
    end = page.get_by_test_id("end")
    expect(end.get_by_test_id("bot-for")).to_have_text("Smart bot played for you")
    expect(end.locator("h2")).not_to_have_text("You won!")
    won = page.evaluate("() => document.querySelector('[data-testid=ranking] li.me').classList.contains('winner')")
    if won:
        expect(end.locator("h2")).to_have_text("Your seat won — the smart bot played it for you")
    screenshot(page, "details_bot_for_you")
