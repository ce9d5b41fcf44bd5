"""The table keeps no clock: every time it needs is given to it. Its events in their stored form, and its clocks,
expiry, pauses and hand-overs at chosen moments (no sleeping), on the table alone and through the hub with its
clock in the test's hands, a restart of the hub included."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from laro.core import JSONDict
from laro.server.errors import Damaged, Refusal
from laro.server.hub import Hub, absent_to_act, next_wake
from laro.server.store import SQLiteStore, StoredTable, TableMeta
from laro.server.table import Event, Table, commands, create, event_from_json, make_bot_event, views
from laro.server.table.events import Act, Away, EventError, Join, Ready, Undo

T0 = 1_800_000_000.0
STORED = json.loads((Path(__file__).parent / "data" / "stored_tables.json").read_text())


class Clock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_every_stored_event_reads_back_to_the_same_json() -> None:
    for entry in STORED:
        for stored in entry["events"]:
            event = event_from_json(stored)
            assert event.to_json() == {key: value for key, value in stored.items() if key != "time"}
            assert event_from_json(event.to_json()) == event


@pytest.mark.parametrize(
    "bad",
    [
        {"seq": 1, "type": "dance", "seat": 0},
        {"seq": 1, "type": "join", "seat": 0},
        {"seq": 1, "type": "join", "seat": "0", "name": "Ana"},
        {"seq": 1, "type": "join", "seat": True, "name": "Ana"},
        {"seq": "1", "type": "leave", "seat": 0},
        {"seq": 2, "type": "undo", "seat": 0, "kind": "step", "undone": ["1"]},
        {"seq": 2, "type": "away", "seat": 0, "reason": "handed", "by": "1"},
    ],
)
def test_an_event_that_is_not_one_is_refused_and_a_log_holding_it_is_damaged(bad: JSONDict) -> None:
    with pytest.raises(EventError):
        event_from_json(bad)
    table, _ = create("lama", 2, {}, {}, created=T0, seed=1, table_id="t")
    with pytest.raises(Damaged):
        table.apply_stored([bad])


def test_an_event_stored_without_its_time_happened_when_the_one_before_it_did() -> None:
    table, tokens = create("lama", 2, {}, {}, created=T0, seed=1, table_id="t", clock="fast")
    events = [{**commands.join(table, 0, tokens[0], "Ana").to_json(), "time": T0 + 5.0}]
    events.append({"seq": 2, "type": "join", "seat": 1, "name": "Bo"})  # no time
    table.apply_stored(events)
    assert table.updated == T0 + 5.0 and table.clocks.turn_started == T0 + 5.0


def _playing(clock: object = "fast", **options: Any) -> tuple[Table, dict[int, str]]:
    table, tokens = create("lama", 2, {}, {}, created=T0, seed=5, table_id="t", clock=clock, **options)
    for seat, token in tokens.items():
        table.apply(commands.join(table, seat, token, f"P{seat}"), T0)
    return table, tokens


def test_no_clock_is_read_by_a_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game played to its end, its views rendered, the table rebuilt: ``time.time`` is never called."""

    def no_clock() -> float:
        raise AssertionError("the table read the clock")

    monkeypatch.setattr(time, "time", no_clock)
    table, tokens = create("lama", 2, {}, {}, created=T0, seed=5, table_id="t", clock="fast", round_pause=8.0)
    stored: list[JSONDict] = []

    def play(event: Event, now: float) -> None:
        table.apply(event, now)
        stored.append({**event.to_json(), "time": now})

    for seat, token in tokens.items():
        play(commands.join(table, seat, token, f"P{seat}"), T0)
    now = T0
    while not table.over:
        now += 1.0
        to_act = table.state.current_player
        assert to_act is not None
        if table.paused(now):
            now = table.clocks.paused_until or now
        play(commands.act(table, to_act, str(table.state.legal_actions()[0]), table.seq, now), now)
        views.state_text(table, to_act, now)
    again = Table.restore(StoredTable(table.meta, stored))
    assert views.summary(again) == views.summary(table) and views.state_message(again, 0, now)["server_time"] == now


def test_a_clock_runs_out_exactly_at_its_deadline() -> None:
    table, _ = _playing(clock={"bank": 30, "increment": 0})
    seat = table.clocks.turn_seat
    assert seat is not None and table.clocks.deadline() == T0 + 30.0
    assert commands.timeout(table, T0 + 29.999) is None
    timeout = commands.timeout(table, T0 + 30.0)
    assert timeout is not None and timeout.seat == seat
    table.apply(timeout, T0 + 30.0)
    assert table.seats[seat].standing_in and table.bot_to_move() == table.seats[seat].standin
    assert commands.timeout(table, T0 + 10**6) is None  # the stand-in's turn is not timed


