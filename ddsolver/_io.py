"""Small file helpers shared by the readers, the writers and the command line.

:func:`atomic_write` replaces a file in one step: the new content goes to a temporary file
in the same directory, is flushed and ``fsync``-ed, then :func:`os.replace` renames it over
the target.  A reader never sees a half-written file, and a crash leaves either the old
file or the new one, never a mixture; a symbolic link is written through (its target is
replaced, the link stays) and a device or FIFO is written into.  :func:`decode_text` turns
the bytes of a text file of unknown provenance (UTF-8 with or without BOM, or Latin-1) into
a string.  :func:`read_capped` and :func:`read_file_capped` read a file object or a path in
chunks, and stop with :class:`~ddsolver.errors.InputTooLargeError` as soon as the input is
larger than a cap (:data:`MAX_INPUT_BYTES`), so that an endless stream (``yes |``) or a huge
file never fills the memory.

:func:`input_file_problem`, :func:`output_file_problem` and :func:`output_folder_problem`
say, before any work is done, why a path a command was given cannot be read or written (an
empty name, a folder that does not exist, a loop of symbolic links...), so that every
command refuses a bad path at its start with the same words; ``ddsolver.cli.check_path``
turns their answer into a usage error naming the option.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
import tempfile
from typing import IO, Any, Optional, Union

from .errors import InputTooLargeError

__all__ = ["MAX_INPUT_BYTES", "READ_CHUNK_BYTES", "atomic_write", "atomic_write_bytes",
           "check_cap", "check_max_bytes", "decode_text", "input_file_problem",
           "output_file_problem", "output_folder_problem", "read_capped", "read_file_capped",
           "first_shared_file", "read_source", "read_text", "same_file", "too_large"]

PathLike = Union[str, "os.PathLike[str]"]

#: The most bytes a capped reader takes in by default: 256 MiB (a hand record with
#: analysis tags takes 650 to 950 bytes a board: some 300,000 boards; a club's is 25 kB).
MAX_INPUT_BYTES = 256 * 1024 * 1024
#: The size of each read of a capped reader: 1 MiB.
READ_CHUNK_BYTES = 1024 * 1024


def check_cap(value: Any, name: str) -> None:
    """Check a cap argument called ``name`` (``max_bytes``, ``max_games``): ``None`` (no
    cap) or an integer of at least 1.

    :raises TypeError: for another type (a bool, a float, a string).
    :raises ValueError: for an integer below 1.
    """
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer or None, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")


def check_max_bytes(max_bytes: Any) -> None:
    """Check a ``max_bytes`` argument (:func:`check_cap`).

    :raises TypeError: for another type than ``None`` or an integer.
    :raises ValueError: for an integer below 1.
    """
    check_cap(max_bytes, "max_bytes")


def _size_text(n: int) -> str:
    mib = 1024 * 1024
    if n >= mib and n % mib == 0:
        return f"{n // mib} MiB"
    return f"{n} bytes"


def too_large(name: Optional[str], max_bytes: int) -> InputTooLargeError:
    """The error for an input larger than ``max_bytes``, naming it and the cap."""
    return InputTooLargeError(
        f"{name or 'the input'} is larger than {_size_text(max_bytes)}, the most that is "
        f"read (max_bytes={max_bytes}); split it into smaller files")


def read_capped(fh: IO[Any], max_bytes: Optional[int] = MAX_INPUT_BYTES,
                name: Optional[str] = None) -> Union[bytes, str]:
    """Read a file object to its end, :data:`READ_CHUNK_BYTES` at a time, and stop as soon
    as more than ``max_bytes`` have come (the rest is not read).

    :param fh: a binary or text file object; a text one's size is counted in UTF-8 bytes.
    :param max_bytes: the cap; ``None`` for none.
    :param name: the input's name for the message.
    :returns: what was read: bytes from a binary file, text from a text file.
    :raises InputTooLargeError: if the input is larger than ``max_bytes``.
    :raises TypeError: if ``read`` returns something else than bytes or text.
    :raises OSError: if reading fails.
    """
    chunks: list = []
    total = 0
    while True:
        chunk = fh.read(READ_CHUNK_BYTES)
        if isinstance(chunk, str):
            total += len(chunk.encode("utf-8", "surrogatepass"))
        elif isinstance(chunk, (bytes, bytearray)):
            total += len(chunk)
        else:
            raise TypeError(f"{name or 'the input'}: read() returned "
                            f"{type(chunk).__name__}, not bytes or text")
        if not chunk:
            empty: Union[bytes, str] = "" if isinstance(chunk, str) else b""
            return empty.join(chunks) if chunks else empty
        if max_bytes is not None and total > max_bytes:
            raise too_large(name, max_bytes)
        chunks.append(bytes(chunk) if isinstance(chunk, bytearray) else chunk)


def read_file_capped(path: PathLike, max_bytes: Optional[int] = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a file, refused without reading it when it is a regular file larger
    than ``max_bytes``; a pipe or a device (``/dev/stdin``, a FIFO) is read in chunks up to
    the cap (:func:`read_capped`).

    :raises InputTooLargeError: if the file is larger than ``max_bytes`` (the message
        names the path).
    :raises OSError: if the file cannot be read.
    """
    name = os.fspath(path)
    with open(path, "rb") as fh:
        if max_bytes is not None:
            info = os.fstat(fh.fileno())
            if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
                raise too_large(name, max_bytes)
        data = read_capped(fh, max_bytes, name)
    assert isinstance(data, bytes)
    return data


