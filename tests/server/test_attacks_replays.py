"""``POST /api/replay`` cannot stall the server: a long record of eight open hands is replayed, encoded and
compressed in a worker process, one per address and a few at a time, while everyone else is answered at once.
Against the real ``laro serve`` with its default limits; other loopback addresses play other strangers."""

from __future__ import annotations

import json
import random
import statistics
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from tests.server.attack_support import DEADLINE, from_address
from tests.server.server_process import ServerProcess

import laro
from laro.core import GameRecord

_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))
WAIT = 180.0  # seconds the replays may take in all: one worker makes them, at a low priority, on a busy machine
ACTIONS = 400  # of random Kamara play by eight seats: a replay of a megabyte or more in the open view


def _long_record() -> dict[str, Any]:
    state = laro.get_game("kamara").new_game(8, seed=5, options={"max_rounds": 1000})
    record = GameRecord.start(state, seed=5, players=[f"P{seat}" for seat in range(8)])
    rng = random.Random(1)
    while len(record.actions) < ACTIONS:
        action = rng.choice(state.legal_actions())
        record.actions.append(str(action))
        state = state.apply(action)
    return record.to_json()


def _probe(base: str, stop: threading.Event, seconds: list[float]) -> None:
    """Ask for the list of games again and again; how long each answer took."""
    while not stop.is_set():
        started = time.monotonic()
        with _NO_PROXY.open(base + "/api/games", timeout=DEADLINE) as answer:
            answer.read()
        seconds.append(time.monotonic() - started)
        time.sleep(0.02)


def test_long_replays_do_not_stall_anyone(hostile: Callable[..., ServerProcess]) -> None:
    """Four strangers each ask for the open replay of a 400-action, eight-player record at once (and each asks a
    second time meanwhile): every first one is answered in full, each second one is refused (``too_many``), and
    another client's requests meanwhile are answered within a second each, or an eighth of the time the replays
    take on a busy machine (before: the event loop made and encoded the replays, and they waited for them: 1.8 s
    of 5 s)."""
    server = hostile()
    body = {"record": _long_record(), "view": "open"}
    stop, seconds = threading.Event(), list[float]()
    probe = threading.Thread(target=_probe, args=(server.base, stop, seconds))
    answers: dict[str, tuple[int, bytes]] = {}

    def ask(address: str, key: str) -> None:
        # read now, parsed once the probe has stopped: parsing megabytes here would hold up the probe's own thread
        status, answer, _ = from_address(address, server.port, "POST", "/api/replay", body, timeout=WAIT, parse=False)
        answers[key] = (status, answer)

    strangers = [f"127.0.0.{n}" for n in range(2, 6)]
    firsts = [threading.Thread(target=ask, args=(address, address)) for address in strangers]
    probe.start()
    try:
        time.sleep(0.2)
        started = time.monotonic()
        for thread in firsts:
            thread.start()
        time.sleep(0.3)  # the first ones are being made
        seconds_ = [threading.Thread(target=ask, args=(address, address + " again")) for address in strangers]
        for thread in seconds_:
            thread.start()
        for thread in (*firsts, *seconds_):
            thread.join(WAIT)
        took = time.monotonic() - started
    finally:
        stop.set()
        probe.join(DEADLINE)
    for address in strangers:
        status, answer = answers[address][0], json.loads(answers[address][1])
        assert status == 200 and len(answer["steps"]) == ACTIONS + 1, (status, str(answer)[:200])
        status, answer = answers[address + " again"][0], json.loads(answers[address + " again"][1])
        assert status == 429 and answer["error"]["code"] == "too_many", (status, str(answer)[:200])
    assert seconds, "the probe was never answered"
    slowest, bound = max(seconds), max(1.0, took / 8)  # on a busy machine the replays (and the waits) take longer
    median = statistics.median(seconds)
    assert slowest < bound, f"another client waited up to {slowest:.2f} s (median {median:.3f} s) in {took:.1f} s"
