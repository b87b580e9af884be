"""Engine-versus-engine matches: the same boards at two tables with the seats swapped.

A match compares two player configurations, *A* and *B* (a strength of
:class:`ai.robot.ComputerPlayer`, or any :class:`ai.players.Player` class named by import
path, each with keyword options).  Every board is played twice, as in a team match: at
table 1 (the *open room*) A sits North-South and B East-West, at table 2 (the *closed
room*) the other way round.  A's result on a board is its North-South score at table 1
minus B's North-South score at table 2, converted to IMPs on the WBF scale (WBF Laws of
Duplicate Bridge 2017, Law 78B; :func:`ddsolver.scoring.imps`); at matchpoints the two
North-South scores are compared (2 for the higher, 1 each for a tie; Law 78A).  The match
reports A's mean per board with its standard error (sample standard deviation over
``sqrt(n)``), the measure every strength comparison of the project reports (README.md,
"Contributing").

Reproducible by construction: each table's four players are built afresh from
``(match seed, board number, table, seat)`` (seed text ``"{seed}:{board}:{table}:{seat}"``),
so a table's result depends on nothing but the match, the board and the table - not on the
order in which tables run, the number of worker processes or the machines of a Dask
cluster.  A computer player's time budget is the one thing that would let the machine's load
change a decision, so in a reproducible match (the default) every computer plays without
one (:data:`UNTIMED_SECONDS`; its decisions end by their number of layouts or their early
stop, both independent of the clock); ``timed=True`` keeps the budgets instead.  Solver
threads (``threads``) and table memory (``memory_mb``) never change a result (the solver is
exact).

Resumable: with a journal (a JSON-lines file), every finished table is appended to it,
flushed and ``fsync``-ed before the next one is recorded, so a run killed at any moment
loses at most the tables in progress; run the same match again and it skips what the
journal holds.  The journal's first line names the match (both configurations, the seed,
the scoring); a journal of another match is refused, never mixed in.

Parallel: ``workers=N`` plays tables in N processes (:class:`~concurrent.futures.
ProcessPoolExecutor`, each worker building its own players); ``scheduler=ADDRESS`` (or a
:class:`distributed.Client`) sends them to a Dask cluster.  Results are identical either
way.

>>> from ai.match import run_match
>>> result = run_match("easy", "easy", 2, seed=5, options_a={"threads": 1},
...                    options_b={"threads": 1})
>>> len(result.boards), result.boards[0].imps == -result.boards[0].imps_for("B")
(2, True)

Files: :func:`match_games` gives the boards as PBN games (PBN 2.1, two games a board with
``Room`` ``Open``/``Closed``, the auction with the explanations as notes, the play, the
result, ``Score`` and ``ScoreIMP``); :func:`result_from_game` reads such a game back.
Documentation: ``docs/matches.md``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import math
import numbers
import os
import time
from collections import abc
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import click

from ai.game import BoardResult, play_board
from ai.players import SCORINGS
from ddsolver._dask import check_scheduler_address, connect_scheduler
from ddsolver._io import output_file_problem, same_file
from ddsolver.cli import check_path
from ddsolver.deal import Deal, random_deals
from ddsolver.errors import BridgeError, PBNError, SchedulerError, brief_repr
from ddsolver.scoring import imps, ns_score, result_str
from ddsolver.table import Seat, Vulnerability, board_dealer, board_vulnerability

__all__ = [
    "MAX_BOARDS", "BoardOutcome", "JournalError", "MatchBoard", "MatchError", "MatchPathError",
    "MatchResult", "PlayerConfig", "TableResult", "TableTask", "boards_from_pbn",
    "load_player_class", "match_command", "match_games", "play_table", "read_journal",
    "result_from_game", "run_match", "seeded_boards",
]

#: The strengths of :class:`ai.robot.ComputerPlayer` a configuration may name.
LEVEL_NAMES = ("easy", "medium", "hard")

#: Options of a computer player that never change a decision (the solver is exact), left
#: out of the match's identity so that a match may be resumed with other values.
RESULT_NEUTRAL_OPTIONS = frozenset(["threads", "memory_mb"])
#: A computer's time caps, lifted in an untimed match (:func:`_untimed`): as options they
#: need ``timed=True`` (``--timed``)
TIME_OPTIONS = frozenset(["time_budget", "lead_time_budget", "time_limit"])
SAMPLER_TIME_OPTIONS = ("max_seconds", "bid_seconds", "play_seconds")

#: The first value of a journal's header line.
JOURNAL_KIND = "ddsolver-ai match"
JOURNAL_VERSION = 1
_HEADER_START = b'{"journal":'

#: The most boards of a seeded match (``-n``): every board is dealt before the first is
#: played, so a count without end would take memory without end and play nothing.
MAX_BOARDS = 100_000

#: The time budget of a computer in a reproducible match, in seconds: a year, never reached.
UNTIMED_SECONDS = 365 * 24 * 3600.0

#: Seconds to wait for a Dask scheduler to answer.
DASK_CONNECT_TIMEOUT = 5


class MatchError(BridgeError):
    """A match cannot be set up or played: a bad player configuration, bad boards, a player
    that fails (the message names the board and the table)."""


class JournalError(MatchError):
    """A journal cannot be used: it belongs to another match, it is not a match journal, a
    line in the middle of it is damaged, or another run is writing it."""


class MatchPathError(MatchError, OSError):
    """The PBN file of a match cannot be written at the path given, found before anything
    is played (:func:`ddsolver._io.output_file_problem`, the check of the commands'
    options): an empty name, a folder, a path ending in a separator, a loop of symbolic
    links, or a file whose folder (for a symbolic link, the folder of the file it points
    to) does not exist, is not a folder or is not writable.  The message names the path and
    the reason.  Also an :class:`OSError`, as a journal that cannot be opened (also before
    anything is played) and a PBN file that fails when it is written are."""


# ---------------------------------------------------------------------------------------
# Player configurations
# ---------------------------------------------------------------------------------------

def load_player_class(path: str) -> type:
    """The class named by ``"package.module:Class"`` (or ``"package.module.Class"``).

    :returns: the class; it must have ``call`` and ``card`` methods (the
        :class:`ai.players.Player` protocol).
    :raises MatchError: if the module cannot be imported, has no such attribute, or the
        attribute is not a class with ``call`` and ``card``.
    """
    if not isinstance(path, str) or not path.strip():
        raise MatchError(f"a player class is named 'package.module:Class', got {brief_repr(path)}")
    text = path.strip()
    if ":" in text:
        module_name, _, attr = text.partition(":")
    else:
        module_name, _, attr = text.rpartition(".")
    if not module_name or not attr:
        raise MatchError(f"a player class is named 'package.module:Class', got {brief_repr(path)}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise MatchError(f"cannot import the module of player {brief_repr(path)}: {exc}") from None
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise MatchError(f"module {module_name} has no {brief_repr(attr)} "
                             f"(player {brief_repr(path)})")
        obj = getattr(obj, part)
    if not inspect.isclass(obj):
        raise MatchError(f"player {brief_repr(path)} is not a class but {type(obj).__name__}")
    if not (callable(getattr(obj, "call", None)) and callable(getattr(obj, "card", None))):
        raise MatchError(f"player class {brief_repr(path)} has no call(view) and card(view) "
                         f"methods (the ai.players.Player protocol)")
    return obj


def _takes_seed(cls: type) -> bool:
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    p = params.get("seed")
    return p is not None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)


def _option_value(value: Any, where: str) -> Any:
    """Options go into the journal and to other processes: JSON values only."""
    try:
        text = json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        raise MatchError(f"option {where} must be a JSON value (number, text, true/false, "
                         f"null, list, object), got {type(value).__name__}") from None
    return json.loads(text)


@dataclass(frozen=True)
class PlayerConfig:
    """One side of a match: what plays, with which options.

    :ivar player: ``"easy"``, ``"medium"`` or ``"hard"`` (an :class:`ai.robot.
        ComputerPlayer` of that strength) or the import path of a Player class,
        ``"package.module:Class"``.
    :ivar options: keyword options for the player, as sorted ``(name, value)`` pairs of JSON
        values (for a computer: any :class:`ai.cardplay.PlaySettings` field, e.g.
        ``samples`` or ``threads``).

    A class is called with the options and, when its constructor has a ``seed``
    parameter, ``seed=`` the table's seed text; a match is reproducible only if such a
    class decides from its view and its seed alone.

    Build one with :meth:`parse`, which checks it.
    """

    player: str
    options: Tuple[Tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, player, options: Optional[Mapping[str, Any]] = None) -> "PlayerConfig":
        """A checked configuration.

        :param player: a strength or an import path (see :attr:`player`), or a
            :class:`PlayerConfig` (then ``options`` are added to its own).
        :param options: keyword options (JSON values).
        :raises MatchError: for an unknown strength, a class that cannot be loaded, options
            that are not a mapping, an option that is not a JSON value, or options a
            computer player refuses.
        """
        merged: Dict[str, Any] = {}
        if isinstance(player, PlayerConfig):
            merged.update(player.options)
            player = player.player
        if not isinstance(player, str) or not player.strip():
            raise MatchError(f"a player is 'easy', 'medium', 'hard' or "
                             f"'package.module:Class', got {brief_repr(player)}")
        player = player.strip()
        if options is not None and not isinstance(options, abc.Mapping):
            raise MatchError(f"a player's options are a mapping of names to values, got "
                             f"{brief_repr(options)}")
        for key, value in dict(options or {}).items():
            if not isinstance(key, str) or not key.isidentifier():
                raise MatchError(f"option names are identifiers, got {brief_repr(key)}")
            if key == "seed":
                raise MatchError("the option 'seed' is set by the match (from the match "
                                 "seed, the board and the table)")
            merged[key] = _option_value(value, key)
        config = cls(player, tuple(sorted(merged.items())))
        if config.is_computer:
            config._computer_settings()
        elif ":" not in player and "." not in player:
            raise MatchError(f"unknown player {brief_repr(player)}: 'easy', 'medium', 'hard' or a "
                             f"class 'package.module:Class'")
        else:
            load_player_class(player)
        return config

    @property
    def is_computer(self) -> bool:
        """Whether this is a :class:`ai.robot.ComputerPlayer` strength."""
        return self.player in LEVEL_NAMES

    @property
    def label(self) -> str:
        """A short name: the strength or class, with its options (``"hard"``,
        ``"easy(samples=8)"``); result-neutral options are left out."""
        shown = [(k, v) for k, v in self.options
                 if not (self.is_computer and k in RESULT_NEUTRAL_OPTIONS)]
        if not shown:
            return self.player
        return f"{self.player}({', '.join(f'{k}={v!r}' for k, v in shown)})"

    def identity(self) -> dict:
        """What decides this side's results, JSON-ready (the journal's record of it)."""
        return {"player": self.player,
                "options": {k: v for k, v in self.options
                            if not (self.is_computer and k in RESULT_NEUTRAL_OPTIONS)}}

    def _computer_settings(self, timed: bool = False, threads: Optional[int] = None):
        from ai.robot import LEVELS

        opts = dict(self.options)
        if threads is not None and "threads" not in opts:
            opts["threads"] = threads
        import dataclasses
        known = sorted(f.name for f in dataclasses.fields(LEVELS[self.player]))
        unknown = sorted(set(opts) - set(known))
        if unknown:
            raise MatchError(f"{self.player}: unknown option {', '.join(map(repr, unknown))}; "
                             f"the options are {', '.join(known)}")
        try:
            settings = LEVELS[self.player].with_(**opts)
        except TypeError as exc:
            raise MatchError(f"{self.player}: unknown option: {exc}") from None
        except ValueError as exc:
            raise MatchError(f"{self.player}: {exc}") from None
        return settings if timed else _untimed(settings)

    def build(self, seed: str, *, timed: bool = False, threads: Optional[int] = None):
        """A new player of this configuration.

        :param seed: the seed text of the player's table and seat.
        :param timed: keep a computer's time budgets (results then depend on the machine's
            speed and load); by default they are lifted (:data:`UNTIMED_SECONDS`).
        :param threads: solver threads of a computer whose options do not set them.
        :raises MatchError: if the class cannot be loaded or refuses the options.
        """
        if self.is_computer:
            from ai.robot import ComputerPlayer

            return ComputerPlayer(self.player, seed=seed,
                                  settings=self._computer_settings(timed, threads))
        cls = load_player_class(self.player)
        kwargs = dict(self.options)
        if _takes_seed(cls):
            kwargs["seed"] = seed
        try:
            return cls(**kwargs)
        except Exception as exc:  # a user's class: any failure is reported as such
            raise MatchError(f"cannot build player {self.label}: "
                             f"{type(exc).__name__}: {exc}") from exc


def _untimed(settings):
    """``settings`` with every time cap lifted (:data:`UNTIMED_SECONDS`): the decision's
    time budgets, its time limit (none) and, for the ``"auction"`` sampler, its time caps.
    What is left to end a decision - the number of layouts and the early stops on the
    layouts solved so far - does not depend on the clock."""
    from ai.sampling import SamplingSettings

    names = {f.name for f in dataclasses.fields(settings)}
    # the budgets a year, the time limit none (TIME_OPTIONS)
    changes: Dict[str, Any] = {name: None if name == "time_limit" else UNTIMED_SECONDS
                               for name in TIME_OPTIONS & names}
    if settings.method == "auction":
        sampling = dict(settings.sampling)
        sampler = {f.name for f in dataclasses.fields(SamplingSettings)}
        sampling.update({name: None for name in SAMPLER_TIME_OPTIONS if name in sampler})
        changes["sampling"] = tuple(sorted(sampling.items()))
    return settings.with_(**changes)


# ---------------------------------------------------------------------------------------
# Boards
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchBoard:
    """One board of a match.

    :ivar number: the board number (>= 1; unique in a match).
    :ivar deal: the complete deal.
    :ivar dealer: the dealer; :ivar vulnerability: the vulnerability.
    """

    number: int
    deal: Deal
    dealer: Seat
    vulnerability: Vulnerability

    @classmethod
    def standard(cls, number: int, deal: Deal) -> "MatchBoard":
        """Board ``number`` with the dealer and vulnerability of the standard 16-board cycle
        (:func:`ddsolver.board_dealer`, :func:`ddsolver.board_vulnerability`)."""
        return cls(number, deal, board_dealer(number), board_vulnerability(number))

    def key(self) -> dict:
        """JSON-ready identity: number, deal (PBN, from North), dealer, vulnerability."""
        return {"board": self.number, "deal": self.deal.to_pbn(),
                "dealer": self.dealer.letter, "vulnerability": self.vulnerability.pbn}


def _plain_int(value):
    """A NumPy integer as the int it equals (the journal's identity is JSON); anything
    else unchanged, for the checks that follow."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (int, bool)):
        return int(value)
    return value


def seeded_boards(seed: int, count: int) -> List[MatchBoard]:
    """Boards 1..``count`` of the deals :func:`ddsolver.random_deals` ``(seed, count)``, with
    the standard dealer and vulnerability of each board number.  The first ``k`` boards are
    the same whatever ``count`` is, so a match can be extended.

    :raises MatchError: if ``seed`` or ``count`` is not an integer, or ``count`` is not
        1 to :data:`MAX_BOARDS`.
    """
    seed, count = _plain_int(seed), _plain_int(count)
    for name, value in (("seed", seed), ("count", count)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise MatchError(f"{name} must be an integer, got {value!r}")
    if count < 1:
        raise MatchError(f"a match needs at least one board, got {count}")
    if count > MAX_BOARDS:
        raise MatchError(f"a match has at most {MAX_BOARDS:,} boards (MAX_BOARDS), got "
                         f"{count:,}")
    return [MatchBoard.standard(i, d) for i, d in enumerate(random_deals(seed, count), 1)]


def boards_from_pbn(source, count: Optional[int] = None) -> List[MatchBoard]:
    """The boards of a PBN file (or text), in file order, at most ``count``.

    Board number, dealer and vulnerability come from the ``Board``, ``Dealer`` and
    ``Vulnerable`` tags; a game without a board number takes its position in the file, and
    missing dealer or vulnerability follow the board number (the standard cycle).  Games of
    the same board number with the same deal (both rooms of a match) count once.

    ``source`` is what :func:`ddsolver.read_pbn` reads: a path, a file object, bytes, or
    PBN text (a ``str`` holding a line break or a ``[``).  An empty (or blank) ``str`` with
    no line break is refused: it names no file and holds no board (it was read as empty
    text, and "the file holds no board" pointed at a file that was never named).

    :raises MatchError: for an empty ``source`` string, a ``count`` that is not ``None`` or
        an integer >= 1, a game without a complete deal, two different deals under one
        board number, or no board at all.
    :raises PBNError: for a malformed file; :raises OSError: if it cannot be read.
    """
    from ddsolver.pbn import read_pbn

    if count is not None and (isinstance(count, bool) or not isinstance(count, int)
                              or count < 1):
        raise MatchError(f"the count of boards is None or an integer >= 1, got {count!r}")
    if isinstance(source, str) and not source.strip() and "\n" not in source:
        raise MatchError("boards_from_pbn needs a PBN file's path or PBN text, not an empty "
                         "string")
    games = read_pbn(source)
    boards: List[MatchBoard] = []
    seen: Dict[int, MatchBoard] = {}
    for index, game in enumerate(games, 1):
        number = game.board or index
        deal = game.deal
        if deal is None or not deal.is_complete():
            raise MatchError(f"board {number} (game {index} of the file) has no complete deal")
        board = MatchBoard(number, deal, game.dealer or board_dealer(number),
                           game.vulnerability if game.vulnerability is not None
                           else board_vulnerability(number))
        if number in seen:
            if seen[number] != board:
                raise MatchError(f"board {number} appears twice with different deals, dealer "
                                 f"or vulnerability (game {index} of the file)")
            continue
        seen[number] = board
        boards.append(board)
        if count is not None and len(boards) >= count:
            break
    if not boards:
        raise MatchError("the file holds no board")
    return boards


# ---------------------------------------------------------------------------------------
# One table
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TableTask:
    """Everything one table needs, sent to a worker (pickled).

    :ivar a, b: the configurations; A sits North-South at table 1, East-West at table 2.
    :ivar seed: the match seed; :ivar scoring: ``"IMP"`` or ``"MP"``.
    :ivar board: the :class:`MatchBoard`; :ivar table: 1 or 2.
    :ivar timed: keep computers' time budgets; :ivar threads: solver threads of computers
        whose options do not set them (``None``: their default).
    """

    a: PlayerConfig
    b: PlayerConfig
    seed: int
    scoring: str
    board: MatchBoard
    table: int
    timed: bool = False
    threads: Optional[int] = None

    def seat_config(self, seat: Seat) -> Tuple[str, PlayerConfig]:
        """``("A" or "B", configuration)`` of the player at ``seat``."""
        a_ns = self.table == 1
        if (seat in (Seat.NORTH, Seat.SOUTH)) == a_ns:
            return "A", self.a
        return "B", self.b

    def seed_text(self, seat: Seat) -> str:
        """The seed of the player at ``seat``: ``"{seed}:{board}:{table}:{seat letter}"``."""
        return f"{self.seed}:{self.board.number}:{self.table}:{seat.letter}"


def play_table(task: TableTask) -> dict:
    """Play one table of one board and return its record (JSON-ready; see
    :meth:`TableResult.to_json`).  Run in worker processes and on Dask workers: it builds
    the four players from ``task`` alone.

    :raises MatchError: if a player cannot be built or breaks a rule (the message names the
        board, the table and the problem).
    """
    start = time.perf_counter()
    board = task.board
    players = {}
    try:
        for seat in Seat:
            _, config = task.seat_config(seat)
            players[seat] = config.build(task.seed_text(seat), timed=task.timed,
                                         threads=task.threads)
        result = play_board(board.deal, players, board.dealer, board.vulnerability,
                            scoring=task.scoring)
    except MatchError as exc:
        raise MatchError(f"board {board.number}, table {task.table}: {exc}") from exc
    except Exception as exc:  # a player's failure, whatever it is, names its table
        raise MatchError(f"board {board.number}, table {task.table}: "
                         f"{type(exc).__name__}: {exc}") from exc
    finally:
        for p in players.values():
            close = getattr(p, "close", None)
            if callable(close):
                close()
    return TableResult(board.number, task.table, result,
                       time.perf_counter() - start).to_json()


@dataclass(frozen=True)
class TableResult:
    """One table of one board, as played.

    :ivar board: the board number; :ivar table: 1 (A North-South) or 2 (A East-West).
    :ivar result: the :class:`ai.game.BoardResult` (explanations from the bidding system).
    :ivar seconds: the time the table took (wall clock, in its worker; not compared).
    """

    board: int
    table: int
    result: BoardResult
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict:
        """The journal record: :meth:`ai.game.BoardResult.to_dict` (deal, dealer,
        vulnerability, scoring, calls, play, tricks, score, claim) with ``board``,
        ``table`` and ``seconds``."""
        data = {"board": self.board, "table": self.table}
        data.update(self.result.to_dict())
        data["seconds"] = round(self.seconds, 3)
        return data

    @classmethod
    def from_json(cls, data: Mapping, system=None) -> "TableResult":
        """Read a record written by :meth:`to_json`, checked by
        :meth:`ai.game.BoardResult.from_dict` (legal auction and play, tricks and score
        those of the play); the explanations are the bidding system's.

        :param system: the bidding system (default :class:`ai.bidding.StandardAmerican`).
        :raises MatchError: naming what is wrong.
        """
        from ai.game import InvalidRecordError

        if not isinstance(data, Mapping):
            raise MatchError(f"a table record is an object, got {type(data).__name__}")
        board, table = data.get("board"), data.get("table")
        if isinstance(board, bool) or not isinstance(board, int) or board < 1:
            raise MatchError(f"a table record has board {board!r}: a number >= 1")
        if table not in (1, 2) or isinstance(table, bool):
            raise MatchError(f"board {board}: a table record has table {table!r}: 1 or 2")
        try:
            result = BoardResult.from_dict(
                {k: v for k, v in data.items() if k not in ("board", "table", "seconds")},
                system)
        except InvalidRecordError as exc:
            raise MatchError(f"board {board}, table {table}: {exc}") from None
        seconds = data.get("seconds", 0.0)
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                or not 0 <= seconds < math.inf:
            raise MatchError(f"board {board}, table {table}: 'seconds' is {seconds!r}: a "
                             f"number of seconds >= 0")
        return cls(board, table, result, float(seconds))


@dataclass(frozen=True)
class BoardOutcome:
    """A board played at both tables.

    :ivar board: the :class:`MatchBoard`.
    :ivar open: table 1 (A North-South); :ivar closed: table 2 (A East-West).
    """

    board: MatchBoard
    open: TableResult
    closed: TableResult

    @property
    def difference(self) -> int:
        """A's points on the board: A's N-S score at table 1 minus B's at table 2."""
        return self.open.result.score - self.closed.result.score

    @property
    def imps(self) -> int:
        """A's IMPs on the board (WBF scale; negative when B gained)."""
        return imps(self.difference)

    @property
    def matchpoints(self) -> int:
        """A's matchpoints: 2 when A's N-S score beats B's, 1 for a tie, 0 otherwise (top 2;
        B scores ``2 - this``)."""
        d = self.difference
        return 2 if d > 0 else (1 if d == 0 else 0)

    def imps_for(self, side: str) -> int:
        """IMPs of side ``"A"`` or ``"B"``."""
        return self.imps if side == "A" else -self.imps


def _mean_se(values: Sequence[float]) -> Tuple[float, float]:
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, math.nan
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


@dataclass(frozen=True)
class MatchResult:
    """A finished match (or the finished part of one), boards in board-number order.

    :ivar a, b: the configurations; :ivar seed: the match seed; :ivar scoring: what the
        players aimed at (``"IMP"`` or ``"MP"``).
    :ivar boards: the :class:`BoardOutcome` of each board.
    :ivar elapsed: wall-clock seconds of this run; :ivar played: tables played in this run
        (the others came from the journal); :ivar workers: processes used (``None`` on
        Dask).
    """

    a: PlayerConfig
    b: PlayerConfig
    seed: int
    scoring: str
    boards: Tuple[BoardOutcome, ...]
    elapsed: float = field(default=0.0, compare=False)
    played: int = field(default=0, compare=False)
    workers: Optional[int] = field(default=1, compare=False)

    @property
    def imps(self) -> List[int]:
        """A's IMPs, board by board."""
        return [b.imps for b in self.boards]

    @property
    def imps_total(self) -> int:
        """A's IMPs in all (B's are the negative)."""
        return sum(self.imps)

    @property
    def imps_mean(self) -> float:
        """A's mean IMPs per board (``nan`` without boards)."""
        return _mean_se(self.imps)[0]

    @property
    def imps_se(self) -> float:
        """The standard error of :attr:`imps_mean` (``nan`` under two boards)."""
        return _mean_se(self.imps)[1]

    @property
    def mp_percent(self) -> List[float]:
        """A's matchpoints per board as a percentage of the top (0, 50 or 100)."""
        return [50.0 * b.matchpoints for b in self.boards]

    @property
    def mp_mean(self) -> float:
        """A's mean matchpoint percentage."""
        return _mean_se(self.mp_percent)[0]

    @property
    def mp_se(self) -> float:
        """The standard error of :attr:`mp_mean`."""
        return _mean_se(self.mp_percent)[1]

    @property
    def table_seconds(self) -> float:
        """Seconds spent at the tables in all (every table, including journal ones)."""
        return sum(b.open.seconds + b.closed.seconds for b in self.boards)

    def summary(self, matchpoints: bool = False) -> str:
        """A few lines for people: the match, A's IMPs per board +- standard error and in
        all, (with ``matchpoints``) A's matchpoint percentage, the time."""
        n = len(self.boards)
        lines = [f"A = {self.a.label}, B = {self.b.label}: {n} board(s), seed {self.seed}, "
                 f"players aim at {self.scoring}"]
        mean, se = self.imps_mean, self.imps_se
        if n:
            se_text = "n/a" if math.isnan(se) else f"{se:.2f}"
            lines.append(f"A: {mean:+.2f} IMPs/board +- {se_text} (standard error); "
                         f"{self.imps_total:+d} IMPs in all")
            if matchpoints:
                mse = "n/a" if math.isnan(self.mp_se) else f"{self.mp_se:.1f}"
                lines.append(f"A: {self.mp_mean:.1f}% of the matchpoints +- {mse}")
        where = "Dask" if self.workers is None else f"{self.workers} worker(s)"
        per = self.table_seconds / (2 * n) if n else 0.0
        resumed = 2 * n - self.played
        also = f" ({resumed} more from the journal)" if resumed > 0 else ""
        lines.append(f"time: {self.elapsed:.1f} s for {self.played} table(s) played now"
                     f"{also} on {where}; {per:.2f} s a table on average over all "
                     f"{2 * n}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        """A JSON-ready summary with every board's scores and IMPs."""
        def num(x):
            return None if math.isnan(x) else round(x, 4)
        return {
            "a": self.a.identity(), "b": self.b.identity(), "seed": self.seed,
            "scoring": self.scoring, "boards": len(self.boards),
            "imps_total": self.imps_total, "imps_mean": num(self.imps_mean),
            "imps_se": num(self.imps_se), "mp_percent_mean": num(self.mp_mean),
            "mp_percent_se": num(self.mp_se), "elapsed": round(self.elapsed, 3),
            "tables_played": self.played, "table_seconds": round(self.table_seconds, 3),
            "results": [{"board": b.board.number,
                         "open": {"contract": b.open.result.result_text,
                                  "score": b.open.result.score},
                         "closed": {"contract": b.closed.result.result_text,
                                    "score": b.closed.result.score},
                         "imps": b.imps} for b in self.boards],
        }


# ---------------------------------------------------------------------------------------
# The journal
# ---------------------------------------------------------------------------------------

def _match_identity(a: PlayerConfig, b: PlayerConfig, seed: int, scoring: str,
                    timed: bool) -> dict:
    return {"a": a.identity(), "b": b.identity(), "seed": seed, "scoring": scoring,
            "timed": timed}


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_journal(path) -> Tuple[dict, List[dict]]:
    """The header's match identity and the table records of a journal, without opening it
    for writing.  A damaged last line (a run killed while writing it) is left out.

    :raises JournalError: if the file is not a match journal or a line before the last is
        damaged; :raises OSError: if it cannot be read.
    """
    with open(path, "rb") as fh:
        data = fh.read()
    header, records, _ = _parse_journal(data, os.fspath(path))
    if header is None:
        raise JournalError(f"{os.fspath(path)} is empty: no match journal")
    return header, records


def _parse_journal(data: bytes, name: str):
    """(header identity or None, records, length of the good part)."""
    lines = data.split(b"\n")
    # the part after the last newline is an unfinished line (or empty)
    complete, tail = lines[:-1], lines[-1]
    good = 0
    header = None
    records: List[dict] = []
    if not complete and tail and not (tail.startswith(_HEADER_START)
                                      or _HEADER_START.startswith(tail)):
        raise JournalError(f"{name} is not a ddsolver-ai match journal")
    for i, raw in enumerate(complete, 1):
        try:
            item = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            if i == 1:
                raise JournalError(f"{name} is not a ddsolver-ai match journal") from None
            if i == len(complete) and not tail:
                break  # the last line is damaged: dropped
            raise JournalError(f"{name}, line {i}: not a JSON record (the journal is "
                               f"damaged)") from None
        if i == 1:
            if not (isinstance(item, dict) and item.get("journal") == JOURNAL_KIND):
                raise JournalError(f"{name} is not a ddsolver-ai match journal")
            if item.get("version") != JOURNAL_VERSION:
                raise JournalError(f"{name}: journal version {item.get('version')!r}; this "
                                   f"program reads version {JOURNAL_VERSION}")
            header = item.get("match")
        else:
            if not isinstance(item, dict):
                raise JournalError(f"{name}, line {i}: not a table record")
            records.append(item)
        good += len(raw) + 1
    return header, records, good


class _Journal:
    """The journal of a running match: one writer (an exclusive lock), one line per table,
    each flushed and fsync-ed."""

    def __init__(self, path, identity: dict):
        import fcntl

        self.path = os.fspath(path)
        self._fh = open(self.path, "a+b")
        try:
            fcntl.flock(self._fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._fh.close()
            raise JournalError(f"{self.path} is being written by another run of the "
                               f"match") from None
        try:
            self._fh.seek(0)
            data = self._fh.read()
            header, records, good = _parse_journal(data, self.path)
            if header is None:
                good = 0
            if good < len(data):
                self._fh.truncate(good)
                self._sync()
            if header is None:
                line = {"journal": JOURNAL_KIND, "version": JOURNAL_VERSION,
                        "match": identity}
                self._write(line)
                _fsync_dir(self.path)
            elif header != identity:
                diff = sorted(k for k in set(header) | set(identity)
                              if header.get(k) != identity.get(k))
                raise JournalError(
                    f"{self.path} belongs to another match (different {', '.join(diff)}: "
                    f"{json.dumps({k: header.get(k) for k in diff})}); choose another "
                    f"journal or delete it")
            self.records = records
        except BaseException:
            self.close()
            raise

    def _sync(self) -> None:
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def _write(self, item: dict) -> None:
        self._fh.write((json.dumps(item, ensure_ascii=False, separators=(",", ":"))
                        + "\n").encode("utf-8"))
        self._sync()

    def append(self, record: dict) -> None:
        """Add one table record (durable when this returns)."""
        self._write(record)

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()  # closing releases the lock


# ---------------------------------------------------------------------------------------
# Running a match
# ---------------------------------------------------------------------------------------

def _check_boards(boards) -> List[MatchBoard]:
    out = list(boards)
    if not out:
        raise MatchError("a match needs at least one board")
    seen = set()
    for b in out:
        if not isinstance(b, MatchBoard):
            raise MatchError(f"boards must be MatchBoard objects, got {type(b).__name__}")
        if b.number in seen:
            raise MatchError(f"board number {b.number} is given twice")
        if not b.deal.is_complete():
            raise MatchError(f"board {b.number} has no complete deal")
        seen.add(b.number)
    return out


def _run_local(tasks: List[TableTask], workers: int, on_result: Callable[[dict], None]):
    if workers == 1:
        for task in tasks:
            on_result(play_table(task))
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # spawn: a fresh interpreter per worker (forking a process that runs solver threads
    # and a progress bar's thread is not safe)
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    try:
        # keep a few tables queued per worker, in board order, so that a killed run has
        # few tables in flight and boards finish roughly in order
        pending = set()
        queue = iter(tasks)
        limit = 2 * workers
        exhausted = False
        while True:
            while not exhausted and len(pending) < limit:
                task = next(queue, None)
                if task is None:
                    exhausted = True
                else:
                    pending.add(pool.submit(play_table, task))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                try:
                    record = fut.result()
                except BrokenProcessPool:
                    raise MatchError("a worker process died (killed, or out of memory); "
                                     "the finished tables are in the journal") from None
                on_result(record)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run_dask(tasks: List[TableTask], scheduler, on_result: Callable[[dict], None]):
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise MatchError("a Dask scheduler needs the 'distributed' package: "
                         "pip install 'ddsolver[dask]'") from None
    own = not isinstance(scheduler, Client)
    if own:
        try:
            if isinstance(scheduler, str):
                client = connect_scheduler(scheduler, timeout=DASK_CONNECT_TIMEOUT)
            else:  # a cluster object (LocalCluster...), which Client accepts too
                client = Client(scheduler, set_as_default=False, timeout=DASK_CONNECT_TIMEOUT)
        except SchedulerError as exc:
            raise MatchError(str(exc)) from None
        except (OSError, TimeoutError) as exc:
            raise MatchError(f"cannot reach the Dask scheduler {scheduler!r}: {exc}") from None
    else:
        client = scheduler
    futures = []
    try:
        for t in tasks:
            futures.append(client.submit(
                play_table, t, pure=False,
                key=f"ddsolver-match-table-{t.board.number}-{t.table}-{os.getpid()}-"
                    f"{time.monotonic_ns()}"))
        for fut in as_completed(futures, loop=client.loop):
            on_result(fut.result())
    finally:
        unfinished = [f for f in futures if not f.done()]
        if unfinished:
            client.cancel(unfinished)
        if own:
            client.close()


def run_match(a, b, boards, *, seed: int = 1, scoring: str = "IMP",
              options_a: Optional[Mapping[str, Any]] = None,
              options_b: Optional[Mapping[str, Any]] = None,
              workers: int = 1, scheduler=None, journal=None, pbn=None,
              progress: bool = False, timed: bool = False) -> MatchResult:
    """Play a match of A against B: every board at two tables, seats swapped.

    :param a, b: the two sides: ``"easy"``, ``"medium"``, ``"hard"``, an import path
        ``"package.module:Class"``, or a :class:`PlayerConfig`.
    :param boards: a number of boards (deals :func:`seeded_boards` ``(seed, n)``) or a
        sequence of :class:`MatchBoard` (e.g. from :func:`boards_from_pbn`).
    :param seed: the match seed (an integer): the deals of a numbered match and, with the
        board and table, every player's seed.
    :param scoring: ``"IMP"`` or ``"MP"``: what the players aim at (the summary gives both).
    :param options_a, options_b: keyword options for each side's players.
    :param workers: processes playing tables (1: in this process).
    :param scheduler: a Dask scheduler address (``"tcp://host:8786"``) or a
        :class:`distributed.Client`; then ``workers`` is not used.
    :param journal: a path: finished tables are recorded there and a rerun skips them.
    :param pbn: a path: every board (both tables) is written there as PBN at the end
        (atomically; see :func:`match_games`); a path that cannot be written is refused
        before anything is played.  (A file object is written at the end, unchecked.)
    :param progress: show a progress bar (tqdm, on stderr).
    :param timed: keep computers' time budgets (not reproducible under load).
    :returns: the :class:`MatchResult` of every board given.
    :raises MatchError: for a bad configuration or boards (a malformed scheduler address
        or a journal that is the PBN file among them, refused before anything is played),
        a Dask scheduler that cannot be
        used (``tls://`` without TLS settings) or does not answer within
        :data:`DASK_CONNECT_TIMEOUT` seconds, or a player that fails.
    :raises JournalError: if the journal belongs to another match or is in use.
    :raises MatchPathError: if the PBN file cannot be written at the path ``pbn`` (a
        folder, a folder of the file that does not exist or is not writable, an empty
        name...), refused before the journal is opened and anything is played; also a
        :class:`MatchError` and an :class:`OSError`.
    :raises OSError: if the journal cannot be opened (before anything is played) or written,
        or the PBN file cannot be written in the end (a full disk).
    :raises TypeError: if ``journal`` is not a path.
    """
    a = PlayerConfig.parse(a, options_a)
    b = PlayerConfig.parse(b, options_b)
    if not timed:
        for side, config in (("A", a), ("B", b)):
            lifted = [k for k, v in config.options if config.is_computer and (
                k in TIME_OPTIONS or k == "sampling" and isinstance(v, dict) and any(
                    v.get(name) is not None for name in SAMPLER_TIME_OPTIONS))]
            if lifted:
                raise MatchError(f"{side}: {', '.join(lifted)} has no effect in an untimed "
                                 f"match (every computer plays without a time cap, so that "
                                 f"the results are reproducible); give --timed to keep it")
    seed, boards, workers = (_plain_int(v) for v in (seed, boards, workers))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise MatchError(f"the match seed must be an integer, got {seed!r}")
    if scoring not in SCORINGS:
        raise MatchError(f"scoring must be one of {', '.join(SCORINGS)}, got {scoring!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise MatchError(f"workers must be an integer >= 1, got {workers!r}")
    if isinstance(scheduler, str):
        try:
            check_scheduler_address(scheduler)  # before the journal is opened
        except SchedulerError as exc:
            raise MatchError(str(exc)) from None
    if journal is not None and pbn is not None and same_file(journal, pbn):
        # the PBN file written at the end would replace the journal
        raise MatchError(f"the journal and the PBN file are the same file ({pbn}): give "
                         f"them two names")
    if isinstance(pbn, (str, os.PathLike)) and isinstance(os.fspath(pbn), str):
        # before the journal is made and the first board played: write_pbn at the end
        # failed on a folder or a missing folder after the whole match had been played
        problem = output_file_problem(pbn)
        if problem is not None:
            raise MatchPathError(problem)
    if isinstance(boards, int) and not isinstance(boards, bool):
        board_list = seeded_boards(seed, boards)
    else:
        if isinstance(boards, (str, bytes)):
            raise MatchError("boards are a number or MatchBoard objects; read a PBN file "
                             "with boards_from_pbn")
        if not isinstance(boards, abc.Iterable):
            raise MatchError(f"boards are a number of boards or MatchBoard objects, got "
                             f"{boards!r}")
        board_list = _check_boards(boards)
    by_number = {bd.number: bd for bd in board_list}

    identity = _match_identity(a, b, seed, scoring, timed)
    from ai.bidding import StandardAmerican
    system = StandardAmerican()  # explains the calls of the records read back
    done: Dict[Tuple[int, int], TableResult] = {}
    jr = _Journal(journal, identity) if journal is not None else None
    try:
        if jr is not None:
            for i, rec in enumerate(jr.records, 2):
                try:
                    tr = TableResult.from_json(rec, system)
                except MatchError as exc:
                    raise JournalError(f"{jr.path}, line {i}: {exc}") from None
                bd = by_number.get(tr.board)
                if bd is None:
                    continue  # a board of a longer run of the same match
                if (tr.result.deal, tr.result.dealer, tr.result.vulnerability) != \
                        (bd.deal, bd.dealer, bd.vulnerability):
                    raise JournalError(f"{jr.path}, line {i}: board {tr.board} of the journal "
                                       f"has another deal, dealer or vulnerability than "
                                       f"board {tr.board} of this match")
                done.setdefault((tr.board, tr.table), tr)

        threads = 1 if (workers > 1 or scheduler is not None) else None
        tasks = [TableTask(a, b, seed, scoring, bd, t, timed, threads)
                 for bd in board_list for t in (1, 2) if (bd.number, t) not in done]
        complete = {n for n in by_number if (n, 1) in done and (n, 2) in done}
        played = 0
        start = time.monotonic()

        bar = None
        if progress:
            import sys

            from tqdm import tqdm
            bar = tqdm(total=len(board_list), initial=len(complete), unit="board",
                       desc="match", file=sys.stderr, leave=False, dynamic_ncols=True)

        def imps_so_far():
            vals = [imps(done[(n, 1)].result.score - done[(n, 2)].result.score)
                    for n in complete]
            return _mean_se(vals)

        def on_result(record: dict) -> None:
            nonlocal played
            tr = TableResult.from_json(record, system)
            key = (tr.board, tr.table)
            if key in done:
                return
            if jr is not None:
                jr.append(record)
            done[key] = tr
            played += 1
            if (tr.board, 3 - tr.table) in done:
                complete.add(tr.board)
                if bar is not None:
                    mean, se = imps_so_far()
                    bar.set_postfix_str(f"A {mean:+.2f}" + ("" if math.isnan(se)
                                                            else f" +- {se:.2f}") + " IMPs/bd",
                                        refresh=False)
                    bar.update(1)

        try:
            if tasks:
                if scheduler is not None:
                    _run_dask(tasks, scheduler, on_result)
                else:
                    _run_local(tasks, workers, on_result)
        finally:
            if bar is not None:
                bar.close()
    finally:
        if jr is not None:
            jr.close()

    outcomes = tuple(BoardOutcome(bd, done[(bd.number, 1)], done[(bd.number, 2)])
                     for bd in sorted(board_list, key=lambda x: x.number))
    result = MatchResult(a, b, seed, scoring, outcomes, time.monotonic() - start, played,
                         None if scheduler is not None else workers)
    if pbn is not None:
        from ddsolver.pbn import write_pbn
        write_pbn(match_games(result), pbn)
    return result


# ---------------------------------------------------------------------------------------
# PBN
# ---------------------------------------------------------------------------------------

def _table_game(result: BoardResult, number: int, table: int, a: PlayerConfig,
                b: PlayerConfig, imps_ns: int, mp_ns: Optional[float], event: str):
    """One table as a PBN game: :meth:`ai.game.BoardResult.to_pbn_game` and the tags of a
    team match (PBN 2.1 section 4: ``Room``, ``HomeTeam``, ``VisitTeam``, ``ScoreIMP``,
    ``ScorePercentage``)."""
    ns_side, ew_side = ("A", "B") if table == 1 else ("B", "A")
    names = {"A": f"A: {a.label}", "B": f"B: {b.label}"}
    players = {Seat.NORTH: names[ns_side], Seat.SOUTH: names[ns_side],
               Seat.EAST: names[ew_side], Seat.WEST: names[ew_side]}
    game = result.to_pbn_game(board=number, event=event, players=players)
    game.set_tag("Room", "Open" if table == 1 else "Closed")
    game.set_tag("HomeTeam", names["A"])
    game.set_tag("VisitTeam", names["B"])
    game.set_tag("ScoreIMP", f"NS {imps_ns}")
    if mp_ns is not None:
        game.set_tag("ScorePercentage", f"NS {mp_ns:g}")
    return game


def match_games(result: MatchResult, event: Optional[str] = None) -> list:
    """Every board of ``result`` as PBN games (:class:`ddsolver.pbn.PBNGame`), two a board:
    table 1 (``Room "Open"``, A North-South) then table 2 (``Room "Closed"``).

    Each game has the 15 mandatory tags of PBN 2.1 (players' names ``"A: hard"``...), the
    auction with each call's explanation as a ``Note``, the play (export layout, a row per
    trick from the opening leader), ``Score "NS n"`` (the N-S score at that table),
    ``ScoreIMP "NS n"`` (the IMPs of that table's N-S pair on the board) and, when the
    players aimed at matchpoints, ``ScorePercentage``.  :func:`result_from_game` reads a game
    back; :func:`ddsolver.write_pbn` writes the list.
    """
    if event is None:
        event = f"ddsolver-ai match: A {result.a.label} v B {result.b.label}, " \
                f"seed {result.seed}"
    games = []
    for bo in result.boards:
        mp = result.scoring == "MP"
        games.append(_table_game(bo.open.result, bo.board.number, 1, result.a, result.b,
                                 bo.imps, 50.0 * bo.matchpoints if mp else None, event))
        games.append(_table_game(bo.closed.result, bo.board.number, 2, result.a, result.b,
                                 -bo.imps, 100 - 50.0 * bo.matchpoints if mp else None,
                                 event))
    return games


def _score_tag(game) -> Optional[int]:
    value = (game.get("Score") or "").strip()
    if not value:
        return None
    parts = value.split()
    try:
        if len(parts) == 2 and parts[0].upper() in ("NS", "EW"):
            n = int(parts[1])
            return n if parts[0].upper() == "NS" else -n
        if len(parts) == 4 and parts[0].upper() == "NS" and parts[2].upper() == "EW":
            return int(parts[1])
    except ValueError:
        pass
    raise PBNError(f"board {game.get('Board')}: bad Score tag {value!r} (expected "
                   f"\"NS n\" or \"EW n\")")


def result_from_game(game, scoring: Optional[str] = None) -> BoardResult:
    """A :class:`ai.game.BoardResult` from a played PBN game (as :func:`match_games` writes
    it, or any game with a complete deal, a finished auction, a result and, unless passed
    out, the play).  Explanations are the texts of the calls' notes (``None`` for a call
    without one), as :func:`ai.game.pbn_note_text` wrote them.  A play that stops after a
    trick ended in a claim; PBN does not say who claimed, so :attr:`~ai.game.BoardResult.
    claim` is read as declarer's of the tricks the result gives declarer after the play.

    The score is the ``Score`` tag's when there is one (PBN 2.1 section 4.2, ``"NS n"`` or
    ``"EW n"``), else the duplicate score of the contract and the ``Result`` tag.

    :raises PBNError: for a game without a complete deal, a finished legal auction or a
        result, with an illegal play or a play that stops inside a trick, or whose ``Score``
        tag is not the score of its result.
    """
    deal = game.deal
    if deal is None or not deal.is_complete():
        raise PBNError(f"board {game.get('Board')}: no complete deal")
    parsed = game.auction
    if parsed is None or parsed.auction is None or not parsed.auction.is_finished:
        raise PBNError(f"board {game.get('Board')}: no finished, legal auction")
    dealer = parsed.auction.dealer
    vulnerability = game.vulnerability or Vulnerability.NONE
    calls = tuple(parsed.auction.calls)
    explanations = tuple(e.note_text for e in parsed.entries)
    contract = parsed.auction.contract
    declarer = parsed.auction.declarer
    claim = None
    if contract is None:
        play: tuple = ()
        tricks = 0
    else:
        play = tuple((pc.seat, pc.card) for pc in game.play_sequence)
        tricks = game.result
        if tricks is None:
            raise PBNError(f"board {game.get('Board')}: no Result")
        if len(play) < 52:
            if len(play) % 4:
                raise PBNError(f"board {game.get('Board')}: the play stops inside a trick "
                               f"({len(play)} cards)")
            pos = game.check_play()
            won = pos.tricks_won[declarer.side]
            left = 13 - len(play) // 4
            if not won <= tricks <= won + left:
                raise PBNError(f"board {game.get('Board')}: Result {tricks} cannot follow "
                               f"the play ({won} tricks won, {left} left)")
            claim = (declarer, tricks - won)
    computed = ns_score(contract, tricks, vulnerability)
    tagged = _score_tag(game)
    if tagged is not None and tagged != computed:
        raise PBNError(f"board {game.get('Board')}: Score {tagged} is not the score of "
                       f"{result_str(contract, tricks)} ({computed})")
    if scoring is None:
        scoring = "MP" if (game.get("Scoring") or "").upper().startswith("MP") else "IMP"
    return BoardResult(deal, dealer, vulnerability, scoring, calls, explanations, contract,
                       declarer, play, tricks, computed, claim)


# ---------------------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------------------

def _parse_options(items: Iterable[str], side: str) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise click.BadParameter(f"{item!r}: expected KEY=VALUE", param_hint=f"-{side}")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


class _CLIError(click.ClickException):
    exit_code = 2


@click.command("match")
@click.argument("player_a", metavar="A")
@click.argument("player_b", metavar="B")
@click.option("-n", "--boards", type=click.IntRange(1, MAX_BOARDS), default=None, metavar="N",
              help="Boards to play, at most 100,000 (default 32; with --deals, every board "
                   "of the file).")
@click.option("--deals", "deals_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE", help="Play the boards of this PBN file instead of seeded "
                                   "deals.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Match seed: the deals (ddsolver.random_deals(seed, N)) and, with the "
                   "board and table, every player's seed.")
@click.option("-a", "options_a", multiple=True, metavar="KEY=VALUE",
              help="An option of A's players (repeatable), e.g. -a samples=64; values are "
                   "read as JSON, else as text.")
@click.option("-b", "options_b", multiple=True, metavar="KEY=VALUE",
              help="An option of B's players (repeatable).")
@click.option("--scoring", type=click.Choice(["IMP", "MP"], case_sensitive=False),
              default="IMP", show_default=True,
              help="What the players aim at; MP also reports matchpoints.")
@click.option("--matchpoints", is_flag=True, help="Report matchpoints too.")
@click.option("-o", "--output", default="match.pbn", show_default=True, metavar="PBN",
              help="The PBN file of all boards (written at the end, atomically).")
@click.option("--journal", default=None, metavar="PATH",
              help="The journal of finished tables (default: OUTPUT.journal); run the same "
                   "command again to resume.")
@click.option("-w", "--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes playing tables (1-64).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on a Dask cluster (e.g. tcp://host:8786) instead of local "
                   "processes; needs 'pip install ddsolver[dask]'.")
@click.option("--timed", is_flag=True,
              help="Keep the computers' time budgets (faster, but results then depend on "
                   "the machine's load).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on stdout.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def match_command(player_a, player_b, boards, deals_path, seed, options_a, options_b,
                  scoring, matchpoints, output, journal, workers, scheduler, timed, as_json,
                  quiet):
    """Play a match between two players: A and B are 'easy', 'medium', 'hard' or a Player
    class 'package.module:Class'.

    Every board is played at two tables, A North-South at table 1 and East-West at table 2;
    the result is A's IMPs per board with its standard error.  Finished tables go to a
    journal at once: after an interruption, the same command resumes.  Example:

    \b
      ddsolver-ai match hard easy -n 100 --seed 1 -w 2 -o hard-easy.pbn
    """
    import sys

    scoring = scoring.upper()
    if scheduler is not None and workers != 1:
        # the cluster's workers play the tables: -w would be ignored
        raise click.UsageError("--workers plays tables in local processes; with --scheduler "
                               "the Dask cluster's workers play them (start more of them)")
    try:
        # before a board is played: '', a loop of symbolic links, a folder that does not
        # exist or is not writable (the PBN file was written, and failed, at the end)
        check_path(deals_path, "'--deals'", "input")
        if output == "-" or journal == "-":
            # elsewhere '-' is standard output; a match needs files (its journal resumes it)
            raise click.BadParameter("'-' is no file here: the match writes its PBN file "
                                     "and journal to files; give a file name",
                                     param_hint="'-o' / '--output'" if output == "-"
                                     else "'--journal'")
        check_path(output, "'-o' / '--output'")
        if journal is None:
            journal = output + ".journal"
        check_path(journal, "'--journal'")
        if deals_path is not None:
            board_arg: Any = boards_from_pbn(deals_path, boards)
        else:
            board_arg = boards if boards is not None else 32
        result = run_match(player_a, player_b, board_arg, seed=seed, scoring=scoring,
                           options_a=_parse_options(options_a, "a"),
                           options_b=_parse_options(options_b, "b"),
                           workers=workers, scheduler=scheduler, journal=journal,
                           pbn=output, progress=not quiet and sys.stderr.isatty(),
                           timed=timed)
    except KeyboardInterrupt:
        click.echo(f"\nInterrupted. The finished tables are in {journal}; run the same "
                   f"command again to resume.", err=True)
        sys.exit(130)
    except (MatchError, BridgeError) as exc:
        raise _CLIError(str(exc)) from None
    except OSError as exc:
        raise _CLIError(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")) from None
    if as_json:
        data = result.to_json()
        data.update({"output": output, "journal": journal})
        click.echo(json.dumps(data, indent=1))
    else:
        click.echo(result.summary(matchpoints or scoring == "MP"))
        click.echo(f"boards: {output}; journal: {journal}")