def _to_a_round_s_end(table: Table) -> float:
    """Play a second apart until a round ends; when it did."""
    now = T0
    while table.clocks.paused_until is None:
        now += 1.0
        seat = table.state.current_player
        assert seat is not None
        table.apply(commands.act(table, seat, str(table.state.legal_actions()[0]), table.seq, now), now)
    return now


def test_a_round_s_end_pauses_play_until_the_pause_is_over() -> None:
    """At a round's end nobody may act for ``round_pause`` seconds (unless all are ready sooner); the state says
    it is nobody's turn meanwhile, and the seat to act once it is over."""
    table, _ = _playing(clock="fast", round_pause=8.0)
    now = _to_a_round_s_end(table)
    until = now + 8.0
    assert table.clocks.paused_until == until and table.paused(until - 0.001) and not table.paused(until)
    seat = table.state.current_player
    assert seat is not None
    with pytest.raises(Refusal) as refused:
        commands.act(table, seat, str(table.state.legal_actions()[0]), table.seq, until - 0.001)
    assert refused.value.code == "paused"
    assert views.state_message(table, seat, until - 0.001)["your_turn"] is False
    assert views.state_message(table, seat, until)["your_turn"] is True
    assert views.clock_summary(table)["deadline"] == until + table.clocks.banks[seat]  # the clock waits for the pause
    commands.act(table, seat, str(table.state.legal_actions()[0]), table.seq, until)  # accepted once it is over
    with pytest.raises(Refusal, match="no round's end"):
        commands.ready(table, seat, until)


def test_everyone_ready_ends_the_pause_at_once() -> None:
    table, _ = _playing(clock="fast", round_pause=8.0)
    for seat in table.seats:
        seat.connections = 1
    now = _to_a_round_s_end(table)
    first = commands.ready(table, 0, now + 1.0)
    assert first == Ready(table.seq + 1, 0, last=False)
    table.apply(first, now + 1.0)
    last = commands.ready(table, 1, now + 2.0)
    assert last.last is True
    table.apply(last, now + 2.0)
    assert not table.paused(now + 2.0) and table.clocks.paused_until == now + 2.0


def test_a_table_expires_and_a_bots_table_runs_out_of_time_at_their_moments() -> None:
    waiting, _ = create("lama", 2, {}, {1: "random"}, created=T0, seed=1, table_id="w")
    assert not waiting.expired(T0 + 100.0, ttl=100.0) and waiting.expired(T0 + 100.001, ttl=100.0)
    bots, _ = create("lama", 2, {}, {0: "random", 1: "random"}, created=T0, seed=1, table_id="b")
    assert not bots.expired(T0 + 10**6, ttl=100.0)  # bots alone never wait for anyone
    assert not bots.bots_alone(T0 + 60.0, 60.0) and bots.bots_alone(T0 + 60.001, 60.0)
    bots.apply(commands.end(bots, "time_up"), T0 + 61.0)
    assert bots.status == "time_up" and not bots.bots_alone(T0 + 10**6, 60.0)
    with pytest.raises(Refusal) as over:
        make_bot_event(bots) if bots.bot_to_move() else commands.end(bots, "time_up")
    assert over.value.code == "game_over"


def test_a_gone_player_s_seat_may_be_handed_over_from_its_moment() -> None:
    table, tokens = _playing(clock="normal")
    gone = table.seats[1]
    gone.connections, gone.disconnected_since = 0, T0 + 10.0
    table.seats[0].connections = 1
    assert views.handover_at(table, 1) == T0 + 10.0 + table.handover_after
    with pytest.raises(Refusal) as early:
        commands.hand_over(table, 1, tokens[0], T0 + 10.0 + table.handover_after - 0.001)
    assert early.value.code == "too_soon"
    event = commands.hand_over(table, 1, tokens[0], T0 + 10.0 + table.handover_after)
    assert event == Away(table.seq + 1, 1, "handed", by=0)


def test_the_stand_in_takes_an_absent_seat_at_the_earlier_of_its_deadline_and_the_absence() -> None:
    table, _ = _playing(clock={"bank": 30, "increment": 0})
    seat = table.clocks.turn_seat
    assert seat is not None
    table.seats[seat].disconnected_since = T0 + 1.0
    table.away_after = 120.0
    assert views.standin_at(table) == T0 + 30.0  # its time runs out first
    table.away_after = 10.0
    assert views.standin_at(table) == T0 + 11.0


