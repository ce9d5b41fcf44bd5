"""Both games played with the keyboard alone: Tab (or Shift+Tab) brings the focus, always visible, to what is to be
done, and Enter does it — a whole L.A.M.A. game, and a Kamara setup and turn. No mouse is used."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import LocalServer, new_context
from tests.web.lama_play import seq, status, take_turn, wait_turn_or_over
from tests.web.test_kamara_web import KAMARA, _data, _wait_for_move

# which way the focus must go to reach the target: 0 there, 1 forward (Tab), -1 back (Shift+Tab); null: no target
_WAY = """
selector => {
  const target = document.querySelector(selector);
  const active = document.activeElement;
  if (!target) return null;
  if (active === target) return 0;
  if (!active || active === document.body) return 1;
  return active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : -1;
}
"""

# the focused element shows it: the browser's :focus-visible, drawn as an outline or a ring (on the chamber, a
# stroke in the page's focus colour)
_SHOWN = """
() => {
  const active = document.activeElement;
  const style = getComputedStyle(active);
  const focus = getComputedStyle(document.body).getPropertyValue("--focus").trim();
  const ring = document.createElement("i");
  ring.style.color = focus;
  document.body.append(ring);
  const colour = getComputedStyle(ring).color;
  ring.remove();
  const drawn = [active, ...active.querySelectorAll("rect")].some((node) => getComputedStyle(node).stroke === colour);
  return active.matches(":focus-visible") && (style.outlineStyle !== "none" || style.boxShadow !== "none" || drawn);
}
"""


@pytest.fixture
def server(shared_server: LocalServer) -> LocalServer:
    return shared_server


def press_on(page: Page, selector: str, key: str = "Enter", limit: int = 80) -> None:
    """Move the focus with Tab or Shift+Tab to the first element matching ``selector``, check that the focus shows,
    and press ``key`` there."""
    for _ in range(limit):
        way = page.evaluate(_WAY, selector)
        assert way is not None, f"nothing matches {selector}"
        if way == 0:
            break
        page.keyboard.press("Tab" if way > 0 else "Shift+Tab")
    else:
        raise AssertionError(f"Tab never reached {selector}")
    assert page.evaluate(_SHOWN), f"the focus on {selector} does not show"
    page.keyboard.press(key)


def _sit(server: LocalServer, page: Page, table: dict[str, object]) -> str:
    """Open seat 0's invite and take it by typing a name and pressing Enter."""
    created = server.post("/api/tables", table)
    page.goto(server.url + created["seats"][0]["invite"])
    page.get_by_test_id("join-name").wait_for()
    press_on(page, "[data-testid=join-name]", key="End")
    page.keyboard.type("Ana")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.status === 'running'")
    return str(created["id"])


