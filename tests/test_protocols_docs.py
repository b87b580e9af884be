"""The example exchanges of docs/protocol-json.md and docs/protocol-http.md, replayed
against the engine and the API: every documented answer must be the real one."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from ai.protocols.jsonstdio import Engine

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _exchange(path: Path):
    """The (request, answer) pairs: lines '> ...' then '< ...', in file order."""
    pairs, request = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("> "):
            assert request is None, f"two requests in a row: {line[:60]}"
            request = line[2:]
        elif line.startswith("< "):
            assert request is not None, f"an answer without a request: {line[:60]}"
            pairs.append((request, line[2:]))
            request = None
    assert request is None
    return pairs


def _same(got, documented) -> bool:
    """Equal, but for the package version (which moves with releases)."""
    if isinstance(got, dict) and isinstance(documented, dict) and "version" in got:
        got = {**got, "version": documented.get("version")}
    return got == documented


def test_the_json_protocol_examples_are_the_engines_answers():
    pairs = _exchange(DOCS / "protocol-json.md")
    assert len(pairs) == 24
    engine = Engine()
    for request, answer in pairs:
        got = engine.handle_line(request)
        assert _same(json.loads(got), json.loads(answer)), request
    # the documented error codes are the engine's
    from ai.protocols.decisions import CODES
    text = (DOCS / "protocol-json.md").read_text(encoding="utf-8")
    for code in CODES:
        if code not in ("busy", "timeout", "not_found"):   # HTTP only
            assert f"`{code}`" in text, code


def test_the_http_examples_are_the_servers_answers():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from ai.protocols.http import create_app

    pairs = _exchange(DOCS / "protocol-http.md")
    assert len(pairs) == 11
    with TestClient(create_app()) as client:
        for request, answer in pairs:
            method, path, *body = request.split(" ", 2)
            r = client.request(method, path, json=json.loads(body[0]) if body else None)
            status, expected = answer.split(" ", 1)
            assert r.status_code == int(status), request
            assert _same(r.json(), json.loads(expected)), request
