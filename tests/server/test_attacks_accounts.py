"""Attacks on accounts, against the server's default limits: guessing a password is slow (per address, and per
account from many addresses), one address cannot make many accounts, an unknown name costs the same time as a
wrong password, and a sign-in limit says when to try again."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.accounts_support import Visitor
from tests.server.in_process import InProcessServer

pytestmark = pytest.mark.in_process


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    """A server with laro serve's default limits (each test comes from addresses of its own), its password
    hashes cheap: the limits are what is tested here."""
    served = InProcessServer(Path(tmp_path_factory.mktemp("laro-accounts")) / "data", limits=("--password-memory=1",))
    served.start()
    try:
        yield served
    finally:
        served.stop()


def guess(server: InProcessServer, address: str, name: str, password: str) -> tuple[int, str, str | None]:
    status, answer, headers = Visitor(server.port, address).send(
        "POST", "/api/session", {"name": name, "password": password}
    )
    return status, answer["error"]["code"] if status >= 400 else "ok", headers.get("retry-after")


def test_one_address_makes_a_few_accounts_then_waits(guarded: InProcessServer) -> None:
    maker = Visitor(guarded.port, "127.0.0.10")
    for n in range(3):  # the first burst
        maker.sign_up(f"Maker {n}")
    status, answer, headers = maker.send("POST", "/api/accounts", {"name": "Maker 3", "password": "correct horse"})
    assert (status, answer["error"]["code"]) == (429, "rate_limited") and int(headers["retry-after"]) >= 60
    Visitor(guarded.port, "127.0.0.11").sign_up("Maker 3")  # another address is another stranger


def test_guessing_from_one_address_is_slowed(guarded: InProcessServer) -> None:
    Visitor(guarded.port, "127.0.0.20").sign_up("Victim One", "the real one")
    answers = [guess(guarded, "127.0.0.21", f"Victim {n}", "guess-123")[1] for n in range(11)]
    assert answers == ["bad_credentials"] * 10 + ["rate_limited"]  # 10 at once, then 6 a minute
    status, code, retry = guess(guarded, "127.0.0.21", "Victim One", "the real one")
    assert (status, code) == (429, "rate_limited") and retry is not None and int(retry) >= 1


def test_guessing_one_account_from_many_addresses_is_slowed(guarded: InProcessServer) -> None:
    Visitor(guarded.port, "127.0.0.30").sign_up("Victim Two", "the real one")
    answers = [guess(guarded, f"127.0.1.{n}", "victim two", f"guess-{n:04}")[1] for n in range(11)]
    assert answers == ["bad_credentials"] * 10 + ["rate_limited"]  # per account: 10 at once, then 20 an hour
    status, code, retry = guess(guarded, "127.0.1.99", "VICTIM TWO", "the real one")
    assert (status, code) == (429, "rate_limited") and int(retry or 0) >= 60  # even the right password waits
    assert guess(guarded, "127.0.1.99", "Victim Three", "guess-0000")[1] == "bad_credentials"  # others are not


def test_an_unknown_name_takes_as_long_as_a_wrong_password(tmp_path: Path) -> None:
    """With the default hashes, a wrong password takes hundreds of milliseconds to check: an unknown name would
    be answered in one without the made-up hash. The two are asked in turn, so that a busy moment of the machine
    slows both alike, and the quickest of five of each are compared."""
    guarded = InProcessServer(tmp_path / "data", limits=())
    guarded.start()
    try:
        Visitor(guarded.port, "127.0.0.40").sign_up("Timed One", "the real one")
        times: dict[str, list[float]] = {"Timed One": [], "Timed Nobody": []}
        for _ in range(5):
            for name, address in (("Timed One", "127.0.0.41"), ("Timed Nobody", "127.0.0.42")):
                start = time.perf_counter()
                assert guess(guarded, address, name, "not the one")[1] == "bad_credentials"
                times[name].append(time.perf_counter() - start)
    finally:
        guarded.stop()
    wrong, unknown = min(times["Timed One"]), min(times["Timed Nobody"])
    assert wrong > 0.05 and unknown > 0.5 * wrong and wrong > 0.5 * unknown, (wrong, unknown)
