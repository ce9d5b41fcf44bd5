"""The HTTP API against its OpenAPI document (``/api/openapi.json``): schemathesis fuzzes every route of the real
server, and every answer must be documented — no 5xx, every status, content type and body as the document says."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from tests.server.client import request
from tests.server.in_process import InProcessServer

from laro.server.openapi import DOCUMENT

pytestmark = pytest.mark.in_process  # the module's server runs in this process (tests/server/in_process.py)

schema = schemathesis.openapi.from_dict(DOCUMENT)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def test_the_server_publishes_the_document(server: InProcessServer) -> None:
    status, served = request(server.base, "GET", "/api/openapi.json")
    assert status == 200 and served == DOCUMENT
    routes = {path for path in DOCUMENT["paths"]}
    assert {"/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/seats/{seat}/{what}"} <= routes


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_route_answers_as_documented(case: Any, server: InProcessServer) -> None:
    case.call_and_validate(base_url=server.base, checks=CHECKS, timeout=20)


@pytest.mark.parametrize("what", ["join", "leave", "bot"])
def test_seat_routes_on_a_real_table_answer_as_documented(server: InProcessServer, what: str) -> None:
    """Beyond random ids: the seat routes of a table that exists, with a wrong and a right token."""
    status, created = request(server.base, "POST", "/api/tables", {"game": "lama", "players": 2})
    assert status == 201
    table, token = created["id"], created["seats"][0]["token"]
    for body, expected in (({"token": "wrong"}, 403), ({"token": token, "name": "Ana", "bot": "random"}, None)):
        status, answer = request(server.base, "POST", f"/api/tables/{table}/seats/0/{what}", body)
        assert status < 500 and (expected is None or status == expected), (status, answer)
        documented = DOCUMENT["paths"]["/api/tables/{table_id}/seats/{seat}/{what}"]["post"]["responses"]
        assert str(status) in documented
