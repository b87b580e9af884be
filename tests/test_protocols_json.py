"""Tests of the JSON-lines engine (ai.protocols.jsonstdio) and the shared request reading
(ai.protocols.decisions): a whole board in the stateful and the stateless modes, in-process
and over real stdin/stdout, every error code, several boards per process."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ai.game import play_board, view_of
from ai.protocols.decisions import CODES, PlayerSpec, ProtocolError, view_from_json
from ai.protocols.jsonstdio import Engine, serve
from ai.robot import ComputerPlayer
from ddsolver.table import Seat, Vulnerability

sys.path.insert(0, str(Path(__file__).parent))
from protocol_referee import DEAL, PLAYER, PLAYER_SETTINGS, play_stateful, play_stateless  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


@pytest.fixture(scope="module")
def reference():
    """The board played by four seeded computers directly (ai.game.play_board)."""
    players = {s: ComputerPlayer("easy", seed=PLAYER["seed"], **PLAYER_SETTINGS)
               for s in Seat}
    result = play_board(DEAL, players, N, "None")
    return ([str(c) for c in result.calls], [(s.letter, str(c)) for s, c in result.play],
            result)


def _stateless_engine_askers(engine):
    def ask_call(view):
        answer = engine.handle({"type": "get_call", "view": view, "player": PLAYER})
        assert answer["type"] == "call", answer
        assert answer["explanation"]["call"] == answer["call"]
        return answer["call"]

    def ask_card(view):
        answer = engine.handle({"type": "get_card", "view": view, "player": PLAYER})
        assert answer["type"] == "card", answer
        return answer["seat"], answer["card"]
    return ask_call, ask_card


def test_a_whole_board_stateful_and_stateless_gives_the_computers_calls_and_cards(reference):
    calls, play, result = reference
    assert result.contract is not None and len(play) == 52
    engines = {s: Engine() for s in Seat}
    s_calls, s_play, states = play_stateful(DEAL, N, Vulnerability.NONE,
                                            {s: engines[s].handle for s in Seat})
    assert s_calls == calls and s_play == play
    for seat in Seat:
        state = states[seat]
        assert state["phase"] == "over" and state["to_play"] is None
        assert state["result"] == {"contract": "3NT", "declarer": "N",
                                   "tricks": result.tricks, "score": result.score}
        assert state["tricks"] == {"declarer": result.tricks,
                                   "defenders": 13 - result.tricks}
    engine = Engine()
    l_calls, l_play = play_stateless(DEAL, N, Vulnerability.NONE,
                                     *_stateless_engine_askers(engine))
    assert l_calls == calls and l_play == play
    # the stateless requests left the engine without a board
    assert engine.handle({"type": "state"})["code"] == "no_board"


def _process():
    return subprocess.Popen([sys.executable, "-m", "ai", "engine"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def _sender(proc):
    def send(msg):
        proc.stdin.write((json.dumps(msg) + "\n").encode())
        proc.stdin.flush()
        line = proc.stdout.readline()
        assert line.endswith(b"\n")
        return json.loads(line)
    return send


def test_engine_processes_over_stdin_and_stdout_play_the_same_board(reference):
    calls, play, _ = reference
    procs = {s: _process() for s in Seat}
    try:
        sends = {s: _sender(p) for s, p in procs.items()}
        hello = sends[N]({"type": "hello", "id": "h1", "protocol": 1})
        assert hello == {"type": "hello", "engine": "ddsolver", "version": hello["version"],
                         "protocol": 1, "levels": ["easy", "medium", "hard"],
                         "scorings": ["IMP", "MP"], "id": "h1"}
        s_calls, s_play, states = play_stateful(DEAL, N, Vulnerability.NONE, sends)
        assert s_calls == calls and s_play == play
        # a stateless request to the same process, after the board
        view = view_of(DEAL, W, dealer=N, vulnerability="None", calls=calls[:3]).to_dict()
        answer = sends[W]({"type": "get_call", "view": view, "player": PLAYER})
        assert answer["call"] == calls[3]
        for s, send in sends.items():
            assert send({"type": "quit", "id": 9}) == {"type": "bye", "id": 9}
        for p in procs.values():
            assert p.wait(timeout=30) == 0
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()


def _board(engine, seat="S", hand=None, **extra):
    msg = {"type": "new_board", "seat": seat, "hand": hand or DEAL[Seat.from_str(seat)]
           .to_pbn(), "dealer": "N", "vulnerability": "None", "player": PLAYER}
    msg.update(extra)
    return engine.handle(msg)


def _error(answer, code, *phrases):
    assert answer["type"] == "error", answer
    assert answer["code"] == code, answer
    assert answer["code"] in CODES
    for p in phrases:
        assert p in answer["message"], answer
    return answer


def test_errors_name_the_problem_and_change_nothing():
    e = Engine()
    _error(e.handle({"type": "get_call"}), "no_board", "new_board")
    _error(e.handle({"type": "dummy", "hand": "AKQ.J.T.9"}), "no_board")
    assert _board(e)["type"] == "state"
    before = e.handle({"type": "state"})
    bad = [
        ([1, 2], "bad_message", "JSON object"),
        ({"call": "1C"}, "bad_message", "'type'"),
        ({"type": 7}, "bad_message", "'type'"),
        ({"type": "bid"}, "unknown_type", "'bid'"),
        ({"type": "call", "seat": "N", "call": "1C", "alert": True}, "bad_message",
         "unknown field 'alert'"),
        ({"type": "call", "seat": "N"}, "bad_message", "'call'"),
        ({"type": "call", "seat": "Q", "call": "1C"}, "bad_notation", "'Q' is not a seat"),
        ({"type": "call", "seat": "N", "call": "8C"}, "bad_notation", "'8C' is not a call"),
        ({"type": "call", "seat": "E", "call": "1C"}, "out_of_turn",
         "North is to call, not East"),
        ({"type": "call", "seat": "N", "call": "X"}, "illegal_call", "X by North"),
        ({"type": "card", "seat": "E", "card": "SA"}, "out_of_turn", "auction is not over"),
        ({"type": "card", "seat": "E", "card": "S1"}, "bad_notation", "'S1' is not a card"),
        ({"type": "get_call"}, "out_of_turn", "North is to call, not South"),
        ({"type": "get_card"}, "out_of_turn", "auction is not over"),
        ({"type": "get_call", "play": "yes"}, "bad_message", "'play'"),
        ({"type": "get_call", "player": {"level": "easy"}}, "bad_message", "new_board"),
        ({"type": "dummy", "hand": "AQ4.KJ5.Q963.KJ2"}, "out_of_turn", "opening lead"),
        ({"type": "explain", "index": 0}, "bad_message", "no call has been made"),
        ({"type": "explain"}, "bad_message", "either 'index'"),
        ({"type": "explain", "call": "1C", "index": 0}, "bad_message", "either"),
        ({"type": "hint"}, "out_of_turn", "North is to call"),
        ({"type": "hello", "protocol": 2}, "bad_message", "protocol 1, not 2"),
        ({"type": "quit", "id": {"a": 1}}, "bad_message", "'id'"),
    ]
    for msg, code, phrase in bad:
        _error(e.handle(msg), code, phrase)
        assert e.handle({"type": "state"}) == before
    assert not e.finished
    # id is echoed on errors too
    assert e.handle({"type": "nope", "id": 41})["id"] == 41
    # text lines
    assert json.loads(e.handle_line("not json"))["code"] == "bad_json"
    assert json.loads(e.handle_line(b"\xff\xfe"))["code"] == "bad_json"
    assert json.loads(e.handle_line("[" * 100000))["code"] == "bad_json"
    # a key named twice is refused, not read as its last value (which would quit here)
    twice = json.loads(e.handle_line('{"type": "state", "type": "quit"}'))
    assert twice["code"] == "bad_json" and "'type' appears twice" in twice["message"]
    assert not e.finished
    assert json.loads(e.handle_line(b"x" * (e.max_line + 1)))["code"] == "too_large"
    assert e.handle_line("   ") is None
    assert e.handle({"type": "state"}) == before


def test_new_board_checks_the_hand_and_the_settings():
    e = Engine()
    _error(_board(e, hand="AQ4.KJ5.Q963.KJ"), "invalid_view", "has 12 cards")
    _error(_board(e, hand="AQ4.KJ5.Q963.KJ2X"), "invalid_view")
    _error(_board(e, vulnerability="Some"), "bad_notation", "vulnerability")
    _error(_board(e, scoring="BAM"), "bad_notation", "scoring")
    _error(_board(e, board=0), "bad_message", "'board'")
    _error(_board(e, player={"level": "expert"}), "bad_message", "'level'")
    _error(_board(e, player={"samples": 0}), "bad_message", "'samples'")
    _error(_board(e, player={"time_budget": 1e9}), "bad_message", "'time_budget'")
    _error(_board(e, player={"seed": 1.5}), "bad_message", "'seed'")
    _error(_board(e, player={"samples": 3, "colour": "red"}), "bad_message", "'colour'")
    _error(e.handle({"type": "state"}), "no_board")
    state = _board(e, board=7)
    assert state == {"type": "state", "seat": "S", "phase": "auction", "to_call": "N",
                     "to_play": None, "your_turn": False, "contract": None,
                     "declarer": None, "tricks": {"declarer": 0, "defenders": 0},
                     "trick": [], "legal_cards": [], "needs_dummy": False, "board": 7}


def test_the_play_errors_and_dummy():
    e = Engine()
    _board(e, seat="E")   # East is the opening leader after 1NT-3NT by North-South
    for seat, call in [("N", "1NT"), ("E", "Pass"), ("S", "3NT"), ("W", "Pass"),
                       ("N", "Pass")]:
        assert e.handle({"type": "call", "seat": seat, "call": call})["type"] == "state"
    assert e.handle({"type": "get_call", "play": False})["call"] == "Pass"
    state = e.handle({"type": "call", "seat": "E", "call": "Pass"})
    assert state["phase"] == "play" and state["to_play"] == "E" and state["your_turn"]
    assert state["contract"] == "3NT" and state["declarer"] == "N"
    assert state["legal_cards"] == [str(c) for c in sorted(DEAL[E], key=lambda c: (
        -c.suit, -c.rank))]
    _error(e.handle({"type": "card", "seat": "E", "card": "SA"}), "illegal_card",
           "SA is not a legal card for East")
    _error(e.handle({"type": "card", "seat": "S", "card": "SA"}), "out_of_turn",
           "East is to play, not South")
    state = e.handle({"type": "card", "seat": "E", "card": "H2"})
    assert state["needs_dummy"] is True and state["to_play"] == "S"
    _error(e.handle({"type": "get_card"}), "dummy_needed", "dummy")
    _error(e.handle({"type": "card", "seat": "S", "card": "H6"}), "dummy_needed")
    # the calls need no dummy: explaining one is answered while dummy is awaited, the same
    # as once dummy is known (it was dummy_needed)
    waiting = [e.handle({"type": "explain", "index": i}) for i in (0, 2)]
    assert [w["type"] for w in waiting] == ["explanation", "explanation"], waiting
    _error(e.handle({"type": "dummy", "hand": "JT97.A86.A87.T9"}), "invalid_view",
           "12 cards")
    _error(e.handle({"type": "dummy", "hand": DEAL[E].to_pbn()}), "invalid_view")
    _error(e.handle({"type": "dummy", "hand": 13}), "bad_message", "'hand'")
    state = e.handle({"type": "dummy", "hand": DEAL[S].to_pbn()})
    assert state["needs_dummy"] is False and state["trick"] == [["E", "H2"]]
    assert [e.handle({"type": "explain", "index": i}) for i in (0, 2)] == waiting
    _error(e.handle({"type": "dummy", "hand": DEAL[S].to_pbn()}), "out_of_turn",
           "already known")
    # dummy's cards are known: a card dummy does not hold is refused
    _error(e.handle({"type": "card", "seat": "S", "card": "S2"}), "illegal_card")
    # a card East holds cannot be played by another seat
    assert e.handle({"type": "card", "seat": "S", "card": "H8"})["to_play"] == "W"
    _error(e.handle({"type": "card", "seat": "W", "card": "HT"}), "illegal_card")
    _error(e.handle({"type": "get_card"}), "out_of_turn", "West is to play, not East")
    state = e.handle({"type": "card", "seat": "W", "card": "H3"})
    assert state["to_play"] == "N"
    state = e.handle({"type": "card", "seat": "N", "card": "HJ"})
    assert state["tricks"] == {"declarer": 1, "defenders": 0} and state["to_play"] == "N"
    # explanations of the calls made
    answer = e.handle({"type": "explain", "index": 2})
    assert answer["call"] == "3NT" and answer["index"] == 2
    assert answer["explanation"]["call"] == "3NT"
    _error(e.handle({"type": "explain", "call": "4NT"}), "out_of_turn", "auction is over")


def test_hints_and_explanations_while_bidding():
    e = Engine()
    _board(e, seat="S")
    e.handle({"type": "call", "seat": "N", "call": "1NT"})
    e.handle({"type": "call", "seat": "E", "call": "Pass"})
    hint = e.handle({"type": "hint"})
    call = e.handle({"type": "get_call", "play": False})
    assert hint["phase"] == "auction" and hint["call"] == call["call"]
    assert hint["explanation"] == call["explanation"]
    # "play": false changed nothing
    assert e.handle({"type": "state"})["to_call"] == "S"
    stayman = e.handle({"type": "explain", "call": "2C"})
    assert stayman["index"] is None and stayman["explanation"]["name"] == "Stayman"
    assert stayman["explanation"]["artificial"] is True
    _error(e.handle({"type": "explain", "call": "1C"}), "illegal_call", "1C is not legal")
    one_nt = e.handle({"type": "explain", "index": 0})
    assert one_nt["explanation"]["constraints"]["hcp"] == [15, 17]


def test_a_card_hint_evaluates_every_legal_card():
    e = Engine()
    view = view_of(DEAL, E, dealer=N, vulnerability="None",
                   calls=["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]).to_dict()
    hint = e.handle({"type": "hint", "view": view, "player": PLAYER})
    card = e.handle({"type": "get_card", "view": view, "player": PLAYER})
    assert hint["phase"] == "play" and hint["seat"] == "E"
    assert [c["card"] for c in hint["cards"]] == [str(c) for c in sorted(
        DEAL[E], key=lambda c: (-c.suit, -c.rank))]
    assert all(0 <= c["tricks"] <= 13 and c["utility"] <= 0 for c in hint["cards"])
    best = max(hint["cards"], key=lambda c: c["utility"])
    assert hint["card"] in [c["card"] for c in hint["cards"]]
    assert best["utility"] == [c for c in hint["cards"] if c["card"] == hint["card"]][0][
        "utility"]
    assert card["card"] == hint["card"] and hint["reason"] in ("searched", "early")


def test_several_boards_in_one_process():
    e = Engine()
    _board(e, seat="S")
    e.handle({"type": "call", "seat": "N", "call": "1NT"})
    assert e.handle({"type": "state"})["to_call"] == "E"
    state = e.handle({"type": "new_board", "seat": "W", "hand": DEAL[W].to_pbn(),
                      "dealer": "E", "vulnerability": "All", "scoring": "MP", "board": 2,
                      "player": {"level": "easy", "seed": 1}})
    assert state["seat"] == "W" and state["to_call"] == "E" and state["board"] == 2
    assert e.handle({"type": "call", "seat": "E", "call": "Pass"})["to_call"] == "S"


def test_the_serving_loop_answers_every_line_and_survives_bad_ones():
    lines = [b'{"type":"hello","id":1}', b"", b"   ", b"x" * 5000, b"\xff",
             b'{"type":"state"}', b'{"type":"quit"}', b'{"type":"hello"}']
    out = io.BytesIO()
    engine = Engine(max_line=4096)
    assert serve(io.BytesIO(b"\n".join(lines) + b"\n"), out, engine) == 0
    answers = [json.loads(x) for x in out.getvalue().decode().splitlines()]
    assert [a.get("code", a["type"]) for a in answers] == [
        "hello", "too_large", "bad_json", "no_board", "bye"]
    # the end of the input ends the loop without a quit
    out = io.BytesIO()
    assert serve(io.BytesIO(b'{"type":"hello"}'), out, Engine()) == 0
    assert json.loads(out.getvalue())["type"] == "hello"


def test_view_objects_take_seats_from_the_play_when_given_plain_cards():
    calls = ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]
    played = ["H2", "H6", "H3", "HJ", "SQ"]
    v = view_from_json({"seat": "N", "hand": DEAL[N].to_pbn(), "dealer": "N",
                        "auction": " ".join(calls), "played": played,
                        "dummy_hand": DEAL[S].to_pbn()})
    assert [(s.letter, str(c)) for s, c in v.played] == [
        ("E", "H2"), ("S", "H6"), ("W", "H3"), ("N", "HJ"), ("N", "SQ")]
    with pytest.raises(ProtocolError) as err:
        view_from_json({"seat": "N", "hand": DEAL[N].to_pbn(), "dealer": "N",
                        "auction": calls, "played": ["H2", "H2"],
                        "dummy_hand": DEAL[S].to_pbn()})
    assert err.value.code == "invalid_view"
    with pytest.raises(ProtocolError) as err:
        view_from_json({"seat": "N", "hand": DEAL[N].to_pbn(), "dealer": "N",
                        "auction": calls, "played": [["E", "H2"], "H5"]})
    assert err.value.code == "bad_message"


def test_player_specs_cap_the_time_budget_and_refuse_bad_settings():
    spec = PlayerSpec.from_json({"level": "hard"}, max_time_budget=0.5)
    assert dict(spec.overrides) == {"time_budget": 0.5, "lead_time_budget": 0.5}
    spec = PlayerSpec.from_json({"seed": "abc", "samples": 4}, defaults={"threads": 1})
    assert spec.seed == "abc" and dict(spec.overrides) == {"samples": 4, "threads": 1}
    for bad in ({"threads": 0}, {"threads": True}, {"samples": 501}, {"seed": [1]},
                {"time_budget": float("nan")}, {"seed": 2 ** 70}, "easy"):
        with pytest.raises(ProtocolError) as err:
            PlayerSpec.from_json(bad)
        assert err.value.code == "bad_message"


@pytest.mark.parametrize("command", ["engine", "http"])
def test_threads_beyond_the_cores_are_refused_at_the_start(command):
    """engine --threads 8 on a 2-core machine started, then refused every request with
    "'threads' must be an integer 1..2, got 8", a field the frontend never sent: the
    option is checked as a player object's is, before anything is served."""
    from click.testing import CliRunner

    from ai.cli import main

    cores = os.cpu_count() or 1
    run = CliRunner().invoke(main, [command, "--threads", str(cores + 1), "--port", "0"]
                             if command == "http" else [command, "--threads", str(cores + 1)],
                             input='{"type": "hello"}\n')
    assert run.exit_code == 2, run.output
    assert "--threads" in run.output and f"at most {cores}" in run.output, run.output


