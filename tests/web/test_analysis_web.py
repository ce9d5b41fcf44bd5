"""The analysis of a finished game in the browser: the button on the finished table, the worker's result shown as
a summary, a win-chance chart (SVG) and the list of decisions with the marked moves; a reload shows it at once.

Screenshots go to tests/web/screenshots/ (analysis_*.png).
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import Server, new_context, screenshot
from tests.web.test_table_details import join, let_a_bot_play


def test_a_finished_game_is_analysed_in_the_browser(server: Server, page: Page) -> None:
    table = {"game": "lama", "players": 2, "bots": {"1": "heuristic"}, "options": {"end_score": 12}}
    created = join(server, page, table)
    expect(page.get_by_test_id("analysis")).to_be_hidden()  # nothing to analyse while the game runs
    let_a_bot_play(server, created)
    page.wait_for_function("() => document.body.dataset.status === 'over'", timeout=60_000)
    panel = page.get_by_test_id("analysis")
    expect(panel).to_be_visible()
    expect(page.get_by_test_id("analysis-seat")).to_have_value("0")
    page.get_by_test_id("analyse").click()
    expect(page.get_by_test_id("analysis-summary")).to_be_visible(timeout=60_000)
    answer = server.get(f"/api/tables/{created['id']}/analysis?seat=0")
    assert answer["status"] == "done"
    decisions = answer["analysis"]["decisions"]
    rows = page.get_by_test_id("analysis-moves").locator("tbody tr")
    expect(rows).to_have_count(len(decisions))
    shown = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=analysis-moves] tbody tr')]"
        ".map((tr) => [Number(tr.dataset.move), tr.dataset.verdict])"
    )
    assert shown == [[d["move"], d["verdict"]] for d in decisions]
    accuracy = round(100 * answer["analysis"]["summary"]["accuracy"])
    expect(page.get_by_test_id("analysis-summary")).to_contain_text(f"Accuracy {accuracy}%")
    chart = page.get_by_test_id("analysis-chart")
    expect(chart).to_be_visible()
    points = page.evaluate("() => document.querySelector('.analysis-chart .played').getAttribute('points')")
    assert len(points.split()) == len(decisions)
    marked = [d for d in decisions if d["verdict"] != "good"]
    expect(chart.locator("circle.dot")).to_have_count(len(marked))
    panel.scroll_into_view_if_needed()
    screenshot(page, "analysis_lama")
    page.reload()
    page.wait_for_function("() => document.body.dataset.status === 'over'")
    expect(page.get_by_test_id("analysis-summary")).to_be_visible()  # kept: shown at once, no button to press
    expect(page.get_by_test_id("analyse")).to_be_hidden()
    page.get_by_test_id("analysis-seat").select_option("1")  # the bot's seat, never analysed yet
    expect(page.get_by_test_id("analyse")).to_be_visible()
    expect(page.get_by_test_id("analysis-summary")).to_have_count(0)


def test_each_analysed_move_links_to_the_replay_at_that_move(server: Server, page: Page) -> None:
    table = {"game": "lama", "players": 2, "bots": {"0": "heuristic", "1": "heuristic"}, "options": {"end_score": 8}}
    created = server.post("/api/tables", table)
    page.goto(f"{server.url}/table/{created['id']}")
    page.wait_for_function("() => document.body.dataset.status === 'over'", timeout=60_000)
    page.get_by_test_id("analyse").click()
    expect(page.get_by_test_id("analysis-summary")).to_be_visible(timeout=60_000)
    links = page.get_by_test_id("analysis-replay")
    third = links.nth(min(2, links.count() - 1))
    move = int(third.inner_text())
    third.click()
    page.wait_for_url(f"**/table/{created['id']}/replay#step={move}")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    assert page.evaluate("() => document.body.dataset.step") == str(move)
    expect(page.locator(f"[data-step='{move}']").first).to_be_visible()
    screenshot(page, "analysis_replay_link")


def test_the_analysis_speaks_korean(server: Server, browser: Browser) -> None:
    table = {
        "game": "lama",
        "players": 3,
        "bots": dict.fromkeys(("0", "1", "2"), "heuristic"),
        "options": {"end_score": 8},
    }
    created = server.post("/api/tables", table)
    context = new_context(browser, locale="ko-KR", mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/table/{created['id']}")
        page.wait_for_function("() => document.body.dataset.status === 'over'", timeout=60_000)
        expect(page.get_by_test_id("analysis").locator("h2")).to_have_text("분석")
        page.get_by_test_id("analysis-seat").select_option("2")
        page.get_by_test_id("analyse").click()
        expect(page.get_by_test_id("analysis-summary")).to_contain_text("정확도", timeout=60_000)
        expect(page.get_by_test_id("analysis-moves").locator("th").first).to_have_text("수")
        page.get_by_test_id("analysis").scroll_into_view_if_needed()
        screenshot(page, "analysis_korean_phone")
    finally:
        context.close()
