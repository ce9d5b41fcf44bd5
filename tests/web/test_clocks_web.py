"""Turn clocks in a real browser: the countdown, a seat out of time shown away and handed to its stand-in bot,
its player taking it back, and the panel at the end of a L.A.M.A. round with its "Next round" button."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import LocalServer, new_context, screenshot
from tests.web.lama_play import take_turn

CLOCK_TEXT = re.compile(r"^\d+:\d\d$")


@pytest.fixture
def paused_server(tmp_path: Path) -> Iterator[LocalServer]:
    """A server that pauses 30 s at a L.A.M.A. round's end (unless everyone clicks "Next round" first)."""
    running = LocalServer(tmp_path, bot_delay=0.05, extra=("--round-pause", "30"))
    running.start()
    try:
        yield running
    finally:
        running.stop()


def sit(server: LocalServer, page: Page, seat: dict[str, Any], name: str) -> None:
    """Open a seat's invite link and take the seat by name, as a person would."""
    page.goto(server.url + seat["invite"])
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join").click()


def two_humans(server: LocalServer, clock: Any) -> dict[str, Any]:
    """A two-seat L.A.M.A. table with a clock whose second seat (Bo) is taken over HTTP and never connects."""
    created = server.post("/api/tables", {"game": "lama", "players": 2, "seed": 7, "clock": clock})
    bo = created["seats"][1]
    server.post(f"/api/tables/{created['id']}/seats/1/join", {"token": bo["token"], "name": "Bo"})
    return created


def clock_of(page: Page, seat: int) -> Any:
    return page.locator(f"[data-testid=players] li[data-seat='{seat}'] [data-testid=clock]")


def test_the_running_clock_counts_down(server: LocalServer, page: Page) -> None:
    """Every player's box shows their time as m:ss; the running one moves, the other stands still."""
    created = two_humans(server, {"bank": 90, "increment": 5})
    sit(server, page, created["seats"][0], "Ana")
    expect(page.locator("body")).to_have_attribute("data-status", "running")
    summary = server.get(f"/api/tables/{created['id']}")
    running = summary["clock"]["running"]
    assert running in (0, 1) and summary["clock"]["remaining"] == [90, 90]
    waiting = 1 - running
    expect(clock_of(page, running)).to_have_class(re.compile(r"\brunning\b"))
    first = int(clock_of(page, running).get_attribute("data-seconds") or "0")
    text = clock_of(page, running).locator(".clock-time").inner_text()
    assert CLOCK_TEXT.match(text), text
    assert 80 <= first <= 90
    page.wait_for_timeout(2300)
    later = int(clock_of(page, running).get_attribute("data-seconds") or "0")
    assert first - 3 <= later <= first - 2, (first, later)
    assert clock_of(page, running).locator(".clock-time").inner_text() != text
    expect(clock_of(page, waiting).locator(".clock-time")).to_have_text("1:30")
    expect(clock_of(page, waiting)).not_to_have_class(re.compile(r"\brunning\b"))
    expect(clock_of(page, running)).not_to_have_class(re.compile(r"\blow\b"))
    # the L.A.M.A. boxes show the same clocks
    expect(page.locator("[data-testid=opponent][data-seat='1'] [data-testid=clock]")).to_be_visible()
    screenshot(page, "clock-running")


@pytest.mark.slow  # waits out real turn clocks
def test_an_offline_player_to_act_is_said_in_the_middle(tmp_path: Path, page: Page) -> None:
    """Bo, to act, has no connection: above the game (not only in the side list) the table says he is offline,
    counts down to his stand-in taking over (the end of his time here) and, once he has been gone long enough
    (5 s on this server), offers to hand his seat over now."""
    server = LocalServer(tmp_path, bot_delay=0.05, extra=("--handover-after", "5"))
    server.start()
    try:
        _offline_player(server, page)
    finally:
        server.stop()


