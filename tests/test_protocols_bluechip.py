"""Tests of the Blue Chip protocol (version 18): the grammar (ai.protocols.bluechip), the
client against a scripted table manager speaking the variants real programs send
(ai.protocols.bluechip_client), the table manager's rules, timeouts and disconnections
(ai.protocols.bluechip_tm), and sessions of four of our clients at our table manager over
the loopback address with every line logged and the PBN read back."""

from __future__ import annotations

import io
import os
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from ai.protocols.bluechip import (
    BlueChipError,
    BoardInfo,
    CallMessage,
    CardMessage,
    Connect,
    HandMessage,
    Ready,
    ReadyForCall,
    ReadyForCard,
    Seated,
    StartOfBoard,
    Teams,
    Timing,
    ToLead,
    format_hand,
    parse_card,
    parse_client_line,
    parse_hand,
    parse_tm_line,
)
from ai.protocols.bluechip_client import BlueChipClient, LineSocket, run_client
from ai.protocols.bluechip_tm import (
    TableManager,
    TableManagerServer,
    boards_from_pbn,
    boards_from_seed,
    records_to_pbn,
)
from ai.robot import ComputerPlayer
from ddsolver.auction import Call
from ddsolver.cards import Card
from ddsolver.deal import Hand, random_deals
from ddsolver.pbn import dumps_pbn, read_pbn
from ddsolver.table import Seat, Vulnerability

sys.path.insert(0, str(Path(__file__).parent))
from bluechip_script import (ScriptBoard, ScriptedTM, ScriptPlayer, SystemPlayer,  # noqa
                             Table)
from protocol_referee import DEAL  # noqa: E402

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
C = Card.from_str


# -- the grammar ---------------------------------------------------------------------------------
def test_messages_are_written_exactly():
    assert str(Connect("Robo NS", N)) == 'Connecting "Robo NS" as North using protocol version 18'
    assert str(Connect("x", None)) == 'Connecting "x" as ANYPL using protocol version 18'
    assert str(Seated(W, "Robo")) == 'West ("Robo") seated'
    assert str(Ready(E, "teams")) == "East ready for teams"
    assert str(Ready(E, "start")) == "East ready to start"
    assert str(Ready(E, "dummy")) == "East ready for dummy"
    assert str(Teams("a", "b")) == 'Teams : N/S : "a" E/W : "b"'
    assert str(Teams("a", "b", "IMP")) == 'Teams : N/S : "a" E/W : "b". Playing IMP'
    assert str(StartOfBoard()) == "Start of board"
    assert str(BoardInfo(3, S, Vulnerability.EW)) == \
        "Board number 3. Dealer South. E/W vulnerable."
    hand = Hand.from_pbn("AK4..QJ3.T98765")
    assert format_hand(hand) == "S A K 4. H -. D Q J 3. C T 9 8 7 6 5."
    assert str(HandMessage(N, hand)) == "North's cards : S A K 4. H -. D Q J 3. C T 9 8 7 6 5."
    assert str(HandMessage(None, hand)).startswith("Dummy's cards : S A K 4.")
    assert str(ReadyForCall(S, W)) == "South ready for West's bid"
    assert str(ReadyForCard(S, None, 4)) == "South ready for dummy's card to trick 4"
    assert str(ReadyForCard(S, E, 1)) == "South ready for East's card to trick 1"
    assert str(CallMessage(N, Call.from_str("Pass"))) == "North passes"
    assert str(CallMessage(N, Call.from_str("X"))) == "North doubles"
    assert str(CallMessage(N, Call.from_str("XX"))) == "North redoubles"
    assert str(CallMessage(N, Call.from_str("1NT"))) == "North bids 1NT"
    assert str(CallMessage(N, Call.from_str("2C"), True, "Stayman")) == \
        "North bids 2C Alert. Stayman"
    assert str(CallMessage(N, Call.from_str("2C"), False, "8+ HCP")) == \
        "North bids 2C Infos. 8+ HCP"
    assert str(CardMessage(S, C("CT"))) == "South plays TC"
    assert str(ToLead(None)) == "Dummy to lead" and str(ToLead(E)) == "East to lead"
    assert str(Timing.of(6, 6, 8, 3601)) == ("Timing - N/S : this board [00:06], total "
                                             "[0:00:06]. E/W : this board [00:08], total "
                                             "[1:00:01].")


@pytest.mark.parametrize("line, message", [
    ('Connecting "WBridge5" as ANYPL using protocol version 18', Connect("WBridge5", None)),
    ('connecting  "Jack"  as  west using protocol version 18.', Connect("Jack", W)),
    ("WEST ready for  NORTH's bid", ReadyForCall(W, N)),
    ("west ready for norths bid", ReadyForCall(W, N)),
    ("South ready for dummy's card to trick 11", ReadyForCard(S, None, 11)),
    ("South ready for East's card", ReadyForCard(S, E, None)),
    ("North ready for dummy.", Ready(N, "dummy")),
    ("EAST PASSES", CallMessage(E, Call.from_str("Pass"))),
    ("East pass", CallMessage(E, Call.from_str("Pass"))),
    ("East bids 1N", CallMessage(E, Call.from_str("1NT"))),
    ("East bids 7 nt.", CallMessage(E, Call.from_str("7NT"))),
    ("East doubles Alert.", CallMessage(E, Call.from_str("X"), True, None)),
    ("South bids 2C Alert. Stayman, asks for a major",
     CallMessage(S, Call.from_str("2C"), True, "Stayman, asks for a major")),
    ("South bids 2C Infos. 8+ HCP", CallMessage(S, Call.from_str("2C"), False, "8+ HCP")),
    ("south plays tc", CardMessage(S, C("CT"))),
    ("South plays C10", CardMessage(S, C("CT"))),
    ("Dummy plays 3h", CardMessage(None, C("H3"))),
])
def test_client_lines_are_read_tolerantly(line, message):
    assert parse_client_line(line) == message


@pytest.mark.parametrize("line, message", [
    ('NORTH ("Robo") seated', Seated(N, "Robo")),
    ('Teams: N/S "silent" E/W "bidders"', Teams("silent", "bidders")),
    ('Teams : N/S : "a b" E/W : "c". Playing MP', Teams("a b", "c", "MP")),
    ("Start of Board", StartOfBoard()),
    ("Board number 8. Dealer WEST. Neither vulnerable. ",
     BoardInfo(8, W, Vulnerability.NONE)),
    ("board number 2.dealer e. both vulnerable", BoardInfo(2, E, Vulnerability.BOTH)),
    ("Dummy's cards : S K 9 8 5. H A. D A J 7 6. C 9 5 4 2.",
     HandMessage(None, Hand.from_pbn("K985.A.AJ76.9542"))),
    ("dummy's cards:S K985.H A.D AJ76.C 9542", HandMessage(None, Hand.from_pbn(
        "K985.A.AJ76.9542"))),
    ("WEST's cards: S A T 9 5. H K 6 5. D Q J 8 7 6. C 7.",
     HandMessage(W, Hand.from_pbn("AT95.K65.QJ876.7"))),
    ("Dummy to lead", ToLead(None)), ("EAST TO LEAD", ToLead(E)),
    ("WEST PASSES", CallMessage(W, Call.from_str("Pass"))),
    ("West plays 10c", CardMessage(W, C("CT"))),
])
def test_table_manager_lines_are_read_tolerantly(line, message):
    assert parse_tm_line(line) == message


@pytest.mark.parametrize("line, problem", [
    ("", "no message"), ("North", "no message"), ("North bids 8C", "no message"),
    ("North bids 1NT please", "after the call"), ("North plays 1C", "not a card"),
    ("North ready for dummy's bid", "dummy makes no call"),
    ("North ready for East's card to trick 14", "trick 14"),
    ('Connecting "x" as Nobody using protocol version 18', "not a seat"),
])
def test_bad_client_lines_are_named(line, problem):
    with pytest.raises(BlueChipError, match=problem):
        parse_client_line(line)


