"""Fuzzing the three servers with hypothesis: the JSON-lines engine (a real process on
pipes), the HTTP API (a real uvicorn server on the loopback address) and the Blue Chip table
manager (a real TCP server, a board in progress).  Every message is random or a mutation of
a valid one made invalid; each must be answered by one error (no crash, no hang, no
"internal" error), and afterwards the server must still answer correctly: the board is
finished and compared with the same board played without the fuzzing.

CI sends a few hundred messages to each server; the ``slow`` tests send 10,000 to each
(``python -m pytest -m slow tests/test_protocols_fuzz.py``).
"""

from __future__ import annotations

import json
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.protocols.bluechip_client import BlueChipClient, LineSocket, run_client
from ai.protocols.bluechip_tm import TableManager, TableManagerServer, boards_from_seed
from ai.protocols.decisions import CODES
from ai.protocols.http import make_server
from ai.protocols.jsonstdio import Engine
from ddsolver.table import Seat, Vulnerability

sys.path.insert(0, str(Path(__file__).parent))
from bluechip_script import SystemPlayer, Table  # noqa: E402
from protocol_referee import DEAL, PLAYER, play_stateful  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CI_MESSAGES = 300
SLOW_MESSAGES = 10_000
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def _settings(n):
    return settings(max_examples=n, deadline=None, database=None, derandomize=False,
                    suppress_health_check=list(HealthCheck))


# -- strategies shared by the JSON engine and the HTTP API -----------------------------------------
#: characters that can be written as UTF-8 (no lone surrogates) and stay on one line
_CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n")


def _text(**kwargs):
    return st.text(alphabet=_CHARS, **kwargs)


_json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70),
                          st.floats(allow_nan=False), st.text(max_size=20))
_json_values = st.recursive(_json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
_wrong_for_text = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(
    allow_nan=False), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))

_VIEW = {"seat": "S", "hand": DEAL[S].to_pbn(), "dealer": "N", "vulnerability": "None",
         "scoring": "IMP", "auction": ["1NT", "Pass"], "played": []}


def _mutate_text(draw, text: str) -> str:
    """Random edits of a valid line's text (``draw`` is a composite strategy's draw)."""
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        i = draw(st.integers(0, max(0, len(chars) - 1)))
        if op == "insert":
            chars.insert(i, draw(_CHARS))
        elif op == "delete" and chars:
            del chars[i]
        elif chars:
            chars[i] = draw(_CHARS)
    return "".join(chars)


# -- the JSON-lines engine -------------------------------------------------------------------------
#: the engine sits South; North opened 1NT, East passed: South is to call
_JSON_SETUP = [
    {"type": "new_board", "seat": "S", "hand": DEAL[S].to_pbn(), "dealer": "N",
     "vulnerability": "None", "player": PLAYER},
    {"type": "call", "seat": "N", "call": "1NT"},
    {"type": "call", "seat": "E", "call": "Pass"},
]
#: messages valid in that state, to mutate
_JSON_VALID = [
    {"type": "hello", "protocol": 1}, {"type": "state"}, {"type": "get_call", "play": False},
    {"type": "hint"}, {"type": "explain", "index": 0}, {"type": "explain", "call": "2C"},
    {"type": "call", "seat": "S", "call": "2C"},
    {"type": "get_call", "view": _VIEW, "player": PLAYER},
    {"type": "explain", "view": _VIEW, "call": "3NT"},
    {"type": "state", "view": _VIEW},
]
_JSON_FIELDS = {"type", "id", "protocol", "seat", "hand", "dealer", "vulnerability",
                "scoring", "board", "player", "call", "card", "play", "view", "index"}
_REQUIRED = {"call": ("seat", "call"), "get_call": (), "hint": (), "state": (),
             "explain": (), "hello": ()}


def _wrong_value(key, value) -> bool:
    """Whether ``value`` is surely refused for field ``key`` (a wrong type or range)."""
    if key in ("protocol", "player", "id") and value is None:
        return False                      # optional: null means absent
    if key == "player" and value == {}:
        return False                      # the defaults
    if key == "protocol" and value == 1 and not isinstance(value, bool):
        return False
    if key == "index" and isinstance(value, int) and not isinstance(value, bool) \
            and 0 <= value <= 1:
        return False                      # the two calls made
    if key == "id" and isinstance(value, int) and not isinstance(value, bool):
        return False
    if key == "play" and isinstance(value, bool):
        return False
    return True