def decode_text(data: bytes) -> str:
    """Decode file bytes: UTF-8 (a leading BOM is dropped), else Latin-1 (ISO 8859-1).

    Latin-1 is the character set of PBN 2.1 (section 2.2) and decodes any byte string, so
    this never fails.  A UTF-16 BOM is honoured too; what cannot be UTF-16 after it (an odd
    last byte, a lone surrogate) becomes U+FFFD, as malformed UTF-8 after a UTF-8 BOM does.

    :param data: the raw bytes of the file.
    :returns: the text, line ends untouched.
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):].decode("utf-8", errors="replace")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
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


def read_source(source: Any, marker: str, reader: str) -> tuple[str, str | None]:
    """The text of what a file reader was given, and a name for its messages.

    :param source: bytes (decoded with :func:`decode_text`), a path, a file object (text or
        binary), or the text itself: a ``str`` is taken as text when it holds a line break,
        is blank, or holds ``marker`` and names no existing file; otherwise as a path.
    :param marker: a character every text of the format holds (``"["`` for PBN, ``"|"``
        for LIN).
    :param reader: the reader's name, for the message of a ``TypeError``.
    :returns: ``(text, name)``: ``name`` is the path or the file object's name, else
        ``None``.
    :raises OSError: if the file cannot be read.
    :raises TypeError: for a source of another type.
    """
    if isinstance(source, bytes):
        return decode_text(source), None
    if isinstance(source, str) and (
            "\n" in source or not source.strip()
            or (marker in source and not os.path.isfile(source))):
        return source, None
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as fh:
            data = fh.read()
        return decode_text(data), os.fspath(source)
    if hasattr(source, "read"):
        data = source.read()
        name = getattr(source, "name", None)
        if isinstance(data, bytes):
            data = decode_text(data)
        return data, name if isinstance(name, str) else None
    raise TypeError(f"{reader} needs a path, a file, bytes or text, not "
                    f"{type(source).__name__}")


def atomic_write_bytes(path: PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temporary file, fsync, :func:`os.replace`).

    A symbolic link is written through: the file it points to is replaced (atomically, in
    that file's directory) and the link stays a link.  A target that is not a regular file
    (a device such as ``/dev/null``, a FIFO) cannot be replaced: the data is written into
    it.  The permissions of an existing target are kept; a new file gets the usual
    ``0o666 & ~umask``.

    :raises IsADirectoryError: if ``path`` (or the file a link points to) is a directory.
    :raises OSError: if the directory is not writable, the disk is full, a link points into
        a folder that does not exist or links form a loop; the target is then unchanged
        and the temporary file removed.  The message names ``path``.
    """
    path = os.fspath(path)
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:  # a loop of links, a folder that cannot be searched
        raise OSError(exc.errno, exc.strerror, path) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    if mode is not None and not stat.S_ISREG(mode):
        # /dev/null, a FIFO...: cannot be replaced (and must not be), so written into
        with open(target, "wb") as fh:
            fh.write(data)
        return
    directory = os.path.dirname(target)
    base = os.path.basename(target)
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
        if mode is not None:
            mode &= 0o7777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
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


# ---------------------------------------------------------------------------------------
# Checking a path before the work (the command line's options)
# ---------------------------------------------------------------------------------------

#: the errors of :func:`os.stat` that mean "no such file (yet)": the name, or a folder on
#: its way, does not exist (or is a file); anything else (a loop of symbolic links, a folder
#: that cannot be searched, a name too long) is a reason of its own.
_MISSING = (errno.ENOENT, errno.ENOTDIR)


