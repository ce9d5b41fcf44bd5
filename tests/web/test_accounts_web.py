"""Accounts in the lobby, in a real browser: sign up, make a table, find it under "My games", sign out, and sign in
on another device to take the seat back without the invite link; the signed-in lobby passes axe-core."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import LocalServer, new_context
from tests.web.test_accessibility import PHONE, RULES


def violations(page: Page) -> list[str]:
    found = Axe().run(page, options=RULES).response["violations"]
    return [f"{violation['id']}: {[node['target'] for node in violation['nodes'][:3]]}" for violation in found]


def test_sign_up_play_sign_out_and_take_the_seat_back_elsewhere(
    server: LocalServer, page: Page, browser: Browser
) -> None:
    page.goto(server.url + "/")
    account = page.get_by_test_id("account")
    account.get_by_test_id("account-name").fill("Ana Web")
    account.get_by_test_id("account-password").fill("short")
    account.get_by_test_id("sign-up").click()  # the browser itself holds a password too short
    assert account.get_by_test_id("account-password").evaluate("input => !input.validity.valid")
    assert not page.context.cookies()
    account.get_by_test_id("account-password").fill("correct horse")
    account.get_by_test_id("sign-up").click()
    expect(page.get_by_test_id("signed-in")).to_have_text("Signed in as Ana Web")
    expect(page.get_by_test_id("name")).to_have_count(0)  # the account's name is the player's
    expect(page.get_by_test_id("my-games")).to_contain_text("No running games on your account.")
    cookie = next(c for c in page.context.cookies() if c["name"] == "laro_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert page.evaluate("document.cookie") == ""  # the page's scripts never see the session

    page.locator(".game-choice[data-game=lama]").click()
    page.get_by_test_id("players").select_option("2")
    page.get_by_test_id("seat-kind-1").select_option("bot:random")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1].split("#")[0]
    expect(page.get_by_test_id("hand").locator(".card")).not_to_have_count(0)
    assert server.get(f"/api/tables/{table_id}")["seats"][0]["name"] == "Ana Web"

    page.goto(server.url + "/")
    mine = page.get_by_test_id("my-games").locator(f".my-game[data-table='{table_id}']")
    expect(mine).to_contain_text("Playing")
    for size in (None, PHONE):
        if size:
            page.set_viewport_size(size)
        assert not violations(page), violations(page)
    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("account-name")).to_be_visible()
    expect(page.get_by_test_id("my-games")).to_have_count(0)

    other = new_context(browser, locale="ko-KR")  # another device, in Korean, without the invite link
    try:
        phone = other.new_page()
        phone.set_default_timeout(15_000)
        phone.goto(server.url + "/")
        phone.get_by_test_id("account-name").fill("ana web")
        phone.get_by_test_id("account-password").fill("wrong horse")
        phone.get_by_test_id("sign-in").click()
        expect(phone.locator(".toast[data-code=bad_credentials]")).to_contain_text("계정이 없습니다")
        phone.get_by_test_id("account-password").fill("correct horse")
        phone.get_by_test_id("sign-in").click()
        expect(phone.get_by_test_id("signed-in")).to_contain_text("Ana Web")
        phone.get_by_test_id("my-games").get_by_test_id("my-game-seat").click()
        phone.wait_for_url(f"**/table/{table_id}*")
        expect(phone.get_by_test_id("hand").locator(".card")).not_to_have_count(0)  # the seat's own hand
        assert phone.evaluate("document.body.dataset.seat") == "0"
    finally:
        other.close()
