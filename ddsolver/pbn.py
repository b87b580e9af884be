"""PBN 2.1 (Portable Bridge Notation) reader and writer.

The reader takes PBN *import format* (PBN 2.1, section 2.1) as real programs write it:
several games per file separated by semi-empty lines (section 3; a second ``Event`` or
``Board`` tag, or any tag repeated after the ``Deal``, with no empty line before it also
starts a new game, with a warning), ``%`` escape lines (2.4), ``{}`` comments over several
lines and ``;`` rest-of-line comments (3.8), tag pairs with stray white space such as
``[ Auction "E"]`` or spanning lines (3.3), CRLF or LF line ends, UTF-8 with or without
BOM, UTF-16 with a BOM, or Latin-1 (2.2), ``#``/``##`` inherited tag values (4.8), auction
sections with ``=n=`` note references, ``[Note "n:text"]`` tags, NAGs, suffixes, ``AP``,
``*``, ``+`` and ``-`` (3.5, 3.7), play sections laid out trick by trick with ``-``, ``+``
and ``*`` (3.6), irregularities ``^I ^S ^R ^L`` (3.9), end positions (3.10) and
supplemental sections such as ``OptimumResultTable`` or ``ScoreTable`` (chapter 5), which
are kept verbatim.

Each game becomes a :class:`PBNGame`: its tags in file order (:class:`Tag`: name, value,
the section lines after it and the comments after it), plus parsed views
(:attr:`PBNGame.board`, :attr:`~PBNGame.dealer`, :attr:`~PBNGame.deal`,
:attr:`~PBNGame.auction`, :attr:`~PBNGame.play`, :attr:`~PBNGame.contract`, ...).
A malformed file raises :class:`~ddsolver.errors.PBNError` naming the line and the board;
no game is ever dropped silently.

The writer (:func:`dumps_pbn`, :func:`write_pbn`) writes every tag, section and comment
back in its original order, unknown tags included, with resolved (no longer inherited)
tag values, so that each written game stands alone.

Example::

    games = read_pbn("club.pbn")
    g = games[0]
    g.board, g.dealer, g.deal          # 1, Seat.NORTH, Deal.from_pbn(...)
    g.set_tag("ParContract", "EW 3N+1")
    write_pbn(games, "club.pbn")       # atomic replace

Source: PBN standard 2.1, Tis Veugen and Kaj G Backas (2007, text of 2017.02.14).
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import (
    IO,
    TYPE_CHECKING,
    Any,
    Union,
)

from ._io import atomic_write_bytes, decode_text
from .cards import Card, Rank, Strain, Suit
from .deal import Deal
from .errors import BridgeError, InvalidNotationError, PBNError
from .table import Seat, Vulnerability

if TYPE_CHECKING:  # pragma: no cover
    from .auction import Auction, Call
    from .scoring import Contract

__all__ = [
    "MANDATORY_TAGS",
    "AnnotatedCall",
    "Board",
    "PBNAuction",
    "PBNGame",
    "PBNPlay",
    "PlayedCard",
    "Tag",
    "dd_tricks_from_pbn",
    "dd_tricks_to_pbn",
    "dumps_pbn",
    "optimum_result_table",
    "par_tags",
    "parse_optimum_result_table",
    "parse_pbn",
    "read_pbn",
    "write_pbn",
]

#: The 15 tags of the Mandatory Tag Set, in export order (PBN 2.1, section 3.4).
MANDATORY_TAGS = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
    "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
)

#: Tags that, met a second time in a game, start the next game (so does any tag met again
#: once the game has its Deal): a file whose games are not separated by empty lines (PBN
#: 2.1, section 3) would otherwise lose all but the first.
_GAME_START_TAGS = frozenset(["Event", "Board"])

#: Tags whose value may not be inherited with ``#`` or ``##`` (PBN 2.1, section 4.8).
_NO_INHERIT = frozenset(
    ["Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"])

#: NAG numbers of the suffix annotations (PBN 2.1, sections 3.5.3, 3.6.3, 3.7).
_CALL_SUFFIX_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_CARD_SUFFIX_NAG = {"!": 7, "?": 8, "!!": 9, "??": 10, "!?": 11, "?!": 12}

_ANALYSIS_TAGS = ("DoubleDummyTricks", "OptimumScore", "ParContract", "OptimumResultTable")

_NAME_RE = re.compile(r"[A-Za-z0-9_]+")
_NOTE_VALUE_RE = re.compile(r"\s*(\d+)\s*:(.*)\Z", re.DOTALL)
_RESULT_RE = re.compile(
    r"\^?\s*(?:(\d+)|(NS|EW)\s+(\d+)(?:\s+(NS|EW)\s+(\d+))?)\Z", re.IGNORECASE)
_NOTE_TOKEN_RE = re.compile(r"=(\d+)=")
_NAG_TOKEN_RE = re.compile(r"\$(\d+)")
_BOARD_HINT_RE = re.compile(r'\[\s*Board\s*"([^"\n]*)"')

PathOrFile = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


# ---------------------------------------------------------------------------------------
# Data model
# ---------------------------------------------------------------------------------------

@dataclass
class Tag:
    """One tag pair of a game with what follows it up to the next tag.

    :ivar name: the tag name (``"Deal"``, ``"Auction"``, ``"DoubleDummyTricks"``...).
    :ivar value: the tag value, unescaped, with ``#``/``##`` inheritance resolved.
    :ivar section: the lines of the tag's section (auction calls, played cards, table rows
        of ``OptimumResultTable`` or of any unknown tag), verbatim including comments inside
        them, trailing white space removed.  Empty for a plain tag.
    :ivar comments: comments that follow a tag without section data, each verbatim with its
        delimiters (``"{ text }"`` or ``"; text"``).
    :ivar raw_value: the value as written in the file (``"#"``, ``"##Pairs"``) when it
        differs from :attr:`value`; ``None`` otherwise.  Not compared.
    :ivar line: the line number of the tag in its file (1-based), if read from a file.
    :ivar section_lines: the line numbers of the :attr:`section` lines, if read from a file.
    """

    name: str
    value: str
    section: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    raw_value: str | None = field(default=None, compare=False, repr=False)
    line: int | None = field(default=None, compare=False, repr=False)
    section_lines: list[int] | None = field(default=None, compare=False, repr=False)

    def to_pbn(self) -> str:
        """The tag pair in export form: ``[Name "value"]`` (quotes and backslashes escaped
        where needed, PBN 2.1 section 3.2)."""
        return f'[{self.name} "{_escape_value(self.value)}"]'


@dataclass(frozen=True)
class AnnotatedCall:
    """One call of an auction section with its annotations (PBN 2.1, sections 3.5, 3.9).

    :ivar seat: the seat that made the call.
    :ivar call: the :class:`~ddsolver.auction.Call`, or ``None`` for a call left open: an
        ``AC`` ("any call") placeholder as bidding-contest files written by BridgeComposer
        and edited by hand contain, or a ``^S`` skipped turn.
    :ivar token: the call as written (``"1NT"``, ``"Pass"``, ``"AP"`` for passes implied by
        all-pass, ``"AC"``, ``"^S"``).
    :ivar note: the note reference ``=n=``, if any; :attr:`note_text` is its explanation
        from the matching ``[Note "n:text"]`` tag (or a LIN ``an`` explanation).
    :ivar nags: NAG numbers, suffixes ``! ? !! ?? !? ?!`` translated to ``$1..$6``.
    :ivar alert: the call was alerted (LIN ``!``); PBN itself marks alerts with notes.
    :ivar comments: comments written after the call, verbatim.
    :ivar irregularity: ``"I"`` for an insufficient bid accepted by the opponents (``^I``),
        ``"S"`` for a turn skipped by a call out of rotation (``^S``), else ``None``.
    :ivar implied: this pass was not written but implied by ``AP``.
    """

    seat: Seat
    call: Call | None
    token: str = ""
    note: int | None = None
    note_text: str | None = None
    nags: tuple[int, ...] = ()
    alert: bool = False
    comments: tuple[str, ...] = ()
    irregularity: str | None = None
    implied: bool = False
    line: int | None = field(default=None, compare=False, repr=False)

    @property
    def explanation(self) -> str | None:
        """The explanation of the call: the text of its note, if any."""
        return self.note_text

    def __str__(self) -> str:
        return self.token if self.call is None else str(self.call)


@dataclass
class PBNAuction:
    """The auction section of a game, parsed (PBN 2.1, section 3.5).

    Iterating or indexing gives the :class:`AnnotatedCall` entries in the order made;
    ``AP`` is expanded into the passes it stands for.

    :ivar first: the seat in the ``Auction`` tag (the first column; the dealer in export
        format).  Leading ``-`` tokens skip seats before the first call.
    :ivar entries: the calls with their annotations.
    :ivar terminator: ``"AP"`` (ended by all pass), ``"*"`` (no more calls will be given),
        ``"+"`` (to be continued) or ``""``.
    :ivar notes: note number -> text of the ``Note`` tags of the auction.
    :ivar auction: a legal :class:`~ddsolver.auction.Auction` from the dealer replaying
        every call, or ``None`` when that is impossible (see :attr:`problem`).
    :ivar problem: why :attr:`auction` is ``None`` (an open ``AC`` call, an irregularity,
        an illegal call, a first call by a player other than the dealer), else ``None``.
    :ivar comments: comments before the first call.
    """

    first: Seat
    entries: list[AnnotatedCall] = field(default_factory=list)
    terminator: str = ""
    notes: dict[int, str] = field(default_factory=dict)
    auction: Auction | None = field(default=None, compare=False)
    problem: str | None = field(default=None, compare=False)
    comments: list[str] = field(default_factory=list)

    @property
    def calls(self) -> list[Call | None]:
        """The calls in order (``None`` for an open ``AC``/``^S`` entry)."""
        return [e.call for e in self.entries]

    @property
    def opener(self) -> Seat | None:
        """The seat of the first entry (the dealer, in a regular auction)."""
        return self.entries[0].seat if self.entries else None

    @property
    def is_finished(self) -> bool:
        """The auction ended: by the rules (three passes after a bid, four at the start),
        by ``AP``, or by ``*``."""
        if self.terminator in ("AP", "*"):
            return True
        if self.auction is not None:
            return bool(self.auction.is_finished)
        return _passes_to_end(self.entries) == 0

    def __iter__(self) -> Iterator[AnnotatedCall]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, index):
        return self.entries[index]


@dataclass(frozen=True)
class PlayedCard:
    """One card token of a play section with its annotations (PBN 2.1, section 3.6).

    :ivar seat: the seat whose column the token is in.
    :ivar card: the :class:`~ddsolver.cards.Card`, or ``None`` for ``-`` (unknown or not
        played yet) and ``+`` (the next card, to be continued).
    :ivar token: the token as written (``"SK"``, ``"-"``, ``"+"``).
    :ivar note, note_text, nags, comments: as for :class:`AnnotatedCall` (suffixes become
        NAGs ``$7..$12``).
    :ivar irregularity: ``"R"`` for a revoke (``^R``), ``"L"`` for a lead out of turn
        (``^L``), else ``None``.
    """

    seat: Seat
    card: Card | None
    token: str = ""
    note: int | None = None
    note_text: str | None = None
    nags: tuple[int, ...] = ()
    comments: tuple[str, ...] = ()
    irregularity: str | None = None
    line: int | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return self.token if self.card is None else str(self.card)


@dataclass
class PBNPlay:
    """The play section of a game, parsed (PBN 2.1, section 3.6).

    :ivar first: the seat in the ``Play`` tag: the seat of the first column (the opening
        leader in export format).
    :ivar tricks: the rows as laid out, one per trick, each a list of up to four
        :class:`PlayedCard` by column (column ``i`` is seat ``first.next(i)``, whoever led
        the trick).  The last row may be shorter.
    :ivar terminator: ``"*"`` (no more cards will be given), ``"+"`` (a ``+`` marks the
        next card: to be continued) or ``""``.
    :ivar notes: note number -> text of the ``Note`` tags of the play.
    :ivar comments: comments before the first card.
    """

    first: Seat
    tricks: list[list[PlayedCard]] = field(default_factory=list)
    terminator: str = ""
    notes: dict[int, str] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)

    @property
    def cards(self) -> list[Card]:
        """Every card given (not ``-`` or ``+``), row by row, column by column."""
        return [pc.card for row in self.tricks for pc in row if pc.card is not None]

    def __len__(self) -> int:
        """The number of cards given."""
        return len(self.cards)

    def sequence(self, trump: Strain, leader: Seat | None = None) -> list[PlayedCard]:
        """The cards in the order played: trick by trick, each from its leader clockwise.

        The first trick is led by ``leader`` (default :attr:`first`); each later trick by
        the winner of the previous one (highest trump, else highest card of the suit led:
        WBF Law 44), or by the seat of a card marked ``^L`` (lead out of turn, PBN 2.1
        section 3.9).  The sequence stops at the first unknown card (``-`` or ``+``), since
        the winner of a trick with an unknown card cannot be told.

        :param trump: the trump strain (``Strain.NOTRUMP`` for none).
        """
        from .play import _trick_winner

        out: list[PlayedCard] = []
        leader = self.first if leader is None else Seat(leader)
        for row in self.tricks:
            by_seat = {pc.seat: pc for pc in row}
            for pc in row:
                if pc.irregularity == "L":
                    leader = pc.seat
            ordered = [by_seat.get(leader.next(i)) for i in range(4)]
            for pc in ordered:
                if pc is None or pc.card is None:
                    return out
                out.append(pc)
            leader = _trick_winner([pc.card for pc in ordered], leader, trump)
        return out


# ---------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------

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

    Parsed views (computed from the tags on each access; each raises
    :class:`~ddsolver.errors.PBNError` naming line and board for a bad value):
    :attr:`board`, :attr:`dealer`, :attr:`vulnerability`, :attr:`deal`, :attr:`auction`
    (:class:`PBNAuction`), :attr:`calls`, :attr:`contract`, :attr:`declarer`,
    :attr:`trump`, :attr:`result`, :attr:`passed_out`, :attr:`play` (:class:`PBNPlay`),
    :attr:`opening_leader`, :attr:`play_sequence`, :attr:`notes`, :attr:`comments`.
    Changes go through :meth:`set_tag`, :meth:`remove_tag`, :meth:`set_deal`,
    :meth:`set_auction`, :meth:`set_play`, :meth:`set_notes`, :meth:`set_double_dummy`
    and :meth:`set_par`.

    Two games compare equal when their tags (names, values, sections, comments), preamble
    and escape lines are equal.
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
        self.preamble: list[str] = list(preamble or [])
        self.escapes: list[str] = list(escapes or [])
        self.warnings: list[str] = []
        self.index: int | None = None
        self.line: int | None = None
        self.source: str | None = None
        self.claim: int | None = None
        self.lin: dict[str, Any] | None = None
        self._auction_override: tuple[Any, PBNAuction] | None = None
        self._play_override: tuple[Any, PBNPlay] | None = None

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
        from .table import board_dealer, board_vulnerability

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
        return {t.name: list(t.section) for t in self.tag_list
                if t.section and t.name != "Note"}

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
        raw = list(self.preamble)
        for t in self.tag_list:
            raw.extend(t.comments)
        return [_comment_text(c) for c in raw]

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
        if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
            raise PBNError(f"invalid tag name {name!r}: letters, digits and '_' only")
        if name == "Note":
            raise PBNError("Note tags belong to a section: use set_notes()")
        value = "" if value is None else str(value)
        if "\n" in value or "\r" in value:
            raise PBNError(f"tag {name} value {value!r} contains a line break")
        lines = _section_lines(section) if section is not None else None
        t = self.tag(name)
        if t is None:
            t = Tag(name, value, lines or [], list(comments or []))
            self.tag_list.insert(self._insert_index(name, before), t)
        else:
            t.value = value
            t.raw_value = None
            if lines is not None:
                t.section = lines
                t.section_lines = None
            if comments is not None:
                t.comments = list(comments)
        if t.section and t.comments:
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
            raise PBNError(f"notes belong to the Auction or Play section, not {section!r}")
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
        if name in _ANALYSIS_TAGS:
            # The order BridgeComposer writes: DoubleDummyTricks, OptimumScore,
            # ParContract, then the OptimumResultTable section.
            later = _ANALYSIS_TAGS[_ANALYSIS_TAGS.index(name) + 1:]
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
        positive integer."""
        value = (self.get("Board") or "").strip()
        if value.isdigit() and int(value) > 0:
            return int(value)
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
            raise self._error(t, f"unknown seat {t.value!r} in the {name} tag") from None

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
            raise self._error(t, f"bad vulnerability {t.value!r} in the Vulnerable tag") \
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
        try:
            return Deal.from_pbn(t.value)
        except BridgeError as exc:
            raise self._error(t, f"bad deal {t.value!r}: {exc}") from None

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
        from .scoring import Contract

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
            raise self._error(t, f"bad contract {t.value!r} in the Contract tag") from None
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
            raise self._error(t, f"bad result {t.value!r} in the Result tag")
        plain, side1, n1, side2, n2 = m.groups()
        numbers = [int(x) for x in (plain, n1, n2) if x is not None]
        if any(n > 13 for n in numbers):
            raise self._error(t, f"bad result {t.value!r}: more than 13 tricks")
        if plain is not None:
            return int(plain)
        by_side = {side1.upper(): int(n1)}
        if side2 is not None:
            by_side[side2.upper()] = int(n2)
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
            raise self._error(t, f"bad Note tag {t.value!r}: expected \"<number>:<text>\"")
        return int(m.group(1)), m.group(2).strip()

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def _snapshot(self, section: str) -> Any:
        t = self.tag(section)
        if t is None:
            return None
        _, note_tags = self._section_notes(section)
        return (t.value, tuple(t.section), tuple(n.value for n in note_tags), self.get("Dealer"))

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
        return self._parse_auction(t)

    @property
    def calls(self) -> list[Call | None]:
        """The calls of the auction section in order (empty without one)."""
        parsed = self.auction
        return [] if parsed is None else parsed.calls

    def _parse_auction(self, t: Tag) -> PBNAuction:
        from .auction import Call

        first = self._section_seat(t)
        notes, _ = self._section_notes("Auction")
        parsed = PBNAuction(first=first, notes=notes)
        seat = first
        entries: list[dict[str, Any]] = []
        pending_irr: str | None = None
        started = False
        for kind, text, line in _section_tokens(self, t):
            if kind == "comment":
                if entries:
                    entries[-1]["comments"].append(text)
                else:
                    parsed.comments.append(text)
                continue
            if kind in ("note", "nag", "suffix"):
                if not entries:
                    raise self._error(t, f"annotation {text!r} before any call in the "
                                         f"Auction section", line)
                _annotate(entries[-1], kind, text, _CALL_SUFFIX_NAG)
                continue
            if parsed.terminator:
                raise self._error(t, f"{text!r} after the end of the auction "
                                     f"({parsed.terminator!r})", line)
            if kind == "star":
                parsed.terminator = "*"
                continue
            if kind == "plus":
                parsed.terminator = "+"
                continue
            if kind == "irregularity":
                letter = text[1].upper()
                if letter == "I":
                    pending_irr = "I"
                elif letter == "S":
                    entries.append(_entry(seat, None, "^S", irregularity="S", line=line))
                    seat = seat.next()
                    started = True
                else:
                    raise self._error(t, f"irregularity {text!r} belongs to the play, not "
                                         f"the auction", line)
                continue
            if kind != "word":
                raise self._error(t, f"unexpected {text!r} in the Auction section", line)
            upper = text.upper()
            if upper == "-":
                if started:
                    raise self._error(t, "'-' after the first call of the Auction section",
                                      line)
                seat = seat.next()
                continue
            if upper == "AP":
                for _ in range(_passes_to_end([_Pending(e) for e in entries])):
                    entries.append(_entry(seat, Call.from_str("Pass"), "AP", implied=True,
                                          line=line))
                    seat = seat.next()
                parsed.terminator = "AP"
                started = True
                continue
            if upper == "AC":
                call = None
            else:
                try:
                    call = Call.from_str(text)
                except (InvalidNotationError, ValueError):
                    raise self._error(t, f"bad call {text!r} in the Auction section",
                                      line) from None
            entries.append(_entry(seat, call, text, irregularity=pending_irr, line=line))
            pending_irr = None
            seat = seat.next()
            started = True
        if pending_irr is not None:
            raise self._error(t, "'^I' without a bid after it in the Auction section")
        parsed.entries = [_freeze_call(e, notes) for e in entries]
        for e in parsed.entries:
            if e.note is not None and e.note not in notes:
                self._warn(f"note reference ={e.note}= in the Auction section has no Note "
                           f"tag")
        self._replay_auction(t, parsed, [e.get("line") for e in entries])
        return parsed

    def _replay_auction(self, t: Tag, parsed: PBNAuction, lines: list[int | None]) -> None:
        """Build :attr:`PBNAuction.auction`.  Open calls (``AC``, ``^S``) and marked
        irregularities (``^I``) leave it ``None`` with a :attr:`~PBNAuction.problem`;
        anything else that breaks the rules is an error (PBN 2.1 sections 3.5, 3.9)."""
        from .auction import Auction

        dealer = self.dealer
        if not parsed.entries:
            parsed.auction = Auction(dealer if dealer is not None else parsed.first)
            return
        opener = parsed.entries[0].seat
        if dealer is None:
            dealer = opener
        if opener != dealer:
            raise self._error(t, f"the first call is {opener.name}'s, but the dealer is "
                                 f"{dealer.name} (use '-' for the seats before the dealer)",
                              lines[0])
        auction = Auction(dealer)
        for e, line in zip(parsed.entries, lines):
            if e.call is None:
                parsed.problem = "the auction has calls left open (AC or ^S)"
                return
            if e.irregularity:
                parsed.problem = "the auction has an insufficient bid accepted (^I)"
                return
            try:
                auction.add(e.call)
            except BridgeError as exc:
                raise self._error(t, f"illegal call {e.token!r} by {e.seat.name} in the "
                                     f"Auction section: {exc}", line) from None
        parsed.auction = auction

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
        from .auction import Call

        if terminator not in ("", "*", "+"):
            raise PBNError(f"bad auction terminator {terminator!r}: '', '*' or '+'")
        first = Seat(first) if first is not None else (self.dealer or Seat.NORTH)
        entries: list[AnnotatedCall] = []
        seat = first
        for c in calls:
            if isinstance(c, AnnotatedCall):
                entries.append(AnnotatedCall(
                    seat, c.call, c.token or str(c), c.note, c.note_text, tuple(c.nags),
                    c.alert, tuple(c.comments), c.irregularity, False))
            else:
                if isinstance(c, str):
                    try:
                        call = Call.from_str(c)
                    except (InvalidNotationError, ValueError):
                        raise PBNError(f"bad call {c!r}") from None
                else:
                    call = c
                entries.append(AnnotatedCall(seat, call, str(call)))
            seat = seat.next()
        numbers: dict[str, int] = {}
        numbered: list[AnnotatedCall] = []
        for e in entries:
            if e.note_text is not None:
                n = numbers.setdefault(e.note_text, len(numbers) + 1)
                e = AnnotatedCall(e.seat, e.call, e.token, n, e.note_text, e.nags, e.alert,
                                  e.comments, e.irregularity, False)
            else:
                e = AnnotatedCall(e.seat, e.call, e.token, None, None, e.nags, e.alert,
                                  e.comments, e.irregularity, False)
            numbered.append(e)
        tokens = []
        for e in numbered:
            parts = []
            if e.irregularity == "I":
                parts.append("^I")
            parts.append(e.token if e.call is None else str(e.call))
            if e.note is not None:
                parts.append(f"={e.note}=")
            parts.extend(f"${n}" for n in sorted(e.nags))
            parts.extend(e.comments)
            tokens.append(" ".join(parts))
        lines = [" ".join(tokens[i:i + 4]) for i in range(0, len(tokens), 4)]
        if terminator:
            if lines and len(tokens) % 4:
                lines[-1] += " " + terminator
            else:
                lines.append(terminator)
        self.remove_tag("Auction")
        self.set_tag("Auction", first.letter, lines, before="Play")
        self.set_notes("Auction", {n: text for text, n in numbers.items()})
        parsed = self._parse_auction(self.tag("Auction"))
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
        return self._parse_play(t)

    def _parse_play(self, t: Tag) -> PBNPlay:
        first = self._section_seat(t)
        notes, _ = self._section_notes("Play")
        parsed = PBNPlay(first=first, notes=notes)
        rows: list[list[dict[str, Any]]] = []
        current: list[dict[str, Any]] = []
        last: dict[str, Any] | None = None
        pending_irr: str | None = None
        for kind, text, line in _section_tokens(self, t):
            if kind == "comment":
                if last is not None:
                    last["comments"].append(text)
                else:
                    parsed.comments.append(text)
                continue
            if kind in ("note", "nag", "suffix"):
                if last is None:
                    raise self._error(t, f"annotation {text!r} before any card in the Play "
                                         f"section", line)
                _annotate(last, kind, text, _CARD_SUFFIX_NAG)
                continue
            if parsed.terminator == "*":
                raise self._error(t, f"{text!r} after the end of the play ('*')", line)
            if kind == "star":
                parsed.terminator = "*"
                continue
            if kind == "irregularity":
                letter = text[1].upper()
                if letter not in ("R", "L"):
                    raise self._error(t, f"irregularity {text!r} belongs to the auction, not "
                                         f"the play", line)
                pending_irr = letter
                continue
            seat = first.next(len(current))
            if kind == "plus":
                card = None
                parsed.terminator = "+"
            elif kind == "word" and text == "-":
                card = None
            elif kind == "word":
                card = _parse_card(text)
                if card is None:
                    raise self._error(t, f"bad card {text!r} in the Play section", line)
            else:
                raise self._error(t, f"unexpected {text!r} in the Play section", line)
            last = _entry(seat, card, text, irregularity=pending_irr, line=line)
            pending_irr = None
            current.append(last)
            if len(current) == 4:
                rows.append(current)
                current = []
        if current:
            rows.append(current)
        parsed.tricks = [[_freeze_card(e, notes) for e in row] for row in rows]
        self._check_play_cards(t, parsed, rows)
        return parsed

    def _check_play_cards(self, t: Tag, parsed: PBNPlay,
                          rows: list[list[dict[str, Any]]]) -> None:
        seen: dict[Card, int] = {}
        deal = self.deal
        for row in rows:
            for e in row:
                card = e["item"]
                if card is None:
                    continue
                if card in seen:
                    raise self._error(t, f"card {card} played twice in the Play section",
                                      e["line"])
                seen[card] = 1
                if deal is not None:
                    hand = deal[e["seat"]]
                    if hand is not None and card not in hand:
                        raise self._error(
                            t, f"card {card} in {e['seat'].name}'s column of the Play "
                               f"section is not in {e['seat'].name}'s hand", e["line"])

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
        from .play import _trick_winner

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
        seq: list[Card] = []
        for c in cards:
            if isinstance(c, Card):
                seq.append(c)
            else:
                card = _parse_card(str(c))
                if card is None:
                    raise PBNError(f"bad card {c!r}")
                seq.append(card)
        if terminator is None:
            terminator = "*" if len(seq) < 52 else ""
        if terminator not in ("", "*", "+"):
            raise PBNError(f"bad play terminator {terminator!r}: '', '*' or '+'")
        lines = []
        on_lead = leader
        for k in range(0, len(seq), 4):
            trick = seq[k:k + 4]
            row = ["-"] * 4
            for i, card in enumerate(trick):
                seat = on_lead.next(i)
                row[(seat - leader) % 4] = str(card)
            if terminator == "+" and len(trick) < 4:
                row[(on_lead.next(len(trick)) - leader) % 4] = "+"
            lines.append(" ".join(row))
            if len(trick) == 4:
                on_lead = _trick_winner(trick, on_lead, trump)
        if terminator == "+" and len(seq) % 4 == 0 and len(seq) < 52:
            row = ["-"] * 4
            row[(on_lead - leader) % 4] = "+"
            lines.append(" ".join(row))
        if terminator == "*":
            lines.append("*")
        self.remove_tag("Play")
        self.set_tag("Play", leader.letter, lines)
        return self._parse_play(self.tag("Play"))

    def check_play(self):
        """Replay the play section by the rules with :class:`ddsolver.play.Position`:
        every card in turn, held, following suit (WBF Laws 44, 61).  Cards marked as
        irregular (``^R``, ``^L``) stop the check there.

        :returns: the :class:`~ddsolver.play.Position` after the last card checked.
        :raises PBNError: for an illegal card (message names the card and the trick), or a
            game without a complete deal or trump strain.
        """
        from .play import Position

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
                                  f"trick {k // 4 + 1}: {pc.seat.name} cannot play "
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
            raise self._error(t, f"unknown seat {t.value!r} in the {t.name} tag") from None

    # -- double-dummy tags ----------------------------------------------------------------
    def set_double_dummy(self, table: Any) -> None:
        """Add (or replace) the ``DoubleDummyTricks`` tag and the ``OptimumResultTable``
        section (PBN 2.1, section 5.7) from a double-dummy table.

        :param table: anything indexed ``table[strain, seat]`` -> tricks for that declarer
            (a :class:`~ddsolver.solver.DDTable`, a ``(5, 4)`` array with rows C, D, H, S,
            NT and columns N, E, S, W, or a dict keyed by ``(Strain, Seat)``).
        :raises PBNError: for a trick count outside 0..13.
        """
        self.set_tag("DoubleDummyTricks", dd_tricks_to_pbn(table))
        header, lines = optimum_result_table(table)
        self.set_tag("OptimumResultTable", header, lines)

    def set_par(self, result: Any) -> None:
        """Add (or replace) the ``OptimumScore`` and ``ParContract`` tags from a par result
        (:class:`ddsolver.par.ParResult`), as :func:`par_tags` writes them.

        :raises PBNError: for a result that cannot be written.
        """
        score, contracts = par_tags(result)
        self.set_tag("OptimumScore", score)
        self.set_tag("ParContract", contracts)

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
            self._warn(f"board number {value!r} is not a positive integer")
        if contract is not None and self.tag("Contract") is not None:
            auction = self._auction_for_outcome()
            if auction is not None and auction.contract is not None:
                tag_c = (contract.level, contract.strain, contract.doubled)
                auc = auction.contract
                if tag_c != (auc.level, auc.strain, auc.doubled):
                    self._warn(f"Contract tag {self.get('Contract')!r} differs from the "
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
        return (self.tag_list == other.tag_list and self.preamble == other.preamble
                and self.escapes == other.escapes)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        bits = [f"{t.name}={t.value!r}" for t in self.tag_list
                if t.name in ("Board", "Dealer", "Vulnerable", "Deal", "Contract")]
        return f"<PBNGame {' '.join(bits)}>"

    def to_pbn(self, newline: str = "\n") -> str:
        """This game alone as PBN text (no ``% PBN`` header line)."""
        return newline.join(_game_lines(self)) + newline

    def copy(self) -> PBNGame:
        """A deep copy of the tags, comments and escape lines."""
        game = PBNGame([Tag(t.name, t.value, list(t.section), list(t.comments), t.raw_value,
                            t.line, None if t.section_lines is None else list(t.section_lines))
                        for t in self.tag_list],
                       preamble=self.preamble, escapes=self.escapes)
        game.warnings = list(self.warnings)
        game.index, game.line, game.source = self.index, self.line, self.source
        game.claim = self.claim
        game.lin = None if self.lin is None else dict(self.lin)
        return game


#: Another name for :class:`PBNGame`: a game is one board with its auction and play.
Board = PBNGame


# ---------------------------------------------------------------------------------------
# Helpers for sections
# ---------------------------------------------------------------------------------------

class _Pending:
    """Adapter so that _passes_to_end sees entries still being built."""

    __slots__ = ("call",)

    def __init__(self, entry: dict[str, Any]):
        self.call = entry["item"]


def _passes_to_end(entries: Sequence[Any]) -> int:
    """Passes still needed to end an auction: 3 after the last non-pass call, 4 in all
    when nobody has bid (open calls count as non-passes)."""
    trailing = 0
    for e in reversed(entries):
        call = e.call
        if call is not None and call.is_pass:
            trailing += 1
        else:
            break
    if trailing == len(entries):
        return max(0, 4 - trailing)
    return max(0, 3 - trailing)


def _entry(seat: Seat, item: Any, token: str, *, irregularity: str | None = None,
           implied: bool = False, line: int | None = None) -> dict[str, Any]:
    return {"seat": seat, "item": item, "token": token, "note": None, "nags": [],
            "comments": [], "irregularity": irregularity, "implied": implied, "line": line}


def _annotate(entry: dict[str, Any], kind: str, text: str, suffixes: dict[str, int]) -> None:
    if kind == "note":
        entry["note"] = int(text.strip("="))
    elif kind == "nag":
        entry["nags"].append(int(text[1:]))
    else:
        entry["nags"].append(suffixes[text])


def _freeze_call(e: dict[str, Any], notes: dict[int, str]) -> AnnotatedCall:
    note = e["note"]
    return AnnotatedCall(e["seat"], e["item"], e["token"], note,
                         None if note is None else notes.get(note),
                         tuple(e["nags"]), False, tuple(e["comments"]), e["irregularity"],
                         e["implied"], e["line"])


def _freeze_card(e: dict[str, Any], notes: dict[int, str]) -> PlayedCard:
    note = e["note"]
    return PlayedCard(e["seat"], e["item"], e["token"], note,
                      None if note is None else notes.get(note), tuple(e["nags"]),
                      tuple(e["comments"]), e["irregularity"], e["line"])


def _parse_card(text: str) -> Card | None:
    """A PBN card token: suit letter then rank (``SK``, ``h10``, ``dt``), else ``None``."""
    t = text.strip().upper()
    if len(t) < 2:
        return None
    try:
        return Card(Suit.from_str(t[0]), Rank.from_str(t[1:]))
    except (InvalidNotationError, ValueError):
        return None


_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")


def _section_tokens(game: PBNGame, t: Tag) -> Iterator[tuple[str, str, int | None]]:
    """Tokens of an auction or play section: (kind, text, line).  Kinds: word, note, nag,
    suffix, star, plus, irregularity, comment (PBN 2.1, section 3.2)."""
    lines = t.section
    numbers = t.section_lines or [None] * len(lines)
    in_brace: list[str] | None = None
    brace_line: int | None = None
    for text, ln in zip(lines, numbers):
        i, n = 0, len(text)
        if in_brace is not None:
            end = text.find("}")
            if end < 0:
                in_brace.append(text)
                continue
            in_brace.append(text[:end + 1])
            yield "comment", "\n".join(in_brace), brace_line
            in_brace = None
            i = end + 1
        while i < n:
            ch = text[i]
            if ch in " \t\v\f":
                i += 1
            elif ch == "{":
                end = text.find("}", i + 1)
                if end < 0:
                    in_brace = [text[i:]]
                    brace_line = ln
                    break
                yield "comment", text[i:end + 1], ln
                i = end + 1
            elif ch == ";":
                yield "comment", text[i:], ln
                break
            elif ch == "=":
                m = _NOTE_TOKEN_RE.match(text, i)
                if m is None:
                    raise game._error(t, f"bad note reference {text[i:i + 6]!r} in the "
                                         f"{t.name} section", ln)
                yield "note", m.group(0), ln
                i = m.end()
            elif ch == "$":
                m = _NAG_TOKEN_RE.match(text, i)
                if m is None:
                    raise game._error(t, f"bad NAG {text[i:i + 6]!r} in the {t.name} "
                                         f"section", ln)
                yield "nag", m.group(0), ln
                i = m.end()
            elif ch in "!?":
                j = i + 1
                if j < n and text[j] in "!?":
                    j += 1
                yield "suffix", text[i:j], ln
                i = j
            elif ch == "*":
                yield "star", "*", ln
                i += 1
            elif ch == "+":
                yield "plus", "+", ln
                i += 1
            elif ch == "^":
                if i + 1 >= n or text[i + 1].upper() not in "ISRL":
                    raise game._error(t, f"bad irregularity {text[i:i + 2]!r} in the "
                                         f"{t.name} section", ln)
                yield "irregularity", text[i:i + 2], ln
                i += 2
            elif ch in _WORD_CHARS:
                j = i + 1
                while j < n and text[j] in _WORD_CHARS:
                    j += 1
                yield "word", text[i:j], ln
                i = j
            else:
                j = i + 1
                while j < n and text[j] not in " \t":
                    j += 1
                raise game._error(t, f"unexpected {text[i:j]!r} in the {t.name} section", ln)
    if in_brace is not None:
        raise game._error(t, f"unterminated comment in the {t.name} section", brace_line)


def _section_lines(section: str | Sequence[str]) -> list[str]:
    if isinstance(section, str):
        lines = section.splitlines()
    else:
        lines = [str(s) for s in section]
    out = []
    for s in lines:
        if "\n" in s or "\r" in s:
            out.extend(x.rstrip() for x in s.splitlines())
        else:
            out.append(s.rstrip())
    while out and not out[-1].strip():
        out.pop()
    return out


def _comment_text(raw: str) -> str:
    raw = raw.strip()
    if raw.startswith("{") and raw.endswith("}"):
        return raw[1:-1].strip()
    if raw.startswith(";"):
        return raw[1:].strip()
    return raw


def _escape_value(value: str) -> str:
    """Escape a tag value so that the reader gives it back exactly: a quote becomes
    ``\\"``; a backslash is doubled only where it would otherwise be read as an escape
    (before a quote or a backslash, or at the end), so ``Result\\2R`` stays as written."""
    out = []
    n = len(value)
    for i, ch in enumerate(value):
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            nxt = value[i + 1] if i + 1 < n else ""
            out.append("\\\\" if nxt in ('"', "\\", "") else "\\")
        else:
            out.append(ch)
    return "".join(out)


# ---------------------------------------------------------------------------------------
# Double-dummy tags
# ---------------------------------------------------------------------------------------

_DD_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
_DD_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)


