"""The PBN reader: PBN text, bytes or files to :class:`~ddsolver.pbn.game.PBNGame` objects.

The reader takes PBN *import format* (PBN 2.1, section 2.1) as real programs write it:
several games per file separated by semi-empty lines (section 3; a second ``Event`` or
``Board`` tag, or any tag repeated after the ``Deal``, with no empty line before it also
starts a new game, with a warning), ``%`` escape lines (2.4), ``{}`` comments over several
lines and ``;`` rest-of-line comments (3.8), tag pairs with stray white space such as
``[ Auction "E"]`` or spanning lines (3.3), CRLF, CR or LF line ends, UTF-8 with or without
BOM, UTF-16 with a BOM, or Latin-1 (2.2), ``#``/``##`` inherited tag values (4.8).  The
sections after the tags are kept verbatim and read by the game on demand.

Source: PBN standard 2.1, Tis Veugen and Kaj G Backas (2007, text of 2017.02.14).
"""

from __future__ import annotations

import os
import re
import sys
from typing import IO, Union

from .._io import check_cap, read_source
from ..errors import InputTooLargeError, PBNError, brief_repr
from .game import PBNGame
from .tags import NAME_RE, Tag

__all__ = ["parse_pbn", "read_pbn"]

#: Tags that, met a second time in a game, start the next game (so does any tag met again
#: once the game has its Deal): a file whose games are not separated by empty lines (PBN
#: 2.1, section 3) would otherwise lose all but the first.
_GAME_START_TAGS = frozenset(["Event", "Board"])

#: Tags whose value may not be inherited with ``#`` or ``##`` (PBN 2.1, section 4.8).
_NO_INHERIT = frozenset(
    ["Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"])

_BOARD_HINT_RE = re.compile(r'\[\s*Board\s*"([^"\n]*)"')

#: The ``% PBN 2.1`` and ``% EXPORT`` lines, which the writer writes itself: not kept as
#: escape lines of a game; those of the file's start (before its first tag) are kept as
#: the first game's :attr:`~PBNGame.file_header`, so that ``% EXPORT`` is written back.
_VERSION_LINE_RE = re.compile(r"%\s*(PBN\s+\d|EXPORT\s*$)")
#: The same lines, with their line end, in a text of several lines (``[^\S\n]`` is ``\s``
#: within one line).
_VERSION_LINES_RE = re.compile(
    r"^%[^\S\n]*(?:PBN[^\S\n]+\d|EXPORT[^\S\n]*$)[^\n]*(?:\n|\Z)", re.MULTILINE)
#: White space at the end of a line (what ``str.rstrip()`` takes off each line); tried only
#: where a run of white space starts, so that a long run that does not end its line costs
#: its length (taken, then given back a character at a time: none is followed by the line
#: end), not its square.
_LINE_END_SPACE_RE = re.compile(r"(?<![^\S\n])[^\S\n]+$", re.MULTILINE)
#: An empty line (or only white space) and the line end before it: the end of a game.
_GAME_END_RE = re.compile(r"\n[ \t\v\f]*(?:\n|\Z)")
_LEADING_SPACE_RE = re.compile(r"\s*")
#: A quoted string that ends on its line: ``\"`` in it is a quote and ``\\`` a backslash;
#: another backslash stands for itself.  Never read another way on failure: a value full of
#: ``\"`` that does not close is not backtracked through, nor is its last ``\"`` taken for
#: a backslash and the closing quote.  Python 3.9 and 3.10 have no possessive ``*+`` nor
#: atomic group: the value is matched in a look-ahead (never backtracked into) and taken
#: whole with a back-reference, in batches of up to 1000 escapes, since re keeps memory for
#: each repetition of a group until the match ends (gigabytes for 10 MB of ``\"``).
_STRING_RE = re.compile(
    r'"((?:(?=(?P<batch>[^"\\\n]*(?:\\["\\]?[^"\\\n]*){0,1000}))(?P=batch))*)"')
_ESCAPE_RE = re.compile(r'\\(["\\])')
#: A whole tag on one line, the usual case (one with a line break in it goes the long way).
#: Each run of spaces, and the name, ends where the next part cannot start: giving back a
#: character never finds another match, and costs no more than taking it.
_TAG_RE = re.compile(r"\[[ \t\v\f]*(" + NAME_RE.pattern + r")[ \t\v\f]*"
                     + _STRING_RE.pattern + r"[ \t\v\f]*\]")