def _offline_player(server: LocalServer, page: Page) -> None:
    created = two_humans(server, {"bank": 90, "increment": 0})
    sit(server, page, created["seats"][0], "Ana")
    expect(page.locator("body")).to_have_attribute("data-status", "running")
    absent = page.get_by_test_id("absent")
    page.wait_for_function("() => document.body.dataset.yourTurn === 'true' || !!document.body.dataset.seq")
    if page.evaluate("document.body.dataset.yourTurn === 'true'"):
        expect(absent).to_be_hidden()
        take_turn(page)
    expect(absent).to_be_visible()
    expect(absent.get_by_test_id("absent-hand-over-in")).to_contain_text("You may hand their seat to a bot in 0:0")
    expect(absent).to_contain_text("Bo is offline.")
    expect(absent).to_contain_text(re.compile(r"The smart bot plays for them in 1:[23]\d unless they come back\."))
    expect(page.locator(".lama .prompt")).to_have_text("Bo is offline.")
    summary = server.get(f"/api/tables/{created['id']}")
    assert summary["clock"]["standin_at"] == summary["clock"]["deadline"]  # his time ends before 120 s offline
    screenshot(page, "clock-absent")
    absent.get_by_test_id("absent-hand-over").click()  # once he has been gone 5 s
    page.get_by_test_id("confirm-dialog").locator("[data-confirm=yes]").click()
    expect(absent).to_be_hidden()
    assert server.get(f"/api/tables/{created['id']}")["seats"][1]["handed"] is True


def test_kamara_shows_the_clocks(server: LocalServer, page: Page) -> None:
    """Kamara's players list and status line carry the clocks too; the running one counts down."""
    created = server.post("/api/tables", {"game": "kamara", "players": 2, "seed": 5, "clock": "fast"})
    bo = created["seats"][1]
    server.post(f"/api/tables/{created['id']}/seats/1/join", {"token": bo["token"], "name": "Bo"})
    sit(server, page, created["seats"][0], "Ana")
    expect(page.locator("body")).to_have_attribute("data-status", "running")
    expect(page.locator(".k-playerlist [data-testid=clock]")).to_have_count(2)
    running = page.locator(".k-who [data-testid=clock].running")
    expect(running).to_be_visible()
    first = int(running.get_attribute("data-seconds") or "0")
    page.wait_for_timeout(1500)
    assert int(running.get_attribute("data-seconds") or "0") < first
    screenshot(page, "clock-kamara")


@pytest.mark.slow  # waits out real turn clocks
def test_a_seat_out_of_time_is_shown_away_and_handed_to_its_bot(server: LocalServer, browser: Browser) -> None:
    """Bo never plays: after his 10 s the heuristic bot plays for him and his box says away; Ana hands his seat
    to the bot; Bo, back, takes his seat again."""
    created = two_humans(server, {"bank": 10, "increment": 0})
    ana_context, bo_context = new_context(browser), new_context(browser)
    try:
        ana = ana_context.new_page()
        ana.set_default_timeout(15_000)
        sit(server, ana, created["seats"][0], "Ana")
        expect(ana.locator("body")).to_have_attribute("data-status", "running")
        bo_box = ana.locator("[data-testid=players] li[data-seat='1']")
        expect(bo_box.get_by_test_id("hand-over")).to_have_count(0)  # gone less than a minute: not yet
        expect(clock_of(ana, 0)).to_have_class(re.compile(r"\blow\b"))  # 10 s: under 20 s is low
        deadline = time.monotonic() + 30
        while not bo_box.get_by_test_id("away-badge").count():
            assert time.monotonic() < deadline, "Bo's seat never timed out"
            if ana.evaluate("document.body.dataset.yourTurn === 'true' && !document.body.dataset.pending"):
                take_turn(ana)
            ana.wait_for_timeout(200)
        expect(bo_box.get_by_test_id("away-badge")).to_have_text("away")
        log = ana.get_by_test_id("log")
        expect(log).to_contain_text("Bo ran out of time — the smart bot played for them")
        expect(log).to_contain_text("Smart bot for Bo")
        screenshot(ana, "clock-away")
        bo_box.get_by_test_id("hand-over").click()
        dialog = ana.get_by_test_id("confirm-dialog")
        expect(dialog).to_contain_text("Bo")
        dialog.locator("[data-confirm=yes]").click()
        expect(log).to_contain_text("Bo was handed to the smart bot until they come back")
        expect(bo_box).to_contain_text("The smart bot plays for them until they come back")
        expect(bo_box.get_by_test_id("hand-over")).to_have_count(0)
        assert server.get(f"/api/tables/{created['id']}")["seats"][1]["handed"] is True
        screenshot(ana, "clock-handed")
        # Bo comes back and takes his seat again
        bo = bo_context.new_page()
        bo.set_default_timeout(15_000)
        bo.goto(server.url + created["seats"][1]["invite"])
        expect(bo.get_by_test_id("join-box")).to_contain_text("The smart bot is playing your seat")
        expect(bo.get_by_test_id("join")).to_have_text("Take my seat back")
        screenshot(bo, "clock-take-back")
        bo.get_by_test_id("join").click()
        expect(bo.get_by_test_id("join-box")).to_be_hidden()
        expect(bo_box.get_by_test_id("away-badge")).to_have_count(0)
        assert server.get(f"/api/tables/{created['id']}")["seats"][1]["handed"] is False
    finally:
        ana_context.close()
        bo_context.close()


