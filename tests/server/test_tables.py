"""A table without the server: the state sent to each connection, as text, is exactly its state message."""

from __future__ import annotations

import json
import random

import pytest

from laro.server.tables import Table


@pytest.mark.parametrize("game", ["lama", "kamara"])
def test_state_text_is_the_state_message(game: str) -> None:
    """The shared parts (summary, log) are encoded once per change and spliced in: the text must still be the
    same message, for every seat and a spectator, after joins, connections and actions."""
    table, tokens = Table.create(game, 3, {}, {2: "random"}, seed=11, table_id="t")
    rng = random.Random(4)
    for seat, token in tokens.items():
        table.apply(table.join_event(seat, token, f"player {seat}"))
    for step in range(60):
        if step % 7 == 0:
            table.seats[step % 3].connections ^= 1  # someone connects or goes: the summary changes, not the seq
        for seat in (0, 1, 2, None):
            told, message = json.loads(table.state_text(seat)), table.state_message(seat)
            assert abs(told.pop("server_time") - message.pop("server_time")) < 5
            assert told == message
        if table.state.is_over:
            break
        event = table.make_bot_event() if table.bot_to_move() else None
        if event is None:
            seat = table.state.current_player
            assert seat is not None
            event = table.act_event(seat, str(rng.choice(table.state.legal_actions())), table.seq)
        table.apply(event)


def test_a_bot_seat_keeps_its_bot_and_what_it_remembers() -> None:
    """The ``hard`` L.A.M.A. bot reads the other hands from the moves it has seen, so a seat keeps one bot for the
    whole game: its reading follows every round."""
    table, tokens = Table.create("lama", 3, {}, {1: "hard", 2: "hard"}, seed=5, table_id="t")
    table.apply(table.join_event(0, tokens[0], "player"))
    rng = random.Random(2)
    bots = set()
    readings = 0
    for _ in range(120):
        if table.state.is_over:
            break
        if table.bot_to_move():
            seat = table.state.current_player
            event = table.make_bot_event()
            _, bot = table._bots[seat or 0]  # what the seat keeps between its moves
            bots.add(id(bot))
            readings += ("lama reading", seat) in getattr(bot, "memory", {})
        else:
            event = table.act_event(0, str(rng.choice(table.state.legal_actions())), table.seq)
        table.apply(event)
    assert len(bots) == 2 and readings > 10
