"""A turn that lands: cards fly and Kamara's tiles turn over in 200 to 400 ms, a newer state ends them at once, and
nothing moves under prefers-reduced-motion; the table sounds (Web Audio) for a move, your turn, a round and the
game's end, and its mute switch is remembered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from tests.web.conftest import LocalServer
from tests.web.lama_play import seq, status, take_turn, wait_turn_or_over

from laro.core import GameRecord

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# every Web Animation the page starts, kept in window.motions as [class of the element, duration in ms]
_WATCH = """
window.motions = [];
window.walks = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const duration = typeof options === "number" ? options : (options || {}).duration;
  window.motions.push([String(this.getAttribute("class") || ""), duration]);
  if (this.classList.contains("k-piece")) window.walks.push({ colour: this.dataset.colour, duration, frames });
  return animate.call(this, frames, options);
};
"""


@pytest.fixture
def server(shared_server: LocalServer) -> LocalServer:
    return shared_server


def _seat(server: LocalServer, page: Page, end_score: int = 15) -> None:
    table = {"game": "lama", "players": 2, "bots": {"1": "random"}, "options": {"end_score": end_score}, "seed": 12}
    created = server.post("/api/tables", table)
    token = created["seats"][0]["token"]
    server.post(f"/api/tables/{created['id']}/seats/0/join", {"token": token, "name": "Ana"})
    page.add_init_script(_WATCH)
    page.goto(server.url + created["seats"][0]["invite"])


def _turns(page: Page, count: int) -> None:
    wait_turn_or_over(page)
    for _ in range(count):
        if status(page) == "over":
            return
        before = seq(page)
        take_turn(page)
        wait_turn_or_over(page, before)


def _sounds(page: Page) -> list[str]:
    heard: list[str] = page.evaluate("(window.laroSounds || []).map((sound) => sound.name)")
    return heard


def test_cards_fly_and_the_table_sounds_until_muted(server: LocalServer, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        _seat(server, page, end_score=40)
        for _ in range(100):  # to the first round's end
            _turns(page, 1)
            if "round" in _sounds(page):
                break
        flights = [duration for kind, duration in page.evaluate("window.motions") if "flying-card" in kind]
        assert flights and all(200 <= duration <= 400 for duration in flights), flights
        page.wait_for_timeout(450)
        expect(page.locator(".flying-card")).to_have_count(0)  # each landed, none left behind
        heard = _sounds(page)
        assert {"card", "turn", "round"} <= set(heard), heard
        mute = page.get_by_test_id("mute")
        expect(mute).to_have_attribute("aria-pressed", "false")
        mute.click()
        expect(mute).to_have_attribute("aria-pressed", "true")
        page.reload()
        expect(page.get_by_test_id("mute")).to_have_attribute("aria-pressed", "true")  # remembered
        _turns(page, 2)
        assert _sounds(page) == [], _sounds(page)
        page.get_by_test_id("mute").click()
        assert status(page) != "over"
        _turns(page, 200)  # to the game's end, sounding again
        assert _sounds(page)[-1] == "end", _sounds(page)
    finally:
        context.close()


def test_nothing_moves_under_reduced_motion(server: LocalServer, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 860}, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        _seat(server, page)
        _turns(page, 4)
        assert page.evaluate("window.motions") == []
    finally:
        context.close()


def _replaying(server: LocalServer, context: BrowserContext, path: Path) -> Page:
    """A page of the context replaying the record at ``path``, its motions watched."""
    page = context.new_page()
    page.add_init_script(_WATCH)
    page.goto(server.url + "/replay")
    page.get_by_test_id("replay-file").set_input_files(str(path))
    page.wait_for_selector("body[data-ready=true]:not([data-loading])")
    return page


@pytest.mark.parametrize("reduced", [False, True], ids=["moving", "reduced"])
def test_a_kamara_tile_turns_over(server: LocalServer, browser: Browser, tmp_path: Path, reduced: bool) -> None:
    """Stepping a replay onto a flip turns the tile over for 300 ms; a matched yellow card flies to its owner in
    350 ms."""
    record = GameRecord.from_json(json.loads((GOLDEN / "kamara-2p-default.json").read_text())["record"])
    flip = next(index for index, action in enumerate(record.actions, 1) if action.startswith("flip"))
    match = next(index for index, action in enumerate(record.actions, 1) if action == "match")
    context = browser.new_context(viewport={"width": 1280, "height": 860}, reduced_motion="reduce" if reduced else None)
    try:
        page = _replaying(server, context, record.save(tmp_path / "kamara.json"))
        page.get_by_test_id("replay-slider").fill(str(flip - 1))
        page.get_by_test_id("replay-forward").click()
        turns = [duration for kind, duration in page.evaluate("window.motions") if kind == "k-turning"]
        # a match: the yellow card flies from the diwa to its owner's matched cards
        page.get_by_test_id("replay-slider").fill(str(match - 1))
        page.get_by_test_id("replay-forward").click()
        matched = [duration for kind, duration in page.evaluate("window.motions") if "k-flying-card" in kind]
        if reduced:
            assert turns == [] and matched == [], (turns, matched)
        else:
            assert turns == [300] and matched == [350], (turns, matched)
    finally:
        context.close()


# the square of the chamber under each keyframe of a diwa's walk (its translate is the square's middle, in the
# chamber's own coordinates, where each square's rect lies)
_WALKED = """
(frames) => {
  const floors = [...document.querySelectorAll(".k-board .k-floor[data-sq]")].map((rect) => {
    const [x, y, w] = ["x", "y", "width"].map((name) => Number(rect.getAttribute(name)));
    return { name: rect.dataset.sq, x, y, w };
  });
  return frames.map((frame) => {
    const [x, y, lift] = frame.transform.match(/[-\\d.]+/g).map(Number); // translate(x, y) scale(lift)
    const under = floors.find((f) => f.x <= x && x < f.x + f.w && f.y <= y && y < f.y + f.w);
    return [under ? under.name : null, lift];
  });
}
"""

_INTERRUPTED = """
() => {
  const forward = document.querySelector("[data-testid=replay-forward]");
  forward.click();
  const [walk] = document.querySelector(".k-piece[data-colour=blue]").getAnimations();
  const before = walk.playState;
  forward.click();
  return [before, walk.playState];
}
"""

_STEPPED = """
() => {
  document.querySelector("[data-testid=replay-forward]").click();
  return [...document.querySelectorAll(".k-piece")].flatMap((n) => n.getAnimations()).length;
}
"""


def _slide_to(page: Page, step: int) -> None:
    """Move the replay's slider to ``step`` and wait until it is shown."""
    page.get_by_test_id("replay-slider").fill(str(step))
    page.wait_for_function(f"() => document.body.dataset.step === '{step}'")


