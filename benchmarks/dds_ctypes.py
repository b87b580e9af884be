"""DDS 2.9.0 (the ``libdds.so`` inside the ``endplay==0.5.12`` wheel) called through ctypes.

Only the reference solver for benchmarks and cross-checks; nothing in ``ddsolver`` imports it.
The library is opened directly from endplay's package folder without importing endplay
(whose ``__init__`` pulls in matplotlib and would blur the memory figures), every function
gets explicit ``argtypes``/``restype`` on a private ``CDLL`` handle, and the binary structs
(``deal``, ``ddTableDeal``, ...) are filled once per item *before* the timed call, so a
timing covers the C call only (ctypes adds about a microsecond).

DDS conventions (``dll/dds.h``): seat 0=N 1=E 2=S 3=W; strain/suit 0=S 1=H 2=D 3=C 4=NT;
a holding is a bit mask with bit ``r`` for rank ``r`` (2..14, so the two is ``0x4``);
vulnerability 0=None 1=Both 2=NS 3=EW.  ``ddsolver`` counts suits the other way round
(clubs 0 .. spades 3), which :func:`dds_strain_code` converts.

Threads: on Linux DDS must be told its thread count before the first solve.  Opening the
library here calls ``SetMaxThreads(threads)`` (1 by default, so ``CalcDDtable`` and
``SolveBoard(threadIndex=0)`` run on a single thread; :meth:`DDS.info` shows
``Number of threads 1``).  ``SolveBoard`` keeps its transposition table between calls of the
same thread and reuses it when the next call has the same deal (and trump); the benchmark
therefore never solves the same deal twice in a row.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
from collections.abc import Iterable, Sequence

import numpy as np

from ddsolver.cards import Card, Strain, Suit
from ddsolver.deal import Deal, Hand
from ddsolver.table import Seat, Vulnerability

__all__ = ["DDS", "DDSError", "dds_library_path", "dds_strain_code", "dds_vulnerability_code"]


class DDSError(RuntimeError):
    """DDS returned an error code (``RETURN_*`` of ``dll/dds.h``)."""


# --------------------------------------------------------------------------------------
# the structs of dll/dds.h (DDS 2.9.0)

class DealStruct(ctypes.Structure):
    """``struct deal``: a position for ``SolveBoard``."""
    _fields_ = [
        ("trump", ctypes.c_int),
        ("first", ctypes.c_int),
        ("currentTrickSuit", ctypes.c_int * 3),
        ("currentTrickRank", ctypes.c_int * 3),
        ("remainCards", (ctypes.c_uint * 4) * 4),
    ]


class FutureTricks(ctypes.Structure):
    """``struct futureTricks``: the answer of ``SolveBoard``."""
    _fields_ = [
        ("nodes", ctypes.c_int),
        ("cards", ctypes.c_int),
        ("suit", ctypes.c_int * 13),
        ("rank", ctypes.c_int * 13),
        ("equals", ctypes.c_int * 13),
        ("score", ctypes.c_int * 13),
    ]


class TableDeal(ctypes.Structure):
    """``struct ddTableDeal``: a full deal for ``CalcDDtable``."""
    _fields_ = [("cards", (ctypes.c_uint * 4) * 4)]


class TableResults(ctypes.Structure):
    """``struct ddTableResults``: ``resTable[strain][seat]``, declarer's tricks."""
    _fields_ = [("resTable", (ctypes.c_int * 4) * 5)]


class ParResultsDealer(ctypes.Structure):
    """``struct parResultsDealer``: the answer of ``DealerPar``."""
    _fields_ = [
        ("number", ctypes.c_int),
        ("score", ctypes.c_int),
        ("contracts", (ctypes.c_char * 10) * 10),
    ]


class DDSInfo(ctypes.Structure):
    """``struct DDSInfo`` of DDS 2.9 (endplay's copy lacks several fields)."""
    _fields_ = [
        ("major", ctypes.c_int), ("minor", ctypes.c_int), ("patch", ctypes.c_int),
        ("versionString", ctypes.c_char * 10),
        ("system", ctypes.c_int), ("numBits", ctypes.c_int), ("compiler", ctypes.c_int),
        ("constructor", ctypes.c_int), ("numCores", ctypes.c_int),
        ("threading", ctypes.c_int), ("noOfThreads", ctypes.c_int),
        ("threadSizes", ctypes.c_char * 128),
        ("systemString", ctypes.c_char * 1024),
    ]


# --------------------------------------------------------------------------------------
# conversions

