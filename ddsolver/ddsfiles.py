"""Readers for the test-input files of DDS, the double-dummy solver of Bo Haglund and Soren Hein.

DDS (https://github.com/dds-bridge/dds, Apache License 2.0) ships its test hands in two text
formats.  Both are read here so that their known answers can check and time any solver.

**The list format** (``list100.txt``, ``list1000.txt``, ``largest.txt`` ...; read by DDS's
``test/parse.cpp``).  Line 1 is ``NUMBER n``; then each hand takes seven lines::

    PBN <dealer> <vul> <trump> <first> "<deal>"
    FUT <k> <suit x k> <rank x k> <equals x k> <score x k>
    TABLE <20 ints>
    PAR "<NS score>" "<EW score>" "<NS contracts>" "<EW contracts>"
    PAR2 "<score>" "<contract>" ["<contract>" ...]
    PLAY <n> "<cards>"
    TRACE <m> <t0> ... <t(m-1)>

DDS codes: seat 0=N 1=E 2=S 3=W; strain 0=S 1=H 2=D 3=C 4=NT; rank 2..14;
vulnerability 0=None 1=Both 2=NS 3=EW.  Meaning of each line (each checked against DDS 2.9.0
itself, see ``benchmarks/NOTES.md``):

* ``PBN``: ``dealer`` and ``vul`` feed only PAR/PAR2; ``trump`` and ``first`` (the seat that
  leads to trick 1) feed FUT, PLAY and TRACE.
* ``FUT``: DDS ``SolveBoard(target=-1, solutions=3, mode=1)`` at trick 1: ``k`` groups of
  equivalent cards of ``first``, each a card, an ``equals`` bit mask (bit r = a lower card of
  rank r in the same suit that is worth the same) and a score = tricks out of 13 for the side
  of ``first``.
* ``TABLE``: ``resTable[strain][seat]`` listed strain-major in DDS strain order S, H, D, C, NT,
  seats N, E, S, W; each entry is the tricks of **declarer** ``seat`` (opening lead by the LHO).
* ``PAR``: DDS ``Par()`` ("sides" text): the scores from each side's view and, for each side,
  the par contract(s) when that side bids first.
* ``PAR2``: DDS ``DealerPar(table, dealer, vul)``: one score from North-South's point of view
  and contract strings such as ``4S*-EW-1`` (``*`` doubled, ``N`` notrump).
* ``PLAY``: the cards actually played, as one string of two-character cards.
* ``TRACE``: DDS ``AnalysePlayPBN``: the double-dummy number of tricks of declarer (the RHO of
  ``first``) out of 13 before any card and after each played card; DDS stops after card 48,
  so ``m = min(n, 48) + 1``.

**The GIB format** (``sol10.txt``): one deal per line, 88 characters.  Characters 0..66 are
the hands West, North, East, South (PBN hands separated by spaces), character 67 is ``:`` and
characters 68..87 are 20 hex digits in 5 groups (strains NT, S, H, D, C), each group giving
declarers E, N, W, S, each digit being the tricks of **North-South**.
"""

from __future__ import annotations

import io
import os
import re
import shlex
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Union

import numpy as np

from .cards import STRAINS_HIGH_FIRST, Card, Rank, Strain, Suit
from .deal import Deal
from .errors import BridgeError, brief_repr
from .table import Seat, Side, Vulnerability

__all__ = [
    "DDS_STRAINS",
    "DDSFileError",
    "DDSRecord",
    "DealerPar",
    "FutureTrickGroup",
    "SidesPar",
    "dds_strain",
    "dds_vulnerability",
    "iter_dds_records",
    "parse_dds_text",
    "parse_gib_line",
    "read_dds_file",
    "read_gib_tables",
]


class DDSFileError(BridgeError):
    """A DDS test file is malformed.  The message names the file, the line and the problem."""


#: DDS strain codes 0..4 as :class:`Strain` (DDS counts spades first, notrump last).
DDS_STRAINS = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS, Strain.NOTRUMP)

