"""The analyse job as a library: read a PBN or LIN file, solve the double-dummy table of
every deal, work out par, compare with the analysis another program left in the file, and
write the tags back.

``ddsolver analyse`` is a thin wrapper around :func:`analyse_file`; a script or a web
server calls it (or :func:`analyse_games` on games it already holds) and gets an
:class:`AnalysisReport`::

    from ddsolver.analysis import analyse_file

    report = analyse_file("club.pbn", check=True)
    report.analysed, report.skipped, report.mismatched      # 36, 0, 0
    report.boards[0].table, report.boards[0].par            # DDTable, ParResult
    report.write("club.analysed.pbn")                       # atomic

For each game with a complete deal the tags ``DoubleDummyTricks``, ``OptimumResultTable``
(tricks for declarer's side), ``OptimumScore`` and ``ParContract`` (par for the board's
dealer and vulnerability; DDS 2.9 ``DealerPar`` rules, :func:`ddsolver.par.par`) are added
or replaced in the game (:mod:`ddsolver.pbn.dd_tags` has their forms); everything else is
kept.  A game without a complete deal is left as it is, and so is a game that cannot be
read (a malformed board: reported with its error and written back as it stands in the
file) while the other games are analysed.  Where the dealer or the vulnerability is
missing it comes from the board number (the standard 16-board cycle, WBF Laws 2 and 6),
else North and none, with a note.

The input is read in chunks of 1 MiB and refused with :class:`~ddsolver.errors.
InputTooLargeError` as soon as it is larger than :data:`MAX_INPUT_BYTES` (256 MiB; the
``max_bytes`` argument of :func:`read_games` and :func:`analyse_file`, ``None`` for no cap),
so that an endless stream or a huge file never fills the memory; and a PBN input of more
than :data:`MAX_INPUT_GAMES` games (1,000,000: ``max_games``) is refused with the same
error as it is read, since every game costs several hundred bytes however short its text
(256 MiB of one-tag games would need over 10 GB).

Sources: PBN standard 2.1 (Tis Veugen and Kaj G Backas, 2007) for the file format; the tag
forms of BridgeComposer's hand records (``examples/club_hand_record_36.pbn``).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import IO, Any, Union

from . import solver as _solver
from ._io import (
    MAX_INPUT_BYTES,
    check_max_bytes,
    decode_text,
    read_capped,
    read_file_capped,
    too_large,
)
from .cards import Strain
from .deal import Deal
from .errors import BridgeError, LINError, PBNError
from .par import ParResult, par
from .pbn import PBNGame, write_pbn
from .pbn.dd_tags import compare_analysis_tags, par_tags
from .pbn.reader import check_max_games
from .solver import DDTable
from .table import Seat, Vulnerability, board_dealer, board_vulnerability

__all__ = ["MAX_INPUT_BYTES", "MAX_INPUT_GAMES", "AnalysisReport", "BoardAnalysis",
           "analyse_file", "analyse_games", "read_games"]

#: The most PBN games :func:`read_games` reads by default (``max_games``).  Real files hold
#: far fewer (a club's year is some tens of thousands of boards); the cap bounds the memory
#: the games take (a few hundred bytes to a few kB each, after analysis), which the byte cap
#: alone does not: 256 MiB of one-tag games (``[Event "x"]``) is some twenty million.
MAX_INPUT_GAMES = 1_000_000

Source = Union[str, "os.PathLike[str]", bytes, IO[str], IO[bytes]]


def table_dict(table: Any) -> dict[str, dict[str, int]]:
    """A DD table as ``{"C": {"N": n, "E": n, "S": n, "W": n}, ..., "NT": {...}}``: tricks
    for declarer's side, strains C, D, H, S, NT.

    :param table: indexed ``table[strain, seat]`` (a :class:`~ddsolver.solver.DDTable`).
    """
    return {strain.letter: {seat.letter: int(table[strain, seat]) for seat in Seat}
            for strain in Strain}


#: ``slots=True`` for the dataclasses made once a game (Python 3.10 and later; without it an
#: object carries a ``__dict__``, ~100 bytes more a game).
_SLOTS: dict[str, bool] = {"slots": True} if sys.version_info >= (3, 10) else {}


def par_dict(result: ParResult) -> dict[str, Any]:
    """A par result as JSON: ``score`` for North-South, ``contracts`` in DDS text, and the
    ``OptimumScore``/``ParContract`` tag values."""
    optimum, contracts = par_tags(result)
    return {
        "score": int(result.score),
        "contracts": [str(c) for c in result.contracts],
        "optimum_score": optimum,
        "par_contract": contracts,
    }


@dataclass(**_SLOTS)
class BoardAnalysis:
    """What the analysis did with one game of the input.

    :ivar game: the game (its analysis tags set when it was analysed).
    :ivar label: ``"board 12"``, or ``"game 3"`` (its place in the file) without a board
        number.
    :ivar deal, dealer, vulnerability: what the analysis used; ``None`` when skipped.
    :ivar table: the DD table (:class:`~ddsolver.solver.DDTable`, tricks for declarer's
        side), ``None`` when skipped.
    :ivar par: the par (:class:`~ddsolver.par.ParResult`, score for North-South).
    :ivar skipped: why the game was not analysed (no deal, an incomplete deal, the
        game's error), else ``None``.
    :ivar malformed: the game could not be read (its error is :attr:`skipped`); it is
        written back as it stands in the file.
    :ivar notes: where the dealer or vulnerability came from when the game lacks them.
    :ivar check: with ``check=True``: ``"ok"``, ``"mismatch"`` or ``"unchecked"`` (the game
        has none of the four tags); ``None`` when not asked or skipped.
    :ivar mismatches: the differences with the file's tags, as sentences.
    """

    game: PBNGame
    label: str
    deal: Deal | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    table: DDTable | None = None
    par: ParResult | None = None
    skipped: str | None = None
    malformed: bool = False
    notes: list[str] = field(default_factory=list)
    check: str | None = None
    mismatches: list[str] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        """What the reader tolerated in the game (:attr:`PBNGame.warnings`)."""
        return list(self.game._warnings or ())   # (no list made for a game without)

    def to_json(self) -> dict[str, Any]:
        """The board as JSON: ``board``, ``index``, then ``skipped`` (and ``malformed``)
        or ``deal``, ``dealer``, ``vulnerability``, ``table`` (see :func:`table_dict`),
        ``par`` (see :func:`par_dict`), ``notes`` if any, ``check`` and ``mismatches`` if
        checked."""
        item: dict[str, Any] = {"board": self.game.board, "index": self.game.index}
        if self.skipped is not None:
            item["skipped"] = self.skipped
            if self.malformed:
                item["malformed"] = True
            return item
        item.update({
            "deal": self.deal.to_pbn(),
            "dealer": self.dealer.letter,
            "vulnerability": self.vulnerability.pbn,
            "table": table_dict(self.table),
            "par": par_dict(self.par),
        })
        if self.notes:
            item["notes"] = list(self.notes)
        if self.check is not None:
            item["check"] = self.check
            item["mismatches"] = list(self.mismatches)
        return item


@dataclass
class AnalysisReport:
    """The result of an analysis: every game of the input, in order, with what was done.

    :ivar boards: one :class:`BoardAnalysis` per game, in file order.
    :ivar format: ``"pbn"`` or ``"lin"``: what was read.
    :ivar source: the file name, if any.
    :ivar newline: the line end to write the games back with: the input's (CRLF, CR alone
        or LF), CRLF for LIN input.
    :ivar distinct_deals: how many different deals were solved.
    :ivar seconds: wall time of the solving, seconds.
    :ivar checked: whether the file's analysis tags were compared (``check=True``).
    """

    boards: list[BoardAnalysis]
    format: str = "pbn"
    source: str | None = None
    newline: str = "\n"
    distinct_deals: int = 0
    seconds: float = 0.0
    checked: bool = False

    @property
    def games(self) -> list[PBNGame]:
        """The games, analysed ones with their new tags, in file order."""
        return [b.game for b in self.boards]

    @property
    def analysed(self) -> int:
        """How many games were analysed."""
        return sum(1 for b in self.boards if b.skipped is None)

    @property
    def skipped(self) -> int:
        """How many games were not analysed (malformed ones included)."""
        return sum(1 for b in self.boards if b.skipped is not None)

    @property
    def malformed(self) -> int:
        """How many games could not be read (skipped; written back as they stand)."""
        return sum(1 for b in self.boards if b.malformed)

    @property
    def mismatched(self) -> int | None:
        """How many analysed games differ from the file's tags; ``None`` unless checked."""
        if not self.checked:
            return None
        return sum(1 for b in self.boards if b.check == "mismatch")

    @property
    def compared(self) -> int:
        """How many analysed games had analysis tags to compare."""
        return sum(1 for b in self.boards if b.check in ("ok", "mismatch"))

    @property
    def unchecked(self) -> int:
        """How many analysed games had none of the four tags (with ``check=True``)."""
        return sum(1 for b in self.boards if b.check == "unchecked")

    def write(self, target: str | os.PathLike[str] | IO[str] | IO[bytes]) -> None:
        """Write every game as PBN (:func:`ddsolver.pbn.write_pbn`, atomic for a path),
        with :attr:`newline` line ends; a game that could not be read is written as it
        stands in the input.

        :raises PBNError: for a tag that cannot be written.
        :raises TypeError: if ``target`` is neither a path nor a file object with a
            ``write`` method.
        :raises OSError: if the file cannot be written (the target is then unchanged).
        """
        write_pbn(self.games, target, newline=self.newline)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON: ``format``, ``analysed``, ``skipped``, ``malformed``,
        ``mismatched`` (``None`` unless checked) and ``boards`` (see
        :meth:`BoardAnalysis.to_json`)."""
        return {
            "format": self.format,
            "analysed": self.analysed,
            "skipped": self.skipped,
            "malformed": self.malformed,
            "mismatched": self.mismatched,
            "boards": [b.to_json() for b in self.boards],
        }


#: The games' errors shown when no game of an input can be read (the rest are counted).
_ERRORS_SHOWN = 10


def _label(game: PBNGame, position: int) -> str:
    """``"board 7"``, else ``"game 3"`` (its place in the file, from 1: the PBN reader's
    index, or ``position`` for games that have none, as LIN's)."""
    if game.board is not None:
        return f"board {game.board}"
    return f"game {game.index if game.index is not None else position}"


#: How every PBN tag starts (white space, line breaks included, is allowed around the name):
#: an input in which this is nowhere found holds no tag, hence no game.
#: (Each run ends where the next part cannot start: searched in linear time.)
_TAG_START_RE = re.compile(r'\[[ \t\v\f\r\n]*[A-Za-z0-9_]+[ \t\v\f\r\n]*"')


def detect_format(name: str | None, text: str) -> str:
    """``"lin"`` or ``"pbn"``: by the file name's extension, else by the content (a PBN file
    starts with ``[``, ``%``, ``{`` or ``;``; a LIN file with a ``key|`` item)."""
    lower = (name or "").lower()
    if lower.endswith(".lin"):
        return "lin"
    if lower.endswith(".pbn"):
        return "pbn"
    if text.lstrip("\ufeff \t\r\n")[:1] in ("[", "%", "{", ";"):
        return "pbn"
    return "lin" if _looks_lin(text) else "pbn"


def _looks_lin(text: str) -> bool:
    """``text`` starts (after white space) with a LIN item's key, e.g. ``pn|``."""
    return re.match(r"[A-Za-z]{2}\|", text.lstrip("\ufeff \t\r\n")) is not None


def read_games(source: Source, *, format: str = "auto", name: str | None = None,
               max_bytes: int | None = MAX_INPUT_BYTES,
               max_games: int | None = MAX_INPUT_GAMES) -> tuple[list[PBNGame], str, str]:
    """Read the games of a PBN or LIN input for analysis.

    A PBN game that cannot be read is kept in its place with its error
    (:attr:`PBNGame.error`, ``parse_pbn(..., errors="keep")``); a LIN file is read whole.

    The input is read in chunks of 1 MiB and refused as soon as it is larger than
    ``max_bytes`` (a regular file larger than that is refused before it is read), so an
    endless stream or a huge file never fills the memory.

    :param source: a path, the file's bytes, or a file object (text or binary).
    :param format: ``"auto"`` (by the name's extension, then by the content), ``"pbn"`` or
        ``"lin"``.
    :param name: the name for messages (default: the path or the file object's name).
    :param max_bytes: the most bytes read (a text file object's size is counted in UTF-8
        bytes); default :data:`MAX_INPUT_BYTES` (256 MiB), ``None`` for no cap.
    :param max_games: the most PBN games read (unreadable ones included); default
        :data:`MAX_INPUT_GAMES` (1,000,000), ``None`` for no cap.  A LIN file is capped by
        its bytes only.
    :returns: ``(games, format, newline)``: the games in file order, ``"pbn"`` or
        ``"lin"``, and the line end to write them back with: CRLF for LIN input or when
        the input has a CRLF line end, CR when its line ends are CR alone (old Mac
        files), else LF.
    :raises LINError: for a malformed LIN file, or a LIN input without boards.
    :raises PBNError: for a PBN input without boards, or of which no board can be read
        (the message is the first board's error; for an input in which not even the start
        of a tag is found, one that asks whether it is a PBN file at all).
    :raises InputTooLargeError: if the input is larger than ``max_bytes`` (the message
        names it and the cap; nothing more is read then), or holds more than
        ``max_games`` PBN games.
    :raises OSError: if the file cannot be read.
    :raises TypeError: for a source of another type, or a ``max_bytes`` that is neither
        ``None`` nor an integer.
    :raises ValueError: for an unknown ``format``, or a ``max_bytes`` or ``max_games``
        below 1 (a ``max_games`` of another type than ``None`` or an integer: TypeError).
    :raises KeyboardInterrupt: on Ctrl-C, between two chunks at the latest.
    """
    from .lin import parse_lin
    from .pbn import parse_pbn

    if format not in ("auto", "pbn", "lin"):
        raise ValueError(f"format must be 'auto', 'pbn' or 'lin', got {format!r}")
    check_max_bytes(max_bytes)
    check_max_games(max_games)
    if isinstance(source, bytes):
        if max_bytes is not None and len(source) > max_bytes:
            raise too_large(name, max_bytes)
        data = source
    elif isinstance(source, (str, os.PathLike)):
        name = name or os.fspath(source)
        data = read_file_capped(source, max_bytes)
    elif hasattr(source, "read"):
        if name is None:
            file_name = getattr(source, "name", None)
            name = file_name if isinstance(file_name, str) else None
        data = read_capped(source, max_bytes, name)
    else:
        raise TypeError(f"read_games needs a path, bytes or a file, not "
                        f"{type(source).__name__}")
    text = decode_text(data) if isinstance(data, bytes) else data
    kind = format if format != "auto" else detect_format(name, text)
    if kind == "lin":
        games = parse_lin(text, source=name)
    elif _TAG_START_RE.search(text) is None:
        # Not one tag: no game can be read.  Read to the first error, if any, rather than
        # keep every stretch of the input between empty lines as an unreadable game, to be
        # thrown away below ('yes x' or '[x' lines would make millions of them).
        try:
            games = parse_pbn(text, source=name, max_games=max_games)
        except PBNError as exc:
            hint = (" It looks like LIN: read it as LIN (--format lin, format=\"lin\")."
                    if _looks_lin(text) else "")
            raise PBNError(f"{exc}; there is no tag ('[Name \"value\"]') in the input: is "
                           f"it a PBN file?{hint}") from None
    else:
        games = parse_pbn(text, source=name, errors="keep", max_games=max_games)
    if not games:
        error = LINError if kind == "lin" else PBNError
        raise error(f"{name or 'the input'}: no boards found (is it a {kind.upper()} file?)")
    if all(g.error is not None for g in games):
        # not one board could be read: the input is not PBN (or not a whole file of it);
        # each game's error said, so that one run shows every fix to make
        if len(games) == 1:
            raise PBNError(games[0].error)
        shown = [f"  {g.error}" for g in games[:_ERRORS_SHOWN]]
        if len(games) > _ERRORS_SHOWN:
            shown.append(f"  ... and {len(games) - _ERRORS_SHOWN:,} more")
        raise PBNError(f"none of the {len(games):,} games can be read:\n" + "\n".join(shown))
    if kind == "lin" or "\r\n" in text:
        newline = "\r\n"
    elif "\r" in text and "\n" not in text:
        newline = "\r"  # CR-only line ends (classic Mac OS): written back as they came
    else:
        newline = "\n"
    return games, kind, newline


def _prepare(game: PBNGame, position: int) -> BoardAnalysis:
    """Find the deal, dealer and vulnerability of a game (the ``position``-th, from 1), or
    why it is skipped."""
    board = BoardAnalysis(game, _label(game, position))
    if game.error is not None:
        board.skipped, board.malformed = game.error, True
        return board
    try:
        deal = game.deal
        dealer = game.dealer
        vulnerability = game.vulnerability
    except BridgeError as exc:
        board.skipped, board.malformed = str(exc), True
        return board
    if deal is None:
        board.skipped = "no deal"
        return board
    if not deal.is_complete():
        board.skipped = "the deal is not complete (a hand unknown or short of 13 cards)"
        return board
    number = game.board
    if dealer is None:
        dealer = board_dealer(number) if number is not None else Seat.NORTH
        # interned: a handful of different sentences, one per board of a deal-only file
        board.notes.append(sys.intern(
            f"no dealer given: par computed with dealer {dealer.letter}"
            f"{' (board number)' if number is not None else ''}"))
    if vulnerability is None:
        vulnerability = (board_vulnerability(number) if number is not None
                         else Vulnerability.NONE)
        board.notes.append(sys.intern(
            f"no vulnerability given: par computed for {vulnerability.pbn}"
            f"{' (board number)' if number is not None else ''}"))
    board.deal, board.dealer, board.vulnerability = deal, dealer, vulnerability
    return board


def analyse_games(games: Iterable[PBNGame], *, threads: int | None = None,
                  check: bool = False, progress: Callable[[DDTable], Any] | None = None,
                  format: str = "pbn", source: str | None = None, newline: str = "\n",
                  executor: Executor | None = None) -> AnalysisReport:
    """Analyse games already read: solve each distinct complete deal once
    (:func:`ddsolver.solver.dd_tables`), work out par, compare with the file's tags if
    asked, and set the four analysis tags in each analysed game (the games are changed in
    place).

    :param threads: solver threads (default: the number of CPUs; never more than the
        deals).
    :param executor: a :class:`concurrent.futures.Executor` to solve the tables on
        instead of local threads (``threads`` is then not used): for a very large file, a
        Dask cluster's, ``distributed.Client(address).get_executor()``, or a process pool.
        The tables are the same, whatever solves them (the solver is exact).
    :param check: compare the analysis tags already in each game with ours
        (:func:`ddsolver.pbn.dd_tags.compare_analysis_tags`) before replacing them.
    :param progress: called with each finished table (a progress bar's update).
    :param format, source, newline: recorded in the report (see :class:`AnalysisReport`).
    :returns: the :class:`AnalysisReport`.
    :raises TypeError: if ``games`` holds something other than :class:`PBNGame`,
        ``executor`` has no ``submit`` method, or ``threads`` is neither ``None`` nor an
        integer (a float, a string or a bool).
    :raises ValueError: if ``threads`` is an integer below 1.
    :raises Exception: whatever ``executor`` raises for a table it could not solve (a
        Dask worker that died, a lost connection).
    :raises PBNError: if a game's analysis tags cannot be written (the message names the
        board).
    :raises KeyboardInterrupt: on Ctrl-C, within about 50 ms (no game has been changed
        then).
    """
    games = list(games)
    for game in games:
        if not isinstance(game, PBNGame):
            raise TypeError(f"analyse_games needs PBNGames, got {type(game).__name__}")
    _solver._check_threads(threads)
    boards = [_prepare(g, i) for i, g in enumerate(games, 1)]
    todo = [b for b in boards if b.skipped is None]
    unique: dict[str, Deal] = {}
    for b in todo:
        unique.setdefault(b.deal.to_pbn(), b.deal)
    start = time.monotonic()
    by_deal: dict[str, DDTable] = {}
    if unique:
        workers = max(1, min(threads or os.cpu_count() or 1, len(unique)))
        tables = _solver.dd_tables(list(unique.values()), threads=workers,
                                   executor=executor, progress=progress)
        by_deal = dict(zip(unique.keys(), tables))
    elapsed = time.monotonic() - start
    for b in todo:
        b.table = by_deal[b.deal.to_pbn()]
        b.par = par(b.table, b.vulnerability, b.dealer)
        if check:
            mismatches = compare_analysis_tags(b.game, b.table, b.par)
            if mismatches is None:
                b.check = "unchecked"
            else:
                b.mismatches = mismatches
                b.check = "mismatch" if mismatches else "ok"
    for b in todo:
        try:
            b.game.set_double_dummy(b.table)
            b.game.set_par(b.par)
        except BridgeError as exc:
            raise PBNError(f"{b.label}: cannot write the analysis: {exc}") from None
    return AnalysisReport(boards, format=format, source=source, newline=newline,
                          distinct_deals=len(unique), seconds=elapsed, checked=check)


def analyse_file(source: Source, *, format: str = "auto", threads: int | None = None,
                 check: bool = False, progress: Callable[[DDTable], Any] | None = None,
                 name: str | None = None, executor: Executor | None = None,
                 max_bytes: int | None = MAX_INPUT_BYTES,
                 max_games: int | None = MAX_INPUT_GAMES) -> AnalysisReport:
    """Read a PBN or LIN input (:func:`read_games`) and analyse it (:func:`analyse_games`).
    Nothing is written: call :meth:`AnalysisReport.write`.

    :param source: a path, the file's bytes, or a file object.
    :param format: ``"auto"``, ``"pbn"`` or ``"lin"``.
    :param name: the name for messages (default: the path or the file object's name).
    :param executor: where the tables are solved (see :func:`analyse_games`).
    :param max_bytes: the most bytes read (see :func:`read_games`); default
        :data:`MAX_INPUT_BYTES` (256 MiB), ``None`` for no cap.
    :param max_games: the most PBN games read (see :func:`read_games`); default
        :data:`MAX_INPUT_GAMES` (1,000,000), ``None`` for no cap.
    :returns: the :class:`AnalysisReport`; a PBN board that cannot be read is in it,
        skipped, with its error (:attr:`BoardAnalysis.malformed`).
    :raises LINError: for a malformed LIN file.
    :raises PBNError: for an input without boards, or of which no board can be read.
    :raises InputTooLargeError: if the input is larger than ``max_bytes`` or holds more
        than ``max_games`` PBN games.
    :raises OSError: if the file cannot be read.
    :raises TypeError, ValueError: as :func:`read_games` and :func:`analyse_games`.
    :raises KeyboardInterrupt: on Ctrl-C.
    """
    _solver._check_threads(threads)  # a bad argument fails before the file is read
    check_max_bytes(max_bytes)
    check_max_games(max_games)
    games, kind, newline = read_games(source, format=format, name=name, max_bytes=max_bytes,
                                      max_games=max_games)
    source_name = games[0].source if games else name
    return analyse_games(games, threads=threads, check=check, progress=progress,
                         format=kind, source=source_name, newline=newline,
                         executor=executor)
