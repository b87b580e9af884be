"""The PBN writer: games to PBN text and files.

Every tag, section and comment of a game is written back in its original order, unknown
tags included, with resolved (no longer inherited) tag values, so that each written game
stands alone; games are separated by an empty line (PBN 2.1, section 3), and a file starts
with a ``% PBN 2.1`` line, and a ``% EXPORT`` line after it (PBN 2.1: the file is in export
format, section 2.1) when written with CRLF line ends or when the file read had one (the
first game's :attr:`~ddsolver.pbn.game.PBNGame.file_header`), unless told otherwise.  A
file is written atomically.

Source: PBN standard 2.1, Tis Veugen and Kaj G Backas (2007, text of 2017.02.14).
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable

from .._io import atomic_write_bytes
from ..errors import PBNError, brief_repr
from .game import PBNGame
from .reader import PathOrFile
from .tags import NAME_RE

__all__ = ["dumps_pbn", "write_pbn"]

#: The ``% EXPORT`` line (PBN 2.1: the file is in export format), as the reader takes it.
_EXPORT_LINE_RE = re.compile(r"%\s*EXPORT\s*$")


def _read_as_export(games: list[PBNGame]) -> bool:
    """Whether the file the first of ``games`` was read from had a ``% EXPORT`` line at
    its start."""
    header = games[0].file_header if games else None
    return bool(header) and any(_EXPORT_LINE_RE.match(line) for line in header)


def game_lines(game: PBNGame) -> list[str]:
    """The lines of one game: escape lines, preamble comments, then each tag with its
    comments and section lines.

    A game that could not be read (:attr:`PBNGame.raw_text`) gives its text as read.

    :raises PBNError: for a tag name that is no name or a value with a line break.
    """
    if game.raw_text is not None:
        return game.raw_text.split("\n")
    lines = list(game._escapes or ())      # (the lists are made only when asked for)
    for c in game._preamble or ():
        lines.extend(c.split("\n"))
    for t in game.tag_list:
        if not NAME_RE.fullmatch(t.name):
            raise PBNError(f"cannot write tag name {brief_repr(t.name)}")
        if "\n" in t.value or "\r" in t.value:
            raise PBNError(f"cannot write tag {t.name}: its value has a line break")
        lines.append(t.to_pbn())
        for c in t.comments_view():
            lines.extend(c.split("\n"))
        for s in t.section_view():
            # an empty line can stand in a section only inside a {comment} (elsewhere it
            # ends the game): written as read, as comments are
            lines.append(s.rstrip())
    return lines


def dumps_pbn(games: PBNGame | Iterable[PBNGame], *, newline: str = "\n",
              export: bool | None = None) -> str:
    """PBN text for ``games``: a ``% PBN 2.1`` line, then each game (escape lines,
    comments, tags with their sections and comments in order), games separated by an
    empty line.  Tag values are written resolved (no ``#`` inheritance).

    :param newline: the line end; ``"\\r\\n"`` writes PBN 2.1 export format (CRLF line
        ends, resolved tag values), announced by a ``% EXPORT`` line.
    :param export: whether to write the ``% EXPORT`` line after ``% PBN 2.1``; ``None``
        (default): when ``newline`` is CRLF, or when the first game's file had one
        (:attr:`PBNGame.file_header`, so a file read and written back keeps it).
    :raises PBNError: for a tag that cannot be written (bad name, line break in a value).
    :raises TypeError: if ``games`` is not a PBNGame or an iterable of them, or ``export``
        is neither ``None`` nor a bool.
    :raises ValueError: if ``newline`` is not ``"\\n"``, ``"\\r\\n"`` or ``"\\r"``.
    """
    if export is not None and not isinstance(export, bool):
        raise TypeError(f"export must be True, False or None, not {type(export).__name__}")
    if newline not in ("\n", "\r\n", "\r"):
        raise ValueError(f"newline must be '\\n', '\\r\\n' or '\\r', got {brief_repr(newline)}")
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
    if export is None:
        export = newline == "\r\n" or _read_as_export(games)
    if export:
        out.append("% EXPORT")
    for i, game in enumerate(games):
        if i:
            out.append("")
        out.extend(game_lines(game))
    return newline.join(out) + newline


def pbn_bytes(text: str) -> bytes:
    """PBN text as the bytes of a file: Latin-1 (ISO 8859-1, the PBN character set, PBN 2.1
    section 3.1) when every character fits, else UTF-8."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")


def write_pbn(games: PBNGame | Iterable[PBNGame], path_or_file: PathOrFile, *,
              newline: str = "\r\n", encoding: str | None = None,
              export: bool | None = None) -> None:
    """Write ``games`` as PBN (see :func:`dumps_pbn`).

    A path is written atomically (temporary file in the same directory, fsync, rename):
    the old file stays intact if anything fails.

    :param newline: ``"\\r\\n"`` by default (PBN 2.1 export line end).
    :param export: whether to write a ``% EXPORT`` line (see :func:`dumps_pbn`).
    :param encoding: default Latin-1 (ISO 8859-1, the PBN character set) when every
        character fits, else UTF-8.  Ignored for text-mode files.
    :raises PBNError: for a tag that cannot be written.
    :raises TypeError: if ``games`` is not a PBNGame or an iterable of them, or
        ``path_or_file`` is neither a path nor a file object with a ``write`` method, or
        ``export`` is neither ``None`` nor a bool.
    :raises ValueError: for a ``newline`` other than ``"\\n"``, ``"\\r\\n"`` or ``"\\r"``.
    :raises LookupError: for an ``encoding`` Python does not know (nothing is written).
    :raises OSError: if the file cannot be written.
    """
    if not isinstance(path_or_file, (str, os.PathLike)) and not callable(
            getattr(path_or_file, "write", None)):
        raise TypeError(f"write_pbn needs a path or a writable file, got "
                        f"{type(path_or_file).__name__}")
    text = dumps_pbn(games, newline=newline, export=export)
    data = pbn_bytes(text) if encoding is None else text.encode(encoding)
    if isinstance(path_or_file, (str, os.PathLike)):
        atomic_write_bytes(path_or_file, data)
    elif isinstance(path_or_file, io.TextIOBase) or hasattr(path_or_file, "encoding"):
        path_or_file.write(text)  # type: ignore[arg-type]
    else:
        path_or_file.write(data)  # type: ignore[arg-type]