def test_bad_hands_are_named():
    for text, problem in [("S A K. H Q", "13"), ("S A A Q J T 9 8 7 6 5 4 3 2", "twice"),
                          ("A K Q S J", "before any suit"), ("S A K X", "no suit or rank"),
                          ("S A. S K. H 2 3 4 5 6 7 8 9 T J", "S twice")]:
        with pytest.raises(BlueChipError, match=problem):
            parse_hand(text)
    assert parse_card("QS") == parse_card("sq") == C("SQ")


# -- the client against a scripted table manager --------------------------------------------------
def _script_boards():
    d2, d3, d4 = random_deals(11, 3)
    return [
        ScriptBoard(1, DEAL, N, Vulnerability.NONE,
                    ["1NT", "Pass", "2C", "Pass", "2D", "Pass", "3NT", "Pass", "Pass",
                     "Pass"]),
        ScriptBoard(2, d2, E, Vulnerability.NS, ["Pass", "1C", "Pass", "1H"],
                    abort_after=3),
        ScriptBoard(3, d3, S, Vulnerability.BOTH, ["1NT", "Pass", "3NT", "Pass", "Pass",
                                                    "Pass"]),
        ScriptBoard(4, d4, E, Vulnerability.EW, ["1NT", "Pass", "3NT", "Pass", "Pass",
                                                  "Pass"]),
    ]


def _check_script_session(client, player, tm):
    assert tm.stage == "over" and client.finished
    assert client.problems == []
    assert client.errors == ["scripted complaint"]
    assert client.teams == Teams("scripted NS", "scripted EW", "MP")
    assert client.scoring == "MP"
    b1, b2, b3, b4 = client.boards
    assert (b1.number, b1.finished, b1.abandoned) == (1, True, False)
    assert [str(c) for c in b1.calls] == tm.boards[0].auction
    assert b1.played == tm.boards[0].played and len(b1.played) == 52
    assert b1.dummy == DEAL[S]
    assert (b2.number, b2.finished, b2.abandoned) == (2, False, True)
    assert (b3.number, b3.finished) == (3, True)
    assert b3.dummy is None and b3.played == tm.boards[2].played and len(b3.played) == 52
    assert b3.vulnerability == Vulnerability.BOTH and b3.dealer == S
    assert (b4.number, b4.finished, b4.dummy) == (4, True, tm.boards[3].deal[W])
    assert b4.played == tm.boards[3].played and len(b4.played) == 52
    # the computer saw its own cards, and dummy's only once the opening lead was faced
    for view in player.views:
        board = {N: tm.boards[0], S: tm.boards[2], E: tm.boards[3]}[view.dealer]
        assert view.original_hand == board.deal[N]
        if view.played:
            assert view.original_dummy == board.deal[view.dummy]
        else:
            assert view.original_dummy is None
    # North declared board 1 (its own and dummy's cards), was dummy on board 3 and
    # defended board 4
    assert len(player.views) == (3 + 26) + 1 + (1 + 13)
    assert player.calls == []


def test_the_client_follows_a_scripted_table_manager_and_its_variants():
    player = ScriptPlayer(["1NT", "2D", "Pass", "3NT", "Pass"])
    client = BlueChipClient(player, "N", "Robo")
    tm = ScriptedTM(N, "Robo", _script_boards())
    pending = client.start()
    while pending:
        for tm_line in tm.feed(pending.pop(0)):
            pending.extend(client.receive(tm_line))
    _check_script_session(client, player, tm)
    # the variants were spoken
    said = [line for d, line in tm.log if d == "out"]
    for variant in [" PASSES", "Dummy plays", " PLAYS ", "Start of Board", "Alert. scripted",
                    "Infos. scripted", "DUMMY'S CARDS :S", "Dummy to lead", "TO LEAD",
                    "BOARD NUMBER", "Timing - N/S", "Error scripted complaint"]:
        assert any(variant in line for line in said), variant


def test_the_client_over_tcp_against_the_scripted_table_manager():
    player = ScriptPlayer(["1NT", "2D", "Pass", "3NT", "Pass"])
    client = BlueChipClient(player, "N", "Robo")
    tm = ScriptedTM(N, "Robo", _script_boards())
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    failure = []

    def serve():
        conn, _ = listener.accept()
        lines = LineSocket(conn)
        try:
            while tm.stage != "over":
                line = lines.read_line()
                if line is None:
                    break
                for answer in tm.feed(line):
                    lines.send(answer)
        except AssertionError as exc:  # reported in the main thread
            failure.append(exc)
        finally:
            lines.close()
            listener.close()

    thread = threading.Thread(target=serve)
    thread.start()
    transcript = []
    run_client("127.0.0.1", port, client, timeout=30, transcript=transcript)
    thread.join(30)
    assert not failure, failure
    _check_script_session(client, player, tm)
    for direction, other in (("in", "out"), ("out", "in")):
        assert [line for _, d, line in transcript if d == direction] == \
            [line for d, line in tm.log if d == other]


def test_the_client_seated_anywhere_takes_the_seat_given():
    client = BlueChipClient(ScriptPlayer([]), None, "Any")
    assert client.start() == ['Connecting "Any" as ANYPL using protocol version 18']
    assert client.receive('East ("Any") seated') == ["East ready for teams"]
    assert client.seat == E
    assert client.receive("garbage line") == [] and "unreadable" in client.problems[0]
    assert client.receive("Start of board") == []
    assert client.problems[1] == "'Start of board' before the teams"
    assert client.receive('Teams : N/S : "a" E/W : "Any"') == ["East ready to start"]
    assert client.receive("Start of board") == ["East ready for deal"]
    with pytest.raises(ValueError):
        BlueChipClient(ScriptPlayer([]), "N", 'bad "team"')


# -- the table manager's rules, in memory ---------------------------------------------------------
class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def _table(boards=1, **options):
    clock = Clock()
    tm = TableManager(boards_from_seed(4, boards), clock=clock, **options)
    table = Table(tm)
    return table, tm, clock


def _seat_all(table, players=None):
    players = players or {s: SystemPlayer() for s in Seat}
    for s in Seat:
        table.add(s.letter, BlueChipClient(players[s], s, "NS" if s.side == 0 else "EW"))
    return players


def _error(actions, cid, text):
    assert actions == [("send", cid, "Error " + text)], actions


def test_the_handshake_refusals_and_the_seating():
    table, tm, clock = _table(ns_team="Robo")
    table.tm.connect("x")
    _error(table.send("x", "North ready for teams"), "x",
           "send 'Connecting \"<team>\" as <seat> using protocol version 18' first")
    _error(table.send("x", "hello"), "x", "'hello' is no message of the protocol")
    _error(table.send("x", 'Connecting "Other" as North using protocol version 18'), "x",
           "Team name mismatch")
    assert table.send("x", 'Connecting "Robo" as ANYPL using protocol version 18') == [
        ("send", "x", 'North ("Robo") seated')]
    _error(table.send("x", 'Connecting "Robo" as South using protocol version 18'), "x",
           "already seated as North")
    _error(table.send("x", "North ready to start"), "x",
           "not expected now (send 'ready for teams')")
    _error(table.send("x", "East ready for teams"), "x", "you are North, not East")
    assert table.send("x", "North ready for teams") == []      # waits for the four seats
    _error(table.send("x", "North ready for teams"), "x",
           "the teams were already sent (waiting for the four seats)")
    table.tm.connect("y")
    _error(table.send("y", 'Connecting "EW" as North using protocol version 18'), "y",
           "North is taken")
    assert table.send("y", 'Connecting "EW" as ANYPL using protocol version 18') == [
        ("send", "y", 'East ("EW") seated')]
    assert tm.teams == ("Robo", "EW")
    assert all(not r for r in tm.records)


