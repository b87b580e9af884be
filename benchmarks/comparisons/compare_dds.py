#!/usr/bin/env python
"""Side-by-side timing of DDS 2.9.0 and ddsolver's solver, single thread, with answer checks.

Usage (from the repository root)::

    python -m benchmarks.comparisons.compare_dds                          # every set and workload
    python -m benchmarks.comparisons.compare_dds --set list100 --workload table
    python -m benchmarks.comparisons.compare_dds --dds-only --json dds.json
    python -m benchmarks.comparisons.compare_dds --set positions --workload allcards --limit 50

The sets and workloads are described in ``benchmarks/bench_sets.py``.  Each engine runs each
(set, workload) in a fresh subprocess of this script (``--in-process`` runs everything here),
so its peak resident memory (``getrusage(RUSAGE_SELF).ru_maxrss``) is its own: the table
shows the peak at the end of each job and its growth over the process's size just before
the engine was loaded.  DDS is called through ctypes with prepared binary structs
(``benchmarks/dds_ctypes.py``), one thread (``SetMaxThreads(1)``, ``threadIndex`` 0);
ddsolver through its public functions ``dd_table``, ``solve_best`` and ``solve`` (positions
are built before the clock starts).  Each item is timed alone with ``time.process_time``
(CPU, reported) and ``time.perf_counter`` (wall).  With ``--rounds N`` each engine runs each
(set, workload) N times, the engines' order alternating, and each item keeps its least time
over the rounds (a drift of the machine's speed over minutes otherwise lands on whichever
engine ran then).  With ``--interleave`` both engines run in one process and each item is
timed on both back to back, the order alternating from item to item: the drift then
reaches both engines alike (the memory columns are then the shared process's).  One
untimed warm-up call on a deal of no set comes first.  Consecutive items never share a
deal, so DDS never reuses its transposition table between timed calls; ddsolver's module
functions keep theirs across deals of the same strain, as they do for any user.

Every answer of both engines is compared, item by item, with the other engine and with the
reference answer where one is known (list100 tables and FUT lines, solve_positions.jsonl).
Any difference is printed on stderr with ``MISMATCH`` and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.bench_sets import SETS, WORKLOADS, Item, build_jobs, table_answer, warmup_item

ROOT = Path(__file__).resolve().parents[2]  # the repository root, where workers start
ENGINES = ("dds", "ours")


def maxrss_kib() -> int:
    """Peak resident set size of this process so far, KiB (Linux units)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# --------------------------------------------------------------------------------------
# engines: prepare(item) -> (fn, args, context) outside the clock; fn(*args) is timed;
# answer(result, context) -> JSON-ready answer; nodes(result, context) -> int or None.


class DDSEngine:
    name = "dds"

    def __init__(self, workload: str):
        import ctypes

        from benchmarks.dds_ctypes import DDS, FutureTricks, TableResults

        self.ctypes = ctypes
        self.dds = DDS(threads=1)
        self.workload = workload
        self._fut = FutureTricks
        self._res = TableResults
        self.description = self.dds.info()

    def prepare(self, item: Item):
        ct = self.ctypes
        if self.workload == "table":
            res = self._res()
            return self.dds.CalcDDtable, (self.dds.table_deal(item.deal), ct.byref(res)), res
        dl = self.dds.board(item.masks, item.trump, item.leader, item.trick)
        fut = self._fut()
        solutions = 1 if self.workload == "solve" else 3
        return self.dds.SolveBoard, (dl, -1, solutions, 1, ct.byref(fut), 0), fut

    def answer(self, rc, ctx):
        self.dds.check(rc, "DDS")
        if self.workload == "table":
            return table_answer(self.dds.table_array(ctx))
        if self.workload == "solve":
            return int(ctx.score[0])
        return {str(c): int(s) for c, s in self.dds.card_scores(ctx).items()}

    def nodes(self, rc, ctx):
        return None if self.workload == "table" else int(ctx.nodes)


