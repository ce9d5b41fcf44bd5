"""The server's one vocabulary of refusals: every error code of the protocol (docs/protocol.md, "Limits and
refusals") is a member of :class:`Code`, which carries the HTTP status it is answered with and the WebSocket close
code of a connection refused with it. A refusal is raised as :class:`Refusal` wherever it is found, and answered in
one place (the application's exception handler). A stored table whose log cannot be read back is :class:`Damaged`,
which is never a client's mistake: the hub tells the client ``damaged`` and the operator why.

>>> Code.NO_TABLE == "no_table", Code.NO_TABLE.status, Code.NO_TABLE.close
(True, 404, 4404)
>>> error = Refusal(Code.STALE_SEQ, "look again")
>>> error.code, error.code.status, str(error)
(<Code.STALE_SEQ: 'stale_seq'>, 409, 'look again')
"""

from __future__ import annotations

from enum import StrEnum

from laro.core import LaroError

__all__ = ["Code", "Damaged", "Refusal"]

_POLICY = 1008  # WebSocket: policy violation
_TRY_LATER = 1013  # WebSocket: try again later


class Code(StrEnum):
    """A refusal's code as the protocol names it, with its HTTP ``status`` and WebSocket ``close`` code."""

    status: int
    close: int

    def __new__(cls, value: str, status: int, close: int) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.status, member.close = status, close
        return member

    # what the client sent cannot be read or is not allowed at all
    MALFORMED = "malformed", 400, _POLICY
    TOO_LARGE = "too_large", 413, 1009
    UNKNOWN_TYPE = "unknown_type", 400, _POLICY
    BAD_REQUEST = "bad_request", 400, _POLICY
    BAD_RECORD = "bad_record", 400, _POLICY
    NOT_FOUND = "not_found", 404, _POLICY
    NO_TABLE = "no_table", 404, 4404
    BAD_TOKEN = "bad_token", 403, 4403
    SPECTATOR = "spectator", 400, _POLICY
    NO_CHAT = "no_chat", 403, _POLICY
    # accounts and sessions
    BAD_NAME = "bad_name", 400, _POLICY
    BAD_PASSWORD = "bad_password", 400, _POLICY
    NAME_TAKEN = "name_taken", 409, _POLICY
    BAD_CREDENTIALS = "bad_credentials", 401, _POLICY
    SIGNED_OUT = "signed_out", 401, _POLICY
    CROSS_ORIGIN = "cross_origin", 403, _POLICY
    # what the client asked for does not fit the table as it is now (on WebSocket only, but for not_over)
    STALE_SEQ = "stale_seq", 409, _POLICY
    NOT_STARTED = "not_started", 409, _POLICY
    NOT_OVER = "not_over", 409, _POLICY
    NOT_JOINED = "not_joined", 400, _POLICY
    NOT_YOUR_TURN = "not_your_turn", 400, _POLICY
    ILLEGAL_ACTION = "illegal_action", 400, _POLICY
    CANNOT_UNDO = "cannot_undo", 400, _POLICY
    PAUSED = "paused", 409, _POLICY
    TOO_SOON = "too_soon", 409, _POLICY
    GAME_OVER = "game_over", 409, _POLICY
    EXPIRED = "expired", 409, _POLICY
    # the server's bounds, and what it cannot do now
    RATE_LIMITED = "rate_limited", 429, _POLICY
    TOO_MANY = "too_many", 429, _TRY_LATER
    BUSY = "busy", 503, _TRY_LATER
    UNAVAILABLE = "unavailable", 503, _TRY_LATER
    DAMAGED = "damaged", 503, 4410


class Refusal(LaroError, ValueError):
    """Something a client asked for that is refused: ``code`` says what (and how it is answered), the message
    says why in words; ``retry`` is the seconds to wait before asking again, if the server knows them."""

    def __init__(self, code: Code, message: str, retry: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.retry = retry


class Damaged(LaroError):
    """A table's stored log cannot be read back (a gap, an event its game cannot take, other rules): the store
    is damaged, whatever a client asked."""
