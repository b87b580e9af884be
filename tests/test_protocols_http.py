"""Tests of the HTTP robot API (ai.protocols.http): the same board as through the JSON
engine, every endpoint, the errors, the published schemas, and the limits (body size,
decision time, concurrency) on a real uvicorn server bound to the loopback address."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from ai.game import play_board, view_of
from ai.robot import ComputerPlayer
from ddsolver.table import Seat, Vulnerability

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from ai.protocols.http import create_app, make_server  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from protocol_referee import DEAL, PLAYER, PLAYER_SETTINGS, play_stateless  # noqa: E402

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
AUCTION = ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(player_defaults={"threads": 1})) as c:
        yield c


def _view(seat, calls=(), played=()):
    return view_of(DEAL, seat, dealer=N, vulnerability="None", calls=list(calls),
                   played=list(played)).to_dict()


def _error(response, status, code, *phrases):
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    for p in phrases:
        assert p in body["error"]["message"], body
    return body


def test_the_same_board_as_the_computers_and_the_json_engine(client):
    players = {s: ComputerPlayer("easy", seed=PLAYER["seed"], **PLAYER_SETTINGS)
               for s in Seat}
    result = play_board(DEAL, players, N, "None")

    def ask_call(view):
        r = client.post("/api/call", json={"view": view, "player": PLAYER})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["seat"] == view["seat"] and body["explanation"]["call"] == body["call"]
        return body["call"]

    def ask_card(view):
        r = client.post("/api/card", json={"view": view, "player": PLAYER})
        assert r.status_code == 200, r.text
        return r.json()["seat"], r.json()["card"]

    calls, play = play_stateless(DEAL, N, Vulnerability.NONE, ask_call, ask_card)
    assert calls == [str(c) for c in result.calls]
    assert play == [(s.letter, str(c)) for s, c in result.play]
    # the board's end as the API sees it
    final = view_of(DEAL, N, dealer=N, vulnerability="None", calls=result.calls,
                    played=result.play).to_dict()
    state = client.post("/api/state", json={"view": final}).json()
    assert state["phase"] == "over" and state["result"] == {
        "contract": "3NT", "declarer": "N", "tricks": result.tricks, "score": result.score}


def test_info_explain_hint_and_state(client):
    info = client.get("/api/info").json()
    assert info == {"engine": "ddsolver", "version": info["version"], "protocol": 1,
                    "levels": ["easy", "medium", "hard"], "scorings": ["IMP", "MP"],
                    "limits": {"max_body": 65536, "time_limit": 10.0,
                               "max_time_budget": 5.0, "max_concurrent": 2}}
    view = _view(S, ["1NT", "Pass"])
    r = client.post("/api/explain", json={"view": view, "call": "2C"})
    assert r.status_code == 200
    assert r.json()["call"] == "2C" and r.json()["index"] is None
    assert r.json()["explanation"]["name"] == "Stayman"
    r = client.post("/api/explain", json={"view": view, "index": 0})
    assert r.json()["explanation"]["constraints"]["hcp"] == [15, 17]
    hint = client.post("/api/hint", json={"view": view, "player": PLAYER}).json()
    call = client.post("/api/call", json={"view": view, "player": PLAYER}).json()
    assert hint["phase"] == "auction" and hint["call"] == call["call"] and "card" not in hint
    lead = _view(E, AUCTION)
    hint = client.post("/api/hint", json={"view": lead, "player": PLAYER}).json()
    assert hint["phase"] == "play" and hint["seat"] == "E" and len(hint["cards"]) == 13
    assert "call" not in hint
    state = client.post("/api/state", json={"view": lead}).json()
    assert state == {"seat": "E", "phase": "play", "to_call": None, "to_play": "E",
                     "your_turn": True, "contract": "3NT", "declarer": "N",
                     "tricks": {"declarer": 0, "defenders": 0}, "trick": [],
                     "legal_cards": state["legal_cards"], "result": None}
    assert len(state["legal_cards"]) == 13
    # declarer's view plays dummy's card; plain cards instead of [seat, card] pairs
    view = {**_view(N, AUCTION), "played": ["H2"], "dummy_hand": DEAL[S].to_pbn()}
    r = client.post("/api/card", json={"view": view, "player": PLAYER})
    assert r.status_code == 200 and r.json()["seat"] == "S"
    assert r.json()["card"] in ("HA", "H8", "H6")


def test_errors_have_a_status_a_code_and_a_message(client):
    view = _view(S, ["1NT", "Pass"])
    _error(client.post("/api/call", content=b"{bad",
                       headers={"content-type": "application/json"}), 400, "bad_json")
    # the decoder's reason and the place: a truncated body, bytes that are not UTF-8
    _error(client.post("/api/call", content=b'{"view": {"seat": "N"',
                       headers={"content-type": "application/json"}), 400, "bad_json",
           "Expecting ',' delimiter at character 21")
    _error(client.post("/api/call", content=b'\xff\xfe{}',
                       headers={"content-type": "application/json"}), 400, "bad_json",
           "not UTF-8", "position 0")
    _error(client.post("/api/call", content=b"", headers={"content-type":
                                                          "application/json"}),
           400, "bad_json")
    _error(client.post("/api/call", json=[1, 2]), 422, "bad_message", "'view'")
    # any JSON that is not an object is a bad message, text included (it was bad_json)
    for value in (b'"abc"', b"5", b"true", b"null"):
        _error(client.post("/api/call", content=value, headers={"content-type":
                                                                "application/json"}),
               422, "bad_message", "a JSON object with a 'view'")
    _error(client.post("/api/call", content=b'{"view": {}}', headers={"content-type":
                                                                     "text/plain"}),
           400, "bad_json", "application/json")
    _error(client.post("/api/call", json={}), 422, "bad_message", "view")
    _error(client.post("/api/call", json={"view": view, "extra": 1}), 422, "bad_message",
           "extra")
    _error(client.post("/api/call", json={"view": {**view, "seat": 3}}), 422,
           "bad_message", "view.seat")
    _error(client.post("/api/call", json={"view": {**view, "seat": "Q"}}), 422,
           "bad_notation", "'Q' is not a seat")
    _error(client.post("/api/call", json={"view": {**view, "auction": ["1NT", "1C"]}}),
           422, "illegal_call")
    _error(client.post("/api/call", json={"view": {**view, "hand": "AKQ.J.T.9"}}), 422,
           "invalid_view", "has 6 cards")
    _error(client.post("/api/call", json={"view": view, "player": {"level": "god"}}),
           422, "bad_message", "level")
    _error(client.post("/api/call", json={"view": view, "player": {"time_budget": 11}}),
           422, "bad_message", "time_budget")
    # a budget as long as the limit (10 s) would always end in 504: at most half of it
    _error(client.post("/api/call", json={"view": view, "player": {"time_budget": 10}}),
           422, "bad_message", "'time_budget' must be a number of seconds in (0, 5]")
    assert client.post("/api/card", json={"view": _view(E, AUCTION), "player": {
        **PLAYER, "time_budget": 5}}).status_code == 200
    _error(client.post("/api/card", json={"view": view}), 409, "out_of_turn",
           "auction is not over")
    _error(client.post("/api/call", json={"view": _view(W, ["1NT"])}), 409,
           "out_of_turn", "East is to call, not West")
    _error(client.post("/api/card", json={"view": {**_view(S, AUCTION), "played": ["H2"],
                                                   "dummy_hand": DEAL[S].to_pbn()}}),
           409, "out_of_turn", "South is dummy")
    _error(client.post("/api/card", json={"view": {**_view(N, AUCTION),
                                                   "played": ["H2"]}}),
           422, "invalid_view", "dummy_hand")
    _error(client.post("/api/explain", json={"view": view}), 422, "bad_message",
           "either 'index'")
    _error(client.post("/api/explain", json={"view": view, "index": 5}), 422,
           "bad_message", "not a call of the auction")
    _error(client.get("/api/nothing"), 404, "not_found", "/api/nothing")
    r = client.get("/api/call")
    assert r.status_code == 405 and r.json()["error"]["code"] == "not_found"
    assert client.head("/api/call").status_code == 405
    _error(client.post("/api/call", content=b"x" * 70000), 413, "too_large", "65536")


def test_the_player_object_is_checked_as_by_the_json_engine(client):
    """The same code checks the player object through both doors: the same answers, the
    same error codes and messages (no text, boolean or fraction for an integer)."""
    from ai.protocols.jsonstdio import Engine

    engine = Engine(player_defaults={"threads": 1}, max_time_budget=5.0)   # the server's
    view = _view(S, ["1NT", "Pass"])
    bad = [{"samples": "5"}, {"samples": True}, {"samples": 5.0}, {"samples": None},
           {"min_samples": 501}, {"lead_samples": 0}, {"threads": 1.0}, {"threads": "1"},
           {"seed": True}, {"seed": 1.5}, {"seed": 2 ** 63}, {"seed": "x" * 201},
           {"level": None}, {"level": "expert"}, {"time_budget": "1"},
           {"time_budget": False}, {"time_budget": 0}, {"colour": "red"}, "easy", [1], 3]
    for player in bad:
        r = client.post("/api/call", json={"view": view, "player": player})
        expected = engine.handle({"type": "get_call", "view": view, "player": player})
        assert expected["type"] == "error", player
        body = _error(r, 422, expected["code"])
        assert body["error"]["message"] == expected["message"], player
    for player in (None, {}, {**PLAYER, "seed": "text", "time_budget": 1},
                   {**PLAYER, "seed": None, "level": "medium", "time_budget": 0.5}):
        r = client.post("/api/call", json={"view": view, "player": player})
        expected = engine.handle({"type": "get_call", "view": view, "player": player})
        assert r.status_code == 200, (player, r.text)
        assert r.json()["call"] == expected["call"] == "2C"
    # the explain endpoint's player too
    _error(client.post("/api/explain", json={"view": view, "call": "2C",
                                             "player": {"samples": "5"}}),
           422, "bad_message", "'samples' must be an integer 1..500, got '5'")
    engine.close()


def test_the_openapi_schemas_describe_every_endpoint(client):
    spec = client.get("/openapi.json").json()
    assert set(spec["paths"]) == {"/api/info", "/api/call", "/api/card", "/api/explain",
                                  "/api/hint", "/api/state"}
    schemas = spec["components"]["schemas"]
    for name in ("View", "Player", "DecisionRequest", "ExplainRequest", "CallAnswer",
                 "CardAnswer", "HintAnswer", "StateAnswer", "ErrorAnswer", "Explanation"):
        assert name in schemas, name
    assert set(schemas["View"]["properties"]) == {
        "seat", "hand", "dealer", "vulnerability", "scoring", "auction", "played",
        "dummy_hand", "explanations"}
    assert schemas["View"]["additionalProperties"] is False
    assert set(schemas["Player"]["properties"]) == {
        "level", "seed", "samples", "lead_samples", "min_samples", "time_budget", "threads"}
    assert "Player" in str(schemas["DecisionRequest"]["properties"]["player"])
    call = spec["paths"]["/api/call"]["post"]
    assert call["responses"]["200"]["content"]["application/json"]["schema"]["$ref"] \
        .endswith("/CallAnswer")
    assert {"409", "413", "422", "503", "504"} <= set(call["responses"])


class _SlowLead:
    """A computer that takes ``delay`` seconds (asleep, using no processor) over an opening
    lead, and answers everything else at once."""

    def __init__(self, spec, delay):
        self.inner = spec.make()
        self.system = self.inner.system
        self.delay = delay

    def card(self, view):
        if not view.played:
            time.sleep(self.delay)
        return self.inner.card(view)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@contextmanager
def _running(**options):
    """A real uvicorn server on the loopback address (any free port), with ``options`` for
    :func:`create_app`: yields (server, base URL, host)."""
    server = make_server(port=0, log_level="warning", **options)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.time() + 20
        while not server.started and time.time() < deadline:
            time.sleep(0.02)
        assert server.started
        host, port = server.servers[0].sockets[0].getsockname()[:2]
        yield server, f"http://{host}:{port}", host
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@pytest.fixture
def live_server():
    """A real uvicorn server on the loopback address, one decision at a time, 0.3 s
    each at most, whose computer takes 4 s over an opening lead."""
    with _running(time_limit=0.3, max_concurrent=1, max_body=4096,
                  player_defaults={"threads": 1},
                  make_player=lambda spec: _SlowLead(spec, 4.0)) as running:
        yield running


def test_a_slow_decision_answers_504_and_the_server_keeps_answering(live_server):
    server, base, host = live_server
    assert host == "127.0.0.1" and server.config.host == "127.0.0.1"
    slow = {"view": _view(E, AUCTION), "player": PLAYER}
    quick = {"view": _view(S, ["1NT", "Pass"]), "player": PLAYER}
    with httpx.Client(base_url=base, timeout=30) as http:
        _error(http.post("/api/card", json=slow), 504, "timeout", "0.3 s")
        # the decision is still running (its slot is taken: another decision is refused),
        # and the server answers meanwhile
        assert http.get("/api/info").status_code == 200
        _error(http.post("/api/call", json=quick), 503, "busy")
        # once it has finished, decisions are served again, and correctly
        deadline = time.time() + 60
        while True:
            r = http.post("/api/call", json=quick)
            if r.status_code != 503 or time.time() > deadline:
                break
            time.sleep(0.1)
        assert r.status_code == 200 and r.json()["call"] == "2C"
        assert r.headers["content-type"] == "application/json"


def test_a_decision_past_the_time_limit_stops_soon_after_even_with_min_samples():
    """min_samples layouts are solved whatever the time budget, but the server's time
    limit is a hard cap for the computer: two decisions asked to solve 500 opening-lead
    layouts each (many seconds) are answered 504 at the limit and give their slots back
    soon after, instead of keeping every other request at 503 until they end."""
    heavy = {"view": _view(E, AUCTION), "player": {
        "level": "hard", "samples": 500, "lead_samples": 500, "min_samples": 500}}
    quick = {"view": _view(S, ["1NT", "Pass"]), "player": PLAYER}
    with _running(time_limit=1.0, max_concurrent=2, player_defaults={"threads": 1}) as (
            _, base, _host), httpx.Client(base_url=base, timeout=60) as http:
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda _: http.post("/api/card", json=heavy), range(2)))
        timed_out = time.monotonic()
        for r in answers:
            _error(r, 504, "timeout", "1 s")
        while True:
            r = http.post("/api/call", json=quick)
            if r.status_code != 503 or time.monotonic() - timed_out > 60:
                break
            time.sleep(0.05)
        freed = time.monotonic() - timed_out
        assert r.status_code == 200 and r.json()["call"] == "2C"
        assert freed < 4.0, f"the slots were taken {freed:.1f} s after the 504s"


def test_head_is_answered_where_get_is(live_server):
    """HEAD /api/info: the status and headers of GET, without the body."""
    _, base, _ = live_server
    with httpx.Client(base_url=base, timeout=30) as http:
        get, head = http.get("/api/info"), http.head("/api/info")
        assert head.status_code == get.status_code == 200
        assert head.content == b""
        assert head.headers["content-type"] == get.headers["content-type"]
        assert head.headers["content-length"] == get.headers["content-length"]


def test_a_decision_that_ends_past_the_limit_is_a_timeout_even_if_it_wins_the_race():
    """A decision cut by the time limit ends past it; when the event loop is busy its answer
    can reach the loop before the limit's timer does: it is still answered 504 (and one
    that ended in time is answered, however late the loop sees it)."""
    import asyncio

    from ai.protocols.decisions import PlayerPool, ProtocolError
    from ai.protocols.http import _Decider

    decider = _Decider(0.1, 2, PlayerPool(1), {})

    async def decide(seconds):
        task = asyncio.ensure_future(decider.run(lambda: time.sleep(seconds) or "card"))
        await asyncio.sleep(0)      # the decision is handed to its worker thread
        time.sleep(0.5)             # the loop is held past the limit and the decision's end
        return await task

    try:
        with pytest.raises(ProtocolError) as err:
            asyncio.run(decide(0.3))
        assert err.value.code == "timeout"
        assert asyncio.run(decide(0.01)) == "card"
    finally:
        decider.close()


def test_the_body_limit_holds_with_and_without_a_length(live_server):
    server, base, host = live_server
    with httpx.Client(base_url=base, timeout=30) as http:
        _error(http.post("/api/call", content=b"{" + b" " * 5000 + b"}",
                         headers={"content-type": "application/json"}), 413, "too_large")

        def chunks():
            for _ in range(10):
                yield b" " * 1000
        _error(http.post("/api/call", content=chunks(),
                         headers={"content-type": "application/json"}), 413, "too_large")
        assert http.get("/api/info").json()["limits"]["max_body"] == 4096
    # raw garbage on the socket gets an HTTP error, and the server lives on
    with socket.create_connection((host, int(base.rsplit(":", 1)[1])), timeout=10) as s:
        s.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        head, _, body = _read_all(s).partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400")
        assert b"content-type: application/json" in head.lower()
        assert json.loads(body)["error"]["code"] == "bad_http"
    with httpx.Client(base_url=base, timeout=30) as http:
        assert http.get("/api/info").status_code == 200


def test_the_command_serves_on_the_loopback_address():
    import re
    import subprocess

    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "ai", "http", "--port", "0",
                             "--time-limit", "5", "--max-body", "2048"],
                            cwd=root, stderr=subprocess.PIPE, text=True)
    try:
        url = None
        for line in proc.stderr:
            m = re.search(r"Uvicorn running on (http://[\d.]+:\d+)", line)
            if m:
                url = m.group(1)
                break
        assert url is not None and url.startswith("http://127.0.0.1:")
        info = httpx.get(url + "/api/info", timeout=30).json()
        assert info["limits"] == {"max_body": 2048, "time_limit": 5.0,
                                  "max_time_budget": 2.5, "max_concurrent": 2}
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_body_that_cannot_be_decoded_says_why(client):
    """Bytes that are not UTF-8 inside the JSON, or JSON nested too deeply for the
    decoder, are 400 bad_json naming the reason (it was "There was an error parsing the
    body")."""
    view = _view(S, ["1NT", "Pass"])
    body = ('{"view": {"seat": "S", "hand": "%s", "dealer": "\xff"}}'
            % view["hand"]).encode("latin-1")
    _error(client.post("/api/call", content=body,
                       headers={"content-type": "application/json"}), 400, "bad_json",
           "not UTF-8")
    for deep in (b"[" * 30000 + b"]" * 30000,      # within the 64 KiB limit
                 b'{"view": ' + b'{"a":' * 5000 + b"1" + b"}" * 5001):
        _error(client.post("/api/call", content=deep,
                           headers={"content-type": "application/json"}), 400,
               "bad_json", "nested too deeply")



def test_a_body_in_utf_16_or_32_is_refused_as_not_utf_8(client):
    """The documented encoding is UTF-8 (docs/protocol-http.md: a body that is not UTF-8
    is 400 bad_json).  Python's json.loads on bytes also guesses UTF-16 and UTF-32 (with or
    without a byte-order mark), so such bodies were answered as if they were UTF-8; a
    program checking requests on their way reads them otherwise.  Refused, whatever the
    endpoint; the same request in UTF-8 is answered."""
    view = _view(S, ["1NT", "Pass"])
    text = json.dumps({"view": view})
    for encoding in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"):
        for path in ("/api/call", "/api/state"):
            _error(client.post(path, content=text.encode(encoding),
                               headers={"content-type": "application/json"}), 400,
                   "bad_json", "not UTF-8")
    assert client.post("/api/state", content=text.encode("utf-8"),
                       headers={"content-type": "application/json"}).status_code == 200


def test_numbers_of_the_explain_request_are_json_numbers(client):
    """``index`` is an integer as in the JSON engine: text, a boolean or a fraction is
    refused (422 bad_message), not read as a number."""
    view = _view(S, ["1NT", "Pass"])
    for index in ("0", True, 0.0, "1"):
        _error(client.post("/api/explain", json={"view": view, "index": index}), 422,
               "bad_message", "index")
    assert client.post("/api/explain", json={"view": view, "index": 0}).json()["call"] \
        == "1NT"


def _read_all(sock, timeout=10.0) -> bytes:
    sock.settimeout(timeout)
    data = b""
    while True:
        more = sock.recv(4096)
        if not more:
            return data
        data += more


def test_slow_clients_are_cut_off_and_answered_in_json():
    """A client must send its whole request within the request timeout: a connection
    that sends nothing is closed, one that sends part of its headers or of its body gets
    408 request_timeout in JSON; a request is timed from its connection, not its decision
    (uvicorn alone waited for ever: 64 such connections took every slot)."""
    with _running(request_timeout=0.5, player_defaults={"threads": 1}) as (_, base, host):
        port = int(base.rsplit(":", 1)[1])
        body = b'{"view": {"seat": "S", "hand": "JT97.A86.A87.T96", "dealer": "N"}}'
        head = (b"POST /api/call HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % len(body))
        for sent in (b"", b"POST /api/call HTTP/1.1\r\nHost: x\r\n", head + body[:10]):
            with socket.create_connection((host, port), timeout=10) as s:
                start = time.monotonic()
                s.sendall(sent)
                data = _read_all(s)
                assert time.monotonic() - start < 5, sent
            if not sent:
                assert data == b""
                continue
            status, _, rest = data.partition(b"\r\n")
            assert status.startswith(b"HTTP/1.1 408"), data
            assert b"content-type: application/json" in rest.lower()
            err = json.loads(rest.split(b"\r\n\r\n", 1)[1])["error"]
            assert err["code"] == "request_timeout" and "0.5 s" in err["message"], err
        # a whole request sent in time is answered, however slowly it is decided
        with httpx.Client(base_url=base, timeout=30) as http:
            r = http.post("/api/call", json={"view": _view(S, ["1NT", "Pass"]),
                                             "player": PLAYER})
            assert r.status_code == 200 and r.json()["call"] == "2C"


def test_connections_beyond_the_limit_are_refused_in_json():
    """More connections than the server serves: the extra ones get 503 busy in JSON with
    Retry-After, the others are served (uvicorn's own limit answered every connection
    'Service Unavailable' in plain text while more than the limit were open)."""
    with _running(max_connections=3) as (_, base, host):
        port = int(base.rsplit(":", 1)[1])
        socks = [socket.create_connection((host, port), timeout=10) for _ in range(5)]
        time.sleep(0.3)     # all five are open before any request is read
        try:
            for s in socks:
                s.sendall(b"GET /api/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answers = [_read_all(s) for s in socks]
        finally:
            for s in socks:
                s.close()
        ok = [a for a in answers if a.startswith(b"HTTP/1.1 200")]
        busy = [a for a in answers if a.startswith(b"HTTP/1.1 503")]
        assert len(ok) == 3 and len(busy) == 2, answers
        for a in busy:
            head, _, body = a.partition(b"\r\n\r\n")
            assert b"retry-after: 1" in head.lower()
            assert b"content-type: application/json" in head.lower()
            assert json.loads(body)["error"]["code"] == "busy"
        with httpx.Client(base_url=base, timeout=30) as http:
            assert http.get("/api/info").status_code == 200


def test_the_docs_page_is_served_and_its_cdn_is_documented(client):
    # docs/protocol-http.md says /docs loads Swagger UI from the jsDelivr CDN (needs the
    # Internet) while /openapi.json is served here: both halves checked
    page = client.get("/docs")
    assert page.status_code == 200 and "cdn.jsdelivr.net" in page.text
    assert "jsDelivr CDN" in (Path(__file__).parents[1] / "docs/protocol-http.md").read_text()
    schema = client.get("/openapi.json")
    assert schema.status_code == 200 and schema.json()["info"]["title"] == "ddsolver robot API"


def test_a_key_named_twice_is_refused_as_by_the_json_engine(client):
    """{"view": {"seat": "S", ..., "seat": "N"}} was answered for North (the last value
    wins), where the JSON engine refuses a key named twice (bad_json): a program that
    checks the request before it reaches the server may read the first.  Refused, with
    the key named, at any depth."""
    view = _view(S, ["1NT", "Pass"])
    body = json.dumps({"view": view})[:-2] + ', "seat": "N"}}'
    _error(client.post("/api/state", content=body.encode(),
                       headers={"content-type": "application/json"}), 400, "bad_json",
           "'seat' appears twice")
    body = '{"view": %s, "view": %s}' % (json.dumps(view), json.dumps(_view(N)))
    _error(client.post("/api/call", content=body.encode(),
                       headers={"content-type": "application/json"}), 400, "bad_json",
           "'view' appears twice")
    # the same keys in different objects are no repetition
    assert client.post("/api/state", json={"view": view}).status_code == 200
