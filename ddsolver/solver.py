"""Exact double-dummy analysis: card values, best values, DD tables.

Conventions (the same as DDS, B. Haglund and S. Hein):

* :func:`solve` and :func:`solve_best` count the tricks won by **the side of the player to
  move** among **the tricks not yet completed**, the current trick included even when cards
  are already on the table in it.  Tricks completed before the current one are not counted.
* :func:`dd_table` gives, for each strain and declarer, the tricks won by **declarer's side**
  over the whole deal, the opening lead coming from declarer's left-hand opponent.

The search is the compiled :mod:`ddsolver._search` (zero-window alpha-beta, MTD(f)-style
driver, transposition table with partition bounds), in the build :data:`BUILD` names:
``"fast"`` (x86-64 with POPCNT, BMI1, BMI2, LZCNT and AVX2, chosen when the CPU has them) or
``"portable"`` (forced with the environment variable ``DDSOLVER_PORTABLE=1``); the answers
are the same (``docs/building.md``).  A :class:`Solver` owns a table that is
reused across solves with the same trump strain.  Calls on one Solver from several threads
take turns (a lock), so to solve in parallel use one per thread (the module-level functions
keep one per thread for you).
"""

from __future__ import annotations

import functools
import numbers
import os
import threading
from collections import abc
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Dict, Iterable, List, Optional, Sequence

import numpy as np

from ._search import BUILD, Engine
from .cards import Card, Strain
from .deal import Deal
from .errors import InvalidDealError, InvalidPositionError, InvalidTableError, brief_repr
from .play import Position
from .table import Seat, Side

__all__ = [
    "Solver",
    "DDTable",
    "solve",
    "solve_best",
    "dd_table",
    "dd_tables",
    "CancelGroup",
    "last_stats",
    "DEFAULT_MEMORY_MB",
    "MAX_MEMORY_MB",
    "BUILD",
]

#: Default cap on one solver's transposition table, in MiB.  A full table is emptied and
#: refilled, so memory stays bounded on any deal.
DEFAULT_MEMORY_MB = 256

#: The most ``memory_mb`` a :class:`Solver` takes: 262,144 MiB (256 GiB).  The engine
#: numbers the table's keys and entries with 32-bit indices, so a table of more than about
#: 320 GiB cannot be made on any machine; more than this cap is refused (a MemoryError, as
#: a table this machine cannot allocate is).  Settings that make their solvers later, at
#: the first decision (:class:`ai.cardplay.PlaySettings`,
#: :class:`ai.bidding.simulation.SimulationSettings`,
#: :class:`ai.sampling.SamplingSettings`), refuse more when they are made.
MAX_MEMORY_MB = 256 * 1024


