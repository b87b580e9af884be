"""A Blue Chip client: seats a computer player at any table manager (protocol version 18).

:class:`BlueChipClient` is the protocol without the network: it is given each line the
table manager sends (:meth:`BlueChipClient.receive`) and returns the lines to send back, so
that it can be tested against a scripted table manager line by line.  :func:`run_client`
connects it over TCP to the address the user gives.

The player behind it sees only its seat's view: its own cards, the calls and cards the table
manager relays, and dummy's cards once faced (:func:`ai.players.seat_view` checks them).  It
follows the session of ``docs/protocol-bluechip.md``:

- it asks for each other seat's call (``ready for East's bid``) and card (``ready for
  East's card to trick 3``, ``ready for dummy's card ...``) and for dummy's hand after the
  opening lead (``ready for dummy``); it sends its own calls, and its own cards (and dummy's,
  as declarer) when due, waiting for the ``<seat> to lead`` / ``Dummy to lead`` prompt before
  each lead;
- it is tolerant (see :mod:`ai.protocols.bluechip`): any case and spacing, ``Alert.``/
  ``Infos.`` after a call, dummy named ``Dummy`` or by its seat, a lead prompt or dummy's
  cards arriving before they are needed, ``Timing`` lines, ``Error`` lines (logged);
- a ``Start of board`` at any moment abandons the board in progress and starts the next one
  (some table managers send it while a client still expects the end of the last board);
- a line it cannot use is logged (:attr:`BlueChipClient.problems`) and skipped.
"""

from __future__ import annotations

import logging
import socket
import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

from ai.players import seat_view
from ai.protocols.bluechip import (
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
    escape,
    format_seat,
    parse_tm_line,
    quote,
)
from ddsolver.auction import Auction, Call
from ddsolver.cards import Card
from ddsolver.deal import Hand
from ddsolver.errors import BridgeError
from ddsolver.table import Seat, Vulnerability

__all__ = ["BlueChipClient", "ClientBoard", "run_client"]

log = logging.getLogger("ai.protocols.bluechip.client")


@dataclass
class ClientBoard:
    """One board as the client saw it."""

    number: int
    dealer: Seat
    vulnerability: Vulnerability
    hand: Optional[Hand] = None
    calls: List[Call] = field(default_factory=list)
    played: List[Tuple[Seat, Card]] = field(default_factory=list)
    dummy: Optional[Hand] = None
    finished: bool = False
    abandoned: bool = False


