"""Undo at a table without the server: refused exactly where it must be, and the state after an undo is the state
before the undone actions — for the rules module (:mod:`laro.server.undo`) and the table that applies it."""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest

from laro.core import JSONDict, get_game, traits_of
from laro.server.errors import Damaged, Refusal
from laro.server.store.base import StoredTable
from laro.server.table import Event, Table, commands, create, make_bot_event, views
from laro.server.table.events import Timeout
from laro.server.undo import Move, step_refusal, takeback_refusal, turn_back

KAMARA_STEPS = traits_of(get_game("kamara")).steps


class Played:
    """A table and every event applied to it, stamped with a time that moves on one second an event."""

    def __init__(
        self,
        game: str,
        players: int,
        bots: dict[int, str],
        takebacks: bool = False,
        options: dict[str, object] | None = None,
        clock: object = None,
    ) -> None:
        self.table, self.tokens = create(
            game, players, options or {}, bots, seed=17, table_id="t", created=0.0, clock=clock, takebacks=takebacks
        )
        self.events: list[JSONDict] = []
        self.now = 0.0
        for seat, token in self.tokens.items():
            self.apply(commands.join(self.table, seat, token, f"player {seat}"))

    def apply(self, event: Event) -> None:
        self.now += 1.0
        self.table.apply(event, self.now)
        self.events.append({**event.to_json(), "time": self.now})  # as the hub stores it

    def act(self, seat: int, action: str) -> None:
        self.apply(commands.act(self.table, seat, action, self.table.seq, now=self.now))

    def undo(self, seat: int, kind: str) -> None:
        self.apply(commands.undo(self.table, seat, kind, self.table.seq))

    def refusal(self, seat: int, kind: str) -> str:
        with pytest.raises(Refusal) as refused:
            commands.undo(self.table, seat, kind, self.table.seq)
        return refused.value.code

    def bots_play(self) -> None:
        while self.table.bot_to_move() and not self.table.over:
            self.apply(make_bot_event(self.table))

    def restored(self) -> Table:
        return Table.restore(StoredTable(self.table.meta, copy.deepcopy(self.events)))