#: What may stand outside a tag: white space, ``;`` and ``{}`` comments, escape lines.
#: Taken in batches, each in a look-ahead, as in ``_STRING_RE``: 16 MB of ``;x`` lines
#: would otherwise hold 2 GB until the match ends.
_OUTSIDE_TAGS_RE = re.compile(
    r"(?:(?=(?P<batch>(?:[ \t\v\f\n]+|;[^\n]*|\{[^}]*\}|^%[^\n]*){0,1000}))(?P=batch))*",
    re.MULTILINE)

#: What the reader and the writer take: a path, or a file object (text or binary).
PathOrFile = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


class _RawTag:
    __slots__ = ("comments", "end", "has_data", "line", "name", "start", "value")

    def __init__(self, name: str, value: str, line: int, start: int):
        self.name = name
        self.value = value
        self.line = line
        self.start = start
        self.end = start
        self.has_data = False
        self.comments: list[str] | None = None   # made with the first comment


class _Reader:
    """Scans a whole PBN text: games, tags, comments, escape lines, section spans."""

    def __init__(self, text: str, source: str | None, keep: bool = False,
                 max_games: int | None = None):
        text = text.removeprefix("\ufeff")
        self.max_games = max_games       # refuse the input past this many games
        self.keep = keep                 # keep a game that cannot be read, with its error
        self.text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.source = source
        # A text without '[' has no tag, hence no game: reading it can only end with its
        # first error or with no games.  Unless unreadable games are kept (with what
        # follows them), what comes before the first error is skipped in one go.
        self.skip_to_error = not keep and "[" not in self.text
        # (position, its line number): where line_of last counted to.  Line numbers are
        # counted on demand from there (reading asks for them in file order), rather than
        # from a table of every line's start, which costs a Python int a line up front.
        self._line_mark = (0, 1)
        self.escape_lines: set = set()
        self.games: list[PBNGame] = []
        self.sticky: dict[str, str] = {}
        self.last_value: dict[str, str] = {}
        self.pending: list[str] = []     # warnings for the next game finished
        self.header: list[str] = []      # version lines before the file's first tag

    def add(self, game: PBNGame) -> None:
        """Append a game read (or kept unread), refusing the input past ``max_games``."""
        if self.max_games is not None and len(self.games) >= self.max_games:
            raise InputTooLargeError(
                f"{self.source or 'the input'} holds more than {self.max_games:,} games, the "
                f"most that is read (max_games={self.max_games}); split it into smaller files")
        self.games.append(game)

    def line_of(self, pos: int) -> int:
        """The number (from 1) of the line that holds ``text[pos]``."""
        mark, line = self._line_mark
        if pos >= mark:
            line += self.text.count("\n", mark, pos)
        else:
            line -= self.text.count("\n", pos, mark)
        self._line_mark = (pos, line)
        return line

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
        exc = PBNError(f"{self.where(pos, game_start)}: {message}")
        exc._span = (game_start, pos)  # where the game started and where reading failed
        return exc

    def run(self) -> list[PBNGame]:
        pos = 0
        while True:
            try:
                self.scan(pos)
                return self.games
            except PBNError as exc:
                span = getattr(exc, "_span", None)
                if not self.keep or span is None:
                    raise
                pos = self.skip_game(span[0], span[1], exc)

    def skip_game(self, start: int, pos: int, exc: PBNError) -> int:
        """Keep the game that starts at ``start`` and could not be read at ``pos`` as text
        with its error, up to the next empty line (PBN 2.1, section 3: games are separated
        by an empty line); returns where reading goes on."""
        text = self.text
        m = _GAME_END_RE.search(text, max(start, pos - 1))
        end = m.start() + 1 if m else len(text)
        self.keep_unread(start, end, exc)
        return end

    def keep_unread(self, start: int, end: int, exc: PBNError,
                    game: PBNGame | None = None) -> None:
        """Add the game of ``text[start:end]`` that could not be read, with its error and
        its text (written back as read)."""
        # Worked on the game's text as a whole, not line by line: an unreadable "game" may
        # be a whole file of garbage (millions of lines).  The same as: its lines without
        # the version lines, each rstrip()-ed, without empty lines first and last.
        chunk = self.text[start:end]
        if "%" in chunk:
            chunk = _VERSION_LINES_RE.sub("", chunk)
        chunk = _LINE_END_SPACE_RE.sub("", chunk).strip("\n")
        if game is None:
            game = PBNGame()
            m = _BOARD_HINT_RE.search(self.text, start, end)
            if m and m.group(1).strip() not in ("", "?", "#"):
                game.tag_list.append(Tag("Board", m.group(1).strip()))
            game.index = len(self.games) + 1
            game.line = self.line_of(_LEADING_SPACE_RE.match(self.text, start, end).end())
            game.source = self.source
            for message in self.pending:
                game._warn(message)
            self.pending = []
        game.error = str(exc)
        game.raw_text = chunk
        if not self.games and self.header:
            game.file_header = tuple(self.header)
        self.add(game)

    def scan(self, pos: int) -> None:
        text = self.text
        n = len(text)
        tags: list[_RawTag] = []
        names: set = set()      # the names of ``tags``
        preamble: list[str] = []
        escapes: list[str] = []
        game_start = pos
        at_line_start = True
        if self.skip_to_error:
            # nothing skipped here is kept: there is no game to keep it with
            pos = _OUTSIDE_TAGS_RE.match(text, pos).end()
            at_line_start = False   # not '%' at a line start, nor an empty line: skipped
        while pos < n:
            if at_line_start:
                eol = text.find("\n", pos)
                if eol < 0:
                    eol = n
                line = text[pos:eol]
                if line.startswith("%"):
                    self.escape_lines.add(self.line_of(pos))
                    if not _VERSION_LINE_RE.match(line):
                        escapes.append(line.rstrip())
                    elif not self.games and not tags:
                        self.header.append(line.rstrip())
                    pos = eol + 1
                    continue
                if not line.strip(" \t\v\f"):
                    if tags:
                        tags[-1].end = pos
                        self.finish(tags, preamble, escapes, game_start, pos)
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
                    self.finish(tags, preamble, escapes, game_start, start)
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
            self.finish(tags, preamble, escapes, game_start, n)
        elif (preamble or escapes) and self.games:
            # Comments after the last game: they follow its last tag (or section).
            last = self.games[-1]
            if last.raw_text is not None:
                last.raw_text = "\n".join([last.raw_text, *escapes,
                                           *(x for c in preamble for x in c.split("\n"))])
                return
            tag = last.tag_list[-1]
            if tag.section_view():
                tag.section.extend(x for c in preamble for x in c.split("\n"))
                tag.section_lines = None
            else:
                tag.comments.extend(preamble)
            last.escapes.extend(escapes)

    def add_comment(self, tags: list[_RawTag], preamble: list[str], comment: str) -> None:
        if tags:
            raw = tags[-1]
            if raw.comments is None:
                raw.comments = [comment]
            else:
                raw.comments.append(comment)
        else:
            preamble.append(comment)

    def read_string(self, pos: int, game_start: int, what: str) -> tuple[str, int]:
        m = _STRING_RE.match(self.text, pos)
        if m is not None:
            value = m.group(1)
            return (_ESCAPE_RE.sub(r"\1", value) if "\\" in value else value), m.end()
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
        m = _TAG_RE.match(text, start)
        if m is not None:
            value = m.group(2)
            if "\\" in value:
                value = _ESCAPE_RE.sub(r"\1", value)
            return (_RawTag(sys.intern(m.group(1)), value, self.line_of(start), m.end()),
                    m.end())
        pos = self.skip_ws(start + 1, start, game_start, "")
        m = NAME_RE.match(text, pos)
        if m is None:
            eol = text.find("\n", start)   # (not a copy of the rest of the text per error)
            snippet = text[start:eol if eol >= 0 else None]
            raise self.error(start, game_start, f"bad tag {snippet.strip()[:40]!r}: no tag name")
        name = sys.intern(m.group(0))   # a few names, each in thousands of games
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
        end = raw.end
        if end > raw.start and self.text[end - 1] == "\n":
            end -= 1    # the section ends with its last line's end: no line after it
        first = self.line_of(raw.start)
        lines: list[str] = []
        numbers: list[int] = []
        for ln, seg in enumerate(self.text[raw.start:end].split("\n"), first):
            if ln in self.escape_lines:
                continue
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

    def finish(self, raws: list[_RawTag], preamble: list[str], escapes: list[str],
               start: int, end: int) -> None:
        """Make the game of the tags ``raws`` (its text is ``text[start:end]``)."""
        game = PBNGame(preamble=preamble, escapes=escapes)
        game.index = len(self.games) + 1
        game.line = raws[0].line
        if not self.games and self.header:
            game.file_header = tuple(self.header)
        game.source = self.source
        for message in self.pending:
            game._warn(message)
        self.pending = []
        seen: set = set()
        for raw in raws:
            if raw.has_data:
                tag = Tag(raw.name, raw.value, line=raw.line)
                tag.section, tag.section_lines = self.section_of(raw)
            else:
                tag = Tag(raw.name, raw.value, comments=raw.comments, line=raw.line)
            if raw.name != "Note" and raw.name in seen:
                game._warn(f"line {raw.line}: repeated tag {raw.name} ignored (PBN 2.1, "
                           f"section 3.4)")
                continue
            seen.add(raw.name)
            game.tag_list.append(tag)
        try:
            self.inherit(game)
            game.validate()
        except PBNError as exc:
            if not self.keep:
                raise
            self.keep_unread(start, end, exc, game)
            return
        self.add(game)

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


