"""Small file helpers shared by the readers, the writers and the command line.

:func:`atomic_write` replaces a file in one step: the new content goes to a temporary file
in the same directory, is flushed and ``fsync``-ed, then :func:`os.replace` renames it over
the target.  A reader never sees a half-written file, and a crash leaves either the old
file or the new one, never a mixture.  :func:`decode_text` turns the bytes of a text file
of unknown provenance (UTF-8 with or without BOM, or Latin-1) into a string.
"""

from __future__ import annotations

import codecs
import os
import tempfile
from typing import Union

__all__ = ["atomic_write", "atomic_write_bytes", "decode_text", "read_text"]

PathLike = Union[str, "os.PathLike[str]"]


def decode_text(data: bytes) -> str:
    """Decode file bytes: UTF-8 (a leading BOM is dropped), else Latin-1 (ISO 8859-1).

    Latin-1 is the character set of PBN 2.1 (section 2.2) and decodes any byte string, so
    this never fails.  A UTF-16 BOM is honoured too.

    :param data: the raw bytes of the file.
    :returns: the text, line ends untouched.
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):].decode("utf-8", errors="replace")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_text(path: PathLike) -> str:
    """Read a text file with :func:`decode_text` (any of UTF-8, UTF-8 with BOM, Latin-1).

    :raises OSError: if the file cannot be read.
    """
    with open(path, "rb") as fh:
        return decode_text(fh.read())


def atomic_write_bytes(path: PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temporary file, fsync, :func:`os.replace`).

    The permissions of an existing target are kept; a new file gets the usual
    ``0o666 & ~umask``.

    :raises OSError: if the directory is not writable or the disk is full; the target is
        then unchanged and the temporary file removed.
    """
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    base = os.path.basename(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        # name the target, not the temporary file (OSError(errno, ...) keeps the subclass)
        raise OSError(exc.errno, exc.strerror, path) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            mode = os.stat(path).st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    # Make the rename itself durable where the platform allows it.
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(dir_fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(dir_fd)


def atomic_write(path: PathLike, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically; see :func:`atomic_write_bytes`.

    The text is written as given: no newline translation is done, so put ``"\\r\\n"`` in
    ``text`` yourself where CRLF line ends are wanted.

    :raises UnicodeEncodeError: if ``text`` cannot be encoded (the target is unchanged).
    :raises OSError: as :func:`atomic_write_bytes`.
    """
    atomic_write_bytes(path, text.encode(encoding))