class DDTable:
    """A double-dummy table: tricks for declarer's side, by strain and declarer.

    ``table[strain, seat]`` is the number of tricks (0..13) won by the side of declarer
    ``seat`` playing in ``strain``, with the opening lead from ``seat``'s left-hand opponent;
    ``strain`` and ``seat`` are enums, letters (``"NT"``, ``"E"``) or integers 0..4 / 0..3
    (others raise InvalidNotationError; a key that is not such a pair, TypeError).
    :meth:`to_array` gives the ``(5, 4)`` ``uint8`` array, rows C, D, H, S, NT and columns
    N, E, S, W.

    ``DDTable(array)``: any 5 x 4 array-like of integers 0..13 (integral floats accepted).

    :raises InvalidTableError: another shape, values outside 0..13, fractional or
        non-finite numbers, booleans, strings or other non-numbers.
    """

    __slots__ = ("_array",)

    def __init__(self, array):
        try:
            raw = np.asarray(array)
        except (TypeError, ValueError, OverflowError) as exc:
            raise InvalidTableError(f"a DD table needs 5 x 4 integers: {exc}") from None
        if raw.shape != (5, 4):
            raise InvalidTableError(f"a DD table has shape (5, 4), got {raw.shape}")
        if raw.dtype.kind == "O":
            raise InvalidTableError("a DD table needs 5 x 4 integers (got values out of "
                                    "range or of mixed types)")
        if raw.dtype.kind not in "iuf":
            raise InvalidTableError(f"a DD table needs 5 x 4 integers, got {raw.dtype} values")
        if raw.dtype.kind == "f" and (not np.isfinite(raw).all()
                                      or (raw != np.round(raw)).any()):
            raise InvalidTableError("a DD table needs 5 x 4 integers, got fractional or "
                                    "non-finite values")
        if raw.min() < 0 or raw.max() > 13:
            raise InvalidTableError("DD table values must be 0..13")
        self._array = raw.astype(np.uint8)
        self._array.setflags(write=False)

    def __getitem__(self, key) -> int:
        if not isinstance(key, tuple) or len(key) != 2:
            raise TypeError(f"index a DD table with (strain, declarer), got {key!r}")
        strain, seat = key
        return int(self._array[int(Strain.coerce(strain)), int(Seat.coerce(seat))])

    def to_array(self) -> np.ndarray:
        """A ``(5, 4)`` ``uint8`` copy: rows C, D, H, S, NT; columns N, E, S, W."""
        return self._array.copy()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DDTable) and bool((self._array == other._array).all())

    def __repr__(self) -> str:
        return f"DDTable({self._array.tolist()!r})"

    def __str__(self) -> str:
        lines = ["      N   E   S   W"]
        for strain in Strain:
            row = " ".join(f"{int(v):3d}" for v in self._array[int(strain)])
            lines.append(f"{strain.letter:>2}  {row}")
        return "\n".join(lines)


def _is_integer(x) -> bool:
    """An integer in the strict sense: int or numpy integer, not bool."""
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _check_threads(threads) -> None:
    """A ``threads`` argument: ``None`` or an integer >= 1 (as :class:`Solver` checks
    ``memory_mb``: the wrong type is a TypeError, an integer out of range a ValueError).

    :raises TypeError: if ``threads`` is neither ``None`` nor an integer (a bool, a float
        or a string included).
    :raises ValueError: if ``threads`` is an integer below 1.
    """
    if threads is None:
        return
    if not _is_integer(threads):
        raise TypeError(f"threads must be an integer or None, got {threads!r}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")


def _check_guess(guess) -> int:
    """The engine's guess argument: -1 for None, else an integer 0..13."""
    if guess is None:
        return -1
    if not _is_integer(guess) or not 0 <= guess <= 13:
        raise ValueError(f"guess must be None or an integer 0..13, got {guess!r}")
    return int(guess)


#: the Card of index 16 * suit + rank (None where no card has that index)
_CARD_AT = [Card(i >> 4, i & 15) if 2 <= (i & 15) <= 14 else None for i in range(64)]


def _trick_pairs(position: Position):
    return [(int(c.suit), int(c.rank)) for c in position.trick_cards]


def _layout_args(layouts, trump, leader, trick):
    """The arguments of :meth:`Solver.solve_layouts` as the engine takes them."""
    if isinstance(layouts, np.ndarray):
        raw = layouts
        if raw.ndim != 2 or raw.shape[1] != 4:
            raise ValueError(f"layouts must have shape (n, 4) (masks N, E, S, W), got "
                             f"{raw.shape}")
        if raw.dtype.kind not in "iu":
            raise TypeError(f"layouts must be integer card-set masks, got {raw.dtype} values")
        if raw.dtype.kind == "i" and raw.size and raw.min() < 0:
            raise ValueError("a card-set mask cannot be negative")
    else:
        try:
            raw = np.array(layouts, dtype=object)
        except ValueError:
            raise ValueError("layouts must be rows of 4 masks (N, E, S, W) each") from None
        if raw.ndim != 2 or raw.shape[1] != 4:
            raise ValueError(f"layouts must have shape (n, 4) (masks N, E, S, W), got "
                             f"{raw.shape}")
        for x in raw.flat:
            if not _is_integer(x):
                raise TypeError(f"layouts must be integer card-set masks, got {x!r}")
            if not 0 <= x < 1 << 64:
                raise ValueError(f"a card-set mask is a 64-bit unsigned integer, got {x!r}")
    hands = np.ascontiguousarray(raw, dtype=np.uint64)
    if isinstance(trick, (str, bytes)) or not isinstance(trick, abc.Iterable):
        raise TypeError(f"trick must be a sequence of Cards, got {type(trick).__name__}")
    pairs = []
    for c in trick:
        if not isinstance(c, Card):
            raise TypeError(f"trick cards must be Cards, got {type(c).__name__}")
        pairs.append((int(c.suit), int(c.rank)))
    return hands, int(Strain.coerce(trump)), int(Seat.coerce(leader)), pairs