class OursEngine:
    name = "ours"

    def __init__(self, workload: str):
        from ddsolver import solver
        from ddsolver.play import Position

        self.solver = solver
        self.Position = Position
        self.workload = workload
        self._stats = getattr(solver, "last_stats", None)
        self.description = f"ddsolver.solver from {solver.__file__}"

    def prepare(self, item: Item):
        if self.workload == "table":
            return self.solver.dd_table, (item.deal,), None
        if item.deal is not None and not item.trick:
            pos = self.Position(item.deal, trump=item.trump, leader=item.leader)
        else:
            from ddsolver.deal import Hand

            pos = self.Position.from_remaining([Hand(m) for m in item.masks], item.trump,
                                               item.leader, list(item.trick))
        fn = self.solver.solve_best if self.workload == "solve" else self.solver.solve
        return fn, (pos,), None

    def answer(self, result, ctx):
        if self.workload == "table":
            arr = result.to_array() if hasattr(result, "to_array") else np.asarray(result)
            return table_answer(arr)
        if self.workload == "solve":
            return int(result)
        return {str(c): int(v) for c, v in result.items()}

    def nodes(self, result, ctx):
        if self._stats is None:
            return None
        try:
            return int(self._stats()["nodes"])
        except (KeyError, TypeError, ValueError):
            return None


def make_engine(name: str, workload: str):
    return DDSEngine(workload) if name == "dds" else OursEngine(workload)


# --------------------------------------------------------------------------------------
# the worker: one engine, one set, one workload


def run_worker(engine_name: str, set_name: str, workload: str, limit: int | None,
               max_seconds: float | None) -> dict:
    out = {"engine": engine_name, "set": set_name, "workload": workload, "jobs": []}
    jobs = build_jobs(set_name, workload, limit)
    if not jobs:
        return out
    out["maxrss_kib_start"] = maxrss_kib()
    try:
        engine = make_engine(engine_name, workload)
    except ImportError as exc:
        out["error"] = f"{engine_name} not available: {exc}"
        return out
    out["description"] = engine.description
    out["maxrss_kib_loaded"] = maxrss_kib()
    fn, args, ctx = engine.prepare(warmup_item(workload))
    engine.answer(fn(*args), ctx)
    for job in jobs:
        prepared = [engine.prepare(it) for it in job.items]
        rec = _new_record(job)
        started = time.perf_counter()
        for item, prep in zip(job.items, prepared):
            if max_seconds is not None and time.perf_counter() - started > max_seconds:
                rec["truncated"] = True
                break
            _time_item(engine, item, prep, rec)
        rec["maxrss_kib_end"] = maxrss_kib()
        out["jobs"].append(rec)
    return out


def _new_record(job) -> dict:
    """An empty record of one job's timings and answers."""
    return {"job": job.name, "ids": [], "cpu_s": [], "wall_s": [], "nodes": [],
            "answers": [], "errors": [], "truncated": False}


def _time_item(engine, item, prepared, rec) -> None:
    """Time one prepared call and record it in ``rec`` (an error is recorded, not raised)."""
    fn, args, ctx = prepared
    pc, pt = time.perf_counter, time.process_time
    try:
        c0 = pt()
        w0 = pc()
        result = fn(*args)
        w1 = pc()
        c1 = pt()
        answer = engine.answer(result, ctx)
    except Exception as exc:  # noqa: BLE001 -- report and go on: one bad item must not hide the rest
        rec["errors"].append({"id": item.id, "error": f"{type(exc).__name__}: {exc}"})
        return
    rec["ids"].append(item.id)
    rec["cpu_s"].append(c1 - c0)
    rec["wall_s"].append(w1 - w0)
    rec["nodes"].append(engine.nodes(result, ctx))
    rec["answers"].append(answer)


def run_interleaved(set_name: str, workload: str, limit: int | None, flip: bool) -> list:
    """Both engines in this process, item by item: each item is timed on one engine and at
    once on the other, the order alternating from item to item (``flip`` starts with
    ddsolver), so a drift of the machine's speed reaches both engines alike.  Returns the
    two engines' results in the form of :func:`run_worker` (memory figures are the shared
    process's)."""
    jobs = build_jobs(set_name, workload, limit)
    outs = {e: {"engine": e, "set": set_name, "workload": workload, "jobs": []} for e in ENGINES}
    if not jobs:
        return [outs[e] for e in ENGINES]
    engines = {}
    for e in ENGINES:
        outs[e]["maxrss_kib_start"] = maxrss_kib()
        try:
            engines[e] = make_engine(e, workload)
        except ImportError as exc:
            outs[e]["error"] = f"{e} not available: {exc}"
            return [outs[e] for e in ENGINES]
        outs[e]["description"] = engines[e].description
        outs[e]["maxrss_kib_loaded"] = maxrss_kib()
        fn, args, ctx = engines[e].prepare(warmup_item(workload))
        engines[e].answer(fn(*args), ctx)
    for job in jobs:
        prepared = {e: [engines[e].prepare(it) for it in job.items] for e in ENGINES}
        recs = {e: _new_record(job) for e in ENGINES}
        for k, item in enumerate(job.items):
            order = ENGINES if (k % 2 == 0) != flip else ENGINES[::-1]
            for e in order:
                _time_item(engines[e], item, prepared[e][k], recs[e])
        for e in ENGINES:
            recs[e]["maxrss_kib_end"] = maxrss_kib()
            outs[e]["jobs"].append(recs[e])
    return [outs[e] for e in ENGINES]


