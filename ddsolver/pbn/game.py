"""The game model: one PBN game (a board as dealt or played) as ordered tags with parsed
views and the changes a program makes to it.

A :class:`PBNGame` keeps every tag of the game in file order with what follows it
(:class:`~ddsolver.pbn.tags.Tag`), so that a game read and written back loses nothing, and
reads the standard tags on demand: board, dealer, vulnerability, deal, auction, contract,
declarer, result, play (PBN 2.1, sections 3.4 to 3.10).  The reader
(:mod:`ddsolver.pbn.reader`) and the LIN reader (:mod:`ddsolver.lin`) make games, the
writer (:mod:`ddsolver.pbn.writer`) writes them.

Source: PBN standard 2.1, Tis Veugen and Kaj G Backas (2007, text of 2017.02.14); the
opening leader by WBF Law 54, a trick's winner by WBF Law 44.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..auction import Auction, Call
from ..cards import Card, Strain
from ..contract import Contract
from ..deal import Deal
from ..errors import BridgeError, InvalidNotationError, PBNError, brief_repr
from ..play import Position
from ..table import Seat, Vulnerability, board_dealer, board_vulnerability
from . import dd_tags
from .sections import (
    AnnotatedCall,
    PBNAuction,
    PBNPlay,
    PlayedCard,
    auction_lines,
    parse_auction,
    parse_play,
    play_lines,
)
from .tags import MANDATORY_TAGS, NAME_RE, LazyList, Tag, comment_text, section_lines

__all__ = ["PBNGame"]

_NOTE_VALUE_RE = re.compile(r"\s*(\d+)\s*:(.*)\Z", re.DOTALL)
_RESULT_RE = re.compile(
    r"\^?\s*(?:(\d+)|(NS|EW)\s+(\d+)(?:\s+(NS|EW)\s+(\d+))?)\Z", re.IGNORECASE)


def _number(digits: str) -> int:
    """The value of a string of decimal digits, capped at 10**9 (a longer number is never
    handed to ``int``, which refuses strings of more than 4,300 digits)."""
    significant = digits.lstrip("0")
    return int(significant) if len(significant) <= 9 and significant else (
        0 if not significant else 10**9)


class PBNGame:
    """One PBN game (a board as played or dealt): ordered tags plus parsed conveniences.

    :ivar tag_list: the :class:`Tag` objects in file order (``Note`` tags included, each
        right after the auction or play section it belongs to).
    :ivar preamble: comments before the first tag, verbatim.
    :ivar escapes: the ``%`` escape lines met in the game (PBN 2.1, section 2.4), except
        the ``% PBN x.y`` and ``% EXPORT`` lines, which the writer makes itself.
    :ivar warnings: what the reader tolerated (an ignored repeated tag, no empty line
        before the game, a note reference without its Note tag, a Contract tag that
        differs from the auction...), as sentences.
    :ivar index: 1-based position of the game in its file (``None`` if built in code).
    :ivar line: line of the game's first tag in its file.
    :ivar claim: tricks claimed by declarer in all (LIN ``mc``), else ``None``.
    :ivar lin: LIN extras for a game read by :mod:`ddsolver.lin` (room, raw items...).
    :ivar error: why the reader could not read the game (only from
        ``parse_pbn(..., errors="keep")``), else ``None``.  Such a game's tags are what
        could be read (maybe none, or only its ``Board``).
    :ivar raw_text: the text of a game that could not be read, as it stands in the file;
        the writer writes it back unchanged.  ``None`` for a game that was read.
    :ivar file_header: for the first game of a file, the identification lines of the
        file's start that are not kept in :attr:`escapes`, as read (rstripped):
        ``("% PBN 2.1", "% EXPORT")``; ``None`` for other games and games built in code.
        The writer writes its own ``% PBN 2.1`` line, and ``% EXPORT`` after it when the
        first game's header has one (PBN 2.1: the line that marks export format).  Not
        compared.

    Parsed views (computed from the tags on each access; each raises
    :class:`~ddsolver.errors.PBNError` naming line and board for a bad value):
    :attr:`board`, :attr:`dealer`, :attr:`vulnerability`, :attr:`deal`, :attr:`auction`
    (:class:`PBNAuction`), :attr:`calls`, :attr:`contract`, :attr:`declarer`,
    :attr:`trump`, :attr:`result`, :attr:`passed_out`, :attr:`play` (:class:`PBNPlay`),
    :attr:`opening_leader`, :attr:`play_sequence`, :attr:`notes`, :attr:`comments`.
    Changes go through :meth:`set_tag`, :meth:`remove_tag`, :meth:`set_deal`,
    :meth:`set_auction`, :meth:`set_play`, :meth:`set_notes`, :meth:`set_double_dummy`
    and :meth:`set_par`.

    :attr:`preamble`, :attr:`escapes` and :attr:`warnings` are lists, made (empty) only
    when first asked for, and the attributes are slots: a game without comments, escape
    lines or warnings costs one list (:attr:`tag_list`), not four, and no ``__dict__``
    (no other attribute can be set on it).

    Two games compare equal when their tags (names, values, sections, comments), preamble,
    escape lines and raw text are equal.
    """

    def __init__(self, tags: None | Iterable[Tag] | dict[str, str] = None, *,
                 preamble: Iterable[str] | None = None,
                 escapes: Iterable[str] | None = None):
        if tags is None:
            tag_list: list[Tag] = []
        elif isinstance(tags, dict):
            tag_list = [Tag(str(k), str(v)) for k, v in tags.items()]
        else:
            tag_list = list(tags)
        self.tag_list: list[Tag] = tag_list
        # None: no list made yet (see the properties preamble, escapes and warnings)
        self._preamble: list[str] | None = list(preamble) if preamble else None
        self._escapes: list[str] | None = list(escapes) if escapes else None
        self._warnings: list[str] | None = None
        self.index: int | None = None
        self.line: int | None = None
        self.source: str | None = None
        self.claim: int | None = None
        self.lin: dict[str, Any] | None = None
        self.error: str | None = None
        self.raw_text: str | None = None
        self.file_header: tuple[str, ...] | None = None
        self._auction_override: tuple[Any, PBNAuction] | None = None
        self._play_override: tuple[Any, PBNPlay] | None = None
        # (the Deal tag's text, its deal): parsed once while the text stays the same
        self._deal_cache: tuple[str, Deal] | None = None

    __slots__ = ("_auction_override", "_deal_cache", "_escapes", "_play_override",
                 "_preamble", "_warnings", "claim", "error", "file_header", "index", "lin",
                 "line", "raw_text", "source", "tag_list")

    preamble = LazyList("_preamble", "The comments before the first tag, verbatim (a list, "
                                     "made empty on first access if there are none).")
    escapes = LazyList("_escapes", "The ``%`` escape lines of the game (a list, made empty on "
                                   "first access if there are none).")
    warnings = LazyList("_warnings", "What the reader tolerated, as sentences (a list, made "
                                     "empty on first access if there are none).")

    # -- construction --------------------------------------------------------------------
    @classmethod
    def new(cls, deal: Deal | None = None, *, board: int | None = None,
            dealer: Seat | None = None, vulnerability: Vulnerability | None = None,
            event: str = "", site: str = "", date: str = "", scoring: str = "",
            players: dict[Seat, str] | None = None) -> PBNGame:
        """A game with the 15 mandatory tags (PBN 2.1, section 3.4) filled from the
        arguments.  Dealer and vulnerability default to the board's in the standard
        16-board cycle when ``board`` is given; the deal is written from the dealer.

        :raises ValueError: if ``board`` < 1.
        """
        if board is not None:
            if dealer is None:
                dealer = board_dealer(board)
            if vulnerability is None:
                vulnerability = board_vulnerability(board)
        players = players or {}
        game = cls()
        values = {
            "Event": event, "Site": site, "Date": date,
            "Board": "" if board is None else str(int(board)),
            "West": players.get(Seat.WEST, ""), "North": players.get(Seat.NORTH, ""),
            "East": players.get(Seat.EAST, ""), "South": players.get(Seat.SOUTH, ""),
            "Dealer": "" if dealer is None else Seat(dealer).letter,
            "Vulnerable": "" if vulnerability is None else Vulnerability(vulnerability).pbn,
            "Deal": "",
            "Scoring": scoring, "Declarer": "", "Contract": "", "Result": "",
        }
        for name in MANDATORY_TAGS:
            game.tag_list.append(Tag(name, values[name]))
        if deal is not None:
            game.set_deal(deal)
        return game

    # -- tag access ----------------------------------------------------------------------
    @property
    def tags(self) -> dict[str, str]:
        """Tag name -> value in file order (first occurrence; ``Note`` tags left out: see
        :attr:`notes`).  A new dict: change tags with :meth:`set_tag`."""
        out: dict[str, str] = {}
        for t in self.tag_list:
            if t.name != "Note" and t.name not in out:
                out[t.name] = t.value
        return out

    @property
    def sections(self) -> dict[str, list[str]]:
        """Tag name -> section lines, for the tags that have a section."""
        return {t.name: list(t.section_view()) for t in self.tag_list
                if t.section_view() and t.name != "Note"}

    @property
    def notes(self) -> list[tuple[int, str]]:
        """Every ``Note`` tag as ``(number, text)``, in file order."""
        out = []
        for t in self.tag_list:
            if t.name == "Note":
                out.append(self._note_pair(t))
        return out

    @property
    def comments(self) -> list[str]:
        """The text of every comment outside sections (preamble first), without the
        ``{}``/``;`` delimiters."""
        raw = list(self._preamble or ())
        for t in self.tag_list:
            raw.extend(t.comments_view())
        return [comment_text(c) for c in raw]

    def tag(self, name: str) -> Tag | None:
        """The first :class:`Tag` called ``name``, or ``None``."""
        for t in self.tag_list:
            if t.name == name:
                return t
        return None

    def get(self, name: str, default: str | None = None) -> str | None:
        """The value of tag ``name``, or ``default`` if the game has no such tag."""
        t = self.tag(name)
        return default if t is None else t.value

    def __getitem__(self, name: str) -> str:
        t = self.tag(name)
        if t is None:
            raise KeyError(name)
        return t.value

    def __setitem__(self, name: str, value: str) -> None:
        self.set_tag(name, value)

    def __contains__(self, name: object) -> bool:
        return any(t.name == name for t in self.tag_list)

    def set_tag(self, name: str, value: Any, section: None | str | Sequence[str] = None,
                *, comments: Sequence[str] | None = None,
                before: str | None = None) -> Tag:
        """Set tag ``name`` to ``value`` (converted with ``str``), replacing the value of an
        existing tag in place or adding the tag: before the tag ``before`` if given and
        present, else before the ``Auction``/``Play`` sections for a mandatory tag, else at
        the end.

        :param section: new section lines (a list, or one string split at newlines);
            ``None`` keeps an existing tag's section.
        :param comments: new comments, verbatim with ``{}``; ``None`` keeps them.
        :returns: the :class:`Tag`.
        :raises PBNError: for an invalid tag name (PBN 2.1 name token: letters, digits,
            underscore), a value with a line break, or ``name == "Note"`` (use
            :meth:`set_notes`).
        """
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            raise PBNError(f"invalid tag name {brief_repr(name)}: letters, digits and '_' only")
        if name == "Note":
            raise PBNError("Note tags belong to a section: use set_notes()")
        value = "" if value is None else str(value)
        if "\n" in value or "\r" in value:
            raise PBNError(f"tag {name} value {brief_repr(value)} contains a line break")
        lines = section_lines(section) if section is not None else None
        t = self.tag(name)
        if t is None:
            t = Tag(name, value, lines or None, list(comments) if comments else None)
            self.tag_list.insert(self._insert_index(name, before), t)
        else:
            t.value = value
            t.raw_value = None
            if lines is not None:
                t.section = lines
                t.section_lines = None
            if comments is not None:
                t.comments = list(comments)
        if t.section_view() and t.comments_view():
            # As the reader sees it: comments before section data are part of the section.
            t.section = [x for c in t.comments for x in c.split("\n")] + t.section
            t.comments = []
            t.section_lines = None
        return t

    def remove_tag(self, name: str) -> bool:
        """Remove every tag ``name`` (with its section); for ``Auction`` and ``Play`` also
        the ``Note`` tags of that section.  Returns whether anything was removed."""
        removed = False
        keep: list[Tag] = []
        dropping_notes = False
        for t in self.tag_list:
            if t.name == name:
                removed = True
                dropping_notes = name in ("Auction", "Play")
                continue
            if t.name == "Note" and dropping_notes:
                continue
            if t.name != "Note":
                dropping_notes = False
            keep.append(t)
        self.tag_list = keep
        return removed

    def set_notes(self, section: str, notes: dict[int, str]) -> None:
        """Replace the ``Note`` tags of the ``"Auction"`` or ``"Play"`` section with
        ``notes`` (number -> text), placed right after that section's tag.

        :raises PBNError: if the game has no such section or ``section`` is neither.
        """
        if section not in ("Auction", "Play"):
            raise PBNError(f"notes belong to the Auction or Play section, "
                           f"not {brief_repr(section)}")
        idx = next((i for i, t in enumerate(self.tag_list) if t.name == section), None)
        if idx is None:
            raise PBNError(f"the game has no {section} tag")
        j = idx + 1
        while j < len(self.tag_list) and self.tag_list[j].name == "Note":
            j += 1
        new = [Tag("Note", f"{n}:{text}") for n, text in sorted(notes.items())]
        self.tag_list[idx + 1:j] = new

    def _insert_index(self, name: str, before: str | None) -> int:
        if before is not None:
            for i, t in enumerate(self.tag_list):
                if t.name == before:
                    return i
        if name in MANDATORY_TAGS:
            rank = MANDATORY_TAGS.index(name)
            for i, t in enumerate(self.tag_list):
                if t.name in MANDATORY_TAGS and MANDATORY_TAGS.index(t.name) > rank:
                    return i
                if t.name in ("Auction", "Play", "Note"):
                    return i
        if name in dd_tags.ANALYSIS_TAGS:
            # The order BridgeComposer writes: DoubleDummyTricks, OptimumScore,
            # ParContract, then the OptimumResultTable section.
            later = dd_tags.ANALYSIS_TAGS[dd_tags.ANALYSIS_TAGS.index(name) + 1:]
            for i, t in enumerate(self.tag_list):
                if t.name in later:
                    return i
        return len(self.tag_list)

    # -- parsed values -------------------------------------------------------------------
    def _where(self, tag: Tag | None = None, line: int | None = None) -> str:
        parts = []
        if self.source:
            parts.append(self.source)
        ln = line if line is not None else (tag.line if tag is not None else self.line)
        if ln is not None:
            parts.append(f"line {ln}")
        board = self.get("Board")
        if board not in (None, "", "?"):
            parts.append(f"board {board}")
        elif self.index is not None:
            parts.append(f"game {self.index} (no board number)")
        return ", ".join(parts) if parts else "PBN game"

    def _error(self, tag: Tag | None, message: str, line: int | None = None) -> PBNError:
        return PBNError(f"{self._where(tag, line)}: {message}")

    @property
    def board(self) -> int | None:
        """The board number (``Board`` tag), or ``None`` when absent, empty, ``?`` or not a
        positive integer below 10**9."""
        value = (self.get("Board") or "").strip()
        if value.isascii() and value.isdigit() and 0 < _number(value) < 10**9:
            return _number(value)
        return None

    @property
    def dealer(self) -> Seat | None:
        """The dealer (``Dealer`` tag), or ``None`` when absent, empty or ``?``.

        :raises PBNError: for a value that is no seat.
        """
        return self._seat_tag("Dealer")

    def _seat_tag(self, name: str) -> Seat | None:
        t = self.tag(name)
        if t is None:
            return None
        value = t.value.strip().lstrip("^").strip()
        if value in ("", "?"):
            return None
        try:
            return Seat.from_str(value)
        except InvalidNotationError:
            raise self._error(t, f"unknown seat {brief_repr(t.value)} in the {name} tag") from None

    @property
    def vulnerability(self) -> Vulnerability | None:
        """The vulnerability (``Vulnerable`` tag: ``None``/``Love``/``-``, ``NS``, ``EW``,
        ``All``/``Both``), or ``None`` when absent, empty or ``?``.

        :raises PBNError: for any other value.
        """
        t = self.tag("Vulnerable")
        if t is None or t.value.strip() in ("", "?"):
            return None
        try:
            return Vulnerability.from_str(t.value)
        except InvalidNotationError:
            raise self._error(t, f"bad vulnerability {brief_repr(t.value)} in the Vulnerable tag") \
                from None

    @property
    def deal(self) -> Deal | None:
        """The deal (``Deal`` tag; unknown hands ``-`` are ``None``; an end position has
        fewer than 13 cards a hand), or ``None`` when absent, empty or ``?``.

        :raises PBNError: for a deal that cannot be read or is inconsistent.
        """
        t = self.tag("Deal")
        if t is None or t.value.strip() in ("", "?"):
            return None
        cached = self._deal_cache
        if cached is not None and cached[0] == t.value:
            return cached[1]     # a Deal is immutable: the same one is safe to give again
        try:
            deal = Deal.from_pbn(t.value)
        except BridgeError as exc:
            raise self._error(t, f"bad deal {brief_repr(t.value)}: {exc}") from None
        self._deal_cache = (t.value, deal)
        return deal

    def set_deal(self, deal: Deal) -> None:
        """Write ``deal`` in the ``Deal`` tag, starting from the dealer (export format)."""
        first = self.dealer or Seat.NORTH
        self.set_tag("Deal", deal.to_pbn(first))

    @property
    def declarer(self) -> Seat | None:
        """The declarer: the ``Declarer`` tag (``^S`` read as South, PBN 2.1 section
        3.4.13), else the declarer of the finished, legal auction, else ``None``.

        :raises PBNError: for a bad seat.
        """
        seat = self._seat_tag("Declarer")
        if seat is not None:
            return seat
        auction = self._auction_for_outcome()
        if auction is not None and auction.declarer is not None:
            return auction.declarer
        return None

    def _auction_for_outcome(self) -> Auction | None:
        if self.tag("Auction") is None:
            return None
        parsed = self.auction
        if parsed is None or parsed.auction is None or not parsed.auction.is_finished:
            return None
        return parsed.auction

    @property
    def passed_out(self) -> bool:
        """``Contract`` is ``Pass``, or the auction was passed out."""
        value = (self.get("Contract") or "").strip().upper()
        if value == "PASS":
            return True
        if value in ("", "?"):
            auction = self._auction_for_outcome()
            return auction is not None and bool(auction.is_passed_out)
        return False

    @property
    def contract(self) -> Contract | None:
        """The contract (``Contract`` tag, with :attr:`declarer` filled in), else that of
        the finished, legal auction; ``None`` when passed out, unknown, or only a strain
        is given (an end position: see :attr:`trump`).

        :raises PBNError: for a value that is no contract.
        """
        t = self.tag("Contract")
        value = "" if t is None else t.value.strip()
        if value.upper() == "PASS":
            return None
        if value in ("", "?"):
            auction = self._auction_for_outcome()
            if auction is not None and auction.contract is not None:
                return auction.contract
            return None
        if value.upper() in ("C", "D", "H", "S", "N", "NT"):
            return None
        try:
            contract = Contract.from_str(value)
        except InvalidNotationError:
            raise self._error(t, f"bad contract {brief_repr(t.value)} "
                                 f"in the Contract tag") from None
        declarer = self._seat_tag("Declarer")
        if declarer is None and contract.declarer is None:
            auction = self._auction_for_outcome()
            if auction is not None:
                declarer = auction.declarer
        if declarer is not None and contract.declarer is None:
            contract = Contract(contract.level, contract.strain, contract.doubled, declarer)
        return contract

    @property
    def trump(self) -> Strain | None:
        """The trump strain: the contract's, or the bare strain of an end position's
        ``Contract`` tag (PBN 2.1 section 3.10); ``None`` when unknown."""
        value = (self.get("Contract") or "").strip().upper()
        if value in ("C", "D", "H", "S", "N", "NT"):
            return Strain.from_str(value)
        contract = self.contract
        return None if contract is None else contract.strain

    @property
    def result(self) -> int | None:
        """Tricks taken by declarer's side (``Result`` tag, PBN 2.1 section 3.4.15), or
        ``None`` when absent, empty, ``?`` or passed out.  ``NS n``/``EW n`` forms are
        converted with the declarer's side (``13 - n`` when only the other side is given);
        a leading ``^`` (result differs from the play) is ignored.

        :raises PBNError: for a value of another form or a number above 13.
        """
        t = self.tag("Result")
        if t is None or t.value.strip() in ("", "?"):
            return None
        m = _RESULT_RE.match(t.value.strip())
        if m is None:
            raise self._error(t, f"bad result {brief_repr(t.value)} in the Result tag")
        plain, side1, n1, side2, n2 = m.groups()
        numbers = [_number(x) for x in (plain, n1, n2) if x is not None]
        if any(n > 13 for n in numbers):
            raise self._error(t, f"bad result {brief_repr(t.value)}: more than 13 tricks")
        if plain is not None:
            return _number(plain)
        by_side = {side1.upper(): _number(n1)}
        if side2 is not None:
            by_side[side2.upper()] = _number(n2)
        declarer = self.declarer
        if declarer is None:
            return None
        mine = "NS" if declarer in (Seat.NORTH, Seat.SOUTH) else "EW"
        theirs = "EW" if mine == "NS" else "NS"
        if mine in by_side:
            return by_side[mine]
        return 13 - by_side[theirs]

    # -- auction -------------------------------------------------------------------------
    def _section_notes(self, section: str) -> tuple[dict[int, str], list[Tag]]:
        """The notes that belong to ``section`` ("Auction" or "Play"): Note tags after the
        most recent Auction/Play tag; notes before either belong to the auction."""
        notes: dict[int, str] = {}
        tags: list[Tag] = []
        owner = "Auction"
        for t in self.tag_list:
            if t.name in ("Auction", "Play"):
                owner = t.name
            elif t.name == "Note" and owner == section:
                number, text = self._note_pair(t)
                if number in notes:
                    self._warn(f"note {number} given twice in the {section} section")
                else:
                    notes[number] = text
                tags.append(t)
        return notes, tags

    def _note_pair(self, t: Tag) -> tuple[int, str]:
        m = _NOTE_VALUE_RE.match(t.value)
        if m is None:
            raise self._error(t, f"bad Note tag {brief_repr(t.value)}: "
                                 f"expected \"<number>:<text>\"")
        return _number(m.group(1)), m.group(2).strip()

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def _snapshot(self, section: str) -> Any:
        t = self.tag(section)
        if t is None:
            return None
        _, note_tags = self._section_notes(section)
        return (t.value, tuple(t.section_view()), tuple(n.value for n in note_tags),
                self.get("Dealer"))

    @property
    def auction(self) -> PBNAuction | None:
        """The parsed auction section (:class:`PBNAuction`), or ``None`` without one.

        :raises PBNError: for a bad seat in the tag, a bad call token, an annotation with
            nothing to annotate, or a call after the end marker.
        """
        t = self.tag("Auction")
        if t is None:
            return None
        if self._auction_override is not None:
            snap, parsed = self._auction_override
            if snap == self._snapshot("Auction"):
                return parsed
            self._auction_override = None
        return parse_auction(self, t)

    @property
    def calls(self) -> list[Call | None]:
        """The calls of the auction section in order (empty without one)."""
        parsed = self.auction
        return [] if parsed is None else parsed.calls

    def set_auction(self, calls: Iterable[Call | str | AnnotatedCall],
                    first: Seat | None = None, *, terminator: str = "") -> PBNAuction:
        """Write an auction section (export layout: four calls a line, dealer first) and
        its ``Note`` tags, replacing any previous one.

        :param calls: the calls in order, from ``first``: :class:`~ddsolver.auction.Call`,
            call text, or :class:`AnnotatedCall` (its ``note_text`` becomes a numbered
            ``Note``, equal texts sharing a number; its ``alert`` flag is kept on the
            returned object as long as the section is not changed).
        :param first: the seat of the first call; default the dealer (North if unknown).
        :param terminator: ``"*"`` or ``"+"`` to append (PBN 2.1 section 3.5), or ``""``.
        :returns: the auction as :attr:`auction` now reads it.
        :raises PBNError: for a call that cannot be read or a bad terminator.
        """
        first = Seat(first) if first is not None else (self.dealer or Seat.NORTH)
        lines, notes, numbered = auction_lines(calls, first, terminator)
        self.remove_tag("Auction")
        self.set_tag("Auction", first.letter, lines, before="Play")
        self.set_notes("Auction", notes)
        parsed = parse_auction(self, self.tag("Auction"))
        # Keep what PBN cannot say (LIN alerts) on the returned entries.
        if len(parsed.entries) == len(numbered):
            parsed.entries = [dataclasses.replace(p, alert=n.alert)
                              for p, n in zip(parsed.entries, numbered)]
        self._auction_override = (self._snapshot("Auction"), parsed)
        return parsed

    # -- play ----------------------------------------------------------------------------
    @property
    def play(self) -> PBNPlay | None:
        """The parsed play section (:class:`PBNPlay`), or ``None`` without one.

        :raises PBNError: for a bad seat in the tag, a bad card token, a card played twice,
            a card not in the hand of the seat whose column it is in, or an annotation with
            nothing to annotate.
        """
        t = self.tag("Play")
        if t is None:
            return None
        if self._play_override is not None:
            snap, parsed = self._play_override
            if snap == self._snapshot("Play"):
                return parsed
            self._play_override = None
        return parse_play(self, t)

    @property
    def play_sequence(self) -> list[PlayedCard]:
        """The played cards in the order played (see :meth:`PBNPlay.sequence`), using
        :attr:`trump` and :attr:`opening_leader`; empty without a play section.

        :raises PBNError: if there is a play section but the trump strain is unknown.
        """
        parsed = self.play
        if parsed is None:
            return []
        trump = self.trump
        if trump is None:
            raise self._error(self.tag("Play"), "the play needs a contract (trump strain)")
        return parsed.sequence(trump, self.opening_leader)

    @property
    def opening_leader(self) -> Seat | None:
        """Who leads to the first trick of the play section: declarer's left-hand
        opponent (WBF Law 54), or the seat of the ``Play`` tag for an end position (PBN 2.1
        section 3.10) or when the declarer is unknown; ``None`` without a play section."""
        parsed = self.play
        if parsed is None:
            return None
        deal = self.deal
        end_position = deal is not None and max(
            (len(h) for h in deal.hands if h is not None), default=13) < 13
        declarer = self.declarer
        if declarer is None or end_position:
            return parsed.first
        return declarer.lho

    def set_play(self, cards: Iterable[Card | str], leader: Seat | None = None,
                 trump: Strain | None = None, *, terminator: str | None = None
                 ) -> PBNPlay:
        """Write a play section from the cards in the order played, one row per trick
        laid out by seat from the opening leader (export format), ``-`` for cards not
        played in the last trick.

        :param leader: the opening leader; default declarer's left-hand opponent.
        :param trump: default the contract's strain (needed to find who wins each trick).
        :param terminator: ``"*"``, ``"+"`` or ``""``; default ``"*"`` when fewer than 52
            cards are given, else ``""``.
        :raises PBNError: if leader or trump cannot be found, or for a bad card.
        """
        if leader is None:
            declarer = self.declarer
            if declarer is None:
                raise PBNError("set_play needs the opening leader: no declarer known")
            leader = declarer.lho
        leader = Seat(leader)
        if trump is None:
            trump = self.trump
            if trump is None:
                raise PBNError("set_play needs the trump strain: no contract known")
        lines = play_lines(cards, leader, trump, terminator)
        self.remove_tag("Play")
        self.set_tag("Play", leader.letter, lines)
        return parse_play(self, self.tag("Play"))

    def check_play(self):
        """Replay the play section by the rules with :class:`ddsolver.play.Position`:
        every card in turn, held, following suit (WBF Laws 44, 61).  Cards marked as
        irregular (``^R``, ``^L``) stop the check there.

        :returns: the :class:`~ddsolver.play.Position` after the last card checked.
        :raises PBNError: for an illegal card (message names the card and the trick), or a
            game without a complete deal or trump strain.
        """
        deal = self.deal
        if deal is None or any(h is None for h in deal.hands):
            raise self._error(self.tag("Play"), "checking the play needs all four hands")
        parsed = self.play
        trump = self.trump
        if parsed is None or trump is None:
            raise self._error(self.tag("Play"), "checking the play needs a Play section "
                                                  "and a contract")
        try:
            pos = Position.from_remaining(deal, trump, self.opening_leader)
        except BridgeError as exc:
            raise self._error(self.tag("Deal"), f"cannot start the play: {exc}") from None
        for k, pc in enumerate(parsed.sequence(trump, self.opening_leader)):
            if pc.irregularity:
                break
            try:
                pos.play(pc.card, seat=pc.seat)
            except BridgeError as exc:
                raise self._error(self.tag("Play"),
                                  f"trick {k // 4 + 1}: {pc.seat.name.title()} cannot play "
                                  f"{pc.card}: {exc}", pc.line) from None
        return pos

    def _section_seat(self, t: Tag) -> Seat:
        value = t.value.strip()
        if value in ("", "?"):
            dealer = self.dealer
            if t.name == "Auction" and dealer is not None:
                return dealer
            if t.name == "Play":
                declarer = self.declarer
                if declarer is not None:
                    return declarer.lho
            raise self._error(t, f"the {t.name} tag gives no seat")
        try:
            return Seat.from_str(value)
        except InvalidNotationError:
            raise self._error(t, f"unknown seat {brief_repr(t.value)} "
                                 f"in the {t.name} tag") from None

    # -- double-dummy tags ----------------------------------------------------------------
    def set_double_dummy(self, table: Any) -> None:
        """Add (or replace) the ``DoubleDummyTricks`` tag and the ``OptimumResultTable``
        section (PBN 2.1, section 5.7) from a double-dummy table.

        :param table: anything indexed ``table[strain, seat]`` -> tricks for that declarer
            (a :class:`~ddsolver.solver.DDTable`, a ``(5, 4)`` array with rows C, D, H, S,
            NT and columns N, E, S, W, or a dict keyed by ``(Strain, Seat)``).
        :raises PBNError: for a trick count outside 0..13.
        """
        dd_tags.write_dd_tags(self, table)

    def set_par(self, result: Any) -> None:
        """Add (or replace) the ``OptimumScore`` and ``ParContract`` tags from a par result
        (:class:`ddsolver.par.ParResult`), as :func:`ddsolver.pbn.dd_tags.par_tags` writes them.

        :raises PBNError: for a result that cannot be written.
        """
        dd_tags.write_par_tags(self, result)

    # -- validation and comparison -------------------------------------------------------
    def validate(self) -> PBNGame:
        """Parse every part once (board, dealer, vulnerability, deal, auction, play,
        contract, declarer, result, notes), so that errors surface now.

        :returns: ``self``.
        :raises PBNError: naming the line and board of the first problem.
        """
        for name in ("notes", "dealer", "vulnerability", "deal", "auction", "declarer",
                     "result", "play"):
            getattr(self, name)
        contract = self.contract
        value = (self.get("Board") or "").strip()
        if value not in ("", "?") and self.board is None:
            self._warn(f"board number {brief_repr(value)} is not a positive integer")
        if contract is not None and self.tag("Contract") is not None:
            auction = self._auction_for_outcome()
            if auction is not None and auction.contract is not None:
                tag_c = (contract.level, contract.strain, contract.doubled)
                auc = auction.contract
                if tag_c != (auc.level, auc.strain, auc.doubled):
                    self._warn(f"Contract tag {brief_repr(self.get('Contract'))} differs from the "
                               f"auction's contract {auc}")
        if (self.play is not None and self.trump is not None and self.deal is not None
                and all(h is not None for h in self.deal.hands)):
            # a recorded revoke (or a card out of turn) is kept as written, with a warning
            try:
                self.check_play()
            except PBNError as exc:
                self._warn(f"the play breaks the rules: {exc}")
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PBNGame):
            return NotImplemented
        return (self.tag_list == other.tag_list
                and (self._preamble or []) == (other._preamble or [])
                and (self._escapes or []) == (other._escapes or [])
                and self.raw_text == other.raw_text)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        bits = [f"{t.name}={t.value!r}" for t in self.tag_list
                if t.name in ("Board", "Dealer", "Vulnerable", "Deal", "Contract")]
        return f"<PBNGame {' '.join(bits)}>"

    def to_pbn(self, newline: str = "\n") -> str:
        """This game alone as PBN text (no ``% PBN`` header line)."""
        from .writer import game_lines

        return newline.join(game_lines(self)) + newline

    def copy(self) -> PBNGame:
        """A deep copy of the tags, comments and escape lines."""
        game = PBNGame([Tag(t.name, t.value, list(t.section_view()), list(t.comments_view()),
                            t.raw_value,
                            t.line, None if t.section_lines is None else list(t.section_lines))
                        for t in self.tag_list],
                       preamble=self._preamble, escapes=self._escapes)
        game._warnings = list(self._warnings) if self._warnings else None
        game.index, game.line, game.source = self.index, self.line, self.source
        game.claim = self.claim
        game.lin = None if self.lin is None else dict(self.lin)
        game.error, game.raw_text = self.error, self.raw_text
        game.file_header = self.file_header
        return game