def test_the_round_panel_shows_and_next_round_starts_it(paused_server: LocalServer, page: Page) -> None:
    """At a round's end the panel shows each player's cards, penalty, total and tokens with a countdown; "Next
    round" starts the next round at once (the pause would last 30 s)."""
    created = paused_server.post("/api/tables", {"game": "lama", "players": 2, "seed": 3, "bots": {"1": "heuristic"}})
    sit(paused_server, page, created["seats"][0], "Ana")
    expect(page.locator("body")).to_have_attribute("data-status", "running")
    expect(page.get_by_test_id("round")).to_have_text("Round 1")
    # Ana quits at once; the bot plays the round out alone
    page.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
    page.get_by_test_id("quit").click()
    page.get_by_test_id("confirm-dialog").locator("[data-confirm=yes]").click()
    panel = page.get_by_test_id("round-panel")
    expect(panel).to_be_visible(timeout=20_000)
    expect(panel).to_contain_text("Round 1 is over")
    expect(panel.locator("tbody tr")).to_have_count(2)
    expect(panel.locator(".round-tokens .tokens")).to_have_count(2)
    expect(panel.locator(".left-cards .card").first).to_be_visible()  # Ana's cards, laid down when she quit
    count = panel.get_by_test_id("countdown")
    first = int(count.get_attribute("data-seconds") or "0")
    assert 20 <= first <= 30, first
    shown, seconds = count.evaluate("(node) => [node.textContent, node.dataset.seconds]")
    assert shown == f"{seconds} s", shown  # seconds, one space between them and their unit
    assert count.evaluate("(node) => getComputedStyle(node).fontFamily") == panel.evaluate(
        "(node) => getComputedStyle(node).fontFamily"
    )  # the panel's own letters: a monospaced space is as wide as a digit
    page.wait_for_timeout(1300)
    assert int(count.get_attribute("data-seconds") or "0") < first
    expect(page.get_by_test_id("log").get_by_test_id("log-round-over")).to_have_text("End of round 1")
    expect(page.get_by_test_id("log").get_by_test_id("log-round-start")).to_have_text("Round 2 begins")
    # nobody is to play during the pause: no one's turn in the header, no "to play" on any box
    expect(page.get_by_test_id("turn")).to_have_text("Between rounds")
    expect(page.locator("[data-testid=players] li.current")).to_have_count(0)
    expect(page.locator("[data-testid=opponent].current, .turn-badge")).to_have_count(0)
    expect(page.locator(".lama .prompt")).to_have_text("Between rounds")
    # at 1280 px the panel stays over the game's column: the players and the log beside it are not covered
    for width in (1280, 1100):
        page.set_viewport_size({"width": width, "height": 860})
        panel_box, side_box = panel.bounding_box(), page.locator(".table-side").bounding_box()
        assert panel_box and side_box and panel_box["x"] + panel_box["width"] <= side_box["x"], (width, panel_box)
    page.set_viewport_size({"width": 1280, "height": 860})
    screenshot(page, "clock-round-panel")
    page.get_by_test_id("next-round").click()
    expect(panel).to_be_hidden(timeout=5_000)
    expect(page.get_by_test_id("round")).to_have_text("Round 2")
    expect(page.get_by_test_id("log")).to_contain_text("Ana is ready for the next round")
    expect(page.get_by_test_id("turn")).to_have_text(re.compile(r"^(Your turn|Smart bot 2's turn)$"))


