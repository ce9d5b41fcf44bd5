"""Quick match in a real browser: two strangers sign up, each presses "Play now", and both land at one table, their
seats their own; the lobby counts who waits, and passes axe-core while a player waits (in English and Korean)."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import LocalServer, new_context
from tests.web.test_accounts_web import violations


def _sign_up(page: Page, url: str, name: str) -> None:
    page.goto(url + "/")
    account = page.get_by_test_id("account")
    account.get_by_test_id("account-name").fill(name)
    account.get_by_test_id("account-password").fill("correct horse")
    account.get_by_test_id("sign-up").click()
    expect(page.get_by_test_id("signed-in")).to_contain_text(name)


def _play_now(page: Page) -> None:
    panel = page.get_by_test_id("quick-match")
    panel.get_by_test_id("match-game").select_option("lama")
    panel.get_by_test_id("match-players").select_option("2")
    panel.get_by_test_id("match-bots").select_option("")  # people only
    panel.get_by_test_id("play-now").click()


def test_two_strangers_press_play_now_and_meet_at_one_table(server: LocalServer, page: Page, browser: Browser) -> None:
    page.goto(server.url + "/")
    expect(page.get_by_test_id("match-sign-in")).to_be_visible()  # a guest is asked to sign in first
    _sign_up(page, server.url, "Ana Quick")
    page.get_by_test_id("match-players").select_option("3")
    page.get_by_test_id("match-players").focus()
    page.wait_for_timeout(3500)  # the lobby refreshes its counts meanwhile: the choice and the focus stay
    assert page.evaluate("document.activeElement.id") == "match-players"
    expect(page.get_by_test_id("match-players")).to_have_value("3")
    _play_now(page)
    expect(page.get_by_test_id("match-waiting")).to_be_visible()
    expect(page.get_by_test_id("match-counts").locator("li[data-game=lama]")).to_contain_text("1 waiting")
    assert not violations(page), violations(page)

    other = new_context(browser, locale="ko-KR")
    try:
        stranger = other.new_page()
        stranger.set_default_timeout(15_000)
        _sign_up(stranger, server.url, "Bo Quick")
        expect(stranger.get_by_test_id("match-counts").locator("li[data-game=lama]")).to_contain_text("1명 대기 중")
        assert not violations(stranger), violations(stranger)
        _play_now(stranger)
        stranger.wait_for_url("**/table/*", timeout=20_000)
        page.wait_for_url("**/table/*", timeout=20_000)
        table = page.url.rsplit("/", 1)[1].split("#")[0]
        assert stranger.url.rsplit("/", 1)[1].split("#")[0] == table
        expect(page.get_by_test_id("hand").locator(".card")).not_to_have_count(0)
        expect(stranger.get_by_test_id("hand").locator(".card")).not_to_have_count(0)
        seats = server.get(f"/api/tables/{table}")["seats"]
        assert sorted(seat["name"] for seat in seats) == ["Ana Quick", "Bo Quick"]
        assert {page.evaluate("document.body.dataset.seat"), stranger.evaluate("document.body.dataset.seat")} == {
            "0",
            "1",
        }
    finally:
        other.close()
