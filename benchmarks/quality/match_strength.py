"""A match of two computer strengths, played twice: by local worker processes and on a Dask
``LocalCluster``; the two runs must give the same boards and results.

    nice -n 10 python -m benchmarks.quality.match_strength --a hard --b easy --boards 100 \\
        --seed 100 --workers 2 --out /tmp/hard-easy [--json]

Each run has its own journal and PBN file in ``--out`` (``local.*`` and ``dask.*``), so an
interrupted run resumes where it stopped when the command is given again (the times then
cover the resumed part only).  Reported: A's IMPs per board with the standard error and in
all, matchpoints, the wall time of each run, the mean time of a table, the machine's load
average (``os.getloadavg``) before and after; then whether both runs gave identical tables
and byte-identical PBN files (exit status 1 if not).

The Dask cluster is started here with ``--workers`` worker processes of one thread each
(``distributed.LocalCluster``); ``--scheduler ADDRESS`` uses a running cluster instead.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from ai.match import run_match


def _run(args, name: str, **where):
    journal = os.path.join(args.out, f"{name}.journal")
    pbn = os.path.join(args.out, f"{name}.pbn")
    load = os.getloadavg()
    start = time.monotonic()
    result = run_match(args.a, args.b, args.boards, seed=args.seed, journal=journal,
                       pbn=pbn, progress=sys.stderr.isatty(), **where)
    wall = time.monotonic() - start
    return result, wall, load, os.getloadavg(), pbn


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="hard", help="side A (a strength)")
    parser.add_argument("--b", default="easy", help="side B (a strength)")
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", default=None,
                        help="a running Dask scheduler instead of a LocalCluster")
    parser.add_argument("--out", required=True, help="folder for journals and PBN files")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)

    local, local_wall, load0, load1, local_pbn = _run(args, "local", workers=args.workers)
    if args.scheduler is not None:
        dask, dask_wall, load2, load3, dask_pbn = _run(args, "dask", scheduler=args.scheduler)
    else:
        from distributed import LocalCluster

        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            dask, dask_wall, load2, load3, dask_pbn = _run(
                args, "dask", scheduler=cluster.scheduler_address)

    same_tables = [(b.board, b.open, b.closed) for b in local.boards] == \
        [(b.board, b.open, b.closed) for b in dask.boards]
    with open(local_pbn, "rb") as f1, open(dask_pbn, "rb") as f2:
        same_pbn = f1.read() == f2.read()
    n = len(local.boards)
    report = {
        "a": args.a, "b": args.b, "boards": n, "seed": args.seed,
        "imps_mean": round(local.imps_mean, 3), "imps_se": round(local.imps_se, 3),
        "imps_total": local.imps_total,
        "mp_percent_mean": round(local.mp_mean, 2), "mp_percent_se": round(local.mp_se, 2),
        "local": {"workers": args.workers, "wall_seconds": round(local_wall, 1),
                  "tables_played": local.played,
                  "mean_table_seconds": round(local.table_seconds / (2 * n), 2),
                  "load_before": [round(x, 2) for x in load0],
                  "load_after": [round(x, 2) for x in load1]},
        "dask": {"workers": args.workers, "wall_seconds": round(dask_wall, 1),
                 "tables_played": dask.played,
                 "mean_table_seconds": round(dask.table_seconds / (2 * n), 2),
                 "load_before": [round(x, 2) for x in load2],
                 "load_after": [round(x, 2) for x in load3]},
        "same_tables": same_tables, "same_pbn": same_pbn,
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(local.summary(matchpoints=True))
        print(f"local: {local_wall:.0f} s wall, {args.workers} workers, load "
              f"{load0[0]:.1f} -> {load1[0]:.1f}")
        print(f"dask:  {dask_wall:.0f} s wall, {args.workers} workers, load "
              f"{load2[0]:.1f} -> {load3[0]:.1f}")
        print(f"same tables: {same_tables}; same PBN bytes: {same_pbn}")
    return 0 if same_tables and same_pbn else 1


if __name__ == "__main__":
    sys.exit(main())