# DDS vulnerability codes: 0 = none, 1 = both, 2 = NS, 3 = EW.
_DDS_VULNERABILITY = (Vulnerability.NONE, Vulnerability.BOTH, Vulnerability.NS, Vulnerability.EW)

Source = Union[str, "os.PathLike[str]", IO[str]]


def dds_strain(code: int) -> Strain:
    """The strain of a DDS strain (or suit) code: 0=S 1=H 2=D 3=C 4=NT.

    :raises DDSFileError: for a code outside 0..4.
    """
    if not 0 <= code <= 4:
        raise DDSFileError(f"invalid DDS strain code {brief_repr(code)} (expected 0..4)")
    return DDS_STRAINS[code]


def dds_vulnerability(code: int) -> Vulnerability:
    """The vulnerability of a DDS code: 0=None 1=Both 2=NS 3=EW.

    :raises DDSFileError: for a code outside 0..3.
    """
    if not 0 <= code <= 3:
        raise DDSFileError(f"invalid DDS vulnerability code {brief_repr(code)} (expected 0..3)")
    return _DDS_VULNERABILITY[code]


@dataclass(frozen=True)
class FutureTrickGroup:
    """One card group of a DDS ``futureTricks`` answer (one ``FUT`` entry).

    ``card`` is the card listed by DDS, ``equals`` the lower cards of the same suit that DDS
    reports as worth the same (high to low), and ``score`` the tricks (out of 13 at trick 1)
    that the side of the player on lead takes when it leads any of these cards.
    """

    card: Card
    equals: tuple
    score: int

    @property
    def cards(self) -> tuple:
        """``card`` followed by its equals, high to low."""
        return (self.card,) + self.equals


@dataclass(frozen=True)
class DealerPar:
    """A DDS ``DealerPar`` answer (the ``PAR2`` line).

    ``score`` is in points from North-South's point of view (negative when East-West own
    the par contract).  ``contracts`` are DDS text such as ``"4S*-EW-1"``, ``"3N-NS"`` or
    ``"4S-E+1"``: level, strain (``N`` = notrump), ``*`` when doubled, the declaring side or
    seat, then over- or undertricks.  An empty tuple means the deal is passed out.
    """

    score: int
    contracts: tuple


@dataclass(frozen=True)
class SidesPar:
    """A DDS ``Par`` answer in its "sides" text form (the ``PAR`` line).

    ``ns_score`` is the par score for North-South and ``ew_score`` the same for East-West
    (``ew_score == -ns_score`` whenever both sides get the same par).  ``ns_contracts`` are
    the par contracts when North-South bid first, ``ew_contracts`` when East-West do, each as
    DDS writes them, e.g. ``("EW 2Nx", "EW 3Cx")``; ``"EW 345N"`` means 3N, 4N or 5N by EW
    all score the par, a lone seat letter (``"N 4S"``) means only that seat makes it.
    """

    ns_score: int
    ew_score: int
    ns_contracts: tuple
    ew_contracts: tuple


