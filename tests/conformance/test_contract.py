"""The contract every game keeps (docs/architecture.md, "The contract every game keeps"), checked for every
registered game.

Seeded random playouts of every allowed player count drive the checks. A new game joins automatically once it is
registered; it only has to say below (``HIDDEN``) which parts of its JSON state a seat may not see.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

import laro
from laro.core import (
    ComponentSource,
    Game,
    GameRecord,
    GameState,
    GameTraits,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    RoundedState,
    StateError,
    component_data,
    replay,
    round_of,
    traits_of,
)

GAMES = laro.list_games()
SEEDS = (1_000_003, 20_240_917, 987_654_321)  # large seeds are distinctive when scanning observations for the seed
MALFORMED_TEXTS = ("", "   ", "no such action", "\x00", "🦙🦙", "play play play", "42 42")


# -- what each game hides ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hidden:
    """Per game: what a seat may not see in the JSON state, what it may, and how to change only the former."""

    hidden: Callable[[dict[str, Any], int], list[Any]]  # values the seat must not learn
    visible: Callable[[dict[str, Any], int], dict[str, Any]]  # the state as that seat may know it
    perturb: Callable[[dict[str, Any], int, random.Random], dict[str, Any]]  # same state, other hidden parts


def _lama_hidden(data: dict[str, Any], seat: int) -> list[Any]:
    others = [hand for other, hand in enumerate(data["hands"]) if other != seat]
    return [*others, data["draw_pile"], data["seed"]]


def _lama_visible(data: dict[str, Any], seat: int) -> dict[str, Any]:
    shown = {key: value for key, value in data.items() if key not in ("hands", "draw_pile", "seed")}
    shown["hand"] = data["hands"][seat] if seat >= 0 else []  # seat -1: a spectator
    return shown


_LAMA_ORDER = ["1", "1+", "2", "2+", "3", "3+", "4", "4+", "5", "5+", "6", "6+", "L", "P"]  # how hands are sorted


def _lama_perturb(data: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Deal the cards of the other hands and the draw pile anew (same sizes) and change the seed."""
    data = copy.deepcopy(data)
    others = [other for other in range(data["num_players"]) if other != seat]
    pool = [card for other in others for card in data["hands"][other]] + data["draw_pile"]
    rng.shuffle(pool)
    for other in others:
        size = len(data["hands"][other])
        data["hands"][other], pool = sorted(pool[:size], key=_LAMA_ORDER.index), pool[size:]
    data["draw_pile"] = pool
    data["seed"] += 1 + rng.randrange(10**6)
    return data


_KAMARA_SECRET_KEYS = ("yellow", "green", "yellow_deck", "green_deck", "seed", "known", "pending")


def _kamara_mine(data: dict[str, Any], seat: int) -> dict[str, Any]:
    """The secret parts of a Kamara state that ``seat`` may know."""
    open_cards = data["options"]["open_cards"]
    mine: dict[str, Any] = {
        "yellow": [card if open_cards or other == seat else None for other, card in enumerate(data["yellow"])],
        "green": [card if open_cards or other == seat else None for other, card in enumerate(data["green"])],
        "known": data["known"][seat] if seat >= 0 else [],  # seat -1: a spectator
    }
    if data["current_player"] == seat and data["pending"] is not None:
        mine["pending"] = data["pending"]
        if data["pending"]["decision"] == "order":
            mine["order"] = data["yellow_deck"][: data["pending"]["count"]]
    return mine


def _kamara_hidden(data: dict[str, Any], seat: int) -> list[Any]:
    mine = _kamara_mine(data, seat)
    secrets = [data["yellow_deck"], data["green_deck"], data["seed"]]
    secrets += [card for card, seen in zip(data["yellow"], mine["yellow"], strict=True) if seen is None]
    secrets += [card for card, seen in zip(data["green"], mine["green"], strict=True) if seen is None]
    secrets += [known for other, known in enumerate(data["known"]) if other != seat]
    if data["pending"] is not None and "pending" not in mine:
        secrets.append(data["pending"].get("drawn", []))
    return secrets


