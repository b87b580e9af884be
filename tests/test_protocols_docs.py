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
    assert len(pairs) == 25
    engine = Engine()
    for request, answer in pairs:
        got = engine.handle_line(request)
        assert _same(json.loads(got), json.loads(answer)), request
    assert engine.finished        # the last example is quit
    # every message type has an example
    from ai.protocols.jsonstdio import _FIELDS
    assert {json.loads(r)["type"] for r, _ in pairs if r.startswith("{")} == set(_FIELDS)
    # the documented error codes are the engine's
    from ai.protocols.decisions import CODES
    text = (DOCS / "protocol-json.md").read_text(encoding="utf-8")
    for code in CODES:
        if code not in ("busy", "timeout", "not_found", "request_timeout",
                        "bad_http"):   # HTTP only
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


def _bluechip_table(seed):
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from bluechip_script import SystemPlayer, Table

    from ai.protocols.bluechip_client import BlueChipClient
    from ai.protocols.bluechip_tm import TableManager, boards_from_seed
    from ddsolver.table import Seat

    tm = TableManager(boards_from_seed(seed, 1))
    table = Table(tm)
    for s in Seat:
        table.add(s.letter, BlueChipClient(SystemPlayer(), s,
                                           "ddsolver NS" if s.side == 0 else "ddsolver EW"))
    return tm, table


def test_the_bluechip_examples_are_a_real_session():
    import re

    from ai.protocols.bluechip import parse_client_line, parse_tm_line

    text = (DOCS / "protocol-bluechip.md").read_text(encoding="utf-8")
    *_, board_block, refused_block = re.findall(r"```text\n(.*?)```", text, re.S)
    # North's side of board 1 of seed 31, played by four clients at the table manager
    tm, table = _bluechip_table(31)
    assert table.run() and tm.records[0].finished
    log = [f"{d} {line}" for d, line in table.log["N"]]
    timing = re.compile(r"^< Timing - N/S : this board \[\d\d:\d\d\], total \[\d:\d\d:\d\d\]\. "
                        r"E/W : this board \[\d\d:\d\d\], total \[\d:\d\d:\d\d\]\.$")

    def same(documented, real):
        return documented == real or (timing.match(documented) and timing.match(real))

    segments = [s.strip().splitlines() for s in board_block.split("\n...\n")]
    assert [len(s) for s in segments] == [62, 22]
    assert all(same(a, b) for a, b in zip(segments[0], log[:62]))
    assert all(same(a, b) for a, b in zip(segments[1], log[-22:]))
    # each documented line is read back and written exactly as the protocol writes it
    for line in segments[0] + segments[1]:
        direction, message = line[0], line[2:]
        parsed = parse_client_line(message) if direction == ">" else parse_tm_line(message)
        assert str(parsed) == " ".join(message.split()), line
    # the refused lines, when North is to make the first call
    tm, table = _bluechip_table(31)
    table.run(until=lambda: tm.board is not None and all(
        tm.conns[s].stage == "play" for s in "NESW"))
    table.queue = [x for x in table.queue if x[0] != "N"]
    table.run()
    pairs = refused_block.strip().splitlines()
    assert len(pairs) == 18
    for ask, answer in zip(pairs[::2], pairs[1::2]):
        assert ask.startswith("> ") and answer.startswith("< Error ")
        assert tm.receive("N", ask[2:]) == [("send", "N", answer[2:])], ask
    assert tm.board.events == []
