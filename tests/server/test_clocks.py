"""Turn clocks as table events with injected times (no sleeping): banks and increments, a Kamara turn of several
actions as one turn, time-outs and stand-ins, away seats, taking a seat back, hand-overs, the pause at a round's
end, resuming after a restart, and tables abandoned to their bots. Every table is also rebuilt from its log, so the
clocks are what the events say."""

from __future__ import annotations

from typing import Any

import pytest

from laro.server.clocks import ClockError, Clocks, clock_spec
from laro.server.errors import Refusal
from laro.server.store import StoredTable
from laro.server.table import Event, Table, commands, create, make_bot_event, views

T0 = 1_800_000_000.0


class Play:
    """A table driven by events stamped with chosen times, as the hub stamps them."""

    def __init__(self, table: Table, tokens: dict[int, str]) -> None:
        self.table, self.tokens, self.events = table, tokens, []

    def do(self, event: Event | None, at: float) -> None:
        assert event is not None
        self.table.apply(event, T0 + at)
        self.events.append({**event.to_json(), "time": T0 + at})  # as the hub stores it

    def act(self, at: float, action: str | None = None) -> None:
        table = self.table
        seat = table.state.current_player
        assert seat is not None
        text = action or str(table.state.legal_actions()[-1])
        self.do(commands.act(table, seat, text, table.seq, now=T0 + at), at)

    def remaining(self, seat: int, at: float) -> float | None:
        return self.table.clocks.remaining(seat, T0 + at)

    def rebuilt(self) -> Table:
        """The same table from its stored log: it must agree with the live one."""
        again = Table.restore(StoredTable(self.table.meta, list(self.events)))
        assert views.clock_summary(again) == views.clock_summary(self.table)
        seats = [{**seat.public(), "connected": None} for seat in again.seats]  # connections are not in the log
        assert seats == [{**seat.public(), "connected": None} for seat in self.table.seats]
        return again


def _table(game: str = "lama", players: int = 2, clock: object = "fast", **kwargs: Any) -> Play:
    table, tokens = create(game, players, {}, {}, created=T0, seed=5, table_id="t", clock=clock, **kwargs)
    play = Play(table, tokens)
    for seat, token in tokens.items():
        play.do(commands.join(table, seat, token, f"P{seat}"), 0.0)
    return play


def test_profiles_and_custom_figures() -> None:
    assert (clock_spec("normal").bank, clock_spec("normal").increment) == (180.0, 10.0)
    assert clock_spec("daily").per_turn == 86400.0 and clock_spec("none").bank is None
    assert clock_spec({"per_turn": 3600}).per_turn == 3600.0
    for bad in ("blitz", {"bank": 1}, {"bank": 60, "per_turn": 60}, {"bank": "60"}, {"increment": 5}, 7, {"x": 1}):
        with pytest.raises(ClockError):
            clock_spec(bad)
    with pytest.raises(Refusal, match="no clock"):
        create("lama", 2, {}, {}, created=T0, clock="blitz")


def test_the_default_clock_follows_the_number_of_people() -> None:
    several, _ = create("lama", 3, {}, {2: "random"}, created=T0)
    alone, _ = create("lama", 3, {}, {1: "random", 2: "random"}, created=T0)
    assert several.clocks.spec.name == "normal" and alone.clocks.spec.name == "none"


def test_a_turn_costs_its_time_and_earns_the_increment() -> None:
    play = _table(clock={"bank": 60, "increment": 5})
    first = play.table.state.current_player
    assert play.table.clocks.turn_seat == first and play.table.clocks.deadline() == T0 + 60
    play.act(20.0)
    other = play.table.state.current_player
    if other != first:  # the turn passed on: 60 - 20 + 5
        assert play.remaining(first, 30.0) == 45.0
        assert play.table.clocks.turn_seat == other and play.remaining(other, 30.0) == 50.0
    play.rebuilt()