def run_worker_subprocess(engine: str, set_name: str, workload: str, limit, max_seconds):
    cmd = [sys.executable, "-m", "benchmarks.comparisons.compare_dds", "--worker", engine,
           "--set", set_name, "--workload", workload]
    if limit:
        cmd += ["--limit", str(limit)]
    if max_seconds is not None:
        cmd += ["--max-seconds", str(max_seconds)]
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        return {"engine": engine, "set": set_name, "workload": workload, "jobs": [],
                "error": f"worker failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def merge_rounds(runs: list) -> dict:
    """One engine's results of several rounds of one (set, workload) as one: per item the
    least CPU and wall time over the rounds (the round the machine disturbed least), the
    first round's answers and nodes, the largest memory.  Items missing from a round (a
    ``--max-seconds`` cut) are dropped; a round with an error is returned as it is."""
    for res in runs:
        if res.get("error"):
            return res
    base = runs[0]
    if len(runs) == 1:
        return base
    out = dict(base)
    out["maxrss_kib_start"] = min(r["maxrss_kib_start"] for r in runs)
    out["jobs"] = []
    for j, job in enumerate(base["jobs"]):
        rounds = [r["jobs"][j] for r in runs]
        times = [dict(zip(rj["ids"], zip(rj["cpu_s"], rj["wall_s"]))) for rj in rounds]
        keep = [k for k, i in enumerate(job["ids"]) if all(i in t for t in times)]
        ids = [job["ids"][k] for k in keep]
        merged = dict(job)
        merged["ids"] = ids
        merged["cpu_s"] = [min(t[i][0] for t in times) for i in ids]
        merged["wall_s"] = [min(t[i][1] for t in times) for i in ids]
        merged["nodes"] = [job["nodes"][k] for k in keep]
        merged["answers"] = [job["answers"][k] for k in keep]
        merged["truncated"] = any(rj["truncated"] for rj in rounds)
        merged["maxrss_kib_end"] = max(rj["maxrss_kib_end"] for rj in rounds)
        out["jobs"].append(merged)
    return out


# --------------------------------------------------------------------------------------
# comparison and report


def stats_ms(values) -> dict:
    if not values:
        return {}
    a = np.asarray(values) * 1000.0
    return {"n": int(a.size), "mean": float(a.mean()), "median": float(np.median(a)),
            "p95": float(np.percentile(a, 95)), "max": float(a.max()),
            "total_s": float(a.sum() / 1000.0)}


def _diff(a, b) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b))
        return ", ".join(f"{k}: {a.get(k)} vs {b.get(k)}" for k in keys if a.get(k) != b.get(k))
    return f"{a} vs {b}"


def check_answers(key: str, by_engine: dict, expected: dict) -> list:
    """Mismatch messages between engines and against the reference answers."""
    problems = []
    names = [e for e in ENGINES if e in by_engine]
    answers = {e: dict(zip(by_engine[e]["ids"], by_engine[e]["answers"])) for e in names}
    for e in names:
        for i, ans in answers[e].items():
            ref = expected.get(i)
            if ref is not None and ans != ref:
                problems.append(f"{key} item {i}: {e} != reference: {_diff(ans, ref)}")
    if len(names) == 2:
        a, b = answers[names[0]], answers[names[1]]
        for i in sorted(set(a) & set(b)):
            if a[i] != b[i]:
                problems.append(f"{key} item {i}: dds != ours: {_diff(a[i], b[i])}")
    for e in names:
        for err in by_engine[e]["errors"]:
            problems.append(f"{key} item {err['id']}: {e} raised {err['error']}")
    return problems