@dataclass(frozen=True, eq=False)
class DDSRecord:
    """One hand of a DDS list-format test file, with every known answer.

    :ivar number: 0-based index of the hand in its file.
    :ivar line: 1-based line number of the hand's ``PBN`` line.
    :ivar deal: the full deal.
    :ivar dealer: the dealer (used by DDS only for :attr:`par`).
    :ivar vulnerability: the vulnerability (used only for :attr:`par` and :attr:`sides_par`).
    :ivar trump: the strain of the play (``FUT``, ``PLAY`` and ``TRACE``).
    :ivar leader: the seat that leads to trick 1 (DDS ``first``).
    :ivar future_tricks: the ``FUT`` groups, in DDS's order (best score first).
    :ivar table: read-only ``(5, 4)`` ``uint8`` array; ``table[strain, seat]`` = tricks that
        declarer ``seat``'s side takes in ``strain`` with the opening lead by declarer's LHO.
        Rows C, D, H, S, NT (``Strain`` order); columns N, E, S, W (``Seat`` order).
    :ivar sides_par: the ``PAR`` line.
    :ivar par: the ``PAR2`` line (score from North-South's view, contracts).
    :ivar play: the cards actually played, from the opening lead on.
    :ivar trace: the ``TRACE`` values: declarer's double-dummy total tricks out of 13 before
        any card and after each of the first ``len(trace) - 1`` cards of :attr:`play`;
        declarer is the RHO of :attr:`leader`.
    """

    number: int
    line: int
    deal: Deal
    dealer: Seat
    vulnerability: Vulnerability
    trump: Strain
    leader: Seat
    future_tricks: tuple
    table: np.ndarray
    sides_par: SidesPar
    par: DealerPar
    play: tuple
    trace: tuple

    @property
    def declarer(self) -> Seat:
        """The declarer implied by :attr:`leader`: its right-hand opponent."""
        return self.leader.rho

    def lead_scores(self) -> dict:
        """``{Card: tricks}`` for every card of :attr:`leader` at trick 1, the ``FUT`` groups
        expanded with their equals; tricks are out of 13 for the leader's side."""
        return {c: g.score for g in self.future_tricks for c in g.cards}

    def __repr__(self) -> str:
        return (f"DDSRecord(number={self.number}, deal={self.deal.to_pbn()!r}, "
                f"trump={self.trump.letter}, leader={self.leader.letter})")


# --------------------------------------------------------------------------------------
# parsing helpers

_KEYWORDS = ("PBN", "FUT", "TABLE", "PAR", "PAR2", "PLAY", "TRACE")


class _Ctx:
    """Where we are in the input, for error messages."""

    __slots__ = ("lineno", "name")

    def __init__(self, name: str):
        self.name = name
        self.lineno = 0

    def error(self, msg: str) -> DDSFileError:
        return DDSFileError(f"{self.name}, line {self.lineno}: {msg}")


def _ints(ctx: _Ctx, tokens: Sequence[str], what: str) -> list:
    try:
        return [int(t) for t in tokens]
    except ValueError:
        bad = next(t for t in tokens if not re.fullmatch(r"[+-]?\d+", t))
        raise ctx.error(f"{what}: {brief_repr(bad)} is not an integer") from None


def _split_quoted(ctx: _Ctx, rest: str, what: str) -> list:
    try:
        return shlex.split(rest, posix=True)
    except ValueError as exc:
        raise ctx.error(f"{what}: {exc}") from None


def _dds_rank(ctx: _Ctx, value: int, what: str) -> Rank:
    if not 2 <= value <= 14:
        raise ctx.error(f"{what}: invalid rank {value} (expected 2..14)")
    return Rank(value)


def _parse_pbn(ctx: _Ctx, rest: str) -> tuple:
    parts = _split_quoted(ctx, rest, "PBN")
    if len(parts) != 5:
        raise ctx.error(f"PBN line needs 4 numbers and a quoted deal, "
                        f"got {brief_repr(rest.strip())}")
    dealer, vul, trump, first = _ints(ctx, parts[:4], "PBN")
    if not 0 <= dealer <= 3:
        raise ctx.error(f"invalid dealer {dealer} (expected 0..3)")
    if not 0 <= first <= 3:
        raise ctx.error(f"invalid first seat {first} (expected 0..3)")
    try:
        trump_strain = dds_strain(trump)
        vulnerability = dds_vulnerability(vul)
        deal = Deal.from_pbn(parts[4], complete=True)
    except BridgeError as exc:
        raise ctx.error(f"PBN line: {exc}") from exc
    return deal, Seat(dealer), vulnerability, trump_strain, Seat(first)


