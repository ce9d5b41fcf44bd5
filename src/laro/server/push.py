"""Web Push: the server's VAPID key, the subscriptions browsers give it, the words of a notification, and one send.

A browser that allows notifications at a table subscribes with the push service of its maker (Google's, Mozilla's,
Apple's…) and gives the server the subscription: an ``endpoint`` (a URL at that service) and two keys. To notify
the player, the server encrypts a payload for those keys (RFC 8291, ``aes128gcm``) and posts it to the endpoint,
signed with its VAPID key (RFC 8292): the push service checks that the sender holds the key whose public half the
browser subscribed with (``applicationServerKey``). So the key is made once and kept (``vapid.pem`` in the data
directory, or a file given to ``laro serve --vapid-key``); a new key makes every subscription useless.

The encryption and signing are ``pywebpush``'s. A send is a blocking HTTP request: it runs in a thread of the
notifier's (:mod:`laro.server.notifier`), never in the event loop.

>>> left_text(23 * 3600 + 59), left_text(45 * 60), left_text(20.2)
('23 h', '45 min', '20 s')
>>> Subscription.read({"endpoint": "ftp://push.example/1", "keys": {}}, http=False)
Traceback (most recent call last):
  ...
laro.server.errors.Refusal: a push subscription's endpoint is an https:// URL
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import logging
import os
import secrets
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from laro.core import JSONDict
from laro.server.errors import Code, Refusal

__all__ = [
    "DEFAULT_SUBJECT",
    "GONE",
    "KEY_FILE",
    "REMIND_BEFORE",
    "PushSettings",
    "Subscription",
    "left_text",
    "load_key",
    "send",
]

log = logging.getLogger("laro.server")

KEY_FILE = "vapid.pem"  # the server's VAPID key in its data directory
DEFAULT_SUBJECT = "mailto:laro@localhost"  # who runs the server, told to the push services (set yours)
REMIND_BEFORE = 3600.0  # seconds before a seat's stand-in takes over that its absent player is reminded
SEND_TIMEOUT = 10.0  # seconds a push service has to answer
TTL = 24 * 3600  # seconds a push service keeps a notification for a device that is off
GONE = (404, 410)  # what a push service answers for a subscription that is no more: it is dropped
_ENDPOINT_BYTES = 2048


@dataclass(frozen=True, slots=True)
class PushSettings:
    """How the server sends pushes: its VAPID ``key``, the ``subject`` that says who runs it (``mailto:`` or
    ``https:``), how long before a stand-in takes over an absent player is reminded, and whether an endpoint may
    be plain ``http://`` (tests only: a real push service is always https)."""

    key: ec.EllipticCurvePrivateKey
    subject: str = DEFAULT_SUBJECT
    remind_before: float = REMIND_BEFORE
    http: bool = False

    @property
    def public_key(self) -> str:
        """The key browsers subscribe with (``applicationServerKey``): the public point, base64url."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return base64.urlsafe_b64encode(point).decode("ascii").rstrip("=")


def load_key(path: Path) -> ec.EllipticCurvePrivateKey:
    """The VAPID key kept at ``path`` (PEM), made and kept there first if there is none: written whole under a
    draft name, readable by its owner only, and put in place by a hard link, which never replaces a key that
    another process made at the same moment. ``ValueError`` for a file that holds no P-256 private key."""
    if not path.exists():
        key = ec.generate_private_key(ec.SECP256R1())
        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{secrets.token_hex(6)}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(descriptor, pem)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        try:
            os.link(draft, path)
            log.info("a new VAPID key for push notifications is kept in %s", path)
        except FileExistsError:
            pass  # made by another process meanwhile: that one is the key
        finally:
            draft.unlink()
    kept = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(kept, ec.EllipticCurvePrivateKey) or kept.curve.name != "secp256r1":
        raise ValueError(f"{path} holds no P-256 (prime256v1) private key")
    return kept


def _key_bytes(value: object, size: int, what: str) -> str:
    """A subscription's key as the browser gave it (base64url), checked to be ``size`` bytes."""
    if isinstance(value, str) and len(value) < 200:
        try:
            raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) == size:
            return value
    raise Refusal(Code.BAD_REQUEST, f"a push subscription's {what} key is {size} bytes, base64url")