def test_at_a_daily_table_a_gone_player_keeps_their_seat_until_their_time_runs_out() -> None:
    """Players of a clock of days come and go between turns: nobody is taken for away, nor handed over, while
    their turn's time runs; once it has run out, the stand-in plays and the seat may be handed over."""
    table, tokens = _playing(clock="daily")
    seat = table.clocks.turn_seat
    assert seat is not None and table.clocks.spec.correspondence
    other = 1 - seat
    table.seats[seat].connections, table.seats[seat].disconnected_since = 0, T0 + 1.0
    table.seats[other].connections = 1
    hours_later = T0 + 10 * 3600.0
    assert absent_to_act(table, hours_later, away_after=120.0) is None
    assert next_wake(table, hours_later, away_after=120.0) == T0 + 86400.0 == views.standin_at(table)
    assert views.handover_at(table, seat) is None
    with pytest.raises(Refusal) as early:
        commands.hand_over(table, seat, tokens[other], hours_later)
    assert early.value.code == "too_soon" and "run out" in str(early.value)
    fast, _ = _playing(clock="normal")  # the same absence at a clock of minutes: away after 120 s
    fast.seats[0].connections, fast.seats[0].disconnected_since = 0, T0 + 1.0
    assert absent_to_act(fast, T0 + 121.0, away_after=120.0) == fast.clocks.turn_seat == 0


def test_typed_events_are_what_commands_make() -> None:
    table, tokens = create("kamara", 2, {}, {1: "heuristic"}, created=T0, seed=17, table_id="k")
    join = commands.join(table, 0, tokens[0], "\u202eAna ")
    assert join == Join(1, 0, "Ana")
    table.apply(join, T0)
    while table.bot_to_move() or table.state.current_player != 0:
        table.apply(make_bot_event(table), T0)
    moves = [str(a) for a in table.state.legal_actions() if str(a).startswith("move ")]
    if moves:  # a step a person may take back
        act = commands.act(table, 0, moves[0], table.seq, T0)
        assert isinstance(act, Act) and act.action == moves[0]
        table.apply(act, T0 + 1.0)
        assert commands.undo(table, 0, "step", table.seq) == Undo(table.seq + 1, 0, "step", (act.seq,))


def test_a_restart_in_the_middle_of_a_clock_charges_nobody(tmp_path: Path) -> None:
    """A seat's clock runs 2 s, the server stops, 3 s pass, it starts again: a ``resume`` event, the seat's whole
    bank back, and its deadline a full bank after the restart (the 2 s before and the 3 s outage not charged)."""

    async def main() -> None:
        clock = Clock()
        path = tmp_path / "laro.db"
        async with SQLiteStore(path) as store:
            hub = Hub(store, bot_delay=0.0, bot_workers=0, clock=clock, away_after=600.0)
            await hub.start()
            table, tokens = await hub.create("lama", 2, {}, {}, seed=34, clock={"bank": 30, "increment": 0})
            for seat, token in tokens.items():
                await hub.change(table.meta.id, lambda t, s=seat, k=token: commands.join(t, s, k, f"P{s}"))
            before = views.summary(table)
            seat = before["clock"]["running"]
            assert seat is not None and before["clock"]["deadline"] is not None
            clock.now += 2.0
            await hub.stop()
        clock.now += 3.0  # the outage
        restarted = clock.now
        async with SQLiteStore(path) as store:
            hub = Hub(store, bot_delay=0.0, bot_workers=0, clock=clock, away_after=600.0)
            await hub.start()
            try:
                after = await hub.get(table.meta.id)
                assert after is not None and after.seq > before["seq"]
                summary = views.summary(after)
                assert [entry["type"] for entry in after.log][-1] == "resume"
                assert summary["clock"]["running"] == seat and summary["clock"]["remaining"][seat] == 30
                assert summary["clock"]["deadline"] >= restarted + 29  # the 2 s before and the 3 s outage
                assert not any(entry["type"] == "timeout" for entry in after.log)
            finally:
                await hub.stop()

    asyncio.run(main())


def test_the_hub_stamps_each_event_with_its_own_clock(tmp_path: Path) -> None:
    async def main() -> None:
        clock = Clock()
        async with SQLiteStore(tmp_path / "laro.db") as store:
            hub = Hub(store, bot_delay=0.0, bot_workers=0, clock=clock)
            await hub.start()
            try:
                table, tokens = await hub.create("lama", 2, {}, {}, seed=3)
                clock.now += 12.5
                await hub.change(table.meta.id, lambda t: commands.join(t, 0, tokens[0], "Ana"))
                stored = await store.load(table.meta.id)
                assert isinstance(stored, StoredTable) and isinstance(stored.meta, TableMeta)
                assert stored.meta.created == T0
                assert stored.events == [{"seq": 1, "type": "join", "seat": 0, "name": "Ana", "time": T0 + 12.5}]
                assert views.summary(table)["updated"] == T0 + 12.5
            finally:
                await hub.stop()

    asyncio.run(main())
