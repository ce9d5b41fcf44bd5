"""What a newcomer sees at a table in the browser: one colour per player, the bot credited for the moves it
made for you, the cards only once the game starts, last moves on the players' boxes, words for touch screens.

Screenshots go to tests/web/screenshots/ (details_*.png).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import Server, screenshot

DIWA_FILLS = (
    "() => [...document.querySelectorAll('.k-playerlist li[data-seat]')].map((li) => "
    "getComputedStyle(li.querySelector('.k-diwa circle')).fill)"
)
SEAT_DOTS = "(selector) => [...document.querySelectorAll(selector)].map((dot) => getComputedStyle(dot).backgroundColor)"


def join(server: Server, page: Page, table: dict[str, Any], seat: int = 0, name: str = "Ana") -> dict[str, Any]:
    """Create ``table``, open the invite of ``seat`` and take it; returns the server's answer."""
    created = server.post("/api/tables", table)
    page.goto(server.url + created["seats"][seat]["invite"])
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join").click()
    page.wait_for_function("() => document.body.dataset.status === 'running'")
    return created


def let_a_bot_play(server: Server, created: dict[str, Any], seat: int = 0) -> None:
    token = created["seats"][seat]["token"]
    server.post(f"/api/tables/{created['id']}/seats/{seat}/bot", {"token": token, "bot": "heuristic"})


def wait_seq(page: Page, at_least: int) -> None:
    page.wait_for_function(
        "(n) => Number(document.body.dataset.seq) >= n || document.body.dataset.status === 'over'",
        arg=at_least,
        timeout=60_000,
    )


def test_kamara_gives_each_player_one_colour_everywhere(server: Server, page: Page) -> None:
    """Once the diwa are chosen, each player's dot in the players list, the log and the ranking has their diwa's
    colour, the colour of their piece on the board and in the matches panel."""
    table = {"game": "kamara", "players": 3, "bots": {"1": "heuristic", "2": "heuristic"}, "options": {"max_rounds": 2}}
    created = join(server, page, table)
    let_a_bot_play(server, created)
    page.wait_for_function("() => document.querySelector('.kamara').dataset.phase === 'play'", timeout=60_000)
    wait_seq(page, 20)
    diwa: list[str] = page.evaluate(DIWA_FILLS)  # per seat, from the matches panel
    assert len(diwa) == 3 and len(set(diwa)) == 3
    on_board = page.evaluate(  # the pieces only: a locked tile's badge shows its locker's colour too
        "() => [...document.querySelectorAll('.k-boardwrap .k-piece .k-diwa circle')]"
        ".map((c) => getComputedStyle(c).fill)"
    )
    assert sorted(on_board) == sorted(diwa)
    assert page.evaluate(SEAT_DOTS, "[data-testid=players] .player .seat-dot") == diwa
    logged = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=log] li.log-act')]"
        ".map((li) => getComputedStyle(li.querySelector('.seat-dot')).backgroundColor)"
    )
    assert logged and set(logged) <= set(diwa)
    wait_seq(page, 10**6)
    expect(page.get_by_test_id("ranking")).to_be_visible()
    ranking = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=ranking] li')].map((li) => "
        "[Number(li.dataset.seat), getComputedStyle(li.querySelector('.seat-dot')).backgroundColor])"
    )
    assert all(colour == diwa[seat] for seat, colour in ranking)
    cards = page.locator(".k-mycards")
    expect(cards).not_to_contain_text("start of your turn")
    expect(cards).not_to_contain_text("flip a paltik to draw one")
    screenshot(page, "details_kamara_colours")


def test_the_rules_of_a_game_that_does_not_exist(server: Server, page: Page) -> None:
    page.goto(server.url + "/rules/chess")
    expect(page.get_by_test_id("no-game")).to_have_text(
        "There is no game called “chess” here: choose one of the games above."
    )
    expect(page.get_by_test_id("rules")).not_to_contain_text("not available in this language")
    page.goto(server.url + "/rules/kamara")
    expect(page.get_by_test_id("rules")).to_contain_text("chamber")