def _inside(host: str) -> bool:
    """True for a host that is no push service on the internet: ``localhost``, or an address of this machine or of
    a private network (the server posts where an endpoint says, so it is never told to post to its neighbours).

    >>> _inside("fcm.googleapis.com"), _inside("127.0.0.1"), _inside("10.1.2.3"), _inside("[::1]".strip("[]"))
    (False, True, True, True)
    """
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return not address.is_global


@dataclass(frozen=True, slots=True)
class Subscription:
    """A browser's push subscription, as ``PushSubscription.toJSON()`` gives it."""

    endpoint: str
    p256dh: str
    auth: str

    @classmethod
    def read(cls, data: object, http: bool) -> Subscription:
        """The subscription in ``data``; ``bad_request`` for anything else (an endpoint must be https://, or
        http:// where ``http`` allows it)."""
        if not isinstance(data, dict):
            raise Refusal(Code.BAD_REQUEST, '"subscription" is a push subscription: {"endpoint": …, "keys": …}')
        endpoint = data.get("endpoint")
        schemes = ("https", "http") if http else ("https",)
        parsed = urllib.parse.urlsplit(endpoint) if isinstance(endpoint, str) else None
        if parsed is None or parsed.scheme not in schemes or not parsed.hostname:
            raise Refusal(Code.BAD_REQUEST, "a push subscription's endpoint is an https:// URL")
        if not http and _inside(parsed.hostname):
            raise Refusal(Code.BAD_REQUEST, "a push subscription's endpoint is a push service on the internet")
        if len(str(endpoint)) > _ENDPOINT_BYTES:
            raise Refusal(Code.BAD_REQUEST, f"a push subscription's endpoint is at most {_ENDPOINT_BYTES} bytes")
        keys = data.get("keys")
        if not isinstance(keys, dict):
            raise Refusal(Code.BAD_REQUEST, 'a push subscription has "keys": {"p256dh": …, "auth": …}')
        p256dh, auth = _key_bytes(keys.get("p256dh"), 65, "p256dh"), _key_bytes(keys.get("auth"), 16, "auth")
        return cls(str(endpoint), p256dh, auth)

    @property
    def keys(self) -> JSONDict:
        return {"p256dh": self.p256dh, "auth": self.auth}


def left_text(seconds: float) -> str:
    """Time left, as a notification says it: whole hours, else minutes, else seconds (rounded down)."""
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h"
    if seconds >= 60:
        return f"{int(seconds // 60)} min"
    return f"{int(seconds)} s"


def send(settings: PushSettings, endpoint: str, keys: JSONDict, payload: JSONDict) -> int:
    """Post one notification (encrypted for ``keys``, signed with the server's key) to ``endpoint``; the push
    service's HTTP status (0: it could not be reached). Blocking: call it in a thread."""
    import requests
    from py_vapid import Vapid02
    from pywebpush import WebPushException, webpush

    claims: dict[str, Any] = {"sub": settings.subject}  # pywebpush adds "aud" and "exp" to the dict it is given
    try:
        answer = webpush(
            {"endpoint": endpoint, "keys": keys},
            data=json.dumps(payload, ensure_ascii=False, separators=(",", ":")),
            vapid_private_key=Vapid02(settings.key),
            vapid_claims=claims,
            timeout=SEND_TIMEOUT,
            ttl=TTL,
            headers={"Urgency": "high"},
        )
    except WebPushException as error:
        response = error.response
        return int(getattr(response, "status_code", 0) or 0)
    except (requests.RequestException, ValueError, OSError) as error:
        log.warning("a push to %s failed: %s", urllib.parse.urlsplit(endpoint).hostname, type(error).__name__)
        return 0
    return int(getattr(answer, "status_code", 0))