def summarize(results: list, jobs_by_key: dict) -> tuple:
    """Rows of the report and the list of problems."""
    rows, problems = [], []
    grouped: dict = {}
    meta: dict = {}
    for res in results:
        if res.get("error"):
            problems.append(f"{res['set']}/{res['workload']}: {res['engine']}: {res['error']}")
        for job in res["jobs"]:
            key = f"{res['set']}/{res['workload']}/{job['job']}"
            grouped.setdefault(key, {})[res["engine"]] = job
            meta[(key, res["engine"])] = res
    for key, by_engine in grouped.items():
        expected = {it.id: it.expected for it in jobs_by_key[key].items
                    if it.expected is not None}
        problems += check_answers(key, by_engine, expected)
        common = None
        if len(by_engine) == 2:
            common = set(by_engine["dds"]["ids"]) & set(by_engine["ours"]["ids"])
        means = {}
        for e in ENGINES:
            if e not in by_engine:
                continue
            job = by_engine[e]
            res = meta[(key, e)]
            st = stats_ms(job["cpu_s"])
            wall = stats_ms(job["wall_s"])
            nodes = [n for n in job["nodes"] if n is not None]
            if common:
                sel = [t for i, t in zip(job["ids"], job["cpu_s"]) if i in common]
                means[e] = float(np.mean(sel)) if sel else None
            rows.append({
                "key": key, "engine": e, **st,
                "wall_mean": wall.get("mean"),
                "nodes_mean": float(np.mean(nodes)) if nodes else None,
                "rss_mib": job["maxrss_kib_end"] / 1024.0,
                "rss_delta_mib": (job["maxrss_kib_end"] - res["maxrss_kib_start"]) / 1024.0,
                "truncated": job["truncated"], "errors": len(job["errors"]),
            })
        if means.get("dds") and means.get("ours") is not None:
            rows[-1]["ratio"] = means["ours"] / means["dds"]
            rows[-1]["ratio_items"] = len(common)
    return rows, problems