def _parse_fut(ctx: _Ctx, rest: str, deal: Deal, leader: Seat) -> tuple:
    nums = _ints(ctx, rest.split(), "FUT")
    if not nums:
        raise ctx.error("FUT line is empty")
    k = nums[0]
    if not 1 <= k <= 13 or len(nums) != 1 + 4 * k:
        raise ctx.error(f"FUT with {k} groups needs {1 + 4 * k} numbers, got {len(nums)}")
    suits, ranks = nums[1:1 + k], nums[1 + k:1 + 2 * k]
    equals, scores = nums[1 + 2 * k:1 + 3 * k], nums[1 + 3 * k:]
    hand = deal[leader]
    groups = []
    for s, r, eq, sc in zip(suits, ranks, equals, scores):
        if not 0 <= s <= 3:
            raise ctx.error(f"FUT: invalid suit code {s} (expected 0..3)")
        suit = Suit(int(dds_strain(s)))
        card = Card(suit, _dds_rank(ctx, r, "FUT"))
        if eq & ~0x7FFC or eq >> r:
            raise ctx.error(f"FUT: invalid equals mask {eq} for {card}")
        eq_cards = tuple(Card(suit, q) for q in range(r - 1, 1, -1) if eq >> q & 1)
        for c in (card,) + eq_cards:
            if c not in hand:
                raise ctx.error(f"FUT: card {c} is not held by the leader {leader.name}")
        if not 0 <= sc <= 13:
            raise ctx.error(f"FUT: invalid score {sc} (expected 0..13)")
        groups.append(FutureTrickGroup(card, eq_cards, sc))
    return tuple(groups)


def _parse_table(ctx: _Ctx, rest: str) -> np.ndarray:
    nums = _ints(ctx, rest.split(), "TABLE")
    if len(nums) != 20:
        raise ctx.error(f"TABLE needs 20 numbers, got {len(nums)}")
    if any(not 0 <= n <= 13 for n in nums):
        raise ctx.error(f"TABLE entries must be 0..13, got {nums}")
    table = np.zeros((5, 4), dtype=np.uint8)
    for i, strain in enumerate(DDS_STRAINS):
        table[int(strain)] = nums[4 * i:4 * i + 4]
    table.flags.writeable = False
    return table


_SCORE_RE = re.compile(r"^(NS|EW)\s+([+-]?\d+)$")


def _parse_par(ctx: _Ctx, rest: str) -> SidesPar:
    parts = _split_quoted(ctx, rest, "PAR")
    if len(parts) != 4:
        raise ctx.error(f"PAR needs 4 quoted fields, got {len(parts)}")
    scores = []
    for side, text in zip(("NS", "EW"), parts[:2]):
        m = _SCORE_RE.match(text.strip())
        if not m or m.group(1) != side:
            raise ctx.error(f"PAR: invalid {side} score {brief_repr(text)}")
        scores.append(int(m.group(2)))
    contracts = []
    for side, text in zip(("NS", "EW"), parts[2:]):
        head, sep, body = text.partition(":")
        if not sep or head.strip() != side:
            raise ctx.error(f"PAR: invalid {side} contracts {brief_repr(text)}")
        contracts.append(tuple(c.strip() for c in body.split(",") if c.strip()))
    return SidesPar(scores[0], scores[1], contracts[0], contracts[1])


_DEALER_PAR_RE = re.compile(r"^[1-7][SHDCN]\*?-(NS|EW|N|E|S|W)([+-][1-9]\d*)?$")


def _parse_par2(ctx: _Ctx, rest: str) -> DealerPar:
    parts = _split_quoted(ctx, rest, "PAR2")
    if not parts:
        raise ctx.error("PAR2 line is empty")
    try:
        score = int(parts[0])
    except ValueError:
        raise ctx.error(f"PAR2: invalid score {brief_repr(parts[0])}") from None
    contracts = tuple(p.strip() for p in parts[1:])
    if contracts in ((), ("pass",), ("Pass",)):
        return DealerPar(score, ())
    for c in contracts:
        if not _DEALER_PAR_RE.match(c):
            raise ctx.error(f"PAR2: invalid contract {brief_repr(c)}")
    return DealerPar(score, contracts)


