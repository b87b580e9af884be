"""The Blue Chip table-manager protocol, version 18: its messages, read tolerantly and
written exactly.

The protocol by which computer-bridge championships seat robots: four player programs
(clients) connect over TCP to one table manager (the server), which deals, relays the calls
and cards and scores.  One ASCII line per message, ending CR LF.  The grammar was published
by Blue Chip Bridge ("protocol.htm", 2005); the summary this module follows, with the
variants real programs send, is ``docs/design/bluechip.md``, and
``docs/protocol-bluechip.md`` has every message with an example session.

Reading is tolerant: any case, any spacing, an optional full stop at the end, seats as
``North`` or ``N``, cards as ``3C`` or ``C3`` (``10C`` too), calls as ``passes``/``pass``,
``bids 1NT``/``bids 1N``, followed or not by ``Alert.``/``Infos.`` and an explanation,
``Dummy's cards`` or ``dummy's cards:``.  Writing is exact: the forms of the published
protocol (``North bids 1NT``, ``Dummy's cards : S A K 4. H -. D Q J 3. C T 9 8.``).

:func:`parse_client_line` reads a line a client sends, :func:`parse_tm_line` a line the
table manager sends; both return one of the message classes below and raise
:class:`BlueChipError` (naming the problem) for a line that is none of them.  Each message
class writes its exact line with ``str()``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Optional, Union

from ddsolver.auction import Call
from ddsolver.cards import PBN_SUIT_ORDER, Card, Rank, Strain, Suit
from ddsolver.deal import Hand
from ddsolver.table import Seat, Vulnerability

__all__ = [
    "PROTOCOL_VERSION", "BlueChipError",
    "Connect", "Ready", "ReadyForCall", "ReadyForCard", "CallMessage", "CardMessage",
    "Seated", "Teams", "StartOfBoard", "BoardInfo", "HandMessage", "ToLead", "Timing",
    "EndOfSession", "ErrorMessage",
    "check_team_name", "clean", "escape", "format_card", "format_hand", "format_seat",
    "format_vulnerability", "parse_card", "parse_client_line", "parse_hand", "parse_seat",
    "parse_tm_line", "quote",
]

#: The protocol version written in the ``Connecting`` line.
PROTOCOL_VERSION = 18

_SEAT_NAMES = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South",
               Seat.WEST: "West"}
_SEAT_PARSE = {"north": Seat.NORTH, "east": Seat.EAST, "south": Seat.SOUTH,
               "west": Seat.WEST, "n": Seat.NORTH, "e": Seat.EAST, "s": Seat.SOUTH,
               "w": Seat.WEST}
_VUL_TEXT = {Vulnerability.NONE: "Neither", Vulnerability.NS: "N/S",
             Vulnerability.EW: "E/W", Vulnerability.BOTH: "Both"}
_VUL_PARSE = {"neither": Vulnerability.NONE, "none": Vulnerability.NONE,
              "nobody": Vulnerability.NONE, "love": Vulnerability.NONE,
              "n/s": Vulnerability.NS, "ns": Vulnerability.NS, "n-s": Vulnerability.NS,
              "north-south": Vulnerability.NS,
              "e/w": Vulnerability.EW, "ew": Vulnerability.EW, "e-w": Vulnerability.EW,
              "east-west": Vulnerability.EW,
              "both": Vulnerability.BOTH, "all": Vulnerability.BOTH}
_RANK_CHARS = "23456789TJQKA"


class BlueChipError(ValueError):
    """A line that is no message of the protocol (or no message this side may receive).
    The message names the line."""


# -- writing ------------------------------------------------------------------------------------
def format_seat(seat: Seat) -> str:
    """``"North"``, ``"East"``, ``"South"``, ``"West"``."""
    return _SEAT_NAMES[Seat(seat)]


def format_card(card: Card) -> str:
    """A card as the protocol writes it: rank then suit (``"3C"``, ``"TS"``, ``"AH"``)."""
    return card.rank.letter + card.suit.letter


def format_hand(hand: Hand) -> str:
    """``"S A K 4. H -. D Q J 3. C T 9 8."``: spades first, high to low, ``-`` for a void."""
    parts = []
    for suit in PBN_SUIT_ORDER:
        ranks = sorted((c.rank for c in hand if c.suit == suit), reverse=True)
        text = " ".join(Rank(r).letter for r in ranks) if ranks else "-"
        parts.append(f"{suit.letter} {text}.")
    return " ".join(parts)


def format_vulnerability(vulnerability: Vulnerability) -> str:
    """``"Neither"``, ``"N/S"``, ``"E/W"`` or ``"Both"``."""
    return _VUL_TEXT[Vulnerability(vulnerability)]


def format_call_action(call: Call) -> str:
    """``"passes"``, ``"doubles"``, ``"redoubles"`` or ``"bids 1NT"``."""
    if call.is_pass:
        return "passes"
    if call.is_double:
        return "doubles"
    if call.is_redouble:
        return "redoubles"
    return f"bids {call.level}{call.strain.letter}"


# -- reading --------------------------------------------------------------------------------
def _norm(line: str) -> str:
    """Whitespace collapsed, ends stripped (case kept)."""
    if not isinstance(line, str):
        raise BlueChipError(f"a line is text, got {type(line).__name__}")
    return " ".join(line.replace("\u2019", "'").replace("`", "'").split())


def escape(text: str) -> str:
    """``text`` with every character that is not printable written as in a Python string
    literal (``\\x1b``, ``\\x00``, ``\\u202e``) and backslashes doubled: safe to show on a
    terminal or to write as one line of a log, whoever sent it."""
    return "".join(ch if ch.isprintable() and ch != "\\" else repr(ch)[1:-1]
                   for ch in text)


def quote(text: str, limit: int = 80) -> str:
    """``text`` as Python writes it (``repr``: quoted, control characters escaped), cut to
    at most ``limit`` characters in all, ``...`` after the closing quote when cut: how an
    error names what a peer sent."""
    shown = repr(text)
    if len(shown) <= limit:
        return shown
    n = min(len(text), limit)
    while n and len(repr(text[:n])) > limit - 3:
        n -= 1
    return repr(text[:n]) + "..."


#: The longest team name (the table manager's rule; it is written into several lines).
MAX_TEAM_NAME = 100


def _is_control(ch: str) -> bool:
    """A control character: C0 and C1 controls, DEL, format characters such as the
    direction overrides, line and paragraph separators."""
    return unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")


def check_team_name(team) -> str:
    """``team`` if it can be a team name: 1 to 100 characters, not only spaces, without a
    ``"`` (the protocol writes it between quotes) or a control character (it is written
    back to every client, into the PBN file and the log), all in Latin-1 (the lines are
    sent in it).

    :raises ValueError: naming the problem (the character escaped, and its position).
    """
    if not isinstance(team, str):
        raise ValueError(f"a team name is text, got {type(team).__name__}")
    if not team.strip():
        raise ValueError("a team name cannot be empty")
    if len(team) > MAX_TEAM_NAME:
        raise ValueError(f"a team name is at most {MAX_TEAM_NAME} characters, got "
                         f"{len(team)}")
    if '"' in team:
        raise ValueError("a team name cannot contain '\"'")
    for i, ch in enumerate(team, 1):
        if _is_control(ch):
            raise ValueError(f"a team name cannot contain a control character "
                             f"({quote(ch)} at position {i})")
        if ord(ch) > 0xFF:   # the lines go out in Latin-1: it would be sent as "?"
            raise ValueError(f"a team name with {ch!r} (position {i}) cannot be sent: the "
                             f"protocol's lines are ASCII (Latin-1 at most)")
    return team


def parse_seat(text: str, *, dummy: bool = False) -> Optional[Seat]:
    """A seat from ``North``/``N`` (any case); with ``dummy=True``, ``"dummy"`` gives
    ``None``.

    :raises BlueChipError: for anything else.
    """
    key = text.strip().lower()
    if dummy and key == "dummy":
        return None
    seat = _SEAT_PARSE.get(key)
    if seat is None:
        raise BlueChipError(f"{quote(text)} is not a seat (North, East, South, West)")
    return seat


_CARD_RE = re.compile(r"^(?:(10|[2-9tjqka])([cdhs])|([cdhs])(10|[2-9tjqka]))\.?$", re.I)


def parse_card(text: str) -> Card:
    """A card from ``"3C"``, ``"tc"``, ``"10C"`` or suit first ``"C3"``.

    :raises BlueChipError: for anything else.
    """
    m = _CARD_RE.match(text.strip())
    if m is None:
        raise BlueChipError(f"{quote(text)} is not a card (rank then suit: 3C, TS, AH)")
    rank = m.group(1) or m.group(4)
    suit = m.group(2) or m.group(3)
    return Card(Suit.from_str(suit), Rank.from_str(rank))


def parse_hand(text: str) -> Hand:
    """A 13-card hand from ``"S A K 4. H -. D Q J 3. C T 9 8."`` and its variants (any
    case and spacing, dots or not, ``10`` for the ten, ranks run together ``SAK4``).

    :raises BlueChipError: for an unreadable hand, a card given twice, a rank before any
        suit, or a hand that is not 13 cards.
    """
    body = text.replace(".", " ").replace("10", "T").upper()
    suit = None
    seen = set()
    cards = []
    for ch in body:
        if ch.isspace() or ch == "-":
            continue
        if ch in "SHDC":
            suit = Suit.from_str(ch)
            if suit in seen:
                raise BlueChipError(f"hand {quote(text)} names {ch} twice")
            seen.add(suit)
        elif ch in _RANK_CHARS:
            if suit is None:
                raise BlueChipError(f"hand {quote(text)}: a rank before any suit")
            card = Card(suit, Rank.from_str(ch))
            if card in cards:
                raise BlueChipError(f"hand {quote(text)} holds {format_card(card)} twice")
            cards.append(card)
        else:
            raise BlueChipError(f"hand {quote(text)}: {ch!r} is no suit or rank")
    if len(cards) != 13:
        raise BlueChipError(f"hand {quote(text)} has {len(cards)} cards, not 13")
    return Hand(cards)


# -- the messages a client sends ------------------------------------------------------------------
@dataclass(frozen=True)
class Connect:
    """``Connecting "<team>" as <seat> using protocol version 18``; ``seat`` ``None`` for
    ``ANYPL`` (seat me anywhere).  ``team`` is read as sent, whitespace and control
    characters included (a table manager refuses those: :func:`check_team_name`)."""

    team: str
    seat: Optional[Seat]
    version: int = PROTOCOL_VERSION

    def __str__(self) -> str:
        where = "ANYPL" if self.seat is None else format_seat(self.seat)
        return f'Connecting "{self.team}" as {where} using protocol version {self.version}'


@dataclass(frozen=True)
class Ready:
    """``<seat> ready for teams`` / ``ready to start`` / ``ready for deal`` / ``ready for
    cards`` / ``ready for dummy``; ``what`` is ``"teams"``, ``"start"``, ``"deal"``,
    ``"cards"`` or ``"dummy"``."""

    seat: Seat
    what: str

    def __str__(self) -> str:
        tail = "to start" if self.what == "start" else f"for {self.what}"
        return f"{format_seat(self.seat)} ready {tail}"


@dataclass(frozen=True)
class ReadyForCall:
    """``<seat> ready for <other>'s bid``."""

    seat: Seat
    other: Seat

    def __str__(self) -> str:
        return f"{format_seat(self.seat)} ready for {format_seat(self.other)}'s bid"