class Solver:
    """A double-dummy solver owning one transposition table.

    Reuse one Solver for many solves with the same trump strain (scoring each card after
    every card played, Monte Carlo samples of one decision): table entries describe positions
    by relative ranks and suit lengths, so they stay exact across positions and deals with the
    same trump.  The table is emptied automatically when the strain changes.

    Calls from several threads on one Solver are safe but run one at a time (a lock); to
    solve in parallel use one Solver per thread, as :func:`dd_tables` does.

    :param memory_mb: cap on the table's memory, MiB (default :data:`DEFAULT_MEMORY_MB`;
        at most :data:`MAX_MEMORY_MB`).
    :raises TypeError: if ``memory_mb`` is not an integer (a float, a string, a bool or
        None).
    :raises ValueError: if ``memory_mb`` is an integer below 1.
    :raises MemoryError: if ``memory_mb`` is above :data:`MAX_MEMORY_MB` or the table
        cannot be allocated.
    """

    def __init__(self, memory_mb: int = DEFAULT_MEMORY_MB):
        if not _is_integer(memory_mb):
            raise TypeError(f"memory_mb must be an integer number of MiB, got {memory_mb!r}")
        if memory_mb < 1:
            raise ValueError(f"memory_mb must be >= 1, got {memory_mb}")
        if memory_mb > MAX_MEMORY_MB:
            raise MemoryError(f"memory_mb={brief_repr(int(memory_mb))} MiB is more than a "
                              f"table can hold (at most {MAX_MEMORY_MB:,} MiB, "
                              f"MAX_MEMORY_MB)")
        self._lock = threading.RLock()
        try:
            self._engine = Engine(int(memory_mb) * 1024 * 1024)
        except (OverflowError, MemoryError):
            raise MemoryError(f"memory_mb={memory_mb} MiB cannot be allocated") from None

    @property
    def nodes(self) -> int:
        """Search nodes visited by this solver so far."""
        return self._engine.nodes

    def cancel(self) -> None:
        """Ask the search running on this solver, in any thread, to stop: it raises
        KeyboardInterrupt within about 50 ms, as on Ctrl-C, and so does every later search
        until :meth:`clear_cancel`.  Takes no lock, so that another thread may call it while
        a search holds the solver (what stops worker threads on Ctrl-C)."""
        self._engine.cancel()

    def clear_cancel(self) -> None:
        """Let searches run again after :meth:`cancel`."""
        self._engine.clear_cancel()

    def clear(self) -> None:
        """Empty the transposition table."""
        with self._lock:
            self._engine.clear()

    def _load(self, position: Position) -> None:
        if not isinstance(position, Position):
            raise InvalidPositionError(f"expected a Position, got {type(position).__name__}")
        if position.is_finished:
            raise InvalidPositionError("the play is over: no card left to solve")
        self._engine.set_position(position.masks(), int(position.trump), int(position.leader),
                                  _trick_pairs(position))

    def solve(self, position: Position) -> Dict[Card, int]:
        """Value of every legal card of the player to move.

        :returns: ``{card: tricks}`` where tricks (0..``position.tricks_left``) is the number
            of tricks the side to move wins among the tricks not yet completed, the current
            one included, if it plays ``card`` and all four hands then play double-dummy.
            Equivalent cards get their own entry with the same value.
        :raises InvalidPositionError: if the play is over or ``position`` is not a Position.
        """
        with self._lock:
            return self._solve(position)

    def _solve(self, position: Position) -> Dict[Card, int]:
        self._load(position)
        tl = position.tricks_left
        mover_ns = position.to_move.side == Side.NS
        values: Dict[int, int] = {}      # card index 16 * suit + rank -> tricks
        guess = -1
        for suit, rank, group in self._engine.groups():
            ns = self._engine.ns_tricks_after(suit, rank, guess)
            guess = ns
            value = ns if mover_ns else tl - ns
            base = 16 * suit - 1
            while group:
                low = group & -group
                values[base + low.bit_length()] = value
                group ^= low
        # the order of Position.legal_cards: spades first, high to low (index descending)
        return {_CARD_AT[i]: values[i] for i in sorted(values, reverse=True)}

    def solve_best(self, position: Position, guess: Optional[int] = None) -> int:
        """Tricks the side to move wins among the tricks not yet completed (current trick
        included) with best play by all four hands.

        ``guess`` (optional, 0..13): the driver's first target for N-S; any value gives the
        same answer, a close one saves time.

        :raises InvalidPositionError: if the play is over or ``position`` is not a Position.
        :raises ValueError: if ``guess`` is not None or an integer 0..13.
        """
        g = _check_guess(guess)
        with self._lock:
            self._load(position)
            ns = self._engine.ns_tricks(g)
        if position.to_move.side == Side.NS:
            return ns
        return position.tricks_left - ns

    def ns_tricks(self, position: Position, guess: Optional[int] = None) -> int:
        """Tricks N-S win among the tricks not yet completed (current one included).

        :raises InvalidPositionError: if the play is over or ``position`` is not a Position.
        :raises ValueError: if ``guess`` is not None or an integer 0..13.
        """
        g = _check_guess(guess)
        with self._lock:
            self._load(position)
            return self._engine.ns_tricks(g)

    def solve_layouts(self, layouts, trump, leader, trick: Sequence[Card] = ()) -> np.ndarray:
        """Value of every legal card of the player to move in many layouts of one position
        (the Monte Carlo samples of one decision), in one call that releases the GIL for the
        whole batch, so that threads with a Solver each solve side by side.

        :param layouts: ``(n, 4)`` integers: per layout, the card-set masks of the cards N,
            E, S and W still hold (not those already played to the current trick): a
            card's bit is ``1 << (16 * suit + rank)``, its :attr:`Card.bit`, and a hand's
            mask the sum of its cards' bits (``Deal.masks()``, ``Position.masks()``).
        :param trump: the strain (a :class:`Strain`, letter or 0..4).
        :param leader: the seat that led (or leads) to the current trick.
        :param trick: the cards already played to the current trick, the leader's first.
        :returns: an ``(n, 52)`` ``int8`` array: at ``[i, card.index]`` the tricks the side
            to move wins among the tricks not yet completed (current one included) if it
            plays ``card`` in layout ``i`` (as :meth:`solve`), -1 for cards it may not play.
        :raises TypeError: if ``layouts`` are not integers, ``trick`` not a sequence of
            Cards.
        :raises ValueError: for another shape, a mask outside 0..2**64-1, or a layout that
            is not a position with this trick (its row named).
        :raises InvalidNotationError: for a bad ``trump`` or ``leader``.
        """
        hands, trump_i, leader_i, pairs = _layout_args(layouts, trump, leader, trick)
        out = np.empty((hands.shape[0], 52), dtype=np.int8)
        with self._lock:
            self._engine.values_batch(hands, out, trump_i, leader_i, pairs)
        return out

    def card_losses(self, layouts, trump, leader, trick: Sequence[Card], card: Card
                    ) -> np.ndarray:
        """Tricks ``card`` loses against the best card of the player to move, in each of many
        layouts of one position: ``max(solve().values()) - solve()[card]`` per layout, but
        found with two or three searches instead of one per card (the card's value, then
        whether any card beats it, then the best value only when one does).  Releases the
        GIL for the whole batch, as :meth:`solve_layouts`.

        :param layouts, trump, leader, trick: as :meth:`solve_layouts`.
        :param card: a card the player to move holds and may play in every layout.
        :returns: an ``(n,)`` ``int8`` array of tricks lost (0 = as good as any card).
        :raises TypeError: as :meth:`solve_layouts`, or if ``card`` is not a Card.
        :raises ValueError: as :meth:`solve_layouts`, or if the player to move does not
            hold ``card`` or may not play it in some layout.
        :raises InvalidNotationError: for a bad ``trump`` or ``leader``.
        """
        if not isinstance(card, Card):
            raise TypeError(f"card must be a Card, got {type(card).__name__}")
        hands, trump_i, leader_i, pairs = _layout_args(layouts, trump, leader, trick)
        out = np.empty(hands.shape[0], dtype=np.int8)
        with self._lock:
            self._engine.losses_batch(hands, out, trump_i, leader_i, pairs, int(card.suit),
                                      int(card.rank))
        return out

    def dd_table(self, deal: Deal) -> DDTable:
        """The double-dummy table of a complete deal; see :class:`DDTable`.

        :raises InvalidDealError: if ``deal`` is not a complete deal.
        """
        if not isinstance(deal, Deal):
            raise InvalidDealError(f"expected a Deal, got {type(deal).__name__}")
        if not deal.is_complete():
            raise InvalidDealError("a DD table needs a complete deal (four 13-card hands)")
        masks = deal.masks()
        arr = np.zeros((5, 4), dtype=np.uint8)
        eng = self._engine
        with self._lock:
            for strain in (4, 3, 2, 1, 0):
                guess = -1
                for leader in range(4):
                    eng.set_position(masks, strain, leader, ())
                    ns = eng.ns_tricks(guess)
                    guess = ns
                    declarer = (leader + 3) % 4
                    arr[strain, declarer] = ns if declarer % 2 == 0 else 13 - ns
        return DDTable(arr)


_local = threading.local()
_stats_lock = threading.Lock()
_stats = {"nodes": 0}


def _thread_solver() -> Solver:
    solver = getattr(_local, "solver", None)
    if solver is None:
        solver = Solver()
        _local.solver = solver
    return solver


def _counted(fn, *args):
    solver = _thread_solver()
    before = solver.nodes
    result = fn(solver, *args)
    with _stats_lock:
        _stats["nodes"] = solver.nodes - before
    return result


def solve(position: Position) -> Dict[Card, int]:
    """Value of every legal card of the player to move; see :meth:`Solver.solve`.

    :raises InvalidPositionError: if the play is over.
    """
    return _counted(Solver.solve, position)


def solve_best(position: Position) -> int:
    """Best value for the side to move; see :meth:`Solver.solve_best`."""
    return _counted(Solver.solve_best, position)


def dd_table(deal: Deal) -> DDTable:
    """Double-dummy table of a complete deal; see :class:`DDTable`.

    :raises InvalidDealError: if ``deal`` is not a complete deal.
    """
    return _counted(Solver.dd_table, deal)


def last_stats() -> dict:
    """Statistics of the last call made through the module-level functions in any thread:
    ``{"nodes": int}``."""
    with _stats_lock:
        return dict(_stats)


def _table_worker(deal: Deal) -> DDTable:
    return _thread_solver().dd_table(deal)