def _parse_play(ctx: _Ctx, rest: str) -> tuple:
    parts = _split_quoted(ctx, rest, "PLAY")
    if len(parts) not in (1, 2):
        raise ctx.error(f"PLAY needs a count and a quoted card string, "
                        f"got {brief_repr(rest.strip())}")
    (n,) = _ints(ctx, parts[:1], "PLAY")
    text = parts[1] if len(parts) == 2 else ""
    if not 0 <= n <= 52 or len(text) != 2 * n:
        raise ctx.error(f"PLAY: count {n} does not match {len(text)} characters of cards")
    cards = []
    for i in range(n):
        try:
            cards.append(Card.from_str(text[2 * i:2 * i + 2]))
        except BridgeError:
            raise ctx.error(f"PLAY: invalid card {text[2 * i:2 * i + 2]!r}") from None
    if len(set(cards)) != len(cards):
        raise ctx.error("PLAY: a card is played twice")
    return tuple(cards)


def _parse_trace(ctx: _Ctx, rest: str) -> tuple:
    nums = _ints(ctx, rest.split(), "TRACE")
    if not nums or nums[0] != len(nums) - 1:
        raise ctx.error(f"TRACE count does not match its {max(len(nums) - 1, 0)} values")
    if any(not 0 <= t <= 13 for t in nums[1:]):
        raise ctx.error("TRACE values must be 0..13")
    return tuple(nums[1:])


# --------------------------------------------------------------------------------------
# public readers


def iter_dds_records(lines: Iterable[str], name: str = "<string>") -> Iterator[DDSRecord]:
    """Parse list-format lines (see the module docstring) into :class:`DDSRecord` objects.

    Blank lines are ignored and lines may end in spaces; otherwise the seven lines of each
    hand must come in DDS's order.  When the file has a ``NUMBER n`` header, exactly ``n``
    hands must follow.

    :param lines: the text lines (with or without line ends).
    :param name: a name for error messages (a file name).
    :raises DDSFileError: for a malformed line, a line out of order, a card not in the
        leader's hand, an invalid deal or a hand count that differs from ``NUMBER``.
    """
    ctx = _Ctx(name)
    expected_count: int | None = None
    pending: dict = {}
    count = 0
    record_line = 0

    def finish() -> DDSRecord:
        deal, dealer, vul, trump, leader = pending["PBN"]
        return DDSRecord(
            number=count, line=record_line, deal=deal, dealer=dealer, vulnerability=vul,
            trump=trump, leader=leader, future_tricks=pending["FUT"], table=pending["TABLE"],
            sides_par=pending["PAR"], par=pending["PAR2"], play=pending["PLAY"],
            trace=pending["TRACE"])

    for raw in lines:
        ctx.lineno += 1
        text = raw.strip()
        if not text:
            continue
        keyword, _, rest = text.partition(" ")
        if keyword == "NUMBER":
            if expected_count is not None or count or pending:
                raise ctx.error("NUMBER must be the first line")
            fields = rest.split()
            if len(fields) != 1:
                raise ctx.error(f"NUMBER needs one count, got {brief_repr(rest.strip())}")
            (expected_count,) = _ints(ctx, fields, "NUMBER")
            continue
        if keyword not in _KEYWORDS:
            raise ctx.error(f"unknown line type {brief_repr(keyword)}")
        want = _KEYWORDS[len(pending)]
        if keyword != want:
            raise ctx.error(f"expected a {want} line, found {keyword}")
        if keyword == "PBN":
            record_line = ctx.lineno
            pending["PBN"] = _parse_pbn(ctx, rest)
        elif keyword == "FUT":
            _, _, _, _, leader = pending["PBN"]
            pending["FUT"] = _parse_fut(ctx, rest, pending["PBN"][0], leader)
        elif keyword == "TABLE":
            pending["TABLE"] = _parse_table(ctx, rest)
        elif keyword == "PAR":
            pending["PAR"] = _parse_par(ctx, rest)
        elif keyword == "PAR2":
            pending["PAR2"] = _parse_par2(ctx, rest)
        elif keyword == "PLAY":
            pending["PLAY"] = _parse_play(ctx, rest)
        else:
            pending["TRACE"] = _parse_trace(ctx, rest)
            yield finish()
            count += 1
            pending = {}
    if pending:
        raise ctx.error(f"file ends inside a hand (after its {list(pending)[-1]} line)")
    if expected_count is not None and expected_count != count:
        raise ctx.error(f"NUMBER says {expected_count} hands, found {count}")


