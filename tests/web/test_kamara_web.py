"""The Kamara table in a real browser: a whole game against bots by clicking (setup included), every green card
and decision through its clicks, the reasons given for clicks that name no legal action, Korean, and a phone.

Screenshots go to tests/web/screenshots/ (kamara_*.png).
"""

from __future__ import annotations

import json
import random
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from tests.web.conftest import Server, new_context, screenshot

from laro.games.kamara import GAME, KamaraState
from laro.games.kamara.chamber import square_index, square_name
from laro.games.kamara.components import DELTAS, DIRECTIONS, EFFECTS

TABLE = {"game": "kamara", "players": 3, "bots": {"1": "heuristic", "2": "random"}, "options": {"max_rounds": 6}}
KAMARA = "document.querySelector('.kamara')"


# -- a table in the browser ------------------------------------------------------------------------------------


class Watch:
    """What the server tells this page over its WebSocket: the latest state and every error; and the last frames
    each way, in short, for a test that fails to say."""

    def __init__(self, page: Page) -> None:
        self.state: dict[str, Any] = {}
        self.errors: list[str] = []
        self.frames: deque[str] = deque(maxlen=12)
        page.on("websocket", self._socket)
        _WATCHES[page] = self

    def _socket(self, socket: WebSocket) -> None:
        socket.on("framereceived", self._frame)
        socket.on("framesent", lambda payload: self.frames.append(f"sent {str(payload)[:80]}"))

    def _frame(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        kind = message.get("type")
        self.frames.append(f"got {kind} {message.get('seq', '')} {message.get('code', '')}".rstrip())
        if kind == "state":
            self.state = message
        elif kind == "error":
            self.errors.append(f"{message.get('code')}: {message.get('message')}")


_WATCHES: weakref.WeakKeyDictionary[Page, Watch] = weakref.WeakKeyDictionary()  # each page's


def _open_table(server: Server, page: Page) -> tuple[str, Watch]:
    """Create a Kamara table with two bots, open seat 0's invite and join it with a name."""
    created = server.post("/api/tables", TABLE)
    watch = Watch(page)
    page.goto(server.url + created["seats"][0]["invite"])
    page.get_by_test_id("join-name").fill("Ana")
    page.get_by_test_id("join").click()
    page.wait_for_function(f"() => {KAMARA} && {KAMARA}.dataset.phase")
    return str(created["id"]), watch


def _data(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.evaluate(f"() => ({{...{KAMARA}.dataset}})")
    return data


def _wait_for_move(page: Page) -> dict[str, str]:
    """Wait until it is this seat's move (or the game is over)."""
    page.wait_for_function(
        f"() => {{ const k = {KAMARA}; return k.dataset.busy !== 'true' && "
        "(k.dataset.yourTurn === 'true' || k.dataset.phase === 'over'); }",
        timeout=30_000,
    )
    return _data(page)


def _act(page: Page, selector: str) -> None:
    """Click something that sends an action, and wait for the state it makes."""
    before = _data(page)["seq"]
    page.locator(selector).first.click()
    try:
        page.wait_for_function(f"(seq) => {KAMARA}.dataset.seq !== seq", arg=before, timeout=15_000)
    except PlaywrightTimeoutError:
        said = page.evaluate(
            f"() => ({{kamara: {{...{KAMARA}.dataset}}, body: {{...document.body.dataset}}, "
            "hint: document.querySelector('.k-hint')?.textContent, "
            "alerts: [...document.querySelectorAll('[role=alert]')].map((n) => n.textContent)})"
        )
        watch = _WATCHES.get(page)
        frames = list(watch.frames) if watch else "not watched"
        raise AssertionError(
            f"a click on {selector} at seq {before} made no new state in 15 s: {said}; the last frames: {frames}"
        ) from None


def _count(page: Page, selector: str) -> int:
    return page.locator(selector).count()


def _pick(page: Page, selector: str, rng: random.Random) -> str:
    """A random one of the elements matching ``selector``, as a selector of its own (by data-sq / data-slot…)."""
    nodes = page.locator(selector)
    node = nodes.nth(rng.randrange(nodes.count()))
    for attribute in ("data-sq", "data-slot", "data-tile", "data-colour", "data-keep"):
        value = node.get_attribute(attribute)
        if value is not None:
            return f":is({selector})[{attribute}='{value}']"
    raise AssertionError(f"{selector} has nothing to tell it apart")


def _legal_moves(state: dict[str, Any]) -> set[str]:
    """The squares the legal ``move`` actions of a state message lead to."""
    observation = state["observation"]
    me = square_index(observation["diwa"][observation["colours"][state["seat"]]])
    squares = set()
    for text in state["legal_actions"]:
        if text.startswith("move "):
            dr, dc = DELTAS[DIRECTIONS.index(text.split()[1])]
            squares.add(square_name(me + 9 * dr + dc))
    return squares


class Clicker:
    """Plays seat 0 by clicking: the setup, then moves, flips, matches, green cards, decisions and `end`."""

    def __init__(self, page: Page, watch: Watch, seed: int, on_look: Callable[[str], None] | None = None) -> None:
        self.page, self.watch, self.rng = page, watch, random.Random(seed)
        self.look = on_look or (lambda name: None)
        self.actions = 0
        self.checked = 0

    def step(self) -> bool:
        data = _wait_for_move(self.page)
        if data["phase"] == "over":
            return False
        if data["phase"] == "tiles":
            self.place_tile()
        elif data["phase"] == "diwa":
            self.choose_diwa()
        else:
            self.play()
        return True

    def place_tile(self) -> None:
        page, rng = self.page, self.rng
        page.locator(_pick(page, ".k-pooltile:not(.is-unfit)", rng)).click()
        page.locator(_pick(page, ".k-slot-target", rng)).click()  # only empty slots of the tile's kind
        page.locator(f"[data-face={rng.choice('AB')}]").click()
        if _count(page, "[data-rot]"):
            page.locator(f"[data-rot='{rng.choice([0, 90, 180, 270])}']").click()
        self.look("setup")
        _act(page, "[data-k=place]")

    def choose_diwa(self) -> None:
        page = self.page
        page.locator(_pick(page, ".k-colour:not(.is-taken)", self.rng)).click()
        target = _pick(page, ".k-target[data-kind=diwa]", self.rng)
        self.look("diwa")
        _act(page, target)

    def play(self) -> None:
        page, rng = self.page, self.rng
        if _count(page, ".k-decision"):
            self.look("decision")
            if _count(page, "[data-k=order]"):
                _act(page, "[data-k=order]")
            else:
                _act(page, _pick(page, "[data-keep]", rng))
            return
        self.check_highlights()
        if _count(page, "[data-k=match].is-ready"):
            _act(page, "[data-k=match]")
        elif _count(page, ".k-green [data-k=play].is-ready") and rng.random() < 0.8:
            self.play_green()
        elif _count(page, ".k-green [data-k^=ikot].is-ready"):
            _act(page, ".k-green [data-k^=ikot].is-ready")
        elif _count(page, "[data-k=flip].is-ready") and rng.random() < 0.7:
            _act(page, "[data-k=flip]")
        elif _count(page, ".k-target[data-kind=move], .k-target[data-kind=port]") and rng.random() < 0.85:
            _act(page, _pick(page, ".k-target[data-kind=move], .k-target[data-kind=port]", rng))
        elif _count(page, ".k-target[data-kind=poke-source]") and rng.random() < 0.5:
            page.locator(_pick(page, ".k-target[data-kind=poke-source]", rng)).click()
            _act(page, _pick(page, ".k-target[data-kind=poke]", rng))
        else:
            _act(page, "[data-k=end]")

    def play_green(self) -> None:
        page, rng = self.page, self.rng
        before = _data(page)["seq"]
        page.locator(".k-green [data-k=play]").click()
        for _ in range(3):
            if _data(page)["seq"] != before or _data(page)["busy"] == "true" or not _data(page)["mode"]:
                break
            self.look("green_card")
            if _count(page, "[data-k=tulak-one]") and rng.random() < 0.4:
                page.locator("[data-k=tulak-one]").click()
                break
            page.locator(_pick(page, ".k-target, .k-slot-target", rng)).click()
        page.wait_for_function(f"(seq) => {KAMARA}.dataset.seq !== seq", arg=before, timeout=15_000)

    def check_highlights(self) -> None:
        """The highlighted move targets are exactly the squares the legal moves lead to."""
        state = self.watch.state
        if not state.get("your_turn") or str(state.get("seq")) != _data(self.page)["seq"]:
            return
        shown = set(self.page.locator(".k-target[data-kind=move]").evaluate_all("ns => ns.map(n => n.dataset.sq)"))
        ports = {text.split()[1] for text in state["legal_actions"] if text.startswith("port ")}
        assert shown == _legal_moves(state) - ports or shown == _legal_moves(state), (shown, state["legal_actions"])
        self.checked += 1


@pytest.mark.slow  # a whole game or record played out in the browser
def test_whole_game_by_clicking(server: Server, page: Page) -> None:
    """Seat 0 plays a whole game against two bots by clicking: tiles, a diwa, then moves and actions to the end."""
    table_id, watch = _open_table(server, page)
    expect(page.locator(".k-board")).to_be_visible()
    expect(page.locator(".k-legend")).to_contain_text("paltik")
    taken: set[str] = set()

    def look(name: str) -> None:
        if name not in taken:
            taken.add(name)
            screenshot(page, f"kamara_{name}")

    clicker = Clicker(page, watch, seed=7, on_look=look)
    midgame = {"done": False}

    def step_with_looks() -> bool:
        data = _wait_for_move(page)
        if data["phase"] == "play" and not midgame["done"] and data["seq"] and clicker.actions >= 10:
            midgame["done"] = True
            screenshot(page, "kamara_midgame")
            _why_not(page)
        return clicker.step()

    while step_with_looks():
        clicker.actions += 1
        assert clicker.actions < 400, "the game did not end"
    expect(page.get_by_test_id("end")).to_be_visible(timeout=10_000)
    expect(page.locator(".kamara")).to_have_attribute("data-phase", "over")
    expect(page.locator(".k-hint")).to_contain_text("win")
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["status"] == "over" and summary["result"]["winners"]
    assert clicker.checked > 0 and {"setup", "diwa"} <= taken
    assert watch.errors == [], watch.errors
    screenshot(page, "kamara_final")


def _why_not(page: Page) -> None:
    """A click that names no legal action sends nothing and says why, in words."""
    seq = _data(page)["seq"]
    targets = set(page.locator(".k-target").evaluate_all("ns => ns.map(n => n.dataset.sq)"))
    mine = page.locator(".k-piece.is-mine").get_attribute("data-square")
    far = next(
        square_name(sq)
        for sq in range(81)
        if square_name(sq) not in targets and square_name(sq) != mine and mine is not None
        if max(abs(sq // 9 - square_index(mine) // 9), abs(sq % 9 - square_index(mine) % 9)) > 1
    )
    box = page.locator(".k-board").bounding_box()
    assert box is not None
    row, col = square_index(far) // 9, square_index(far) % 9
    unit = box["width"] / (9 * 40 + 2 * 22)
    page.mouse.click(box["x"] + unit * (22 + 40 * col + 20), box["y"] + unit * (22 + 40 * row + 20))
    expect(page.locator(".k-hint.is-notice")).to_be_visible()
    assert _data(page)["seq"] == seq


# -- every green card and decision, from states built with the engine ----------------------------------------


HARNESS = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/base.css"><link rel="stylesheet" href="/static/css/kamara.css">
<style>body { margin: 0; padding: 16px; } #root { max-width: 940px; }</style></head>
<body><div id="root"></div></body></html>"""

MOUNT = """async (lang) => {
  const en = (await import('/static/js/i18n/kamara.en.js')).default;
  const own = (await import(`/static/js/i18n/kamara.${lang}.js`)).default;
  const words = {...en, ...own};
  const t = (key, params = {}) =>
    (key in words ? words[key] : key).replace(/\\{(\\w+)\\}/g, (w, n) => (n in params ? String(params[n]) : w));
  const components = (await (await fetch('/api/games/kamara/components')).json()).components;
  const module = await import('/static/js/games/kamara.js');
  window.sent = [];
  window.view = module.createTable(document.getElementById('root'), {
    send: (action) => { window.sent.push(action); return true; }, t, lang, seat: 0, table: null, components,
    playerName: (seat) => ['Ana', 'Smart bot 2', 'Random bot 3'][seat] });
}"""


def _my_turn(seed: int) -> KamaraState:
    """A seeded game played at random up to seat 0's turn in play, with no decision pending."""
    rng = random.Random(seed)
    state = GAME.new_game(3, seed=seed, options={"elder": 0})
    while state.phase != "play" or state.current_player != 0 or state.pending is not None:
        legal = [action for action in state.legal_actions() if str(action) != "end" or rng.random() < 0.3]
        state = state.apply(rng.choice(legal or state.legal_actions()))
    return state


def _holding(state: KamaraState, effect: str) -> KamaraState:
    """The same state with seat 0 holding a green card of ``effect`` (taken from the green deck)."""
    data = state.to_json()
    data["green_deck"].remove(effect)
    if data["green"][0]:
        data["green_deck"].append(data["green"][0])
    data["green"][0] = effect
    return GAME.from_json(data)


def _message(state: KamaraState, seat: int | None = 0) -> dict[str, Any]:
    names = ["Ana", "Smart bot 2", "Random bot 3"]
    seats = [{"seat": s, "kind": "human", "bot": None, "name": names[s], "joined": True} for s in range(3)]
    mine = seat is not None and state.current_player == seat
    observation = state.observation(seat) if seat is not None else state.public_observation()
    return {
        "type": "state",
        "seq": 1,
        "seat": seat,
        "table": {"game": "kamara", "status": "running", "seats": seats, "current_player": state.current_player},
        "observation": observation,
        "legal_actions": [str(action) for action in state.legal_actions()] if mine else [],
        "your_turn": mine,
        "log": [],
    }


def _show(page: Page, state: KamaraState, seat: int | None = 0) -> set[str]:
    message = _message(state, seat)
    page.evaluate("(m) => { window.sent = []; window.view.update(m); }", message)
    return set(message["legal_actions"])


def _sent(page: Page) -> list[str]:
    sent: list[str] = page.evaluate("window.sent")
    return sent


def _mount(server: Server, page: Page, lang: str = "en") -> None:
    page.goto(server.url + "/api/games")  # any page of the server: the harness below runs on its origin
    page.set_content(HARNESS)
    page.evaluate(MOUNT, lang)


def _use_green(page: Page, effect: str) -> None:
    """Play the green card by clicking its button and then the first highlighted target(s)."""
    if effect == "ikot":
        page.locator(".k-green [data-k^=ikot].is-ready").first.click()
        return
    page.locator(".k-green [data-k=play]").click()
    for _ in range(3):
        if _sent(page):
            return
        targets = page.locator(".k-target, .k-slot-target")
        assert targets.count() > 0, f"{effect}: nothing to click"
        targets.first.click()
        if effect == "palitan" and not _sent(page):
            screenshot(page, "kamara_green_card_choice")  # the first tile chosen, its partners highlighted
    if not _sent(page):
        page.locator("[data-k=tulak-one]").click()


def test_green_cards_and_decisions(server: Server, page: Page) -> None:
    """Each green effect is played through its clicks and sends exactly one legal action; silip's order and
    panaginip's keep are decided by clicking; a spectator and a waiting player get no controls."""
    _mount(server, page)
    base = _my_turn(1)
    for effect in EFFECTS:
        state = _holding(base, effect)
        legal = _show(page, state)
        expect(page.locator(".k-green-name")).to_be_visible()
        _use_green(page, effect)
        sent = _sent(page)
        assert len(sent) == 1 and sent[0] in legal and sent[0].startswith(f"play {effect}"), (effect, sent)
        after = state.apply(sent[0])
        if effect == "silip":
            legal = _show(page, after)
            expect(page.locator(".k-decision .k-cardpick")).to_have_count(after.pending[1] if after.pending else 0)
            page.locator("[data-k=later]:not([disabled])").first.click()
            screenshot(page, "kamara_order")
            page.locator("[data-k=order]").click()
            assert _sent(page)[0] in legal and _sent(page)[0].startswith("order ")
        elif effect == "panaginip":
            legal = _show(page, after)
            expect(page.locator(".k-decision [data-keep]")).to_have_count(3)
            screenshot(page, "kamara_keep")
            page.locator(".k-decision [data-keep]").last.click()
            assert _sent(page) == [f"keep {state.observation(0)['yellow'][0]}"] and _sent(page)[0] in legal
        elif effect == "kandado":
            _show(page, after)
            expect(page.locator(".k-lock-badge")).to_have_count(1)
            expect(page.locator(".k-player.is-you .k-badge-lock")).to_be_visible()

    # a click on a button that is not possible now says why and sends nothing
    _show(page, base)
    page.locator("[data-k=match]").click(force=True)  # aria-disabled: it still answers with a reason
    expect(page.locator(".k-hint.is-notice")).to_be_visible()
    assert _sent(page) == []
    # someone else's turn: no highlighted squares, and a click says whose turn it is
    other = base.apply("end")
    _show(page, other)
    expect(page.locator(".k-target")).to_have_count(0)
    page.locator(".k-board").click(position={"x": 60, "y": 60})
    expect(page.locator(".k-hint.is-notice")).to_contain_text("Smart bot 2")
    assert _sent(page) == []
    # a spectator sees the chamber and the players, and no cards or buttons
    _show(page, base, seat=None)
    expect(page.locator(".k-mycards")).to_be_hidden()
    expect(page.locator(".k-actions")).to_have_count(0)
    expect(page.locator(".k-piece")).to_have_count(3)


def test_chamber_geometry_matches_the_engine(server: Server, page: Page) -> None:
    """The browser's chamber geometry (js/games/kamara/geometry.js: walls, blocks, paltik, tapos, Move steps and
    how a card reads from the logo) agrees with the engine's on random complete chambers."""
    cases = []
    for seed in range(24):
        rng = random.Random(seed)
        state = GAME.new_game(2, seed=seed)
        while state.phase == "tiles":
            state = state.apply(rng.choice(state.legal_actions()))
        geometry = state.geometry
        cases.append(
            {
                "tiles": state.observation(0)["tiles"],
                "step": list(geometry.step),
                "blocked": [sq for sq in range(81) if (geometry.blocked >> sq) & 1],
                "tapos": list(geometry.tapos),
                "paltik": [sq for sq in range(81) if geometry.paltik_slot[sq] >= 0],
                "relative": geometry.relative_light,
            }
        )
    page.goto(server.url + "/api/games")
    mismatches: list[str] = page.evaluate(
        """async (cases) => {
      const g = await import('/static/js/games/kamara/geometry.js');
      const data = (await (await fetch('/api/games/kamara/components')).json()).components.tiles;
      const tiles = g.readTiles(data);
      const wrong = [];
      const all = Object.fromEntries(g.DIRECTIONS.map((d) => [d, 'light']));
      cases.forEach((c, n) => {
        const layout = g.chamberLayout(c.tiles, tiles);
        const same = (a, b) => JSON.stringify([...a].sort((x, y) => x - y)) === JSON.stringify(b);
        if (!same(layout.blocked, c.blocked)) wrong.push(`${n}: blocks`);
        if (!same(layout.tapos, c.tapos)) wrong.push(`${n}: tapos`);
        if (!same(layout.paltik.keys(), c.paltik)) wrong.push(`${n}: paltik`);
        for (let sq = 0; sq < 81; sq += 1) {
          if (layout.blocked.has(sq)) continue;
          for (let d = 0; d < 8; d += 1) {
            const free = g.stepProblem(layout, sq, d, null) === null;
            if (free !== c.step[sq * 8 + d] >= 0) wrong.push(`${n}: ${sq} ${d}`);
          }
        }
        let light = 0;
        for (const entry of g.readCode(all, layout)) if (entry.shows) light |= 1 << entry.position;
        if (light !== c.relative) wrong.push(`${n}: card reading`);
      });
      return wrong;
    }""",
        cases,
    )
    assert mismatches == []


# -- Korean, on a phone ------------------------------------------------------------------------------------------


def test_korean_phone(server: Server, browser: Browser) -> None:
    """The Kamara table in Korean on a phone: the setup by clicking, the board fits the width, the words are
    Korean, and the log tells the moves in Korean."""
    context = new_context(browser, locale="ko-KR", mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        _, watch = _open_table(server, page)
        expect(page.locator(".k-legend summary")).to_have_text("챔버 보는 법")
        clicker = Clicker(page, watch, seed=3)
        while _wait_for_move(page)["phase"] in ("tiles", "diwa"):
            clicker.step()
        data = _wait_for_move(page)
        assert data["phase"] == "play"
        board = page.locator(".k-board").bounding_box()
        assert board is not None and 330 <= board["width"] <= 390
        expect(page.locator(".k-status")).to_contain_text("라운드")
        expect(page.locator(".k-actions")).to_contain_text("차례 끝내기")
        expect(page.locator(".k-yellow")).to_contain_text("옐로 카드")
        screenshot(page, "kamara_phone_ko")
        if _count(page, ".k-target[data-kind=move]"):
            _act(page, ".k-target[data-kind=move]")
            expect(page.get_by_test_id("log")).to_contain_text("이동합니다")
        assert watch.errors == [], watch.errors
    finally:
        context.close()
