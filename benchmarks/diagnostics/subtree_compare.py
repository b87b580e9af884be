"""Tree sizes of ddsolver and DDS on many positions partway through play, one target each.

    python -m benchmarks.diagnostics.subtree_compare [--set list100|random] [--positions 200]
                                         [--tricks 2-8] [--seed 1]

Each position: a deal of the set, a strain (notrump or a suit, at random), a first leader,
then ``--tricks`` tricks (a range ``a-b`` draws the number) of random legal play; the
position is the next trick start.  Its exact value v (N-S tricks among the tricks left) is
found first; then each solver, single thread with a fresh table, answers the two questions
that decide it: "do N-S reach v?" (yes) and "do N-S reach v + 1?" (no), skipped at 0 / all
and when the leader has a single card to choose (DDS then answers without searching; the
count is printed).
ddsolver answers with ``Engine.ns_reaches`` (one zero-window search), DDS with ``SolveBoard``
given the target for the side on lead (``tricks left - t + 1`` when East-West lead).

Printed: trick nodes of each solver (the trick starts reached by a card; DDS's
``futureTricks.nodes``), summed and as the geometric mean of per-search ratios (ours + 1)
/ (DDS + 1), grouped by notrump / suit contract and by whether the side on lead reaches its
target (the leader's side must find one good card; the other side must refute every card).
Equal trees per search mean the difference in whole solves lies in the driver and the
table's reuse; a larger ratio in one group points at what to improve.  Needs the DDS library
(``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

from benchmarks.dds_ctypes import DDS
from ddsolver._search import Engine
from ddsolver.cards import Strain
from ddsolver.ddsfiles import read_dds_file
from ddsolver.deal import random_deals
from ddsolver.table import Seat

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def random_play(rng: random.Random, masks, strain: int, leader: int, tricks: int):
    """Play ``tricks`` tricks of random legal cards; returns the masks, the next leader."""
    m = list(masks)
    for _ in range(tricks):
        trick = []
        for i in range(4):
            h = (leader + i) & 3
            held = [(s, r) for s in range(4) for r in range(2, 15) if m[h] >> (16 * s + r) & 1]
            follow = [c for c in held if trick and c[0] == trick[0][0]]
            card = rng.choice(follow or held)
            trick.append(card)
            m[h] &= ~(1 << (16 * card[0] + card[1]))
        win = 0
        for i in range(1, 4):
            a, b = trick[i], trick[win]
            if (a[0] == b[0] and a[1] > b[1]) or (a[0] == strain and b[0] != strain):
                win = i
        leader = (leader + win) & 3
    return m, leader


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", default="list100", choices=["list100", "random"])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--tricks", default="2-8", help="tricks played first: N or A-B")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", args.tricks)
    if not m:
        ap.error(f"--tricks takes N or A-B (tricks played first), got {args.tricks!r}")
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if not 0 <= lo <= 11 or not 0 <= hi <= 11:
        ap.error("--tricks must lie in 0..11")
    if lo > hi:
        ap.error(f"--tricks range {args.tricks} is reversed (write {hi}-{lo})")
    if args.positions < 1:
        ap.error("--positions must be at least 1")
    if args.set == "list100":
        deals = [r.deal for r in read_dds_file(DATA / "list100.txt")]
    else:
        deals = random_deals(2026, 200)
    rng = random.Random(args.seed)
    dds = DDS()
    groups = defaultdict(list)   # key -> [(dds nodes, our nodes)]
    skipped = 0
    for _ in range(args.positions):
        deal = rng.choice(deals)
        strain = rng.choice([4, 4, 0, 1, 2, 3])
        k = rng.randint(lo, hi)
        masks, leader = random_play(rng, deal.masks(), strain, rng.randrange(4), k)
        tl = 13 - k
        eng = Engine()
        eng.set_position(masks, strain, leader, ())
        v = eng.ns_tricks()
        for t in (v, v + 1):
            if t < 1 or t > tl:
                continue
            eng = Engine()
            eng.set_position(masks, strain, leader, ())
            reached = eng.ns_reaches(t)
            ours = eng.stats["trick_nodes"]
            side_target = t if leader % 2 == 0 else tl - t + 1
            dds.free_memory()
            fut = dds.solve_board(DDS.board(masks, Strain(strain), Seat(leader)), side_target, 1, 0)
            if fut.score[0] == -2:
                skipped += 1   # DDS does not search when the leader has one card to choose
                continue
            leader_reaches = reached == (leader % 2 == 0)
            if (fut.score[0] == side_target) != leader_reaches:
                print(f"ERROR: the solvers disagree on {deal} strain {strain}, {k} tricks "
                      f"played, leader {'NESW'[leader]}, N-S target {t}: ddsolver {reached},"
                      f" DDS score {fut.score[0]} for target {side_target}")
                return 1
            kind = "notrump" if strain == 4 else "suit"
            side = "leader's side reaches" if leader_reaches else "leader's side fails"
            for key in ("all", kind, f"{kind}, {side}"):
                groups[key].append((fut.nodes, ours))
    print(f"{args.set}: {args.positions} positions after {args.tricks} random tricks, "
          f"seed {args.seed}; trick nodes per search, fresh tables ({skipped} searches left "
          f"out: the leader had one card to choose, which DDS answers without searching)")
    print(f"{'group':40s} {'searches':>8s} {'DDS':>11s} {'ddsolver':>11s} {'sum ratio':>9s}"
          f" {'geo mean':>8s}")
    for key in sorted(groups, key=lambda x: (x != "all", x)):
        rows = groups[key]
        d = sum(a for a, _ in rows)
        o = sum(b for _, b in rows)
        geo = math.exp(sum(math.log((b + 1) / (a + 1)) for a, b in rows) / len(rows))
        print(f"{key:40s} {len(rows):8d} {d:11,d} {o:11,d} {o / max(1, d):9.2f} {geo:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
