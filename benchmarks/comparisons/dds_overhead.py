#!/usr/bin/env python
"""How much the calling layer adds to DDS timings: raw ctypes vs endplay's Python wrappers.

    python -m benchmarks.comparisons.dds_overhead [--repeat 2000]

Measures, single thread, per call (median of ``--repeat`` calls, perf_counter):

* the floor: ``SolveBoard`` on a one-card ending (DDS does almost nothing), raw ctypes with
  a prepared struct, and through ``endplay.dds.solve_board`` with a prepared endplay Deal;
* ``CalcDDtable`` on the first list100 deal, raw vs ``endplay.dds.calc_dd_table``;
* ``DealerPar`` on a prepared table, raw vs ``endplay.dds.par`` (DDS par is cheap, so this
  is the par baseline);

and prints the differences.  endplay is only a transport here: ``compare_dds.py`` uses the
raw path (``benchmarks/dds_ctypes.py``).
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import sys
import time

from benchmarks.bench_sets import load_deals
from benchmarks.dds_ctypes import DDS, FutureTricks, ParResultsDealer, TableResults
from ddsolver.cards import Strain
from ddsolver.deal import Deal
from ddsolver.table import Seat, Vulnerability


def median_call(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2000)
    args = ap.parse_args(argv)
    dds = DDS(threads=1)

    import endplay.dds as edds
    import endplay.types as etypes
    from endplay._dds import _dll as endplay_dll

    endplay_dll.SetMaxThreads(1)  # endplay's import set 0 (= all cores) on the same library

    # 1. the floor: a one-trick ending, North to lead in notrump.
    ending = Deal.from_pbn("N:A... K... Q... J...", complete=False)
    dl = dds.board(ending, Strain.NOTRUMP, Seat.NORTH)
    fut = FutureTricks()
    ref = ctypes.byref(fut)
    raw = median_call(lambda: dds.SolveBoard(dl, -1, 3, 1, ref, 0), args.repeat)
    ed = etypes.Deal("N:A... K... Q... J...")
    ed.first = etypes.Player.north
    ed.trump = etypes.Denom.nt
    wrapped = median_call(lambda: edds.solve_board(ed), args.repeat)
    print(f"SolveBoard(-1,3,1) on a 1-card ending: raw ctypes {raw * 1e6:8.1f} us, "
          f"endplay.dds.solve_board {wrapped * 1e6:8.1f} us, wrapper adds "
          f"{(wrapped - raw) * 1e6:6.1f} us")

    # 2. a full table (few repeats: about a quarter of a second each)
    _, deal, _ = load_deals("list100", 1)[0]
    td = dds.table_deal(deal)
    res = TableResults()
    rres = ctypes.byref(res)
    reps = 5
    raw = median_call(lambda: dds.CalcDDtable(td, rres), reps)
    edeal = etypes.Deal(deal.to_pbn())
    wrapped = median_call(lambda: edds.calc_dd_table(edeal), reps)
    print(f"CalcDDtable, list100 deal 0:           raw ctypes {raw * 1e3:8.1f} ms, "
          f"endplay.dds.calc_dd_table {wrapped * 1e3:8.1f} ms (difference is noise-level)")

    # 3. par from a prepared table
    table = dds.table_array(res)
    par = ParResultsDealer()
    res_ref, par_ref = ctypes.byref(res), ctypes.byref(par)
    dll = dds._dll
    raw = median_call(lambda: dll.DealerPar(res_ref, par_ref, 0, 0), args.repeat)
    etable = edds.calc_dd_table(edeal)
    wrapped = median_call(lambda: edds.par(etable, 0, etypes.Player.north), args.repeat)
    score, contracts = dds.dealer_par(table, Seat.NORTH, Vulnerability.NONE)
    print(f"DealerPar (dealer N, vul None):        raw ctypes {raw * 1e6:8.1f} us, "
          f"endplay.dds.par {wrapped * 1e6:8.1f} us  -> {score} {contracts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
