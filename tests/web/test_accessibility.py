"""Every page passes axe-core (WCAG 2.1 A and AA, and axe's best practices) with nothing to report: the lobby, a
L.A.M.A. and a Kamara table as a player sees them, both games' replays, a finished game's analysis and both rules
pages, in English and in Korean, on a laptop and on a phone; and what opens on them: the lobby's options, an error, a
new table's invites, a confirmation, L.A.M.A.'s round panel and game over, Kamara's decisions and its answer to a
click that does nothing. One server holds every table; each language and screen is one browser."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import LocalServer, new_context, screenshot

RULES = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
    "resultTypes": ["violations"],
}
LAPTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def _finished(server: LocalServer, table: dict[str, Any]) -> str:
    created = server.post("/api/tables", table)
    deadline = time.monotonic() + 90
    while server.get(f"/api/tables/{created['id']}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game in time"
        time.sleep(0.2)
    return str(created["id"])


def _seated(server: LocalServer, table: dict[str, Any]) -> str:
    """A running table whose seat 0 Ana has taken; its invite (each browser opens it to hold her seat)."""
    created = server.post("/api/tables", table)
    token = created["seats"][0]["token"]
    server.post(f"/api/tables/{created['id']}/seats/0/join", {"token": token, "name": "Ana"})
    return str(created["seats"][0]["invite"])


@pytest.fixture(scope="module")
def pages(shared_server: LocalServer) -> tuple[LocalServer, dict[str, str]]:
    """The module's server and the address of every page to check (the tables made once for all screens)."""
    server = shared_server
    bots3 = {"0": "heuristic", "1": "heuristic", "2": "random"}
    lama = _finished(server, {"game": "lama", "players": 3, "bots": bots3, "options": {"end_score": 12}, "seed": 3})
    kamara = _finished(server, {"game": "kamara", "players": 3, "bots": bots3, "options": {"max_rounds": 2}})
    server.post(f"/api/tables/{lama}/analysis", {"seat": 0})
    addresses = {
        "lobby": "/",
        "lama-table": _seated(server, {"game": "lama", "players": 3, "bots": {"1": "heuristic", "2": "random"}}),
        "kamara-table": _seated(server, {"game": "kamara", "players": 2, "bots": {"1": "heuristic"}}),
        "lama-replay": f"/table/{lama}/replay#step=5",
        "kamara-replay": f"/table/{kamara}/replay#step=5",
        "analysis": f"/table/{lama}",
        "lama-rules": "/rules/lama",
        "kamara-rules": "/rules/kamara",
        "leaderboard": "/leaderboard/lama",
        "bot-profile": "/players/heuristic",
    }
    return server, addresses


READY = {
    "lama-table": "document.body.dataset.status === 'running' && document.querySelector('.lama')",
    "kamara-table": "document.body.dataset.status === 'running' && document.querySelector('.kamara')",
    "lama-replay": "document.body.dataset.ready === 'true'",
    "kamara-replay": "document.body.dataset.ready === 'true'",
    "analysis": "document.querySelector('[data-testid=analysis-summary]')",
    "lobby": "document.querySelector('[data-testid=tables]')",
    "lama-rules": "document.querySelector('[data-testid=rules] h1')",
    "kamara-rules": "document.querySelector('[data-testid=rules] h1')",
    "leaderboard": "document.querySelector('.ratings-page h1')",
    "bot-profile": "document.querySelector('.ratings-page h1')",
}


def _violations(page: Page, part: str | None = None) -> list[str]:
    """What axe finds on the page, or only in the part the selector ``part`` names."""
    results = Axe().run(page, context=part, options=RULES)
    found = []
    for violation in results.response["violations"]:
        for node in violation["nodes"][:4]:
            found.append(
                f"{violation['id']} ({violation['impact']}): {node['target']} — {node['failureSummary'][:300]}"
            )
    return found