def _kamara_visible(data: dict[str, Any], seat: int) -> dict[str, Any]:
    shown = {key: value for key, value in data.items() if key not in _KAMARA_SECRET_KEYS}
    shown.update(_kamara_mine(data, seat))
    return shown


def _kamara_perturb(data: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Shuffle every yellow and green card the seat cannot see among their places, and change the seed."""
    data = copy.deepcopy(data)
    mine = _kamara_mine(data, seat)
    pending = data["pending"]
    fixed_top = max(len(mine["known"]), len(mine.get("order", [])))
    places: list[tuple[list[Any], int]] = [(data["yellow_deck"], i) for i in range(fixed_top, len(data["yellow_deck"]))]
    places += [(data["yellow"], s) for s, card in enumerate(data["yellow"]) if card and mine["yellow"][s] is None]
    if pending is not None and "pending" not in mine and "drawn" in pending:
        places += [(pending["drawn"], i) for i in range(len(pending["drawn"]))]
    greens = [(data["green_deck"], i) for i in range(len(data["green_deck"]))]
    greens += [(data["green"], s) for s, card in enumerate(data["green"]) if card and mine["green"][s] is None]
    for group in (places, greens):
        values = [where[i] for where, i in group]
        rng.shuffle(values)
        for (where, i), value in zip(group, values, strict=True):
            where[i] = value
    data["known"] = [data["yellow_deck"][: len(known)] for known in data["known"]]
    data["seed"] += 1 + rng.randrange(10**6)
    return data


HIDDEN: dict[str, Hidden] = {
    "kamara": Hidden(_kamara_hidden, _kamara_visible, _kamara_perturb),
    "lama": Hidden(_lama_hidden, _lama_visible, _lama_perturb),
}

# Options every playout of a game uses, to keep the suite quick (a Kamara game between random players runs
# to the round cap, so the cap is lowered; the rules are the same in every round).
PLAYOUT_OPTIONS: dict[str, dict[str, Any]] = {"kamara": {"max_rounds": 12}}


def playout_options(name: str, options: str) -> dict[str, Any]:
    return {**PLAYOUT_OPTIONS.get(name, {}), **json.loads(options)}


# -- playouts ------------------------------------------------------------------------------------------------


def _option_variants(game: Game) -> list[dict[str, Any]]:
    """Each non-default value of every option with choices, and a small value of every whole-number option."""
    variants: list[dict[str, Any]] = []
    for spec in game.option_specs:
        if spec.choices is not None:
            variants += [{spec.name: choice} for choice in spec.choices if choice != spec.default]
        elif isinstance(spec.default, int) and not isinstance(spec.default, bool):
            usual = PLAYOUT_OPTIONS.get(game.name, {}).get(spec.name, spec.default)  # already lowered for speed?
            small = max(spec.minimum or 1, usual // 2)
            if small != spec.default:
                variants.append({spec.name: small})
    return variants


def _choose(state: GameState, rng: random.Random, policy: str) -> Any:
    legal = state.legal_actions()
    # "long" rarely takes the last listed action (a game's pass/quit, usually), so playouts reach deep states
    if policy == "long" and len(legal) > 1 and rng.random() < 0.9:
        return legal[rng.randrange(len(legal) - 1)]
    return legal[rng.randrange(len(legal))]


@cache
def playout(
    name: str, num_players: int, seed: int, policy: str = "uniform", options: str = "{}"
) -> tuple[tuple[GameState, ...], tuple[str, ...]]:
    """The states and action texts of one seeded random game (states[i + 1] = states[i].apply(actions[i]))."""
    game = laro.get_game(name)
    rng = random.Random(f"{name}:{num_players}:{seed}:{policy}:{options}")
    state = game.new_game(num_players, seed=seed, options=playout_options(name, options))
    states, actions = [state], []
    while not state.is_over:
        assert len(actions) < 20_000, "a random playout did not end"
        action = _choose(state, rng, policy)
        actions.append(str(action))
        state = state.apply(action)
        states.append(state)
    return tuple(states), tuple(actions)


def _cases() -> Iterator[Any]:
    """Every player count with each seed and a long game, and every option at the fewest and the most players;
    the plain run plays one seed of each count and each option at the fewest (the rest are marked slow)."""
    for name in GAMES:
        game = laro.get_game(name)
        for n in range(game.min_players, game.max_players + 1):
            for seed in SEEDS:
                marks = () if seed == SEEDS[0] else (pytest.mark.slow,)
                yield pytest.param(name, n, seed, "uniform", "{}", id=f"{name}-{n}p-s{seed}", marks=marks)
            yield pytest.param(name, n, SEEDS[0], "long", "{}", id=f"{name}-{n}p-long")
        for options in _option_variants(game):
            text = json.dumps(options, sort_keys=True)
            label = "-".join(f"{k}={v}" for k, v in options.items())
            for n in (game.min_players, game.max_players):
                marks = () if n == game.min_players else (pytest.mark.slow,)
                yield pytest.param(name, n, SEEDS[1], "long", text, id=f"{name}-{n}p-{label}", marks=marks)


CASES = list(_cases())


def js(state: GameState) -> dict[str, Any]:
    return state.to_json()


def texts(actions: Any) -> list[str]:
    return [str(action) for action in actions]


# -- the turn structure --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES)
def test_turn_structure(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """Legal actions exist until the end and not after; current_player is None iff over; winners only at the end."""
    states, _ = playout(name, n, seed, policy, options)
    for state in states[:-1]:
        assert not state.is_over and state.current_player in range(n)
        assert len(state.legal_actions()) > 0
        assert state.winners == ()
        assert len(state.scores) == n == state.num_players
        assert texts(state.legal_actions()) == texts(state.legal_actions())  # stable
        assert len(set(texts(state.legal_actions()))) == len(state.legal_actions())
    final = states[-1]
    assert final.is_over and final.current_player is None
    assert len(final.legal_actions()) == 0
    assert final.winners and all(seat in range(n) for seat in final.winners)
    assert list(final.winners) == sorted(set(final.winners))
    best = min(final.scores) if final.game.score_order == "low" else max(final.scores)
    assert all(final.scores[seat] == best for seat in final.winners)


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES)
def test_actions_round_trip_text_and_index(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """Every legal action's text parses back to it, its index maps back to it; indices are unique and dense."""
    game = laro.get_game(name)
    states, _ = playout(name, n, seed, policy, options)
    for state in states:
        indices = []
        for action in state.legal_actions():
            text = str(action)
            assert text and text == text.strip()
            assert game.parse_action(text) == action
            assert str(game.parse_action(text)) == text
            assert isinstance(action.index, int) and 0 <= action.index < game.num_actions
            assert game.action_from_index(action.index) == action
            indices.append(action.index)
        assert len(indices) == len(set(indices))


def test_every_whole_number_option_is_bounded(game_name: str) -> None:
    """Every whole-number option has a maximum, so no table can be made that never ends (10**18 points)."""
    game = laro.get_game(game_name)
    for spec in game.option_specs:
        if spec.minimum is not None:
            assert spec.maximum is not None, spec.name
            game.new_game(game.max_players, seed=1, options={spec.name: min(spec.maximum, game.max_players - 1)})


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES[:6])
def test_parse_action_gives_the_canonical_text(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """state.parse_action reads any spelling the parser accepts (other case, extra blanks) as the canonical
    action, so whatever a client typed is stored and told only in its canonical text."""
    states, _ = playout(name, n, seed, policy, options)
    for state in states:
        for action in state.legal_actions():
            text = str(action)
            assert state.parse_action(text) == action and state.parse_action(action.index) == action
            for spelling in (text.upper(), text.lower(), "  " + text.replace(" ", "   ") + " "):
                try:
                    parsed = state.parse_action(spelling)
                except ValueError:
                    continue
                assert str(parsed) == text


def test_action_indices_are_dense(game_name: str) -> None:
    """Every index 0..num_actions-1 names one action, whose text parses back to the same index."""
    game = laro.get_game(game_name)
    names = set()
    for index in range(game.num_actions):
        action = game.action_from_index(index)
        assert action.index == index and game.parse_action(str(action)).index == index
        names.add(str(action))
    assert len(names) == game.num_actions


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES)
def test_apply_is_pure_and_accepts_every_form(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """apply returns a new state, leaves the old one unchanged, and gives the same state for action, text, index."""
    states, actions = playout(name, n, seed, policy, options)
    for state, text, following in zip(states[:-1], actions, states[1:], strict=True):
        before = js(state)
        action = next(a for a in state.legal_actions() if str(a) == text)
        by_action, by_text, by_index = state.apply(action), state.apply(text), state.apply(action.index)
        assert by_action is not state and by_text is not state and by_index is not state
        assert js(state) == before
        assert js(by_action) == js(by_text) == js(by_index) == js(following)


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES)
def test_illegal_and_malformed_actions_raise(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """Illegal and malformed actions raise typed ValueErrors saying what is allowed; the state stays unchanged."""
    game = laro.get_game(name)
    states, _ = playout(name, n, seed, policy, options)
    rng = random.Random(seed)
    for number, state in enumerate(states):
        before = js(state)
        legal = texts(state.legal_actions())
        # every action of a small action space; a sample (and the neighbours of each legal action) of a large one
        indices: Any = range(game.num_actions)
        if game.num_actions > 512:
            near = {a.index + d for a in state.legal_actions() for d in (-1, 1) if 0 <= a.index + d < game.num_actions}
            indices = sorted({*rng.sample(range(game.num_actions), 24), *sorted(near)[:24]})
        for index in indices:
            action = game.action_from_index(index)
            if str(action) in legal:
                continue
            for form in (action, str(action), index):
                with pytest.raises(IllegalActionError) as info:
                    state.apply(form)
                assert isinstance(info.value, ValueError)
                message = str(info.value)
                assert str(action) in message
                assert all(text in message for text in legal), f"{message!r} should list {legal}"
        if number % 5 == 0 or state.is_over:
            for bad in (*MALFORMED_TEXTS, -1, game.num_actions, 10**9, None, 1.5, object()):
                with pytest.raises(MalformedActionError) as info:
                    state.apply(bad)  # type: ignore[arg-type]
                assert isinstance(info.value, ValueError) and str(info.value)
        assert js(state) == before


def test_malformed_texts_and_indices_do_not_parse(game_name: str) -> None:
    """game.parse_action and game.action_from_index reject what names no action."""
    game = laro.get_game(game_name)
    for text in MALFORMED_TEXTS:
        with pytest.raises(MalformedActionError, match=r"."):
            game.parse_action(text)
    for index in (-1, game.num_actions, 10**9, True, "0", None):
        with pytest.raises(MalformedActionError, match=r"."):
            game.action_from_index(index)  # type: ignore[arg-type]


# -- JSON states, replay, determinism ------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES)
def test_json_round_trip_and_play_on(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """to_json -> JSON text -> from_json restores the state exactly, and the restored state plays on identically."""
    game = laro.get_game(name)
    states, actions = playout(name, n, seed, policy, options)
    for number, state in enumerate(states):
        data = js(state)
        restored = game.from_json(json.loads(json.dumps(data)))
        assert js(restored) == data
        assert texts(restored.legal_actions()) == texts(state.legal_actions())
        assert restored.current_player == state.current_player and restored.is_over == state.is_over
        assert restored.scores == state.scores and restored.winners == state.winners
        if number % 3:
            continue
        for seat in range(n):
            assert restored.observation(seat) == state.observation(seat)
        original = state
        for text, expected in zip(actions[number : number + 6], states[number + 1 : number + 7], strict=True):
            restored, original = restored.apply(text), original.apply(text)
            assert js(restored) == js(original) == js(expected)
            assert texts(restored.legal_actions()) == texts(original.legal_actions())
            for seat in range(n):
                assert restored.observation(seat) == original.observation(seat)


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES)
def test_record_replays_to_the_same_state(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """A game record (game, version, options, seed, action texts) replays to the same final state."""
    states, actions = playout(name, n, seed, policy, options)
    record = GameRecord.start(states[0], seed=seed)
    record.actions.extend(actions)
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert js(replay(again)) == js(states[-1])


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES)
def test_same_seed_same_game(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """The same seed and the same actions give the same game, whatever the global random generator does."""
    game = laro.get_game(name)
    states, actions = playout(name, n, seed, policy, options)
    random.seed(12345)
    state = game.new_game(n, seed=seed, options=playout_options(name, options))
    assert js(state) == js(states[0])
    for number, text in enumerate(actions, start=1):
        random.random()  # disturb the global generator: the rules must not use it
        state = state.apply(text)
        if number % 4 == 0:
            assert js(state) == js(states[number])
    assert js(state) == js(states[-1])


def test_different_seeds_deal_differently(game_name: str) -> None:
    """Different seeds give different games (their states differ in more than the seed)."""
    game = laro.get_game(game_name)
    for n in range(game.min_players, game.max_players + 1):
        deals = set()
        for seed in range(12):
            data = js(game.new_game(n, seed=seed))
            data.pop("seed", None)
            deals.add(json.dumps(data, sort_keys=True))
        assert len(deals) == 12


def test_from_json_refuses_garbage(game_name: str) -> None:
    """A malformed JSON state raises a typed ValueError (laro's StateError or OptionError), not a crash."""
    game = laro.get_game(game_name)
    good = js(game.new_game(game.min_players, seed=SEEDS[0]))
    bad_states: list[Any] = [{}, {"num_players": game.min_players}, {**good, "num_players": game.max_players + 1}]
    bad_states += [{key: value for key, value in good.items() if key != missing} for missing in good]
    bad_states = [data for data in bad_states if data != good]
    for data in bad_states:
        try:
            restored = game.from_json(data)
        except (StateError, OptionError) as error:
            assert str(error)
        else:  # a key with a default may be left out, but then the state must be the same
            assert js(restored) == good, f"from_json accepted {sorted(data)}"


def test_games_are_the_same_in_another_process(game_name: str) -> None:
    """Same seed, same actions, same game on every run: no hash-seed or set-order dependence."""
    states, actions = playout(game_name, 3, SEEDS[1])
    record = GameRecord.start(states[0], seed=SEEDS[1])
    record.actions.extend(actions)
    script = (
        "import json, sys, laro\n"
        "record = laro.GameRecord.from_json(json.loads(sys.stdin.read()))\n"
        "print(json.dumps(laro.replay(record).to_json(), sort_keys=True))\n"
    )
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script],
            input=json.dumps(record.to_json()),
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=60,
        )
        assert json.loads(done.stdout) == js(states[-1])