def test_kamara_s_turn_of_several_actions_is_one_turn() -> None:
    play = _table("kamara", 2, clock={"bank": 100, "increment": 10})
    table = play.table
    at = 0.0
    while table.state.observation(0).get("phase") != "play":  # setup: one placement a turn
        at += 1
        play.act(at)
    seat = table.state.current_player
    assert seat is not None
    start, bank = table.clocks.turn_started, table.clocks.banks[seat]
    steps = 0
    while table.state.current_player == seat:
        at += 2
        play.act(at, _a_move(table))
        steps += 1
        if table.state.current_player == seat:  # still its turn: no increment yet, the same deadline
            assert table.clocks.deadline() == start + bank
    assert steps >= 2
    assert table.clocks.banks[seat] == pytest.approx(bank - (T0 + at - start) + 10)
    play.rebuilt()


def _a_move(table: Table) -> str:
    legal = [str(a) for a in table.state.legal_actions()]
    moves = [a for a in legal if a.startswith("move")]
    return moves[0] if moves else legal[-1]


def test_a_time_out_lets_the_stand_in_play_then_two_hand_the_seat_over() -> None:
    play = _table(clock={"bank": 30, "increment": 0})
    table = play.table
    seat = table.state.current_player
    assert seat is not None
    assert commands.timeout(table, T0 + 29.9) is None
    play.do(commands.timeout(table, T0 + 30.0), 30.0)
    assert table.bot_to_move() == "heuristic" and table.seats[seat].public()["away"] is True
    assert table.clocks.turn_seat is None  # nobody's clock runs while the stand-in plays
    assert table.log[-1]["text"] == f"P{seat} ran out of time — the heuristic bot played for them"
    with pytest.raises(Refusal) as refused:
        commands.act(table, seat, str(table.state.legal_actions()[0]), table.seq, now=T0 + 31)
    assert refused.value.code == "not_joined"
    at = 31.0
    while table.state.current_player == seat:  # the stand-in plays the rest of the turn
        play.do(make_bot_event(table), at)
    assert not table.seats[seat].away and table.seats[seat].public()["handed"] is False
    # the next time, its small bank (30 s grace) runs out again: now the seat is handed over
    while table.state.current_player != seat:
        at += 1
        play.act(at)
    assert table.clocks.turn_seat == seat and table.clocks.banks[seat] == 30.0
    play.do(commands.timeout(table, T0 + at + 30), at + 30)
    assert table.seats[seat].away and table.seats[seat].public()["handed"] is True
    # joining again takes the seat back, with a fresh small bank
    play.do(commands.join(table, seat, play.tokens[seat], f"P{seat}"), at + 40)
    assert not table.seats[seat].away and table.seats[seat].public()["away"] is False
    assert table.clocks.banks[seat] == 30.0
    play.rebuilt()


def test_others_hand_an_away_seat_over_and_a_table_of_stand_ins_ends() -> None:
    play = _table(players=3, clock={"bank": 30, "increment": 0})
    table = play.table
    with pytest.raises(Refusal, match="is here"):
        for seat in table.seats:
            seat.connections = 1
        commands.hand_over(table, 1, play.tokens[0], now=T0)
    for seat in table.seats:  # all gone since T0
        seat.connections, seat.disconnected_since = 0, T0
    with pytest.raises(Refusal, match="gone for 59 s") as refused:
        commands.hand_over(table, 1, play.tokens[0], now=T0 + 59.0)  # a page reloading comes back by then
    assert refused.value.code == "too_soon"
    play.do(commands.hand_over(table, 1, play.tokens[0], now=T0 + 60.0), 60.0)
    assert table.seats[1].away and "P0 handed P1's seat to the heuristic bot" in table.log[-1]["text"]
    with pytest.raises(Refusal):
        commands.hand_over(table, 0, play.tokens[0], now=T0 + 60.0)  # one's own seat: use "bot"
    assert not table.abandoned()
    for seat in (0, 2):
        play.do(commands.hand_over(table, seat, play.tokens[1 if seat == 0 else 0], now=T0 + 61.0), 61.0 + seat)
    assert table.abandoned()
    play.do(commands.end(table, "abandoned"), 70.0)
    assert table.status == "abandoned" and table.over and table.bot_to_move() is None
    play.rebuilt()


