"""The batched engine is the scalar engine: given the same deals, every batched game is the scalar game."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from laro.core import IllegalActionError, OptionError
from laro.games.lama import DRAW, GAME, QUIT
from laro.games.lama.cards import NUM_KINDS, NUM_PARTY_KINDS, PARTY_COPIES, PINK, PLUS, count_of
from laro.games.lama.party import PartyLamaState
from laro.games.lama.state import LamaState, deal_round
from laro.rl.spec import Table
from laro.rl.vector import Deal, Dealer, VectorLama, numpy_dealer

BASE_SEED = 1000


def scalar_dealer(num_players: int, party: bool = False) -> Dealer:
    """The scalar engine's deals: game ``g`` of the batch is the scalar game of seed ``BASE_SEED + g``."""
    kinds, cards = (NUM_PARTY_KINDS, PartyLamaState.cards) if party else (NUM_KINDS, LamaState.cards)

    def deal(games: npt.NDArray[np.int64], rounds: npt.NDArray[np.int64]) -> Deal:
        hands = np.zeros((len(games), num_players, kinds), dtype=np.int8)
        rests, starters = [], []
        for i, (game, round_number) in enumerate(zip(games.tolist(), rounds.tolist(), strict=True)):
            packed, rest, starter = deal_round(BASE_SEED + game, round_number, num_players, cards)
            for seat, hand in enumerate(packed):
                hands[i, seat] = [count_of(hand, card) for card in range(kinds)]
            rests.append(rest)
            starters.append(starter)
        return hands, np.array(rests, dtype=np.int8), np.array(starters, dtype=np.int64)

    return deal


PARTY = {"edition": "party"}


@pytest.mark.parametrize(
    ("players", "options", "seed", "policy"),
    [
        (2, {}, 2, "random"),
        (3, {"next_round_starter": "ended_round"}, 3, "random"),
        (4, {"end_score": 25}, 4, "eager"),
        (5, {}, 5, "eager"),
        (6, {"token_supply": "boxed"}, 6, "random"),
        (2, PARTY, 12, "random"),
        (2, {**PARTY, "end_score": 100}, 22, "eager"),
        (3, {**PARTY, "next_round_starter": "ended_round"}, 13, "random"),
        (4, PARTY, 14, "eager"),
        (4, {**PARTY, "end_score": 60}, 24, "random"),
        (5, {**PARTY, "token_supply": "boxed"}, 15, "eager"),
        (6, {**PARTY, "end_score": 25}, 16, "random"),
        (6, PARTY, 26, "eager"),
    ],
)
def test_every_batched_game_is_the_scalar_game(
    players: int, options: dict[str, object], seed: int, policy: str
) -> None:
    batch = 48
    party = options.get("edition") == "party"
    engine = VectorLama(batch, players, options=options, dealer=scalar_dealer(players, party))
    table = Table("lama", players, options)  # the environments' encoding and mask of this edition
    obs, mask = engine.reset()
    assert obs.shape == (batch, table.observation_size) and mask.shape == (batch, table.num_actions)
    states: list[LamaState] = [GAME.new_game(players, seed=BASE_SEED + g, options=options) for g in range(batch)]
    next_game = batch
    rng = np.random.default_rng(seed)
    finished = 0
    seen: Counter[str] = Counter()  # the Party Edition's rules that came up
    for _ in range(300):
        for g, state in enumerate(states):
            seat = state.current_player
            assert seat is not None and engine.current[g] == seat
            assert mask[g].tolist() == table.mask(state).astype(bool).tolist()
            assert np.array_equal(obs[g], table.encode(state, seat))
            assert engine.scores[g].tolist() == list(state.scores)
        actions = engine.random_actions(rng) if policy == "random" else eager_actions(mask, rng)
        obs, mask, rewards, done = engine.step(actions)
        for g in range(batch):
            before = states[g]
            after = before.apply(int(actions[g]))
            _count_party_rules(seen, before, after, int(actions[g]))
            assert bool(done[g]) == after.is_over
            if after.is_over:
                share = [1 / len(after.winners) if s in after.winners else 0.0 for s in range(players)]
                assert rewards[g].tolist() == pytest.approx(share)
                assert engine.final_scores[g].tolist() == list(after.scores)
                after = GAME.new_game(players, seed=BASE_SEED + next_game, options=options)
                next_game += 1
                finished += 1
            else:
                assert not rewards[g].any()
            states[g] = after
    assert finished >= batch and engine.games_finished == finished
    if party:  # every rule of the edition came up, many times over: random play keeps the pink llama in hands
        # more often, eager play empties hands and returns pink tokens
        assert min(seen["another turn"], seen["pink llama played"]) >= 10, seen
        assert seen["pink llama held" if policy == "random" else "pink token returned"] >= 10, seen