def test_new_game_without_seed(game_name: str) -> None:
    """A game made without a seed is a valid game: it round-trips through JSON and plays."""
    game = laro.get_game(game_name)
    state = game.new_game(game.min_players)
    assert js(game.from_json(js(state))) == js(state)
    assert state.apply(state.legal_actions()[0]) is not state


# -- observations --------------------------------------------------------------------------------------------


def _norm(value: Any) -> Any:
    """A hashable form; a list of plain values compares as a multiset (order does not hide the cards)."""
    return _form(value, set())


def _form(value: Any, found: set[Any]) -> Any:
    """The hashable form of ``value``, each part's made once; every form made, and every key met, into ``found``."""
    if isinstance(value, dict):
        found.update(value)
        form: Any = ("dict", tuple(sorted((str(k), _form(v, found)) for k, v in value.items())))
    elif isinstance(value, list | tuple):
        items = [_form(v, found) for v in value]
        plain = all(isinstance(v, str | int | float | bool) or v is None for v in value)
        form = ("bag", tuple(sorted(items, key=repr))) if plain else ("list", tuple(items))
    else:
        form = value
    found.add(form)
    return form


def _subvalues(value: Any) -> Iterator[Any]:
    """``value``, every value inside it and every key in it."""
    yield value
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _subvalues(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _subvalues(item)


def _norms(value: Any) -> set[Any]:
    """The hashable form (``_norm``) of ``value``, of every value inside it and of every key in it: what a reader
    of ``value`` sees."""
    found: set[Any] = set()
    _form(value, found)
    return found


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES)
def test_observations_are_json_and_hide_secrets(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """Observations are JSON-ready and never contain another seat's hidden data (hands, deck order, seed)."""
    hiding = HIDDEN[name]
    states, _ = playout(name, n, seed, policy, options)
    for state in states:
        data = js(state)
        for seat in range(n):
            observation = state.observation(seat)
            assert isinstance(observation, dict)
            assert json.loads(json.dumps(observation, allow_nan=False)) == observation  # only JSON types
            seen = _norms(observation)
            may_know = _norms(hiding.visible(data, seat))
            for secret in hiding.hidden(data, seat):
                if secret in ([], {}, "", None) or _norm(secret) in may_know:
                    continue  # nothing to reveal, or it equals something the seat may know anyway
                assert _norm(secret) not in seen, f"seat {seat} can see {secret!r}"
        public = state.public_observation()  # a spectator knows less than any seat
        assert json.loads(json.dumps(public, allow_nan=False)) == public
        seen_by_all = _norms(public)
        visible_to_all = _norms(hiding.visible(data, -1))
        secrets = [secret for seat in range(n) for secret in hiding.hidden(data, seat)]
        for secret in secrets:
            if secret in ([], {}, "", None) or _norm(secret) in visible_to_all:
                continue
            assert _norm(secret) not in seen_by_all, f"a spectator can see {secret!r}"
        with pytest.raises(ValueError):
            state.observation(n)


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES)
def test_observation_ignores_what_the_seat_cannot_see(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """Two states that differ only in what a seat cannot see give that seat the same observation."""
    game = laro.get_game(name)
    hiding = HIDDEN[name]
    rng = random.Random(seed)
    states, _ = playout(name, n, seed, policy, options)
    changed = 0
    for state in states[::2]:
        data = js(state)
        for seat in range(n):
            other = hiding.perturb(data, seat, rng)
            changed += other != data
            restored = game.from_json(other)
            assert restored.observation(seat) == state.observation(seat)
            assert restored.public_observation() == state.public_observation()
    assert changed  # the perturbation did change hidden parts


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES)
def test_sampled_states_agree_with_the_observation(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """``game.sampler``: every determinisation shows the seat exactly its observation, is a valid full state, and
    on the seat's turn offers the same legal actions; the same rng gives the same sample."""
    game = laro.get_game(name)
    states, _ = playout(name, n, seed, policy, options)
    rng = random.Random(seed)
    for state in states[:: max(1, len(states) // 25)]:
        seat = rng.randrange(n) if state.current_player is None else state.current_player
        observation = state.observation(seat)
        sample = game.sampler(observation)
        drawn = sample(random.Random(1))
        assert drawn.observation(seat) == observation
        assert game.from_json(drawn.to_json()).to_json() == drawn.to_json()
        assert texts(drawn.legal_actions()) == texts(state.legal_actions())
        assert sample(random.Random(1)).to_json() == drawn.to_json()
        if not drawn.is_over:
            drawn.apply(drawn.legal_actions()[0])  # play goes on from a sample


@pytest.mark.parametrize("game_name", GAMES)
def test_sampler_refuses_a_spectator_and_another_game(game_name: str) -> None:
    game = laro.get_game(game_name)
    state = game.new_game(game.min_players, seed=SEEDS[0])
    with pytest.raises(ValueError, match="spectator"):
        game.sampler(state.public_observation())
    other = next(laro.get_game(n) for n in GAMES if n != game_name)
    with pytest.raises(ValueError):
        game.sampler(other.new_game(other.min_players, seed=1).observation(0))


# -- options and player counts -------------------------------------------------------------------------------


def test_unknown_option_is_an_error(game_name: str) -> None:
    """An unknown option raises OptionError naming it."""
    game = laro.get_game(game_name)
    with pytest.raises(OptionError, match="no_such_option"):
        game.new_game(game.min_players, seed=1, options={"no_such_option": 1})


def test_bad_option_values_are_errors(game_name: str) -> None:
    """An option value outside what the option allows raises OptionError."""
    game = laro.get_game(game_name)
    for spec in game.option_specs:
        bad: list[Any] = []
        if spec.choices is not None:
            bad = ["no-such-choice", 17]
        elif spec.minimum is not None:
            bad = [spec.minimum - 1, "many", 1.5, True]
        if spec.maximum is not None:
            bad.append(spec.maximum + 1)
        for value in bad:
            with pytest.raises(OptionError, match=spec.name):
                game.new_game(game.min_players, seed=1, options={spec.name: value})


def test_defaults_are_used_when_options_are_missing(game_name: str) -> None:
    """Missing options take their defaults: no options and the explicit defaults give the same game."""
    game = laro.get_game(game_name)
    defaults = {spec.name: spec.default for spec in game.option_specs}
    assert js(game.new_game(game.min_players, seed=3)) == js(game.new_game(game.min_players, seed=3, options={}))
    assert js(game.new_game(game.min_players, seed=3)) == js(game.new_game(game.min_players, seed=3, options=defaults))


def test_bad_player_counts_are_errors(game_name: str) -> None:
    """A player count outside min_players..max_players (or not a whole number) raises OptionError."""
    game = laro.get_game(game_name)
    for n in (game.min_players - 1, game.max_players + 1, 0, -1, "4", 2.0, True, None):
        with pytest.raises(OptionError):
            game.new_game(n, seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES[::7])
def test_public_text_of_actions(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """What others are told of an action is a non-empty text naming the same kind of action (its first word)."""
    game = laro.get_game(name)
    _, actions = playout(name, n, seed, policy, options)
    for text in actions:
        told = game.public_text(text)
        assert told and told.split()[0] == text.split()[0]


def test_game_describes_itself(game_name: str) -> None:
    """A game names itself, its rules version, limits and options, and is found under its name."""
    game = laro.get_game(game_name)
    assert game.name == game_name and game.title and game.rules_version
    assert 1 <= game.min_players <= game.max_players and game.num_actions > 0
    assert game.score_order in ("low", "high")
    assert len({spec.name for spec in game.option_specs}) == len(game.option_specs)
    state = game.new_game(game.min_players, seed=1)
    assert state.game is game and state.num_players == game.min_players


def test_game_declarations_name_its_own_actions_and_options(game_name: str) -> None:
    """What a game declares (its GameTraits) names words of its own actions and options of its own, and a game
    with component options gives its components as JSON data with one entry per option."""
    game = laro.get_game(game_name)
    traits = traits_of(game)
    assert isinstance(traits, GameTraits)
    words = {str(game.action_from_index(index)).split(" ", 1)[0] for index in range(game.num_actions)}
    assert traits.steps <= words, f"steps that are no action of {game_name}: {sorted(traits.steps - words)}"
    assert traits.whole_turns - {"*"} <= words, f"whole turns that are no action: {sorted(traits.whole_turns - words)}"
    assert not traits.steps & traits.whole_turns and not (traits.steps and "*" in traits.whole_turns)
    options = {spec.name: spec for spec in game.option_specs}
    assert set(traits.component_options) <= set(options), "component options must be options of the game"
    assert all(options[name].nullable and options[name].default is None for name in traits.component_options)
    assert isinstance(game, ComponentSource) or not traits.component_options
    data = component_data(game)
    if data is not None:
        assert set(traits.component_options) <= set(data), "each component option replaces a part of the data"
        assert json.loads(json.dumps(data)) == data
    assert json.loads(json.dumps(traits.to_json())) == traits.to_json()


@pytest.mark.parametrize(("name", "n", "seed", "policy", "options"), CASES[::5])
def test_scored_rounds_are_numbered_in_order(name: str, n: int, seed: int, policy: str, options: str) -> None:
    """A game with scored rounds numbers them 1, 2, … in its states, one after another; other games have none."""
    states, _ = playout(name, n, seed, policy, options)
    rounds = [round_of(state) for state in states]
    if not traits_of(states[0].game).scored_rounds:
        assert rounds == [None] * len(states)
        return
    assert all(isinstance(state, RoundedState) for state in states)
    numbers = [number for number in rounds if number is not None]
    assert len(numbers) == len(rounds) and numbers[0] == 1
    assert all(later in (earlier, earlier + 1) for earlier, later in itertools.pairwise(numbers))


@pytest.fixture(params=GAMES)
def game_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)
