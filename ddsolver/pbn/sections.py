"""Auction and play sections of a PBN game: read into annotated calls and cards, written
in export layout.

An auction section (PBN 2.1, section 3.5) lists the calls from the seat of the ``Auction``
tag, with ``=n=`` references to ``[Note "n:text"]`` tags, NAGs ``$n`` and suffixes
``! ? !! ?? !? ?!`` (3.5.3, 3.7), ``AP`` for the passes that end it, ``*`` and ``+`` as end
markers and the irregularities ``^I`` and ``^S`` (3.9).  A play section (3.6) lays out the
cards trick by trick, one column per seat from the seat of the ``Play`` tag, with ``-`` for
an unknown card, ``+`` and ``*`` as end markers and the irregularities ``^R`` and ``^L``.
Comments ``{...}`` and ``; ...`` may stand anywhere (3.8).

The functions here take the :class:`~ddsolver.pbn.game.PBNGame` the section belongs to
(its dealer, declarer, deal and notes, and its messages naming line and board);
:class:`~ddsolver.pbn.game.PBNGame` calls them from its ``auction``, ``play``,
``set_auction`` and ``set_play``.

Source: PBN standard 2.1, Tis Veugen and Kaj G Backas (2007, text of 2017.02.14); the
winner of a trick by WBF Law 44.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..auction import Auction, Call
from ..cards import Card, Rank, Strain, Suit
from ..errors import BridgeError, InvalidNotationError, PBNError, brief_repr
from ..play import _trick_winner
from ..table import Seat
from .tags import Tag

if TYPE_CHECKING:  # pragma: no cover
    from .game import PBNGame

__all__ = ["AnnotatedCall", "PBNAuction", "PBNPlay", "PlayedCard"]

#: NAG numbers of the suffix annotations (PBN 2.1, sections 3.5.3, 3.6.3, 3.7).
_CALL_SUFFIX_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_CARD_SUFFIX_NAG = {"!": 7, "?": 8, "!!": 9, "??": 10, "!?": 11, "?!": 12}

_NOTE_TOKEN_RE = re.compile(r"=(\d+)=")
_NAG_TOKEN_RE = re.compile(r"\$(\d+)")
#: The most digits a note or NAG number may have (PBN 2.1 numbers notes 1..32 and NAGs
#: 0..255; longer numbers are refused before ``int`` sees them).
_MAX_DIGITS = 9


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


def parse_card(text: str) -> Card | None:
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
    lines = t.section_view()
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
                if m is None or len(m.group(1)) > _MAX_DIGITS:
                    raise game._error(t, f"bad note reference {text[i:i + 6]!r} in the "
                                         f"{t.name} section", ln)
                yield "note", m.group(0), ln
                i = m.end()
            elif ch == "$":
                m = _NAG_TOKEN_RE.match(text, i)
                if m is None or len(m.group(1)) > _MAX_DIGITS:
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


def parse_auction(game: PBNGame, t: Tag) -> PBNAuction:
    """Read the auction section of tag ``t`` (the game's ``Auction`` tag).

    :raises PBNError: for a bad seat in the tag, a bad call token, an annotation with
        nothing to annotate, a call after the end marker, or a call that breaks the rules.
    """
    first = game._section_seat(t)
    notes, _ = game._section_notes("Auction")
    parsed = PBNAuction(first=first, notes=notes)
    seat = first
    entries: list[dict[str, Any]] = []
    pending_irr: str | None = None
    started = False
    for kind, text, line in _section_tokens(game, t):
        if kind == "comment":
            if entries:
                entries[-1]["comments"].append(text)
            else:
                parsed.comments.append(text)
            continue
        if kind in ("note", "nag", "suffix"):
            if not entries:
                raise game._error(t, f"annotation {brief_repr(text)} before any call in the "
                                     f"Auction section", line)
            _annotate(entries[-1], kind, text, _CALL_SUFFIX_NAG)
            continue
        if parsed.terminator:
            raise game._error(t, f"{brief_repr(text)} after the end of the auction "
                                 f"({brief_repr(parsed.terminator)})", line)
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
                raise game._error(t, f"irregularity {brief_repr(text)} belongs to the play, not "
                                     f"the auction", line)
            continue
        if kind != "word":
            raise game._error(t, f"unexpected {brief_repr(text)} in the Auction section", line)
        upper = text.upper()
        if upper == "-":
            if started:
                raise game._error(t, "'-' after the first call of the Auction section",
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
                raise game._error(t, f"bad call {brief_repr(text)} in the Auction section",
                                  line) from None
        entries.append(_entry(seat, call, text, irregularity=pending_irr, line=line))
        pending_irr = None
        seat = seat.next()
        started = True
    if pending_irr is not None:
        raise game._error(t, "'^I' without a bid after it in the Auction section")
    parsed.entries = [_freeze_call(e, notes) for e in entries]
    for e in parsed.entries:
        if e.note is not None and e.note not in notes:
            game._warn(f"note reference ={e.note}= in the Auction section has no Note "
                       f"tag")
    _replay_auction(game, t, parsed, [e.get("line") for e in entries])
    return parsed


def _replay_auction(game: PBNGame, t: Tag, parsed: PBNAuction, lines: list[int | None]) -> None:
    """Build :attr:`PBNAuction.auction`.  Open calls (``AC``, ``^S``) and marked
    irregularities (``^I``) leave it ``None`` with a :attr:`~PBNAuction.problem`;
    anything else that breaks the rules is an error (PBN 2.1 sections 3.5, 3.9)."""
    dealer = game.dealer
    if not parsed.entries:
        parsed.auction = Auction(dealer if dealer is not None else parsed.first)
        return
    opener = parsed.entries[0].seat
    if dealer is None:
        dealer = opener
    if opener != dealer:
        raise game._error(t, f"the first call is {opener.name.title()}'s, but the dealer is "
                             f"{dealer.name.title()} (use '-' for the seats before the dealer)",
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
            raise game._error(t, f"illegal call {brief_repr(e.token)} by "
                                 f"{e.seat.name.title()} in the Auction section: {exc}",
                              line) from None
    parsed.auction = auction


def parse_play(game: PBNGame, t: Tag) -> PBNPlay:
    """Read the play section of tag ``t`` (the game's ``Play`` tag).

    :raises PBNError: for a bad seat in the tag, a bad card token, a card played twice,
        a card not in the hand of the seat whose column it is in, or an annotation with
        nothing to annotate.
    """
    first = game._section_seat(t)
    notes, _ = game._section_notes("Play")
    parsed = PBNPlay(first=first, notes=notes)
    rows: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    last: dict[str, Any] | None = None
    pending_irr: str | None = None
    for kind, text, line in _section_tokens(game, t):
        if kind == "comment":
            if last is not None:
                last["comments"].append(text)
            else:
                parsed.comments.append(text)
            continue
        if kind in ("note", "nag", "suffix"):
            if last is None:
                raise game._error(t, f"annotation {brief_repr(text)} before any card in the Play "
                                     f"section", line)
            _annotate(last, kind, text, _CARD_SUFFIX_NAG)
            continue
        if parsed.terminator == "*":
            raise game._error(t, f"{brief_repr(text)} after the end of the play ('*')", line)
        if kind == "star":
            parsed.terminator = "*"
            continue
        if kind == "irregularity":
            letter = text[1].upper()
            if letter not in ("R", "L"):
                raise game._error(t, f"irregularity {brief_repr(text)} belongs to the auction, not "
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
            card = parse_card(text)
            if card is None:
                raise game._error(t, f"bad card {brief_repr(text)} in the Play section", line)
        else:
            raise game._error(t, f"unexpected {brief_repr(text)} in the Play section", line)
        last = _entry(seat, card, text, irregularity=pending_irr, line=line)
        pending_irr = None
        current.append(last)
        if len(current) == 4:
            rows.append(current)
            current = []
    if current:
        rows.append(current)
    parsed.tricks = [[_freeze_card(e, notes) for e in row] for row in rows]
    _check_play_cards(game, t, parsed, rows)
    return parsed

def _check_play_cards(game: PBNGame, t: Tag, parsed: PBNPlay,
                      rows: list[list[dict[str, Any]]]) -> None:
    seen: dict[Card, int] = {}
    deal = game.deal
    for row in rows:
        for e in row:
            card = e["item"]
            if card is None:
                continue
            if card in seen:
                raise game._error(t, f"card {card} played twice in the Play section",
                                  e["line"])
            seen[card] = 1
            if deal is not None:
                hand = deal[e["seat"]]
                if hand is not None and card not in hand:
                    raise game._error(
                        t, f"card {card} in {e['seat'].name.title()}'s column of the Play "
                           f"section is not in {e['seat'].name.title()}'s hand", e["line"])


def auction_lines(calls: Iterable[Call | str | AnnotatedCall], first: Seat,
                  terminator: str = "") -> tuple[list[str], dict[int, str],
                                                 list[AnnotatedCall]]:
    """An auction section in export layout: four calls a line from ``first`` (PBN 2.1,
    section 3.5.1), each call's note reference, NAGs and comments after it.

    :param calls: :class:`~ddsolver.auction.Call`, call text, or :class:`AnnotatedCall`
        (its ``note_text`` gets a note number, equal texts sharing one).
    :param terminator: ``"*"`` or ``"+"`` to append, or ``""``.
    :returns: ``(lines, notes, entries)``: the section lines, note number -> text for the
        ``Note`` tags, and the calls as :class:`AnnotatedCall` with their note numbers.
    :raises PBNError: for a call that cannot be read or a bad terminator.
    """
    if terminator not in ("", "*", "+"):
        raise PBNError(f"bad auction terminator {brief_repr(terminator)}: '', '*' or '+'")
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
                    raise PBNError(f"bad call {brief_repr(c)}") from None
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
    return lines, {n: text for text, n in numbers.items()}, numbered


def play_lines(cards: Iterable[Card | str], leader: Seat, trump: Strain,
               terminator: str | None = None) -> list[str]:
    """A play section in export layout (PBN 2.1, section 3.6.1): one row per trick, the
    columns by seat from the opening ``leader``, ``-`` for the cards not played in the last
    trick; each trick after the first is led by the winner of the one before (WBF Law 44).

    :param cards: the cards in the order played (:class:`~ddsolver.cards.Card` or text).
    :param terminator: ``"*"``, ``"+"`` or ``""``; default ``"*"`` when fewer than 52
        cards are given, else ``""``.
    :raises PBNError: for a bad card or a bad terminator.
    """
    seq: list[Card] = []
    for c in cards:
        if isinstance(c, Card):
            seq.append(c)
        else:
            card = parse_card(str(c))
            if card is None:
                raise PBNError(f"bad card {brief_repr(c)}")
            seq.append(card)
    if terminator is None:
        terminator = "*" if len(seq) < 52 else ""
    if terminator not in ("", "*", "+"):
        raise PBNError(f"bad play terminator {brief_repr(terminator)}: '', '*' or '+'")
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
    return lines