class BlueChipClient:
    """The client side of the protocol, without the network.

    :param player: the computer (any :class:`ai.players.Player`; it also gives
        explanations when it has ``explain(view, call)``).
    :param seat: the seat to ask for (a :class:`Seat`, ``"N"``, ``"North"``...), or
        ``None`` to connect as ``ANYPL`` and take the seat the table manager gives.
    :param team: the team name sent in the ``Connecting`` line (no ``"``).
    :param scoring: ``"IMP"`` or ``"MP"`` (the player's aim) unless the table manager's
        ``Teams`` line says ``Playing IMP|MP``.
    :param alerts: append ``Alert. <explanation>`` to the calls the player's system
        alerts (off by default: not every table manager reads it).
    :raises ValueError: for a team name that is empty, longer than 100 characters, has a
        ``"`` or a control character (:func:`ai.protocols.bluechip.check_team_name`), or a
        bad scoring.
    """

    def __init__(self, player, seat=None, team: str = "ddsolver", *, scoring: str = "IMP",
                 alerts: bool = False):
        check_team_name(team)
        if scoring not in ("IMP", "MP"):
            raise ValueError(f"scoring must be 'IMP' or 'MP', got {scoring!r}")
        self.player = player
        self.seat: Optional[Seat] = None if seat is None else Seat.coerce(seat)
        self.team = team
        self.scoring = scoring
        self.alerts = alerts
        self.stage = "connect"
        self.board: Optional[ClientBoard] = None
        #: every board played or abandoned, in order
        self.boards: List[ClientBoard] = []
        self.teams: Optional[Teams] = None
        #: lines that could not be used, with the reason (for the log)
        self.problems: List[str] = []
        #: ``Error`` lines received from the table manager
        self.errors: List[str] = []
        self.finished = False
        self._waiting: Optional[tuple] = None
        self._lead_prompt = False

    # -- the protocol -----------------------------------------------------------------------
    def start(self) -> List[str]:
        """The first line to send: ``Connecting "<team>" as <seat> ...``."""
        return [str(Connect(self.team, self.seat))]

    def receive(self, line: str) -> List[str]:
        """Take one line from the table manager; return the lines to send (in order)."""
        if self.finished:
            return []
        try:
            msg = parse_tm_line(line)
        except (BlueChipError, BridgeError) as exc:
            if line.strip():
                self._problem(f"unreadable line {quote(line.strip())}: {exc}")
            return []
        if isinstance(msg, ErrorMessage):
            self.errors.append(msg.text)
            log.warning("table manager error: %s", escape(msg.text))
            return []
        if isinstance(msg, EndOfSession):
            self._abandon()
            self.finished = True
            return []
        if isinstance(msg, Timing):
            return []
        if isinstance(msg, StartOfBoard):
            if self.stage in ("connect", "seated"):
                self._problem("'Start of board' before the teams")
                return []
            self._abandon()
            self.stage = "deal"
            return [str(Ready(self.seat, "deal"))]
        handler = getattr(self, "_on_" + self.stage)
        return handler(msg)

    # -- the handshake ----------------------------------------------------------------------
    def _on_connect(self, msg) -> List[str]:
        if not isinstance(msg, Seated):
            return self._unexpected(msg, "the 'seated' answer")
        if self.seat is not None and msg.seat != self.seat:
            self._problem(f"asked for {format_seat(self.seat)}, seated at "
                          f"{format_seat(msg.seat)}")
        self.seat = msg.seat
        self.stage = "seated"
        return [str(Ready(self.seat, "teams"))]

    def _on_seated(self, msg) -> List[str]:
        if not isinstance(msg, Teams):
            return self._unexpected(msg, "the 'Teams' line")
        self.teams = msg
        if msg.scoring:
            self.scoring = msg.scoring
        self.stage = "start"
        return [str(Ready(self.seat, "start"))]

    def _on_start(self, msg) -> List[str]:
        return self._unexpected(msg, "'Start of board'")

    def _on_deal(self, msg) -> List[str]:
        if not isinstance(msg, BoardInfo):
            return self._unexpected(msg, "the board number, dealer and vulnerability")
        self.board = ClientBoard(msg.number, msg.dealer, msg.vulnerability)
        self.stage = "cards"
        return [str(Ready(self.seat, "cards"))]

    def _on_cards(self, msg) -> List[str]:
        if not isinstance(msg, HandMessage) or msg.seat != self.seat:
            return self._unexpected(msg, f"{format_seat(self.seat)}'s cards")
        self.board.hand = msg.hand
        self.boards.append(self.board)
        self.stage = "board"
        self._waiting = None
        self._lead_prompt = False
        return self._advance()

    # -- the board ----------------------------------------------------------------------------
    def _view(self, played=None):
        b = self.board
        played = b.played if played is None else played
        return seat_view(self.seat, b.hand, dealer=b.dealer, vulnerability=b.vulnerability,
                         auction=b.calls, played=played,
                         dummy_hand=b.dummy if played else None, scoring=self.scoring)

    def _on_board(self, msg) -> List[str]:
        b = self.board
        waiting = self._waiting
        if isinstance(msg, ToLead):
            self._lead_prompt = True
            return self._advance() if waiting == ("lead",) else []
        if isinstance(msg, HandMessage) and msg.seat != self.seat:
            if b.dummy is None and b.played and self._dummy_seat() is not None:
                try:
                    b.dummy = msg.hand
                    self._view()
                except BridgeError as exc:
                    b.dummy = None
                    self._problem(f"dummy's cards do not fit the board: {exc}")
                    return []
                return self._advance() if waiting == ("dummy",) else []
            return self._unexpected(msg, "no hand now")
        if isinstance(msg, CallMessage) and waiting and waiting[0] == "call":
            if msg.seat != waiting[1]:
                return self._unexpected(msg, f"{format_seat(waiting[1])}'s call")
            if not Auction(b.dealer, b.calls).is_legal(msg.call):
                self._problem(f"{msg} is not a legal call here")
                return []
            b.calls.append(msg.call)
            return self._advance()
        if isinstance(msg, CardMessage) and waiting and waiting[0] == "card":
            seat = msg.seat if msg.seat is not None else self._dummy_seat()
            if seat != waiting[1]:
                return self._unexpected(msg, f"{format_seat(waiting[1])}'s card")
            played = b.played + [(seat, msg.card)]
            try:
                if b.played or b.dummy is not None or self.seat == self._dummy_seat():
                    self._view(played)
                elif msg.card in b.hand:  # the opening lead, before dummy is faced
                    raise BridgeError(f"{msg.card} is in {format_seat(self.seat)}'s hand")
            except BridgeError as exc:
                self._problem(f"{msg} does not fit the board: {exc}")
                return []
            b.played = played
            return self._advance()
        return self._unexpected(msg, self._waiting_text())

    def _dummy_seat(self) -> Optional[Seat]:
        auction = Auction(self.board.dealer, self.board.calls)
        return None if auction.declarer is None else auction.declarer.partner

    def _advance(self) -> List[str]:
        """Make every decision due from this seat, then ask for what comes next."""
        out: List[str] = []
        b = self.board
        me = self.seat
        while True:
            auction = Auction(b.dealer, b.calls)
            if not auction.is_finished:
                if auction.to_act == me:
                    view = self._view()
                    call = self.player.call(view)
                    if isinstance(call, str):
                        call = Call.from_str(call)
                    alert, text = False, None
                    if self.alerts and hasattr(self.player, "explain"):
                        exp = self.player.explain(view, call)
                        if getattr(exp, "alert", False):
                            alert, text = True, getattr(exp, "text", str(exp))
                    out.append(str(CallMessage(me, call, alert, text)))
                    b.calls.append(call)
                    continue
                self._waiting = ("call", auction.to_act)
                out.append(str(ReadyForCall(me, auction.to_act)))
                return out
            if auction.is_passed_out or len(b.played) == 52:
                return self._board_over(out)
            dummy = auction.declarer.partner
            if b.played and b.dummy is None and me != dummy:
                self._waiting = ("dummy",)
                out.append(str(Ready(me, "dummy")))
                return out
            view = self._view()
            to_play = view.to_play
            controller = auction.declarer if to_play == dummy else to_play
            if controller == me and me != dummy:
                if not view.current_trick and not self._lead_prompt:
                    self._waiting = ("lead",)
                    return out
                card = self.player.card(view)
                if isinstance(card, str):
                    card = Card.from_str(card)
                if card not in view.legal_cards:  # pragma: no cover - a player bug
                    raise RuntimeError(f"the player chose {card}, not a legal card")
                out.append(str(CardMessage(to_play, card)))
                b.played.append((to_play, card))
                self._lead_prompt = False
                continue
            trick = len(b.played) // 4 + 1
            self._waiting = ("card", to_play)
            out.append(str(ReadyForCard(me, None if to_play == dummy else to_play, trick)))
            return out

    def _board_over(self, out: List[str]) -> List[str]:
        self.board.finished = True
        self._waiting = ("end",)
        self.stage = "over"
        return out

    def _on_over(self, msg) -> List[str]:
        return self._unexpected(msg, "the end of the board")

    def _abandon(self) -> None:
        if self.board is not None and not self.board.finished and self.stage == "board":
            self.board.abandoned = True
        self._waiting = None

    def _waiting_text(self) -> str:
        w = self._waiting
        if w is None:
            return "nothing"
        if w[0] == "call":
            return f"{format_seat(w[1])}'s call"
        if w[0] == "card":
            return f"{format_seat(w[1])}'s card"
        return {"dummy": "dummy's cards", "lead": "the lead prompt",
                "end": "the end of the board"}.get(w[0], w[0])

    def _unexpected(self, msg, expected: str) -> List[str]:
        self._problem(f"unexpected {quote(str(msg))} while waiting for {expected}")
        return []

    def _problem(self, text: str) -> None:
        self.problems.append(text)
        log.warning("%s: %s", "client" if self.seat is None else format_seat(self.seat), text)