@pytest.mark.parametrize("closed", ["<&-", ">&-"])
def test_the_engine_with_its_standard_input_or_output_closed_says_so(closed):
    """Started with standard input (or output) closed, the engine stopped with a raw
    AttributeError traceback ('NoneType' object has no attribute 'buffer'): it says it
    needs them, status 2."""
    run = subprocess.run(["sh", "-c", f'exec "$0" -m ai engine {closed}', sys.executable],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert "standard input and output" in run.stderr, run.stderr


def test_illegal_call_message_gives_the_reason_in_every_frontend():
    """The explain of an illegal call said 'is not legal after ...' without why, while
    the terminal game said it: one message now, shared with the web page."""
    from ai.protocols.decisions import illegal_call_message
    from ddsolver.auction import Auction, Call
    from ddsolver.table import Seat

    a = Auction.from_str(Seat.NORTH, "1NT Pass")
    assert illegal_call_message(a, Call.from_str("2C")) is None
    assert illegal_call_message(a, Call.from_str("1S")) == (
        "1S is not legal after 1NT Pass: insufficient bid: it must be higher than the last "
        "bid 1NT (by North)")
    assert illegal_call_message(Auction(Seat.NORTH), Call.from_str("X")) == (
        "X is not legal after no calls: there is no bid to double")
