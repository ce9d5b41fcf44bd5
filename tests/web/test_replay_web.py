"""The replay page in Chromium: every golden record dropped on /replay steps to its end with the page showing the
engine's state after each action; a finished table offers its download and its replay; the controls, the views
and the refusals work as a person would use them, in English and in Korean."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from tests.web.conftest import Server, new_context
from tests.web.lama_play import snap

import laro
from laro.core import GameRecord, GameState, iter_replay, replay

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.json"))

# what the page shows after each step, read in one go as the page steps forward (one click a step)
_READ_STEPS = """
async (count) => {
  const facts = [];
  const read = () => {
    const game = document.querySelector("[data-testid=game]");
    const fact = { step: Number(document.body.dataset.step) };
    fact.current = document.querySelector(".replay-log .is-current")?.dataset.step;
    if (game.querySelector(".lama")) {
      fact.top = game.querySelector("[data-testid=discard]")?.dataset.top ?? null;
      fact.draw = Number(game.querySelector("[data-testid=draw-count]").textContent);
      const hand = "[data-testid=open-hand] [data-card]";
      const cards = (box) => [...box.querySelectorAll(hand)].map((c) => c.dataset.card);
      const boxes = [...game.querySelectorAll("[data-testid=opponent]")];
      fact.hands = boxes.map((box) => [Number(box.dataset.seat), cards(box)]);
      fact.quit = [...game.querySelectorAll("[data-testid=opponent].quit")].map((box) => Number(box.dataset.seat));
      fact.round = game.querySelector("[data-testid=round]").textContent;
    } else {
      const pieces = [...game.querySelectorAll(".k-piece")];
      fact.diwa = Object.fromEntries(pieces.map((node) => [node.dataset.colour, node.dataset.square]));
      fact.yellow = [...game.querySelectorAll(".k-player .k-held-yellow")].map((node) => node.textContent);
      fact.matched = [...game.querySelectorAll(".k-player .k-matched-card small")].map((node) => node.textContent);
    }
    return fact;
  };
  facts.push(read());
  for (let i = 0; i < count; i += 1) {
    document.querySelector("[data-testid=replay-forward]").click();
    facts.push(read());
  }
  return facts;
}
"""


def _expected(state: GameState, number: int) -> dict[str, Any]:
    """What the page must show in its open view after ``number`` actions reached ``state``."""
    data, fact = state.to_json(), {"step": number, "current": str(number)}
    if data["game"] == "lama":
        obs = state.public_observation()
        fact.update(top=obs["top_card"], draw=obs["draw_pile_count"], round=f"Round {obs['round']}")
        fact["hands"] = [[seat, hand] for seat, hand in enumerate(data["hands"])]
        fact["quit"] = [seat for seat, quit in enumerate(obs["quit"]) if quit]
    else:
        fact["diwa"] = data["diwa"]
        fact["yellow"] = [card or "–" for card in data["yellow"]]
        fact["matched"] = [card for cards in data["matched"] for card in cards]
    return fact


def _load(page: Page, server: Server, path: Path) -> None:
    page.goto(server.url + "/replay")
    page.get_by_test_id("replay-file").set_input_files(str(path))
    page.wait_for_selector("body[data-ready=true]:not([data-loading])")


@pytest.mark.slow  # whole games played out, then replayed in the browser
@pytest.mark.parametrize("golden", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_every_golden_record_replays_in_the_browser(server: Server, page: Page, tmp_path: Path, golden: Path) -> None:
    """Dropped on the page (chosen as a file), the record replays to its end; after every action the page shows
    the engine's state: L.A.M.A.'s every hand, piles, quits and round; Kamara's diwa, yellow cards and matches."""
    record = GameRecord.from_json(json.loads(golden.read_text())["record"])
    path = tmp_path / f"{golden.stem}.json"
    record.save(path)
    _load(page, server, path)
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Move 0 of {len(record.actions)}")
    shown = page.evaluate(_READ_STEPS, len(record.actions))
    expected = [_expected(state, number) for number, (_, state) in enumerate(iter_replay(record))]
    assert len(shown) == len(expected) == len(record.actions) + 1
    for number, (seen, wanted) in enumerate(zip(shown, expected, strict=True)):
        assert seen == wanted, f"{golden.stem}: step {number} ({record.actions[number - 1] if number else 'start'})"
    expect(page.get_by_test_id("replay-forward")).to_be_disabled()
    expect(page.get_by_test_id("replay-last")).to_be_disabled()