class CancelGroup:
    """The solvers at work for one threaded call (:func:`dd_tables`,
    ``ai.sampling.simulate_contract``): :meth:`stop` (the caller's Ctrl-C or error)
    cancels the search each is running (:meth:`Solver.cancel`), and no solver enters after
    it.

    A worker calls :meth:`enter` with its solver before it searches, :meth:`check`
    between searches and :meth:`leave` when done (which clears the cancel, so that a
    reused solver works again).  Thread-safe.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self.stopped = False
        self._solvers: set = set()

    def stop(self) -> None:
        """Cancel every solver in the group and refuse new ones."""
        with self._lock:
            self.stopped = True
            for solver in self._solvers:
                solver.cancel()

    def enter(self, solver: Solver) -> None:
        """Add ``solver`` (its cancel cleared).

        :raises KeyboardInterrupt: if the group is stopped.
        """
        with self._lock:
            if self.stopped:
                raise KeyboardInterrupt("stopped")
            self._solvers.add(solver)
            solver.clear_cancel()

    def leave(self, solver: Solver) -> None:
        """Remove ``solver`` and clear its cancel."""
        with self._lock:
            self._solvers.discard(solver)
            solver.clear_cancel()

    def check(self) -> None:
        """:raises KeyboardInterrupt: if the group is stopped."""
        if self.stopped:
            raise KeyboardInterrupt("stopped")


def _stopping_table(group: CancelGroup, deal: Deal) -> DDTable:
    """One table of a threaded :func:`dd_tables` on this thread's solver, in ``group``."""
    solver = _thread_solver()
    group.enter(solver)
    try:
        return solver.dd_table(deal)
    finally:
        group.leave(solver)