# every text the live region is given, kept in window.told (a screen reader reads each change out)
_LISTEN = """
window.told = [];
new MutationObserver(() => {
  const region = document.querySelector("[data-testid=announce]");
  if (region && region.textContent && window.told[window.told.length - 1] !== region.textContent) {
    window.told.push(region.textContent);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def told(page: Page) -> list[str]:
    said: list[str] = page.evaluate("window.told")
    return said


@pytest.mark.slow  # a whole game or record played out in the browser
def test_a_whole_lama_game_by_keyboard(server: LocalServer, page: Page) -> None:
    """Tab to a playable card, the draw button or Quit round (and its question's Yes), Enter; the live region says
    each move, the turn passing, each round's scores and the game's end."""
    table = {"game": "lama", "players": 2, "bots": {"1": "random"}, "options": {"end_score": 15}, "seed": 12}
    page.add_init_script(_LISTEN)
    _sit(server, page, table)
    turns = {"play": 0, "draw": 0, "quit": 0}
    wait_turn_or_over(page)
    # in the hand, the arrow keys go from card to card
    press_on(page, "[data-testid=hand] .card", key="ArrowRight")
    cards = page.locator("[data-testid=hand] .card")
    assert page.evaluate("n => n === document.activeElement", cards.nth(1).element_handle())
    page.keyboard.press("End")
    last = cards.count() - 1
    assert page.evaluate("n => n === document.activeElement", cards.nth(last).element_handle())
    page.keyboard.press("Home")
    assert page.evaluate("n => n === document.activeElement", cards.nth(0).element_handle())
    while status(page) != "over":
        assert sum(turns.values()) < 300, "the game did not end"
        before = seq(page)
        if page.locator("[data-testid=hand] .card.playable").count():
            press_on(page, "[data-testid=hand] .card.playable")
            turns["play"] += 1
        elif page.locator("[data-action=draw-button]:not([disabled])").count():
            press_on(page, "[data-action=draw-button]")
            turns["draw"] += 1
        else:
            press_on(page, "[data-testid=quit]")
            expect(page.get_by_test_id("confirm-dialog")).to_be_visible()
            press_on(page, "[data-testid=confirm-dialog] [data-confirm=yes]")
            turns["quit"] += 1
        wait_turn_or_over(page, before)
    assert turns["play"] and turns["quit"], turns
    expect(page.get_by_test_id("end")).to_be_visible()
    region = page.get_by_test_id("announce")
    assert region.get_attribute("role") == "status" and region.get_attribute("aria-live") == "polite"
    said = " | ".join(told(page))
    for words in ("Random bot 2 ", "Ana plays", "Your turn", "Random bot 2's turn", "End of round 1. Ana: "):
        assert words in said, (words, said[-2000:])
    assert re.search(r"(You won|Random bot 2 wins)", told(page)[-1]), told(page)[-1]


def _kamara_act(page: Page, selector: str) -> None:
    before = _data(page)["seq"]
    press_on(page, selector)
    page.wait_for_function(f"(seq) => {KAMARA}.dataset.seq !== seq", arg=before, timeout=15_000)


def test_kamara_setup_and_a_turn_by_keyboard(server: LocalServer, page: Page) -> None:
    _sit(server, page, {"game": "kamara", "players": 2, "bots": {"1": "random"}, "seed": 4})
    page.wait_for_function(f"() => {KAMARA} && {KAMARA}.dataset.phase")
    while True:
        data = _wait_for_move(page)
        if data["phase"] == "tiles":
            press_on(page, ".k-pooltile:not(.is-unfit)")
            press_on(page, ".k-slot-target")
            press_on(page, "[data-face=B]")
            if page.locator("[data-rot]").count():
                press_on(page, "[data-rot='90']")
            _kamara_act(page, "[data-k=place]")
        elif data["phase"] == "diwa":
            press_on(page, ".k-colour:not(.is-taken)")
            _kamara_act(page, ".k-target[data-kind=diwa]")
        else:
            break
    # every square of the chamber has a name a screen reader reads: "c4: light paltik, wall to the north"
    labels = page.locator(".k-board .k-floor[data-sq]").evaluate_all(
        "ns => ns.map(n => [n.dataset.sq, n.getAttribute('role'), n.getAttribute('aria-label')])"
    )
    assert len(labels) == 81
    assert all(role == "img" and label.startswith(f"{name}: ") for name, role, label in labels), labels[:3]
    said = " ".join(label for _, _, label in labels)
    for words in ("light paltik", "dark paltik", "tapos", "wall to the "):
        assert words in said, words
    # a turn: a step to a square the chamber offers, then the turn's end
    square = page.locator(".k-target[data-kind=move]").first.get_attribute("data-sq")
    _kamara_act(page, f".k-target[data-kind=move][data-sq='{square}']")
    diwa = _data(page)
    assert square in str(page.locator(".k-piece").evaluate_all("ns => ns.map(n => n.dataset.square)")), diwa
    if page.locator("[data-k=end]").count():
        _kamara_act(page, "[data-k=end]")


def test_the_live_region_speaks_korean_and_warns_of_the_clock(server: LocalServer, browser: Browser) -> None:
    """In Korean the moves and turns are said in Korean; with little time left the region says so."""
    context = new_context(browser, locale="ko-KR")
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.add_init_script(_LISTEN)
        table = {
            "game": "lama",
            "players": 2,
            "bots": {"1": "random"},
            "clock": {"bank": 19, "increment": 0},
            "seed": 5,
        }
        created = server.post("/api/tables", table)
        token = created["seats"][0]["token"]
        server.post(f"/api/tables/{created['id']}/seats/0/join", {"token": token, "name": "아나"})
        page.goto(server.url + created["seats"][0]["invite"])
        wait_turn_or_over(page)
        page.wait_for_function(
            "() => window.told.some((text) => /^시간이 얼마 남지 않았습니다: 0:[01]\\d 남음\\.$/.test(text))"
        )
        before = seq(page)
        take_turn(page)
        wait_turn_or_over(page, before)
        said = " | ".join(told(page))
        assert "아나" in said and "내 차례" in said, said
    finally:
        context.close()
