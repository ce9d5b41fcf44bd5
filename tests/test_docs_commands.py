"""Every ``laro`` command line the README and docs/ show is parsed by click against the real commands, so that an
option or a command that does not exist fails here. Nothing is run. A line of an ``sh`` block is a whole command:
parsed as click parses it before running it, values converted and required ones present (a file named need not
exist). An inline ``laro …`` names a command in prose, often with its arguments left out or written as
placeholders (``laro analyse RECORD --seat N``): click's parser reads it, so its commands and options must exist
and each option must have its value."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from laro.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^([ \t]*)```sh\n(.*?)^\1```[ \t]*$", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`((?:\S*/)?laro [^`]*)`")
SEPARATORS = {"&&", "||", "|", ";", ">", ">>", "2>", "<"}  # a redirection ends the command too


def _commands(page: Path) -> Iterator[tuple[str, bool, list[str]]]:
    """(where, whole, the arguments after ``laro``) for each laro command shown on ``page``: ``whole`` for a line of
    an ``sh`` block, not for a command named inline."""
    text = page.read_text(encoding="utf-8")
    for block in FENCE.finditer(text):
        first = text.count("\n", 0, block.start(2)) + 1
        for number, line in enumerate(block.group(2).splitlines(), start=first):
            for args in _laro_parts(shlex.split(line, comments=True)):
                yield f"{page.name}:{number}", True, args
    prose = FENCE.sub(lambda block: "\n" * block.group(0).count("\n"), text)
    for span in INLINE.finditer(prose):
        for args in _laro_parts(shlex.split(span.group(1))):
            yield f"{page.name}:{text.count(chr(10), 0, span.start()) + 1}", False, args


def _laro_parts(words: list[str]) -> Iterator[list[str]]:
    """The arguments of each laro command among ``words``, a shell line that may chain several commands."""
    command: list[str] = []
    for word in [*words, ";"]:
        if word not in SEPARATORS:
            command.append(word)
            continue
        if command and (command[0] == "laro" or command[0].endswith("/laro")):
            yield command[1:]
        command = [] if word not in (">", ">>", "2>", "<") else ["(redirected to)"]


COMMANDS = [command for page in PAGES for command in _commands(page)]


def _parse(args: list[str], whole: bool = True) -> None:
    """Parse ``args`` as click does before it runs a command (``whole``), or with click's parser alone: each
    group's options, then the command it names."""
    command: click.Command = cli
    name, parent = "laro", None
    while True:
        context = command.make_context(name, list(args), parent=parent, resilient_parsing=not whole)
        if not whole:  # the parser alone, in a context that lets its errors through
            context = click.Context(command, info_name=name, parent=parent)
            command.make_parser(context).parse_args(list(args))
        if not isinstance(command, click.Group) or not args:
            return
        at = next(at for at, word in enumerate(args) if not word.startswith("-"))  # a group's options come first
        found, sub, args = command.resolve_command(context, args[at:])
        assert found is not None and sub is not None
        command, name, parent = sub, found, context


@pytest.fixture(autouse=True)
def _files_need_not_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    """The docs name example files (records/lama_….json): parsing checks the option, not the file."""
    stack: list[click.Command] = [cli]
    while stack:
        command = stack.pop()
        for param in command.params:
            if isinstance(param.type, click.Path):
                monkeypatch.setattr(param.type, "exists", False)
        if isinstance(command, click.Group):
            stack.extend(command.commands.values())


def test_the_docs_show_commands() -> None:
    shown = {where.split(":")[0] for where, _, _ in COMMANDS}
    assert len(COMMANDS) > 60 and {"README.md", "protocol.md", "rl.md"} <= shown
    assert sum(whole for _, whole, _ in COMMANDS) > 30


@pytest.mark.parametrize(("where", "whole", "args"), COMMANDS, ids=[f"{w} laro {' '.join(a)}" for w, _, a in COMMANDS])
def test_a_command_the_docs_show_parses(where: str, whole: bool, args: list[str]) -> None:
    try:
        _parse(args, whole)
    except click.exceptions.Exit as done:  # --help
        assert done.exit_code == 0
    except click.ClickException as error:
        pytest.fail(f"{where}: laro {shlex.join(args)}\n{error.format_message()}")


def test_an_option_that_does_not_exist_is_caught() -> None:
    for whole in (True, False):
        with pytest.raises(click.NoSuchOption):
            _parse(["play", "lama", "--save"], whole)
        with pytest.raises(click.UsageError, match="No such command"):
            _parse(["tournaments", "lama"], whole)
        with pytest.raises(click.BadOptionUsage, match="requires an argument"):
            _parse(["serve", "--workers"], whole)
    with pytest.raises(click.BadParameter):
        _parse(["bench", "lama", "--seconds", "soon"])  # a whole command's values are checked too
    with pytest.raises(click.MissingParameter):
        _parse(["play"])
    _parse(["analyse", "RECORD", "--seat", "N"], whole=False)  # placeholders in prose