@st.composite
def bad_json_lines(draw):
    line = draw(_bad_json_line())
    try:
        if not line.decode("utf-8").strip():
            return b"x" + line            # blank lines are not answered
    except UnicodeDecodeError:
        pass
    return line


@st.composite
def _bad_json_line(draw):
    kind = draw(st.sampled_from(["text", "bytes", "value", "extra", "type", "id", "wrong",
                                 "missing", "semantic", "edit"]))
    if kind == "text":
        return draw(_text(max_size=80)).encode("utf-8")
    if kind == "bytes":
        return draw(st.binary(max_size=80).filter(lambda b: b"\n" not in b
                                                   and b"\r" not in b))
    if kind == "value":
        value = draw(_json_values.filter(lambda v: not (isinstance(v, dict)
                                                        and v.get("type") in _REQUIRED)))
        return json.dumps(value).encode()
    msg = dict(draw(st.sampled_from(_JSON_VALID)))
    if kind == "extra":
        key = "x" + draw(st.text(max_size=8))
        msg[key] = draw(_json_scalars)
    elif kind == "type":
        msg["type"] = draw(st.text(max_size=12).filter(lambda t: t not in (
            "hello", "new_board", "call", "card", "dummy", "get_call", "get_card",
            "explain", "hint", "state", "quit")))
    elif kind == "id":
        msg["id"] = draw(st.one_of(st.booleans(), st.floats(allow_nan=False),
                                   st.lists(st.integers(), max_size=2),
                                   st.text(min_size=201, max_size=210)))
    elif kind == "wrong":
        key = draw(st.sampled_from([k for k in msg if k != "type"] or ["id"]))
        msg[key] = draw(_wrong_for_text.filter(lambda v: _wrong_value(key, v)))
    elif kind == "missing":
        options = [m for m in _JSON_VALID if _REQUIRED.get(m["type"])]
        msg = dict(draw(st.sampled_from(options)))
        del msg[draw(st.sampled_from(_REQUIRED[msg["type"]]))]
    elif kind == "semantic":
        msg = draw(st.sampled_from([
            {"type": "call", "seat": "S", "call": draw(st.sampled_from(["1C", "1D", "1H",
                                                                          "1S", "1NT",
                                                                          "X", "XX"]))},
            {"type": "call", "seat": draw(st.sampled_from("NEW")), "call": "Pass"},
            {"type": "card", "seat": "S", "card": "SJ"}, {"type": "get_card"},
            {"type": "dummy", "hand": DEAL[N].to_pbn()},
            {"type": "explain", "index": draw(st.integers(2, 500))},
            {"type": "hello", "protocol": draw(st.integers(2, 99))},
            {"type": "get_call", "view": {**_VIEW, "auction": ["1NT", "Pass", "1C"]}},
            {"type": "get_call", "view": {**_VIEW, "hand": DEAL[N].to_pbn(),
                                          "dummy_hand": DEAL[S].to_pbn()}},
        ]))
    else:  # edit the text until it is no longer JSON
        text = _mutate_text(draw, json.dumps(msg))
        try:
            json.loads(text)
        except ValueError:
            return text.encode("utf-8")
        return b"\x00" + text.encode("utf-8")
    return json.dumps(msg).encode()


class _Process:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "ai", "engine"], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def ask(self, raw: bytes, timeout: float = 30.0) -> dict:
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()
        line = self.lines.get(timeout=timeout)      # queue.Empty: the engine hung
        assert line is not None, "the engine exited"
        return json.loads(line)

    def send(self, msg: dict) -> dict:
        return self.ask(json.dumps(msg).encode())

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        return self.proc.returncode


