"""The refusal codes are one vocabulary: each has its HTTP status and WebSocket close code, and the protocol's
document lists every one of them (and no other)."""

from __future__ import annotations

import re
from pathlib import Path

from laro.server.errors import Code, Damaged, Refusal

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_every_code_has_an_http_status_and_a_close_code() -> None:
    for code in Code:
        assert 400 <= code.status <= 599, code
        assert code.close in (1008, 1009, 1013) or 4000 <= code.close <= 4999, code
    assert len({code.value for code in Code}) == len(Code)


def test_the_protocol_document_lists_every_code_and_no_other() -> None:
    section = PROTOCOL.read_text().split("## Limits and refusals", 1)[1].split("\n\n", 2)[1]
    listed = re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE)
    assert sorted(listed) == sorted(code.value for code in Code)


def test_a_refusal_is_its_code_on_the_wire_and_damage_is_no_refusal() -> None:
    error = Refusal(Code.RATE_LIMITED, "slow down", retry=2.5)
    assert (error.code, error.code.status, error.retry) == ("rate_limited", 429, 2.5)
    assert not issubclass(Damaged, Refusal)
