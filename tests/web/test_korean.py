"""The interface in Korean: chosen from the browser's language, switchable on every page, kept across pages."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from tests.web.conftest import Server, new_context
from tests.web.lama_play import seq, snap, take_turn, wait_turn_or_over


def test_korean_lobby_and_switch(server: Server, browser: Browser) -> None:
    """A Korean browser gets the Korean lobby; the switch changes the language, and the choice is kept."""
    context = new_context(browser, locale="ko-KR")
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        server.post("/api/tables", {"game": "lama", "players": 3, "bots": {"1": "heuristic"}})
        page.goto(server.url + "/")
        expect(page.locator("h1")).to_have_text("라마와 카마라를 함께 즐겨요")
        expect(page.locator("html")).to_have_attribute("lang", "ko")
        expect(page.get_by_test_id("create")).to_have_text("테이블 만들기")
        expect(page.get_by_test_id("tables")).to_contain_text("참가자 기다리는 중")
        expect(page.locator(".game-choice[data-game=lama]")).to_contain_text("라마")
        page.get_by_test_id("name").fill("")
        page.get_by_test_id("create").click()
        expect(page.locator(".toast")).to_contain_text("먼저 이름을 입력하세요")
        snap(page, "korean_lobby")

        page.get_by_test_id("lang-switch").select_option("en")
        expect(page.locator("h1")).to_have_text("Play L.A.M.A. and Kamara")
        page.reload()
        expect(page.locator("h1")).to_have_text("Play L.A.M.A. and Kamara")  # the choice is remembered
        page.get_by_test_id("lang-switch").select_option("ko")
        expect(page.locator("h1")).to_have_text("라마와 카마라를 함께 즐겨요")

        # the rules page, in Korean and then in English
        page.get_by_test_id("rules-link").click()
        expect(page.get_by_test_id("rules").locator("h1")).to_contain_text("게임 규칙")
        expect(page.get_by_test_id("rules").locator("table, ul").first).to_be_visible()
        expect(page.get_by_test_id("rules-summary")).to_contain_text("카드를 버리세요")
        snap(page, "korean_rules")
        page.get_by_test_id("lang-switch").select_option("en")
        expect(page.get_by_test_id("rules").locator("h1")).to_have_text("L.A.M.A. — rules")
        expect(page.get_by_test_id("rules").locator("strong").first).to_be_visible()
        expect(page.get_by_test_id("rules").locator("table th").first).to_have_text("option")
    finally:
        context.close()


def test_korean_table(server: Server, browser: Browser) -> None:
    """The table speaks Korean too: header, piles, prompts, log, errors; the switch redraws it in English."""
    context = new_context(browser, locale="ko-KR", mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        created = server.post("/api/tables", {"game": "lama", "players": 3, "bots": {"1": "heuristic", "2": "random"}})
        page.goto(server.url + created["seats"][0]["invite"])
        expect(page.get_by_test_id("join-box")).to_contain_text("1번 자리에 앉기")
        page.get_by_test_id("join-name").fill("민지")
        page.get_by_test_id("join").click()
        wait_turn_or_over(page)
        expect(page.get_by_test_id("turn")).to_have_text("내 차례")
        expect(page.locator(".draw-pile")).to_contain_text("카드 더미")
        expect(page.get_by_test_id("log")).to_contain_text("민지 님이 1번 자리에 앉음")
        before = seq(page)
        take_turn(page)
        wait_turn_or_over(page, before)
        expect(page.get_by_test_id("log")).to_contain_text("똑똑한 봇 2")
        expect(page.get_by_test_id("log")).to_contain_text("민지")
        snap(page, "korean_phone_table")

        page.get_by_test_id("lang-switch").select_option("en")
        expect(page.get_by_test_id("turn")).to_have_text("Your turn")
        expect(page.locator(".draw-pile")).to_contain_text("Draw pile")
        expect(page.get_by_test_id("log")).to_contain_text("Smart bot 2")
        page.get_by_test_id("lang-switch").select_option("ko")
        expect(page.get_by_test_id("turn")).to_have_text("내 차례")
        expect(page.get_by_test_id("hand").locator(".card.playable, .card")).not_to_have_count(0)

        # a server error in words: a link whose token opens no seat
        page.goto(server.url + f"/table/{created['id']}?seat=1&token=nope")
        toast = page.locator(".toast[data-code=bad_token]")
        expect(toast).to_contain_text("이 링크로는 이 테이블의 자리에 앉을 수 없습니다")
        expect(page.locator("body")).to_have_attribute("data-seat", "0")  # the seat held before is kept
        expect(page.get_by_test_id("turn")).not_to_be_empty()
    finally:
        context.close()


def test_a_count_of_one_is_said_in_the_pages_language(server: Server, browser: Browser) -> None:
    """English has its own words for one ("1 card"); Korean, whose "{n}장" needs none, never borrows them."""
    context = new_context(browser, locale="ko-KR")
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        said = page.evaluate(
            """async () => {
              const i18n = await import('/static/js/i18n.js');
              const keys = ['lama.cards_count', 'end.points', 'lama.points', 'replay.per_second'];
              const words = (n) => keys.map((key) => i18n.t(key, { n }));
              await i18n.setLang('ko');
              const ko = [words(1), words(2)];
              await i18n.setLang('en');
              return { ko, en: [words(1), words(2)] };
            }"""
        )
        assert said["ko"] == [["1장", "1점", "1점", "초당 1수"], ["2장", "2점", "2점", "초당 2수"]]
        assert said["en"][0] == ["1 card", "1 point", "1 pt", "1 move a second"]
        assert said["en"][1][0] == "2 cards"
    finally:
        context.close()