def eager_actions(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """Mostly a card when one may be played (drawing and quitting 50 times less likely than each play), so that
    hands are emptied and tokens returned far more often than by random actions."""
    weights = mask * np.where(np.isin(np.arange(mask.shape[1]), (DRAW.index, QUIT.index)), 1.0, 50.0)
    cumulative = weights.cumsum(axis=1)
    chosen: npt.NDArray[np.int64] = (cumulative < rng.random(len(mask))[:, None] * cumulative[:, -1:]).sum(axis=1)
    return chosen


def _count_party_rules(seen: Counter[str], before: LamaState, after: LamaState, action: int) -> None:
    card = GAME.action_from_index(action).card
    if card is not None and PLUS <= card < PINK and after.round == before.round and not after.is_over:
        seen["another turn"] += after.current_player == before.current_player
    seen["pink llama played"] += card == PINK
    result = after.last_round
    if result is not None and result is not before.last_round:
        seen["pink llama held"] += sum(count_of(hand, PINK) for hand in result.hands)
        seen["pink token returned"] += result.returned == 20


@pytest.mark.parametrize("options", [{}, PARTY])
def test_an_illegal_action_is_refused_and_changes_nothing(options: dict[str, object]) -> None:
    engine = VectorLama(4, 3, seed=2, options=options)
    _, mask = engine.reset()
    before = engine.hands.copy(), engine.current.copy()
    actions = np.argmax(mask, axis=1)
    actions[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(IllegalActionError, match="not legal in game 2; its legal action indices are"):
        engine.step(actions)
    actions[2] = engine.num_actions  # past the edition's actions
    with pytest.raises(IllegalActionError, match=f"action {engine.num_actions} is not legal in game 2"):
        engine.step(actions)
    with pytest.raises(IllegalActionError, match="one action per game"):
        engine.step(actions[:3])
    assert np.array_equal(engine.hands, before[0]) and np.array_equal(engine.current, before[1])


def test_the_classic_game_has_no_party_actions() -> None:
    engine = VectorLama(4, 3, seed=2)
    engine.reset()
    with pytest.raises(IllegalActionError, match="action 15 is not legal in game 0"):
        engine.step(np.full(4, 15))


@pytest.mark.parametrize(("options", "copies"), [({}, [8] * NUM_KINDS), (PARTY, list(PARTY_COPIES))])
def test_the_default_dealer_deals_whole_decks(options: dict[str, object], copies: list[int]) -> None:
    engine = VectorLama(64, 5, seed=3, options=options)
    engine.reset()
    kinds = len(copies)
    cards = engine.hands.sum(axis=1) + np.stack([np.bincount(d, minlength=kinds) for d in engine.deck])
    assert (cards == copies).all() and (engine.sizes == 6).all()


def test_the_batched_engine_refuses_bad_options() -> None:
    with pytest.raises(OptionError, match="edition"):
        VectorLama(4, 3, options={"edition": "deluxe"})
    with pytest.raises(OptionError, match="2 to 6 players"):
        VectorLama(4, 7, options=PARTY)
    with pytest.raises(OptionError, match="unknown option"):
        VectorLama(4, 3, options={"colour": "red"})


@pytest.mark.parametrize("options", [{}, PARTY])
def test_each_step_returns_new_arrays_that_later_steps_leave_alone(options: dict[str, object]) -> None:
    engine = VectorLama(16, 3, seed=4, options=options)
    rng = np.random.default_rng(4)
    returned = [engine.reset()]
    kept = [tuple(part.copy() for part in returned[0])]
    for _ in range(40):
        step = engine.step(engine.random_actions(rng))
        returned.append(step)
        kept.append(tuple(part.copy() for part in step))
    for before, now in zip(kept, returned, strict=True):
        assert all(np.array_equal(a, b) for a, b in zip(before, now, strict=True))  # unchanged by later steps
    assert len({id(step[0]) for step in returned}) == len(returned)


@pytest.mark.parametrize(("options", "copies"), [({}, [8] * NUM_KINDS), (PARTY, list(PARTY_COPIES))])
def test_the_default_dealer_shuffles_evenly(options: dict[str, object], copies: list[int]) -> None:
    """Over 6,000 decks dealt in bulk, every position holds each card kind as often as its copies say (a
    chi-squared test at each position), and every seat starts equally often."""
    deal = numpy_dealer(4, seed=9, edition=str(options.get("edition", "classic")), bulk=1000)
    decks, starters = [], []
    for _ in range(60):  # 100 games a call: the pool is refilled six times
        hands, rest, starter = deal(np.arange(100), np.ones(100, dtype=np.int64))
        assert (hands.sum(axis=2) == 6).all()
        decks.append(rest)
        starters.append(starter)
    rest_cards = np.concatenate(decks)
    expected = np.array(copies) / sum(copies) * len(rest_cards)
    for position in range(rest_cards.shape[1]):
        seen = np.bincount(rest_cards[:, position], minlength=len(copies))
        assert ((seen - expected) ** 2 / expected).sum() < 45  # chi-squared, 13 degrees of freedom at most
    assert np.bincount(np.concatenate(starters), minlength=4).min() > 1350  # 1,500 each


@pytest.mark.parametrize("options", [{}, PARTY])
def test_a_step_moves_only_the_active_games_and_a_restart_deals_new_ones(options: dict[str, object]) -> None:
    engine = VectorLama(12, 4, seed=8, options=options)
    obs, mask = engine.reset()
    rng = np.random.default_rng(8)
    active = np.arange(12) % 3 == 0
    kept = [part.copy() for part in (engine.hands, engine.current, engine.deck, engine.draw_pos, obs, mask)]
    actions = np.where(active, engine.random_actions(rng), 99)  # the others' actions are not even read
    obs, mask, _, _ = engine.step(actions, active=active)
    now = (engine.hands, engine.current, engine.deck, engine.draw_pos, obs, mask)
    for before, after in zip(kept, now, strict=True):
        assert np.array_equal(before[~active], after[~active])
    assert not np.array_equal(kept[4][active], obs[active])
    numbers = engine.game_number.copy()
    obs, mask = engine.restart(np.array([1, 5]))
    assert (engine.game_number[[1, 5]] > numbers.max()).all() and (engine.sizes[[1, 5]] == 6).all()
    assert (engine.scores[[1, 5]] == 0).all() and (engine.round[[1, 5]] == 1).all()


def _placed(state: LamaState, kinds: int) -> dict[str, Any]:
    """A scalar position as the arguments of ``VectorLama.place``."""
    return {
        "hands": [[count_of(hand, card) for card in range(kinds)] for hand in state.hands],
        "deck": list(state.deck),
        "drawn": state.draw_pos,
        "discard": np.bincount(state.discard, minlength=kinds),
        "top": state.discard[-1],
        "quit_bits": state.quit_mask,
        "current": state.current_player,
        "starter": state.starter,
        "last_player": -1 if state.last_player is None else state.last_player,
        "scores": list(state.scores),
        "rounds": state.round,
    }


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, PARTY), (5, {**PARTY, "end_score": 25})])
def test_a_position_placed_mid_round_plays_on_as_the_scalar_game(players: int, options: dict[str, object]) -> None:
    """Scalar games walked some way into a round (a later round, some seats quit) are placed into some rows of the
    batch: each placed row has the scalar state's observation and mask, and played on in lockstep it ends its round
    with the scalar game's totals. The rows not placed are left as they were."""
    engine = VectorLama(24, players, seed=5, options=options)
    table = Table("lama", players, options)
    engine.reset()
    rng = np.random.default_rng(players)
    states: list[LamaState] = []
    for seed in range(8):
        state = GAME.new_game(players, seed=50 + seed, options=options)
        for _ in range(int(rng.integers(30, 90))):
            after = state.apply(int(rng.choice(np.flatnonzero(table.mask(state)))))
            if after.is_over:
                break
            state = after
        states.append(state)
    assert any(state.round > 1 for state in states) and any(state.quit_mask for state in states)
    games = rng.permutation(24)[:8]
    others = np.setdiff1d(np.arange(24), games)
    kept = engine.hands[others].copy(), engine.deck[others].copy(), engine.obs[others].copy()
    kinds = engine.kinds
    rows = [_placed(state, kinds) for state in states]
    obs, mask = engine.place(games, **{name: np.array([row[name] for row in rows]) for name in rows[0]})
    assert np.array_equal(engine.hands[others], kept[0]) and np.array_equal(engine.deck[others], kept[1])
    assert np.array_equal(obs[others], kept[2])
    playing = list(range(8))
    for _ in range(200):
        for i in playing:
            seat = states[i].current_player
            assert seat is not None and engine.current[games[i]] == seat
            assert np.array_equal(obs[games[i]], table.encode(states[i], seat))
            assert mask[games[i]].tolist() == table.mask(states[i]).astype(bool).tolist()
        actions = engine.random_actions(rng)
        active = np.isin(np.arange(24), games[playing])
        rounds = engine.round.copy()
        obs, mask, _, done = engine.step(actions, active=active)
        for i in list(playing):
            g = games[i]
            states[i] = states[i].apply(int(actions[g]))
            if engine.round[g] != rounds[g] or done[g]:  # the round is over: the same totals
                totals = engine.final_scores[g] if done[g] else engine.scores[g]
                assert totals.tolist() == list(states[i].scores)
                playing.remove(i)
        if not playing:
            break
    assert not playing


