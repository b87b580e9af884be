"""Where a hard card decision's time goes, with one and with two solver threads.

    python -m benchmarks.diagnostics.decision_threads [--seed 2025] [--deals 5] [--rounds 3]
    python -m benchmarks.diagnostics.decision_threads --scaling [--deals 24]

Default: the hard declarer of the first ``--deals`` deals of the play-strength set of
``--seed`` (:mod:`benchmarks.quality.play_strength`) against double-dummy defenders,
untimed (so every run makes the same decisions), ``--rounds`` rounds of a fresh
interpreter each for ``threads=1`` and ``threads=2`` alternately.  Each run prints the
decision seconds summed over the deals, the process CPU of the decisions, and for the two
batch solves (:meth:`ddsolver.Solver.solve_layouts` for the decision's own layouts,
:meth:`~ddsolver.Solver.card_losses` for the sampler's play checks) the calls, the search
nodes and the CPU seconds of the threads that ran them.  The cards played are checked to be
the same in every run.

``--scaling``: the search alone: the opening leads of ``--deals`` random deals at
notrump solved by ``solve_layouts`` in one thread and split between two threads (a fresh
Solver each), the median of 5 rounds of each: how far two threads scale when no Python
runs between the searches.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import numpy as np


def _child(seed: int, deals: int, threads: int) -> dict:
    """One run in this interpreter: the counters of the batch solves and the rows."""
    import ddsolver.solver as solver_module
    from benchmarks.quality import play_strength

    counts: Counter = Counter()
    lock = threading.Lock()

    def counted(name):
        method = getattr(solver_module.Solver, name)

        def wrapper(self, *args, **kwargs):
            nodes, cpu = self.nodes, time.thread_time()
            result = method(self, *args, **kwargs)
            with lock:
                counts[name + " calls"] += 1
                counts[name + " nodes"] += self.nodes - nodes
                counts[name + " cpu"] += time.thread_time() - cpu
            return result
        return wrapper

    for name in ("solve_layouts", "card_losses"):
        setattr(solver_module.Solver, name, counted(name))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.jsonl")
        play_strength.main(["run", "--seed", str(seed), "--deals", str(deals), "--tests",
                            "declarer", "--players", "hard", "--threads", str(threads),
                            "--no-budget", "--quiet", "--out", out])
        rows = [json.loads(line) for line in open(out)]
    return {"threads": threads,
            "seconds": sum(sum(r["times"]) for r in rows),
            "cpu": sum(sum(r["cpu"]) for r in rows),
            "play": [r["play"] for r in rows],
            "counts": dict(counts)}


def _scaling(deals: int) -> None:
    from ddsolver.deal import random_deal
    from ddsolver.solver import Solver

    rng = random.Random(1)
    hands = np.array([random_deal(rng).masks() for _ in range(deals)], dtype=np.uint64)
    one, two = [], []
    for _ in range(5):
        t = time.perf_counter()
        Solver().solve_layouts(hands, "NT", "W")
        one.append(time.perf_counter() - t)
        solvers = [Solver(), Solver()]
        t = time.perf_counter()
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda j: solvers[j].solve_layouts(hands[j::2], "NT", "W"),
                          range(2)))
        two.append(time.perf_counter() - t)
    a, b = statistics.median(one), statistics.median(two)
    print(f"{deals} opening leads at notrump: one thread {a:.3f} s, two threads {b:.3f} s "
          f"(median of 5), speed-up {a / b:.2f}x")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=2025)
    ap.add_argument("--deals", type=int, default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scaling", action="store_true")
    ap.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.scaling:
        _scaling(args.deals or 24)
        return 0
    deals = args.deals or 5
    if args.child is not None:
        print(json.dumps(_child(args.seed, deals, args.child)))
        return 0
    plays = None
    for r in range(args.rounds):
        for threads in (1, 2):
            out = subprocess.run(
                [sys.executable, "-m", "benchmarks.diagnostics.decision_threads",
                 "--seed", str(args.seed), "--deals", str(deals), "--child", str(threads)],
                check=True, capture_output=True, text=True).stdout
            res = json.loads(out.strip().splitlines()[-1])
            same = plays is None or res["play"] == plays
            plays = plays or res["play"]
            c = res["counts"]
            print(f"round {r + 1} threads={threads}: decisions {res['seconds']:.2f} s, "
                  f"CPU {res['cpu']:.2f} s; solve_layouts {c.get('solve_layouts calls', 0)} "
                  f"calls {c.get('solve_layouts nodes', 0):,} nodes "
                  f"{c.get('solve_layouts cpu', 0):.2f} s; card_losses "
                  f"{c.get('card_losses calls', 0)} calls "
                  f"{c.get('card_losses nodes', 0):,} nodes {c.get('card_losses cpu', 0):.2f} s"
                  f"{'' if same else '  (OTHER CARDS PLAYED)'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