def dd_tables(deals: Iterable[Deal], threads: Optional[int] = None,
              executor: Optional[Executor] = None, progress=None) -> List[DDTable]:
    """DD tables of many deals, in order.

    :param threads: worker threads (default: the number of CPUs).  The search releases the
        GIL, so threads run in parallel.  ``threads=1`` solves in the calling thread.
    :param executor: any :class:`concurrent.futures.Executor` (a Dask or Ray executor, a
        process pool, ...) to run :func:`dd_table` on instead; ``threads`` is then ignored.
    :param progress: optional callable called with each finished table (for progress bars).
    :raises InvalidDealError: if a deal is not complete.
    :raises TypeError: if ``deals`` is a single Deal, a string or not iterable,
        ``executor`` has no ``submit`` method, or ``threads`` is neither None nor an
        integer (a float, a string or a bool).
    :raises ValueError: if ``threads`` is an integer below 1.
    :raises KeyboardInterrupt: on Ctrl-C (or what a signal handler raises); on its own
        threads the searches running stop within about 50 ms and no further table starts.
        With an ``executor`` the tables already submitted run to their end.
    """
    _check_threads(threads)
    if isinstance(deals, (Deal, str, bytes)) or not isinstance(deals, abc.Iterable):
        raise TypeError("dd_tables takes an iterable of Deals (for one deal use dd_table; "
                        "for PBN text, Deal.from_pbn)")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(f"executor must be a concurrent.futures.Executor, got {executor!r}")
    deals = list(deals)
    for d in deals:
        if not isinstance(d, Deal) or not d.is_complete():
            raise InvalidDealError(f"not a complete deal: {d!r}")
    if executor is None and (threads == 1 or len(deals) <= 1):
        out = []
        for d in deals:
            t = _table_worker(d)
            if progress is not None:
                progress(t)
            out.append(t)
        return out
    own = executor is None
    if own:
        stop = CancelGroup()
        executor = ThreadPoolExecutor(max_workers=threads or os.cpu_count() or 1)
    try:
        work = functools.partial(_stopping_table, stop) if own else dd_table
        futures = [executor.submit(work, d) for d in deals]
        out = []
        for f in futures:
            t = f.result()
            if progress is not None:
                progress(t)
            out.append(t)
        return out
    except BaseException:
        # Ctrl-C (or a failing table, or progress raising): stop the running searches
        # within about 50 ms; shutdown below cancels the tables not started
        if own:
            stop.stop()
        raise
    finally:
        if own:
            executor.shutdown(cancel_futures=True)