def test_a_position_that_cannot_be_is_refused_and_changes_nothing() -> None:
    engine = VectorLama(4, 3, seed=6)
    engine.reset()
    state = GAME.new_game(3, seed=6).apply(DRAW.index)
    good = _placed(state, engine.kinds)
    kept = engine.hands.copy(), engine.current.copy(), engine.obs.copy()
    wrong = {
        "hands": ([[1, 2]], "one row per game or one for all"),
        "current": (state.starter + 7, "seats are from 0 to 2"),
        "quit_bits": (1 << good["current"], "the player to move has not quit"),
        "drawn": (0, "drawn is from 1"),
        "top": ((state.discard[-1] + 1) % engine.kinds, "the top card is in the discard pile"),
    }
    for name, (value, said) in wrong.items():
        with pytest.raises(OptionError, match=said):
            engine.place(np.array([0, 2]), **{**good, name: value})
    with pytest.raises(OptionError, match="indices below 4"):
        engine.place(np.array([4]), **good)
    assert np.array_equal(engine.hands, kept[0]) and np.array_equal(engine.current, kept[1])
    assert np.array_equal(engine.obs, kept[2])
    obs, _ = engine.place(np.array([0, 2]), **good)
    assert np.array_equal(obs[2], Table("lama", 3, {}).encode(state, state.current_player))