def _fuzz_json_engine(count):
    proc = _Process()
    sent = 0
    try:
        for msg in _JSON_SETUP:
            assert proc.send(msg)["type"] == "state"
        before = proc.send({"type": "state"})

        @_settings(count)
        @given(line=bad_json_lines())
        def one(line):
            nonlocal sent
            answer = proc.ask(line)
            sent += 1
            assert answer["type"] == "error", (line, answer)
            assert answer["code"] in CODES and answer["code"] != "internal", (line, answer)
            assert isinstance(answer["message"], str) and answer["message"]

        one()
        assert sent >= count
        # nothing changed, and the engine still plays the board exactly
        assert proc.send({"type": "state"}) == before
        engines = {s: Engine().handle for s in (N, E, W)}
        engines[S] = _ResumedSouth(proc)
        calls, play, states = play_stateful(DEAL, N, Vulnerability.NONE, engines)
        reference = play_stateful(DEAL, N, Vulnerability.NONE,
                                  {s: Engine().handle for s in Seat})
        assert (calls, play) == reference[:2]
        assert states[S]["result"] == reference[2][S]["result"]
        assert proc.close() == 0
    finally:
        if proc.proc.poll() is None:
            proc.proc.kill()
    return sent


class _ResumedSouth:
    """South's engine, already told 1NT-Pass: the referee's new_board and first two
    reports are answered from it as they would be (and checked)."""

    def __init__(self, proc):
        self.proc = proc
        self.skipped = 0

    def __call__(self, msg):
        if self.skipped < 3:
            self.skipped += 1
            expected = _JSON_SETUP[self.skipped - 1]
            if msg["type"] == "new_board":
                assert msg["seat"] == "S" and msg["hand"] == expected["hand"]
            else:
                assert msg == expected, msg
            return self.proc.send({"type": "state"})
        return self.proc.send(msg)


def test_fuzz_the_json_engine():
    assert _fuzz_json_engine(CI_MESSAGES) >= CI_MESSAGES


@pytest.mark.slow
def test_fuzz_the_json_engine_10000():
    assert _fuzz_json_engine(SLOW_MESSAGES) >= SLOW_MESSAGES


# -- the HTTP API ----------------------------------------------------------------------------------
_PATHS = ["/api/call", "/api/card", "/api/explain", "/api/hint", "/api/state"]


@st.composite
def bad_http_requests(draw):
    """(method, path, body bytes, headers)."""
    kind = draw(st.sampled_from(["bytes", "value", "extra", "view_extra", "wrong",
                                 "missing", "semantic", "path", "method", "large",
                                 "edit"]))
    path = draw(st.sampled_from(_PATHS))
    headers = {"content-type": "application/json"}
    if kind == "bytes":
        body = draw(st.binary(max_size=100))
        try:
            value = json.loads(body)
        except ValueError:
            return "POST", path, body, headers
        body = json.dumps([value]).encode()
        return "POST", path, body, headers
    if kind == "value":
        value = draw(_json_values.filter(lambda v: not isinstance(v, dict)
                                         or "view" not in v))
        return "POST", path, json.dumps(value).encode(), headers
    if kind == "path":
        other = "/" + draw(st.text(alphabet="abcdefghijklmnopqrstuvwxyz/_-.", max_size=20))
        if other in _PATHS or other in ("/api/info", "/openapi.json", "/docs", "/redoc",
                                        "/docs/oauth2-redirect"):
            other = "/nowhere" + other
        return draw(st.sampled_from(["GET", "POST"])), other, b"{}", headers
    if kind == "method":
        return draw(st.sampled_from(["GET", "PUT", "DELETE", "PATCH"])), path, b"{}", headers
    if kind == "large":
        return "POST", path, b"{" + b" " * draw(st.integers(70000, 100000)) + b"}", headers
    body = {"view": dict(_VIEW), "player": dict(PLAYER)}
    if path == "/api/explain":
        body["call"] = "2C"
    if kind == "extra":
        body["x" + draw(st.text(max_size=6))] = draw(_json_scalars)
    elif kind == "view_extra":
        body["view"]["x" + draw(st.text(max_size=6))] = draw(_json_scalars)
    elif kind == "wrong":
        key = draw(st.sampled_from(["seat", "hand", "dealer", "vulnerability", "scoring",
                                    "auction", "played"]))
        body["view"][key] = draw(_wrong_for_text.filter(
            lambda v: not (key in ("auction", "played") and (v is None or v == []))
            and not (key == "hand" and isinstance(v, list))))
    elif kind == "missing":
        del body["view"][draw(st.sampled_from(["seat", "hand", "dealer"]))]
    elif kind == "semantic":
        body["view"] = draw(st.sampled_from([
            {**_VIEW, "auction": ["1NT", "Pass", "1C"]},
            {**_VIEW, "auction": ["1NT", "X", "XX", "XX"]},
            {**_VIEW, "seat": draw(st.text(min_size=1, max_size=6).filter(
                lambda t: t.strip().upper() not in ("N", "E", "S", "W", "NORTH", "EAST",
                                                    "SOUTH", "WEST")))},
            {**_VIEW, "hand": DEAL[S].to_pbn()[:-1]},
            {**_VIEW, "hand": DEAL[N].to_pbn(), "seat": "S",
             "auction": ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"],
             "played": [["E", "H2"], ["E", "H3"]]},
            {**_VIEW, "dummy_hand": DEAL[N].to_pbn()},
            {**_VIEW, "vulnerability": draw(st.sampled_from(["Some", "NE", "", "x"]))},
            {**_VIEW, "scoring": draw(st.sampled_from(["BAM", "imp", "", "Total"]))},
            {**_VIEW, "auction": ["1NT", "Pass", "Pass", "Pass"]},   # nothing to decide
        ]))
        if path == "/api/state" and body["view"]["auction"] == ["1NT", "Pass", "Pass",
                                                                 "Pass"]:
            path = "/api/card"
        if path == "/api/explain" and body["view"]["auction"] == ["1NT", "Pass", "Pass",
                                                                   "Pass"]:
            body["call"] = "1C"
    else:  # edit the text until it is no longer JSON
        text = _mutate_text(draw, json.dumps(body))
        try:
            json.loads(text)
        except ValueError:
            return "POST", path, text.encode("utf-8"), headers
        return "POST", path, b"\x01" + text.encode("utf-8"), headers
    return "POST", path, json.dumps(body).encode(), headers