def input_file_problem(path: PathLike) -> Optional[str]:
    """Why the file ``path`` cannot be read, or ``None`` when it can (checked before any
    work: the answer names the path and the operating system's reason).

    >>> input_file_problem("")
    'an empty file name'
    """
    path = os.fspath(path)
    if not path.strip():
        return "an empty file name"
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:      # no such file, a loop of symbolic links, ...
        return f"cannot read {path}: {exc.strerror}"
    if stat.S_ISDIR(mode):
        return f"cannot read {path}: it is a folder"
    if not os.access(path, os.R_OK):
        return f"cannot read {path}: {os.strerror(errno.EACCES)}"
    return None


#: The separators a path may end in: ``/`` (and ``\\`` on Windows).
_SEPARATORS = tuple(sep for sep in (os.sep, os.altsep) if sep)


def same_file(path_a: PathLike, path_b: PathLike) -> bool:
    """The two paths name one file: the same path once symbolic links and ``..`` are
    resolved, or (both existing) one file under two names (a hard link).  Raises
    nothing (a path that cannot be resolved is another file)."""
    try:
        if os.path.realpath(path_a) == os.path.realpath(path_b):
            return True
        return (os.path.exists(path_a) and os.path.exists(path_b)
                and os.path.samefile(path_a, path_b))
    except (OSError, TypeError, ValueError):
        return False


def first_shared_file(files) -> Optional[tuple]:
    """The first two of ``files`` (pairs ``(path or None, option name)``, in order) that
    name one file (:func:`same_file`), as ``(option, other_option, other_path)``, else
    ``None``: a command given one file for two jobs refuses it before any work."""
    for i, (path, option) in enumerate(files):
        for other, other_option in files[i + 1:]:
            if path is not None and other is not None and same_file(path, other):
                return option, other_option, other
    return None


def output_file_problem(path: PathLike) -> Optional[str]:
    """Why a file cannot be written at ``path``, or ``None`` when it can: checked before the
    work whose result it will hold (a typing mistake is found at the start, not after the
    solving or the match).  A symbolic link is followed (the file it points to is the one
    written, :func:`atomic_write_bytes`), so a link into a missing folder is refused.

    The reasons: an empty name; a loop of symbolic links or another reason of the operating
    system; a folder given where a file is needed, or a path ending in a separator
    (``out/new/``: it names a folder, even one that does not exist yet); a folder (of the
    file, or of the file a link points to) that does not exist, is not a folder or is not
    writable; an existing device or FIFO that is not writable.
    """
    path = os.fspath(path)
    if not path.strip():
        return "an empty file name"
    try:
        mode: Optional[int] = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno not in _MISSING:
            return f"cannot write {path}: {exc.strerror}"
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        return f"cannot write {path}: it is a folder"
    if path.endswith(_SEPARATORS):
        # 'out/newdir/' would be written as the file 'out/newdir' (or fail after the work)
        return (f"cannot write {path}: it names a folder (the path of a file must not end "
                f"in {path[-1]!r})")
    if mode is not None and not stat.S_ISREG(mode):
        # /dev/null, a FIFO: written into, the folder does not matter
        return None if os.access(path, os.W_OK) else \
            f"cannot write {path}: {os.strerror(errno.EACCES)}"
    folder = os.path.dirname(os.path.abspath(os.path.realpath(path)))
    if not os.path.isdir(folder):
        what = "is not a folder" if os.path.exists(folder) else "does not exist"
        return f"cannot write {path}: the folder {folder} {what}"
    if not os.access(folder, os.W_OK):
        return f"cannot write {path}: the folder {folder} is not writable"
    return None


def output_folder_problem(path: PathLike) -> Optional[str]:
    """Why files cannot be written in the folder ``path`` (created when missing), or
    ``None`` when they can: an empty name, a loop of symbolic links or another reason of the
    operating system, a path that is not a folder, a folder that is not writable, or, for a
    missing folder, a nearest existing parent that is not a writable folder.
    """
    path = os.fspath(path)
    if not path.strip():
        return "an empty folder name"
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno not in _MISSING:
            return f"cannot use the folder {path}: {exc.strerror}"
    else:
        if not stat.S_ISDIR(mode):
            return f"cannot use the folder {path}: it is not a folder"
        if not os.access(path, os.W_OK):
            return f"cannot write in the folder {path}: it is not writable"
        return None
    # missing: created with its parents, from the nearest one that exists
    parent = os.path.abspath(os.path.realpath(path))
    while not os.path.lexists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        return f"cannot create the folder {path}: {parent} is not a folder"
    if not os.access(parent, os.W_OK):
        return f"cannot create the folder {path}: {parent} is not writable"
    return None
