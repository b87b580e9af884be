"""A Chicago match against the computer, saved after every call and card and resumable.

Chicago (``docs/game.md``, "Rubber and Chicago"): four boards with fixed dealer and
vulnerability (1: North deals, none vulnerable; 2: East, North-South; 3: South, East-West;
4: West, both), part-scores carried until a game, 100 for a board-4 part-score that completes
no game, slams, overtricks, undertricks and doubles from the duplicate table, no honours.
Four passes: the same dealer deals again (the board number does not advance).  The score is
kept by :class:`ddsolver.ChicagoScore`; a player's final score is their side's points minus
the other side's, never below zero.

>>> from ai.chicago import ChicagoMatch
>>> match = ChicagoMatch(seed=1)
>>> match.board_number, match.dealer.name, match.vulnerability.pbn
(1, 'NORTH', 'None')

Playing: :meth:`ChicagoMatch.play` plays the current board with four
:class:`~ai.players.Player` objects (a human South plays North's cards too when North-South
declare: :func:`ai.game.play_board`); :meth:`~ChicagoMatch.play_all` plays to the end.

Deals: the ``n``-th deal of a match (0-based, redeals counted) is
``ddsolver.random_deal(random.Random(f"{seed}:{n}"))`` (text seeding hashes with SHA-512,
the same on every platform), so a match is reproducible from its seed; the deals are also
written in the saved file.

Saving: with a ``path``, the match is written as JSON after every call, card and board (the
file is replaced atomically: a temporary file in the same directory, flushed and fsync-ed,
then :func:`os.replace`; a crash leaves the old file or the new one, never a mixture).
A path that cannot be written (e.g. in a folder that does not exist: it is not created) is
refused by :meth:`~BoardSeries.save` with :class:`SavePathError`, as ``ddsolver-play
--save`` refuses it.
:meth:`ChicagoMatch.load` reads it back and checks every board by the rules; a damaged or
foreign file raises :class:`SavedGameError`.  The same machinery plays the boards of the day
(:mod:`ai.daily`).
"""

from __future__ import annotations

import json
import os
import random
import secrets
import stat
from typing import Callable, List, Mapping, Optional, Tuple

from ai.game import BoardResult, InvalidRecordError, Progress, TableEvent, play_board
from ddsolver import dumps_pbn
from ddsolver._io import atomic_write, output_file_problem
from ddsolver.deal import Deal, random_deal
from ddsolver.errors import BridgeError
from ddsolver.scoring import ChicagoScore
from ddsolver.table import Seat, Side, Vulnerability

__all__ = [
    "MAX_SAVE_SIZE",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "BoardSeries",
    "ChicagoMatch",
    "ForeignFileError",
    "SavePathError",
    "SavedGameError",
    "check_save_path",
    "chicago_deal",
    "lock_saved_game",
    "read_json",
    "write_json_atomic",
]

#: The ``format`` field of every saved game this module writes.
SAVE_FORMAT = "ddsolver-game"
#: The version of the saved-game layout; a file of another version is refused.
SAVE_VERSION = 1
#: The largest saved-game file read (bytes); a larger file is refused unread.
MAX_SAVE_SIZE = 4 * 1024 * 1024


class SavedGameError(BridgeError):
    """A saved game cannot be used: not JSON, another program's file, a version this
    program does not know, or contents that are damaged or break the rules.  The message
    names the file and the problem."""


class ForeignFileError(SavedGameError):
    """The file is not a ddsolver saved game at all: not UTF-8 JSON, or JSON without the
    saved game's ``format`` (a hand record, notes, another program's file).

    :ivar reason: ``"not JSON"`` or ``"JSON of another kind"``."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


class SavePathError(SavedGameError, OSError):
    """A game cannot be saved at the path it was given, found before anything is written
    (:func:`ddsolver._io.output_file_problem`, the check of the commands' options): an
    empty name, a folder, a loop of symbolic links, or a file whose folder (for a symbolic
    link, the folder of the file it points to) does not exist, is not a folder or is not
    writable.  A missing folder is not created (a typing mistake would make folders; the
    commands refuse it too).  Also an :class:`OSError`, as every other failure of
    :meth:`BoardSeries.save`."""


# --------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------

def write_json_atomic(path, data) -> None:
    """Write ``data`` as JSON to ``path`` atomically: a temporary file in the same
    directory, flushed and fsync-ed, then :func:`os.replace` over ``path`` (POSIX rename:
    a reader or a crash sees the old file or the new one, never a half-written file).
    A symbolic link is written through (the file it points to is replaced,
    :func:`ddsolver._io.atomic_write`).  A missing folder is not created.

    :raises SavePathError: for a path that cannot be written, checked before anything is
        written (:func:`check_save_path`): a folder (of the file, or of the file a link
        points to) that does not exist, is not a folder or is not writable, an empty
        name, a folder given as the file; the message names the path and the reason.
    :raises OSError: if the file cannot be written (the old file is then unchanged).
    :raises TypeError: if ``data`` is not JSON-serialisable (nothing is written).
    """
    path = os.fspath(path)
    check_save_path(path)
    atomic_write(path, json.dumps(data, indent=1, sort_keys=True) + "\n")


def check_save_path(path) -> None:
    """Refuse, before anything is written, a saved game's ``path`` that cannot be written:
    see :class:`SavePathError`.

    :raises SavePathError: naming the file and the reason.
    """
    problem = output_file_problem(os.fspath(path))
    if problem is not None:
        raise SavePathError(problem)


def lock_saved_game(path):
    """Claim the saved game at ``path`` for this process: an exclusive lock (``flock``) on
    the file ``<path>.lock`` beside it (created if missing, left in place), held until the
    returned file object is closed or the process ends, however it ends.  Two games played
    on one file would each overwrite the other's saves, and the second would resume
    boards the first is playing.  The lock is taken on the file a symbolic link points to,
    so two links to one game share it.  Where ``fcntl`` does not exist (Windows) nothing is
    locked and ``None`` is returned.

    :returns: the open lock file (keep it open while the game is played), or ``None``.
    :raises SavedGameError: if another process holds the lock (the message names the file).
    :raises SavePathError: if the lock file cannot be created or opened (e.g. the folder
        is not writable), naming it and the reason.
    """
    try:
        import fcntl
    except ImportError:         # pragma: no cover - Windows
        return None
    lock_path = os.path.realpath(os.fspath(path)) + ".lock"
    try:
        fh = open(lock_path, "a+b")
    except OSError as exc:
        raise SavePathError(f"{lock_path}: the saved game's lock file cannot be opened "
                            f"({exc.strerror or exc})") from None
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.close()
        raise SavedGameError(f"{path} is in use by another game (another ddsolver-play is "
                             f"playing it): finish or leave that one first, or give --save "
                             f"another file") from None
    return fh


def _check_save_file(path: str, st, size: Optional[int] = None) -> None:
    """Refuse a saved game's file that is not a regular file (a device such as /dev/zero,
    a FIFO, a socket, a folder) or larger than :data:`MAX_SAVE_SIZE`: it would be read
    without end, block, or fill the memory.

    :raises SavePathError: naming the file and the reason.
    """
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise SavePathError(f"{path}: not a saved game (it is a folder)")
        if not stat.S_ISREG(st.st_mode):
            raise SavePathError(f"{path}: not a saved game (not a regular file: a device, "
                                f"FIFO or socket)")
        size = st.st_size
    if size is not None and size > MAX_SAVE_SIZE:
        raise SavePathError(f"{path}: not a saved game (larger than the "
                            f"{MAX_SAVE_SIZE // (1024 * 1024)} MiB a saved game can be)")


def read_json(path) -> dict:
    """Read a saved game's JSON object and check its ``format`` and ``version``.

    :raises ForeignFileError: the file is not UTF-8 JSON, or JSON but not a saved game
        (another program's file).
    :raises SavedGameError: a saved game of another version.
    :raises SavePathError: the path is not a regular file (a device such as /dev/zero, a
        FIFO, a socket, a folder) or the file is larger than :data:`MAX_SAVE_SIZE`; it is
        not read.
    :raises OSError: if the file cannot be read (``FileNotFoundError`` when missing).
    """
    path = os.fspath(path)
    _check_save_file(path, os.stat(path))
    # O_NONBLOCK: a FIFO put in the file's place after the check does not block the open
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        _check_save_file(path, os.fstat(fd))
        raw = fh.read(MAX_SAVE_SIZE + 1)
    if len(raw) > MAX_SAVE_SIZE:
        _check_save_file(path, None, len(raw))
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ForeignFileError(f"{path}: not a saved game (not JSON: {exc})",
                               "not JSON") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ForeignFileError(f"{path}: not a saved game of ddsolver (no "
                               f"\"format\": \"{SAVE_FORMAT}\")", "JSON of another kind")
    if data.get("version") != SAVE_VERSION:
        raise SavedGameError(f"{path}: saved game version {data.get('version')!r}; this "
                             f"program reads version {SAVE_VERSION}")
    return data


# --------------------------------------------------------------------------------------
# A series of boards
# --------------------------------------------------------------------------------------

class BoardSeries:
    """Boards played one after the other at one table, saved after every call and card.

    Subclasses say which board comes next (:meth:`_next_deal`, :attr:`board_number`,
    :attr:`dealer`, :attr:`vulnerability`), how a result is scored (:meth:`_score`) and
    what their saved form adds (:meth:`_extra`, :meth:`_restore`).

    :ivar human: the seat of the human (who plays partner's cards too when their side
        declares), or ``None`` for a table of computers.
    :ivar settings: free JSON-ready settings saved with the game (the terminal game keeps
        the computers' strength and the player's name there).
    :ivar results: every board played so far, passed-out boards included, in order.
    :ivar path: where the game is saved, or ``None``.
    """

    kind = "series"

    def __init__(self, *, human=Seat.SOUTH, settings: Optional[dict] = None,
                 path=None, system=None):
        self.human = None if human is None else Seat.coerce(human)
        self.settings = dict(settings or {})
        self.path = None if path is None else os.fspath(path)
        if system is None:
            from ai.bidding import StandardAmerican
            system = StandardAmerican()
        self.system = system
        self.results: List[BoardResult] = []
        self._current: Optional[Tuple[Deal, Progress]] = None

    # -- to be provided ----------------------------------------------------------------------
    @property
    def is_finished(self) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def board_number(self) -> Optional[int]:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def dealer(self) -> Optional[Seat]:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def vulnerability(self) -> Optional[Vulnerability]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _next_deal(self) -> Deal:  # pragma: no cover - abstract
        raise NotImplementedError

    def _score(self, result: BoardResult) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _extra(self) -> dict:
        return {}

    # -- the current board ------------------------------------------------------------------
    @property
    def progress(self) -> Optional[Progress]:
        """The calls and cards of the board in progress (``None`` between boards)."""
        return None if self._current is None else self._current[1]

    def current_deal(self) -> Deal:
        """The deal of the board to play now (dealt on first use, then kept and saved).

        :raises BridgeError: if the series is finished.
        """
        if self.is_finished:
            raise BridgeError(f"the {self.kind} is finished")
        if self._current is None:
            self._current = (self._next_deal(), Progress())
            self.save()
        return self._current[0]

    def play(self, players: Mapping, *, observer: Optional[Callable[[TableEvent], None]]
             = None) -> BoardResult:
        """Play the current board to its end (from where it stopped, when resumed), score
        it and save.

        :param players: ``{seat: Player}``; with :attr:`human` set, that seat's player
            also plays partner's cards when their side declares.
        :param observer: called with every :class:`~ai.game.TableEvent` (after the game
            is saved).
        :returns: the board's :class:`~ai.game.BoardResult`.
        :raises BridgeError: if the series is finished; as :func:`ai.game.play_board` for
            players that break the rules.
        """
        deal = self.current_deal()
        start = self._current[1]

        def on_event(event: TableEvent) -> None:
            self._current = (deal, event.progress)
            if event.kind in ("call", "card"):
                self.save()
            if observer is not None:
                observer(event)

        result = play_board(deal, players, self.dealer, self.vulnerability,
                            system=self.system, human=self.human,
                            progress=start if (start.calls or start.play) else None,
                            observer=on_event)
        self.record(result)
        return result

    def play_all(self, players: Mapping, *, observer=None) -> List[BoardResult]:
        """Play board after board until the series is finished; returns the boards played
        by this call."""
        out = []
        while not self.is_finished:
            out.append(self.play(players, observer=observer))
        return out

    def record(self, result: BoardResult) -> None:
        """Score a finished board (played here, or given: the worked sequences of the tests
        record hand-made results) and save.

        :raises BridgeError: if the series is finished or the board's dealer or
            vulnerability is not those of the current board.
        """
        if self.is_finished:
            raise BridgeError(f"the {self.kind} is finished; cannot add a board")
        if result.dealer != self.dealer or result.vulnerability != self.vulnerability:
            raise BridgeError(f"board {self.board_number} is dealt by {self.dealer.name} "
                              f"with {self.vulnerability.pbn} vulnerable, not by "
                              f"{result.dealer.name} with {result.vulnerability.pbn}")
        self._score(result)
        self.results.append(result)
        self._current = None
        self.save()

    # -- saving -----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The JSON-ready saved form."""
        data = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "kind": self.kind,
                "human": None if self.human is None else self.human.letter,
                "settings": self.settings,
                "boards": [r.to_dict() for r in self.results],
                "current": None if self._current is None else {
                    "deal": self._current[0].to_pbn(),
                    "progress": self._current[1].to_dict()}}
        data.update(self._extra())
        return data

    def save(self, path=None) -> None:
        """Write the game to ``path`` (default :attr:`path`; nothing when both are
        ``None``) atomically (:func:`write_json_atomic`).

        :raises SavePathError: for a path that cannot be written (:func:`check_save_path`;
            a missing folder is not created); a :class:`SavedGameError` and an
            :class:`OSError`.
        :raises OSError: if the file cannot be written.
        """
        target = self.path if path is None else os.fspath(path)
        if target is not None:
            write_json_atomic(target, self.to_dict())   # check_save_path first

    def _restore(self, data: dict, where: str) -> None:
        """Replay the saved boards into this (fresh) series and check each."""
        boards = data.get("boards")
        if not isinstance(boards, list):
            raise SavedGameError(f"{where}: \"boards\" must be a list")
        for i, b in enumerate(boards):
            try:
                result = BoardResult.from_dict(b, self.system)
            except InvalidRecordError as exc:
                raise SavedGameError(f"{where}: board {i + 1}: {exc}") from None
            if self.is_finished:
                raise SavedGameError(f"{where}: more boards than the {self.kind} has")
            expected = self._next_deal()
            if result.deal != expected:
                raise SavedGameError(f"{where}: board {i + 1} is not the deal this "
                                     f"{self.kind} deals")
            if (result.dealer, result.vulnerability) != (self.dealer, self.vulnerability):
                raise SavedGameError(f"{where}: board {i + 1} is dealt by "
                                     f"{result.dealer.name} with "
                                     f"{result.vulnerability.pbn} vulnerable; the "
                                     f"{self.kind} deals it by {self.dealer.name} with "
                                     f"{self.vulnerability.pbn}")
            self._score(result)
            self.results.append(result)
        current = data.get("current")
        if current is not None:
            if self.is_finished:
                raise SavedGameError(f"{where}: a board in progress after the end")
            try:
                deal = Deal.from_pbn(current["deal"])
                progress = Progress.from_dict(current["progress"])
            except (KeyError, TypeError) as exc:
                raise SavedGameError(f"{where}: the board in progress lacks {exc}") from None
            except BridgeError as exc:
                raise SavedGameError(f"{where}: the board in progress: {exc}") from None
            if deal != self._next_deal():
                raise SavedGameError(f"{where}: the board in progress is not the deal "
                                     f"this {self.kind} deals")
            self._check_progress(deal, progress, where)
            self._current = (deal, progress)

    def _check_progress(self, deal: Deal, progress: Progress, where: str) -> None:
        from ddsolver.auction import Auction
        from ddsolver.play import Position
        try:
            auction = Auction(self.dealer, progress.calls)
            if progress.play:
                if not auction.is_finished or auction.contract is None:
                    raise BridgeError("cards played before the end of the auction")
                pos = Position(deal, auction.contract.strain, auction.declarer.lho)
                for seat, card in progress.play:
                    pos.play(card, seat=seat)
                if len(progress.play) >= 52:
                    raise BridgeError("a finished play is not in progress")
        except BridgeError as exc:
            raise SavedGameError(f"{where}: the board in progress breaks the rules: "
                                 f"{exc}") from None

