"""A push service on loopback for the tests, playing the part of Google's or Mozilla's: it takes the server's posts
to a subscription's endpoint, checks their VAPID signature against the server's public key, and decrypts each
payload with the subscription's own private keys (RFC 8291, ``aes128gcm``), as the browser that subscribed would.

``PushService.subscription(name)`` is a browser's subscription (``PushSubscription.toJSON()``) at the endpoint
``/push/<name>``; ``answer[name]`` is the HTTP status that endpoint answers (201, or 404 / 410 for one that is
gone); ``received(name)`` lists the payloads it took, decoded.
"""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from tests.polling import until

__all__ = ["PushService"]


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass
class _Browser:
    """What a browser keeps of one subscription: its ECDH key pair and its auth secret."""

    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return _b64(point)


class PushService:
    """The push service, listening on 127.0.0.1 until ``close``."""

    def __init__(self, server_key: str) -> None:
        self.server_key = server_key  # the laro server's public VAPID key: only it may send
        self.browsers: dict[str, _Browser] = {}
        self.answer: dict[str, int] = {}
        self.payloads: dict[str, list[dict[str, Any]]] = {}
        self.refused: list[str] = []  # why a post was refused (a bad signature, a payload it cannot decrypt)
        self.posts = 0
        self._lock = threading.Lock()
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.http.serve_forever, name="push service", daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}"

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()

    def subscription(self, name: str, answer: int = 201) -> dict[str, Any]:
        browser = self.browsers[name] = _Browser()
        self.answer[name] = answer
        self.payloads[name] = []
        return {"endpoint": f"{self.base}/push/{name}", "keys": {"p256dh": browser.p256dh, "auth": _b64(browser.auth)}}

    def received(self, name: str) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.payloads[name])

    def wait(self, name: str, count: int, timeout: float = 20.0) -> list[dict[str, Any]]:
        """The payloads of ``name`` once there are ``count`` of them (fails after ``timeout`` seconds)."""

        def seen() -> str:
            return f"{count} pushes to {name}: {self.received(name)}"

        until(lambda: len(self.received(name)) >= count, seen, timeout)
        return self.received(name)

    def _take(self, name: str, headers: Any, body: bytes) -> int:
        browser = self.browsers.get(name)
        if browser is None:
            return 404
        scheme, _, token = str(headers.get("Authorization", "")).partition(" ")
        parts = dict(part.split("=", 1) for part in token.split(",") if "=" in part)
        signed = scheme.lower() == "vapid" and parts.get("k") == self.server_key
        if not signed or not Vapid02.verify(headers["Authorization"]):
            self.refused.append(f"{name}: a bad VAPID signature")
            return 401
        if headers.get("Content-Encoding") != "aes128gcm" or not headers.get("TTL"):
            self.refused.append(f"{name}: {headers.get('Content-Encoding')!r}, TTL {headers.get('TTL')!r}")
            return 400
        try:
            plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm")
        except Exception as error:
            self.refused.append(f"{name}: cannot decrypt ({error!r})")
            return 400
        with self._lock:
            self.payloads[name].append(json.loads(plain))
        return self.answer[name]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.posts += 1
                name = self.path.removeprefix("/push/")
                status = service._take(name, self.headers, body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler
