"""Thread scaling of ``ddsolver.solver.dd_tables``: the same deals with 1 thread and with N.

    python benchmarks/threads.py [--deals 40] [--threads 2] [--set list100|random]

Wall time (``time.perf_counter``) of ``dd_tables(deals, threads=1)`` and of
``dd_tables(deals, threads=N)`` on the first ``--deals`` deals of the set (list100.txt, or
``random_deals(2026, n)``), each run in a fresh thread pool with fresh solvers; the two runs
must give identical tables.  Prints both times and the speed-up.  The search releases the GIL,
so on an otherwise idle machine with N cores the speed-up approaches N; other processes on
the machine lower it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ddsolver.ddsfiles import read_dds_file  # noqa: E402
from ddsolver.deal import random_deals  # noqa: E402
from ddsolver.solver import dd_tables  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--set", choices=("list100", "random"), default="list100")
    args = ap.parse_args(argv)
    if args.set == "list100":
        deals = [r.deal for r in read_dds_file(DATA / "list100.txt")][: args.deals]
    else:
        deals = random_deals(2026, args.deals)
    t0 = time.perf_counter()
    one = dd_tables(deals, threads=1)
    t1 = time.perf_counter() - t0
    t0 = time.perf_counter()
    many = dd_tables(deals, threads=args.threads)
    tn = time.perf_counter() - t0
    if one != many:
        print("ERROR: the tables differ between 1 and", args.threads, "threads")
        return 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{len(deals)} deals ({args.set}), {os.cpu_count()} CPUs, load average "
          f"{load:.2f} at the end; identical tables")
    print(f"1 thread : {t1:7.2f} s wall")
    print(f"{args.threads} threads: {tn:7.2f} s wall")
    print(f"speed-up : {t1 / tn:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
