"""A Blue Chip table manager (protocol version 18): seats four clients, deals, relays,
enforces turn and legality, scores, and writes the session as PBN.

:class:`TableManager` is the protocol without the network: it is told of connections, lines
and disconnections and returns what to send (``("send", connection, line)``) and which
connections to close (``("close", connection)``), so that every rule can be tested, and
fuzzed, line by line.  :class:`TableManagerServer` serves it over TCP with asyncio on the
address the user gives (127.0.0.1 by default).

The session (``docs/protocol-bluechip.md`` has every message and an example):

1. each client sends ``Connecting "<team>" as <seat>`` (or ``ANYPL``: the first free seat)
   and is answered ``<seat> ("<team>") seated``; ``ready for teams`` is answered with the
   ``Teams`` line once the four seats are taken; ``ready to start`` marks the client ready;
2. when the four are ready, ``Start of board`` goes to all; ``ready for deal`` is answered
   with ``Board number ...``, ``ready for cards`` with the client's own 13 cards;
3. calls and cards are relayed on request (``ready for East's bid``, ``ready for East's card
   to trick 3``, ``ready for dummy's card ...``) as soon as they are made; dummy's cards on
   ``ready for dummy`` once the opening lead is faced; ``<seat> to lead`` (``Dummy to lead``
   to declarer) goes to the client that must lead once it has seen the previous trick;
4. when every client has seen the last call or card, ``Timing ...`` and then ``Start of
   board`` (or ``End of session``) go to all.

Every line that is no message, or a message that is not legal now (a call out of turn or
insufficient, a card not held or a revoke, a seat speaking for another, a request for
something that is not next), is answered ``Error <reason>`` and changes nothing: the client
may send the right line next.  A board on which no client has progressed for ``timeout``
seconds, or during which a client disconnects, is recorded unfinished with the reason; the
table manager then waits (up to ``seat_timeout``) for the four seats to be ready again and
goes on with the next board, sending ``Start of board`` to the clients still in the old one.
Each finished or unfinished board is added to the PBN file at once (written atomically).
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ai.protocols.bluechip import (
    PROTOCOL_VERSION,
    BlueChipError,
    BoardInfo,
    CallMessage,
    CardMessage,
    Connect,
    EndOfSession,
    ErrorMessage,
    HandMessage,
    Ready,
    ReadyForCall,
    ReadyForCard,
    Seated,
    StartOfBoard,
    Teams,
    Timing,
    ToLead,
    check_team_name,
    clean,
    escape,
    format_card,
    format_seat,
    parse_client_line,
    quote,
)
from ddsolver.auction import Auction, Call
from ddsolver.cards import Card
from ddsolver.deal import Deal
from ddsolver.play import trick_winner
from ddsolver.scoring import Contract, ns_score
from ddsolver.table import Seat, Side, Vulnerability, board_dealer, board_vulnerability

__all__ = ["BoardRecord", "BoardSpec", "TableManager", "TableManagerServer",
           "boards_from_pbn", "boards_from_seed", "records_to_pbn"]

log = logging.getLogger("ai.protocols.bluechip.tm")

_SUIT_MASK = 0xFFFF


# -- the boards ------------------------------------------------------------------------------
@dataclass(frozen=True)
class BoardSpec:
    """A board to play: its number, deal, dealer and vulnerability."""

    number: int
    deal: Deal
    dealer: Seat
    vulnerability: Vulnerability


def boards_from_seed(seed: int, count: int, first: int = 1) -> List[BoardSpec]:
    """``count`` boards numbered from ``first``: the deals
    :func:`ddsolver.deal.random_deals` ``(seed, count)``, dealer and vulnerability by the
    standard 16-board cycle (WBF Law 2).

    :raises ValueError: for a count below 1 or above
        :data:`ddsolver.deal.MAX_RANDOM_DEALS`, or a first board below 1.
    :raises TypeError: for a seed that is not an integer.
    """
    from ddsolver.deal import random_deals

    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, got {seed!r}")
    if count < 1 or first < 1:
        raise ValueError("count and first must be at least 1")
    deals = random_deals(seed, count)
    return [BoardSpec(first + i, d, board_dealer(first + i), board_vulnerability(first + i))
            for i, d in enumerate(deals)]


def boards_from_pbn(source) -> List[BoardSpec]:
    """The boards of a PBN file (:func:`ddsolver.read_pbn`): each game's deal, board
    number (else its position), dealer and vulnerability (else those of the board number).

    ``source`` is what :func:`ddsolver.read_pbn` reads: a path, a file object, bytes, or
    PBN text (a ``str`` holding a line break or a ``[``).  An empty (or blank) ``str`` with
    no line break names no file and holds no game: it is refused.

    :raises PBNError: for an empty ``source`` string, an unreadable file or a game without
        a complete deal (a :class:`ValueError`).
    :raises OSError: when the file cannot be read.
    """
    from ddsolver.errors import PBNError
    from ddsolver.pbn import read_pbn

    if isinstance(source, str) and not source.strip() and "\n" not in source:
        raise PBNError("boards_from_pbn needs a PBN file's path or PBN text, not an empty "
                       "string")

    out = []
    for i, game in enumerate(read_pbn(source), 1):
        deal = game.deal
        if deal is None or not deal.is_complete():
            raise PBNError(f"game {i} of the PBN file has no complete deal")
        number = game.board or i
        dealer = game.dealer if game.dealer is not None else board_dealer(number)
        vul = game.vulnerability if game.vulnerability is not None else \
            board_vulnerability(number)
        out.append(BoardSpec(number, deal, dealer, vul))
    if not out:
        raise PBNError("the PBN file holds no game")
    return out


@dataclass
class BoardRecord:
    """A board as played at the table (finished or not).

    :ivar calls: ``(seat, call, alerted, explanation)`` in order.
    :ivar played: ``(seat, card)`` in order (dummy's cards under dummy's seat).
    :ivar finished: the auction and the play were completed.
    :ivar reason: why an unfinished board stopped.
    :ivar tricks: declarer's side's tricks (finished boards with a contract).
    :ivar score: the duplicate score from North-South's view (finished boards).
    :ivar seconds: the time each side used, ``{Side: seconds}``.
    """

    spec: BoardSpec
    calls: List[Tuple[Seat, Call, bool, Optional[str]]] = field(default_factory=list)
    played: List[Tuple[Seat, Card]] = field(default_factory=list)
    finished: bool = False
    reason: Optional[str] = None
    contract: Optional[Contract] = None
    tricks: Optional[int] = None
    score: Optional[int] = None
    seconds: Dict[Side, float] = field(default_factory=lambda: {Side.NS: 0.0,
                                                                Side.EW: 0.0})

    @property
    def declarer(self) -> Optional[Seat]:
        return None if self.contract is None else self.contract.declarer


def records_to_pbn(records: Sequence[BoardRecord], *, event: str = "", site: str = "",
                   date: str = "", scoring: str = "IMP", teams: Tuple[str, str] = ("", "")):
    """The boards as PBN games (:class:`ddsolver.pbn.PBNGame`), for
    :func:`ddsolver.write_pbn`.  An unfinished board keeps its calls and cards with ``*``
    ending the section that stopped, an empty ``Result`` and a comment giving the reason;
    alerts and explanations become auction notes; ``Score`` is North-South's.
    """
    from ddsolver.pbn import AnnotatedCall, PBNGame

    games = []
    ns, ew = teams
    for r in records:
        s = r.spec
        game = PBNGame.new(s.deal, board=s.number, dealer=s.dealer,
                           vulnerability=s.vulnerability, event=event, site=site, date=date,
                           scoring=scoring,
                           players={Seat.NORTH: ns, Seat.SOUTH: ns, Seat.EAST: ew,
                                    Seat.WEST: ew})
        auction = Auction(s.dealer, [c for _, c, _, _ in r.calls])
        entries = []
        for seat, call, alert, text in r.calls:
            note = None
            if alert or text:
                note = ("Alert: " if alert else "") + (text or "alerted")
            entries.append(AnnotatedCall(seat, call, str(call), None, note, (), alert))
        if entries or not r.finished:
            game.set_auction(entries, s.dealer,
                             terminator="" if auction.is_finished else "*")
        comments = [] if r.finished else [f"{{unfinished: {r.reason}}}"]
        if auction.is_finished and auction.contract is None:
            game.set_tag("Contract", "Pass")
        elif auction.is_finished:
            c = auction.contract
            game.set_tag("Declarer", c.declarer.letter)
            game.set_tag("Contract", str(Contract(c.level, c.strain, c.doubled)))
            if r.played:
                game.set_play([card for _, card in r.played], c.declarer.lho, c.strain,
                              terminator="" if len(r.played) == 52 else "*")
        if r.finished and r.contract is not None:
            game.set_tag("Result", str(r.tricks), comments=comments)
        else:
            game.set_tag("Result", "", comments=comments)
        if r.finished:
            game.set_tag("Score", f"NS {r.score}")
        games.append(game)
    return games


# -- the table manager -----------------------------------------------------------------------
class _Refuse(Exception):
    """A line refused: answered ``Error <text>``, nothing changed (with ``close``, the
    connection is then closed)."""

    def __init__(self, text: str, *, close: bool = False):
        super().__init__(text)
        self.close = close


@dataclass
class _Conn:
    cid: object
    opened: float
    seat: Optional[Seat] = None
    team: str = ""
    stage: str = "new"   # new, seated, wait_teams, teams, ready, sob, info, play, done
    cursor: int = 0
    pending: Optional[tuple] = None


@dataclass
class _Event:
    kind: str            # "call" or "card"
    seat: Seat           # who called / whose card
    by: Seat             # the seat whose client sent it (declarer for dummy's cards)
    value: object        # Call or Card
    alert: bool = False
    explanation: Optional[str] = None


class _Board:
    def __init__(self, spec: BoardSpec, now: float):
        self.spec = spec
        self.auction = Auction(spec.dealer)
        self.events: List[_Event] = []
        self.played: List[Tuple[Seat, Card]] = []
        self.held = {s: spec.deal[s].mask for s in Seat}
        self.leader: Optional[Seat] = None
        self.tricks_won = 0
        self.prompted = -1      # len(played) at which the last lead prompt went out
        self.last_progress = now
        self.last_event = now
        self.seconds = {Side.NS: 0.0, Side.EW: 0.0}

    @property
    def contract(self) -> Optional[Contract]:
        return self.auction.contract if self.auction.is_finished else None

    @property
    def dummy(self) -> Optional[Seat]:
        c = self.contract
        return None if c is None else c.declarer.partner

    @property
    def over(self) -> bool:
        return self.auction.is_finished and (self.contract is None or len(self.played) == 52)

    def to_play(self) -> Optional[Seat]:
        if self.contract is None or len(self.played) == 52:
            return None
        return self.leader.next(len(self.played) % 4)

    def controller(self, seat: Seat) -> Seat:
        return self.contract.declarer if seat == self.dummy else seat

    def trick_of(self, card_index: int) -> int:
        return card_index // 4 + 1


class TableManager:
    """The table manager's rules, without the network (see the module docstring).

    :param boards: the boards to play, in order (:func:`boards_from_seed`,
        :func:`boards_from_pbn`).
    :param ns_team, ew_team: team names each side must connect with (``None``: the first
        client of the side names it; ``Error Team name mismatch`` otherwise).
    :param scoring: ``"IMP"`` or ``"MP"`` (written to the PBN file; announced in the
        ``Teams`` line as ``Playing IMP|MP`` when ``announce_scoring``).
    :param relay_alerts: relay a call's ``Alert.`` and explanation to the caller's
        opponents (off by default: not every client reads them).
    :param timeout: seconds without progress on a board before it is recorded unfinished.
    :param seat_timeout: seconds to wait for four ready clients (at the start, after a
        disconnection) before the session ends.
    :param on_record: called with the list of records after each board (to write the PBN).
    :raises ValueError: for no boards, a bad scoring or timeout, or a team name that is
        empty, longer than 100 characters, has a ``"`` or a control character
        (:func:`ai.protocols.bluechip.check_team_name`).
    """

    def __init__(self, boards: Sequence[BoardSpec], *, ns_team: Optional[str] = None,
                 ew_team: Optional[str] = None, scoring: str = "IMP",
                 announce_scoring: bool = False, relay_alerts: bool = False,
                 timeout: float = 120.0, seat_timeout: float = 600.0,
                 on_record: Optional[Callable[[List[BoardRecord]], None]] = None,
                 clock: Callable[[], float] = time.monotonic):
        boards = list(boards)
        if not boards or not all(isinstance(b, BoardSpec) for b in boards):
            raise ValueError("the table manager needs at least one BoardSpec")
        if scoring not in ("IMP", "MP"):
            raise ValueError(f"scoring must be 'IMP' or 'MP', got {scoring!r}")
        if not timeout > 0 or not seat_timeout > 0:
            raise ValueError("timeouts must be positive")
        for team in (ns_team, ew_team):
            if team is not None:
                check_team_name(team)
        self.boards = boards
        self.fixed_teams = {Side.NS: ns_team, Side.EW: ew_team}
        self.team_names: Dict[Side, Optional[str]] = dict(self.fixed_teams)
        self.scoring = scoring
        self.announce_scoring = announce_scoring
        self.relay_alerts = relay_alerts
        self.timeout = timeout
        self.seat_timeout = seat_timeout
        self.on_record = on_record
        self.clock = clock
        self.conns: Dict[object, _Conn] = {}
        self.seats: Dict[Seat, object] = {}
        self.board: Optional[_Board] = None
        self.next_board = 0
        self.records: List[BoardRecord] = []
        self.finished = False
        self.end_reason: Optional[str] = None
        self.totals = {Side.NS: 0.0, Side.EW: 0.0}
        self.waiting_since = clock()
        self._out: List[tuple] = []

    # -- events -------------------------------------------------------------------------------
    def connect(self, cid, now: Optional[float] = None) -> List[tuple]:
        """A new connection ``cid`` (any hashable)."""
        now = self.clock() if now is None else now
        if self.finished:
            self._send(cid, ErrorMessage("the session is over"))
            self._out.append(("close", cid))
        else:
            self.conns[cid] = _Conn(cid, now)
        return self._flush()

    def receive(self, cid, line: str, now: Optional[float] = None) -> List[tuple]:
        """A line from connection ``cid``; blank lines are ignored."""
        now = self.clock() if now is None else now
        conn = self.conns.get(cid)
        if conn is None or self.finished or not line.strip():
            return self._flush()
        try:
            try:
                msg = parse_client_line(line)
            except BlueChipError as exc:
                raise _Refuse(str(exc)) from None
            self._dispatch(conn, msg, now)
        except _Refuse as refusal:
            log.info("refused from %s: %s (%s)", self._who(conn), quote(line), refusal)
            self._send(cid, ErrorMessage(str(refusal)))
            if refusal.close:   # only ever before the client is seated
                del self.conns[cid]
                self._out.append(("close", cid))
            return self._flush()
        self._service(now)
        return self._flush()

    def disconnect(self, cid, now: Optional[float] = None) -> List[tuple]:
        """Connection ``cid`` closed."""
        now = self.clock() if now is None else now
        conn = self.conns.pop(cid, None)
        if conn is None or conn.seat is None or self.seats.get(conn.seat) != cid:
            return self._flush()
        del self.seats[conn.seat]
        if not self.finished:
            log.warning("%s disconnected", format_seat(conn.seat))
        if self.board is not None and not self.finished:
            self._abort(f"{format_seat(conn.seat)} disconnected", now)
        self.waiting_since = now
        return self._flush()

    def tick(self, now: Optional[float] = None) -> List[tuple]:
        """Check the timeouts (call it every fraction of a second)."""
        now = self.clock() if now is None else now
        if self.finished:
            return self._flush()
        for conn in list(self.conns.values()):
            if conn.stage == "new" and now - conn.opened > self.timeout:
                self._send(conn.cid, ErrorMessage(f"no 'Connecting' line in "
                                                  f"{self.timeout:g} s"))
                self._out.append(("close", conn.cid))
                del self.conns[conn.cid]
        b = self.board
        if b is not None and now - b.last_progress > self.timeout:
            self._abort(f"timeout: no progress for {self.timeout:g} s waiting for "
                        f"{self._waiting_for()}", now)
        elif b is None and now - self.waiting_since > self.seat_timeout:
            self._end(f"fewer than four ready clients for {self.seat_timeout:g} s")
        return self._flush()

    def close(self, reason: str = "closed by the operator") -> List[tuple]:
        """End the session now (the board in progress is recorded unfinished)."""
        if not self.finished:
            if self.board is not None:
                self._abort(reason, self.clock(), start_next=False)
            self._end(reason)
        return self._flush()

    # -- helpers ----------------------------------------------------------------------------------
    def _flush(self) -> List[tuple]:
        out, self._out = self._out, []
        return out

    def _send(self, cid, msg) -> None:
        self._out.append(("send", cid, str(msg)))

    def _who(self, conn: _Conn) -> str:
        return format_seat(conn.seat) if conn.seat is not None else f"connection {conn.cid}"

    def _seat_conn(self, seat: Seat) -> Optional[_Conn]:
        cid = self.seats.get(seat)
        return None if cid is None else self.conns.get(cid)

    def _check_seat(self, conn: _Conn, seat: Seat) -> None:
        if conn.seat is None:
            raise _Refuse("send 'Connecting \"<team>\" as <seat> using protocol version 18' "
                          "first")
        if seat != conn.seat:
            raise _Refuse(f"you are {format_seat(conn.seat)}, not {format_seat(seat)}")

    # -- dispatch ---------------------------------------------------------------------------------
    def _dispatch(self, conn: _Conn, msg, now: float) -> None:
        if isinstance(msg, Connect):
            return self._on_connect(conn, msg)
        seat = msg.seat if not isinstance(msg, CardMessage) else None
        if isinstance(msg, CardMessage):
            if conn.seat is None:
                self._check_seat(conn, Seat.NORTH)
        else:
            self._check_seat(conn, seat)
        if isinstance(msg, Ready):
            return self._on_ready(conn, msg.what)
        if conn.stage != "play":
            raise _Refuse(f"no board in play for you now ({self._stage_text(conn)})")
        b = self.board
        if isinstance(msg, ReadyForCall):
            return self._on_request(conn, "call", msg.other, None)
        if isinstance(msg, ReadyForCard):
            other = msg.other
            if other is None:
                if b.dummy is None:
                    raise _Refuse("there is no dummy yet: the auction is not over")
                other = b.dummy
            return self._on_request(conn, "card", other, msg.trick)
        if isinstance(msg, CallMessage):
            return self._on_call(conn, msg, now)
        if isinstance(msg, CardMessage):
            return self._on_card(conn, msg, now)
        raise _Refuse(f"{msg} is not a message a client sends")  # pragma: no cover

    def _stage_text(self, conn: _Conn) -> str:
        return {"new": "send 'Connecting' first", "seated": "send 'ready for teams'",
                "wait_teams": "waiting for the four seats",
                "teams": "send 'ready to start'", "ready": "waiting for the board to start",
                "sob": "send 'ready for deal'", "info": "send 'ready for cards'",
                "play": "a board is in play",
                "done": "the board is over"}.get(conn.stage, conn.stage)

    def _on_connect(self, conn: _Conn, msg: Connect) -> None:
        if conn.stage != "new":
            raise _Refuse(f"already seated as {format_seat(conn.seat)}")
        if msg.version != PROTOCOL_VERSION:
            raise _Refuse(f"this table manager speaks protocol version {PROTOCOL_VERSION}, "
                          f"not {msg.version}", close=True)
        try:   # it is written back between quotes (Seated, Teams), to the PBN file
            check_team_name(msg.team)
        except ValueError as exc:
            raise _Refuse(str(exc)) from None
        if msg.seat is None:
            free = [s for s in Seat if s not in self.seats]
            if not free:
                raise _Refuse("the table is full")
            seat = free[0]
        else:
            seat = msg.seat
            if seat in self.seats:
                raise _Refuse(f"{format_seat(seat)} is taken")
        side = seat.side
        fixed = self.fixed_teams[side]
        if fixed is not None and msg.team != fixed:
            raise _Refuse("Team name mismatch")
        if self.team_names[side] is None:
            self.team_names[side] = msg.team
        elif msg.team != self.team_names[side]:
            log.warning("%s connects as team %r, its side is %r", format_seat(seat),
                        msg.team, self.team_names[side])
        conn.seat, conn.team, conn.stage = seat, msg.team, "seated"
        self.seats[seat] = conn.cid
        self._send(conn.cid, Seated(seat, msg.team))

    def _on_ready(self, conn: _Conn, what: str) -> None:
        b = self.board
        if what == "teams":
            if conn.stage != "seated":
                raise _Refuse(f"the teams were already sent ({self._stage_text(conn)})")
            conn.stage = "wait_teams"
            self._send_teams()
        elif what == "start":
            if conn.stage in ("ready", "done", "sob"):
                return  # some clients repeat it between boards: nothing to do
            if conn.stage != "teams":
                raise _Refuse(f"not expected now ({self._stage_text(conn)})")
            conn.stage = "ready"
            self._maybe_start()
        elif what == "deal":
            if conn.stage != "sob":
                raise _Refuse(f"not expected now ({self._stage_text(conn)})")
            s = b.spec
            conn.stage = "info"
            self._send(conn.cid, BoardInfo(s.number, s.dealer, s.vulnerability))
        elif what == "cards":
            if conn.stage != "info":
                raise _Refuse(f"not expected now ({self._stage_text(conn)})")
            conn.stage = "play"
            conn.cursor = 0
            conn.pending = None
            self._send(conn.cid, HandMessage(conn.seat, b.spec.deal[conn.seat]))
        elif what == "dummy":
            if conn.stage != "play":
                raise _Refuse(f"no board in play for you now ({self._stage_text(conn)})")
            if b.contract is None:
                raise _Refuse("there is no dummy: the auction is not over" if not
                              b.auction.is_finished else "the board was passed out")
            if conn.pending is not None:
                raise _Refuse(f"you are already waiting for {self._pending_text(conn)}")
            if b.played:
                self._send(conn.cid, HandMessage(None, b.spec.deal[b.dummy]))
            else:
                conn.pending = ("dummy",)
        else:  # pragma: no cover - the grammar has no other
            raise _Refuse(f"unknown request 'ready for {what}'")

    def _send_teams(self) -> None:
        if len(self.seats) < 4:
            return
        ns = self.team_names[Side.NS] or ""
        ew = self.team_names[Side.EW] or ""
        for conn in self.conns.values():
            if conn.stage == "wait_teams":
                conn.stage = "teams"
                self._send(conn.cid, Teams(ns, ew, self.scoring if self.announce_scoring
                                           else None))

    def _skip_own(self, conn: _Conn) -> None:
        events = self.board.events
        while conn.cursor < len(events) and events[conn.cursor].by == conn.seat:
            conn.cursor += 1

    def _pending_text(self, conn: _Conn) -> str:
        p = conn.pending
        if p[0] == "dummy":
            return "dummy's cards"
        return f"{format_seat(p[1])}'s {'bid' if p[0] == 'call' else 'card'}"

    def _next_at_table(self) -> Optional[Tuple[str, Seat]]:
        b = self.board
        if not b.auction.is_finished:
            return ("call", b.auction.to_act)
        to_play = b.to_play()
        return None if to_play is None else ("card", to_play)

    def _on_request(self, conn: _Conn, kind: str, other: Seat, trick: Optional[int]) -> None:
        b = self.board
        if conn.pending is not None:
            raise _Refuse(f"you are already waiting for {self._pending_text(conn)}")
        self._skip_own(conn)
        word = "bid" if kind == "call" else "card"
        if conn.cursor < len(b.events):
            ev = b.events[conn.cursor]
            index = conn.cursor
            if ev.kind != kind or ev.seat != other:
                raise _Refuse(f"the next thing you have not seen is {format_seat(ev.seat)}'s "
                              f"{'bid' if ev.kind == 'call' else 'card'}, not "
                              f"{format_seat(other)}'s {word}")
        else:
            nxt = self._next_at_table()
            if nxt is None:
                raise _Refuse("the board is over: nothing more is coming")
            if nxt[0] != kind or nxt[1] != other:
                raise _Refuse(f"{format_seat(nxt[1])}'s "
                              f"{'bid' if nxt[0] == 'call' else 'card'} comes next, not "
                              f"{format_seat(other)}'s {word}")
            if kind == "call" and other == conn.seat or \
                    kind == "card" and b.controller(other) == conn.seat:
                raise _Refuse(f"it is your turn: you play {format_seat(other)}'s {word}")
            index = len(b.events)
        if kind == "card" and trick is not None:
            card_index = sum(1 for e in b.events[:index] if e.kind == "card")
            if trick != b.trick_of(card_index):
                raise _Refuse(f"{format_seat(other)}'s next card is to trick "
                              f"{b.trick_of(card_index)}, not {trick}")
        conn.pending = (kind, other)

    def _check_caught_up(self, conn: _Conn) -> None:
        self._skip_own(conn)
        events = self.board.events
        if conn.cursor < len(events):
            ev = events[conn.cursor]
            raise _Refuse(f"you have not yet received {format_seat(ev.seat)}'s "
                          f"{'bid' if ev.kind == 'call' else 'card'}")
        if conn.pending is not None:
            raise _Refuse(f"you are waiting for {self._pending_text(conn)}")

    def _on_call(self, conn: _Conn, msg: CallMessage, now: float) -> None:
        b = self.board
        if b.auction.is_finished:
            raise _Refuse("the auction is over")
        if b.auction.to_act != msg.seat:
            raise _Refuse(f"{format_seat(b.auction.to_act)} is to call, not "
                          f"{format_seat(msg.seat)}")
        self._check_caught_up(conn)
        if not b.auction.is_legal(msg.call):
            raise _Refuse(f"{msg.call} is not legal after "
                          f"{' '.join(map(str, b.auction.calls)) or 'no call'}")
        b.auction.add(msg.call)
        # relayed to the other clients and written to the PBN file: no control characters
        explanation = None if msg.explanation is None else clean(msg.explanation)
        self._event(b, _Event("call", msg.seat, conn.seat, msg.call, msg.alert,
                              explanation), now)
        if b.auction.is_finished and b.contract is not None:
            b.leader = b.contract.declarer.lho

    def _on_card(self, conn: _Conn, msg: CardMessage, now: float) -> None:
        b = self.board
        if not b.auction.is_finished:
            raise _Refuse("the auction is not over")
        if b.contract is None:
            raise _Refuse("the board was passed out")
        seat = msg.seat if msg.seat is not None else b.dummy
        to_play = b.to_play()
        if to_play is None:
            raise _Refuse("the play is over")
        if seat != to_play:
            raise _Refuse(f"{format_seat(to_play)} is to play, not {format_seat(seat)}")
        if b.controller(seat) != conn.seat:
            raise _Refuse(f"you are {format_seat(conn.seat)}: you do not play "
                          f"{format_seat(seat)}'s cards")
        self._check_caught_up(conn)
        card = msg.card
        held = b.held[seat]
        if not held & card.bit:
            raise _Refuse(f"{format_seat(seat)} does not hold {format_card(card)}")
        n = len(b.played) % 4
        if n:
            led = b.played[-n][1].suit
            if card.suit != led and (held >> (16 * led)) & _SUIT_MASK:
                raise _Refuse(f"{format_seat(seat)} must follow suit: "
                              f"{led.name.lower()} was led (revoke)")
        b.held[seat] &= ~card.bit
        b.played.append((seat, card))
        self._event(b, _Event("card", seat, conn.seat, card), now)
        if len(b.played) % 4 == 0:
            trick = b.played[-4:]
            winner = trick_winner([c for _, c in trick], trick[0][0], b.contract.strain)
            b.leader = winner
            if winner.side == b.contract.declarer.side:
                b.tricks_won += 1

    def _event(self, b: _Board, ev: _Event, now: float) -> None:
        b.events.append(ev)
        side = ev.by.side
        b.seconds[side] += max(0.0, now - b.last_event)
        b.last_event = now
        b.last_progress = now

    # -- progress ----------------------------------------------------------------------------------
    def _service(self, now: float) -> None:
        b = self.board
        if b is None:
            self._maybe_start()
            return
        progressed = False
        for seat in Seat:
            conn = self._seat_conn(seat)
            if conn is None or conn.stage != "play":
                continue
            self._skip_own(conn)
            p = conn.pending
            if p is None:
                continue
            if p[0] == "dummy":
                if b.played:
                    self._send(conn.cid, HandMessage(None, b.spec.deal[b.dummy]))
                    conn.pending = None
                continue
            if conn.cursor < len(b.events):
                ev = b.events[conn.cursor]
                if ev.kind == "call":
                    relay = CallMessage(ev.seat, ev.value,
                                        ev.alert and self.relay_alerts
                                        and ev.seat.side != seat.side,
                                        ev.explanation if self.relay_alerts
                                        and ev.seat.side != seat.side else None)
                else:
                    relay = CardMessage(ev.seat, ev.value)
                self._send(conn.cid, relay)
                conn.cursor += 1
                conn.pending = None
                progressed = True
                self._skip_own(conn)
        if progressed:
            b.last_progress = now
        self._prompt_lead()
        if b.over and self._all_caught_up():
            self._finish_board(now)

    def _prompt_lead(self) -> None:
        b = self.board
        if b.contract is None or len(b.played) == 52 or len(b.played) % 4 \
                or b.prompted == len(b.played):
            return
        leader = b.to_play()
        conn = self._seat_conn(b.controller(leader))
        if conn is None or conn.stage != "play" or conn.pending is not None:
            return
        self._skip_own(conn)
        if conn.cursor < len(b.events):
            return
        b.prompted = len(b.played)
        self._send(conn.cid, ToLead(None if leader == b.dummy else leader))

    def _all_caught_up(self) -> bool:
        for seat in Seat:
            conn = self._seat_conn(seat)
            if conn is None or conn.stage != "play" or conn.pending is not None:
                return False
            self._skip_own(conn)
            if conn.cursor < len(self.board.events):
                return False
        return True

    def _waiting_for(self) -> str:
        """Who the table is waiting for, and for what (for the timeout's reason)."""
        b = self.board
        reasons = {}
        for seat in Seat:
            conn = self._seat_conn(seat)
            if conn is None:
                reasons[seat] = "not connected"
            elif conn.stage in ("sob", "info"):
                reasons[seat] = self._stage_text(conn)
            elif conn.stage == "play":
                self._skip_own(conn)
                if conn.pending is None and conn.cursor < len(b.events):
                    ev = b.events[conn.cursor]
                    reasons[seat] = (f"to ask for {format_seat(ev.seat)}'s "
                                     f"{'bid' if ev.kind == 'call' else 'card'}")
        nxt = self._next_at_table()
        if nxt is not None:
            who = b.controller(nxt[1]) if nxt[0] == "card" else nxt[1]
            if who not in reasons:
                reasons[who] = "to call" if nxt[0] == "call" else "to play"
        return ", ".join(f"{format_seat(s)} ({r})" for s, r in sorted(reasons.items())) \
            or "nobody"

    def _record(self, b: _Board, finished: bool, reason: Optional[str]) -> BoardRecord:
        calls = [(e.seat, e.value, e.alert, e.explanation) for e in b.events
                 if e.kind == "call"]
        rec = BoardRecord(b.spec, calls, list(b.played), finished, reason,
                          seconds=dict(b.seconds))
        if b.auction.is_finished:
            rec.contract = b.contract
            if finished:
                rec.tricks = b.tricks_won if b.contract is not None else None
                rec.score = ns_score(b.contract, b.tricks_won, b.spec.vulnerability)
        for side in Side:
            self.totals[side] += b.seconds[side]
        self.records.append(rec)
        if self.on_record is not None:
            try:
                self.on_record(list(self.records))
            except Exception:  # pragma: no cover - the writer logs its own failure
                log.exception("could not save the record of board %s", b.spec.number)
        return rec

    def _finish_board(self, now: float) -> None:
        b = self.board
        rec = self._record(b, True, None)
        log.info("board %s finished: %s %s, NS %s", b.spec.number,
                 rec.contract or "passed out", "" if rec.tricks is None else rec.tricks,
                 rec.score)
        timing = Timing.of(b.seconds[Side.NS], self.totals[Side.NS], b.seconds[Side.EW],
                           self.totals[Side.EW])
        self.board = None
        self.next_board += 1
        self.waiting_since = now
        for seat in Seat:
            conn = self._seat_conn(seat)
            if conn is not None:
                conn.stage = "done"
                conn.pending = None
                self._send(conn.cid, timing)
        self._maybe_start()

    def _abort(self, reason: str, now: float, start_next: bool = True) -> None:
        b = self.board
        log.warning("board %s unfinished: %s", b.spec.number, reason)
        self._record(b, False, reason)
        self.board = None
        self.next_board += 1
        self.waiting_since = now
        for conn in self.conns.values():
            if conn.stage in ("sob", "info", "play"):
                conn.stage = "done"
                conn.pending = None
        if start_next:
            self._maybe_start()

    def _maybe_start(self) -> None:
        if self.finished or self.board is not None:
            return
        if self.next_board >= len(self.boards):
            unfinished = sum(not r.finished for r in self.records)
            self._end("all boards played" if not unfinished else
                      f"all boards dealt, {unfinished} of {len(self.records)} unfinished")
            return
        conns = [self._seat_conn(s) for s in Seat]
        if any(c is None or c.stage not in ("ready", "done") for c in conns):
            return
        spec = self.boards[self.next_board]
        self.board = _Board(spec, self.clock())
        for c in conns:
            c.stage = "sob"
            c.pending = None
            c.cursor = 0
            self._send(c.cid, StartOfBoard())

    def _end(self, reason: str) -> None:
        self.finished = True
        self.end_reason = reason
        log.info("session over: %s", reason)
        for conn in list(self.conns.values()):
            self._send(conn.cid, EndOfSession())
            self._out.append(("close", conn.cid))

    @property
    def teams(self) -> Tuple[str, str]:
        """The N/S and E/W team names."""
        return (self.team_names[Side.NS] or "", self.team_names[Side.EW] or "")


# -- the server --------------------------------------------------------------------------------
class TableManagerServer:
    """Serves a :class:`TableManager` over TCP (asyncio) until its session ends.

    :param tm: the table manager.
    :param host: the address to bind (loopback by default; give another only on purpose).
    :param port: the port (0: any free port, see :attr:`port` once started).
    :param pbn_path: where to write the session as PBN after each board (atomically), or
        ``None``.
    :param event, site: PBN ``Event`` and ``Site``.
    :param transcript: a list to which every line in and out is appended as
        ``(time, seat or connection, "in"|"out", line)``.
    :param log_file: a text file to which the same lines are written as they happen.
    :param max_line: the longest line read (bytes); longer lines are refused.
    :param max_connections: connections open at once (more are refused).
    """

    def __init__(self, tm: TableManager, host: str = "127.0.0.1", port: int = 2000, *,
                 pbn_path=None, event: str = "ddsolver table manager", site: str = "",
                 transcript: Optional[list] = None, log_file=None, max_line: int = 4096,
                 max_connections: int = 16):
        self.tm = tm
        self.host = host
        self.port = port
        self.pbn_path = pbn_path
        self.event = event
        self.site = site
        self.date = datetime.date.today().strftime("%Y.%m.%d")
        self.transcript = transcript
        self.log_file = log_file
        self.max_line = max_line
        self.max_connections = max_connections
        self._writers: Dict[int, asyncio.StreamWriter] = {}
        self._next_id = 0
        self._done: Optional[asyncio.Event] = None
        self._server = None
        self._loop = None
        self._thread: Optional[threading.Thread] = None
        self._started = threading.Event()
        self.error: Optional[BaseException] = None
        #: why the last write of the PBN file failed (one line naming the file), or
        #: ``None`` when it succeeded (each board writes the whole session again)
        self.write_error: Optional[str] = None
        #: why the log file stopped being written, or ``None``
        self.log_error: Optional[str] = None
        if pbn_path is not None:
            tm.on_record = self._write_pbn

    def _write_pbn(self, records) -> None:
        from ddsolver.pbn import write_pbn
        try:
            write_pbn(records_to_pbn(records, event=self.event, site=self.site,
                                     date=self.date, scoring=self.tm.scoring,
                                     teams=self.tm.teams),
                      self.pbn_path)
        except OSError as exc:
            self.write_error = (f"cannot write the session to {self.pbn_path}: "
                                f"{exc.strerror or exc}")
            log.error("%s (after board %s)", self.write_error, records[-1].spec.number)
        else:
            self.write_error = None

    def _note(self, cid, direction: str, line: str) -> None:
        conn = self.tm.conns.get(cid)
        who = format_seat(conn.seat) if conn is not None and conn.seat is not None \
            else f"#{cid}"
        shown = escape(line)   # a client's control characters do not reach the log
        log.debug("%s %s %s", who, "<<" if direction == "in" else ">>", shown)
        stamp = time.time()
        if self.transcript is not None:
            self.transcript.append((stamp, who, direction, line))
        if self.log_file is not None:
            try:
                self.log_file.write(f"{datetime.datetime.fromtimestamp(stamp).isoformat()} "
                                    f"{who} {'<<' if direction == 'in' else '>>'} {shown}\n")
                self.log_file.flush()
            except OSError as exc:
                # a full disk: the log stops there, the session goes on (an OSError here
                # closed the connection of the client whose line was being logged)
                self.log_error = (f"cannot write the log "
                                  f"{getattr(self.log_file, 'name', '')}: "
                                  f"{exc.strerror or exc}")
                self.log_file = None
                log.error("%s; the session goes on without it", self.log_error)

    def _apply(self, actions) -> None:
        for action in actions:
            if action[0] == "send":
                _, cid, line = action
                writer = self._writers.get(cid)
                if writer is None or writer.is_closing():
                    continue
                self._note(cid, "out", line)
                writer.write(line.encode("latin-1", "replace") + b"\r\n")
            elif action[0] == "close":
                writer = self._writers.get(action[1])
                if writer is not None:
                    writer.close()
        if self.tm.finished and self._done is not None:
            self._done.set()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        cid = self._next_id
        self._next_id += 1
        if len(self._writers) >= self.max_connections:
            writer.write(b"Error too many connections\r\n")
            writer.close()
            return
        self._writers[cid] = writer
        self._apply(self.tm.connect(cid))
        try:
            while not self.tm.finished:
                try:
                    raw = await reader.readuntil(b"\n")
                except asyncio.IncompleteReadError as exc:
                    raw = exc.partial
                    if not raw:
                        break
                except asyncio.LimitOverrunError:
                    await self._discard_line(reader)
                    self._note(cid, "in", "<over-long line>")
                    self._apply([("send", cid, str(ErrorMessage(
                        f"line longer than {self.max_line} bytes")))])
                    await writer.drain()
                    continue
                line = raw.rstrip(b"\r\n").decode("latin-1")
                self._note(cid, "in", line)
                self._apply(self.tm.receive(cid, line))
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self._writers.pop(cid, None)
            self._apply(self.tm.disconnect(cid))
            writer.close()

    async def _discard_line(self, reader: asyncio.StreamReader) -> None:
        while True:
            try:
                await reader.readuntil(b"\n")
                return
            except asyncio.LimitOverrunError as exc:
                await reader.readexactly(exc.consumed)
            except asyncio.IncompleteReadError:
                return

    async def _ticker(self) -> None:
        while not self.tm.finished:
            await asyncio.sleep(0.2)
            self._apply(self.tm.tick())

    async def serve(self) -> None:
        """Serve until the session ends (every board played, the seats not filled in
        time, or :meth:`stop`)."""
        self._loop = asyncio.get_running_loop()
        self._done = asyncio.Event()
        self._server = await asyncio.start_server(self._client, self.host, self.port,
                                                  limit=self.max_line)
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("table manager listening on %s:%s", self.host, self.port)
        self._started.set()
        ticker = asyncio.ensure_future(self._ticker())
        try:
            await self._done.wait()
            await asyncio.sleep(0.05)  # let the last lines go out
        finally:
            ticker.cancel()
            self._server.close()
            for writer in list(self._writers.values()):
                writer.close()
            await self._server.wait_closed()

    # -- running in a thread (tests, embedding) ------------------------------------------------
    def start_thread(self, timeout: float = 10.0) -> int:
        """Serve in a background thread; returns the port once listening.

        :raises RuntimeError: if the server could not start.
        """
        def run():
            try:
                asyncio.run(self.serve())
            except BaseException as exc:  # pragma: no cover - reported to the caller
                self.error = exc
                self._started.set()

        self._thread = threading.Thread(target=run, name="table-manager", daemon=True)
        self._thread.start()
        if not self._started.wait(timeout) or self.error is not None:
            raise RuntimeError(f"the table manager did not start: {self.error}")
        return self.port

    def stop(self, reason: str = "stopped") -> None:
        """End the session from another thread and wait for the server to close."""
        if self._loop is not None and not self.tm.finished:
            self._loop.call_soon_threadsafe(lambda: self._apply(self.tm.close(reason)))
        self.join()

    def join(self, timeout: Optional[float] = None) -> bool:
        """Wait for the thread to end; ``True`` if it did."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()