def format_rows(rows: list) -> str:
    head = (f"{'set/workload/job':32} {'engine':6} {'n':>4} {'mean':>9} {'median':>9} "
            f"{'p95':>9} {'max':>9} {'wall':>9} {'nodes':>10} {'RSS MiB':>8} {'(+MiB)':>7} "
            f"{'ours/DDS':>8}")
    legend = ("CPU time per item in ms (time.process_time); wall = mean of time.perf_counter; "
              "nodes = mean search nodes per item (for DDS its futureTricks.nodes, which "
              "counts only the nodes that start a new trick); RSS = peak resident size of the "
              "engine's "
              "process, (+MiB) its growth once the engine was loaded and run; "
              "ours/DDS = ratio of mean CPU times over the items both finished.")
    lines = [legend, head,
             "-" * len(head)]
    for r in rows:
        if "n" not in r:
            lines.append(f"{r['key']:32} {r['engine']:6} {'no items':>4}")
            continue
        nodes = f"{r['nodes_mean']:10.0f}" if r.get("nodes_mean") is not None else f"{'-':>10}"
        ratio = f"{r['ratio']:8.2f}" if r.get("ratio") is not None else f"{'':>8}"
        flag = " (time limit)" if r["truncated"] else ""
        flag += f" ({r['errors']} errors)" if r["errors"] else ""
        lines.append(
            f"{r['key']:32} {r['engine']:6} {r['n']:4d} {r['mean']:9.3f} {r['median']:9.3f} "
            f"{r['p95']:9.3f} {r['max']:9.3f} {r['wall_mean']:9.3f} {nodes} "
            f"{r['rss_mib']:8.1f} {r['rss_delta_mib']:+7.1f} {ratio}{flag}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", default="all", choices=SETS + ("all",))
    ap.add_argument("--workload", default="all", choices=WORKLOADS + ("all",))
    ap.add_argument("--limit", type=int, default=None, help="first N items of each set")
    ap.add_argument("--json", dest="json_out", default=None, help="write raw results here")
    ap.add_argument("--dds-only", action="store_true", help="time DDS alone")
    ap.add_argument("--ours-only", action="store_true", help="time ddsolver alone")
    ap.add_argument("--max-seconds", type=float, default=None,
                    help="stop a job of one engine after this many seconds")
    ap.add_argument("--in-process", action="store_true",
                    help="run both engines in this process (memory figures then mix)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run each (set, workload) this many times per engine, the engines' "
                         "order alternating (DDS first, then ddsolver first, ...), and keep "
                         "each item's least time: a drift of the machine's speed then "
                         "reaches both engines")
    ap.add_argument("--interleave", action="store_true",
                    help="both engines in this process, each item timed on both engines "
                         "back to back, the order alternating from item to item (a drift of "
                         "the machine's speed reaches both engines; memory figures then mix)")
    ap.add_argument("--worker", choices=ENGINES, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    sets = SETS if args.set == "all" else (args.set,)
    workloads = WORKLOADS if args.workload == "all" else (args.workload,)

    if args.worker:
        (s,), (w,) = sets, workloads
        print(json.dumps(run_worker(args.worker, s, w, args.limit, args.max_seconds)))
        return 0

    engines = ["dds", "ours"]
    if args.dds_only:
        engines = ["dds"]
    elif args.ours_only:
        engines = ["ours"]
    if "ours" in engines and not args.ours_only:
        try:
            import ddsolver.solver  # noqa: F401
        except ImportError as exc:
            print(f"ddsolver.solver is not importable ({exc}); timing DDS only",
                  file=sys.stderr)
            engines = ["dds"]

    load0 = os.getloadavg()
    print(f"# python {sys.version.split()[0]}, {os.cpu_count()} CPUs, engines: "
          f"{', '.join(engines)}, single thread; load average at start "
          f"{load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}", flush=True)
    results, jobs_by_key = [], {}
    for s in sets:
        for w in workloads:
            jobs = build_jobs(s, w, args.limit)
            if not jobs:
                continue
            for job in jobs:
                jobs_by_key[job.key] = job
            runs: dict = {e: [] for e in engines}
            if args.interleave and engines == ["dds", "ours"]:
                for rnd in range(max(1, args.rounds)):
                    t0 = time.perf_counter()
                    for res in run_interleaved(s, w, args.limit, flip=rnd % 2 == 1):
                        runs[res["engine"]].append(res)
                    print(f"# {s}/{w} both engines interleaved (round {rnd + 1}) in "
                          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
                results += [merge_rounds(runs[e]) for e in engines]
                continue
            for rnd in range(max(1, args.rounds)):
                for e in (engines if rnd % 2 == 0 else engines[::-1]):
                    t0 = time.perf_counter()
                    if args.in_process:
                        res = run_worker(e, s, w, args.limit, args.max_seconds)
                    else:
                        res = run_worker_subprocess(e, s, w, args.limit, args.max_seconds)
                    runs[e].append(res)
                    n = sum(len(j["ids"]) for j in res["jobs"])
                    msg = res.get("error", "")
                    print(f"# {s}/{w} {e} (round {rnd + 1}): {n} items in "
                          f"{time.perf_counter() - t0:.1f} s {msg}", file=sys.stderr, flush=True)
            results += [merge_rounds(runs[e]) for e in engines]
    descriptions = {r["engine"]: r["description"] for r in results if "description" in r}
    rows, problems = summarize(results, jobs_by_key)
    load1 = os.getloadavg()
    print(format_rows(rows))
    print(f"\n# load average at end {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f} "
          "(above 1, other processes shared the 2 cores and times are inflated)")
    if "dds" in descriptions:
        print("\n# DDS: " + " | ".join(
            line.strip() for line in descriptions["dds"].splitlines()
            if any(k in line for k in ("Version", "Compiler", "threads", "Threading"))))
    if args.json_out:
        with open(args.json_out, "w") as fh:
            json.dump({"argv": sys.argv, "loadavg": [load0, load1], "rows": rows,
                       "problems": problems, "descriptions": descriptions, "results": results},
                      fh)
    if problems:
        print(f"\n!!! {len(problems)} MISMATCH(ES) OR ERROR(S) !!!", file=sys.stderr)
        for p in problems[:50]:
            print("MISMATCH " + p, file=sys.stderr)
        if len(problems) > 50:
            print(f"MISMATCH ... and {len(problems) - 50} more", file=sys.stderr)
        return 1
    checked = sum(r.get("n", 0) for r in rows)
    print(f"\n# all {checked} answers agree (between engines and with reference answers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
