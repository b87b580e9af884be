"""A match of two computer strengths, played twice: by local worker processes and on a Dask
``LocalCluster``; the two runs must give the same boards and results.

    nice -n 10 python -m benchmarks.quality.match_strength --a hard --b easy --boards 100 \\
        --seed 100 --workers 2 --out /tmp/hard-easy [--part local|dask|compare] [--json]

``--part both`` (the default) plays the local run, then the Dask run, then compares them;
``local`` and ``dask`` play one run each (so that both can run at once, in two commands),
``compare`` only compares two finished runs.  Each run has its own journal and PBN file in
``--out`` (``local.*`` and ``dask.*``): an interrupted run resumes where it stopped when
the command is given again.

Reported for each run: A's IMPs per board with the standard error and in all, the
matchpoints, the mean seconds a table took (from the journal: every table, whichever
invocation played it; wall clock inside its worker), the wall time of this invocation and
the machine's load average (``os.getloadavg``) before and after.  ``compare`` (and
``both``) then says whether both runs gave identical tables and byte-identical PBN files,
and whether each PBN file reads back (``ddsolver.read_pbn``, ``ai.match.result_from_game``)
to its journal's auctions, play and scores (exit status 1 if any is not so).

The Dask cluster is started here with ``--workers`` worker processes of one thread each
(``distributed.LocalCluster``); ``--scheduler ADDRESS`` uses a running cluster instead.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time

from ai.match import TableResult, read_journal, result_from_game, run_match


def _run(args, name: str, **where) -> dict:
    journal = os.path.join(args.out, f"{name}.journal")
    pbn = os.path.join(args.out, f"{name}.pbn")
    load = os.getloadavg()
    start = time.monotonic()
    result = run_match(args.a, args.b, args.boards, seed=args.seed, journal=journal,
                       pbn=pbn, progress=sys.stderr.isatty(), **where)
    n = len(result.boards)
    return {
        "run": name, "a": args.a, "b": args.b, "boards": n, "seed": args.seed,
        "imps_mean": round(result.imps_mean, 3), "imps_se": round(result.imps_se, 3),
        "imps_total": result.imps_total,
        "mp_percent_mean": round(result.mp_mean, 2), "mp_percent_se": round(result.mp_se, 2),
        "workers": args.workers, "tables_played_now": result.played,
        "wall_seconds_now": round(time.monotonic() - start, 1),
        "mean_table_seconds": round(result.table_seconds / (2 * n), 2),
        "load_before": [round(x, 2) for x in load],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "summary": result.summary(matchpoints=True),
    }


def _dask(args) -> dict:
    if args.scheduler is not None:
        return _run(args, "dask", scheduler=args.scheduler)
    from distributed import LocalCluster

    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        return _run(args, "dask", scheduler=cluster.scheduler_address)


def _reads_back(path: str, tables: dict) -> bool:
    """Whether the PBN file at ``path`` holds exactly the tables of ``tables`` (``{(board,
    table): TableResult}``): each game, read by ``ddsolver.read_pbn`` and
    :func:`ai.match.result_from_game` (table from its ``Room``), has the table's deal,
    dealer, vulnerability, calls, play (every card legal), contract, declarer, tricks and
    score, and the explanations as PBN note texts (:func:`ai.game.pbn_note_text`).  The
    first difference found is printed on stderr."""
    from ai.game import pbn_note_text
    from ddsolver.errors import BridgeError
    from ddsolver.pbn import read_pbn

    def differs(why: str) -> bool:
        print(f"{path}: {why}", file=sys.stderr)
        return False

    seen = set()
    try:
        for game in read_pbn(path):
            key = (game.board, {"Open": 1, "Closed": 2}.get(game.get("Room")))
            if key not in tables or key in seen:
                return differs(f"board {game.board}, room {game.get('Room')}: not a table "
                               f"of the journal, or twice in the file")
            seen.add(key)
            result = tables[key].result
            back = result_from_game(game)
            notes = tuple(None if e is None else pbn_note_text(getattr(e, "text", e))
                          for e in result.explanations)
            if back.explanations != notes:
                return differs(f"board {key[0]}, table {key[1]}: other explanations")
            if back != dataclasses.replace(result, explanations=back.explanations):
                return differs(f"board {key[0]}, table {key[1]}: another auction, play or "
                               f"score than the journal's")
            if result.contract is not None:
                game.check_play()
    except BridgeError as exc:
        return differs(f"{type(exc).__name__}: {exc}")
    return seen == set(tables) or differs("tables of the journal missing from the file")


def _compare(args) -> dict:
    """Both runs' tables from their journals and PBN files (nothing is played)."""
    out = {}
    tables = {}
    for name in ("local", "dask"):
        path = os.path.join(args.out, f"{name}.journal")
        if not os.path.exists(path):
            raise SystemExit(f"no {name} run in {args.out}: run --part {name} first")
        _, records = read_journal(path)
        tables[name] = {(r["board"], r["table"]): TableResult.from_json(r) for r in records}
        wanted = {(n, t) for n in range(1, args.boards + 1) for t in (1, 2)}
        if not wanted <= set(tables[name]):
            raise SystemExit(f"the {name} run is not finished: run --part {name} first")
        tables[name] = {k: v for k, v in tables[name].items() if k in wanted}
    with open(os.path.join(args.out, "local.pbn"), "rb") as f1, \
            open(os.path.join(args.out, "dask.pbn"), "rb") as f2:
        out["same_pbn"] = f1.read() == f2.read()
    out["same_tables"] = tables["local"] == tables["dask"]
    for name in ("local", "dask"):
        out[f"{name}_pbn_reads_back"] = _reads_back(
            os.path.join(args.out, f"{name}.pbn"), tables[name])
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="hard", help="side A (a strength)")
    parser.add_argument("--b", default="easy", help="side B (a strength)")
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", default=None,
                        help="a running Dask scheduler instead of a LocalCluster")
    parser.add_argument("--part", choices=["both", "local", "dask", "compare"],
                        default="both")
    parser.add_argument("--out", required=True, help="folder for journals and PBN files")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)

    report: dict = {}
    if args.part in ("both", "local"):
        report["local"] = _run(args, "local", workers=args.workers)
    if args.part in ("both", "dask"):
        report["dask"] = _dask(args)
    if args.part in ("both", "compare"):
        report.update(_compare(args))
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for name in ("local", "dask"):
            if name in report:
                r = report[name]
                print(f"[{name}]\n{r['summary']}")
                print(f"{r['wall_seconds_now']:.0f} s wall for {r['tables_played_now']} "
                      f"table(s) now, {r['workers']} workers; load "
                      f"{r['load_before'][0]:.1f} -> {r['load_after'][0]:.1f}")
        if "same_tables" in report:
            print(f"same tables: {report['same_tables']}; same PBN bytes: "
                  f"{report['same_pbn']}; PBN files read back to the journals' auctions, "
                  f"play and scores: local {report['local_pbn_reads_back']}, dask "
                  f"{report['dask_pbn_reads_back']}")
    checks = ("same_tables", "same_pbn", "local_pbn_reads_back", "dask_pbn_reads_back")
    if "same_tables" in report and not all(report[k] for k in checks):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