def _play(table, tm, until):
    assert table.run(until=until)


def _hold_norths_first_call(table, tm):
    """Seat four clients and play to the auction of board 1 of seed 4 (North deals),
    holding North's first call and readiness back; returns those two held lines."""
    _seat_all(table)
    _play(table, tm, lambda: tm.board is not None and all(
        tm.conns[s].stage == "play" for s in "NESW"))
    held = [x for x in table.queue if x[0] == "N"]
    table.queue = [x for x in table.queue if x[0] != "N"]
    assert held == [("N", "North bids 1C"), ("N", "North ready for East's bid")]
    return held


def test_calls_and_cards_are_refused_when_not_legal_and_nothing_changes():
    table, tm, clock = _table()
    held = _hold_norths_first_call(table, tm)
    table.run()
    board = tm.board
    assert board.auction.to_act == N and board.spec.dealer == N
    _error(table.send("E", "East passes"), "E", "North is to call, not East")
    _error(table.send("N", "East passes"), "N", "you are North, not East")
    _error(table.send("E", "East plays 2C"), "E", "the auction is not over")
    _error(table.send("E", "East ready for dummy"), "E",
           "there is no dummy: the auction is not over")
    _error(table.send("N", "North ready for North's bid"), "N",
           "it is your turn: you play North's bid")
    _error(table.send("N", "North ready for East's bid"), "N",
           "North's bid comes next, not East's bid")
    _error(table.send("E", "East ready for North's bid"), "E",
           "you are already waiting for North's bid")
    _error(table.send("N", "North doubles"), "N",
           "X is not legal after no call")
    assert board.events == [] and len(board.auction.calls) == 0
    table.queue.extend(held)
    # go on to the play: stop when a card is due from a client that is not the leader
    def declarer_has_the_lead():
        b = tm.board
        if b is None or len(b.played) != 1:
            return False
        conn = tm.conns[b.contract.declarer.letter]
        return conn.pending is None and conn.cursor == len(b.events)

    _play(table, tm, declarer_has_the_lead)
    b = tm.board
    declarer = b.contract.declarer
    held = [x for x in table.queue if x[0] == declarer.letter]
    table.queue = [x for x in table.queue if x[0] != declarer.letter]
    table.run()
    dummy = declarer.partner
    leader = declarer.lho
    lead = b.played[0][1]
    assert b.to_play() == dummy
    d, ld = dummy.letter, leader.letter
    _error(table.send(ld, f"{leader.name.title()} plays {lead.rank.letter}{lead.suit.letter}"),
           ld, f"{dummy.name.title()} is to play, not {leader.name.title()}")
    _error(table.send(d, f"{dummy.name.title()} plays 2C"), d,
           f"you are {dummy.name.title()}: you do not play {dummy.name.title()}'s cards")
    not_held = next(c for c in b.spec.deal[leader])
    _error(table.send(declarer.letter, f"{dummy.name.title()} plays "
                                       f"{not_held.rank.letter}{not_held.suit.letter}"),
           declarer.letter,
           f"{dummy.name.title()} does not hold {not_held.rank.letter}{not_held.suit.letter}")
    revoke = [c for c in b.spec.deal[dummy] if c.suit != lead.suit]
    follow = [c for c in b.spec.deal[dummy] if c.suit == lead.suit]
    if follow and revoke:
        r = revoke[0]
        _error(table.send(declarer.letter,
                          f"{dummy.name.title()} plays {r.rank.letter}{r.suit.letter}"),
               declarer.letter, f"{dummy.name.title()} must follow suit: "
                                f"{lead.suit.name.lower()} was led (revoke)")
    _error(table.send(declarer.letter, f"{declarer.name.title()} ready for dummy's card"),
           declarer.letter, f"it is your turn: you play {dummy.name.title()}'s card")
    assert len(b.played) == 1
    table.queue.extend(held)
    # the board completes normally
    assert table.run()
    assert tm.finished and tm.end_reason == "all boards played"
    rec = tm.records[0]
    assert rec.finished and len(rec.played) == 52 and rec.contract is not None


def test_a_stalled_client_makes_the_board_unfinished_and_the_session_goes_on():
    table, tm, clock = _table(boards=2, timeout=60)
    _seat_all(table)
    _play(table, tm, lambda: tm.board is not None and len(tm.board.auction.calls) == 2)
    # the next caller's lines are held back: it stalls
    stalled = tm.board.auction.to_act
    table.dropped.add(stalled.letter)
    table.run()
    clock.now += 59
    assert table.tm.tick() == [] and tm.board is not None
    clock.now += 2
    actions = table.tm.tick()
    assert [a for a in actions if a[0] == "send"] == [
        ("send", s, "Start of board") for s in "NESW"]
    rec = tm.records[0]
    assert not rec.finished and len(rec.calls) == 2
    assert rec.reason == (f"timeout: no progress for 60 s waiting for "
                          f"{stalled.name.title()} (to ask for "
                          f"{stalled.rho.name.title()}'s bid)")
    table.dropped.clear()
    table._apply(actions)
    assert table.run()
    assert tm.finished and [r.finished for r in tm.records] == [False, True]
    assert tm.end_reason == "all boards dealt, 1 of 2 unfinished"
    assert tm.records[1].spec.number == 2
    for cid, client in table.clients.items():
        assert client.finished and [b.finished for b in client.boards] == [False, True]
    games = read_pbn(dumps_pbn(records_to_pbn(tm.records, teams=tm.teams)))
    assert games[0].get("Result") == "" and games[0].contract is None
    assert len(games[0].calls) == 2
    assert games[0].tag("Result").comments == [f"{{unfinished: {rec.reason}}}"]
    assert games[1].result == tm.records[1].tricks


def test_a_disconnection_leaves_the_board_unfinished_until_the_seat_is_taken_again():
    table, tm, clock = _table(boards=2, seat_timeout=100)
    _seat_all(table)
    _play(table, tm, lambda: tm.board is not None and len(tm.board.played) == 5)
    assert table.tm.disconnect("W") == []
    table.closed.add("W")
    rec = tm.records[0]
    assert not rec.finished and rec.reason == "West disconnected" and len(rec.played) == 5
    assert tm.board is None and not tm.finished
    table.run()
    assert all(not line.startswith("Start of board") or True for line in table.received["N"])
    clock.now += 50
    assert table.tm.tick() == []
    # a new West takes the seat; the others are sent 'Start of board' in the middle
    table.add("W2", BlueChipClient(SystemPlayer(), W, "EW"))
    assert table.run()
    assert tm.finished and [r.finished for r in tm.records] == [False, True]
    north = table.clients["N"]
    assert [b.abandoned for b in north.boards] == [True, False]
    games = read_pbn(dumps_pbn(records_to_pbn(tm.records, teams=tm.teams)))
    assert [len(g.play_sequence) for g in games] == [5, 52]
    assert [(p.seat, p.card) for p in games[0].play_sequence] == tm.records[0].played
    assert games[0].get("Result") == ""


def test_the_session_ends_when_the_seats_are_not_filled():
    table, tm, clock = _table(seat_timeout=30)
    for s in "NES":
        table.add(s, BlueChipClient(SystemPlayer(), s, "T"))
    table.run()
    clock.now += 31
    actions = table.tm.tick()
    assert tm.finished and tm.end_reason == "fewer than four ready clients for 30 s"
    assert [a for a in actions if a[0] == "send"] == [("send", s, "End of session")
                                                      for s in "NES"]
    assert [a[1] for a in actions if a[0] == "close"] == ["N", "E", "S"]