@dataclass(frozen=True)
class ReadyForCard:
    """``<seat> ready for <other>'s card to trick <k>``; ``other`` ``None`` for dummy
    (written ``dummy's card``), ``trick`` ``None`` when the line names none."""

    seat: Seat
    other: Optional[Seat]
    trick: Optional[int]

    def __str__(self) -> str:
        who = "dummy" if self.other is None else format_seat(self.other)
        tail = "" if self.trick is None else f" to trick {self.trick}"
        return f"{format_seat(self.seat)} ready for {who}'s card{tail}"


@dataclass(frozen=True)
class CallMessage:
    """``<seat> passes|doubles|redoubles|bids <bid>`` with an optional ``Alert.`` (or
    ``Infos.``) and explanation; sent by the caller and relayed by the table manager."""

    seat: Seat
    call: Call
    alert: bool = False
    explanation: Optional[str] = None

    def __str__(self) -> str:
        text = f"{format_seat(self.seat)} {format_call_action(self.call)}"
        if self.alert:
            text += " Alert."
            if self.explanation:
                text += " " + _one_line(self.explanation)
        elif self.explanation:
            text += " Infos. " + _one_line(self.explanation)
        return text


@dataclass(frozen=True)
class CardMessage:
    """``<seat> plays <card>``; ``seat`` ``None`` when the line says ``Dummy plays``."""

    seat: Optional[Seat]
    card: Card

    def __str__(self) -> str:
        who = "Dummy" if self.seat is None else format_seat(self.seat)
        return f"{who} plays {format_card(self.card)}"