def test_a_bot_playing_for_you_is_credited(server: Server, page: Page) -> None:
    """After "Let a bot play" the log says the bot made your moves, and the end says it played for you."""
    created = join(
        server, page, {"game": "lama", "players": 2, "bots": {"1": "heuristic"}, "options": {"end_score": 8}}
    )
    let_a_bot_play(server, created)
    wait_seq(page, 10**6)
    expect(page.get_by_test_id("end")).to_be_visible()
    log = page.get_by_test_id("log")
    expect(log).to_contain_text("Smart bot for Ana")
    mine = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=log] li.log-act b')].map((b) => b.textContent)"
        ".filter((who) => who.includes('Ana'))"
    )
    assert mine and all(who == "Smart bot for Ana" for who in mine)
    end = page.get_by_test_id("end")
    expect(end.get_by_test_id("bot-for")).to_have_text("Smart bot played for you")
    expect(end.locator("h2")).not_to_have_text("You won!")
    won = page.evaluate("() => document.querySelector('[data-testid=ranking] li.me').classList.contains('winner')")
    if won:
        expect(end.locator("h2")).to_have_text("Your seat won — the smart bot played it for you")
    screenshot(page, "details_bot_for_you")


def test_no_card_is_shown_before_everyone_sits_down(server: Server, page: Page) -> None:
    """While a seat is still empty the L.A.M.A. table shows no hand and no discard, as its prompt says."""
    created = server.post("/api/tables", {"game": "lama", "players": 3, "bots": {"2": "heuristic"}})
    page.goto(server.url + created["seats"][0]["invite"])
    page.get_by_test_id("join-name").fill("Ana")
    page.get_by_test_id("join").click()
    expect(page.get_by_test_id("hand")).to_contain_text("The cards are dealt when everyone has sat down.")
    assert page.get_by_test_id("hand").locator(".card").count() == 0
    assert page.get_by_test_id("discard").locator(".card.face").count() == 0
    expect(page.get_by_test_id("opponents").get_by_test_id("card-count").first).to_have_text("not dealt yet")
    expect(page.locator("[data-testid=quit]")).to_have_count(0)
    screenshot(page, "details_lama_waiting")
    friend = created["seats"][1]
    server.post(f"/api/tables/{created['id']}/seats/1/join", {"token": friend["token"], "name": "Bo"})
    expect(page.get_by_test_id("hand").locator(".card")).to_have_count(6)
    expect(page.get_by_test_id("discard").locator(".card.face")).not_to_have_count(0)


RENDER = """async ({ message, touch }) => {
  const { createTable } = await import('/static/js/games/kamara.js');
  const components = (await (await fetch('/api/games/kamara/components')).json()).components;
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  const ctx = { send: () => true, t: (key) => key, lang: 'en', seat: 0, table: message.table, components,
                playerName: (seat) => ['Ana', 'Bo', 'Cy'][seat], confirm: async () => false };
  createTable(root, ctx).update(message);
  await new Promise((done) => setTimeout(done, 50));
}"""


def test_kamara_waits_for_everyone_before_a_turn_or_a_card(server: Server, page: Page) -> None:
    """While a seat is still empty the Kamara table says it waits for players: no "Your turn" for the elder, no
    yellow card yet; once everyone sits down the elder's turn begins."""
    table = {"game": "kamara", "players": 3, "bots": {"2": "heuristic"}, "options": {"elder": 0}}
    created = server.post("/api/tables", table)
    page.goto(server.url + created["seats"][0]["invite"])
    page.get_by_test_id("join-name").fill("Ana")
    page.get_by_test_id("join").click()
    status = page.locator(".k-status")
    expect(status.get_by_test_id("k-waiting")).to_have_text("Waiting for players")
    expect(status).not_to_contain_text("Your turn")
    expect(page.locator(".k-hint")).to_contain_text("The game begins when everyone has sat down")
    expect(page.get_by_test_id("yellow-none")).to_have_text("Dealt when everyone has sat down.")
    expect(page.get_by_test_id("green-none")).to_have_text("None yet: once play begins, flipping a paltik draws one.")
    assert page.locator(".k-player.is-current").count() == 0
    screenshot(page, "details_kamara_waiting")
    friend = created["seats"][1]
    server.post(f"/api/tables/{created['id']}/seats/1/join", {"token": friend["token"], "name": "Bo"})
    expect(status).to_contain_text("Your turn")
    expect(status.get_by_test_id("k-waiting")).to_have_count(0)
    expect(page.get_by_test_id("yellow-none")).to_have_count(0)
    expect(page.get_by_test_id("green-none")).to_contain_text("None yet")  # setup: nothing to flip yet