def dds_strain_code(strain: Strain) -> int:
    """DDS strain code of a :class:`Strain`: S=0 H=1 D=2 C=3 NT=4."""
    return 4 if strain == Strain.NOTRUMP else 3 - int(strain)


def dds_vulnerability_code(vul: Vulnerability) -> int:
    """DDS vulnerability code: None=0 Both=1 NS=2 EW=3."""
    return {Vulnerability.NONE: 0, Vulnerability.BOTH: 1, Vulnerability.NS: 2,
            Vulnerability.EW: 3}[Vulnerability(vul)]


_DDS_STRAIN_OF_CODE = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS,
                       Strain.NOTRUMP)


def _fill_holdings(target, masks: Sequence[int]) -> None:
    """Write four ``ddsolver`` hand masks (N, E, S, W) into a DDS ``[hand][suit]`` array."""
    for hand in range(4):
        m = masks[hand]
        row = target[hand]
        for suit in range(4):  # ddsolver suit: clubs 0 .. spades 3
            row[3 - suit] = (m >> (16 * suit)) & 0x7FFC


def dds_library_path() -> str:
    """Path of ``libdds.so`` inside the installed endplay package.

    :raises ImportError: when endplay is not installed.
    """
    spec = importlib.util.find_spec("endplay")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("endplay is not installed: pip install endplay==0.5.12")
    for folder in spec.submodule_search_locations:
        for name in ("libdds.so", "libdds.dylib", "dds.dll"):
            path = os.path.join(folder, "_dds", name)
            if os.path.exists(path):
                return path
    raise ImportError("endplay is installed but its DDS library was not found")


