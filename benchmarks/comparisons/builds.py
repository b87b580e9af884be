"""What the portable build of the search costs: CPU time of the same DD tables on the fast
build and on the portable one (``DDSOLVER_PORTABLE=1``), the two alternately.

    python -m benchmarks.comparisons.builds [--tables 20] [--rounds 7]

Each round runs the workload of ``benchmarks.diagnostics.instructions`` (full DD tables of
the first ``--tables`` deals of ``list100.txt`` on one fresh Solver, CPU seconds by
``time.process_time`` around the tables only) once in a fresh interpreter on each build,
the order alternating from round to round (fast first, then portable first, ...), so that
a drift of the machine's speed reaches both builds alike.  Prints every run, each build's
median, the ratio of the medians (portable / fast) and the median of the rounds' own
ratios; the two builds must visit the same nodes (exit 1 if not).  On a CPU without the
fast build's instruction sets both runs are the portable build (the first line says so).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

from benchmarks.diagnostics.instructions import ROOT, run_workload


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=20, help="deals of list100 (default 20)")
    ap.add_argument("--rounds", type=int, default=7, help="runs of each build (default 7)")
    args = ap.parse_args(argv)
    env = dict(os.environ)
    env.pop("DDSOLVER_PORTABLE", None)
    env.setdefault("PYTHONHASHSEED", "0")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    envs = {"fast": env, "portable": dict(env, DDSOLVER_PORTABLE="1")}
    print(f"builds: default {run_workload(1, envs['fast'])[0]}, "
          f"forced {run_workload(1, envs['portable'])[0]}; "
          f"{args.tables} list100 tables, {args.rounds} rounds")
    times = {"fast": [], "portable": []}
    nodes = set()
    for r in range(args.rounds):
        order = ("fast", "portable") if r % 2 == 0 else ("portable", "fast")
        for name in order:
            _, n, cpu = run_workload(args.tables, envs[name])
            times[name].append(cpu)
            nodes.add(n)
        print(f"round {r + 1}: fast {times['fast'][-1]:.3f} s, portable "
              f"{times['portable'][-1]:.3f} s, ratio "
              f"{times['portable'][-1] / times['fast'][-1]:.3f}", flush=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    ratios = [p / f for p, f in zip(times["portable"], times["fast"])]
    print(f"median CPU s: fast {med['fast']:.3f}, portable {med['portable']:.3f}; "
          f"portable / fast: {med['portable'] / med['fast']:.3f} (medians), "
          f"{statistics.median(ratios):.3f} (median of the rounds' ratios, "
          f"{min(ratios):.3f}-{max(ratios):.3f})")
    if len(nodes) != 1:
        print(f"node counts differ between runs: {sorted(nodes)}")
        return 1
    print(f"nodes per run: {nodes.pop():,} (both builds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