def _open_lines(source: Source):
    if hasattr(source, "read"):
        return source, getattr(source, "name", "<stream>"), False
    path = os.fspath(source)
    return open(path, encoding="ascii"), path, True


def read_dds_file(source: Source) -> list:
    """Read a DDS list-format test file (``list100.txt`` ...) into :class:`DDSRecord` objects.

    :param source: a path or an open text file.
    :raises DDSFileError: for malformed content (see :func:`iter_dds_records`).
    :raises OSError: when the file cannot be opened.
    """
    fh, name, close = _open_lines(source)
    try:
        return list(iter_dds_records(fh, name=str(name)))
    finally:
        if close:
            fh.close()


def parse_dds_text(text: str, name: str = "<string>") -> list:
    """Parse the text of a DDS list-format file; see :func:`iter_dds_records`.

    :raises DDSFileError: for malformed content.
    """
    return list(iter_dds_records(io.StringIO(text), name=name))


# GIB ("sol") format: strains NT, S, H, D, C; within each, declarers E, N, W, S.
_GIB_SEATS = (Seat.EAST, Seat.NORTH, Seat.WEST, Seat.SOUTH)


def parse_gib_line(line: str, name: str = "<string>", lineno: int = 1) -> tuple:
    """Parse one GIB-format line (see the module docstring).

    :returns: ``(deal, table)`` where ``table`` is a read-only ``(5, 4)`` ``uint8`` array
        laid out as :attr:`DDSRecord.table` (tricks for declarer's side).
    :raises DDSFileError: for a line of the wrong shape, bad hex digits or an invalid deal.
    """
    ctx = _Ctx(name)
    ctx.lineno = lineno
    text = line.rstrip("\r\n").rstrip()
    if len(text) != 88 or text[67] != ":":
        raise ctx.error(f"a GIB line has 88 characters with ':' at 67, got {brief_repr(text)}")
    try:
        deal = Deal.from_pbn("W:" + text[:67], complete=True)
    except BridgeError as exc:
        raise ctx.error(f"GIB hands: {exc}") from exc
    digits = text[68:]
    if not re.fullmatch(r"[0-9a-dA-D]{20}", digits):
        raise ctx.error(f"GIB tricks must be 20 hex digits 0..d, got {brief_repr(digits)}")
    table = np.zeros((5, 4), dtype=np.uint8)
    for i, strain in enumerate(STRAINS_HIGH_FIRST):
        for j, seat in enumerate(_GIB_SEATS):
            ns_tricks = int(digits[4 * i + j], 16)
            table[strain, seat] = ns_tricks if seat.side == Side.NS else 13 - ns_tricks
    table.flags.writeable = False
    return deal, table


def read_gib_tables(source: Source) -> list:
    """Read a GIB-format DD-table file (DDS's ``sol10.txt``) into ``(deal, table)`` pairs.

    :raises DDSFileError: for a malformed line (see :func:`parse_gib_line`).
    :raises OSError: when the file cannot be opened.
    """
    fh, name, close = _open_lines(source)
    try:
        return [parse_gib_line(line, str(name), i)
                for i, line in enumerate(fh, start=1) if line.strip()]
    finally:
        if close:
            fh.close()