def test_boards_from_pbn_refuses_an_empty_string_naming_no_file():
    """"" was read as empty PBN text ("the PBN file holds no game", no file was named)."""
    from ddsolver.errors import PBNError

    for empty in ("", " "):
        with pytest.raises(PBNError, match="^boards_from_pbn needs a PBN file's path or PBN "
                                           "text, not an empty string$"):
            boards_from_pbn(empty)
    with pytest.raises(PBNError, match="^the PBN file holds no game$"):
        boards_from_pbn("\n")


def test_boards_from_a_pbn_file(tmp_path):
    path = tmp_path / "deals.pbn"
    path.write_text('[Board "7"]\n[Dealer "E"]\n[Vulnerable "All"]\n'
                    f'[Deal "{DEAL.to_pbn()}"]\n\n[Deal "{DEAL.to_pbn()}"]\n')
    boards = boards_from_pbn(str(path))
    assert [(b.number, b.dealer, b.vulnerability) for b in boards] == [
        (7, E, Vulnerability.BOTH), (2, E, Vulnerability.NS)]
    assert boards[0].deal == DEAL


# -- sessions over the loopback address -----------------------------------------------------------
def _session(count, tmp_path, **tm_options):
    tm = TableManager(boards_from_seed(7, count), timeout=60, seat_timeout=60, **tm_options)
    transcript = []
    log = io.StringIO()
    server = TableManagerServer(tm, port=0, pbn_path=tmp_path / "session.pbn",
                                transcript=transcript, log_file=log)
    port = server.start_thread()
    clients, transcripts, threads = {}, {}, []
    for s in Seat:
        player = ComputerPlayer("easy", seed=1, threads=1, min_samples=6)
        clients[s] = BlueChipClient(player, s, "Robo NS" if s.side == 0 else "Robo EW")
        transcripts[s] = []
        threads.append(threading.Thread(target=run_client, args=("127.0.0.1", port,
                                                                 clients[s]),
                                        kwargs={"timeout": 60,
                                                "transcript": transcripts[s]}))
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert server.join(30)
    return tm, server, clients, transcripts, transcript, log.getvalue()


def _check_session(tm, clients, transcripts, transcript, log, tmp_path, count):
    assert tm.finished and tm.end_reason == "all boards played"
    assert [r.finished for r in tm.records] == [True] * count
    # every line is logged: what each client sent and received is what the table manager
    # received from and sent to that seat, in order
    for s in Seat:
        client = clients[s]
        assert client.finished and client.problems == [] and client.errors == []
        name = s.name.title()
        tm_side = [(d, line) for _, who, d, line in transcript
                   if who in (name,) or (who.startswith("#") and d == "in"
                                         and f"as {name} " in line)]
        mine = [("in" if d == "out" else "out", line) for _, d, line in transcripts[s]]
        assert tm_side == mine
        # a seat is sent its own cards and, after the opening lead, dummy's: no other hand
        hands = [line for d, line in mine if d == "out" and "cards :" in line]
        assert hands[0].startswith(f"{name}'s cards : ")
        assert all(h.startswith(f"{name}'s cards") or h.startswith("Dummy's cards")
                   for h in hands)
    assert len(log.splitlines()) == len(transcript)
    assert all((" << " in x or " >> " in x) for x in log.splitlines())
    # the PBN file reads back with the board as played
    games = read_pbn(str(tmp_path / "session.pbn"))
    assert len(games) == count
    for game, rec, spec in zip(games, tm.records, tm.boards):
        assert game.board == spec.number and game.deal == spec.deal
        assert game.dealer == spec.dealer and game.vulnerability == spec.vulnerability
        assert [str(c) for c in game.calls] == [str(c) for _, c, _, _ in rec.calls]
        assert game.contract == rec.contract
        assert game.result == rec.tricks
        assert game.get("Score") == f"NS {rec.score}"
        assert game.get("North") == "Robo NS" and game.get("West") == "Robo EW"
        if rec.contract is not None:
            assert [(p.seat, p.card) for p in game.play_sequence] == rec.played
        assert game.warnings == []
        for s in Seat:
            seen = clients[s].boards[tm.records.index(rec)]
            assert seen.calls == [c for _, c, _, _ in rec.calls] and seen.played == rec.played


def test_a_full_board_over_loopback(tmp_path):
    tm, server, clients, transcripts, transcript, log = _session(1, tmp_path)
    _check_session(tm, clients, transcripts, transcript, log, tmp_path, 1)
    rec = tm.records[0]
    assert len(rec.played) == 52 or rec.contract is None
    lines = [line for _, _, d, line in transcript if d == "out"]
    assert lines.count("Start of board") == 4 and lines.count("End of session") == 4
    assert sum(1 for x in lines if x.startswith("Timing - N/S")) == 4


def test_a_four_board_session_over_loopback(tmp_path):
    tm, server, clients, transcripts, transcript, log = _session(4, tmp_path)
    _check_session(tm, clients, transcripts, transcript, log, tmp_path, 4)
    assert [r.spec.number for r in tm.records] == [1, 2, 3, 4]
    assert [r.spec.dealer for r in tm.records] == [N, E, S, W]


class _RawClient:
    def __init__(self, port, seat):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.lines = LineSocket(self.sock)
        self.name = seat

    def say(self, line):
        self.lines.send(line)

    def expect(self, start):
        line = self.lines.read_line()
        assert line is not None and line.startswith(start), (line, start)
        return line


def test_a_client_that_disconnects_mid_board_over_loopback(tmp_path):
    tm = TableManager(boards_from_seed(7, 2), timeout=60, seat_timeout=60)
    transcript = []
    server = TableManagerServer(tm, port=0, pbn_path=tmp_path / "s.pbn",
                                transcript=transcript)
    port = server.start_thread()
    clients, threads = {}, []
    for s in (N, E, S):
        clients[s] = BlueChipClient(ComputerPlayer("easy", seed=2, threads=1,
                                                   min_samples=6), s, "T")
        threads.append(threading.Thread(target=run_client, args=("127.0.0.1", port,
                                                                 clients[s]),
                                        kwargs={"timeout": 60}))
        threads[-1].start()
    west = _RawClient(port, "West")
    west.say('Connecting "T" as West using protocol version 18')
    west.expect('West ("T") seated')
    west.say("West ready for teams")
    west.expect("Teams : N/S")
    west.say("West ready to start")
    west.expect("Start of board")
    west.say("West ready for deal")
    west.expect("Board number 1. Dealer North.")
    west.say("West ready for cards")
    west.expect("West's cards : ")
    west.say("West bids 9NT")
    west.expect("Error 'West bids 9NT' is no message of the protocol")
    west.say("West ready for North's bid")
    west.expect("North ")
    # the table manager deals each seat its cards when that seat asks: under load a client
    # may not have asked yet when North has bid; wait, so that every client holds board 1
    # when it is abandoned (else it never sees that board: a race seen in CI)
    deadline = time.time() + 30
    while any(not clients[s].boards for s in (N, E, S)) and time.time() < deadline:
        time.sleep(0.02)
    west.lines.close()        # gone in the middle of the auction
    deadline = time.time() + 30
    while not tm.records and time.time() < deadline:
        time.sleep(0.05)
    assert tm.records and tm.records[0].reason == "West disconnected"
    # the server keeps running: a new West is seated and the session goes on
    clients[W] = BlueChipClient(ComputerPlayer("easy", seed=2, threads=1, min_samples=6),
                                W, "T")
    run_client("127.0.0.1", port, clients[W], timeout=60)
    for t in threads:
        t.join(60)
    assert server.join(30)
    assert tm.finished and [r.finished for r in tm.records] == [False, True]
    for s in (N, E, S):
        assert clients[s].finished and clients[s].problems == []
        assert [b.abandoned for b in clients[s].boards] == [True, False]
    games = read_pbn(str(tmp_path / "s.pbn"))
    assert len(games) == 2 and games[0].get("Result") == "" and games[1].result is not None
    assert games[0].tag("Result").comments == ["{unfinished: West disconnected}"]


