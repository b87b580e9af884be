"""Two opening-lead policies compared in expectation, not on the one real layout.

    python -m benchmarks.diagnostics.lead_oracle A.jsonl B.jsonl [--layouts 120] [--out R.json]

``A`` and ``B`` are ``lead`` rows of :mod:`benchmarks.quality.play_strength` on the same
seed (e.g. the hard level and a variant).  On every deal where the two leads differ, the
leader's view (its hand and the auction) is dealt ``--layouts`` times by the ``"auction"``
sampler with the calls' filter and no misbid allowance (``bid_filter=True``,
``misbid_weight=0``: every layout reproduces each hidden call with the robots' own system,
which made the calls in this benchmark), each layout is solved double dummy for both leads,
and the difference B - A of the defenders' mean tricks and of their chance of defeating
the contract is averaged; deals with the same lead count 0.  The result is, per deal, the
expected value of choosing B's lead instead of A's given what the leader knew, with its
standard error over the deals.  On seed 2025 its standard error was a sixth to an eighth
of the realized tricks' (``benchmarks/NOTES.md``, "Opening leads and the calls'
weights"): a lead comparison needs far fewer deals.  The posterior is the robots' own:
against other bidders it is only an approximation.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys

from ai.bidding import StandardAmerican
from ai.sampling import sample_deals
from benchmarks.diagnostics.play_decisions import decision_view
from benchmarks.quality.play_strength import mean_se, read_rows
from ddsolver.auction import Auction
from ddsolver.cards import Card
from ddsolver.play import Position
from ddsolver.solver import Solver
from ddsolver.table import Seat


def compare(a_rows, b_rows, layouts: int = 120, progress=None):
    """``[(member, tricks B - A, set chance B - A)]`` for the members of both row lists
    (defenders' view; 0 where the leads are the same)."""
    system = StandardAmerican()
    solver = Solver(memory_mb=64)
    A = {r["member"]: r for r in a_rows if r["test"] == "lead"}
    B = {r["member"]: r for r in b_rows if r["test"] == "lead"}
    out = []
    for k in sorted(set(A) & set(B)):
        a, b = A[k], B[k]
        if a["lead"] == b["lead"]:
            out.append((k, 0.0, 0.0))
            continue
        auction = Auction.from_str(Seat.coerce(a["dealer"]), a["auction"])
        view = decision_view({**a, "play": "", "played": 0}, system)   # the leader's view
        samples = sample_deals(view, layouts, random.Random(f"oracle:{k}"),
                               method="auction", system=system, bid_weights=True,
                               bid_filter=True, bid_draws=400, misbid_weight=0.0)
        la, lb = Card.from_str(a["lead"]), Card.from_str(b["lead"])
        need = 13 - (6 + auction.contract.level) + 1
        tricks, sets = [], []
        for layout in samples.deals:
            values = solver.solve(Position(layout, trump=auction.contract.strain,
                                           leader=auction.declarer.lho))
            tricks.append(values[lb] - values[la])
            sets.append(int(values[lb] >= need) - int(values[la] >= need))
        out.append((k, statistics.mean(tricks), statistics.mean(sets)))
        if progress:
            progress(f"{k} {la} {lb} {out[-1][1]:+.2f} {out[-1][2]:+.2f}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.diagnostics.lead_oracle",
                                 description="Two lead policies compared in expectation "
                                             "over layouts that reproduce the auction.")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--layouts", type=int, default=120)
    ap.add_argument("--out", default=None, help="write the per-deal differences as JSON")
    args = ap.parse_args(argv)
    if args.layouts < 1:
        ap.error("--layouts must be at least 1")
    for path in (args.a, args.b):
        if not os.path.isfile(path):
            ap.error(f"{path}: no such file")
    try:
        a_rows, b_rows = read_rows(args.a), read_rows(args.b)
    except (OSError, ValueError) as e:
        ap.error(str(e))
    res = compare(a_rows, b_rows, args.layouts, progress=lambda t: print(t, file=sys.stderr))
    if not res:
        ap.error("the two files share no lead rows")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(res, fh)
    for i, name in ((1, "defenders' tricks"), (2, "chance of defeating the contract")):
        m, se = mean_se([r[i] for r in res])
        print(f"{name}, B - A: {m:+.4f} ± {se:.4f} per deal over {len(res)} deals "
              f"({sum(1 for r in res if r[1] or r[2])} with different leads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
