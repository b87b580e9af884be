"""Thread scaling of ``ddsolver.solver.dd_tables``: the same deals with 1 thread and with N.

    python -m benchmarks.comparisons.threads [--deals 40] [--threads 2] [--set list100|random]
                                 [--rounds 1] [--chunk 0]

Wall time (``time.perf_counter``) of ``dd_tables(deals, threads=1)`` and of
``dd_tables(deals, threads=N)`` on the first ``--deals`` deals of the set (list100.txt, or
``random_deals(2026, n)``), each run in a fresh thread pool with fresh solvers; the two runs
must give identical tables.  Prints both times and the speed-up.  The search releases the GIL,
so on an otherwise idle machine with N cores the speed-up approaches N; other processes on
the machine lower it.

A machine whose speed drifts over minutes (a shared virtual machine) makes one pair of runs
unreliable: ``--chunk K`` times the deals K at a time, the two ways back to back, the order
alternating from chunk to chunk, so a drift reaches both alike; ``--rounds R`` repeats the
whole comparison R times, each chunk keeping its least time per way (small chunks cost
the threaded runs an idle thread at each chunk's end: list100 in chunks of 10 measured
1.76x against 1.89x whole; ``benchmarks/NOTES.md``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from ddsolver.ddsfiles import read_dds_file
from ddsolver.deal import random_deals
from ddsolver.solver import dd_tables

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--set", choices=("list100", "random"), default="list100")
    ap.add_argument("--rounds", type=int, default=1,
                    help="repeat the comparison; each chunk keeps its least time per way")
    ap.add_argument("--chunk", type=int, default=0,
                    help="time the deals this many at a time, the two ways back to back in "
                         "alternating order (0: all deals at once)")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.chunk < 0 or args.threads < 1 or args.deals < 1:
        ap.error("--rounds, --threads and --deals must be at least 1, --chunk at least 0")
    if args.set == "list100":
        deals = [r.deal for r in read_dds_file(DATA / "list100.txt")][: args.deals]
    else:
        deals = random_deals(2026, args.deals)
    size = args.chunk or len(deals)
    chunks = [deals[i:i + size] for i in range(0, len(deals), size)]
    best1 = [float("inf")] * len(chunks)
    bestn = [float("inf")] * len(chunks)
    step = 0
    for _ in range(args.rounds):
        for k, chunk in enumerate(chunks):
            order = (1, args.threads) if step % 2 == 0 else (args.threads, 1)
            step += 1
            tables = {}
            for threads in order:
                t0 = time.perf_counter()
                tables[threads] = dd_tables(chunk, threads=threads)
                t = time.perf_counter() - t0
                if threads == 1:
                    best1[k] = min(best1[k], t)
                else:
                    bestn[k] = min(bestn[k], t)
            if tables[1] != tables[args.threads]:
                print("ERROR: the tables differ between 1 and", args.threads, "threads")
                return 1
    t1, tn = sum(best1), sum(bestn)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{len(deals)} deals ({args.set}) in {len(chunks)} chunk(s), {args.rounds} "
          f"round(s), {os.cpu_count()} CPUs, load average {load:.2f} at the end; identical "
          f"tables")
    print(f"1 thread : {t1:7.2f} s wall")
    print(f"{args.threads} threads: {tn:7.2f} s wall")
    print(f"speed-up : {t1 / tn:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
