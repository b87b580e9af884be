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
from dataclasses import dataclass, field

__all__ = ["MANDATORY_TAGS", "Tag"]

#: The 15 tags of the Mandatory Tag Set, in export order (PBN 2.1, section 3.4).
MANDATORY_TAGS = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
    "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
)

#: A tag name (PBN 2.1, section 3.2: letters, digits and underscores).
NAME_RE = re.compile(r"[A-Za-z0-9_]+")


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