def _fuzz_http(count):
    server = make_server(port=0, log_level="critical", time_limit=10.0, max_concurrent=2,
                         player_defaults={"threads": 1})
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started and time.time() < deadline:
        time.sleep(0.02)
    assert server.started
    host, port = server.servers[0].sockets[0].getsockname()[:2]
    sent = 0
    good = {"view": _VIEW, "player": PLAYER}
    try:
        with httpx.Client(base_url=f"http://{host}:{port}", timeout=30) as http:
            expected = http.post("/api/call", json=good).json()
            assert expected["call"] == "2C"

            @_settings(count)
            @given(request=bad_http_requests())
            def one(request):
                nonlocal sent
                method, path, body, headers = request
                r = http.request(method, path, content=body, headers=headers)
                sent += 1
                assert 400 <= r.status_code < 500, (request, r.status_code, r.text)
                error = r.json()["error"]
                assert error["code"] in CODES and error["code"] != "internal", error
                assert error["message"]

            one()
            assert sent >= count
            assert http.post("/api/call", json=good).json() == expected
            assert http.get("/api/info").status_code == 200
    finally:
        server.should_exit = True
        thread.join(30)
    return sent


def test_fuzz_the_http_api():
    assert _fuzz_http(CI_MESSAGES) >= CI_MESSAGES


@pytest.mark.slow
def test_fuzz_the_http_api_10000():
    assert _fuzz_http(SLOW_MESSAGES) >= SLOW_MESSAGES


# -- the Blue Chip table manager -------------------------------------------------------------------
#: what the table manager must accept from North when North (the dealer) is to make the
#: first call: a pass or any bid, maybe with an annotation (an independent reading of the
#: grammar: docs/protocol-bluechip.md)
_NORTH_CALL = re.compile(r"^(north|n)\s+(passes|pass|bids\s+[1-7]\s*(nt|n|c|d|h|s))\s*\.?"
                         r"(\s+(alert|infos)\b.*)?$", re.I | re.S)
_TEMPLATES = [
    'Connecting "{t}" as {s} using protocol version 18', "{s} ready for teams",
    "{s} ready to start", "{s} ready for deal", "{s} ready for cards", "{s} ready for dummy",
    "{s} ready for {o}'s bid", "{s} ready for {o}'s card to trick {k}",
    "{s} ready for dummy's card to trick {k}", "{s} passes", "{s} doubles", "{s} redoubles",
    "{s} bids {b}", "{s} bids {b} Alert. {t}", "{s} plays {c}", "Dummy plays {c}",
]


