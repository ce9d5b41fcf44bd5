"""Kamara's setup on a phone (390 by 844 px, a touch screen): the chamber, the choices being made and the yellow card
are on the first screen together, nothing is wider than the screen, and the tiles and the diwa are placed by
tapping.

Screenshots go to tests/web/screenshots/ (kamara_phone_setup_*.png).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect, Page, ViewportSize, expect
from tests.web.conftest import Server, screenshot
from tests.web.test_kamara_web import KAMARA, Watch, _data

PHONE: ViewportSize = {"width": 390, "height": 844}
TABLE = {"game": "kamara", "players": 2, "bots": {"1": "heuristic"}, "options": {"elder": 0}, "seed": 4}


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _box(page: Page, selector: str) -> FloatRect:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


def _on_first_screen(page: Page, *selectors: str) -> None:
    """Each of ``selectors`` lies wholly within the screen as the page shows it (no scrolling by the test)."""
    for selector in selectors:
        box = _box(page, selector)
        assert box["y"] >= -1 and box["y"] + box["height"] <= PHONE["height"] + 1, (selector, box)
        assert box["x"] >= -1 and box["x"] + box["width"] <= PHONE["width"] + 1, (selector, box)


def _your_setup_turn(page: Page) -> dict[str, str]:
    page.wait_for_function(
        f"() => {{ const k = {KAMARA}; return k && k.dataset.yourTurn === 'true' && k.dataset.busy !== 'true'; }}"
    )
    return _data(page)


def test_the_setup_fits_a_phone_and_is_done_by_tapping(server: Server, phone: Page) -> None:
    page = phone
    created = server.post("/api/tables", TABLE)
    watch = Watch(page)
    page.goto(server.url + created["seats"][0]["invite"])
    page.get_by_test_id("join-name").fill("Ana")
    page.get_by_test_id("join").tap()
    assert _your_setup_turn(page)["phase"] == "tiles"
    page.wait_for_timeout(300)  # the turn's own scroll, at the next frame
    # the chamber, the tiles to place and the yellow card, on one screen, and nothing wider than it
    _on_first_screen(page, ".k-status", ".k-board", ".k-pool", ".k-yellow .k-code")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    board = _box(page, ".k-board")
    square = board["width"] / 9
    assert square >= 40, f"a square is {square:.1f} px"  # 44 px would need 396 px: the page keeps 10 px margins
    slot = _box(page, ".k-slot-target")
    assert min(slot["width"], slot["height"]) >= 44, slot  # setup's tap targets are the slots, three squares wide
    pool = page.locator(".k-pool")
    assert pool.evaluate("(n) => n.scrollWidth > n.clientWidth"), "the pool is one row that scrolls sideways"
    screenshot_first(page, "kamara_phone_setup_tiles")

    # a tile by tapping: the tile in the strip, its slot on the chamber, a face, and Place
    tile = page.locator(".k-pooltile:not(.is-unfit)").first
    tile_id = tile.get_attribute("data-tile")
    tile.tap()
    expect(tile).to_have_class("k-pooltile is-chosen")
    page.locator(".k-slot-target").first.tap()
    expect(page.locator(".k-chooser")).to_be_visible()
    page.wait_for_timeout(600)  # the smooth scroll to the choices
    page.locator("[data-face=B]").tap()
    rotations = page.locator("[data-rot]")
    if rotations.count():
        page.locator("[data-rot='90']").tap()
    _on_first_screen(page, ".k-board", ".k-chooser", "[data-k=place]")  # the chamber stays in view with them
    screenshot_first(page, "kamara_phone_setup_chooser")
    place = page.locator("[data-k=place]")
    action = str(place.inner_text())
    before = _data(page)["seq"]
    place.tap()
    page.wait_for_function(f"(seq) => {KAMARA}.dataset.seq !== seq", arg=before)
    state: dict[str, Any] = watch.state
    placed = [entry for entry in state["log"] if entry.get("type") == "act" and entry.get("seat") == 0]
    assert placed and placed[-1]["action"].startswith(f"place {tile_id} "), (action, placed)
    assert placed[-1]["action"].split()[3] == "B"

    # the rest of the chamber by tapping, then the diwa: its colours below the chamber, both on the screen
    while _your_setup_turn(page)["phase"] == "tiles":
        if not page.locator(".k-chooser").count():
            page.locator(".k-pooltile:not(.is-unfit)").first.tap()
            page.locator(".k-slot-target").first.tap()
        before = _data(page)["seq"]
        page.locator("[data-k=place]").tap()
        page.wait_for_function(f"(seq) => {KAMARA}.dataset.seq !== seq", arg=before)
    assert _data(page)["phase"] == "diwa"
    page.wait_for_timeout(300)
    _on_first_screen(page, ".k-board", ".k-colours")
    colour = page.locator(".k-colour:not(.is-taken)").first
    colour.tap()
    page.wait_for_timeout(600)  # the smooth scroll to the chamber
    target = page.locator(".k-target[data-kind=diwa]").first
    _on_first_screen(page, ".k-board", ".k-colours")
    named = target.get_attribute("data-sq")
    before = _data(page)["seq"]
    target.tap()
    page.wait_for_function(f"(seq) => {KAMARA}.dataset.seq !== seq", arg=before)
    mine = [entry["action"] for entry in watch.state["log"] if entry.get("type") == "act" and entry.get("seat") == 0]
    assert mine[-1].startswith("diwa ") and mine[-1].endswith(f" {named}"), mine
    screenshot_first(page, "kamara_phone_setup_diwa")
    assert watch.errors == [], watch.errors


def screenshot_first(page: Page, name: str) -> None:
    """The first screen only, as the phone shows it."""
    screenshot(page, name)
    screenshot(page, f"{name}_screen", full_page=False)
