"""Rules pages for their readers: the terminal's passages (what to type) and the browser's (what to click)."""

from __future__ import annotations

import pytest

from laro import get_game
from laro.core.readers import for_reader


def test_each_reader_keeps_its_passages_and_the_common_ones() -> None:
    text = "A\n<!-- in the terminal -->\nT\n<!-- in the browser -->\nB\n<!-- everywhere -->\nZ\n"
    assert for_reader(text, "terminal") == "A\nT\nZ\n"
    assert for_reader(text, "browser") == "A\nB\nZ\n"
    assert for_reader("no markers\n", "browser") == "no markers\n"
    with pytest.raises(ValueError, match="no such reader 'phone'"):
        for_reader(text, "phone")


@pytest.mark.parametrize(("game", "options"), [("kamara", None), ("lama", None), ("lama", {"edition": "party"})])
@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_rules_tell_the_terminal_what_to_type_and_the_browser_what_to_click(
    game: str, options: dict[str, str] | None, language: str
) -> None:
    text = get_game(game).rules_text(language, options)
    terminal, browser = for_reader(text, "terminal"), for_reader(text, "browser")
    assert "`play" in terminal and "<!--" not in terminal
    assert "`play" not in browser and "`laro" not in browser and "`edition=" not in browser and "<!--" not in browser
    button = {
        ("kamara", "en"): "**End turn** stops early",
        ("kamara", "ko"): "**차례 끝내기**로 일찍",
        ("lama", "en"): "At the table you click a card",
        ("lama", "ko"): "테이블에서는 손의 카드를 눌러",
    }[game, language]
    assert button in browser and button not in terminal  # the browser's passages name its buttons