def _valid_for_north(raw: bytes) -> bool:
    text = raw.decode("latin-1")
    if not text.strip():
        return True          # ignored, not answered
    return bool(_NORTH_CALL.match(" ".join(text.split())))


@st.composite
def bad_tm_lines(draw):
    kind = draw(st.sampled_from(["text", "bytes", "template", "edit", "long"]))
    if kind == "text":
        raw = draw(_text(max_size=80)).encode("utf-8")
    elif kind == "bytes":
        raw = draw(st.binary(max_size=80))
    elif kind == "long":
        raw = b"North passes " + b"x" * draw(st.integers(4100, 6000))
    else:
        seats = ["North", "East", "South", "West", "NORTH", "n", "e", "dummy", "Nobody"]
        line = draw(st.sampled_from(_TEMPLATES)).format(
            s=draw(st.sampled_from(seats)), o=draw(st.sampled_from(seats)),
            t=draw(st.text(alphabet="abcXYZ 9", max_size=8)),
            k=draw(st.integers(0, 20)),
            b=draw(st.sampled_from(["1C", "2NT", "7N", "8C", "0S", "1X", "3 H", "1"])),
            c=draw(st.sampled_from(["2C", "AS", "TS", "10H", "1C", "ZZ", "CQ", "S"])))
        if kind == "edit":
            line = _mutate_text(draw, line)
        raw = line.encode("latin-1", "replace")
    raw = raw.replace(b"\r", b"").replace(b"\n", b"")
    if _valid_for_north(raw):
        raw = b"?" + raw
    return raw


def _fuzz_tm(count):
    # the same board without fuzzing, in memory: the reference
    ref_tm = TableManager(boards_from_seed(9, 1))
    ref = Table(ref_tm)
    for s in Seat:
        ref.add(s.letter, BlueChipClient(SystemPlayer(), s, "T"))
    assert ref.run() and ref_tm.records[0].finished

    tm = TableManager(boards_from_seed(9, 1), timeout=3600, seat_timeout=120)
    server = TableManagerServer(tm, port=0)
    port = server.start_thread()
    threads = []
    others = {}
    for s in (E, S, W):
        others[s] = BlueChipClient(SystemPlayer(), s, "T")
        threads.append(threading.Thread(target=run_client, args=("127.0.0.1", port,
                                                                 others[s]),
                                        kwargs={"timeout": 3600}, daemon=True))
        threads[-1].start()
    north = BlueChipClient(SystemPlayer(), N, "T")
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    lines = LineSocket(sock, max_line=1 << 16)
    sent = 0
    try:
        held = []
        for line in north.start():
            lines.send(line)
        while not held:       # the handshake, up to North's first call
            answers = north.receive(lines.read_line())
            if any(re.match(r"North (passes|bids|doubles|redoubles)", a) for a in answers):
                held = answers
            else:
                for a in answers:
                    lines.send(a)
        assert tm.conns[tm.seats[N]].stage == "play" and tm.board.auction.to_act == N

        @_settings(count)
        @given(raw=bad_tm_lines())
        def one(raw):
            nonlocal sent
            sock.sendall(raw + b"\r\n")
            reply = lines.read_line()
            sent += 1
            assert reply is not None and reply.startswith("Error "), (raw, reply)

        one()
        assert sent >= count
        assert tm.board is not None and tm.board.events == []
        for a in held:
            lines.send(a)
        while not north.finished:
            line = lines.read_line()
            if line is None:
                break
            for a in north.receive(line):
                lines.send(a)
        for t in threads:
            t.join(60)
        assert server.join(30)
        assert tm.finished and tm.records[0].finished
        assert north.errors == [] and north.problems == []
        rec, want = tm.records[0], ref_tm.records[0]
        assert (rec.calls, rec.played, rec.score) == (want.calls, want.played, want.score)
    finally:
        lines.close()
        if not tm.finished:
            server.stop()
    return sent


def test_fuzz_the_table_manager():
    assert _fuzz_tm(CI_MESSAGES) >= CI_MESSAGES


@pytest.mark.slow
def test_fuzz_the_table_manager_10000():
    assert _fuzz_tm(SLOW_MESSAGES) >= SLOW_MESSAGES
