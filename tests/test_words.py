"""Counts and articles said right, in the terminal and in the browser's message catalogues (English and Korean):
"1 decision", "2 decisions", "an edge tile". The terminal says every count through ``laro.cli.words``; the browser
through its catalogues' ``.one`` forms, which ``t()`` picks for a count ``n`` of one."""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

import pytest
from rich.console import Console

import laro
from laro.cli.analyse import render_analysis
from laro.cli.words import a, counted, plural
from laro.sim.tournament import BotStanding, Summary

SRC = Path(laro.__file__).resolve().parent
CATALOGUES = SRC / "web" / "static" / "js" / "i18n"
ENTRY = re.compile(r'^\s*"([^"]+)":\s*"((?:[^"\\]|\\.)*)",?\s*$')
# a count before a plural noun: "{n} moves", "{n} inaccuracies" (the nouns the pages count)
NOUNS = "actions bots cards decisions games hours inaccuracies blunders minutes mistakes moves players points pts"
NOUNS += " rounds seats seconds simulations tables tiles tokens turns"
COUNTED = re.compile(rf"\{{(\w+)\}} ({'|'.join(NOUNS.split())})\b")
ARTICLE = re.compile(r"\b([Aa]n?) \{(\w+)\}")
# "a {card}": a L.A.M.A. card named by its value, 1 to 6 (or 1+ to 6+), each said with "a"
ARTICLES_CHECKED = {"lama.log.play", "lama.log.play_plus"}


def catalogue(language: str) -> dict[str, str]:
    """Every plain string of the browser's catalogues in ``language`` (a function's text is its own business)."""
    strings: dict[str, str] = {}
    for path in sorted(CATALOGUES.glob(f"*{language}.js")):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = ENTRY.match(line)
            if match:
                strings[match.group(1)] = match.group(2)
    return strings


ENGLISH, KOREAN = catalogue("en"), catalogue("ko")


def test_the_catalogues_are_read() -> None:
    assert len(ENGLISH) > 300 and len(KOREAN) > 300
    assert ENGLISH["analysis.count.inaccuracy"].startswith("{n} inaccuracies")


def test_every_status_and_end_of_a_table_has_its_words() -> None:
    """What the server may say of a table (its status, and why it ended before its game did) is said in both
    languages: the lobby's and the table's status pill, the log's and the replay's last line."""
    from laro.server.openapi import DOCUMENT
    from laro.server.table.reducer import ENDS

    statuses = _statuses(DOCUMENT)
    assert {"open", "running", "over", *ENDS} <= statuses
    for words in (ENGLISH, KOREAN):
        assert [status for status in sorted(statuses) if f"status.{status}" not in words] == []
        assert [end for end in sorted(ENDS) if f"log.end.{end}" not in words] == []


def _statuses(found: object) -> set[str]:
    """The statuses a table may have, as the OpenAPI document lists them."""
    if isinstance(found, dict):
        if {"open", "running"} <= set(found.get("enum") or ()):
            return set(found["enum"])
        return set().union(*(_statuses(value) for value in found.values()))
    if isinstance(found, list):
        return set().union(*(_statuses(value) for value in found))
    return set()


# a word before a noun that is no count, or a count that is never one
NOT_COUNTS = {
    "analysis.biggest": "{loss} points: a loss with one decimal, 1.0 points",
    "kamara.log.play.palitan": "the {a} and {b} tiles: two slots' names",
    "lobby.player_range": "{min}–{max} players: the most players a game takes, 2 or more",
    "match.looking": "{n} players: the players of a table asked for, 2 or more",
    "replay.next": "{name} moves next: a name, then the verb",
    "table.seated": "{n} of {total} seats taken: a table's seats, 2 or more",
}


@pytest.mark.parametrize(
    "key", sorted(key for key, text in ENGLISH.items() if COUNTED.search(text) and key not in NOT_COUNTS)
)
def test_an_english_count_has_its_form_for_one(key: str) -> None:
    """``t()`` picks ``key.one`` for n = 1: without it the page would say "1 moves"."""
    name = COUNTED.search(ENGLISH[key])
    assert name is not None
    assert name.group(1) == "n", f"{key}: a count is given as {{n}}, the parameter t() reads"
    one = ENGLISH.get(f"{key}.one")
    assert one is not None, f"{key} ({ENGLISH[key]!r}) has no {key}.one"
    assert "{n}" not in one and not COUNTED.search(one), one