class LineSocket:
    """CR LF lines over a connected socket, with a cap on line length."""

    def __init__(self, sock: socket.socket, max_line: int = 4096):
        self.sock = sock
        self.max_line = max_line
        self._buffer = b""
        self._cut = False   # the line in the buffer is over-long: its start is kept
        self._kept = b""

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode("latin-1", "replace") + b"\r\n")

    def read_line(self) -> Optional[str]:
        """The next line without its end, or ``None`` when the peer closed.  A line
        longer than ``max_line`` bytes is cut to its first ``max_line`` (the rest is
        dropped, however the network splits it: never read as a line of its own).

        :raises socket.timeout: when nothing comes within the socket's timeout.
        """
        while True:
            i = self._buffer.find(b"\n")
            if i >= 0:
                raw, self._buffer = self._buffer[:i], self._buffer[i + 1:]
                if self._cut:   # the end of an over-long line whose start is kept
                    raw, self._cut = self._kept + raw, False
                return raw.rstrip(b"\r")[:self.max_line].decode("latin-1")
            if len(self._buffer) > self.max_line:
                if not self._cut:   # keep the over-long line's start, drop the rest
                    self._kept, self._cut = self._buffer[:self.max_line + 1], True
                self._buffer = b""
            data = self.sock.recv(65536)
            if not data:
                raw, self._buffer = self._buffer, b""
                if self._cut:
                    raw, self._cut = self._kept + raw, False
                if raw:
                    return raw.rstrip(b"\r")[:self.max_line].decode("latin-1")
                return None
            self._buffer += data

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:  # pragma: no cover
            pass