def _seat_or_none(value, where: str) -> Optional[Seat]:
    if value is None:
        return None
    try:
        return Seat.from_str(value)
    except (BridgeError, TypeError, AttributeError):
        raise SavedGameError(f"{where}: bad seat {value!r} for the human") from None


def computer_table(human_player=None, *, level: str = "medium", seed=None,
                   human=Seat.SOUTH, **settings) -> dict:
    """Players for a table: ``human_player`` at ``human`` (default South) and an
    :class:`ai.robot.ComputerPlayer` of strength ``level`` at every other seat (all four
    seats when ``human_player`` is ``None``).  With a ``seed`` the computers are
    reproducible (seat ``s`` gets ``f"{seed}:{s}"``).

    :param settings: overrides of the computers' card-play settings (e.g. ``threads=1``).
    :raises ValueError: for an unknown level or setting.
    """
    from ai.robot import ComputerPlayer
    human = Seat.coerce(human)
    table = {}
    for s in Seat:
        if human_player is not None and s == human:
            table[s] = human_player
        else:
            table[s] = ComputerPlayer(level, seed=None if seed is None else f"{seed}:{s.letter}",
                                      **settings)
    return table


def close_table(players: Mapping) -> None:
    """Release the computers' solver threads (players without ``close`` are left alone)."""
    for p in players.values():
        close = getattr(p, "close", None)
        if callable(close):
            close()