# every page brought to its state and checked on two screens: a long suite; the plain run checks pages with axe-core
# in the tests of accounts, quick match, ratings and the offline page
@pytest.mark.slow
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_every_page_passes_axe(pages: tuple[LocalServer, dict[str, str]], browser: Browser, locale: str) -> None:
    """Each page is checked as loaded on a laptop, then narrowed to a phone's width (its layout for a phone)."""
    server, addresses = pages
    context = new_context(browser, locale=locale)
    problems: dict[str, list[str]] = {}
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        for name, address in addresses.items():
            page.set_viewport_size(LAPTOP)
            page.goto(server.url + address)
            page.wait_for_function(f"() => Boolean({READY[name]})")
            for screen, size in (("laptop", LAPTOP), ("phone", PHONE)):
                page.set_viewport_size(size)
                page.wait_for_timeout(300)  # the layout has settled and a card's arrival has landed
                found = _violations(page)
                if found:
                    problems[f"{name} ({screen})"] = found
                    screenshot(page, f"a11y_{name}_{locale[:2]}_{screen}")
    finally:
        context.close()
    assert not problems, "\n".join(f"{name}:\n  " + "\n  ".join(found) for name, found in problems.items())


# colour-blindness as the eye sees it (Machado, Oliveira and Fernandes 2009, full severity), and no colour at all
_FILTERS = {  # the red, green and blue rows of a colour matrix (alpha is kept)
    "protanopia": "0.152286 1.052583 -0.204868 0.114503 0.786281 0.099216 -0.003882 -0.048116 1.051998",
    "deuteranopia": "0.367322 0.860646 -0.227968 0.280085 0.672501 0.047413 -0.011820 0.042940 0.968881",
    "tritanopia": "1.255528 -0.076749 -0.178779 -0.078411 0.930809 0.147602 0.004733 0.691367 0.303900",
    "greyscale": "0.2126 0.7152 0.0722 0.2126 0.7152 0.0722 0.2126 0.7152 0.0722",
}
_SEE_AS = """
([name, rows]) => {
  const m = rows.split(" ");
  const matrix = `${m.slice(0, 3).join(" ")} 0 0 ${m.slice(3, 6).join(" ")} 0 0 ${m.slice(6).join(" ")} 0 0 0 0 0 1 0`;
  document.getElementById("seen-as")?.remove();
  const holder = document.createElement("div");
  holder.id = "seen-as";
  holder.innerHTML = `<svg width="0" height="0" style="position:absolute"><filter id="seen-${name}"
    color-interpolation-filters="linearRGB"><feColorMatrix type="matrix" values="${matrix}"/></filter></svg>`;
  document.body.append(holder);
  document.documentElement.style.filter = `url(#seen-${name})`;
}
"""
# what must stay told apart, by page: each selector's elements pairwise
_APART = {
    "kamara-replay": [".k-legend-list .k-legend-pic", ".k-legend-colours li > span", ".k-piece"],
    "lama-replay": ["[data-testid=open-hand] .card"],
}


# each selector's elements: where they are on the whole page (CSS pixels) and, for cards, their value
_PLACES = """
selectors => selectors.map((selector) => [...document.querySelectorAll(selector)].map((node) => {
  const box = node.getBoundingClientRect();
  return { x: box.left + scrollX, y: box.top + scrollY, w: box.width, h: box.height, card: node.dataset.card || null };
}))
"""
SCALE = 2  # device pixels a CSS pixel: small signs are seen in detail


def _apart(one: Any, other: Any) -> float:
    """The share of pixels whose grey differs by more than a fifth of the scale."""
    from PIL import ImageChops

    diff = ImageChops.difference(one, other.resize(one.size)).point(lambda value: 255 if value > 51 else 0)
    return diff.histogram()[255] / (one.size[0] * one.size[1])


