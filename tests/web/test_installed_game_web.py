"""A game from an installed package (Ember, see tests/plugins/installing.py) on the real server and in Chromium:
listed with what it declares, played by two people in their browsers (the generic view: what each knows, the
choices as buttons) and a searching bot, a step taken back, the ranking by lowest score, the record replaying to
the stored game, and the replay page stepping through it.

Screenshots go to tests/web/screenshots/ (plugin_*.png).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.plugins.installing import ember_site, installed
from tests.web.conftest import Server, new_context, screenshot

from laro.core import GameRecord, replay

__all__ = ["ember_site", "installed"]  # the fixtures that install Ember, for this module's test

TABLE = {"game": "ember", "players": 3, "bots": {"2": "easy"}, "options": {"hand_size": 2}, "seed": 21}


def _seq(page: Page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.seq || -1)"))


def _click(page: Page, action: str) -> None:
    """Click the button of ``action`` and wait until the server's answer is shown."""
    seq = _seq(page)
    page.locator(f"button.generic-action[data-action='{action}']").click()
    page.wait_for_function("(seq) => Number(document.body.dataset.seq) > seq", arg=seq, timeout=15_000)


def _my_turn(page: Page) -> bool:
    return bool(page.evaluate("() => document.body.dataset.yourTurn === 'true'"))


def _over(page: Page) -> bool:
    return bool(page.evaluate("() => document.body.dataset.status === 'over'"))


def _broken_package(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A package beside Ember whose game cannot be loaded (its module is missing), on the server's path."""
    info = site / "broken-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[laro.games]\nash = no_such_module:GAME\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", f"{site}{os.pathsep}{os.environ['PYTHONPATH']}")


def test_people_and_a_bot_play_it_in_the_browser(
    installed: Path, browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _broken_package(tmp_path / "site", monkeypatch)
    server = Server(tmp_path, bot_delay=0.02)
    server.start()  # with Ember (and the broken package) on its PYTHONPATH, as if installed beside laro
    contexts = [new_context(browser), new_context(browser)]
    try:
        games = {game["name"]: game for game in server.get("/api/games")["games"]}
        assert sorted(games) == ["ember", "kamara", "lama"]  # the game that cannot be loaded is left out
        ember = games["ember"]
        assert ember["title"] == "Ember" and ember["score_order"] == "low" and ember["steps"] == ["pick"]
        assert ember["whole_turns"] == ["draw", "play"] and ember["components"] is False
        assert [option["name"] for option in ember["options"]] == ["hand_size"] and "random" in ember["bots"]
        assert games["kamara"]["component_options"] == ["tiles", "yellow_cards", "green_cards"]
        assert not {"tiles", "yellow_cards", "green_cards"} & {option["name"] for option in games["kamara"]["options"]}
        assert games["lama"]["whole_turns"] == ["*"] and games["lama"]["scored_rounds"] is True
        assert server.get("/api/games/ember/components")["components"] is None

        ana, ben = (context.new_page() for context in contexts)
        ana.goto(server.url + "/")
        expect(ana.locator(".game-choice[data-game=ember]")).to_contain_text("Ember")
        # quick match counts it by its own title, having no strings for it
        expect(ana.get_by_test_id("match-counts").locator("li[data-game=ember]")).to_contain_text("Ember: 0 waiting")
        ana.locator(".game-choice[data-game=ember]").click()  # from L.A.M.A.'s form: its heuristic bots are not kept
        expect(ana.get_by_test_id("seat-kind-1")).to_have_value("bot:easy")  # Ember's strongest bot
        expect(ana.get_by_test_id("create-form")).not_to_contain_text("null")  # no edition field, nothing in its place
        expect(ana.get_by_text("hand size")).to_be_attached()  # its own option, named after itself
        screenshot(ana, "plugin_lobby")

        created = server.post("/api/tables", TABLE)
        for seat, (page, name) in enumerate(((ana, "Ana"), (ben, "Ben"))):
            token = created["seats"][seat]["token"]
            server.post(f"/api/tables/{created['id']}/seats/{seat}/join", {"token": token, "name": name})
            page.set_default_timeout(15_000)
            page.goto(server.url + created["seats"][seat]["invite"])
            expect(page.get_by_test_id("generic-observation")).to_be_visible()

        # Ana is first: a pick is a step (it reveals nothing), so she may take it back
        ana.wait_for_function("() => document.body.dataset.yourTurn === 'true'")
        hand = ana.locator("[data-testid=generic-observation] > dd[data-key=hand]").inner_text()
        first = ana.locator("button.generic-action").first.get_attribute("data-action")
        assert first is not None and first.startswith("pick ") and first.split()[1] in hand
        _click(ana, first)
        expect(ana.locator("[data-testid=generic-observation] > dd[data-key=picked]")).to_have_text(first.split()[1])
        expect(ana.locator("button.generic-action")).to_have_count(1)  # now only: play
        expect(ben.locator("[data-testid=generic-observation] > dd[data-key=picked]")).to_have_text("–")  # secret
        screenshot(ana, "plugin_picked")
        seq = _seq(ana)
        ana.get_by_test_id("undo-step").click()
        ana.wait_for_function("(seq) => Number(document.body.dataset.seq) > seq", arg=seq)
        expect(ana.locator("[data-testid=generic-observation] > dd[data-key=picked]")).to_have_text("–")
        expect(ana.get_by_test_id("log").locator("li.log-undo").last).to_contain_text("Ana takes back pick")

        deadline = time.monotonic() + 90
        while not _over(ana):
            assert time.monotonic() < deadline, "the game did not end"
            for page in (ana, ben):
                if _my_turn(page) and not _over(page):
                    _click(page, page.locator("button.generic-action").first.get_attribute("data-action") or "")
            time.sleep(0.05)
        expect(ana.get_by_test_id("ranking")).to_be_visible()
        expect(ana.get_by_text("Fewest points wins.")).to_be_visible()  # the game's score_order: low
        screenshot(ana, "plugin_over")

        record = GameRecord.from_json(server.get(f"/api/tables/{created['id']}/record"))
        final = replay(record)
        assert record.game == "ember" and final.is_over and record.players[:2] == ["Ana", "Ben"]
        summary = server.get(f"/api/tables/{created['id']}")
        assert summary["result"]["winners"] == list(final.winners)
        assert summary["result"]["scores"] == list(final.scores)
        assert "pick" not in record.actions and any(action.startswith("pick ") for action in record.actions)

        ben.goto(server.url + f"/table/{created['id']}/replay")
        ben.wait_for_function("() => document.body.dataset.ready === 'true'")
        expect(ben.get_by_test_id("game").get_by_test_id("generic-observation")).to_be_visible()
        ben.get_by_test_id("replay-slider").fill(str(len(record.actions)))
        expect(ben.get_by_test_id("game").locator("dd[data-key=hand_sizes]")).to_contain_text("0")
        screenshot(ben, "plugin_replay")
    finally:
        for context in contexts:
            context.close()
        server.stop()