# -- the messages the table manager sends ---------------------------------------------------------
@dataclass(frozen=True)
class Seated:
    """``<seat> ("<team>") seated``."""

    seat: Seat
    team: str

    def __str__(self) -> str:
        return f'{format_seat(self.seat)} ("{self.team}") seated'


@dataclass(frozen=True)
class Teams:
    """``Teams : N/S : "<ns>" E/W : "<ew>"``, with ``. Playing IMP`` (or ``MP``) when
    ``scoring`` is set."""

    ns: str
    ew: str
    scoring: Optional[str] = None

    def __str__(self) -> str:
        text = f'Teams : N/S : "{self.ns}" E/W : "{self.ew}"'
        if self.scoring:
            text += f". Playing {self.scoring}"
        return text


@dataclass(frozen=True)
class StartOfBoard:
    """``Start of board``."""

    def __str__(self) -> str:
        return "Start of board"


@dataclass(frozen=True)
class BoardInfo:
    """``Board number <n>. Dealer <seat>. <Neither|N/S|E/W|Both> vulnerable.``"""

    number: int
    dealer: Seat
    vulnerability: Vulnerability

    def __str__(self) -> str:
        return (f"Board number {self.number}. Dealer {format_seat(self.dealer)}. "
                f"{format_vulnerability(self.vulnerability)} vulnerable.")