def test_colour_is_never_the_only_sign(pages: tuple[LocalServer, dict[str, str]], browser: Browser) -> None:
    """Seen without colour, and as each of the three colour-blindnesses sees it, Kamara's chamber signs (light and
    dark paltik, tapos, block, walls, the highlighted square…), its eight diwa colours and L.A.M.A.'s cards stay
    apart: every two of them differ in at least 1 % of their pixels by more than a fifth of the grey scale (a "B"
    and a "P" on two chips of one grey differ in 2 %)."""
    from io import BytesIO

    from PIL import Image

    server, addresses = pages
    context = browser.new_context(viewport={"width": 1280, "height": 860}, device_scale_factor=SCALE)
    try:
        page = context.new_page()
        for name, groups in _APART.items():
            page.goto(server.url + addresses[name].replace("#step=5", "#step=30"))
            page.wait_for_function(f"() => Boolean({READY[name]})")
            page.wait_for_timeout(500)
            places = page.evaluate(_PLACES, groups)
            boxes = [box for found in places for box in found]
            left, top = min(b["x"] for b in boxes), min(b["y"] for b in boxes)  # the part of the page to look at
            right, bottom = max(b["x"] + b["w"] for b in boxes), max(b["y"] + b["h"] for b in boxes)
            for seen, matrix in _FILTERS.items():
                page.evaluate(_SEE_AS, [seen, matrix])
                shot = page.screenshot(
                    full_page=True, clip={"x": left, "y": top, "width": right - left, "height": bottom - top}
                )
                whole = Image.open(BytesIO(shot)).convert("L")
                for selector, found in zip(groups, places, strict=True):
                    assert len(found) >= 2, f"{name}: {selector} shows fewer than two things"
                    crops = [
                        whole.crop(
                            tuple(
                                round(SCALE * v)
                                for v in (b["x"] - left, b["y"] - top, b["x"] - left + b["w"], b["y"] - top + b["h"])
                            )
                        )
                        for b in found
                    ]
                    for first in range(len(found)):
                        for second in range(first + 1, len(found)):
                            if found[first]["card"] and found[first]["card"] == found[second]["card"]:
                                continue  # two cards of one value look alike
                            share = _apart(crops[first], crops[second])
                            assert share >= 0.01, f"{name} as {seen}: {selector} #{first}, #{second}: {share:.3f}"
            screenshot(page, f"colour_{name}_tritanopia")
    finally:
        context.close()


# -- what opens on a page: dialogs, panels, messages --------------------------------------------------------


@pytest.fixture(scope="module")
def paused_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """A server that pauses 30 s at a L.A.M.A. round's end, so that the round's panel stays open."""
    running = LocalServer(tmp_path_factory.mktemp("paused"), bot_delay=0.02, extra=("--round-pause", "30"))
    running.start()
    try:
        yield running
    finally:
        running.stop()


class Scans:
    """Each state of a page checked at a laptop's width and then a phone's; what axe found, by state."""

    def __init__(self, page: Page, locale: str) -> None:
        self.page, self.locale = page, locale
        self.problems: dict[str, list[str]] = {}

    def scan(self, name: str, part: str | None = None) -> None:
        for screen, size in (("laptop", LAPTOP), ("phone", PHONE)):
            self.page.set_viewport_size(size)
            self.page.wait_for_timeout(300)
            found = _violations(self.page, part)
            if found:
                self.problems[f"{name} ({screen})"] = found
                screenshot(self.page, f"a11y_{name}_{self.locale[:2]}_{screen}")
        self.page.set_viewport_size(LAPTOP)


