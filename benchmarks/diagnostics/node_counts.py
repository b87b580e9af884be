#!/usr/bin/env python
"""Search node counts of ddsolver on every reference set, to check that a change to the
build or to the code's layout leaves the search exactly as it was.

Usage (from the repository root)::

    python -m benchmarks.diagnostics.node_counts --json before.json          # about 4 minutes
    python -m benchmarks.diagnostics.node_counts --json after.json --compare before.json
    python -m benchmarks.diagnostics.node_counts --quick --json q.json  # the first 10 items a job

Each job runs on a fresh :class:`ddsolver.solver.Solver` (so its table and cut-off cache
start empty), its items in file order; node counts are then deterministic.  Jobs:

* the sets and workloads of ``benchmarks/bench_sets.py`` (``list100``, ``random`` 2026,
  ``positions``; tables, best values, every card), the calls ``comparisons/compare_dds.py`` times;
* the other reference files of ``tests/data/``: DD tables of the 500 deals of
  ``dd_tables.jsonl``, of ``sol10.txt`` (DDS's test file), of ``thomas1.txt`` (the freak
  deal, with ``--freak``) and of the boards of ``club_hand_record_36.pbn`` and
  ``hand_edited_20.pbn``.

For each job the sum of the nodes, the nodes of every item, the engine's counters
(``Engine.stats``, as far as the build has them) and a hash of the answers are recorded;
``--compare`` reports every job whose nodes or answers differ (exit status 1).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

from benchmarks.bench_sets import DATA, SETS, WORKLOADS, build_jobs
from ddsolver.ddsfiles import read_dds_file, read_gib_tables
from ddsolver.deal import Deal
from ddsolver.pbn import read_pbn
from ddsolver.play import Position
from ddsolver.solver import Solver


def _position(item) -> Position:
    from ddsolver.deal import Hand

    if item.deal is not None and not item.trick:
        return Position(item.deal, trump=item.trump, leader=item.leader)
    return Position.from_remaining([Hand(m) for m in item.masks], item.trump, item.leader,
                                   list(item.trick))


def _answer(workload: str, result):
    if workload == "table":
        return [[int(x) for x in row] for row in result.to_array()]
    if workload == "solve":
        return int(result)
    return {str(c): int(v) for c, v in result.items()}


def _counters(solver: Solver) -> dict:
    st = solver._engine.stats
    return {k: v for k, v in st.items() if isinstance(v, int)}


def run_job(name: str, workload: str, work: list) -> dict:
    """``work``: [(item id, Deal or Position)]; one fresh Solver for the job."""
    solver = Solver()
    nodes, answers = [], []
    start_counters = _counters(solver)
    started = time.process_time()
    for _, arg in work:
        before = solver.nodes
        if workload == "table":
            result = solver.dd_table(arg)
        elif workload == "solve":
            result = solver.solve_best(arg)
        else:
            result = solver.solve(arg)
        nodes.append(solver.nodes - before)
        answers.append(_answer(workload, result))
    cpu = time.process_time() - started
    end_counters = _counters(solver)
    counters = {k: end_counters[k] - start_counters.get(k, 0) for k in end_counters
                if k not in ("entries", "keys", "blocks", "resets")}
    digest = hashlib.sha256(json.dumps(answers, sort_keys=True).encode()).hexdigest()[:16]
    return {"job": name, "items": len(work), "nodes_sum": sum(nodes), "nodes": nodes,
            "counters": counters, "answers_sha": digest, "cpu_s": round(cpu, 2)}


def all_work(limit: int | None, freak: bool = False) -> list:
    """``[(job name, workload, [(id, Deal or Position)])]`` of every reference set."""
    out = []
    for set_name in SETS:
        for workload in WORKLOADS:
            for job in build_jobs(set_name, workload, limit):
                if workload == "table":
                    work = [(it.id, it.deal) for it in job.items]
                else:
                    work = [(it.id, _position(it)) for it in job.items]
                out.append((job.key, workload, work))
    with open(DATA / "dd_tables.jsonl") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    rows = rows[:limit] if limit else rows
    out.append(("dd_tables.jsonl/table", "table",
                [(r["id"], Deal.from_pbn(r["pbn"])) for r in rows]))
    pairs = read_gib_tables(DATA / "sol10.txt")
    pairs = pairs[:limit] if limit else pairs
    out.append(("sol10.txt/table", "table", [(i, d) for i, (d, _) in enumerate(pairs)]))
    if freak:
        recs = read_dds_file(DATA / "thomas1.txt")
        out.append(("thomas1.txt/table", "table", [(r.number, r.deal) for r in recs]))
    for fname in ("club_hand_record_36.pbn", "hand_edited_20.pbn"):
        games = [g for g in read_pbn(DATA / fname) if g.deal is not None
                 and g.deal.is_complete()]
        games = games[:limit] if limit else games
        out.append((f"{fname}/table", "table", [(i, g.deal) for i, g in enumerate(games)]))
    return out


def compare(now: dict, before: dict) -> int:
    """Print the jobs whose nodes or answers differ; the number of such jobs."""
    bad = 0
    old = {j["job"]: j for j in before["jobs"]}
    for job in now["jobs"]:
        ref = old.get(job["job"])
        if ref is None:
            print(f"{job['job']}: not in the reference run")
            bad += 1
            continue
        diffs = []
        if job["nodes"] != ref["nodes"]:
            changed = sum(a != b for a, b in zip(job["nodes"], ref["nodes"]))
            diffs.append(f"nodes {ref['nodes_sum']:,} -> {job['nodes_sum']:,} "
                         f"({changed} items differ)")
        if job["answers_sha"] != ref["answers_sha"]:
            diffs.append("answers differ")
        common = set(job["counters"]) & set(ref["counters"])
        for k in sorted(common):
            if job["counters"][k] != ref["counters"][k]:
                diffs.append(f"{k} {ref['counters'][k]:,} -> {job['counters'][k]:,}")
        if diffs:
            bad += 1
            print(f"{job['job']}: " + "; ".join(diffs))
    missing = set(old) - {j["job"] for j in now["jobs"]}
    for name in sorted(missing):
        print(f"{name}: missing from this run")
        bad += 1
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", dest="json_out", help="write the counts here")
    ap.add_argument("--compare", help="a JSON file of an earlier run to compare with")
    ap.add_argument("--limit", type=int, default=None, help="first N items of each job")
    ap.add_argument("--freak", action="store_true",
                    help="also the table of thomas1.txt (a freak deal: about 200 M nodes, "
                         "a minute)")
    ap.add_argument("--quick", action="store_true", help="same as --limit 10")
    args = ap.parse_args(argv)
    limit = 10 if args.quick else args.limit
    from ddsolver import solver as solver_module

    out = {"build": getattr(solver_module, "BUILD", None), "limit": limit, "jobs": []}
    print(f"{'job':<34} {'items':>5} {'nodes':>14} {'CPU s':>7}  answers")
    for name, workload, work in all_work(limit, args.freak):
        rec = run_job(name, workload, work)
        out["jobs"].append(rec)
        print(f"{name:<34} {rec['items']:>5} {rec['nodes_sum']:>14,} {rec['cpu_s']:>7.1f}  "
              f"{rec['answers_sha']}", flush=True)
    total = sum(j["nodes_sum"] for j in out["jobs"])
    print(f"{'total':<34} {'':>5} {total:>14,}")
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump(out, fh)
    if args.compare:
        with open(args.compare) as fh:
            before = json.load(fh)
        bad = compare(out, before)
        print("identical to " + args.compare if bad == 0
              else f"{bad} jobs differ from {args.compare}")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
