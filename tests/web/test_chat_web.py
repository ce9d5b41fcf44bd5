"""Chat in a real browser: a line from the other seat whose text is HTML (an image with an onerror handler) shows
as that text and runs nothing; a line typed in the chat field and sent with Enter reaches the table; muting the
other player hides their lines for this browser only, and stays so after a reload.

Screenshots go to tests/web/screenshots/ (chat_*.png).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Page, expect
from tests.server.client import Client
from tests.web.conftest import LocalServer, screenshot

HOSTILE = '<img src=x onerror="window.__pwned = 1"><b>bold?</b>'


def _say(server: LocalServer, table_id: str, token: str, text: str) -> None:
    async def say() -> None:
        client = await Client.connect(server.url.replace("http://", "ws://"), table_id, token, "Bo")
        await client.wait_state()
        await client.send({"type": "chat", "text": text})
        await client.wait_state(lambda s: any(line["text"] == text for line in s["chat"]))
        await client.close()

    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's event loop
        thread.submit(asyncio.run, say()).result(timeout=30)


def test_chat_is_text_never_html_and_a_muted_player_stays_muted(server: LocalServer, page: Page) -> None:
    created = server.post("/api/tables", {"game": "lama", "players": 2, "clock": "none"})
    table_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    server.post(f"/api/tables/{table_id}/seats/0/join", {"token": tokens[0], "name": "Ana"})
    server.post(f"/api/tables/{table_id}/seats/1/join", {"token": tokens[1], "name": "Bo"})
    page.goto(server.url + created["seats"][0]["invite"])
    lines = page.get_by_test_id("chat-lines")
    expect(page.get_by_test_id("chat-input")).to_be_visible()

    _say(server, table_id, tokens[1], HOSTILE)
    expect(lines.locator(".chat-text")).to_have_text([HOSTILE])
    assert lines.locator("img, b:not(.chat-by)").count() == 0
    assert page.evaluate("() => window.__pwned") is None

    field = page.get_by_test_id("chat-input")
    field.fill("good luck, Bo")
    field.press("Enter")
    expect(lines.locator(".chat-text")).to_have_text([HOSTILE, "good luck, Bo"])
    expect(field).to_have_value("")
    screenshot(page, "chat_lines")

    mute = page.get_by_role("button", name="Mute Bo")
    mute.focus()
    page.keyboard.press("Enter")
    expect(lines.locator(".chat-text")).to_have_text(["good luck, Bo"])
    expect(page.get_by_role("button", name="Unmute Bo")).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.get_by_role("button", name="Unmute Bo")).to_be_visible()
    expect(lines.locator(".chat-text")).to_have_text(["good luck, Bo"])
    assert page.evaluate("() => window.__pwned") is None