class _StalledFirstCall:
    """A computer whose first call waits until ``release`` is set (asleep, using no
    processor)."""

    def __init__(self, release: threading.Event):
        self.inner = ComputerPlayer("easy", seed=3, threads=1, min_samples=6)
        self.release = release

    def call(self, view):
        assert self.release.wait(120)
        return self.inner.call(view)

    def card(self, view):
        return self.inner.card(view)


def test_a_slow_client_times_out_and_the_next_board_is_played_over_loopback(tmp_path):
    tm = TableManager(boards_from_seed(7, 2), timeout=5.0, seat_timeout=60)
    server = TableManagerServer(tm, port=0, pbn_path=tmp_path / "t.pbn")
    port = server.start_thread()
    release = threading.Event()
    clients, threads = {}, []
    for s in Seat:
        player = _StalledFirstCall(release) if s == N else ComputerPlayer(
            "easy", seed=3, threads=1, min_samples=6)
        clients[s] = BlueChipClient(player, s, "T")
        threads.append(threading.Thread(target=run_client, args=("127.0.0.1", port,
                                                                 clients[s]),
                                        kwargs={"timeout": 120}))
        threads[-1].start()
    deadline = time.time() + 60
    while not tm.records and time.time() < deadline:
        time.sleep(0.05)
    release.set()            # North's late call comes after the board was given up
    for t in threads:
        t.join(120)
    assert server.join(30)
    assert [r.finished for r in tm.records] == [False, True]
    assert tm.records[0].reason == "timeout: no progress for 5 s waiting for North (to call)"
    # North's late call was refused; North then played board 2 like the others
    assert clients[N].errors and "no board in play" in clients[N].errors[0]
    assert all(c.finished for c in clients.values())
    assert [b.finished for b in clients[N].boards] == [False, True]


def test_the_commands_a_table_manager_and_four_clients(tmp_path):
    """ddsolver-ai bluechip tm and four ddsolver-ai bluechip client processes."""
    import re
    import subprocess

    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "cli.pbn"
    log = tmp_path / "cli.log"
    tm = subprocess.Popen([sys.executable, "-m", "ai", "bluechip", "tm", "--port", "0",
                           "--boards", "2", "--seed", "5", "-o", str(out), "--log", str(log),
                           "--timeout", "60", "--seat-timeout", "60"],
                          cwd=root, stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True)
    clients = []
    try:
        port = None
        for line in tm.stderr:
            m = re.search(r"table manager listening on 127\.0\.0\.1:(\d+)", line)
            if m:
                port = m.group(1)
                break
        assert port is not None
        for seat in ("N", "E", "S", "W"):
            clients.append(subprocess.Popen(
                [sys.executable, "-m", "ai", "bluechip", "client", "--port", port, "--seat",
                 seat, "--team", "cli", "--level", "easy", "--seed", "1", "--threads", "1",
                 "--timeout", "60"], cwd=root, stderr=subprocess.PIPE, text=True))
        for c in clients:
            _, err = c.communicate(timeout=180)
            assert c.returncode == 0, err
            assert "2 board(s) played, 0 abandoned; session ended" in err
        summary, rest = tm.communicate(timeout=60)
        assert tm.returncode == 0
        assert "2 board(s) finished, 0 unfinished: all boards played" in rest
    finally:
        for p in clients + [tm]:
            if p.poll() is None:
                p.kill()
                p.wait()
    games = read_pbn(str(out))
    assert [g.board for g in games] == [1, 2] and all(g.get("Score") for g in games)
    expected = []
    for g in games:
        c = g.contract
        expected.append(f"board {g.board}: passed out" if c is None else
                        f"board {g.board}: {c.level}{c.strain.letter}{'X' * c.doubled} by "
                        f"{c.declarer.name.title()}, {g.result} tricks, N-S "
                        f"{int(g.get('Score').split()[1]):+d}")
    assert summary.splitlines() == expected
    lines = log.read_text().splitlines()
    assert sum(1 for x in lines if x.endswith(">> End of session")) == 4
    bad = subprocess.run([sys.executable, "-m", "ai", "bluechip", "tm", "-o", str(out)],
                         cwd=root, capture_output=True, text=True)
    assert bad.returncode == 2 and "give either --pbn FILE or --boards N --seed S" in bad.stderr