def test_a_restart_charges_nobody_for_the_outage() -> None:
    play = _table(clock={"bank": 60, "increment": 0})
    table = play.table
    seat = table.clocks.turn_seat
    assert seat is not None
    # the server died some time after the turn began and came back 500 s later: the turn starts again
    play.do(commands.resume(table), 500.0)
    assert table.clocks.deadline() == T0 + 560.0 and play.remaining(seat, 500.0) == 60.0
    assert table.log[-1]["type"] == "resume"
    play.rebuilt()


def test_a_resume_gives_at_least_a_grace() -> None:
    clocks = Clocks(clock_spec({"bank": 60, "increment": 0}), 2)
    clocks.start_turn(0, at=0.0)
    clocks.charge(at=59.0)
    clocks.resume(at=100.0)
    assert clocks.banks[0] == 30.0 and clocks.deadline() == 130.0


def test_the_end_of_a_round_pauses_the_clocks_until_everyone_is_ready() -> None:
    play = _table(players=2, clock={"bank": 600, "increment": 0}, round_pause=8.0)
    table = play.table
    at = 0.0
    round_before = table.state.round
    while table.state.round == round_before:
        at += 1
        play.act(at)
    end = at
    assert table.paused(T0 + end + 1) and table.log[-1]["round_over"] == round_before
    with pytest.raises(Refusal) as refused:
        play.act(end + 1)
    assert refused.value.code == "paused"
    seat = table.clocks.turn_seat
    assert seat is not None and table.clocks.deadline() == T0 + end + 8 + table.clocks.banks[seat]
    for s in table.seats:
        s.connections = 1
    play.do(commands.ready(table, 0, T0 + end + 2), end + 2)
    assert table.paused(T0 + end + 3)  # one of two is ready
    play.do(commands.ready(table, 1, T0 + end + 3), end + 3)
    assert not table.paused(T0 + end + 3.01)  # everyone is: the next round starts now
    assert table.clocks.deadline() == T0 + end + 3 + table.clocks.banks[seat]
    with pytest.raises(Refusal):
        commands.ready(table, 0, T0 + end + 4)
    play.act(end + 4)
    play.rebuilt()


def test_bots_are_never_timed() -> None:
    table, tokens = create("lama", 2, {}, {1: "random"}, created=T0, seed=5, clock="fast")
    play = Play(table, tokens)
    play.do(commands.join(table, 0, tokens[0], "Ana"), 0.0)
    at = 0.0
    for _ in range(30):
        if table.state.current_player == 1:
            assert table.clocks.turn_seat is None and commands.timeout(table, T0 + 10**6) is None
            at += 1
            play.do(make_bot_event(table), at)
        elif table.state.current_player == 0:
            at += 1
            play.act(at)
        else:
            break
    play.rebuilt()


def test_kamara_s_rounds_do_not_pause() -> None:
    """Only a scored round (L.A.M.A.'s) is shown and paused at its end; Kamara's rounds are turns around the table."""
    play = _table("kamara", 2, clock="none", round_pause=8.0)
    table, at = play.table, 0.0
    start_round = table.state.round
    while table.state.round == start_round and not table.over:
        at += 1
        play.act(at, _a_move(table))
    assert table.state.round != start_round
    assert not table.paused(T0 + at + 1) and "round_over" not in table.log[-1]


def test_the_summary_says_when_the_stand_in_takes_over_an_absent_seat() -> None:
    """The seat to act has no connection: its stand-in takes over at the end of its time, or ``away_after``
    seconds after its connection went, whichever comes first; nobody's, once the seat has a connection."""
    play = _table(clock={"bank": 300, "increment": 0})
    seat = play.table.clocks.turn_seat
    assert seat is not None and play.table.seats[seat].disconnected_since == T0
    assert views.clock_summary(play.table)["standin_at"] == T0 + play.table.away_after  # 120 s before 300 s
    play.table.away_after = 600.0
    assert views.clock_summary(play.table)["standin_at"] == play.table.clocks.deadline() == T0 + 300
    play.table.seats[seat].disconnected_since = None  # connected
    assert views.clock_summary(play.table)["standin_at"] is None