def _dd_value(table: Any, strain: Strain, seat: Seat) -> int:
    try:
        value = table[strain, seat]
    except (KeyError, TypeError, IndexError):
        value = table[(strain, seat)]
    value = int(value)
    if not 0 <= value <= 13:
        raise PBNError(f"double-dummy tricks {value} for {seat.name} in {strain.letter} "
                       f"outside 0..13")
    return value


def dd_tricks_to_pbn(table: Any) -> str:
    """The ``DoubleDummyTricks`` tag value: 20 hex digits, declarers N, S, E, W, each in
    strain order NT, S, H, D, C (the layout BridgeComposer and other programs write).

    :param table: indexed ``table[strain, seat]`` -> tricks (see
        :meth:`PBNGame.set_double_dummy`).
    :raises PBNError: for a trick count outside 0..13.
    """
    return "".join(format(_dd_value(table, st, se), "x")
                   for se in _DD_SEATS for st in _DD_STRAINS)


def dd_tricks_from_pbn(text: str) -> dict[tuple[Strain, Seat], int]:
    """Read a ``DoubleDummyTricks`` tag value (see :func:`dd_tricks_to_pbn`).

    :returns: ``{(strain, seat): tricks}`` for the 20 combinations.
    :raises PBNError: unless ``text`` is 20 hex digits each at most 13.
    """
    s = text.strip()
    if len(s) != 20 or any(ch not in "0123456789abcdefABCDEF" for ch in s):
        raise PBNError(f"bad DoubleDummyTricks {text!r}: expected 20 hex digits")
    out = {}
    for i, ch in enumerate(s):
        value = int(ch, 16)
        if value > 13:
            raise PBNError(f"bad DoubleDummyTricks {text!r}: {value} tricks")
        out[(_DD_STRAINS[i % 5], _DD_SEATS[i // 5])] = value
    return out


def par_tags(result: Any) -> tuple[str, str]:
    """The ``OptimumScore`` and ``ParContract`` tag values for a par result, in the form
    BridgeComposer writes them: ``("EW 430", "EW 3N+1")``, ``("NS -500", "NS 4SX-3")``,
    ``("EW 600", "EW 5C=; EW 5D=")``.

    The score is given for the side of the par contracts (negative for a sacrifice); each
    contract is ``<declarer(s)> <level><C|D|H|S|N>[X]<=|+n|-n>`` with the declaring side, or
    the single seat when only that seat makes it; several contracts are listed in bidding
    order, separated by ``"; "``.  A passed-out par gives ``("NS 0", "Pass")``.

    :param result: a :class:`ddsolver.par.ParResult` (``score`` for North-South,
        ``contracts`` with ``level``, ``strain``, ``doubled``, ``declarer``, ``result``).
    :raises PBNError: for contracts of both sides in one result.
    """
    contracts = list(result.contracts)
    if not contracts:
        return "NS 0", "Pass"
    sides = {"NS" if c.declarer in ("NS", "N", "S") else "EW" for c in contracts}
    if len(sides) != 1:
        raise PBNError(f"par contracts of both sides: {result}")
    side = sides.pop()
    score = int(result.score) if side == "NS" else -int(result.score)
    parts = []
    for c in sorted(contracts, key=lambda c: (c.level, int(c.strain))):
        outcome = "=" if c.result == 0 else f"{c.result:+d}"
        parts.append(f"{c.declarer} {c.level}{'CDHSN'[int(c.strain)]}"
                     f"{'X' if c.doubled else ''}{outcome}")
    return f"{side} {score}", "; ".join(parts)


def optimum_result_table(table: Any) -> tuple[str, list[str]]:
    """The ``OptimumResultTable`` tag value and section lines (PBN 2.1, section 5.7):
    declarers N, S, E, W, strains NT, S, H, D, C, one line each (``"N NT 10"``).

    :returns: ``(header, lines)``; the result column is 2 wide if any value has 2 digits.
    :raises PBNError: for a trick count outside 0..13.
    """
    values = [(se, st, _dd_value(table, st, se)) for se in _DD_SEATS for st in _DD_STRAINS]
    width = 2 if any(v >= 10 for _, _, v in values) else 1
    header = f"Declarer;Denomination\\2R;Result\\{width}R"
    lines = [f"{se.letter} {st.letter:>2} {v:>{width}}" for se, st, v in values]
    return header, lines


def parse_optimum_result_table(lines: Sequence[str]) -> dict[tuple[Strain, Seat], int]:
    """Read the section lines of an ``OptimumResultTable`` (declarer, denomination,
    result per line; comments and blank lines skipped).

    :returns: ``{(strain, seat): tricks}``.
    :raises PBNError: for a line that is not ``<seat> <strain> <tricks>``.
    """
    out = {}
    for line in lines:
        text = line.split(";", 1)[0].strip()
        if not text or text.startswith("{"):
            continue
        parts = text.split()
        if len(parts) != 3 or not parts[2].isdigit():
            raise PBNError(f"bad OptimumResultTable line {line!r}")
        try:
            seat = Seat.from_str(parts[0])
            strain = Strain.from_str(parts[1])
        except InvalidNotationError:
            raise PBNError(f"bad OptimumResultTable line {line!r}") from None
        out[(strain, seat)] = int(parts[2])
    return out


# ---------------------------------------------------------------------------------------
# Reader
# ---------------------------------------------------------------------------------------

class _RawTag:
    __slots__ = ("comments", "end", "has_data", "line", "name", "start", "value")

    def __init__(self, name: str, value: str, line: int, start: int):
        self.name = name
        self.value = value
        self.line = line
        self.start = start
        self.end = start
        self.has_data = False
        self.comments: list[str] = []


class _Reader:
    """Scans a whole PBN text: games, tags, comments, escape lines, section spans."""

    def __init__(self, text: str, source: str | None):
        text = text.removeprefix("\ufeff")
        self.text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.source = source
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        self.escape_lines: set = set()
        self.games: list[PBNGame] = []
        self.sticky: dict[str, str] = {}
        self.last_value: dict[str, str] = {}
        self.pending: list[str] = []     # warnings for the next game finished

    def line_of(self, pos: int) -> int:
        return bisect_right(self.line_starts, pos)

    def where(self, pos: int, game_start: int) -> str:
        parts = []
        if self.source:
            parts.append(self.source)
        parts.append(f"line {self.line_of(pos)}")
        end = re.compile(r"\n[ \t\v\f]*\n").search(self.text, game_start)
        chunk = self.text[game_start:end.start() if end else len(self.text)]
        m = _BOARD_HINT_RE.search(chunk)
        if m and m.group(1).strip() not in ("", "?", "#"):
            parts.append(f"board {m.group(1).strip()}")
        else:
            parts.append(f"game {len(self.games) + 1}")
        return ", ".join(parts)

    def error(self, pos: int, game_start: int, message: str) -> PBNError:
        return PBNError(f"{self.where(pos, game_start)}: {message}")

    def run(self) -> list[PBNGame]:
        text = self.text
        n = len(text)
        pos = 0
        tags: list[_RawTag] = []
        names: set = set()      # the names of ``tags``
        preamble: list[str] = []
        escapes: list[str] = []
        game_start = 0
        at_line_start = True
        while pos < n:
            if at_line_start:
                eol = text.find("\n", pos)
                if eol < 0:
                    eol = n
                line = text[pos:eol]
                if line.startswith("%"):
                    self.escape_lines.add(self.line_of(pos))
                    if not re.match(r"%\s*(PBN\s+\d|EXPORT\s*$)", line):
                        escapes.append(line.rstrip())
                    pos = eol + 1
                    continue
                if not line.strip(" \t\v\f"):
                    if tags:
                        tags[-1].end = pos
                        self.finish(tags, preamble, escapes)
                        tags, preamble, escapes, names = [], [], [], set()
                    pos = eol + 1
                    game_start = pos
                    continue
                at_line_start = False
            ch = text[pos]
            if ch == "\n":
                pos += 1
                at_line_start = True
            elif ch in " \t\v\f":
                pos += 1
            elif ch == "{":
                end = text.find("}", pos + 1)
                if end < 0:
                    raise self.error(pos, game_start, "unterminated comment '{' (no '}')")
                self.add_comment(tags, preamble, text[pos:end + 1])
                pos = end + 1
            elif ch == ";":
                eol = text.find("\n", pos)
                if eol < 0:
                    eol = n
                self.add_comment(tags, preamble, text[pos:eol].rstrip())
                pos = eol
            elif ch == "[":
                if tags:
                    tags[-1].end = pos
                start = pos
                tag, pos = self.read_tag(pos, game_start)
                if (tag.name != "Note" and tag.name in names
                        and (tag.name in _GAME_START_TAGS or "Deal" in names)):
                    # Games are separated by an empty line (PBN 2.1, section 3); a tag
                    # repeated without one, when it is Event or Board or the game has its
                    # Deal already, starts the next game rather than being dropped.
                    self.finish(tags, preamble, escapes)
                    tags, preamble, escapes, names = [], [], [], set()
                    game_start = start
                    self.pending.append(f"line {tag.line}: a new game read from tag "
                                        f"{tag.name} (no empty line before it; PBN 2.1, "
                                        f"section 3)")
                tags.append(tag)
                names.add(tag.name)
            elif ch == "]":
                raise self.error(pos, game_start, "']' without a tag opened by '['")
            else:
                if not tags:
                    eol = text.find("\n", pos)
                    snippet = text[pos:eol if eol >= 0 else n].strip()[:40]
                    raise self.error(pos, game_start,
                                     f"text {snippet!r} outside any tag (expected '[')")
                tags[-1].has_data = True
                if ch == '"':
                    _, pos = self.read_string(pos, game_start, "section data")
                else:
                    while pos < n and text[pos] not in ' \t\v\f\n{;["]':
                        pos += 1
        if tags:
            tags[-1].end = n
            self.finish(tags, preamble, escapes)
        elif (preamble or escapes) and self.games:
            # Comments after the last game: they follow its last tag (or section).
            last = self.games[-1]
            tag = last.tag_list[-1]
            if tag.section:
                tag.section.extend(x for c in preamble for x in c.split("\n"))
                tag.section_lines = None
            else:
                tag.comments.extend(preamble)
            last.escapes.extend(escapes)
        return self.games

    def add_comment(self, tags: list[_RawTag], preamble: list[str], comment: str) -> None:
        if tags:
            tags[-1].comments.append(comment)
        else:
            preamble.append(comment)

    def read_string(self, pos: int, game_start: int, what: str) -> tuple[str, int]:
        text = self.text
        out = []
        i = pos + 1
        n = len(text)
        while i < n:
            ch = text[i]
            if ch == "\\" and i + 1 < n and text[i + 1] in '"\\':
                out.append(text[i + 1])
                i += 2
            elif ch == '"':
                return "".join(out), i + 1
            elif ch == "\n":
                break
            else:
                out.append(ch)
                i += 1
        raise self.error(pos, game_start, f"unterminated string in {what} (no closing '\"' "
                                          f"on the line)")

    def skip_ws(self, pos: int, start: int, game_start: int, name: str) -> int:
        text = self.text
        n = len(text)
        while pos < n and text[pos] in " \t\v\f\n":
            if text[pos] == "\n":
                eol = text.find("\n", pos + 1)
                rest = text[pos + 1:eol if eol >= 0 else n]
                if not rest.strip(" \t\v\f") or rest.startswith("%"):
                    raise self.error(start, game_start, f"unterminated tag [{name}")
            pos += 1
        return pos

    def read_tag(self, start: int, game_start: int) -> tuple[_RawTag, int]:
        text = self.text
        pos = self.skip_ws(start + 1, start, game_start, "")
        m = _NAME_RE.match(text, pos)
        if m is None:
            snippet = text[start:text.find("\n", start) if "\n" in text[start:] else None]
            raise self.error(start, game_start, f"bad tag {snippet.strip()[:40]!r}: no tag name")
        name = m.group(0)
        pos = self.skip_ws(m.end(), start, game_start, name)
        if pos >= len(text) or text[pos] != '"':
            raise self.error(start, game_start,
                             f"tag [{name} has no quoted value (or is unterminated)")
        value, pos = self.read_string(pos, game_start, f"tag [{name}")
        pos = self.skip_ws(pos, start, game_start, name)
        if pos >= len(text) or text[pos] != "]":
            raise self.error(start, game_start, f"unterminated tag [{name} \"{value}\" "
                                                f"(missing ']')")
        return _RawTag(name, value, self.line_of(start), pos + 1), pos + 1

    def section_of(self, raw: _RawTag) -> tuple[list[str], list[int]]:
        text = self.text
        first = self.line_of(raw.start)
        last = self.line_of(max(raw.start, raw.end - 1)) if raw.end > raw.start else first
        lines: list[str] = []
        numbers: list[int] = []
        for ln in range(first, last + 1):
            if ln in self.escape_lines:
                continue
            lstart = self.line_starts[ln - 1]
            lend = self.line_starts[ln] - 1 if ln < len(self.line_starts) else len(text)
            seg = text[max(lstart, raw.start):min(lend, raw.end)]
            lines.append(seg.rstrip())
            numbers.append(ln)
        if lines and not lines[0].strip():
            lines.pop(0)
            numbers.pop(0)
        elif lines:
            lines[0] = lines[0].lstrip()
        while lines and not lines[-1].strip():
            lines.pop()
            numbers.pop()
        return lines, numbers

    def finish(self, raws: list[_RawTag], preamble: list[str], escapes: list[str]) -> None:
        game = PBNGame(preamble=preamble, escapes=escapes)
        game.index = len(self.games) + 1
        game.line = raws[0].line
        game.source = self.source
        for message in self.pending:
            game._warn(message)
        self.pending = []
        seen: set = set()
        for raw in raws:
            tag = Tag(raw.name, raw.value, line=raw.line)
            if raw.has_data:
                tag.section, tag.section_lines = self.section_of(raw)
            else:
                tag.comments = list(raw.comments)
            if raw.name != "Note" and raw.name in seen:
                game._warn(f"line {raw.line}: repeated tag {raw.name} ignored (PBN 2.1, "
                           f"section 3.4)")
                continue
            seen.add(raw.name)
            game.tag_list.append(tag)
        self.inherit(game)
        game.validate()
        self.games.append(game)

    def inherit(self, game: PBNGame) -> None:
        """Resolve ``#`` and ``##`` tag values (PBN 2.1, section 4.8)."""
        present = set()
        for t in game.tag_list:
            if t.name == "Note":
                continue
            present.add(t.name)
            raw = t.value
            if raw == "#" or raw.startswith("##"):
                if t.name in _NO_INHERIT:
                    raise game._error(t, f"tag {t.name} may not inherit its value with "
                                         f"{raw[:2]!r} (PBN 2.1, section 4.8)")
                if raw.startswith("##"):
                    t.value = raw[2:]
                    self.sticky[t.name] = t.value
                else:
                    t.value = self.last_value.get(t.name, "")
                    self.sticky.pop(t.name, None)
                t.raw_value = raw
            else:
                self.sticky.pop(t.name, None)
        for name, value in self.sticky.items():
            if name not in present:
                tag = Tag(name, value, raw_value="##" + value)
                game.tag_list.insert(game._insert_index(name, None), tag)
        for t in game.tag_list:
            if t.name != "Note":
                self.last_value[t.name] = t.value


def parse_pbn(text: str, *, source: str | None = None) -> list[PBNGame]:
    """Parse PBN text (import format, PBN 2.1) into games.

    :param text: the file's text (any line ends; a BOM is dropped).
    :param source: a name for error messages (a file name).
    :returns: one :class:`PBNGame` per game, in file order, each validated.
    :raises PBNError: for malformed input, naming the line and the board (or game number):
        an unterminated tag, string or comment, text outside a tag, a bad deal, an unknown
        seat, a bad call or card, a forbidden ``#`` inheritance...
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_pbn needs a str, got {type(text).__name__}")
    return _Reader(text, source).run()


def read_pbn(source: PathOrFile | bytes) -> list[PBNGame]:
    """Read PBN games from a path, a file object, bytes, or PBN text.

    A ``str`` is taken as PBN text when it contains a line break, or a ``[`` and names no
    existing file; otherwise as a path.  Bytes and files are decoded as UTF-8 (BOM or not), as
    UTF-16 after a UTF-16 byte-order mark, or else as Latin-1.

    :returns: the games (see :func:`parse_pbn`).
    :raises PBNError: for malformed input (the message starts with the file name).
    :raises OSError: if the file cannot be read.
    """
    if isinstance(source, bytes):
        return parse_pbn(decode_text(source))
    if isinstance(source, str) and (
            "\n" in source or not source.strip()
            or ("[" in source and not os.path.isfile(source))):
        return parse_pbn(source)
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as fh:
            data = fh.read()
        return parse_pbn(decode_text(data), source=os.fspath(source))
    if hasattr(source, "read"):
        data = source.read()
        name = getattr(source, "name", None)
        name = name if isinstance(name, str) else None
        if isinstance(data, bytes):
            data = decode_text(data)
        return parse_pbn(data, source=name)
    raise TypeError(f"read_pbn needs a path, a file, bytes or text, not "
                    f"{type(source).__name__}")


# ---------------------------------------------------------------------------------------
# Writer
# ---------------------------------------------------------------------------------------

def _game_lines(game: PBNGame) -> list[str]:
    lines = [e for e in game.escapes]
    for c in game.preamble:
        lines.extend(c.split("\n"))
    for t in game.tag_list:
        if not _NAME_RE.fullmatch(t.name):
            raise PBNError(f"cannot write tag name {t.name!r}")
        if "\n" in t.value or "\r" in t.value:
            raise PBNError(f"cannot write tag {t.name}: its value has a line break")
        lines.append(t.to_pbn())
        for c in t.comments:
            lines.extend(c.split("\n"))
        for s in t.section:
            # an empty line can stand in a section only inside a {comment} (elsewhere it
            # ends the game): written as read, as comments are
            lines.append(s.rstrip())
    return lines


def dumps_pbn(games: PBNGame | Iterable[PBNGame], *, newline: str = "\n") -> str:
    """PBN text for ``games``: a ``% PBN 2.1`` line, then each game (escape lines,
    comments, tags with their sections and comments in order), games separated by an
    empty line.  Tag values are written resolved (no ``#`` inheritance).

    :param newline: the line end; ``"\\r\\n"`` writes PBN 2.1 export format (CRLF line
        ends, resolved tag values), announced by a ``% EXPORT`` line.
    :raises PBNError: for a tag that cannot be written (bad name, line break in a value).
    :raises TypeError: if ``games`` is not a PBNGame or an iterable of them.
    :raises ValueError: if ``newline`` is not ``"\\n"``, ``"\\r\\n"`` or ``"\\r"``.
    """
    if newline not in ("\n", "\r\n", "\r"):
        raise ValueError(f"newline must be '\\n', '\\r\\n' or '\\r', got {newline!r}")
    if isinstance(games, PBNGame):
        games = [games]
    elif isinstance(games, (str, bytes)) or not isinstance(games, Iterable):
        raise TypeError(f"expected a PBNGame or an iterable of PBNGames, got "
                        f"{type(games).__name__}")
    games = list(games)
    for game in games:
        if not isinstance(game, PBNGame):
            raise TypeError(f"expected PBNGames, got {type(game).__name__}")
    out = ["% PBN 2.1"]
    if newline == "\r\n":
        out.append("% EXPORT")
    for i, game in enumerate(games):
        if i:
            out.append("")
        out.extend(_game_lines(game))
    return newline.join(out) + newline


def write_pbn(games: PBNGame | Iterable[PBNGame], path_or_file: PathOrFile, *,
              newline: str = "\r\n", encoding: str | None = None) -> None:
    """Write ``games`` as PBN (see :func:`dumps_pbn`).

    A path is written atomically (temporary file in the same directory, fsync, rename):
    the old file stays intact if anything fails.

    :param newline: ``"\\r\\n"`` by default (PBN 2.1 export line end).
    :param encoding: default Latin-1 (ISO 8859-1, the PBN character set) when every
        character fits, else UTF-8.  Ignored for text-mode files.
    :raises PBNError: for a tag that cannot be written.
    :raises TypeError: if ``games`` is not a PBNGame or an iterable of them, or
        ``path_or_file`` is neither a path nor a file object with a ``write`` method.
    :raises ValueError: for a ``newline`` other than ``"\\n"``, ``"\\r\\n"`` or ``"\\r"``.
    :raises LookupError: for an ``encoding`` Python does not know (nothing is written).
    :raises OSError: if the file cannot be written.
    """
    if not isinstance(path_or_file, (str, os.PathLike)) and not callable(
            getattr(path_or_file, "write", None)):
        raise TypeError(f"write_pbn needs a path or a writable file, got "
                        f"{type(path_or_file).__name__}")
    text = dumps_pbn(games, newline=newline)
    if encoding is None:
        try:
            data = text.encode("latin-1")
        except UnicodeEncodeError:
            data = text.encode("utf-8")
    else:
        data = text.encode(encoding)
    if isinstance(path_or_file, (str, os.PathLike)):
        atomic_write_bytes(path_or_file, data)
    elif isinstance(path_or_file, io.TextIOBase) or hasattr(path_or_file, "encoding"):
        path_or_file.write(text)  # type: ignore[arg-type]
    else:
        path_or_file.write(data)  # type: ignore[arg-type]