def check_max_games(max_games) -> None:
    """Check a ``max_games`` argument (:func:`ddsolver._io.check_cap`): ``None`` (no cap)
    or an integer of at least 1.

    :raises TypeError: for another type (``bool`` included).
    :raises ValueError: for an integer below 1.
    """
    check_cap(max_games, "max_games")


def parse_pbn(text: str, *, source: str | None = None, errors: str = "raise",
              max_games: int | None = None) -> list[PBNGame]:
    """Parse PBN text (import format, PBN 2.1) into games.

    :param text: the file's text (any line ends; a BOM is dropped).
    :param source: a name for error messages (a file name).
    :param errors: ``"raise"`` (default): the first malformed game raises
        :class:`~ddsolver.errors.PBNError`.  ``"keep"``: a malformed game is returned in its
        place with :attr:`PBNGame.error` (the message) and :attr:`PBNGame.raw_text` (its
        text, which the writer writes back as read), and reading goes on after the next
        empty line (the end of that game, PBN 2.1 section 3).
    :param max_games: the most games read (unreadable ones kept with ``errors="keep"``
        count too), ``None`` (default) for no cap: a bound on the memory the games take,
        several hundred bytes each even for a game of one tag.
    :returns: one :class:`PBNGame` per game, in file order, each validated (or, with
        ``errors="keep"``, carrying its error).
    :raises PBNError: for malformed input, naming the line and the board (or game number):
        an unterminated tag, string or comment, text outside a tag, a bad deal, an unknown
        seat, a bad call or card, a forbidden ``#`` inheritance...
    :raises InputTooLargeError: if the text holds more than ``max_games`` games (raised
        when the next game is read; the message names the source and the cap).
    :raises TypeError: if ``text`` is not a ``str``, or ``max_games`` is neither ``None``
        nor an integer.
    :raises ValueError: for ``errors`` other than ``"raise"`` or ``"keep"``, or a
        ``max_games`` below 1.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_pbn needs a str, got {type(text).__name__}")
    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep', got {brief_repr(errors)}")
    check_max_games(max_games)
    return _Reader(text, source, keep=errors == "keep", max_games=max_games).run()


def read_pbn(source: PathOrFile | bytes, *, errors: str = "raise") -> list[PBNGame]:
    """Read PBN games from a path, a file object, bytes, or PBN text.

    A ``str`` is taken as PBN text when it contains a line break, is blank (no games), or
    holds a ``[`` and names no existing file; otherwise as a path.  Bytes and files are
    decoded as UTF-8 (BOM or not), as UTF-16 after a UTF-16 byte-order mark, or else as
    Latin-1.

    :param errors: ``"raise"`` or ``"keep"`` (see :func:`parse_pbn`).
    :returns: the games (see :func:`parse_pbn`).
    :raises PBNError: for malformed input (the message starts with the file name).
    :raises OSError: if the file cannot be read.
    :raises TypeError: for a source of another type.
    """
    text, name = read_source(source, "[", "read_pbn")
    return parse_pbn(text, source=name, errors=errors)