def _lobby_and_invites(scans: Scans, server: LocalServer) -> None:
    """The lobby's options open; an invite that is no invite refused; the table made, its invites to send."""
    page = scans.page
    page.goto(server.url + "/")
    page.get_by_test_id("name").fill("Ana")
    page.locator(".game-choice[data-game=lama]").click()
    page.get_by_test_id("players").select_option("3")
    page.get_by_test_id("seat-kind-1").select_option("human")
    page.locator("details.options summary").click()
    scans.scan("lobby-options")
    page.get_by_test_id("invite-input").fill("https://example.com/no-table-here")
    page.get_by_test_id("invite-input").press("Enter")
    expect(page.locator(".toast[data-code=bad_invite]")).to_be_visible()
    scans.scan("lobby-error")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/table/*")
    expect(page.get_by_test_id("invites").locator("li")).to_have_count(1)
    scans.scan("table-invites")


def _round_panel(scans: Scans, server: LocalServer) -> None:
    """Quitting a L.A.M.A. round: the confirmation, then the round's panel while the next round waits."""
    page = scans.page
    page.goto(server.url + _seated(server, {"game": "lama", "players": 2, "seed": 3, "bots": {"1": "heuristic"}}))
    page.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
    page.get_by_test_id("quit").click()
    expect(page.get_by_test_id("confirm-dialog")).to_be_visible()
    scans.scan("lama-confirm")
    page.get_by_test_id("confirm-dialog").locator("[data-confirm=yes]").click()
    expect(page.get_by_test_id("round-panel")).to_be_visible(timeout=20_000)
    scans.scan("lama-round-panel")


def _game_over(scans: Scans, server: LocalServer) -> None:
    """A L.A.M.A. game over for a player who handed her seat to a bot: the ranking, Rematch, Analyse."""
    page = scans.page
    table = {"game": "lama", "players": 2, "seed": 5, "bots": {"1": "heuristic"}, "options": {"end_score": 8}}
    created = server.post("/api/tables", table)
    token = created["seats"][0]["token"]
    server.post(f"/api/tables/{created['id']}/seats/0/join", {"token": token, "name": "Ana"})
    page.goto(server.url + created["seats"][0]["invite"])
    page.wait_for_function("() => document.body.dataset.status === 'running'")
    server.post(f"/api/tables/{created['id']}/seats/0/bot", {"token": token, "bot": "heuristic"})
    page.wait_for_function("() => document.body.dataset.status === 'over'", timeout=60_000)
    expect(page.get_by_test_id("ranking")).to_be_visible()
    scans.scan("lama-game-over")


def _kamara_decisions(scans: Scans, server: LocalServer) -> None:
    """Kamara's decisions as the engine poses them (the order of the top yellow cards, the card to keep) and a
    click that names no action answered in words, drawn by the table's renderer on a page of its own."""
    from tests.web.test_kamara_web import MOUNT, _holding, _my_turn, _show

    page = scans.page
    page.goto(server.url + "/api/games")  # the harness runs on the server's origin
    page.set_content(HARNESS.replace("<html>", f'<html lang="{scans.locale[:2]}">'))
    page.evaluate(MOUNT, scans.locale[:2])
    base = _my_turn(1)
    for effect in ("silip", "panaginip"):
        _show(page, _holding(base, effect).apply(f"play {effect}"))
        expect(page.locator(".k-decision")).to_be_visible()
        scans.scan(f"kamara-{effect}", "#root")
    _show(page, base)
    page.locator(".k-board .k-floor[data-sq=e5]").click(force=True)  # not a square it may go to
    expect(page.locator(".k-hint")).not_to_be_empty()
    scans.scan("kamara-why-not", "#root")


HARNESS = """<!doctype html><html><head><meta charset="utf-8"><title>Kamara</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/base.css"><link rel="stylesheet" href="/static/css/kamara.css">
</head><body><main id="root"></main></body></html>"""


@pytest.mark.slow  # every dialog and panel opened and checked, in two languages
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_what_opens_passes_axe(
    shared_server: LocalServer, paused_server: LocalServer, browser: Browser, locale: str
) -> None:
    """The lobby's options, an error, a new table's invites, a confirmation, L.A.M.A.'s round panel and game over,
    and Kamara's decisions, each checked open on a laptop and on a phone."""
    context = new_context(browser, locale=locale)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        scans = Scans(page, locale)
        _lobby_and_invites(scans, shared_server)
        _round_panel(scans, paused_server)
        _game_over(scans, shared_server)
        _kamara_decisions(scans, shared_server)
    finally:
        context.close()
    assert not scans.problems, "\n".join(f"{name}:\n  " + "\n  ".join(f) for name, f in scans.problems.items())