@pytest.mark.parametrize("key", sorted(key for key in ENGLISH if key.endswith(".one")))
def test_korean_says_each_count_in_its_own_words(key: str) -> None:
    """Korean counts need no form for one ("{n}개"); its string for the count must exist, or the page would fall
    back to the English one."""
    base = key.removesuffix(".one")
    assert base in KOREAN or base not in ENGLISH, f"{base} has no Korean string"
    assert f"{key}" not in KOREAN or "{n}" not in KOREAN[key]


def test_no_english_article_guesses_at_a_word_it_does_not_know() -> None:
    """ "a {kind}" says "a edge tile": an article goes with its word, inside the parameter or not at all."""
    found = {key: text for key, text in ENGLISH.items() if ARTICLE.search(text) and key not in ARTICLES_CHECKED}
    assert found == {}


# -- the terminal ----------------------------------------------------------------------------------------------


def _string_literals(path: Path) -> list[tuple[int, str]]:
    """The text of every string literal in ``path`` (the literal parts of f-strings included), with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.lineno, node.value))
    return found


def test_the_terminal_says_counts_in_one_place() -> None:
    """No hand-made plural (``"s" if n != 1``) in the terminal's code: counts go through laro.cli.words."""
    made = []
    for path in sorted((SRC / "cli").glob("*.py")):
        if path.name == "words.py":
            continue
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            if re.search(r"""(['"])e?s\1 if \S+ [!=]= 1\b|(['"])\2 if \S+ == 1 else (['"])e?s\3""", line):
                made.append(f"{path.name}:{number}: {line.strip()}")
    assert made == []


def test_the_terminal_puts_no_article_before_a_word_it_does_not_know() -> None:
    """An "a" before a placeholder is only for a game's name, and every game's name starts with a consonant."""
    assert all(name[0] not in "aeiou" for name in laro.list_games())
    guessed = []
    for path in sorted((SRC / "cli").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        for match in re.finditer(r"\b[Aa]n? \{([^}]*)\}", source):
            if "game" not in match.group(1):
                guessed.append(f"{path.name}: {match.group(0)}")
    assert guessed == []


def test_words_by_hand() -> None:
    assert [counted(n, "move") for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    assert counted(1, "inaccuracy", "inaccuracies") == "1 inaccuracy"
    assert counted(2, "inaccuracy", "inaccuracies") == "2 inaccuracies"
    assert plural(1.0, "win") == "win" and plural(0.5, "win") == "wins"
    assert [a(word) for word in ("edge tile", "inaccuracy", "mistake", "blunder")] == [
        "an edge tile",
        "an inaccuracy",
        "a mistake",
        "a blunder",
    ]


def test_an_analysis_of_one_decision_says_so() -> None:
    decision = {"move": 3, "seat": 0, "played": "draw", "played_value": 0.4, "best": "play 3", "best_value": 0.45}
    decision |= {"loss": 0.05, "verdict": "inaccuracy"}
    summary = {"graded": 1, "forced": 0, "level": 0, "accuracy": 0.9, "best_played": 1, "average_loss": 0.01}
    summary |= {"inaccuracies": 1, "mistakes": 0, "blunders": 0, "biggest": [3]}
    data = {"player": "Ana", "seat": 0, "game": "lama", "actions": 1, "budget": 1, "seed": 1, "won": None}
    console = Console(file=io.StringIO(), width=200, color_system=None)
    render_analysis(console, {**data, "decisions": [decision], "summary": summary}, marked=False, words=None)
    said = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "1 decision graded" in said and "played 1 time;" in said and "1 move ·" in said
    assert "1 inaccuracy (≥ 3 points), 0 mistakes (≥ 7), 0 blunders (≥ 15)" in said
    assert "an inaccuracy" in said


def test_a_tournament_one_rating_point_apart() -> None:
    standings = (
        BotStanding("a", 10, 5, 0.5, (0.2, 0.8), 0.5, 9.0, 1500.6),
        BotStanding("b", 10, 5, 0.5, (0.2, 0.8), 0.5, 9.0, 1499.4),
    )
    assert "rated 1 point lower" in Summary("lama", 2, 10, "low", standings).verdict()
