"""Move analysis on the real server: only a finished game is analysed, in a worker (the server answers meanwhile),
the result is kept in the store (a restart reads it back) and equals ``laro analyse`` of the downloaded record."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from tests.polling import until
from tests.server.client import Api, analysed, played_by_bots, request
from tests.server.server_process import ServerProcess

from laro.bots.analysis import analyse, default_budget
from laro.core import GameRecord


def analysis(base: str, table_id: str, seat: Any, method: str = "GET") -> tuple[int, Any]:
    if method == "POST":
        return request(base, "POST", f"/api/tables/{table_id}/analysis", {"seat": seat})
    return request(base, "GET", f"/api/tables/{table_id}/analysis?seat={seat}")


def test_a_finished_game_is_analysed_kept_and_the_same_as_the_command(server: ServerProcess) -> None:
    api = Api(server.base)
    table_id = played_by_bots(api, "lama", 3, {"end_score": 20}, seed=404)
    assert analysis(server.base, table_id, 1) == (200, {"status": "none"})
    status, answer = analysis(server.base, table_id, 1, "POST")
    assert status in (200, 202) and answer["status"] in ("running", "done")
    data = analysed(server.base, table_id, 1)
    record = GameRecord.from_json(api.call("GET", f"/api/tables/{table_id}/record"))
    assert data == analyse(record, 1, default_budget("lama"), seed=0).to_json()
    assert analysis(server.base, table_id, 1, "POST") == (200, {"status": "done", "analysis": data})
    assert analysis(server.base, table_id, 0) == (200, {"status": "none"})  # one seat's analysis is not another's
    server.restart()
    assert analysis(server.base, table_id, 1) == (200, {"status": "done", "analysis": data})


@pytest.mark.slow  # long analyses, a kill and a restart
def test_the_server_answers_while_it_analyses(server: ServerProcess) -> None:
    api = Api(server.base)
    table_id = played_by_bots(api, "kamara", 4, {}, seed=77)
    status, answer = analysis(server.base, table_id, 2, "POST")
    assert (status, answer) == (202, {"status": "running"})
    assert request(server.base, "GET", "/healthz") == (200, {"status": "ok"})
    assert api.table(table_id)["status"] == "over"
    assert analysis(server.base, table_id, 2) == (202, {"status": "running"})  # still thinking, elsewhere
    assert analysed(server.base, table_id, 2)["seat"] == 2


def test_a_running_game_is_not_analysed(server: ServerProcess) -> None:
    api = Api(server.base)
    created = api.seated("lama", 2, bots={1: "heuristic"}, seed=5)
    for method in ("GET", "POST"):
        status, answer = analysis(server.base, created.id, 0, method)
        assert status == 409 and answer["error"]["code"] == "not_over", answer
        status, answer = analysis(server.base, created.id, 1, method)
        assert status == 409 and answer["error"]["code"] == "not_over", answer


def test_bad_requests_are_refused(server: ServerProcess) -> None:
    api = Api(server.base)
    table_id = played_by_bots(api, "lama", 2, {"end_score": 10}, seed=8)
    for seat in (2, -1, "x", None, True):
        for method in ("GET", "POST"):
            status, answer = analysis(server.base, table_id, seat, method)
            assert status == 400 and answer["error"]["code"] == "bad_request", (seat, method, answer)
    assert api.refused("GET", "/api/tables/no-such-table/analysis?seat=0") == (404, "no_table")
    assert api.refused("POST", "/api/tables/no-such-table/analysis", {"seat": 0}) == (404, "no_table")


@pytest.mark.slow  # long analyses, a kill and a restart
def test_an_analysis_cut_short_by_a_kill_is_made_after_a_restart(server_factory: Callable[..., ServerProcess]) -> None:
    """The killed process's claim of the analysis stays in the store: it runs out, and the analysis asked again
    after the restart is made."""
    server = server_factory()
    api = Api(server.base)
    table_id = played_by_bots(api, "kamara", 4, {}, seed=77)
    assert analysis(server.base, table_id, 2, "POST") == (202, {"status": "running"})
    until(lambda: _claimed(server), "the analysis was not claimed", timeout=10)
    server.kill()
    server.start()
    status, answer = analysis(server.base, table_id, 2, "POST")
    assert (status, answer["status"]) == (202, "running")
    assert analysed(server.base, table_id, 2)["seat"] == 2
    assert not _claimed(server)


def _claimed(server: ServerProcess) -> bool:
    con = sqlite3.connect(f"file:{server.db_path}?mode=ro", uri=True, timeout=10)
    try:
        return con.execute("SELECT count(*) FROM laro_analysis_claims").fetchone()[0] > 0
    finally:
        con.close()