def _step_onto(page: Page, step: int) -> list[dict[str, object]]:
    """Step the replay from ``step - 1`` onto ``step``; the walks it started."""
    _slide_to(page, step - 1)
    page.evaluate("window.walks = []")
    page.get_by_test_id("replay-forward").click()
    page.wait_for_function(f"() => document.body.dataset.step === '{step}'")
    walks: list[dict[str, object]] = page.evaluate("window.walks")
    return walks


def _square(page: Page, colour: str) -> str:
    square: str = page.locator(f".k-piece[data-colour={colour}]").get_attribute("data-square") or ""
    return square


@pytest.mark.parametrize("reduced", [False, True], ids=["moving", "reduced"])
def test_a_kamara_diwa_walks_its_path(server: LocalServer, browser: Browser, tmp_path: Path, reduced: bool) -> None:
    """A diwa pushed two squares (play tulak blue S W) steps through the square between; a single step takes
    200 ms, two 300 ms; a port rises over the chamber on its way; the next state lands a walk at once; nothing
    walks under reduced motion."""
    record = GameRecord.from_json(json.loads((GOLDEN / "kamara-2p-default.json").read_text())["record"])
    tulak = record.actions.index("play tulak blue S W") + 1
    port = record.actions.index("port e5") + 1
    context = browser.new_context(viewport={"width": 1280, "height": 860}, reduced_motion="reduce" if reduced else None)
    try:
        page = _replaying(server, context, record.save(tmp_path / "kamara.json"))
        _slide_to(page, tulak - 1)
        start = _square(page, "blue")
        walks = _step_onto(page, tulak)
        end = _square(page, "blue")
        if reduced:
            # nor anything else: asked in the very task of the step, before a frame could end even a short motion
            _slide_to(page, tulak - 1)
            moving = page.evaluate(_STEPPED)
            assert walks == [] and moving == 0, (walks, moving)
            return
        # S then W, from the square the diwa stood on: the rank below, then the file to the left
        between = f"{start[0]}{int(start[1]) - 1}"
        assert end == f"{chr(ord(start[0]) - 1)}{int(start[1]) - 1}", (start, end)
        assert [walk["colour"] for walk in walks] == ["blue"], walks
        assert walks[0]["duration"] == 300
        assert page.evaluate(_WALKED, walks[0]["frames"]) == [[start, 1], [between, 1], [end, 1]]
        # the next state lands the push at once (both clicks in one task: the walk is still under way)
        _slide_to(page, tulak - 1)
        states = page.evaluate(_INTERRUPTED)
        assert states == ["running", "finished"], states
        # a port: straight there, rising over what lies between
        walks = _step_onto(page, port)
        frames = page.evaluate(_WALKED, walks[0]["frames"])
        assert len(frames) == 3 and frames[1][1] > 1 and frames[-1] == ["e5", 1], frames
    finally:
        context.close()