def kamara_message(state: Any, seat: int = 0) -> dict[str, Any]:
    """The state message the server would send ``seat`` (only what that seat may know)."""
    seats = [
        {"seat": s, "kind": "human", "bot": None, "name": n, "joined": True, "connected": True}
        for s, n in enumerate(["Ana", "Bo", "Cy"])
    ]
    table = {"id": "t", "game": "kamara", "players": 3, "status": "running", "seats": seats, "options": {}}
    return {
        "type": "state",
        "seq": 9,
        "seat": seat,
        "your_turn": state.current_player == seat,
        "legal_actions": [str(a) for a in state.legal_actions()] if state.current_player == seat else [],
        "observation": state.observation(seat),
        "table": {**table, "current_player": state.current_player},
        "log": [],
    }


def test_kamara_previews_a_flip_and_tells_its_two_signs_apart(server: Server, page: Page) -> None:
    """Standing on a paltik, the other face of the tile is shown before the flip; the flip sign (a solid ring
    with ↻) is not the poke sign (a dashed square)."""
    from tests.kamara.helpers import build

    state = build([("red", "b8"), ("blue", "a1"), ("orange", "i1")])  # red (seat 0) on the NW tile's paltik
    assert "flip" in [str(a) for a in state.legal_actions()]
    page.goto(server.url + "/")
    page.evaluate(RENDER, {"message": kamara_message(state), "touch": False})
    preview = page.get_by_test_id("flip-preview")
    expect(preview).to_be_visible()
    assert preview.get_attribute("data-face") == "B"  # every face is A in this chamber: a flip shows B
    pictures = preview.locator("svg")
    assert pictures.count() == 2 and pictures.nth(0).inner_html() != pictures.nth(1).inner_html()
    ring = page.locator(".k-legend .k-flip-ring").first
    poke = page.locator(".k-legend .k-t-poke-source rect").first
    expect(poke).to_have_css("stroke-dasharray", re.compile(r"\d"))  # dashed, once kamara.css has loaded
    assert ring.evaluate("(node) => getComputedStyle(node).strokeDasharray") == "none"
    screenshot(page, "details_kamara_flip_preview")


def test_kamara_shows_a_tiles_other_face_under_the_mouse(server: Server, page: Page) -> None:
    """A mouse resting on a paltik, or on Flip, draws that tile's other face on the chamber; leaving it, or
    flipping, draws the chamber as it is."""
    from tests.kamara.helpers import build

    state = build([("red", "b8"), ("blue", "a1"), ("orange", "i1")])  # red (seat 0) on the NW tile's paltik
    page.goto(server.url + "/")
    page.evaluate(RENDER, {"message": kamara_message(state), "touch": False})
    ghost = page.get_by_test_id("flip-ghost")
    expect(ghost).to_have_count(0)
    walls = page.locator(".k-board .k-wall").count()

    def point_at(square: str) -> None:  # a diwa lets the pointer through to the square under it
        box = page.locator(f".k-piece[data-square={square}]").bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    point_at("b8")
    expect(ghost).to_have_count(1)
    assert (ghost.get_attribute("data-slot"), ghost.get_attribute("data-face")) == ("NW", "B")
    assert ghost.locator(".k-wall").count() > 0
    screenshot(page, "details_kamara_flip_hover")
    page.mouse.move(5, 5)
    expect(ghost).to_have_count(0)
    assert page.locator(".k-board .k-wall").count() == walls
    page.locator("[data-k=flip]").hover()
    expect(ghost).to_have_count(1)
    point_at("a1")  # a1 is no paltik: nothing to preview
    expect(ghost).to_have_count(0)


