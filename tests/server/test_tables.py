"""A table without the server: the state sent to each connection, as text, is exactly its state message."""

from __future__ import annotations

import json
import random

import pytest

from laro.server.table import commands, create, make_bot_event, views

T0 = 1_800_000_000.0


@pytest.mark.parametrize("game", ["lama", "kamara"])
def test_state_text_is_the_state_message(game: str) -> None:
    """The shared parts (summary, log) are encoded once per change and spliced in: the text must still be the
    same message, for every seat and a spectator, after joins, connections and actions."""
    table, tokens = create(game, 3, {}, {2: "random"}, created=T0, seed=11, table_id="t")
    rng = random.Random(4)
    for seat, token in tokens.items():
        table.apply(commands.join(table, seat, token, f"player {seat}"), T0)
    for step in range(60):
        if step % 7 == 0:
            table.seats[step % 3].connections ^= 1  # someone connects or goes: the summary changes, not the seq
        for seat in (0, 1, 2, None):
            now = T0 + step
            told, message = json.loads(views.state_text(table, seat, now)), views.state_message(table, seat, now)
            assert told["server_time"] == now
            assert told == message
        if table.state.is_over:
            break
        event = make_bot_event(table) if table.bot_to_move() else None
        if event is None:
            seat = table.state.current_player
            assert seat is not None
            event = commands.act(table, seat, str(rng.choice(table.state.legal_actions())), table.seq, T0 + step)
        table.apply(event, T0 + step)


def test_a_bot_seat_keeps_its_bot_and_what_it_remembers() -> None:
    """The ``hard`` L.A.M.A. bot reads the other hands from the moves it has seen, so a seat keeps one bot for the
    whole game: its reading follows every round."""
    table, tokens = create("lama", 3, {}, {1: "hard", 2: "hard"}, created=T0, seed=5, table_id="t")
    table.apply(commands.join(table, 0, tokens[0], "player"), T0)
    rng = random.Random(2)
    bots = set()
    readings = 0
    for _ in range(120):
        if table.state.is_over:
            break
        if table.bot_to_move():
            seat = table.state.current_player
            event = make_bot_event(table)
            bot = table.bots.held()[seat or 0]  # what the seat keeps between its moves
            bots.add(id(bot))
            readings += ("lama reading", seat) in getattr(bot, "memory", {})
        else:
            event = commands.act(table, 0, str(rng.choice(table.state.legal_actions())), table.seq, T0)
        table.apply(event, T0)
    assert len(bots) == 2 and readings > 10
