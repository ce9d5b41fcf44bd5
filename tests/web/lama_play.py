"""Helpers of the browser tests: play L.A.M.A. by clicking, as a person would, and wait for the table."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from tests.web.conftest import SHOOTING, screenshot
from websockets.sync.client import connect

MY_TURN_OR_OVER = """
seq => {
  const d = document.body.dataset;
  return d.status === "over" || (d.yourTurn === "true" && d.seq !== seq && d.connection === "open" && !d.pending);
}
"""


def seq(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.seq || ''"))


def status(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.status || ''"))


def wait_turn_or_over(page: Page, after: str = "", timeout: float = 60_000) -> None:
    """Wait until it is this page's turn on a state other than ``after``, or the game is over."""
    page.wait_for_function(MY_TURN_OR_OVER, arg=after, timeout=timeout)


def take_turn(page: Page) -> str:
    """Click a highlighted card, else the draw pile, else quit the round (confirming); return what was done."""
    playable = page.locator("[data-testid=hand] .card.playable")
    if playable.count():
        playable.first.click()
        return "play"
    draw = page.locator("[data-testid=draw-pile]")
    if draw.is_enabled():
        draw.click()
        return "draw"
    page.locator("[data-testid=quit]").click()
    page.locator("[data-testid=confirm-dialog] [data-confirm=yes]").click()
    return "quit"


def play_until_over(page: Page, max_turns: int = 400, on_turn: Any = None) -> int:
    """Play this page's seat by clicking until the game is over; returns the number of turns taken."""
    turns = 0
    wait_turn_or_over(page)
    while status(page) != "over":
        assert turns < max_turns, "the game did not end"
        before = seq(page)
        if on_turn is not None:
            on_turn(page, turns)
        take_turn(page)
        turns += 1
        wait_turn_passed(page, before)
    return turns


def wait_turn_passed(page: Page, before: str) -> None:
    """Wait for the turn taken on state ``before`` to pass. A click the table did not take (on a busy machine, a
    card clicked as it was drawn again) is made again, as a person would, at most twice."""
    for _ in range(2):
        try:
            wait_turn_or_over(page, before, timeout=20_000)
            return
        except PlaywrightTimeoutError:
            if seq(page) == before and page.evaluate("document.body.dataset.yourTurn === 'true'"):
                take_turn(page)
    wait_turn_or_over(page, before)


def errors_shown(page: Page) -> list[str]:
    """The codes of the error messages on screen."""
    return [str(code) for code in page.locator(".toast").evaluate_all("nodes => nodes.map(n => n.dataset.code)")]


def snap(page: Page, name: str) -> None:
    """A screenshot of the whole page from its top, once the last card has landed (its animation is short)."""
    if SHOOTING:
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(350)
        screenshot(page, name)


def server_state(url: str, table_id: str) -> dict[str, Any]:
    """The table's state as a spectator gets it from the server (to compare with what the page shows)."""
    with connect(url.replace("http://", "ws://") + f"/ws/tables/{table_id}", open_timeout=10) as socket:
        socket.send(json.dumps({"type": "hello"}))
        message: dict[str, Any] = json.loads(socket.recv(timeout=10))
        return message