@dataclass(frozen=True)
class HandMessage:
    """``<seat>'s cards : <hand>``, or ``Dummy's cards : <hand>`` (``seat`` ``None``)."""

    seat: Optional[Seat]
    hand: Hand

    def __str__(self) -> str:
        who = "Dummy" if self.seat is None else format_seat(self.seat)
        return f"{who}'s cards : {format_hand(self.hand)}"


@dataclass(frozen=True)
class ToLead:
    """``<seat> to lead``, or ``Dummy to lead`` (``seat`` ``None``, sent to declarer)."""

    seat: Optional[Seat]

    def __str__(self) -> str:
        return f"{'Dummy' if self.seat is None else format_seat(self.seat)} to lead"


@dataclass(frozen=True)
class Timing:
    """``Timing - N/S : this board [m:ss], total [h:mm:ss]. E/W : ...``: the time each
    side has used (``text`` is the line, kept whole when read)."""

    text: str

    @classmethod
    def of(cls, ns_board: float, ns_total: float, ew_board: float, ew_total: float):
        return cls(f"Timing - N/S : this board [{_mmss(ns_board)}], total "
                   f"[{_hmmss(ns_total)}]. E/W : this board [{_mmss(ew_board)}], total "
                   f"[{_hmmss(ew_total)}].")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class EndOfSession:
    """``End of session``."""

    def __str__(self) -> str:
        return "End of session"


@dataclass(frozen=True)
class ErrorMessage:
    """``Error <text>``: the table manager refuses the line a client sent."""

    text: str

    def __str__(self) -> str:
        return "Error " + _one_line(self.text)


ClientMessage = Union[Connect, Ready, ReadyForCall, ReadyForCard, CallMessage, CardMessage]
TMMessage = Union[Seated, Teams, StartOfBoard, BoardInfo, HandMessage, CallMessage, ToLead,
                  CardMessage, Timing, EndOfSession, ErrorMessage]


def clean(text: str) -> str:
    """``text`` as one line to pass on: whitespace collapsed, each control character
    (:func:`check_team_name` names them) replaced by ``?``."""
    return "".join("?" if _is_control(ch) else ch for ch in " ".join(str(text).split()))


