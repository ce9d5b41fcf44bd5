"""The L.A.M.A. Party Edition in a real browser: chosen in the lobby, a whole game against bots by clicking
(plus cards, their extra turn, the pink llama and pink tokens drawn), and its rules page in both languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import Server, new_context
from tests.web.lama_play import errors_shown, seq, snap, status, wait_turn_or_over

ORDER = ["1", "2", "3", "4", "5", "6", "L"]
SEED = 7  # a deal in which the player at seat 0 gets plus cards to play


def _rank(card: str) -> str:
    return "L" if card == "P" else card.removesuffix("+")


def _may_follow(card: str, top: str) -> bool:
    """The Party Edition's rule, written out again: the pink llama on anything, else its rank's or the next."""
    rank = ORDER.index(_rank(top))
    return card == "P" or _rank(card) in (ORDER[rank], ORDER[(rank + 1) % 7])


def _create_party_table(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    page.get_by_test_id("name").fill("Ana")
    page.locator(".game-choice[data-game=lama]").click()
    page.get_by_test_id("players").select_option("3")
    page.get_by_test_id("seat-kind-1").select_option("bot:heuristic")
    page.get_by_test_id("seat-kind-2").select_option("bot:random")
    edition = page.get_by_test_id("option-edition")
    expect(edition).to_be_visible()  # beside the players, not among the folded options
    expect(edition.locator("option")).to_have_text(["Classic", "Party Edition"])
    edition.select_option("party")
    expect(page.get_by_test_id("rules-link")).to_have_attribute("href", "/rules/lama?edition=party")
    snap(page, "lama_party_lobby")
    page.locator("details.options summary").click()
    page.get_by_test_id("option-end_score").fill("25")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/table/*")


def _take_turn(page: Page, seen: dict[str, bool]) -> None:
    """Click a plus card if one is highlighted (to see the extra turn), else the pink llama, else any highlighted
    card, else the draw pile, else quit (confirming); checking that the highlighted cards are the legal ones."""
    hand = page.get_by_test_id("hand")
    top = str(page.get_by_test_id("discard").get_attribute("data-top"))
    cards = [str(card.get_attribute("data-card")) for card in hand.locator(".card").all()]
    playable = [str(card.get_attribute("data-card")) for card in hand.locator(".card.playable").all()]
    assert playable == [card for card in cards if _may_follow(card, top)], (top, cards, playable)
    if page.get_by_test_id("pink-tokens").count():
        seen["pink tokens"] = True
    if page.locator(".prompt[data-again=true]").count():
        seen["another turn"] = True
        expect(page.locator(".prompt")).to_contain_text("another turn")
        snap(page, "lama_party_another_turn")
    for wanted in ([c for c in playable if c.endswith("+")], [c for c in playable if c == "P"], playable):
        if wanted:
            card = wanted[0]
            seen["plus card" if card.endswith("+") else "pink llama" if card == "P" else "card"] = True
            hand.locator(f'.card.playable[data-card="{card}"]').first.click()
            return
    draw = page.get_by_test_id("draw-pile")
    if draw.is_enabled():
        draw.click()
        return
    page.get_by_test_id("quit").click()
    page.locator("[data-testid=confirm-dialog] [data-confirm=yes]").click()


def test_the_lobby_offers_the_edition(server: Server, page: Page) -> None:
    _create_party_table(server, page)
    expect(page.get_by_test_id("hand").locator(".card")).to_have_count(6, timeout=10_000)
    expect(page.get_by_test_id("edition")).to_have_text("Party Edition")
    table_id = page.url.rsplit("/", 1)[1]
    assert server.get(f"/api/tables/{table_id}")["options"] == {"edition": "party", "end_score": 25}
    expect(page.get_by_test_id("pink-tokens")).to_have_count(3)  # every seat's tokens count pinks


@pytest.mark.slow  # a whole game or record played out in the browser
def test_a_whole_party_game_by_clicking(server: Server, page: Page) -> None:
    """A seeded table (so the deal gives plus cards to click) played to the end by clicking."""
    created = server.post(
        "/api/tables",
        {
            "game": "lama",
            "players": 3,
            "bots": {"1": "heuristic", "2": "random"},
            "options": {"edition": "party", "end_score": 25},
            "seed": SEED,
        },
    )
    table_id = created["id"]
    page.goto(server.url + created["seats"][0]["invite"])
    page.get_by_test_id("join-name").fill("Ana")
    page.get_by_test_id("join").click()
    expect(page.get_by_test_id("edition")).to_have_text("Party Edition", timeout=10_000)
    seen: dict[str, bool] = {}
    turns = 0
    wait_turn_or_over(page)
    while status(page) != "over":
        assert turns < 500, "the game did not end"
        before = seq(page)
        _take_turn(page, seen)
        turns += 1
        if turns == 6:
            snap(page, "lama_party_table")
        wait_turn_or_over(page, before)
    assert errors_shown(page) == []
    expect(page.get_by_test_id("ranking").locator("li")).to_have_count(3)
    assert seen.get("plus card") and seen.get("another turn") and seen.get("pink tokens"), seen
    acts = _acts(server, table_id)
    assert any(entry["text"].endswith("+") for entry in acts)
    expect(page.get_by_test_id("log")).to_contain_text("and takes another turn")
    snap(page, "lama_party_final")


def _acts(server: Server, table_id: str) -> list[dict[str, str]]:
    from tests.web.lama_play import server_state

    return [entry for entry in server_state(server.url, table_id)["log"] if entry["type"] == "act"]


def test_plus_cards_and_the_pink_llama_are_drawn(server: Server, page: Page) -> None:
    """A seat's hand as the page draws it: a plus card with its "+" badge, the pink llama in its own colour."""
    for seed in range(60):  # a deal that gives seat 0 a plus card or the pink llama
        created = server.post(
            "/api/tables",
            {"game": "lama", "players": 2, "bots": {"1": "heuristic"}, "options": {"edition": "party"}, "seed": seed},
        )
        page.goto(server.url + created["seats"][0]["invite"])
        page.get_by_test_id("join-name").fill("Bo")
        page.get_by_test_id("join").click()
        hand = page.get_by_test_id("hand")
        expect(hand.locator(".card")).not_to_have_count(0, timeout=10_000)
        if hand.locator(".card.plus, .card.vP").count():
            break
    else:
        raise AssertionError("no deal with a special card in 60 tables")
    for plus in hand.locator(".card.plus").all():
        expect(plus.locator(".plus-mark")).to_have_text("+")
        assert str(plus.get_attribute("data-card")).endswith("+")
    for pink in hand.locator(".card.vP").all():
        expect(pink).to_have_attribute("aria-label", "Pink llama")
        colour = pink.evaluate("node => getComputedStyle(node).borderTopColor")
        assert colour == "rgb(194, 24, 91)", colour
    snap(page, "lama_party_hand")


def test_the_party_rules_page(server: Server, browser: Browser) -> None:
    for locale, words in (("en-US", "pink llama"), ("ko-KR", "분홍 라마")):
        context = new_context(browser, locale=locale)
        try:
            page = context.new_page()
            page.goto(server.url + "/rules/lama?edition=party")
            rules = page.get_by_test_id("rules")
            expect(rules).to_contain_text(words)
            expect(page.get_by_test_id("party-rules-tab")).to_have_attribute("aria-current", "page")
            snap(page, f"lama_party_rules_{locale[:2]}")
        finally:
            context.close()
