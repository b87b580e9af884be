"""Tree sizes of ddsolver and DDS on the same positions: trick nodes of one exact solve.

    python -m benchmarks.diagnostics.tree_compare [--deal thomas1|list100:N] [--strain NT]
                                                  [--tricks 3] [--leader E]

The position is the deal after ``--tricks`` tricks of simple play (a fixed, legal but not
good line, so positions deep in a deal can be compared without a played record): the
leader leads the lowest card of its longest suit; the others follow with their lowest card
of the suit led, or discard the lowest card of their longest suit.  The first leader is
``--leader``.  Both solvers then find the exact number of tricks for the side on lead,
single thread, fresh tables.

Printed per solver: tricks for North-South among the tricks left, trick nodes (DDS's
``futureTricks.nodes`` counts the trick starts reached by a card, ``thrp->trickNodes``;
ddsolver's ``Engine.stats["trick_nodes"]`` counts the same), all of ddsolver's nodes, and
CPU seconds (``time.process_time``).  Needs the DDS library (``pip install -e '.[bench]'``).

``thomas1`` is the freak deal of DDS's ``hands/thomas1.txt`` (every hand void in one suit),
kept in ``tests/data/thomas1.txt``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from benchmarks.dds_ctypes import DDS
from ddsolver._search import Engine
from ddsolver.cards import Strain
from ddsolver.ddsfiles import read_dds_file
from ddsolver.table import Seat

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def _cards(mask: int):
    return [(s, r) for s in range(4) for r in range(2, 15) if mask >> (16 * s + r) & 1]


def simple_play(masks, leader: int, tricks: int):
    """Play ``tricks`` tricks of the simple line (no trumps assumed for the winner: the
    highest card of the suit led wins).  Returns the new masks and leader."""
    m = list(masks)
    for _ in range(tricks):
        trick = []
        for i in range(4):
            h = (leader + i) & 3
            cs = _cards(m[h])
            lens = {s: sum(1 for x in cs if x[0] == s) for s in range(4)}
            follow = [x for x in cs if trick and x[0] == trick[0][0]]
            if follow:
                c = min(follow, key=lambda x: x[1])
            else:
                c = min(cs, key=lambda x: (-lens[x[0]], x[1]))
            trick.append(c)
            m[h] &= ~(1 << (16 * c[0] + c[1]))
        win = 0
        for i in range(1, 4):
            if trick[i][0] == trick[win][0] and trick[i][1] > trick[win][1]:
                win = i
        leader = (leader + win) & 3
    return m, leader


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deal", default="thomas1")
    ap.add_argument("--strain", default="NT", choices=["C", "D", "H", "S", "NT"])
    ap.add_argument("--tricks", type=int, default=3)
    ap.add_argument("--leader", default="E", choices=list("NESW"))
    args = ap.parse_args(argv)
    if args.deal == "thomas1":
        deal = read_dds_file(DATA / "thomas1.txt")[0].deal
    elif args.deal.startswith("list100:"):
        deal = read_dds_file(DATA / "list100.txt")[int(args.deal.split(":")[1])].deal
    else:
        ap.error("--deal is thomas1 or list100:N")
    strain = ["C", "D", "H", "S", "NT"].index(args.strain)
    if not 0 <= args.tricks <= 12:
        ap.error("--tricks must be 0..12")
    masks, leader = simple_play(deal.masks(), "NESW".index(args.leader), args.tricks)
    tl = 13 - args.tricks

    t0 = time.process_time()
    eng = Engine()
    eng.set_position(masks, strain, leader, ())
    ns = eng.ns_tricks()
    ours_cpu = time.process_time() - t0
    st = eng.stats

    dds = DDS()
    board = DDS.board(masks, Strain(strain), Seat(leader))
    t0 = time.process_time()
    fut = dds.solve_board(board, -1, 1, 0)
    dds_cpu = time.process_time() - t0
    dds_ns = fut.score[0] if leader % 2 == 0 else tl - fut.score[0]

    print(f"{args.deal} {args.strain}, {args.tricks} tricks played, {'NESW'[leader]} on lead,"
          f" {tl} tricks left")
    print(f"DDS      : N-S {dds_ns:2d}  trick nodes {fut.nodes:>12,}"
          f"                     cpu {dds_cpu:8.2f} s")
    print(f"ddsolver : N-S {ns:2d}  trick nodes {st['trick_nodes']:>12,}  all nodes "
          f"{st['nodes']:>13,}  cpu {ours_cpu:8.2f} s")
    print(f"ratio    : trick nodes {st['trick_nodes'] / max(1, fut.nodes):.2f}x, "
          f"cpu {ours_cpu / max(1e-9, dds_cpu):.2f}x")
    if dds_ns != ns:
        print("ERROR: the solvers disagree")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