class DDS:
    """A handle on DDS with typed entry points; one per process is enough.

    :param threads: passed to ``SetMaxThreads`` (1 = single thread).
    :param max_memory_mb: when given, ``SetResources(max_memory_mb, threads)`` is used
        instead (0 lets DDS choose).
    :raises ImportError: when endplay (and so DDS) is not installed.
    """

    def __init__(self, threads: int = 1, max_memory_mb: int | None = None):
        self.path = dds_library_path()
        dll = ctypes.CDLL(self.path)
        self._dll = dll
        c_int = ctypes.c_int
        dll.SolveBoard.argtypes = (DealStruct, c_int, c_int, c_int,
                                   ctypes.POINTER(FutureTricks), c_int)
        dll.SolveBoard.restype = c_int
        dll.CalcDDtable.argtypes = (TableDeal, ctypes.POINTER(TableResults))
        dll.CalcDDtable.restype = c_int
        dll.DealerPar.argtypes = (ctypes.POINTER(TableResults),
                                  ctypes.POINTER(ParResultsDealer), c_int, c_int)
        dll.DealerPar.restype = c_int
        dll.SetMaxThreads.argtypes = (c_int,)
        dll.SetMaxThreads.restype = None
        dll.SetResources.argtypes = (c_int, c_int)
        dll.SetResources.restype = None
        dll.GetDDSInfo.argtypes = (ctypes.POINTER(DDSInfo),)
        dll.GetDDSInfo.restype = None
        dll.FreeMemory.argtypes = ()
        dll.FreeMemory.restype = None
        dll.ErrorMessage.argtypes = (c_int, ctypes.c_char_p)
        dll.ErrorMessage.restype = None
        self._threads = threads
        self._max_memory_mb = max_memory_mb
        self._set_resources()
        #: the raw C functions, for timing loops without Python wrappers
        self.SolveBoard = dll.SolveBoard
        self.CalcDDtable = dll.CalcDDtable

    # -- information ------------------------------------------------------------------
    def info(self) -> str:
        """DDS's own description of the library (version, compiler, threads, memory)."""
        inf = DDSInfo()
        self._dll.GetDDSInfo(ctypes.byref(inf))
        return inf.systemString.decode(errors="replace").strip()

    def threads(self) -> int:
        inf = DDSInfo()
        self._dll.GetDDSInfo(ctypes.byref(inf))
        return inf.noOfThreads

    def error_message(self, code: int) -> str:
        buf = ctypes.create_string_buffer(80)
        self._dll.ErrorMessage(code, buf)
        return buf.value.decode(errors="replace")

    def check(self, code: int, what: str) -> None:
        """:raises DDSError: when ``code`` is not ``RETURN_NO_FAULT`` (1)."""
        if code != 1:
            raise DDSError(f"{what}: DDS error {code}: {self.error_message(code)}")

    # -- struct builders (outside any timing) ------------------------------------------
    @staticmethod
    def table_deal(deal: Deal) -> TableDeal:
        """The ``ddTableDeal`` of a complete deal."""
        td = TableDeal()
        _fill_holdings(td.cards, deal.masks())
        return td

    @staticmethod
    def board(hands: Deal | Sequence[Hand | int], trump: Strain, leader: Seat,
              current_trick: Iterable[Card] = ()) -> DealStruct:
        """The ``deal`` struct of a position.

        :param hands: the cards each seat still holds, N, E, S, W (a :class:`Deal`, Hands
            or masks); cards already on the table in the current trick are not included.
        :param trump: the strain.
        :param leader: the seat that led (or leads) to the current trick (DDS ``first``).
        :param current_trick: the 0..3 cards already played to it, leader's card first.
        """
        if isinstance(hands, Deal):
            masks = hands.masks()
        else:
            masks = [h if isinstance(h, int) else h.mask for h in hands]
        dl = DealStruct()
        dl.trump = dds_strain_code(Strain(trump))
        dl.first = int(leader)
        trick = list(current_trick)
        if len(trick) > 3:
            raise ValueError(f"a current trick holds at most 3 cards, got {len(trick)}")
        for i in range(3):
            if i < len(trick):
                dl.currentTrickSuit[i] = 3 - int(trick[i].suit)
                dl.currentTrickRank[i] = int(trick[i].rank)
            else:
                dl.currentTrickSuit[i] = 0
                dl.currentTrickRank[i] = 0
        _fill_holdings(dl.remainCards, masks)
        return dl

    # -- calls --------------------------------------------------------------------------
    def calc_dd_table(self, deal: Deal | TableDeal) -> np.ndarray:
        """``CalcDDtable``: the ``(5, 4)`` uint8 table, rows C, D, H, S, NT, columns
        N, E, S, W, tricks for declarer's side.

        :raises DDSError: when DDS reports an error.
        """
        td = deal if isinstance(deal, TableDeal) else self.table_deal(deal)
        res = TableResults()
        self.check(self.CalcDDtable(td, ctypes.byref(res)), "CalcDDtable")
        return self.table_array(res)

    @staticmethod
    def table_array(res: TableResults) -> np.ndarray:
        """Convert ``ddTableResults`` to ``ddsolver``'s ``(5, 4)`` layout."""
        out = np.zeros((5, 4), dtype=np.uint8)
        for code, strain in enumerate(_DDS_STRAIN_OF_CODE):
            out[int(strain)] = list(res.resTable[code])
        return out

    def solve_board(self, dl: DealStruct, target: int = -1, solutions: int = 1,
                    mode: int = 1, thread: int = 0) -> FutureTricks:
        """``SolveBoard``; returns the raw ``futureTricks``.

        :raises DDSError: when DDS reports an error.
        """
        fut = FutureTricks()
        self.check(self.SolveBoard(dl, target, solutions, mode, ctypes.byref(fut), thread),
                   "SolveBoard")
        return fut

    @staticmethod
    def card_scores(fut: FutureTricks) -> dict:
        """``{Card: score}`` of a ``futureTricks``, its ``equals`` groups expanded."""
        out = {}
        for i in range(fut.cards):
            suit = Suit(3 - fut.suit[i])
            rank = fut.rank[i]
            out[Card(suit, rank)] = fut.score[i]
            eq = fut.equals[i]
            for r in range(2, 15):
                if eq >> r & 1:
                    out[Card(suit, r)] = fut.score[i]
        return out

    def dealer_par(self, table: np.ndarray, dealer: Seat, vul: Vulnerability) -> tuple:
        """``DealerPar``: ``(score for NS, [contract strings])``.

        :param table: a ``(5, 4)`` table in ``ddsolver``'s layout.
        :raises DDSError: when DDS reports an error.
        """
        res = TableResults()
        for code, strain in enumerate(_DDS_STRAIN_OF_CODE):
            for seat in range(4):
                res.resTable[code][seat] = int(table[int(strain), seat])
        par = ParResultsDealer()
        self.check(self._dll.DealerPar(ctypes.byref(res), ctypes.byref(par), int(dealer),
                                       dds_vulnerability_code(vul)), "DealerPar")
        contracts = [par.contracts[i].value.decode() for i in range(par.number)]
        return par.score, contracts

    def _set_resources(self) -> None:
        if self._max_memory_mb is None:
            self._dll.SetMaxThreads(self._threads)
        else:
            self._dll.SetResources(self._max_memory_mb, self._threads)

    def free_memory(self) -> None:
        """``FreeMemory``: DDS drops its tables (the next solve starts empty); the thread
        set-up is made again, without which DDS's next call crashes."""
        self._dll.FreeMemory()
        self._set_resources()