# --------------------------------------------------------------------------------------
# Chicago
# --------------------------------------------------------------------------------------

def chicago_deal(seed, n: int) -> Deal:
    """The ``n``-th deal (0-based) of the match with ``seed``:
    ``random_deal(random.Random(f"{seed}:{n}"))``."""
    return random_deal(random.Random(f"{seed}:{n}"))


class ChicagoMatch(BoardSeries):
    """A four-board Chicago match (the module docstring gives the rules).

    :param seed: an integer or text from which the deals come (see :func:`chicago_deal`);
        ``None`` draws a fresh one (kept in :attr:`seed` and the saved file).
    :param human: the human's seat (default South), or ``None``.
    :param settings: free JSON-ready settings saved with the match.
    :param path: where to save the match after every call and card, or ``None``.
    :param system: the bidding system (default :class:`ai.bidding.StandardAmerican`).
    :param deals: for tests and set matches: the deals to use, in order (redeals
        included), instead of the seeded ones.

    :ivar score: the :class:`ddsolver.ChicagoScore` of the match.
    :raises TypeError: for a seed that is neither an integer, text nor ``None``.
    """

    kind = "Chicago match"

    def __init__(self, seed=None, *, human=Seat.SOUTH, settings=None, path=None,
                 system=None, deals=None):
        super().__init__(human=human, settings=settings, path=path, system=system)
        if seed is None:
            seed = secrets.randbits(48)
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise TypeError(f"seed must be an integer, text or None, got {seed!r}")
        self.seed = seed
        self._deals = None if deals is None else [
            d if isinstance(d, Deal) else Deal.from_pbn(d) for d in deals]
        self.score = ChicagoScore()

    @property
    def is_finished(self) -> bool:
        return self.score.is_finished

    @property
    def board_number(self) -> Optional[int]:
        """The Chicago board to play now, 1..4 (``None`` when finished)."""
        return self.score.board_number

    @property
    def dealer(self) -> Optional[Seat]:
        return self.score.dealer

    @property
    def vulnerability(self) -> Optional[Vulnerability]:
        return self.score.vulnerability

    def _next_deal(self) -> Deal:
        n = len(self.results)
        if self._deals is not None:
            if n >= len(self._deals):
                raise BridgeError(f"the match was given {len(self._deals)} deals and "
                                  f"needs another")
            return self._deals[n]
        return chicago_deal(self.seed, n)

    def _score(self, result: BoardResult) -> None:
        if result.contract is None:
            self.score.pass_out()
        else:
            self.score.add(result.contract, result.tricks)

    def _extra(self) -> dict:
        extra = {"seed": self.seed}
        if self._deals is not None:
            extra["deals"] = [d.to_pbn() for d in self._deals]
        return extra

    # -- scores -------------------------------------------------------------------------------
    @property
    def totals(self) -> Tuple[int, int]:
        """Points so far ``(NS, EW)``."""
        return self.score.totals

    def final_score(self, seat=None) -> int:
        """A player's score: their side's points minus the other side's, never below zero
        (``seat`` defaults to the human's seat, else South)."""
        seat = Seat.coerce(seat) if seat is not None else (self.human or Seat.SOUTH)
        return self.score.final_scores[seat.side]

    def board_points(self) -> List[Tuple[int, int]]:
        """The points ``(NS, EW)`` each board (passed-out ones included) earned."""
        return [b.points for b in self.score.boards]

    def to_pbn(self, *, newline: str = "\r\n", event: str = "Chicago", date: str = "",
               players: Optional[Mapping] = None) -> str:
        """Every board played, as PBN 2.1 (``Scoring "Chicago"``; ``Board`` the Chicago
        board number; ``Score`` the board's Chicago points for North-South, i.e. N-S's
        points minus E-W's on that board)."""
        games = []
        for r, b in zip(self.results, self.score.boards):
            games.append(r.to_pbn_game(board=b.board, event=event, date=date,
                                       players=players, scoring="Chicago",
                                       score=b.points[Side.NS] - b.points[Side.EW]))
        return dumps_pbn(games, newline=newline)

    # -- saving ---------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict, *, path=None, system=None,
                  where: str = "saved match") -> "ChicagoMatch":
        """A match from :meth:`to_dict`'s form, every board checked.

        :raises SavedGameError: for anything missing, damaged or against the rules.
        """
        if not isinstance(data, dict) or data.get("kind") != cls.kind:
            raise SavedGameError(f"{where}: not a saved {cls.kind}")
        try:
            deals = data.get("deals")
            match = cls(data["seed"], human=_seat_or_none(data.get("human"), where),
                        settings=data.get("settings") or {}, path=path, system=system,
                        deals=deals)
        except KeyError as exc:
            raise SavedGameError(f"{where}: lacks {exc}") from None
        except (TypeError, ValueError, AttributeError, BridgeError) as exc:
            # ValueError: "settings" a list, which dict() cannot read
            raise SavedGameError(f"{where}: {exc}") from None
        if not isinstance(match.settings, dict):
            raise SavedGameError(f"{where}: \"settings\" must be an object")
        match._restore(data, where)
        return match

    @classmethod
    def load(cls, path, *, system=None) -> "ChicagoMatch":
        """Read a saved match (it goes on saving to the same file).

        :raises SavedGameError: a damaged, foreign or other-version file.
        :raises OSError: if the file cannot be read.
        """
        return cls.from_dict(read_json(path), path=path, system=system,
                             where=os.fspath(path))