def test_the_table_manager_command_refuses_files_it_cannot_write(tmp_path):
    """A PBN or log file in a folder that does not exist is refused before any client is
    seated (the session would otherwise be played and never written, or the command would
    stop with a traceback)."""
    from click.testing import CliRunner

    from ai.cli import main

    missing = tmp_path / "no such folder"
    base = ["bluechip", "tm", "--port", "0", "--boards", "1", "--seed", "1",
            "--seat-timeout", "1"]
    r = CliRunner().invoke(main, base + ["-o", str(missing / "s.pbn")])
    assert r.exit_code == 2 and "'-o' / '--out'" in r.output, r.output
    assert "no such folder" in r.output and "listening" not in r.output
    r = CliRunner().invoke(main, base + ["-o", str(tmp_path / "s.pbn"),
                                         "--log", str(missing / "s.log")])
    assert r.exit_code == 2 and "'--log'" in r.output, (r.output, r.exception)
    assert not (tmp_path / "s.pbn").exists()
    r = CliRunner().invoke(main, base + ["-o", str(tmp_path / "s.pbn"), "--ns-team", 'a"b'])
    assert r.exit_code == 2 and "--ns-team" in r.output, (r.output, r.exception)
    bad = tmp_path / "hand14.pbn"
    bad.write_text('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                   '[Deal "N:AKQJ.T98.765.4321 T987.654.432.AKQ 654.32.AKQJ.JT98 '
                   '32.AKQJ7.T98.765"]\n')
    r = CliRunner().invoke(main, ["bluechip", "tm", "--port", "0", "--pbn", str(bad),
                                  "-o", str(tmp_path / "s.pbn")])
    assert r.exit_code == 2 and "'--pbn'" in r.output, (r.output, r.exception)


def test_the_table_manager_command_refuses_one_file_for_two_jobs(tmp_path):
    """--log appended the protocol's lines to the --pbn hand record it names; -o wrote the
    session over the --pbn deals (the boards not yet played lost if it stops) or over the
    log (-o x --log x: the log gone).  Refused before the table manager listens."""
    from click.testing import CliRunner

    from ai.cli import main

    deals = tmp_path / "deals.pbn"
    deals.write_text('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                     '[Deal "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 '
                     'K82.Q93.KJ5.Q854"]\n')
    kept = deals.read_bytes()
    out = str(tmp_path / "s.pbn")
    base = ["bluechip", "tm", "--port", "0", "--seat-timeout", "1"]
    seeded = ["--boards", "1", "--seed", "1"]
    for args in (["--pbn", str(deals), "-o", out, "--log", str(deals)],
                 ["--pbn", str(deals), "-o", str(tmp_path / "." / "deals.pbn")],
                 seeded + ["-o", out, "--log", out]):
        r = CliRunner().invoke(main, base + args)
        assert r.exit_code == 2 and "are the same file" in r.output, (args, r.output)
        assert "listening" not in r.output
    assert deals.read_bytes() == kept and not os.path.exists(out)


def test_the_table_manager_command_refuses_empty_looping_or_dangling_paths(tmp_path):
    """-o '' and --log '' were accepted (the session then served and written nowhere),
    --pbn naming a loop of symbolic links said "does not exist", and a -o link into a
    missing folder passed the check (the folder was not taken through the link): each is
    refused before the table manager listens, naming the option and the real reason."""
    from click.testing import CliRunner

    from ai.cli import main

    os.symlink("loop", tmp_path / "loop")
    dangling = tmp_path / "dangling.pbn"
    dangling.symlink_to(tmp_path / "missing" / "s.pbn")
    out = str(tmp_path / "s.pbn")
    base = ["bluechip", "tm", "--port", "0", "--seat-timeout", "1"]
    seeded = ["--boards", "1", "--seed", "1"]
    for args, message in (
            (seeded + ["-o", ""], "Invalid value for '-o' / '--out': an empty file name"),
            (seeded + ["-o", out, "--log", ""],
             "Invalid value for '--log': an empty file name"),
            (["--pbn", str(tmp_path / "loop"), "-o", out],
             f"Invalid value for '--pbn': cannot read {tmp_path / 'loop'}: Too many levels "
             f"of symbolic links"),
            (["--pbn", str(tmp_path / "none.pbn"), "-o", out],
             f"Invalid value for '--pbn': cannot read {tmp_path / 'none.pbn'}: No such file "
             f"or directory"),
            (["--pbn", "", "-o", out], "Invalid value for '--pbn': an empty file name"),
            (seeded + ["-o", str(dangling)],
             f"Invalid value for '-o' / '--out': cannot write {dangling}: the folder "
             f"{tmp_path / 'missing'} does not exist"),
            (seeded + ["-o", f"{tmp_path}/newdir/"],
             f"Invalid value for '-o' / '--out': cannot write {tmp_path}/newdir/: it names "
             f"a folder"),
            (seeded + ["-o", out, "--log", f"{tmp_path}/newdir/"],
             f"Invalid value for '--log': cannot write {tmp_path}/newdir/: it names a "
             f"folder"),
            (seeded + ["-o", str(tmp_path / "loop")],
             f"Invalid value for '-o' / '--out': cannot write {tmp_path / 'loop'}: Too many "
             f"levels of symbolic links")):
        r = CliRunner().invoke(main, base + args)
        assert r.exit_code == 2, (args, r.output, r.exception)
        assert message in " ".join(r.output.split()), (args, r.output)
        assert "listening" not in r.output and "board(s) finished" not in r.output, args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.pbn", "loop"]


def test_the_table_manager_command_refuses_first_with_a_pbn_file(tmp_path):
    """--first numbers the boards dealt from --seed; with --pbn (whose boards keep their
    own numbers) it was accepted and ignored: it is refused, before anything listens."""
    from click.testing import CliRunner

    from ai.cli import main

    deals = tmp_path / "deals.pbn"
    deals.write_text(f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                     f'[Deal "{random_deals(1, 1)[0]}"]\n')
    r = CliRunner().invoke(main, ["bluechip", "tm", "--port", "0", "--pbn", str(deals),
                                  "--first", "5", "-o", str(tmp_path / "s.pbn"),
                                  "--seat-timeout", "1"])
    assert r.exit_code == 2, (r.output, r.exception)
    assert "--first" in r.output and "board(s) finished" not in r.output, r.output
    assert not (tmp_path / "s.pbn").exists()


def test_a_team_name_with_a_quote_is_refused():
    """The table manager writes team names between quotes ('North ("a") seated', the
    Teams line): a name with a '"' would make those lines unreadable for every client."""
    table, tm, clock = _table()
    table.tm.connect("x")
    _error(table.send("x", 'Connecting "a"b" as North using protocol version 18'), "x",
           "a team name cannot contain '\"'")
    assert tm.seats == {} and tm.conns["x"].stage == "new"
    assert table.send("x", 'Connecting "ab" as North using protocol version 18') == [
        ("send", "x", 'North ("ab") seated')]
    with pytest.raises(ValueError, match="team name"):
        TableManager(boards_from_seed(4, 1), ns_team='a"b')


# -- bad input ------------------------------------------------------------------------------------
def test_a_client_of_another_protocol_version_is_refused_and_disconnected():
    """The table manager speaks version 18 only: a client announcing another version is
    told so and disconnected; the seat stays free and the other clients are served."""
    table, tm, clock = _table()
    tm.connect("old")
    actions = table.send("old", 'Connecting "Old" as North using protocol version 17')
    assert actions == [
        ("send", "old", "Error this table manager speaks protocol version 18, not 17"),
        ("close", "old")]
    assert "old" not in tm.conns and tm.seats == {} and tm.teams == ("", "")
    assert table.send("old", "North ready for teams") == []      # gone: nothing answered
    _seat_all(table)
    assert table.run()
    assert tm.finished and tm.records[0].finished and tm.teams == ("NS", "EW")


def test_a_client_of_another_protocol_version_over_loopback():
    tm = TableManager(boards_from_seed(4, 1), timeout=60, seat_timeout=60)
    transcript = []
    server = TableManagerServer(tm, port=0, transcript=transcript)
    port = server.start_thread()
    try:
        old = _RawClient(port, "North")
        old.say('Connecting "Old" as North using protocol version 19')
        assert old.lines.read_line() == \
            "Error this table manager speaks protocol version 18, not 19"
        assert old.lines.read_line() is None          # the table manager hung up
        old.lines.close()
        clients = {s: BlueChipClient(SystemPlayer(), s, "T") for s in Seat}
        threads = [threading.Thread(target=run_client, args=("127.0.0.1", port, c),
                                    kwargs={"timeout": 60}) for c in clients.values()]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert server.join(30)
    finally:
        if not tm.finished:
            server.stop()
    assert tm.finished and tm.end_reason == "all boards played"
    assert all(c.finished and c.problems == [] for c in clients.values())
    assert tm.records[0].finished


def test_a_malformed_line_is_echoed_escaped_and_cut_to_80_characters():
    """The error names the line with its control characters escaped as Python writes them
    (a terminal showing the error, or the log, is not driven by them), at most 80
    characters of it."""
    table, tm, clock = _table()
    tm.connect("x")
    line = "North bids 9NT \x1b[2J\x07\x00" + "x" * 200
    [(kind, cid, reply)] = table.send("x", line)
    assert (kind, cid) == ("send", "x")
    shown = r"'North bids 9NT \x1b[2J\x07\x00" + "x" * 45 + "'..."
    assert len(shown) == 80
    assert reply == f"Error {shown} is no message of the protocol"
    assert reply.isprintable()
    # a short line is shown whole, escaped
    _error(table.send("x", "hello\x1b]0;title\x07"), "x",
           r"'hello\x1b]0;title\x07' is no message of the protocol")
    # the parts of a line named on their own are escaped and cut as well
    _error(table.send("x", "North plays \x9b31m"), "x",
           r"'\x9b31m' is not a card (rank then suit: 3C, TS, AH)")
    _error(table.send("x", "North plays " + "Q" * 300), "x",
           "'" + "Q" * 75 + "'... is not a card (rank then suit: 3C, TS, AH)")
    _error(table.send("x", 'Connecting "t" as ' + "Nobody" * 50 +
                      " using protocol version 18"), "x",
           "'" + ("Nobody" * 13)[:75] + "'... is not a seat (North, East, South, West)")
    _error(table.send("x", "North bids 1C \x1b[31mred"), "x",
           r"unexpected text after the call: '\x1b[31mred' (only 'Alert.' or 'Infos.' and "
           r"an explanation may follow)")


def test_the_table_manager_log_escapes_what_clients_send(caplog):
    """Every line in and out is logged with its control characters escaped: a client
    cannot write terminal escape sequences or line breaks into the log."""
    import logging

    tm = TableManager(boards_from_seed(4, 1), timeout=60, seat_timeout=1)
    transcript, log = [], io.StringIO()
    server = TableManagerServer(tm, port=0, transcript=transcript, log_file=log)
    port = server.start_thread()
    nasty = "\x1b[2J\x1b]0;owned\x07North\x0bbids\x85 1C\x00\x9b"
    try:
        with caplog.at_level(logging.DEBUG, logger="ai.protocols.bluechip.tm"):
            raw = _RawClient(port, "North")
            raw.say(nasty)
            reply = raw.lines.read_line()
            raw.lines.close()
            assert server.join(30)       # nobody seated: the session ends after 1 s
    finally:
        if not tm.finished:
            server.stop()
    assert reply == ("Error '\\x1b[2J\\x1b]0;owned\\x07North\\x0bbids\\x85 1C\\x00\\x9b' "
                     "is no message of the protocol")
    assert [(d, line) for _, _, d, line in transcript][:2] == [("in", nasty),
                                                              ("out", reply)]
    lines = log.getvalue().splitlines()
    assert len(lines) == len(transcript)
    assert lines[0].endswith(" #0 << \\x1b[2J\\x1b]0;owned\\x07North\\x0bbids\\x85 1C"
                             "\\x00\\x9b")
    assert lines[1].endswith(" #0 >> " + reply.replace("\\", "\\\\"))
    assert all(line.isprintable() for line in lines)
    messages = [r.getMessage() for r in caplog.records]
    assert any("\\x1b[2J" in m for m in messages)
    assert all(m.isprintable() for m in messages), messages


@pytest.mark.parametrize("name, where", [("Robo\x1b[31m", "'\\x1b' at position 5"),
                                         ("a\tb", "'\\t' at position 2"),
                                         ("ok\x00", "'\\x00' at position 3"),
                                         ("\u202eevil", "'\\u202e' at position 1"),
                                         ("x\x9b", "'\\x9b' at position 2"),
                                         ("a\x85b", "'\\x85' at position 2"),
                                         ("ab\u2028", "'\\u2028' at position 3"),
                                         ("a\u2029b", "'\\u2029' at position 2"),
                                         ("a\x0bb\x0cc", "'\\x0b' at position 2"),
                                         ("a\x1cb", "'\\x1c' at position 2"),
                                         ("a\r\nb", "'\\r' at position 2")])
def test_a_team_name_with_a_control_character_is_refused(name, where):
    """A team name is written back to every client (the seated line, Teams), into the PBN
    file and the log: a control character in it is refused everywhere it can be given."""
    problem = f"a team name cannot contain a control character ({where})"
    with pytest.raises(ValueError) as info:
        TableManager(boards_from_seed(4, 1), ew_team=name)
    assert str(info.value) == problem
    with pytest.raises(ValueError) as info:
        BlueChipClient(ScriptPlayer([]), "N", name)
    assert str(info.value) == problem
    table, tm, clock = _table()
    tm.connect("x")
    # over the protocol too, also those the grammar reads as spaces elsewhere in a line
    # (a tab, NEL, the line and paragraph separators, the information separators)
    line = f'Connecting "{name}" as North using protocol version 18'
    _error(table.send("x", line), "x", problem)
    assert tm.seats == {} and tm.conns["x"].stage == "new"
    assert parse_client_line(line).team == name


def test_a_team_name_is_read_as_sent():
    """Only the whitespace around the words of a Connecting line is folded, not the team
    name's: it is written back between quotes as the client sent it."""
    assert parse_client_line('connecting\t"a  b "  as north using protocol version 18') \
        == Connect("a  b ", N, 18)
    table, tm, clock = _table()
    tm.connect("x")
    assert table.send("x", 'Connecting "a  b" as North using protocol version 18') == [
        ("send", "x", 'North ("a  b") seated')]


def test_the_commands_refuse_a_team_name_with_a_control_character(tmp_path):
    from click.testing import CliRunner

    from ai.cli import main

    r = CliRunner().invoke(main, ["bluechip", "tm", "--port", "0", "--boards", "1",
                                  "--seed", "1", "--seat-timeout", "1",
                                  "-o", str(tmp_path / "s.pbn"), "--ns-team", "NS\x07"])
    assert r.exit_code == 2, (r.output, r.exception)
    assert "--ns-team" in r.output and \
        "a team name cannot contain a control character ('\\x07' at position 3)" in r.output
    assert "\x07" not in r.output and not (tmp_path / "s.pbn").exists()
    r = CliRunner().invoke(main, ["bluechip", "client", "--port", "1", "--seat", "N",
                                  "--team", "\x1b]0;x\x07"])
    assert r.exit_code == 2, (r.output, r.exception)
    assert "--team" in r.output and \
        "a team name cannot contain a control character ('\\x1b' at position 1)" in r.output
    assert "\x1b" not in r.output


def test_relayed_alerts_have_their_control_characters_replaced():
    """An explanation is relayed to the caller's opponents (and written to the PBN file)
    with each control character replaced by '?': one client cannot drive the terminal of
    another's operator."""
    table, tm, clock = _table(relay_alerts=True)
    held = _hold_norths_first_call(table, tm)
    assert table.send("N", "North bids 1C Alert. Precision\x1b[2J\x07 16+\x00 \u202e\x9b") \
        == []
    table.queue.extend(held[1:])
    assert table.run()
    assert tm.finished and tm.records[0].finished
    first = {cid: [line for line in table.received[cid] if line.startswith("North bids 1C")]
             for cid in "ESW"}
    assert first == {"E": ["North bids 1C Alert. Precision?[2J? 16+? ??"],
                     "W": ["North bids 1C Alert. Precision?[2J? 16+? ??"],
                     "S": ["North bids 1C"]}
    assert tm.records[0].calls[0][2:] == (True, "Precision?[2J? 16+? ??")
    pbn = dumps_pbn(records_to_pbn(tm.records, teams=tm.teams))
    assert "Alert: Precision?[2J? 16+? ??" in pbn and "\x1b" not in pbn
    # written by anyone (our client's --alerts too): the same replacement
    assert str(CallMessage(N, Call.from_str("2C"), True, "Stayman\x1b[5m")) == \
        "North bids 2C Alert. Stayman?[5m"
    assert str(CallMessage(N, Call.from_str("2C"), False, "8+\x00 HCP")) == \
        "North bids 2C Infos. 8+? HCP"


def _one_shot_tm(lines):
    """A table manager that answers the first line with ``lines`` and hangs up."""
    listener = socket.create_server(("127.0.0.1", 0))
    heard = []

    def serve():
        conn, _ = listener.accept()
        sock = LineSocket(conn)
        try:
            heard.append(sock.read_line())
            for line in lines:
                sock.send(line)
        finally:
            sock.close()
            listener.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return listener.getsockname()[1], thread, heard


_HOSTILE = ["Error \x1b[2Jwiped\x07", "\x1b]0;title\x07 no message", "End of session"]


def test_the_client_escapes_what_it_logs(caplog):
    """What a table manager sends reaches our log (and the problems the client lists)
    with its control characters escaped."""
    import logging

    port, thread, heard = _one_shot_tm(_HOSTILE)
    client = BlueChipClient(ScriptPlayer([]), "N", "Robo")
    with caplog.at_level(logging.DEBUG, logger="ai.protocols.bluechip.client"):
        run_client("127.0.0.1", port, client, timeout=30)
    thread.join(30)
    assert heard == ['Connecting "Robo" as North using protocol version 18']
    assert client.finished and client.errors == ["\x1b[2Jwiped\x07"]
    assert client.problems == [r"unreadable line '\x1b]0;title\x07 no message': "
                               r"'\x1b]0;title\x07 no message' is no message of the protocol"]
    messages = [r.getMessage() for r in caplog.records]
    assert r"table manager error: \x1b[2Jwiped\x07" in messages
    assert any(m.endswith(r"<< \x1b]0;title\x07 no message") for m in messages), messages
    assert all(m.isprintable() for m in messages), messages


def test_the_client_command_with_v_logs_each_line_once(tmp_path):
    """``ddsolver-ai bluechip client -v``: every line in and out once on standard error
    (the log; it was also echoed), with the seat, what the table manager sent escaped."""
    import subprocess

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    got = []

    def table_manager():
        conn, _ = server.accept()
        with conn, conn.makefile("rwb") as f:
            got.append(f.readline())                   # Connecting ...
            f.write(b'North ("cli") seated\r\n')
            f.flush()
            got.append(f.readline())                   # North ready for teams
            for line in _HOSTILE:
                f.write(line.encode("latin-1") + b"\r\n")
            f.flush()

    thread = threading.Thread(target=table_manager, daemon=True)
    thread.start()
    try:
        root = Path(__file__).resolve().parent.parent
        proc = subprocess.run([sys.executable, "-m", "ai", "bluechip", "client", "--port",
                               str(port), "--seat", "N", "--team", "cli", "--timeout", "30",
                               "-v"], cwd=root, capture_output=True, text=True, timeout=120)
    finally:
        server.close()
    thread.join(10)
    assert got[0] == b'Connecting "cli" as North using protocol version 18\r\n', got
    lines = proc.stderr.splitlines()
    for shown in ('>> Connecting "cli" as North using protocol version 18',
                  '<< North ("cli") seated', ">> North ready for teams",
                  r"<< Error \x1b[2Jwiped\x07", r"<< \x1b]0;title\x07 no message",
                  "<< End of session"):
        assert sum(1 for x in lines if x.endswith(shown)) == 1, (shown, proc.stderr)
    assert sum(1 for x in lines if x.endswith(" North >> North ready for teams")) == 1
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stderr and "\x07" not in proc.stderr


def test_an_over_long_line_is_cut_to_its_start_whatever_its_chunks():
    # a line past max_line is read as its first max_line characters, however the network
    # cuts it: its tail is never read as a line of its own (here "East passes")
    for chunks in ([b"Error " + b"x" * 300 + b"  East passes\r\nStart of board\r\n"],
                   [b"Error " + b"x" * 300 + b" ", b" East passes\r\nStart of board\r\n"],
                   [b"Error " + b"x" * 50, b"x" * 250, b"  East passes\r\n",
                    b"Start of board\r\n"]):
        a, b = socket.socketpair()
        got = threading.Event()

        class Sock:          # hands read_line one chunk per recv, as the network may
            def recv(self, n):
                got.set()
                return a.recv(n)

        def send():
            for chunk in chunks:
                got.wait(5)
                got.clear()
                b.sendall(chunk)
            b.close()

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        try:
            lines = LineSocket(Sock(), max_line=100)
            assert lines.read_line() == "Error " + "x" * 94
            assert lines.read_line() == "Start of board"
            assert lines.read_line() is None
        finally:
            sender.join(5)
            a.close()
            b.close()


def _tm_session_with_four_clients(args, once_listening=lambda: None):
    """Run ``ddsolver-ai bluechip tm --port 0 --boards 1 --seed 5 ARGS`` as a process with
    four easy computers as clients; ``once_listening()`` is called when it listens.
    Returns (the process's return code, its standard output, the rest of its standard
    error, the four clients by seat)."""
    import re
    import subprocess

    root = Path(__file__).resolve().parent.parent
    tm = subprocess.Popen([sys.executable, "-m", "ai", "bluechip", "tm", "--port", "0",
                           "--boards", "1", "--seed", "5", *args, "--timeout", "60",
                           "--seat-timeout", "60"],
                          cwd=root, stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True)
    clients = {}
    try:
        port = None
        for line in tm.stderr:
            m = re.search(r"table manager listening on 127\.0\.0\.1:(\d+)", line)
            if m:
                port = int(m.group(1))
                break
        assert port is not None
        once_listening()
        threads = []
        for s in Seat:
            clients[s] = BlueChipClient(ComputerPlayer("easy", seed=1, threads=1,
                                                       min_samples=6), s, "t")
            threads.append(threading.Thread(target=run_client, args=("127.0.0.1", port,
                                                                     clients[s]),
                                            kwargs={"timeout": 60}))
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        summary, rest = tm.communicate(timeout=60)
    finally:
        if tm.poll() is None:
            tm.kill()
            tm.wait()
    return tm.returncode, summary, rest, clients


def test_a_session_file_that_cannot_be_written_is_reported_and_the_command_fails(tmp_path):
    """-o's folder removed during the session: each failed write was logged with a raw
    traceback and the command still ended with status 0, the session nowhere.  Each
    failure is one line naming the file and the reason, and the command ends with status
    1 saying the session was not written."""
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "s.pbn"
    code, summary, rest, _ = _tm_session_with_four_clients(["-o", str(out)], folder.rmdir)
    assert code == 1, rest
    assert "Traceback" not in rest, rest
    assert f"cannot write the session to {out}: No such file or directory" in rest, rest
    assert f"Error: the session was not written to {out}" in rest, rest
    assert summary.startswith("board 1: ")
    assert not folder.exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_log_that_cannot_be_written_does_not_stop_the_session(tmp_path):
    """--log on a full disk (/dev/full): the failed write of the first line a client sent
    closed that client's connection, so no client could ever be seated, and the command
    ended with a raw traceback.  The failure is logged once, the session is played and
    written, and the command ends with status 1 saying the log is incomplete."""
    out = tmp_path / "s.pbn"
    code, summary, rest, clients = _tm_session_with_four_clients(
        ["-o", str(out), "--log", "/dev/full"])
    assert all(c.finished and len(c.boards) == 1 and c.boards[0].finished
               for c in clients.values())
    assert "1 board(s) finished, 0 unfinished: all boards played" in rest, rest
    assert "Traceback" not in rest, rest
    assert rest.count("cannot write the log /dev/full: No space left on device; the session "
                      "goes on without it") == 1, rest
    assert "Error: the log /dev/full is incomplete" in rest, rest
    assert code == 1
    assert len(read_pbn(str(out))) == 1


def test_a_team_name_that_cannot_be_sent_is_refused():
    """The protocol's lines go out in Latin-1 (ASCII in the protocol): a team name such
    as "Đức" was sent as "??c" without a word (and a table manager given --ns-team "Đức"
    then refused the client that gave it: "Team name mismatch").  Refused where it is
    given; Latin-1 names such as "Émile" go through as they are."""
    for name in ("Đức", "Bob \u2603", "日本"):
        with pytest.raises(ValueError, match="cannot be sent"):
            BlueChipClient(ScriptPlayer([]), "N", name)
        with pytest.raises(ValueError, match="cannot be sent"):
            TableManager(boards_from_seed(4, 1), ns_team=name)
    client = BlueChipClient(ScriptPlayer([]), "N", "Émile")
    assert client.start() == ['Connecting "Émile" as North using protocol version 18']


def test_an_alert_is_sent_with_its_suits_as_letters():
    """--alerts sent the system's explanation as it is, suit symbols included, on a line
    that goes out in Latin-1: "Jacoby transfer: shows five or more ♥" reached the table
    manager as "shows five or more ?".  The suits are written as letters."""
    line = str(CallMessage(N, Call.from_str("2D"), True,
                           "Jacoby transfer: shows five or more ♥; asks opener to bid ♥"))
    assert line == "North bids 2D Alert. Jacoby transfer: shows five or more H; asks " \
                   "opener to bid H"
    assert line.encode("latin-1") and "?" not in line
    assert str(CallMessage(N, Call.from_str("2C"), False, "♠♥♦♣ ♤♡♢♧")) == \
        "North bids 2C Infos. SHDC SHDC"