def test_the_lobby_offers_a_clock_and_lists_it(server: LocalServer, page: Page) -> None:
    """The clock follows the seats as the server would choose it (none against bots, normal with a friend); the
    table is made with the chosen one and the list shows it with the table's last activity."""
    page.goto(server.url + "/")
    page.get_by_test_id("name").fill("Ana")
    clock = page.get_by_test_id("clock")
    expect(clock).to_have_value("none")
    page.get_by_test_id("seat-kind-1").select_option("human")
    expect(page.get_by_test_id("clock")).to_have_value("normal")
    expect(page.get_by_test_id("clock").locator("option[value=fast]")).to_have_text("Fast (1:30 + 5 s a turn)")
    expect(page.get_by_test_id("clock").locator("option[value=daily]")).to_have_text("Daily (1d 0h a turn)")
    page.get_by_test_id("clock").select_option("fast")
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r"/table/"))
    table_id = page.url.rsplit("/", 1)[1]
    assert server.get(f"/api/tables/{table_id}")["clock"]["name"] == "fast"
    page.goto(server.url + "/")
    row = page.locator(f"[data-table='{table_id}']")
    expect(row.get_by_test_id("table-clock")).to_have_text("Fast (1:30 + 5 s a turn)")
    expect(row.get_by_test_id("table-idle")).to_contain_text("last activity")
    screenshot(page, "clock-lobby")
    page.goto(server.url + "/rules/lama")
    expect(page.get_by_test_id("guide-clock")).to_contain_text("Take my seat back returns the seat")


@pytest.fixture
def quick_handover(tmp_path: Path) -> Iterator[LocalServer]:
    """A server where another player may hand an absent player's seat over after 1 s (not 60)."""
    running = LocalServer(tmp_path, bot_delay=0.05, extra=("--handover-after", "1"))
    running.start()
    try:
        yield running
    finally:
        running.stop()


def test_in_korean(quick_handover: LocalServer, browser: Browser) -> None:
    """The clocks, the hand-over button and its question in Korean; every English string has a Korean one. At a
    clock of a day a turn, a player gone between turns is not offered for hand-over."""
    server = quick_handover
    daily = two_humans(server, {"per_turn": 86400})
    context = new_context(browser, locale="ko-KR")
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        sit(server, page, daily["seats"][0], "아나")
        expect(page.locator("body")).to_have_attribute("data-status", "running")
        expect(clock_of(page, 1).locator(".clock-time")).to_have_text(re.compile(r"^(1일 0시간|23시간 5\d분)$"))
        page.wait_for_timeout(1500)  # Bo has been gone longer than --handover-after
        expect(page.get_by_test_id("hand-over")).to_have_count(0)

        created = two_humans(server, {"per_turn": 600})
        sit(server, page, created["seats"][0], "아나")
        expect(page.locator("body")).to_have_attribute("data-status", "running")
        bo_box = page.locator("[data-testid=players] li[data-seat='1']")
        bo_box.get_by_test_id("hand-over").click()
        expect(page.get_by_test_id("confirm-dialog")).to_contain_text("Bo 님 대신 봇이 둘까요?")
        page.get_by_test_id("confirm-dialog").locator("[data-confirm=yes]").click()
        expect(bo_box.get_by_test_id("away-badge")).to_have_text("자리 비움")
        expect(page.get_by_test_id("log")).to_contain_text("Bo 님의 자리를 돌아올 때까지 똑똑한 봇에게 맡겼습니다")
        screenshot(page, "clock-korean")
        missing = page.evaluate(
            """async () => {
              const en = (await import('/static/js/i18n/en.js')).default;
              const ko = (await import('/static/js/i18n/ko.js')).default;
              return Object.keys(en).filter((key) => !key.endsWith('.one') && !(key in ko));
            }"""
        )
        assert missing == []
    finally:
        context.close()
