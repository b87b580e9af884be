"""The boards of the day and their leaderboard.

Four new boards each day, the same for everyone: the deals depend on the date alone, so two
players anywhere, on any machine and any Python version, get the same four deals on the
same date.  They are played against medium computers (:class:`DailyBoards`) and the result
goes on a leaderboard kept in SQLite (:class:`Leaderboard`).

**The deals of a date** (:func:`daily_deals`).  For the date's ISO text ``D``
(``"2024-03-01"``; the caller passes its own local date, see :func:`local_today`) and board
``b`` in 1..4:

1. a stream of 32-bit words: block ``k`` (``k = 0, 1, 2, ...``) is the SHA-256 digest of the
   ASCII text ``"ddsolver boards of the day D board b block k"`` (numbers in decimal, single
   spaces); each 32-byte digest gives eight words, big-endian, taken in order, block after
   block;
2. the deck listed spades A..2, hearts A..2, diamonds A..2, clubs A..2 (position 0 is the
   ace of spades, 51 the two of clubs);
3. Fisher-Yates from the top (Knuth, TAOCP vol. 2, algorithm 3.4.2 P): for ``i`` from 51
   down to 1, with ``n = i + 1``, draw words until one is below ``2**32 - (2**32 mod n)``
   (rejection: every ``j`` equally likely), set ``j = word mod n`` and swap positions ``i``
   and ``j``;
4. North gets positions 0-12, East 13-25, South 26-38, West 39-51.

Dealer and vulnerability are those of boards 1-4 in the standard cycle (1: North, none; 2:
East, North-South; 3: South, East-West; 4: West, both) -- the same as Chicago's.  Nothing
here uses Python's :mod:`random` or ``hash()``, whose algorithms or seeds may differ
between versions and processes.

**Scoring.**  Each board stands alone and is scored with the duplicate table from
North-South's (the human's) point of view; a passed-out board scores 0 and is not dealt
again, so that everybody plays the same four deals.  The day's score is the sum of the four.

**The leaderboard** (:class:`Leaderboard`): a SQLite file (default
:func:`default_leaderboard_path`, in the user's data directory) with one entry per name per
day: name, date, score and the four results.  Every write is one transaction (``BEGIN
IMMEDIATE`` ... ``COMMIT``) in WAL mode with a busy timeout, so two programs may write at
once and a program killed mid-write leaves the file as it was before that write.  A file
that is not a leaderboard (corrupt, another program's database, or a newer layout) raises
:class:`LeaderboardFileError`.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import re
import sqlite3
import stat
import unicodedata
import urllib.parse
from dataclasses import dataclass
from typing import Iterator, List, Optional, Sequence, Tuple, Union

from ai.chicago import BoardSeries, SavedGameError, read_json
from ai.game import BoardResult
from ddsolver.cards import PBN_SUIT_ORDER, Card
from ddsolver.deal import Deal, Hand
from ddsolver.errors import BridgeError
from ddsolver.table import Seat, Vulnerability, board_dealer, board_vulnerability

__all__ = [
    "BOARDS",
    "SCHEMA_VERSION",
    "DailyBoards",
    "DuplicateEntryError",
    "Entry",
    "Leaderboard",
    "LeaderboardError",
    "LeaderboardFileError",
    "LeaderboardPathError",
    "check_leaderboard",
    "daily_deals",
    "default_data_dir",
    "default_leaderboard_path",
    "load_game",
    "local_today",
]

#: Boards of the day.
BOARDS = 4

DateLike = Union[datetime.date, str]


_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_day(text: str) -> str:
    """A calendar date written ``YYYY-MM-DD`` (ISO 8601's extended form), returned in that
    form.  Raises ValueError naming the text for anything else, including the forms
    ``datetime.date.fromisoformat`` also reads since Python 3.11 (``20240101``,
    ``2024-W01-1``)."""
    if not _DAY.fullmatch(text):
        raise ValueError(f"not a date (YYYY-MM-DD): {text[:20]!r}")
    try:
        return datetime.date.fromisoformat(text).isoformat()
    except ValueError:
        raise ValueError(f"not a date (YYYY-MM-DD): {text[:20]!r}") from None


def _iso(date: DateLike) -> str:
    if isinstance(date, datetime.datetime):
        raise TypeError("give the date (datetime.date), not a datetime: the local date is "
                        "the caller's to choose")
    if isinstance(date, datetime.date):
        return date.isoformat()
    if isinstance(date, str):
        return parse_day(date.strip())
    raise TypeError(f"a date must be a datetime.date or 'YYYY-MM-DD' text, got "
                    f"{type(date).__name__}")


def local_today() -> datetime.date:
    """The caller's local date (the boards of the day follow the player's calendar)."""
    return datetime.date.today()


# --------------------------------------------------------------------------------------
# The deals of a date
# --------------------------------------------------------------------------------------

_DECK = tuple(Card(s, r) for s in PBN_SUIT_ORDER for r in range(14, 1, -1))


def _words(text: str) -> Iterator[int]:
    k = 0
    while True:
        digest = hashlib.sha256(f"{text} block {k}".encode("ascii")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i:i + 4], "big")
        k += 1


def daily_deal(date: DateLike, board: int) -> Deal:
    """Board ``board`` (1..4) of the day ``date`` (the algorithm of the module docstring).

    :raises ValueError: for a board outside 1..4 or unreadable date text.
    :raises TypeError: for a date of another type (a ``datetime`` too: pass its date).
    """
    iso = _iso(date)
    if isinstance(board, bool) or not isinstance(board, int) or not 1 <= board <= BOARDS:
        raise ValueError(f"boards of the day are numbered 1..{BOARDS}, got {board!r}")
    words = _words(f"ddsolver boards of the day {iso} board {board}")
    deck = list(_DECK)
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2 ** 32 - (2 ** 32 % n)
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % n
        deck[i], deck[j] = deck[j], deck[i]
    return Deal([Hand(deck[13 * s:13 * s + 13]) for s in range(4)])


def daily_deals(date: DateLike) -> List[Deal]:
    """The four deals of the day ``date`` (a :class:`datetime.date` or ``"YYYY-MM-DD"``).

    :raises ValueError, TypeError: as :func:`daily_deal`.
    """
    return [daily_deal(date, b) for b in range(1, BOARDS + 1)]


# --------------------------------------------------------------------------------------
# Playing them
# --------------------------------------------------------------------------------------

class DailyBoards(BoardSeries):
    """The four boards of one day at one table, saved after every call and card like a
    Chicago match (:class:`ai.chicago.BoardSeries`).

    :param date: the day (:class:`datetime.date` or ``"YYYY-MM-DD"``).
    :param human: the human's seat (default South) or ``None``.
    :param settings: free JSON-ready settings saved with the game (the player's name).
    :param path: where to save after every call and card, or ``None``.
    :raises ValueError, TypeError: for a bad date.
    """

    kind = "boards of the day"

    def __init__(self, date: DateLike, *, human=Seat.SOUTH, settings=None, path=None,
                 system=None):
        super().__init__(human=human, settings=settings, path=path, system=system)
        self.date = _iso(date)
        self._deals = daily_deals(self.date)

    @property
    def is_finished(self) -> bool:
        return len(self.results) >= BOARDS

    @property
    def board_number(self) -> Optional[int]:
        return None if self.is_finished else len(self.results) + 1

    @property
    def dealer(self) -> Optional[Seat]:
        return None if self.is_finished else board_dealer(self.board_number)

    @property
    def vulnerability(self) -> Optional[Vulnerability]:
        return None if self.is_finished else board_vulnerability(self.board_number)

    def _next_deal(self) -> Deal:
        return self._deals[len(self.results)]

    def _score(self, result: BoardResult) -> None:
        pass

    def _extra(self) -> dict:
        return {"date": self.date}

    @property
    def total(self) -> int:
        """The day's score so far: the sum of the boards' North-South duplicate scores."""
        return sum(r.score for r in self.results)

    def result_texts(self) -> List[str]:
        """Each board's result as the leaderboard keeps it: ``"4HS+1 +650"``,
        ``"3NTE-2 +200"``, ``"Pass 0"``."""
        return [f"{r.result_text} {r.score:+d}" if r.score else f"{r.result_text} 0"
                for r in self.results]

    def to_pbn(self, *, newline: str = "\r\n", players=None) -> str:
        """The boards played, as PBN 2.1 (``Event "Boards of the day"``, ``Date`` the
        day, ``Board`` 1..4, ``Score`` North-South's duplicate points)."""
        from ddsolver import dumps_pbn
        games = [r.to_pbn_game(board=i + 1, event="Boards of the day",
                               date=self.date.replace("-", "."), players=players)
                 for i, r in enumerate(self.results)]
        return dumps_pbn(games, newline=newline)

    @classmethod
    def from_dict(cls, data: dict, *, path=None, system=None,
                  where: str = "saved game") -> "DailyBoards":
        """The boards of the day from :meth:`to_dict`'s form, every board checked.

        :raises SavedGameError: for anything missing, damaged or against the rules.
        """
        if not isinstance(data, dict) or data.get("kind") != cls.kind:
            raise SavedGameError(f"{where}: not saved {cls.kind}")
        human = data.get("human")
        try:
            game = cls(data["date"], human=None if human is None else Seat.from_str(human),
                       settings=data.get("settings") or {}, path=path, system=system)
        except KeyError as exc:
            raise SavedGameError(f"{where}: lacks {exc}") from None
        except (TypeError, ValueError, AttributeError) as exc:
            raise SavedGameError(f"{where}: {exc}") from None
        if not isinstance(game.settings, dict):
            raise SavedGameError(f"{where}: \"settings\" must be an object")
        game._restore(data, where)
        return game

    @classmethod
    def load(cls, path, *, system=None) -> "DailyBoards":
        """Read saved boards of the day (they go on saving to the same file).

        :raises SavedGameError: a damaged, foreign or other-version file.
        :raises OSError: if the file cannot be read.
        """
        return cls.from_dict(read_json(path), path=path, system=system,
                             where=os.fspath(path))


def load_game(path, *, system=None) -> BoardSeries:
    """Read a saved game of either kind: a :class:`ai.chicago.ChicagoMatch` or
    :class:`DailyBoards`.

    :raises SavedGameError: a damaged, foreign or other-version file.
    :raises OSError: if the file cannot be read.
    """
    from ai.chicago import ChicagoMatch
    data = read_json(path)
    where = os.fspath(path)
    if data.get("kind") == ChicagoMatch.kind:
        return ChicagoMatch.from_dict(data, path=path, system=system, where=where)
    if data.get("kind") == DailyBoards.kind:
        return DailyBoards.from_dict(data, path=path, system=system, where=where)
    raise SavedGameError(f"{where}: unknown kind of game {data.get('kind')!r}")


# --------------------------------------------------------------------------------------
# The leaderboard
# --------------------------------------------------------------------------------------

#: ``PRAGMA application_id`` of a leaderboard file ("DDLB" in ASCII).
APPLICATION_ID = 0x44444C42
#: ``PRAGMA user_version``: the layout of the tables.  A file of a higher version is refused.
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE entry (
    name     TEXT NOT NULL COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 40),
    day      TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    score    INTEGER NOT NULL,
    result1  TEXT NOT NULL,
    result2  TEXT NOT NULL,
    result3  TEXT NOT NULL,
    result4  TEXT NOT NULL,
    recorded TEXT NOT NULL,
    PRIMARY KEY (name, day)
);
CREATE INDEX entry_by_day ON entry (day, score DESC);
"""

_NAME_RE = re.compile(r"[^\x00-\x1f\x7f]{1,40}")


class LeaderboardError(BridgeError):
    """A leaderboard problem: see :class:`LeaderboardFileError` and
    :class:`DuplicateEntryError`; also a bad name, date or result."""


class LeaderboardFileError(LeaderboardError):
    """The file is not a ddsolver leaderboard: corrupt, another program's database, a
    layout newer than this program's, or it cannot be opened."""


class LeaderboardPathError(LeaderboardFileError):
    """The leaderboard's file is in a folder that does not exist (or is not a folder): it
    is not created there, as the commands refuse such a path (``--leaderboard``), a typing
    mistake would make folders.  Only the default file's folder
    (:func:`default_data_dir`) is created when missing."""


def _folder_problem(path: str) -> Optional[str]:
    """Why the folder of the leaderboard ``path`` (of the file a symbolic link points to)
    cannot hold it, or ``None``."""
    folder = os.path.dirname(os.path.abspath(os.path.realpath(path)))
    if os.path.isdir(folder):
        return None
    what = "is not a folder" if os.path.exists(folder) else "does not exist"
    return f"{path}: cannot open the leaderboard: the folder {folder} {what}"


class DuplicateEntryError(LeaderboardError):
    """The name already has an entry for that day (one entry per name per day)."""


@dataclass(frozen=True)
class Entry:
    """One line of the leaderboard.

    :ivar name: the player's name (1-40 characters; names compare without case).
    :ivar date: the day, ``"YYYY-MM-DD"``.
    :ivar score: the day's score (sum of the four North-South duplicate scores, points).
    :ivar results: the four boards' results, e.g. ``("4HS+1 +650", "Pass 0", ...)``.
    :ivar recorded: when the entry was written, ISO 8601 UTC.
    """

    name: str
    date: str
    score: int
    results: Tuple[str, str, str, str]
    recorded: str


def default_data_dir() -> str:
    """The user's data directory for ddsolver (``platformdirs.user_data_dir``: on Linux
    ``$XDG_DATA_HOME/ddsolver``, default ``~/.local/share/ddsolver``)."""
    import platformdirs
    return platformdirs.user_data_dir("ddsolver", appauthor=False)


def default_leaderboard_path() -> str:
    """``<default_data_dir()>/leaderboard.sqlite3``."""
    return os.path.join(default_data_dir(), "leaderboard.sqlite3")


def _encodable(text: str) -> bool:
    """``text`` can be stored (UTF-8: no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_name(name) -> str:
    """A leaderboard name as stored: Unicode NFKC form (full-width and other compatibility
    letters become the plain ones, so that "Ｂｏｂ" is "Bob"), runs of white space (line
    and paragraph separators included) made one space, 1 to 40 characters of which none is
    a control, format (zero-width, bidirectional override, byte-order mark), private-use or
    unassigned character (Unicode categories C*).

    :raises LeaderboardError: for a missing name, a non-string or a name that breaks these.
    """
    if name is None:
        raise LeaderboardError("a name is required (1 to 40 printable characters)")
    if not isinstance(name, str):
        raise LeaderboardError(f"a name must be text, got {type(name).__name__}")
    clean = " ".join(unicodedata.normalize("NFKC", name).split())
    if not _NAME_RE.fullmatch(clean) or any(unicodedata.category(c)[0] == "C"
                                            for c in clean):
        raise LeaderboardError(f"a name has 1 to 40 printable characters, got {name!r}")
    return clean


def _same_name(a: str, b: str) -> bool:
    """Whether two names (as :func:`_check_name` stores them) are one name: compared
    without case in every script (``str.casefold``), not only A-Z as SQLite's NOCASE."""
    return a.casefold() == b.casefold()


def _check_identity(db, path: str, app: int, version: int) -> None:
    """Refuse an open database that is not a leaderboard of a layout this program reads.

    :raises LeaderboardFileError: naming ``path`` and the reason.
    :raises sqlite3.DatabaseError: for a file that is not SQLite or is corrupt.
    """
    if app != APPLICATION_ID:
        raise LeaderboardFileError(f"{path}: not a ddsolver leaderboard (another "
                                   f"program's database)")
    if version > SCHEMA_VERSION:
        raise LeaderboardFileError(f"{path}: leaderboard layout {version} is "
                                   f"newer than this program's ({SCHEMA_VERSION})")
    if version < 1:
        raise LeaderboardFileError(f"{path}: leaderboard without a layout version")
    check = db.execute("PRAGMA quick_check").fetchall()
    if check != [("ok",)]:
        raise LeaderboardFileError(f"{path}: the leaderboard is damaged: "
                                   f"{'; '.join(str(r[0]) for r in check[:3])}")
    cols = [r[1] for r in db.execute("PRAGMA table_info(entry)")]
    if cols[:8] != ["name", "day", "score", "result1", "result2", "result3", "result4",
                    "recorded"]:
        raise LeaderboardFileError(f"{path}: the leaderboard's table is not the "
                                   f"expected one")


def check_leaderboard(path=None) -> None:
    """Refuse, before anything is played, a file that :class:`Leaderboard` would refuse
    only when the result is recorded: a device (/dev/null), FIFO or socket, text or
    another program's SQLite database, a layout newer than this program's, a damaged
    file, a file in a folder that does not exist.  Nothing is written or created: a
    missing or empty file passes (the leaderboard is made in it when the result is
    recorded), and an existing one is opened read-only.

    :param path: the file; default :func:`default_leaderboard_path` (whose folder may be
        missing: :class:`Leaderboard` creates it).
    :raises LeaderboardPathError: for a ``path`` in a folder that does not exist.
    :raises LeaderboardFileError: naming the file and the reason.
    """
    given = path is not None
    path = os.fspath(path) if path is not None else default_leaderboard_path()
    try:
        st = os.stat(path)
    except FileNotFoundError:
        problem = _folder_problem(path) if given else None
        if problem is not None:
            raise LeaderboardPathError(problem) from None
        return
    except OSError as exc:
        raise LeaderboardFileError(f"{path}: cannot open the leaderboard: "
                                   f"{exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise LeaderboardFileError(f"{path}: not a ddsolver leaderboard (not a regular "
                                   f"file: a device, FIFO, socket or folder)")
    if st.st_size == 0:
        return
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise LeaderboardFileError(f"{path}: cannot open the leaderboard: {exc}") from None
    try:
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        _check_identity(db, path, app, version)
    except sqlite3.DatabaseError as exc:
        raise LeaderboardFileError(f"{path}: not a ddsolver leaderboard (corrupt or "
                                   f"another program's file: {exc})") from None
    finally:
        db.close()


class Leaderboard:
    """The boards-of-the-day leaderboard in a SQLite file.

    :param path: the file (created when missing, in a folder that must exist); default
        :func:`default_leaderboard_path` (its folder, the user's data directory, is
        created when missing).
    :param timeout: seconds to wait for another program's write (busy timeout).
    :raises LeaderboardPathError: ``path``'s folder does not exist or is not a folder
        (nothing is created).
    :raises LeaderboardFileError: the file is corrupt, another program's database, of a
        newer layout, or cannot be opened.

    Use it as a context manager, or call :meth:`close`.
    """

    def __init__(self, path=None, *, timeout: float = 10.0):
        self.path = os.fspath(path) if path is not None else default_leaderboard_path()
        problem = _folder_problem(self.path)
        if problem is not None and path is not None:
            # sqlite3 would say "unable to open database file"; and no folder is made
            raise LeaderboardPathError(problem)
        try:
            if problem is not None:     # the default file's folder, only, is created
                os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise LeaderboardFileError(f"{self.path}: cannot open the leaderboard: {exc}") \
                from None
        try:
            self._open(timeout)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise LeaderboardFileError(f"{self.path}: not a ddsolver leaderboard "
                                       f"(corrupt or another program's file: {exc})") \
                from None
        except LeaderboardError:
            self._db.close()
            raise

    def _open(self, timeout: float) -> None:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        app, version = self._identity()
        if app == 0 and version == 0 and not self._tables():
            db.execute("BEGIN IMMEDIATE")
            try:
                app, version = self._identity()
                if app == 0 and version == 0 and not self._tables():
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            app, version = self._identity()
        _check_identity(db, self.path, app, version)
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal":  # pragma: no cover - a file system without shared memory
            db.execute("PRAGMA journal_mode = DELETE")
        db.execute("PRAGMA synchronous = FULL")

    def _identity(self) -> Tuple[int, int]:
        app = self._db.execute("PRAGMA application_id").fetchone()[0]
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        return app, version

    def _tables(self) -> List[str]:
        return [r[0] for r in self._db.execute("SELECT name FROM sqlite_master")]

    # -- writing ---------------------------------------------------------------------------
    def record(self, name: str, date: DateLike, score: int,
               results: Sequence[str]) -> Entry:
        """Add ``name``'s result of the day ``date`` in one transaction.

        :param results: the four boards' results (text, e.g. from
            :meth:`DailyBoards.result_texts`).
        :raises DuplicateEntryError: the name already has an entry for that day (names
            compare without case).
        :raises LeaderboardError: a bad name (1-40 printable characters), date, score (an
            integer of 64 bits) or results (four non-empty texts).
        :raises LeaderboardFileError: if the file cannot be written.
        """
        name = _check_name(name)
        try:
            day = _iso(date)
        except (TypeError, ValueError) as exc:
            raise LeaderboardError(str(exc)) from None
        if isinstance(score, bool) or not isinstance(score, int) or \
                not -2 ** 63 <= score < 2 ** 63:    # SQLite's INTEGER: 64 bits
            raise LeaderboardError(f"a score is an integer number of points (64 bits), got "
                                   f"{score!r}")
        results = tuple(results)
        if len(results) != BOARDS or not all(isinstance(r, str) and r and _encodable(r)
                                             for r in results):
            raise LeaderboardError(f"an entry has {BOARDS} results as text, got {results!r}")
        recorded = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                # the column's NOCASE folds A-Z only: Émile and émile are one name too
                # (checked under the write lock, so no other writer comes in between)
                if any(_same_name(r[0], name) for r in db.execute(
                        "SELECT name FROM entry WHERE day = ?", (day,))):
                    raise sqlite3.IntegrityError("one entry a name a day")
                db.execute("INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (name, day, score) + results + (recorded,))
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            raise DuplicateEntryError(f"{name} already has an entry for {day} (one a "
                                      f"day)") from None
        except sqlite3.Error as exc:
            raise LeaderboardFileError(f"{self.path}: cannot write the leaderboard: "
                                       f"{exc}") from None
        return Entry(name, day, score, results, recorded)

    # -- reading -----------------------------------------------------------------------------
    def _rows(self, sql: str, args) -> List[Entry]:
        try:
            rows = self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise LeaderboardFileError(f"{self.path}: cannot read the leaderboard: "
                                       f"{exc}") from None
        return [Entry(r[0], r[1], r[2], tuple(r[3:7]), r[7]) for r in rows]

    def entry(self, name: str, date: DateLike) -> Optional[Entry]:
        """``name``'s entry of the day, or ``None``.

        :raises LeaderboardError: a bad name or date.
        """
        name = _check_name(name)
        try:
            day = _iso(date)
        except (TypeError, ValueError) as exc:
            raise LeaderboardError(str(exc)) from None
        rows = self._rows("SELECT * FROM entry WHERE day = ?", (day,))
        return next((e for e in rows if _same_name(e.name, name)), None)

    def day(self, date: DateLike) -> List[Entry]:
        """The day's entries, best score first (ties: the earlier entry first).

        :raises LeaderboardError: a bad date.
        """
        try:
            day = _iso(date)
        except (TypeError, ValueError) as exc:
            raise LeaderboardError(str(exc)) from None
        return self._rows("SELECT * FROM entry WHERE day = ? "
                          "ORDER BY score DESC, recorded, name", (day,))

    def rank(self, name: str, date: DateLike) -> Optional[int]:
        """``name``'s place on the day (1 = best; equal scores share a place), or ``None``
        without an entry."""
        mine = self.entry(name, date)
        if mine is None:
            return None
        better = self._db.execute("SELECT COUNT(*) FROM entry WHERE day = ? AND score > ?",
                                  (mine.date, mine.score)).fetchone()[0]
        return better + 1

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM entry").fetchone()[0]

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def __enter__(self) -> "Leaderboard":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