def _word(action: str) -> str:
    return action.split(" ", 1)[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_kamara_action_of_a_game_is_undoable_exactly_when_it_revealed_nothing(seed: int) -> None:
    """A whole game with a person at seat 0 playing at random: after each of their actions a step back is
    offered and taken exactly when it was a move, port or poke and their turn goes on; taken, it gives back the
    state before it (hidden parts included), and the action is then played again."""
    played = Played("kamara", 2, {1: "random"}, options={"max_rounds": 12})
    table, rng = played.table, random.Random(seed)
    undone = refused = 0
    for _ in range(5000):
        if table.over:
            break
        if table.bot_to_move():
            played.apply(make_bot_event(table))
            continue
        legal = [str(action) for action in table.state.legal_actions()]
        text = rng.choice([action for action in legal if action != "end"] or legal)  # "end" from time to time
        if rng.random() < 0.1 and "end" in legal:
            text = "end"
        before = table.state.to_json()
        played.act(0, text)
        undoable = _word(text) in KAMARA_STEPS and table.state.current_player == 0
        assert views.undo_offer(table, 0)["step"] is undoable
        if undoable:
            played.undo(0, "step")
            assert table.state.to_json() == before
            assert table.log[-1]["type"] == "undo" and table.log[-1]["undone"] == [text]
            played.act(0, text)
            undone += 1
        else:
            assert played.refusal(0, "step") == "cannot_undo"
            refused += 1
    assert table.over and undone > 20 and refused > 20
    again = played.restored()
    assert again.state.to_json() == table.state.to_json() and again.actions() == table.actions()


def _to_play_phase(played: Played, seat: int = 0) -> None:
    """Play the setup (and any bot turns) until ``seat`` has its first turn of the play phase."""
    table = played.table
    for _ in range(100):
        if table.state.to_json()["phase"] == "play" and table.state.current_player == seat:
            return
        if table.bot_to_move():
            played.apply(make_bot_event(table))
        else:
            mover = table.state.current_player
            assert mover is not None
            played.act(mover, str(table.state.legal_actions()[0]))
    raise AssertionError("the play phase did not begin")


def _moves_of(table: Table) -> list[str]:
    return [str(a) for a in table.state.legal_actions() if _word(str(a)) == "move"]


def test_several_steps_go_back_to_the_turns_start_and_no_further() -> None:
    played = Played("kamara", 2, {1: "heuristic"})
    _to_play_phase(played)
    table = played.table
    start = table.state.to_json()
    assert played.refusal(0, "step") == "cannot_undo"  # nothing taken yet this turn
    for _ in range(3):
        played.act(0, _moves_of(table)[0])
    for _ in range(3):
        played.undo(0, "step")
    assert table.state.to_json() == start
    assert views.undo_offer(table, 0) == {
        "step": False,
        "step_refusal": "you have taken no step this turn",
        "step_why": {"code": "no_step", "action": None},
        "takeback": False,
        "takeback_refusal": "this table was created without takebacks",
        "takeback_why": {"code": "no_takebacks", "action": None},
    }
    assert played.refusal(0, "step") == "cannot_undo"


def test_no_step_back_for_another_seat_nor_past_another_seats_action() -> None:
    """Two people: the one not to act may not undo the other's step, and once the turn has passed nobody may
    undo the last turn's steps."""
    played = Played("kamara", 2, {})
    _to_play_phase(played)
    table = played.table
    played.act(0, _moves_of(table)[0])
    assert played.refusal(1, "step") == "cannot_undo"
    assert views.undo_offer(table, 1)["step_refusal"] == "a step can be taken back only during your own turn"
    played.act(0, "end")
    assert played.refusal(0, "step") == "cannot_undo"  # the turn is over
    assert played.refusal(1, "step") == "cannot_undo"  # seat 1 has taken nothing this turn
    assert played.refusal(0, "takeback") == "cannot_undo"  # a person plays the other seat


def test_a_step_is_refused_on_a_stale_state_and_for_a_stand_in() -> None:
    played = Played("kamara", 2, {1: "heuristic"}, clock={"bank": 100, "increment": 0})
    _to_play_phase(played)
    table = played.table
    played.act(0, _moves_of(table)[0])
    with pytest.raises(Refusal) as stale:
        commands.undo(table, 0, "step", table.seq - 1)
    assert stale.value.code == "stale_seq"
    with pytest.raises(Refusal) as unknown:
        commands.undo(table, 0, "redo", table.seq)
    assert unknown.value.code == "bad_request"
    played.apply(Timeout(table.seq + 1, seat=0))  # the stand-in plays the rest of the turn
    assert played.refusal(0, "step") == "not_joined"


def test_the_undone_time_is_not_given_back() -> None:
    played = Played("kamara", 2, {1: "heuristic"}, clock={"bank": 100, "increment": 0})
    _to_play_phase(played)
    table = played.table
    left = table.clocks.remaining(0, played.now)
    played.act(0, _moves_of(table)[0])
    played.undo(0, "step")
    assert table.clocks.turn_seat == 0
    assert table.clocks.remaining(0, played.now) == pytest.approx((left or 0) - 2.0)


def test_a_lama_action_is_never_a_step_but_a_takeback_goes_back_past_shown_cards() -> None:
    """In L.A.M.A. every action plays a card, draws one or passes the turn on: no step back. Against bots, with
    takebacks allowed, the person's last turn comes back, the bots' moves after it undone too."""
    played = Played("lama", 3, {1: "heuristic", 2: "heuristic"}, takebacks=True)
    table = played.table
    played.bots_play()
    assert views.undo_offer(table, 0)["takeback_refusal"] == "you have no turn to take back"
    for _ in range(4):
        if table.over or table.state.current_player != 0:
            break
        start, actions = table.state.to_json(), table.actions()
        played.act(0, str(table.state.legal_actions()[0]))
        assert played.refusal(0, "step") == "cannot_undo"
        played.bots_play()
        if table.over:
            break
        played.undo(0, "takeback")
        assert table.state.to_json() == start and table.actions() == actions
        assert table.log[-1]["kind"] == "takeback"
        played.act(0, [str(a) for a in table.state.legal_actions() if str(a) != "quit"][-1])  # another move
        played.bots_play()
    summary = views.summary(table)
    assert summary["practice"] is True and summary["takebacks_taken"] >= 3
    again = played.restored()
    assert again.state.to_json() == table.state.to_json()
    assert views.summary(again)["takebacks_taken"] == summary["takebacks_taken"]


def test_takebacks_need_the_tables_permission_and_bots_at_every_other_seat() -> None:
    without = Played("lama", 2, {1: "heuristic"})
    without.act(0, "draw") if without.table.state.current_player == 0 else without.bots_play()
    assert views.undo_offer(without.table, 0)["takeback_refusal"] == "this table was created without takebacks"
    people = Played("lama", 3, {2: "heuristic"}, takebacks=True)
    assert views.undo_offer(people.table, 0)["takeback_refusal"] == "takebacks are for games against bots only"
    handed = Played("lama", 2, {}, takebacks=True)  # a person's seat handed to a bot is still a person's
    handed.apply(commands.hand_to_bot(handed.table, 1, handed.tokens[1], "heuristic"))
    assert views.undo_offer(handed.table, 0)["takeback_refusal"] == "takebacks are for games against bots only"


def test_a_kamara_takeback_undoes_a_flip_and_the_bots_turn_after_it() -> None:
    played = Played("kamara", 2, {1: "random"}, takebacks=True)
    _to_play_phase(played)
    table, rng = played.table, random.Random(5)
    for _ in range(40):  # turns at random until one of them flips a tile
        start, flipped = table.state.to_json(), False
        while table.state.current_player == 0:
            legal = [str(a) for a in table.state.legal_actions()]
            choice = "flip" if "flip" in legal else rng.choice([a for a in legal if a != "end"] or legal)
            flipped |= choice == "flip"
            played.act(0, choice)
        played.bots_play()
        if flipped:
            break
    assert flipped and not table.over
    played.undo(0, "takeback")
    assert table.state.to_json() == start


def test_a_takeback_rebuilds_what_the_bots_remember() -> None:
    """A searching bot's reading follows the moves it saw; after a takeback it remembers exactly what it did at
    the start of the taken-back turn, none of the undone moves."""
    played = Played("lama", 3, {1: "easy", 2: "easy"}, takebacks=True)
    table = played.table
    for _ in range(3):  # a few turns, so the bots have something to remember
        played.bots_play()
        played.act(0, str(table.state.legal_actions()[0]))
    played.bots_play()
    remembered = {seat: json.dumps(repr(bot.memory)) for seat, bot in table.bots.held().items()}  # type: ignore[attr-defined]
    played.act(0, str(table.state.legal_actions()[0]))
    played.bots_play()
    assert any(json.dumps(repr(bot.memory)) != remembered[seat] for seat, bot in table.bots.held().items())  # type: ignore[attr-defined]
    played.undo(0, "takeback")
    assert {seat: json.dumps(repr(bot.memory)) for seat, bot in table.bots.held().items()} == remembered  # type: ignore[attr-defined]


def test_an_undo_event_that_does_not_fit_the_moves_in_force_is_refused() -> None:
    played = Played("kamara", 2, {1: "heuristic"})
    _to_play_phase(played)
    table = played.table
    played.act(0, _moves_of(table)[0])
    event = commands.undo(table, 0, "step", table.seq)
    event = dataclasses.replace(event, undone=(event.undone[0] - 1,))
    with pytest.raises(Damaged, match="names moves that are not the last in force"):
        table.apply(event, played.now)


def test_the_rules_of_undo_alone() -> None:
    bot_then_me = [
        Move(1, 1, "end", person=False, turn=0, bot="heuristic"),
        Move(2, 0, "move N", person=True, turn=1),
        Move(3, 0, "poke red e5", person=True, turn=1),
    ]
    assert step_refusal("kamara", bot_then_me, 0, 0) is None
    assert step_refusal("kamara", bot_then_me, 0, 1) == "a step can be taken back only during your own turn"
    assert step_refusal("kamara", bot_then_me[:1], 0, 0) == "you have taken no step this turn"
    stood_in = [*bot_then_me, Move(4, 0, "move S", person=False, turn=1, bot="heuristic")]
    assert step_refusal("kamara", stood_in, 0, 0) == "move S was played by a bot for you; it cannot be taken back"
    assert (why := step_refusal("kamara", stood_in, 0, 0)) is not None and why.to_json() == {
        "code": "stand_in",
        "action": "move S",
    }
    placed = [Move(1, 0, "diwa red e4", person=True, turn=0)]
    assert step_refusal("kamara", placed, 0, 0) == "you have taken no step this turn"
    assert step_refusal("lama", [Move(1, 0, "draw", person=True, turn=0)], 0, 0) == "you have taken no step this turn"
    assert [m.seq for m in turn_back(bot_then_me, 0)] == [2, 3]
    assert turn_back(bot_then_me, 1) == []  # a bot played seat 1: no person's turn to take back
    assert turn_back(bot_then_me[:1], 0) == []
    assert takeback_refusal(True, True, bot_then_me, 0) is None


def test_a_kamara_takeback_rebuilds_the_heuristic_bots_memory() -> None:
    played = Played("kamara", 2, {1: "heuristic"}, takebacks=True)
    _to_play_phase(played)
    table = played.table
    for _ in range(3):
        played.act(0, "end")
        played.bots_play()
    remembered = repr(table.bots.held()[1]._turns)  # type: ignore[attr-defined]
    played.act(0, "end")
    played.bots_play()
    assert repr(table.bots.held()[1]._turns) != remembered  # type: ignore[attr-defined]
    played.undo(0, "takeback")
    assert repr(table.bots.held()[1]._turns) == remembered  # type: ignore[attr-defined]