def test_a_record_whose_seed_needs_64_bits_replays(server: Server, page: Page, tmp_path: Path) -> None:
    """A seed above 2^53 is not a JavaScript number: the page sends the record's own text, so the seed reaches the
    server exactly and the record replays (to its end, and again in another view)."""
    seed = 2207418477550257651  # as a double: 2207418477550257700
    game = laro.get_game("lama")
    state = game.new_game(num_players=2, seed=seed)
    record = GameRecord.start(state, seed=seed, players=["Ana", "Ben"])
    chooser = random.Random(3)
    while not state.is_over and len(record.actions) < 60:
        action = str(chooser.choice(state.legal_actions()))
        record.actions.append(action)
        state = state.apply(action)
    path = record.save(tmp_path / "big-seed.json")
    assert str(seed) in path.read_text()
    _load(page, server, path)
    total = len(record.actions)
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Move 0 of {total}")
    page.keyboard.press("End")
    expect(page.locator("body")).to_have_attribute("data-step", str(total))
    assert page.locator("[data-testid=discard]").get_attribute("data-top") == state.public_observation()["top_card"]
    page.get_by_test_id("replay-view").select_option("1")
    page.wait_for_selector("body[data-view='1']:not([data-loading])")
    hand = page.locator("[data-testid=hand] [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert hand == state.observation(1)["hand"]
    assert page.locator(".toast").count() == 0


def test_the_keys_still_step_after_a_button_is_clicked(server: Server, page: Page, tmp_path: Path) -> None:
    """←, →, Home, End and Space step the replay after one of its buttons is clicked (which keeps the focus), and
    after the slider is dragged; a button reached with Tab still takes Space as a press."""
    record = GameRecord.from_json(json.loads(GOLDEN[0].read_text())["record"])
    _load(page, server, record.save(tmp_path / "record.json"))
    body = page.locator("body")
    page.get_by_test_id("replay-forward").click()
    page.keyboard.press("ArrowRight")
    expect(body).to_have_attribute("data-step", "2")
    page.keyboard.press("ArrowLeft")
    expect(body).to_have_attribute("data-step", "1")
    page.get_by_test_id("replay-back").click()  # now disabled: the focus stays on it
    page.keyboard.press("End")
    expect(body).to_have_attribute("data-step", str(len(record.actions)))
    page.get_by_test_id("replay-first").click()
    page.keyboard.press("Space")
    expect(page.get_by_test_id("replay-play")).to_have_attribute("data-playing", "true")
    page.keyboard.press("Space")
    expect(page.get_by_test_id("replay-play")).to_have_attribute("data-playing", "false")
    page.get_by_test_id("replay-slider").fill("3")
    page.keyboard.press("Home")
    expect(body).to_have_attribute("data-step", "0")
    page.keyboard.press("Space")
    expect(page.get_by_test_id("replay-play")).to_have_attribute("data-playing", "true")
    page.keyboard.press("Space")
    page.get_by_test_id("replay-forward").focus()
    page.keyboard.press("Shift+Tab")  # to the play button, by keyboard
    page.keyboard.press("Tab")  # back on forward, focus visible
    before = int(body.get_attribute("data-step") or 0)
    page.keyboard.press("Space")  # presses the focused button: one step, no playing
    expect(body).to_have_attribute("data-step", str(before + 1))
    expect(page.get_by_test_id("replay-play")).to_have_attribute("data-playing", "false")


@pytest.mark.slow  # whole games played out, then replayed in the browser
def test_an_abandoned_table_says_so_and_names_its_stand_ins(tmp_path: Path, browser: Browser) -> None:
    """Dana and Bora sit down and never come: their stand-ins play until the table ends as abandoned. The lobby's
    list says it ended so (no winner), and its replay credits every move of theirs to their stand-in and ends on
    the table's end, not on someone's turn."""
    server = Server(tmp_path, bot_delay=0.05, extra=("--away-after", "1"))
    server.start()
    context = new_context(browser)
    try:
        created = server.post(
            "/api/tables", {"game": "lama", "players": 3, "seed": 33, "bots": {"2": "random"}, "clock": "normal"}
        )
        for seat, name in ((0, "Dana"), (1, "Bora")):
            token = created["seats"][seat]["token"]
            server.post(f"/api/tables/{created['id']}/seats/{seat}/join", {"token": token, "name": name})
        deadline = time.monotonic() + 30
        while server.get(f"/api/tables/{created['id']}")["status"] != "abandoned":
            assert time.monotonic() < deadline, "the table was not abandoned"
            time.sleep(0.2)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(server.url + "/")
        row = page.locator(f".finished-row[data-table='{created['id']}']")
        expect(row.get_by_test_id("finished-ended")).to_have_text("Ended: every player was away")
        expect(row.locator(".seat-chip.winner")).to_have_count(0)
        page.goto(f"{server.url}/table/{created['id']}/replay")
        page.wait_for_selector("body[data-ready=true]")
        moves = page.locator(".replay-log .replay-move").all_inner_texts()
        by_them = [line for line in moves if "Dana" in line or "Bora" in line]
        assert by_them and all("Smart bot for Dana" in line or "Smart bot for Bora" in line for line in by_them)
        page.keyboard.press("End")
        expect(page.get_by_test_id("replay-ended")).to_have_text(
            "The table ended: every player was away and only bots were playing."
        )
        prompt = page.locator("[data-testid=game] .prompt")
        expect(prompt).to_have_text("The table ended: every player was away and only bots were playing.")
        expect(page.locator("[data-testid=game] .turn-badge")).to_have_count(0)
        snap(page, "replay_abandoned")
    finally:
        context.close()
        server.stop()


def _finished_table(server: Server, game: str, options: dict[str, Any]) -> str:
    """A table of bots alone, played to its end; its id."""
    created = server.post(
        "/api/tables", {"game": game, "players": 3, "options": options, "bots": dict.fromkeys("012", "heuristic")}
    )
    deadline = time.monotonic() + 60
    while server.get(f"/api/tables/{created['id']}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game in time"
        time.sleep(0.2)
    return str(created["id"])


@pytest.mark.slow  # whole games played out, then replayed in the browser
@pytest.mark.parametrize(
    ("game", "options"),
    [("lama", {"end_score": 15}), ("lama", {"edition": "party", "end_score": 15}), ("kamara", {"max_rounds": 4})],
)
def test_a_finished_table_is_downloaded_and_replayed(
    server: Server, browser: Browser, game: str, options: dict[str, Any]
) -> None:
    """The finished table offers Download game (the whole record, which replays to the table's end) and Watch the
    replay, where the buttons, keys, slider, speed and views step through the game; in English and in Korean."""
    table = _finished_table(server, game, options)
    name = f"{game}-{options.get('edition', 'classic')}"
    for locale in ("en-US", "ko-KR"):
        context = new_context(browser, locale=locale)
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(f"{server.url}/table/{table}")
            expect(page.get_by_test_id("end")).to_be_visible()
            with page.expect_download() as download:
                page.get_by_test_id("download-game").click()
            record = GameRecord.from_json(json.loads(Path(download.value.path()).read_text()))
            assert replay(record).is_over and record.result is not None and record.result["over"]
            total = len(record.actions)
            page.get_by_test_id("watch-replay").click()
            page.wait_for_selector("body[data-ready=true]")
            korean = locale.startswith("ko")
            expect(page.locator(".pill")).to_have_text("다시 보기" if korean else "Replay")
            expect(page.get_by_test_id("replay-step")).to_have_text(
                f"{total}수 중 0수" if korean else f"Move 0 of {total}"
            )
            expect(page.get_by_test_id("replay-first")).to_be_disabled()
            page.keyboard.press("End")
            expect(page.locator("body")).to_have_attribute("data-step", str(total))
            page.keyboard.press("ArrowLeft")
            expect(page.locator("body")).to_have_attribute("data-step", str(total - 1))
            page.get_by_test_id("replay-first").click()
            page.get_by_test_id("replay-forward").click()
            page.get_by_test_id("replay-forward").click()
            page.get_by_test_id("replay-back").click()
            expect(page.locator("body")).to_have_attribute("data-step", "1")
            page.get_by_test_id("replay-slider").fill(str(total // 2))
            expect(page.locator("body")).to_have_attribute("data-step", str(total // 2))
            expect(page.locator(".replay-log .is-current")).to_have_attribute("data-step", str(total // 2))
            assert page.locator(".replay-log .replay-move").count() == total + 1  # the whole game, not the last 40
            page.get_by_test_id("replay-speed").select_option("8")
            page.get_by_test_id("replay-play").click()
            page.wait_for_function("s => Number(document.body.dataset.step) >= s", arg=total // 2 + 3)
            page.get_by_test_id("replay-play").click()  # pause
            stopped = page.evaluate("Number(document.body.dataset.step)")
            page.wait_for_timeout(400)
            assert page.evaluate("Number(document.body.dataset.step)") == stopped
            snap(page, f"replay_{name}_{locale[:2]}_open")
            states = [state for _, state in iter_replay(record)]
            # one seat's view: its own cards only
            page.get_by_test_id("replay-view").select_option("1")
            page.wait_for_selector("body[data-view='1']:not([data-loading])")
            expect(page.locator("body")).to_have_attribute("data-step", str(stopped))
            seen = states[stopped].observation(1)
            if game == "lama":
                hand = page.locator("[data-testid=hand] [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)")
                assert hand == seen["hand"]
                assert page.get_by_test_id("open-hand").count() == 0
            else:
                yellow = page.locator(".k-player .k-held-yellow").all_text_contents()
                assert yellow == [
                    card if card not in (None, "?") else ("?" if card else "–") for card in seen["yellow"]
                ]
            snap(page, f"replay_{name}_{locale[:2]}_seat1")
            page.get_by_test_id("replay-view").select_option("spectator")
            page.wait_for_selector("body[data-view='spectator']:not([data-loading])")
            if game == "lama":
                assert page.get_by_test_id("open-hand").count() == 0 and page.locator("[data-testid=hand]").count() == 0
        finally:
            context.close()


def test_what_cannot_be_replayed_is_said(server: Server, page: Page, tmp_path: Path) -> None:
    """A table still being played, a record taken during a game (no seed) and a file that is not a record are
    refused with words; the page stays usable and then replays a good record."""
    created = server.post("/api/tables", {"game": "lama", "players": 2, "bots": {"1": "random"}})
    page.goto(f"{server.url}/table/{created['id']}/replay")
    expect(page.get_by_test_id("replay-refused")).to_contain_text("still being played")
    running = server.get(f"/api/tables/{created['id']}/record")
    assert running["seed"] is None
    partial = tmp_path / "running.json"
    partial.write_text(json.dumps(running))
    page.get_by_test_id("replay-file").set_input_files(str(partial))
    expect(page.locator(".toast")).to_contain_text("no seed")
    junk = tmp_path / "junk.json"
    junk.write_text("not json {")
    page.get_by_test_id("replay-file").set_input_files(str(junk))
    expect(page.locator(".toast").last).to_contain_text("not a laro game record")
    odd = tmp_path / "odd.json"
    odd.write_text(
        json.dumps(
            {
                "format": "laro-record/1",
                "game": "lama",
                "rules_version": "1",
                "num_players": 9,
                "options": {},
                "seed": 1,
                "actions": [],
            }
        )
    )
    page.get_by_test_id("replay-file").set_input_files(str(odd))
    expect(page.get_by_test_id("replay-refused")).to_contain_text("cannot start a game")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(json.loads(GOLDEN[0].read_text())["record"]))
    page.get_by_test_id("replay-file").set_input_files(str(good))
    page.wait_for_selector("body[data-ready=true]")
    expect(page.get_by_test_id("replay-step")).to_contain_text("Move 0 of")
    # another record dropped on the page (drag and drop) replaces the one shown
    kamara = next(path for path in GOLDEN if path.stem.startswith("kamara"))
    record = json.loads(kamara.read_text())["record"]
    page.evaluate(
        """text => {
          const data = new DataTransfer();
          data.items.add(new File([text], "dropped.json", { type: "application/json" }));
          document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true }));
        }""",
        json.dumps(record),
    )
    expect(page.get_by_test_id("replay-step")).to_have_text(f"Move 0 of {len(record['actions'])}")
    expect(page.locator(".k-board")).to_be_visible()


@pytest.mark.slow  # whole games played out, then replayed in the browser
def test_the_lobby_lists_finished_games_by_name(server: Server, browser: Browser) -> None:
    """The lobby's Finished games names each game's players (the winner starred) and opens its replay; older
    games come a page at a time."""
    table = _finished_table(server, "lama", {"end_score": 15})
    summary = server.get(f"/api/tables/{table}")
    for locale, title, replay_word in (("en-US", "Finished games", "Replay"), ("ko-KR", "끝난 게임", "다시 보기")):
        context = new_context(browser, locale=locale)
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(server.url + "/")
            games = page.locator(".finished-games")
            expect(games.locator("h2")).to_have_text(title)
            row = page.locator(f".finished-row[data-table='{table}']")
            expect(row).to_be_visible()
            winners = summary["result"]["winners"]
            expect(row.locator(".seat-chip.winner")).to_have_count(len(winners))
            expect(row.get_by_test_id("finished-players")).to_contain_text("3")  # "Smart bot 3" / "똑똑한 봇 3"
            expect(page.get_by_test_id("finished-older")).to_be_hidden()  # one game: one page
            snap(page, f"lobby_finished_{locale[:2]}")
            row.get_by_test_id("finished-replay").click()
            page.wait_for_selector("body[data-ready=true]")
            expect(page.locator(".pill")).to_have_text(replay_word)
        finally:
            context.close()


def test_a_view_answered_late_does_not_replace_the_one_chosen_after_it(
    server: Server, page: Page, tmp_path: Path
) -> None:
    """Choosing the spectator's view, then seat 0's before the first answer came: seat 0's view stays shown when
    the spectator's answer comes last."""
    record = GameRecord.from_json(json.loads((GOLDEN[0].parent / "kamara-2p-default.json").read_text())["record"])
    path = tmp_path / "kamara.json"
    record.save(path)
    _load(page, server, path)
    held: list[Route] = []
    page.route(
        "**/api/replay",
        lambda route: held.append(route) if "spectator" in (route.request.post_data or "") else route.continue_(),
    )
    page.get_by_test_id("replay-view").select_option("spectator")
    page.get_by_test_id("replay-view").select_option("0")
    page.wait_for_selector("body:not([data-loading])")
    hint, mover = page.locator("[data-testid=game] .k-hint"), next(iter_replay(record))[1].current_player
    seat_0 = re.compile(rf"^{record.players[mover]}( \(you\))? moves next\.$")  # a seat's hint, not a spectator's
    expect(hint).to_have_text(seat_0)
    assert len(held) == 1, "the spectator's view was not asked for"
    held[0].continue_()
    page.wait_for_function(
        "() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/replay')).length >= 3"
    )
    page.wait_for_timeout(300)  # its answer read and dropped
    expect(hint).to_have_text(seat_0)
    assert page.evaluate("document.body.dataset.view") == "0"


@pytest.mark.parametrize("golden", ["lama-3p-drawn-out", "kamara-2p-default"])
def test_the_replay_says_who_moves_next_not_who_is_playing(
    server: Server, page: Page, tmp_path: Path, golden: str
) -> None:
    """The table's words for a live game ("… is playing") would read as if the game were on; a replay says whose
    move comes next, in every view, and a spectator is told it watches a replay."""
    record = GameRecord.from_json(json.loads((GOLDEN[0].parent / f"{golden}.json").read_text())["record"])
    path = tmp_path / f"{golden}.json"
    record.save(path)
    _load(page, server, path)
    hint = page.locator("[data-testid=game] .prompt, [data-testid=game] .k-hint").first
    states = [state for _, state in iter_replay(record)]
    for view in ("open", "spectator", "0", "1"):
        page.get_by_test_id("replay-view").select_option(view)
        for step in (1, 2, 5):
            page.get_by_test_id("replay-slider").fill(str(step))
            mover = states[step].current_player
            if golden.startswith("kamara") and not view.isdigit():  # Kamara shows no seat's hint then
                expect(hint).to_have_text("You are watching a replay.")
            elif (
                golden.startswith("lama") and view.isdigit() and states[step].observation(int(view))["quit"][int(view)]
            ):
                expect(hint).to_have_text("This seat has quit the round.")
            else:
                you = r"( \(you\))?" if view == str(mover) else ""  # Kamara names the viewed seat so
                expect(hint).to_have_text(re.compile(rf"^{record.players[mover]}{you} moves next\.$"))
    assert "is playing" not in page.get_by_test_id("game").inner_text()
