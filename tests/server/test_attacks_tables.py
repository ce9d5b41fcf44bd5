"""What one stranger may make: a rematch is a new table and counts as one. Against the real ``laro serve`` with its
default limits on new tables (10 at once, then 6 a minute per address)."""

from __future__ import annotations

import time
from collections.abc import Callable

from tests.server.attack_support import DEADLINE
from tests.server.client import Api, request
from tests.server.server_process import ServerProcess


def test_a_rematch_chain_counts_as_new_tables(hostile: Callable[..., ServerProcess]) -> None:
    """One address makes a table, then plays a chain of rematches (each game played out by a bot for its one
    person): after its burst of 10 new tables the next rematch is refused (429, rate_limited), and so is a new
    table (before: the chain went on without end, and the address kept its whole burst)."""
    server = hostile("--seat-requests-per-second=1000")  # only the limit on new tables is under test
    api = Api(server.base)
    created = api.create("lama", 2, bots={1: "random"})
    table_id, token = created.id, created.tokens[0]
    made = 1
    refused = None
    for _ in range(12):
        api.join(table_id, 0, token, "Chain")
        api.bot(table_id, 0, token, "random")
        deadline = time.monotonic() + DEADLINE
        while api.table(table_id)["status"] != "over":
            assert time.monotonic() < deadline, "the game never ended"
            time.sleep(0.02)
        status, answer = request(server.base, "POST", f"/api/tables/{table_id}/rematch", {"token": token})
        if status != 200:
            refused = (status, answer["error"]["code"])
            break
        made += 1
        table_id = answer["id"]
    assert refused == (429, "rate_limited") and made == 10, (made, refused)
    status, answer = request(server.base, "POST", "/api/tables", {"game": "lama", "players": 2})
    assert status == 429, (status, answer)