def run_client(host: str, port: int, client: BlueChipClient, *,
               timeout: Optional[float] = 600.0, connect_timeout: float = 10.0,
               transcript: Optional[list] = None,
               on_line: Optional[Callable[[str, str], None]] = None) -> BlueChipClient:
    """Connect ``client`` to the table manager at ``host``:``port`` and play until ``End of
    session``, the table manager closing the connection, or ``timeout`` seconds without a
    line.

    :param transcript: a list to which every line is appended as ``(time, "out"|"in",
        line)``.
    :param on_line: called with ``("out"|"in", line)`` for each line (the line as sent or
        received: :func:`ai.protocols.bluechip.escape` it to show it).  Every line is also
        logged at DEBUG level (logger ``ai.protocols.bluechip.client``: the seat, ``>>`` or
        ``<<``, the line escaped), which is what ``bluechip client -v`` shows.
    :returns: ``client`` (its :attr:`~BlueChipClient.boards`, :attr:`~BlueChipClient.problems`
        and :attr:`~BlueChipClient.finished` tell how it went).
    :raises OSError: when the connection cannot be made.
    """
    sock = socket.create_connection((host, port), timeout=connect_timeout)
    sock.settimeout(timeout)
    lines = LineSocket(sock)

    def note(direction: str, line: str) -> None:
        log.debug("%s %s %s", "client" if client.seat is None else format_seat(client.seat),
                  ">>" if direction == "out" else "<<",
                  escape(line))   # the table manager's control characters stay out
        if transcript is not None:
            transcript.append((time.time(), direction, line))
        if on_line is not None:
            on_line(direction, line)

    try:
        for line in client.start():
            note("out", line)
            lines.send(line)
        while not client.finished:
            try:
                line = lines.read_line()
            except socket.timeout:
                client._problem(f"no line from the table manager for {timeout:g} s")
                break
            if line is None:
                break
            note("in", line)
            for answer in client.receive(line):
                note("out", answer)
                lines.send(answer)
    except OSError as exc:
        client._problem(f"connection lost: {exc}")
    finally:
        lines.close()
    return client
