#!/usr/bin/env python
"""Instructions and time of a fixed workload: full DD tables of the first deals of
``list100.txt`` on one fresh Solver.

Instruction counts (valgrind's callgrind) repeat exactly from run to run, however busy the
machine is, so they show small changes of the compiled search that timings cannot: use them
to compare two builds of the same search.  Times are CPU seconds of the same workload
outside valgrind, least of ``--rounds`` runs.

Usage (from the repository root; valgrind must be installed)::

    python -m benchmarks.diagnostics.instructions          # 20 tables, the build in use
    DDSOLVER_PORTABLE=1 python -m benchmarks.diagnostics.instructions   # the portable build
    python -m benchmarks.diagnostics.instructions --tables 2 --no-time

Prints the build in use (``ddsolver.solver.BUILD``), the nodes, callgrind's total
instructions of the process (``Ir``, Python's start included) and those spent in the search
extension's own functions, and the CPU time.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository root, where children start

WORKLOAD = """
import sys, time
from ddsolver.ddsfiles import read_dds_file
from ddsolver import solver as m
recs = read_dds_file(sys.argv[1])[:int(sys.argv[2])]
s = m.Solver()
t = time.process_time()
for r in recs:
    s.dd_table(r.deal)
print(getattr(m, "BUILD", "-"), s.nodes, time.process_time() - t)
"""


def run_workload(tables: int, env: dict) -> tuple:
    out = subprocess.run([sys.executable, "-c", WORKLOAD, str(ROOT / "tests/data/list100.txt"),
                          str(tables)], env=env, cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout.split()
    return out[0], int(out[1]), float(out[2])


def callgrind(tables: int, env: dict, keep: str | None = None) -> tuple:
    """(total Ir, Ir in the search extension's functions) of one run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
                        sys.executable, "-c", WORKLOAD, str(ROOT / "tests/data/list100.txt"),
                        str(tables)], env=env, cwd=ROOT, check=True, capture_output=True)
        text = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", out_file],
                              check=True, capture_output=True, text=True).stdout
        if keep:
            os.replace(out_file, keep)
    total = search = 0
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)$", line)
        if not m:
            continue
        ir = int(m.group(1).replace(",", ""))
        what = m.group(2)
        if "PROGRAM TOTALS" in what:
            total = ir
        elif re.search(r"\[[^]]*_search[^]]*\]\s*$|:__pyx_\w*_search\w*|:dd_\w+", what):
            search += ir
    return total, search


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=20, help="deals of list100 (default 20)")
    ap.add_argument("--rounds", type=int, default=3, help="timed runs outside valgrind")
    ap.add_argument("--keep", help="keep callgrind's output file here")
    ap.add_argument("--no-time", action="store_true", help="callgrind only")
    ap.add_argument("--no-callgrind", action="store_true", help="time only")
    args = ap.parse_args(argv)
    env = dict(os.environ)
    env.setdefault("PYTHONHASHSEED", "0")   # Python's own work repeats exactly too
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    build, nodes, _ = run_workload(1, env)
    print(f"build: {build}")
    if not args.no_callgrind:
        total, search = callgrind(args.tables, env, args.keep)
        print(f"{args.tables} tables under callgrind: Ir total {total:,}, "
              f"in the search extension {search:,}")
    if not args.no_time:
        runs = [run_workload(args.tables, env) for _ in range(args.rounds)]
        print(f"{args.tables} tables: nodes {runs[0][1]:,}, CPU s "
              + ", ".join(f"{r[2]:.3f}" for r in runs) + f" (least {min(r[2] for r in runs):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