def test_kamara_hints_say_tap_on_a_touch_screen(server: Server, browser: Any) -> None:
    from tests.kamara.helpers import build

    state = build([("red", "e5"), ("blue", "a1"), ("orange", "i1")])
    for touch, word in ((False, "Click a highlighted square"), (True, "Tap a highlighted square")):
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=touch, is_mobile=touch)
        try:
            page = context.new_page()
            page.goto(server.url + "/")
            page.evaluate(RENDER, {"message": kamara_message(state), "touch": touch})
            expect(page.locator(".k-hint")).to_contain_text(word)
        finally:
            context.close()


def test_an_opponents_last_move_shows_on_their_box_and_cards_fly(server: Server, page: Page) -> None:
    """After a bot moves, its box says what it did for a few seconds, and the card it played (or drew) flies
    between its hand and the pile."""
    from tests.web.lama_play import seq, take_turn, wait_turn_or_over

    join(server, page, {"game": "lama", "players": 2, "bots": {"1": "heuristic"}})
    wait_turn_or_over(page)
    before = seq(page)
    take_turn(page)
    wait_turn_or_over(page, before)  # the bot has answered
    note = page.locator("[data-testid=opponent] [data-testid=last-move]")
    expect(note).to_have_count(1)
    last_bot_move = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=log] li.log-act')].map((li) => li.textContent)"
        ".filter((text) => text.startsWith('Smart bot')).pop()"
    )
    assert last_bot_move.endswith(note.inner_text())
    assert int(page.evaluate("() => document.querySelector('.lama').dataset.flights || '0'")) >= 1
    screenshot(page, "details_lama_last_move")
    expect(note).to_have_count(0, timeout=8_000)  # gone after a while


def test_a_kamara_opponents_last_action_shows_on_their_box(server: Server, page: Page) -> None:
    """When a bot acts at a Kamara table, its box in the players list says what it did for a few seconds."""
    table = {"game": "kamara", "players": 3, "bots": {"2": "heuristic"}, "options": {"elder": 2}}
    created = server.post("/api/tables", table)
    page.goto(server.url + created["seats"][0]["invite"])
    page.get_by_test_id("join-name").fill("Ana")
    page.get_by_test_id("join").click()
    expect(page.locator(".k-status").get_by_test_id("k-waiting")).to_be_visible()
    friend = created["seats"][1]
    server.post(f"/api/tables/{created['id']}/seats/1/join", {"token": friend["token"], "name": "Bo"})
    page.wait_for_function("() => document.querySelector('.kamara').dataset.yourTurn === 'true'", timeout=15_000)
    note = page.locator(".k-player[data-seat='2'] [data-testid=last-move]")
    expect(note).to_have_count(1)
    assert page.locator(".k-player [data-testid=last-move]").count() == 1  # only the bot has acted
    bot_move = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=log] li.log-act')].map((li) => li.textContent).pop()"
    )
    assert "places" in note.inner_text() and bot_move.endswith(note.inner_text()), (bot_move, note.inner_text())
    screenshot(page, "details_kamara_last_move")
    expect(note).to_have_count(0, timeout=8_000)  # gone after a while


IN_VIEW = """(selector) => [...document.querySelectorAll(selector)].map((node) => {
  const box = node.getBoundingClientRect();
  return { top: box.top, bottom: box.bottom, height: box.height, width: box.width };
})"""