#: suit symbols (solid and outlined) as the letters a line in Latin-1 can carry
_SUIT_LETTERS = str.maketrans("♠♥♦♣♤♡♢♧", "SHDCSHDC")


def _one_line(text: str) -> str:
    """An explanation or an error as one line to send: :func:`clean`, suit symbols as
    letters (the lines go out in Latin-1: ``♥`` would be ``?``), at most 500 characters."""
    return clean(str(text).translate(_SUIT_LETTERS))[:500]


def _mmss(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 60:02d}:{s % 60:02d}"


def _hmmss(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{(s // 60) % 60:02d}:{s % 60:02d}"


# -- the grammar ---------------------------------------------------------------------------------
_SEAT = r"(north|east|south|west|n|e|s|w)"
_WHO = r"(north|east|south|west|n|e|s|w|dummy)"
_I = re.I
_CONNECT_RE = re.compile(r'^connecting\s+(?:"([^"]*)"|(\S+))\s+as\s+(\w+)\s+using\s+'
                         r'protocol\s+version\s+(\d{1,6})\s*\.?$', _I)
#: the quoted team name of a ``Connecting`` line as sent (``\s``: any whitespace, as the
#: folding of :func:`_norm`)
_CONNECT_TEAM_RE = re.compile(r'^\s*connecting\s+"([^"]*)"', _I)
_READY_RE = re.compile(r"^" + _SEAT + r"\s+ready\s+(for\s+teams|to\s+start|for\s+deal|"
                       r"for\s+cards|for\s+dummy)\s*\.?$", _I)
_READY_OTHER_RE = re.compile(r"^" + _SEAT + r"\s+ready\s+for\s+" + _WHO +
                             r"(?:'s|s'|'|s)?\s+(bid|card)(?:\s+to\s+trick\s+(\d{1,3}))?"
                             r"\s*\.?$", _I)
_CALL_RE = re.compile(r"^" + _SEAT + r"\s+(passes|pass|doubles|double|redoubles|redouble|"
                      r"bids\s+([1-7])\s*(nt|n|c|d|h|s))\s*\.?(?:\s+(.*))?$", _I)
_PLAYS_RE = re.compile(r"^" + _WHO + r"\s+plays\s+(\S+)\s*$", _I)
_SEATED_RE = re.compile(r'^' + _SEAT + r'\s*\(\s*"([^"]*)"\s*\)\s*seated\s*\.?$', _I)
_TEAMS_RE = re.compile(r'^teams\s*:?\s*n\s*/?\s*s\s*:?\s*"([^"]*)"\s*[,.]?\s*e\s*/?\s*w\s*'
                       r':?\s*"([^"]*)"(.*)$', _I)
_START_RE = re.compile(r"^start\s+of\s+board\s*\.?$", _I)
_BOARD_RE = re.compile(r"^board\s+number\s+(\d{1,6})\s*\.?\s*dealer\s+" + _SEAT +
                       r"\s*\.?\s*(.+?)\s+vulnerable\s*\.?$", _I)
_CARDS_RE = re.compile(r"^" + _WHO + r"(?:'s|s'|'|s)?\s+cards\s*:\s*(.*)$", _I)
_LEAD_RE = re.compile(r"^" + _WHO + r"\s+to\s+lead\s*\.?$", _I)
_TIMING_RE = re.compile(r"^timing\b", _I)
_END_RE = re.compile(r"^end\s+of\s+session\s*\.?$", _I)
_ERROR_RE = re.compile(r"^error\b\s*:?\s*(.*)$", _I)
_ANNOTATION_RE = re.compile(r"^(alert|infos)\b\s*\.?\s*(.*)$", _I | re.S)


def _call_from(m) -> CallMessage:
    seat = parse_seat(m.group(1))
    action = m.group(2).lower()
    if action.startswith("pass"):
        call = Call.from_str("Pass")
    elif action.startswith("redouble"):
        call = Call.from_str("XX")
    elif action.startswith("double"):
        call = Call.from_str("X")
    else:
        strain = m.group(4).upper()
        call = Call.bid(int(m.group(3)), Strain.from_str("NT" if strain == "N" else strain))
    rest = (m.group(5) or "").strip()
    alert, explanation = False, None
    if rest and rest != ".":
        a = _ANNOTATION_RE.match(rest)
        if a is None:
            raise BlueChipError(f"unexpected text after the call: {quote(rest)} (only "
                                f"'Alert.' or 'Infos.' and an explanation may follow)")
        alert = a.group(1).lower() == "alert"
        explanation = a.group(2).strip() or None
    return CallMessage(seat, call, alert, explanation)


def _card_from(m) -> CardMessage:
    return CardMessage(parse_seat(m.group(1), dummy=True), parse_card(m.group(2)))


def parse_client_line(line: str) -> ClientMessage:
    """The message a client sent (what a table manager reads).

    :raises BlueChipError: for a line that is no client message.
    """
    text = _norm(line)
    m = _CONNECT_RE.match(text)
    if m:
        team = m.group(1) if m.group(1) is not None else m.group(2)
        raw = _CONNECT_TEAM_RE.match(line) if m.group(1) is not None else None
        if raw is not None:
            # the name as sent: the folding of whitespace above would make a tab, a NEL,
            # a line separator in it a space, and check_team_name could not refuse them
            team = raw.group(1)
        where = m.group(3)
        seat = None if where.lower() == "anypl" else parse_seat(where)
        return Connect(team, seat, int(m.group(4)))
    m = _READY_RE.match(text)
    if m:
        what = m.group(2).lower().split()[-1]
        return Ready(parse_seat(m.group(1)), what)
    m = _READY_OTHER_RE.match(text)
    if m:
        seat = parse_seat(m.group(1))
        other = parse_seat(m.group(2), dummy=True)
        if m.group(3).lower() == "bid":
            if other is None:
                raise BlueChipError(f"{quote(line)}: dummy makes no call")
            return ReadyForCall(seat, other)
        trick = m.group(4)
        trick = None if trick is None else int(trick)
        if trick is not None and not 1 <= trick <= 13:
            raise BlueChipError(f"{quote(line)}: trick {trick} is not 1..13")
        return ReadyForCard(seat, other, trick)
    m = _CALL_RE.match(text)
    if m:
        return _call_from(m)
    m = _PLAYS_RE.match(text)
    if m:
        return _card_from(m)
    raise BlueChipError(f"{quote(line)} is no message of the protocol")


def parse_tm_line(line: str) -> TMMessage:
    """The message a table manager sent (what a client reads).

    :raises BlueChipError: for a line that is no table-manager message.
    """
    text = _norm(line)
    m = _START_RE.match(text)
    if m:
        return StartOfBoard()
    m = _CALL_RE.match(text)
    if m:
        return _call_from(m)
    m = _PLAYS_RE.match(text)
    if m:
        return _card_from(m)
    m = _CARDS_RE.match(text)
    if m:
        return HandMessage(parse_seat(m.group(1), dummy=True), parse_hand(m.group(2)))
    m = _LEAD_RE.match(text)
    if m:
        return ToLead(parse_seat(m.group(1), dummy=True))
    m = _BOARD_RE.match(text)
    if m:
        vul = _VUL_PARSE.get(m.group(3).strip().lower())
        if vul is None:
            raise BlueChipError(f"{quote(line)}: {quote(m.group(3))} is no vulnerability "
                                f"(Neither, N/S, E/W, Both)")
        return BoardInfo(int(m.group(1)), parse_seat(m.group(2)), vul)
    m = _SEATED_RE.match(text)
    if m:
        return Seated(parse_seat(m.group(1)), m.group(2))
    m = _TEAMS_RE.match(text)
    if m:
        tail = m.group(3).lower()
        scoring = None
        p = re.search(r"playing\s+(imps?|mps?|matchpoints?|bam)", tail)
        if p:
            word = p.group(1)
            scoring = "IMP" if word.startswith("imp") else "MP"
        return Teams(m.group(1), m.group(2), scoring)
    if _TIMING_RE.match(text):
        return Timing(text)
    if _END_RE.match(text):
        return EndOfSession()
    m = _ERROR_RE.match(text)
    if m:
        return ErrorMessage(m.group(1))
    raise BlueChipError(f"{quote(line)} is no message of the protocol")
