"""Tag pairs of a PBN game: the :class:`Tag` object, tag names and value escapes.

A tag pair is ``[Name "value"]`` (PBN 2.1, section 3.2): the name is made of letters,
digits and underscores; inside the quoted value a quote is written ``\\"`` and a backslash
before a quote or a backslash is doubled.  The 15 tags of the Mandatory Tag Set come in a
fixed order in export format (section 3.4).  Whatever follows a tag up to the next one (the
lines of an auction or play section, a table of a supplemental section, comments) belongs
to that tag.

Source: PBN standard 2.1, Tis Veugen and Kaj G Backas (2007, text of 2017.02.14).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["MANDATORY_TAGS", "Tag"]

#: The 15 tags of the Mandatory Tag Set, in export order (PBN 2.1, section 3.4).
MANDATORY_TAGS = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
    "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
)

#: A tag name (PBN 2.1, section 3.2: letters, digits and underscores).
NAME_RE = re.compile(r"[A-Za-z0-9_]+")


class LazyList:
    """A list attribute kept in the slot ``slot`` as ``None`` until it is first asked for,
    then made empty there: the many objects without such a list (most tags have no section
    and no comment) cost none.  Assigning stores the very list given.

    :param slot: the name of the slot that holds the list (or ``None``).
    :param doc: the attribute's docstring.
    """

    def __init__(self, slot: str, doc: str) -> None:
        self.slot = slot
        self.__doc__ = doc

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        found = getattr(obj, self.slot)
        if found is None:
            found = []
            setattr(obj, self.slot, found)
        return found

    def __set__(self, obj, value) -> None:
        setattr(obj, self.slot, value)


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

    :attr:`section` and :attr:`comments` are lists (the very lists given, if any); an empty
    one is made only when it is first asked for, so that the many tags without a section
    or a comment (most of a file) cost no lists: a tag is ~90 bytes (slots) plus its
    strings, where a dataclass with two empty lists took ~250.  Two tags are equal when
    their names, values, sections and comments are (an absent list equals an empty one);
    tags are not hashable.  The constructor's arguments, their order and the ``repr`` are
    those of the dataclass this class replaced.
    """

    __slots__ = ("_comments", "_section", "line", "name", "raw_value", "section_lines",
                 "value")
    __match_args__ = ("name", "value", "section", "comments", "raw_value", "line",
                      "section_lines")

    def __init__(self, name: str, value: str, section: list[str] | None = None,
                 comments: list[str] | None = None, raw_value: str | None = None,
                 line: int | None = None, section_lines: list[int] | None = None):
        self.name = name
        self.value = value
        self._section = section        # None: no list made yet (an empty section)
        self._comments = comments      # None: likewise
        self.raw_value = raw_value
        self.line = line
        self.section_lines = section_lines

    section = LazyList("_section", "The section lines (a list, made empty on first access "
                                   "if there is none).")
    comments = LazyList("_comments", "The comments after the tag (a list, made empty on "
                                     "first access if none).")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name == other.name and self.value == other.value    # type: ignore
                and (self._section or []) == (other._section or [])       # type: ignore
                and (self._comments or []) == (other._comments or []))    # type: ignore

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(name={self.name!r}, value={self.value!r}, "
                f"section={self._section or []!r}, comments={self._comments or []!r})")

    def section_view(self) -> list[str] | tuple[()]:
        """The section lines without making a list for an empty section: the list itself,
        or ``()`` (read only: change the section through :attr:`section`)."""
        return self._section or ()

    def comments_view(self) -> list[str] | tuple[()]:
        """The comments without making a list when there is none: the list itself, or
        ``()`` (read only: change them through :attr:`comments`)."""
        return self._comments or ()

    def to_pbn(self) -> str:
        """The tag pair in export form: ``[Name "value"]`` (quotes and backslashes escaped
        where needed, PBN 2.1 section 3.2)."""
        return f'[{self.name} "{escape_value(self.value)}"]'


def section_lines(section: str | Sequence[str]) -> list[str]:
    """Section lines given as a list or as one string: split at line breaks, trailing
    white space and trailing empty lines removed."""
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


def comment_text(raw: str) -> str:
    """The text of a comment written ``{ text }`` or ``; text`` (PBN 2.1, section 3.8)."""
    raw = raw.strip()
    if raw.startswith("{") and raw.endswith("}"):
        return raw[1:-1].strip()
    if raw.startswith(";"):
        return raw[1:].strip()
    return raw


def escape_value(value: str) -> str:
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