def test_a_phone_shows_your_hand_and_actions_on_your_turn(server: Server, browser: Any) -> None:
    """On a 390 by 844 phone, at your turn, your L.A.M.A. hand and its buttons are in view, and so are Kamara's
    action buttons; every button is at least 44 px tall."""
    from tests.kamara.helpers import build
    from tests.web.conftest import new_context
    from tests.web.lama_play import wait_turn_or_over

    context = new_context(browser, mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        join(server, page, {"game": "lama", "players": 4, "bots": {"1": "random", "2": "heuristic", "3": "random"}})
        wait_turn_or_over(page)
        page.wait_for_timeout(800)  # the page scrolls your hand into view
        for box in page.evaluate(IN_VIEW, "[data-testid=hand] .card, .me-actions button"):
            assert box["top"] >= 0 and box["bottom"] <= 844, box
        assert all(box["height"] >= 44 for box in page.evaluate(IN_VIEW, ".me-actions button"))
        screenshot(page, "details_phone_lama_turn")
        state = build([("red", "e5"), ("blue", "a1"), ("orange", "i1")])
        page.goto(server.url + "/")
        page.evaluate(RENDER, {"message": kamara_message(state), "touch": True})
        buttons = page.evaluate(IN_VIEW, ".k-actions .k-btn")
        assert len(buttons) == 4
        (board,) = page.evaluate(IN_VIEW, ".k-boardwrap")
        for box in buttons:  # above the board, which takes most of a phone's height
            assert box["bottom"] <= board["top"] and box["height"] >= 44, box
        screenshot(page, "details_phone_kamara_turn")
    finally:
        context.close()


def test_a_phone_shows_your_kamara_actions_chamber_and_card_on_your_turn(server: Server, browser: Any) -> None:
    """On a 390 by 844 phone, when a Kamara turn of yours begins, the page shows your actions, the chamber and your
    yellow card together; every square you may tap and every button is at least 44 px."""
    from tests.web.conftest import new_context
    from tests.web.test_kamara_web import Clicker, _open_table, _wait_for_move

    context = new_context(browser, mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        _, watch = _open_table(server, page)
        clicker = Clicker(page, watch, seed=5)
        while _wait_for_move(page)["phase"] in ("tiles", "diwa"):
            clicker.step()
        while page.locator(".k-decision").count():  # a decision first: the turn's actions come after it
            clicker.step()
        # the page brings your turn into view (a smooth scroll: waited for, with a deadline)
        parts = ".k-status, .k-actions .k-btn, .k-yellow, .k-green, .k-board"
        deadline = time.monotonic() + 10
        while True:
            seen = page.evaluate(IN_VIEW, parts)
            if all(box["top"] >= 0 and box["bottom"] <= 844 for box in seen) or time.monotonic() > deadline:
                break
            page.wait_for_timeout(100)
        assert len(seen) == 8, seen
        for box in seen:
            assert box["top"] >= 0 and box["bottom"] <= 844, seen
        assert all(box["height"] >= 44 for box in page.evaluate(IN_VIEW, ".k-actions .k-btn"))
        targets = page.evaluate(IN_VIEW, ".k-target")
        assert targets and all(min(box["width"], box["height"]) >= 44 for box in targets), targets
        screenshot(page, "details_phone_kamara_real_turn")
        screenshot(page, "details_phone_kamara_real_turn_view", full_page=False)
        labels = page.evaluate(IN_VIEW, ".k-actions .k-btn-label")
        assert all(box["height"] < 30 for box in labels), labels  # each label on one line
    finally:
        context.close()


@pytest.mark.slow  # every tile name at every width
def test_korean_names_stay_whole_and_take_the_right_particle(server: Server, browser: Any) -> None:
    """In Korean at 1280 px every tile name of the pool is on one line (no lone ")"), and a particle written for
    both endings is chosen from the word before it."""
    from tests.web.conftest import new_context

    context = new_context(browser, locale="ko-KR")
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        # Ana is the elder: she places the first tile, so the whole pool waits for her (a bot elder's first tiles
        # would leave fewer than eight names)
        table = {"game": "kamara", "players": 3, "bots": {"1": "heuristic", "2": "heuristic"}, "options": {"elder": 0}}
        join(server, page, {**table, "seed": 1})
        page.wait_for_function("() => document.querySelectorAll('.k-pool-name').length >= 8", timeout=30_000)
        lines = page.evaluate(
            "() => [...document.querySelectorAll('.k-pool-name')].map((node) => {"
            " const range = document.createRange(); range.selectNodeContents(node);"
            " return [node.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size]; })"
        )
        assert any(name == "hagdan(계단)" for name, _ in lines) and all(count == 1 for _, count in lines), lines
        text = page.locator("body").inner_text()
        for generic in ("을(를)", "를(을)", "이(가)", "은(는)", "과(와)", "(으)로"):
            assert generic not in text
        chosen = page.evaluate(
            "async () => { const { particles } = await import('/static/js/i18n.js');"
            " return ['kamara을(를)', '봇 4이(가)', 'hagdan(계단)을(를)', 'b3(으)로', 'e5(으)로', 'i1(으)로']"
            ".map(particles); }"
        )
        assert chosen == ["kamara를", "봇 4가", "hagdan(계단)을", "b3으로", "e5로", "i1로"]
        screenshot(page, "details_korean_pool")
    finally:
        context.close()


def test_the_rules_pages_say_what_to_click_with_pictures(server: Server, browser: Any) -> None:
    """Each rules page starts with what you click at the table, with the games' own pictures: cards, a tile on
    both faces, a yellow card as printed and read on a chamber — in English and Korean."""
    from tests.web.conftest import new_context

    for locale, words in (("en-US", ("click", "Flip")), ("ko-KR", ("누르", "뒤집기"))):
        context = new_context(browser, locale=locale)
        try:
            page = context.new_page()
            page.goto(server.url + "/rules/kamara")
            guide = page.get_by_test_id("guide")
            expect(guide).to_contain_text(words[0])
            expect(guide).to_contain_text(words[1])
            expect(guide.locator("figure")).to_have_count(2)
            assert guide.locator("figure").nth(0).locator("svg").count() == 2  # the tile's two faces
            assert guide.locator("figure").nth(1).locator("svg").count() == 2  # printed, and on the chamber
            floor = guide.locator(".k-floor").first.evaluate("(node) => getComputedStyle(node).fill")
            assert floor != "rgb(0, 0, 0)"  # drawn in the chamber's colours
            screenshot(page, f"details_rules_kamara_{locale}")
            page.goto(server.url + "/rules/lama")
            expect(page.get_by_test_id("guide").locator(".card.face")).to_have_count(4)
        finally:
            context.close()


TYPED = ("play", "move", "port", "poke", "place", "diwa", "order", "keep", "draw", "quit", "laro ", "edition=")


def test_the_rules_pages_say_what_you_click_not_what_you_type(server: Server, browser: Any) -> None:
    """The rules of both games (and the Party Edition), in English and Korean, name the buttons and squares you
    click at the table; none of the terminal's commands is left in them."""
    from tests.web.conftest import new_context

    pages = {
        "en-US": {"/rules/kamara": ("End turn", "Discard unused", "you click"), "/rules/lama": ("Quit round",)},
        "ko-KR": {"/rules/kamara": ("차례 끝내기", "쓰지 않고 버리기", "누르"), "/rules/lama": ("라운드에서 빠지기",)},
    }
    for locale, shown in pages.items():
        context = new_context(browser, locale=locale)
        try:
            page = context.new_page()
            for path in (*shown, "/rules/lama?edition=party"):
                page.goto(server.url + path)
                rules = page.get_by_test_id("rules")
                expect(rules.locator("h1")).to_be_visible()
                for words in shown.get(path, ("Draw" if locale == "en-US" else "뽑기",)):
                    expect(rules).to_contain_text(words)
                codes = rules.locator("code").all_inner_texts()
                typed = [code for code in codes if code.startswith(TYPED) or code in ("end", "flip", "match")]
                assert not typed, (locale, path, typed)
                assert "<!--" not in rules.inner_html()
                assert "game." not in page.locator(".rules-tabs").inner_text()  # each tab's title, translated
                expect(page.get_by_test_id("guide").locator("figure")).to_have_count(2)
            screenshot(page, f"details_rules_party_{locale}")
        finally:
            context.close()
