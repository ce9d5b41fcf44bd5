"""The lobby in a real browser: create a table, hand out invite links, see the tables, join and watch."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect
from tests.web.conftest import Server, new_context
from tests.web.lama_play import snap


def test_create_invite_join_and_watch(server: Server, page: Page, browser: Browser) -> None:
    """The creator lands in their seat with an invite link to copy; a friend joins with it; others may watch."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(server.url + "/")
    expect(page.get_by_test_id("tables")).to_have_count(0)
    expect(page.locator(".tables-box")).to_contain_text("No tables yet")
    page.get_by_test_id("name").fill("Ana")
    page.locator(".game-choice[data-game=lama]").click()
    page.get_by_test_id("players").select_option("3")
    expect(page.locator(".seat-row")).to_have_count(3)
    page.get_by_test_id("seat-kind-1").select_option("human")
    page.get_by_test_id("seat-kind-2").select_option("bot:random")
    page.locator("details.options summary").click()
    page.get_by_test_id("option-token_supply").select_option("boxed")
    page.get_by_test_id("create").click()

    # the creator is at their own seat, and sees the other human seat's invite link
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    expect(page.get_by_test_id("status")).to_have_text("Waiting for players")
    invites = page.get_by_test_id("invites")
    expect(invites.locator("li")).to_have_count(1)
    expect(invites).to_contain_text("Seat 2")
    link = invites.locator("input").input_value()
    assert f"/table/{table_id}#seat=1&token=" in link
    invites.get_by_test_id("copy").click()
    expect(invites.get_by_test_id("copy")).to_have_text("Copied ✓")
    assert page.evaluate("navigator.clipboard.readText()") == link
    summary = server.get(f"/api/tables/{table_id}")
    assert summary["options"] == {"token_supply": "boxed"}
    assert summary["seats"][0]["name"] == "Ana" and summary["seats"][0]["joined"]
    assert summary["seats"][2] == {**summary["seats"][2], "kind": "bot", "bot": "random"}

    # the lobby lists the table, with a way back to this browser's seat
    page.goto(server.url + "/")
    row = page.locator(f".table-row[data-table='{table_id}']")
    expect(row).to_contain_text("Waiting for players")
    expect(row.get_by_test_id("my-seat")).to_be_visible()
    snap(page, "lobby")

    # a friend opens the link, gives a name and sits down: the game starts for both
    friend = new_context(browser)
    watcher = new_context(browser)
    try:
        guest = friend.new_page()
        guest.set_default_timeout(15_000)
        guest.goto(link)
        expect(guest.get_by_test_id("join-box")).to_be_visible()
        assert "token" not in guest.url  # the token went to storage, out of the address bar
        guest.get_by_test_id("join-name").fill("Bo")
        guest.get_by_test_id("join").click()
        expect(guest.get_by_test_id("join-box")).to_be_hidden()
        expect(guest.get_by_test_id("hand").locator(".card")).not_to_have_count(0)
        stored = guest.evaluate(f"JSON.parse(localStorage.getItem('laro.seat.{table_id}'))")
        assert stored["seat"] == 1 and stored["name"] == "Bo" and stored["token"]

        # the lobby shows it running (it refreshes by itself)
        expect(row).to_contain_text("Playing", timeout=8_000)
        expect(row).to_contain_text("Bo")

        # someone else watches from the lobby: nobody's cards, no seat
        other = watcher.new_page()
        other.set_default_timeout(15_000)
        other.goto(server.url + "/")
        other_row = other.locator(f".table-row[data-table='{table_id}']")
        expect(other_row.get_by_test_id("my-seat")).to_have_count(0)
        other_row.get_by_test_id("watch").click()
        expect(other.locator(".watching-note")).to_be_visible()
        expect(other.get_by_test_id("players")).to_contain_text("Ana")
        expect(other.get_by_test_id("opponents").locator(".opponent")).to_have_count(3)
        assert other.evaluate("document.body.dataset.seat") == ""
    finally:
        friend.close()
        watcher.close()


def test_lobby_refuses_without_a_name(server: Server, page: Page) -> None:
    """Creating a table needs a name; the message says so, and no table is made."""
    page.goto(server.url + "/")
    page.get_by_test_id("name").fill("")
    page.get_by_test_id("create").click()
    expect(page.locator(".toast")).to_contain_text("Please enter your name")
    assert server.get("/api/tables")["tables"] == []


def test_missing_table_and_bad_link(server: Server, page: Page) -> None:
    """A table that does not exist, and an invite link with a wrong token, are explained in words."""
    page.goto(server.url + "/table/nope")
    expect(page.get_by_test_id("no-table")).to_be_visible()
    created = server.post("/api/tables", {"game": "lama", "players": 2, "bots": {"1": "random"}})
    page.goto(server.url + f"/table/{created['id']}?seat=0&token=wrong")
    expect(page.locator(".toast[data-code=bad_token]")).to_contain_text("does not open a seat")
    expect(page.locator(".watching-note")).to_be_visible()  # carried on as a spectator


def test_the_tables_drawn_again_keep_the_focus(server: Server, page: Page) -> None:
    """The list of tables is drawn again every few seconds in place: a row that stays is the same element, so a
    keyboard user's focus on its Watch link (or a click under way) is not lost when another table appears."""
    first = server.post("/api/tables", {"game": "lama", "players": 2, "bots": {"1": "random"}})["id"]
    page.goto(server.url + "/")
    row = page.locator(f".table-row[data-table='{first}']")
    expect(row).to_be_visible()
    row.evaluate("(element) => { element.kept = true; }")
    row.get_by_test_id("watch").focus()
    second = server.post("/api/tables", {"game": "kamara", "players": 2, "bots": {"1": "random"}})["id"]
    expect(page.locator(f".table-row[data-table='{second}']")).to_be_visible(timeout=10_000)  # drawn again
    assert row.evaluate("(element) => element.kept === true")
    focused = page.evaluate("document.activeElement.closest('.table-row')?.dataset.table ?? null")
    assert focused == first and page.evaluate("document.activeElement.dataset.testid") == "watch"
    expect(page.locator(".table-row")).to_have_count(2)


def test_a_seat_offers_each_bot_of_the_game_once(server: Server, page: Page) -> None:
    """The server names each bot once (``ismcts`` is L.A.M.A.'s ``hard`` and Kamara's ``easy``, ``turns`` Kamara's
    ``hard``), the lobby keeps its order, the smart bot first."""
    page.goto(server.url + "/")
    for game, bots in (
        ("lama", ["heuristic", "easy", "medium", "hard", "learned", "random"]),
        ("kamara", ["heuristic", "easy", "medium", "hard", "random"]),
    ):
        page.locator(f".game-choice[data-game={game}]").click()
        options = page.get_by_test_id("seat-kind-1").locator("option")
        expect(options).to_have_count(1 + len(bots))
        assert options.evaluate_all("nodes => nodes.map(node => node.value)") == ["human", *[f"bot:{b}" for b in bots]]
    expect(options.nth(4)).to_have_text("Search bot, hard")
