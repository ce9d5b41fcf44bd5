"""A visitor of the server as a browser is one: it keeps the session cookie the server sets, sends it back, and
says where its page came from (``Origin``: the server's own, unless told otherwise), from a loopback address of
its own (127.0.0.2, …: another stranger than 127.0.0.1)."""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any

from tests.server.attack_support import from_address
from tests.server.client import HttpError

__all__ = ["Visitor"]

COOKIE = "laro_session"


class Visitor:
    """One browser: its cookie, its address, and the origin of its pages (None: sends no ``Origin``)."""

    def __init__(self, port: int, address: str = "127.0.0.1", origin: str | None = "own") -> None:
        self.port = port
        self.address = address
        self.origin = f"http://127.0.0.1:{port}" if origin == "own" else origin
        self.cookie: str | None = None  # the session's secret, as the server set it
        self.set_cookie: str = ""  # the last Set-Cookie header the server sent

    def send(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        """``(status, answer, headers)``, keeping the cookie the server set (or removed)."""
        sent = dict(headers or {})
        if self.origin is not None:
            sent.setdefault("Origin", self.origin)
        if self.cookie is not None:
            sent["Cookie"] = f"{COOKIE}={self.cookie}"
        status, answer, got = from_address(self.address, self.port, method, path, body, sent)
        if "set-cookie" in got:
            self.set_cookie = got["set-cookie"]
            morsel = SimpleCookie(got["set-cookie"])[COOKIE]
            self.cookie = None if morsel["max-age"] == "0" or not morsel.value.strip('"') else morsel.value
        return status, answer, got

    def call(self, method: str, path: str, body: Any = None, expect: int = 200, **headers: str) -> Any:
        """The answer of a request that must get ``expect``."""
        status, answer, _ = self.send(method, path, body, {name.replace("_", "-"): v for name, v in headers.items()})
        if status != expect:
            raise HttpError(status, answer)
        return answer

    def sign_up(self, name: str, password: str = "correct horse") -> Any:
        return self.call("POST", "/api/accounts", {"name": name, "password": password}, expect=201)

    def sign_in(self, name: str, password: str = "correct horse") -> Any:
        return self.call("POST", "/api/session", {"name": name, "password": password})
