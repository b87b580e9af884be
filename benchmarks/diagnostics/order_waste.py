"""Where the move ordering wastes nodes: positions partway through random play, by kind.

    python -m benchmarks.diagnostics.order_waste --strain NT --positions 1500 --seed 2
                                                 [--examples 5]

Each position is reached by random legal cards from a deal of ``list100`` or of
``random_deals(77, 200)`` (4 to 8 tricks played, so 5 to 9 tricks left), and asked the
question its side to move answers yes to (N-S to move: "do N-S reach their value?"; E-W to
move: "do N-S fail to reach one more?").  Every legal card (one per group of equivalent
cards, in ``Engine.groups`` order, which is ``gen_moves``'s order) is played and its child
searched fresh (a new Engine, so no table and no cut-off cache).  The cost of the ordering
is the nodes of the children tried up to the first that answers yes; the best possible is
the cheapest child that answers yes; the waste is the difference.  Printed per kind of
position (a lead, or second / third / fourth hand following suit or void, with the suit led
trumps or not): how many positions, how many where the first card was not the cheapest
answer, the cost, the waste and its share; then the positions with most waste.  Fresh
searches show the ordering of ``gen_moves`` alone, not of the cut-off cache, which picks
most cards in a real search.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

from benchmarks.diagnostics.proof_walk import trick_winner
from ddsolver._search import Engine
from ddsolver.cards import Card, Strain, Suit
from ddsolver.ddsfiles import read_dds_file
from ddsolver.deal import Hand, random_deals

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def _engine(masks, trump, leader, trick) -> Engine:
    e = Engine()
    e.set_position(list(masks), trump, leader, list(trick))
    return e


def _child(masks, trump, leader, trick, target, mover, s, r):
    """(answer "N-S reach target", nodes) after the mover plays (s, r)."""
    child = list(masks)
    child[mover] &= ~(1 << (16 * s + r))
    trick, cleader, ctarget = trick + [(s, r)], leader, target
    if len(trick) == 4:
        cleader = trick_winner(trick, leader, trump)
        trick = []
        if cleader % 2 == 0:
            ctarget -= 1
    left = bin(child[cleader]).count("1") + (1 if trick else 0)
    if ctarget <= 0:
        return True, 0
    if ctarget > left:
        return False, 0
    e = _engine(child, trump, cleader, trick)
    return e.ns_reaches(ctarget), e.nodes


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strain", default="NT", help="C, D, H, S or NT")
    ap.add_argument("--positions", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--examples", type=int, default=5, help="worst positions to print")
    args = ap.parse_args(argv)
    trump = int(Strain.from_str(args.strain))
    rng = random.Random(args.seed)
    deals = [r.deal.masks() for r in read_dds_file(DATA / "list100.txt")]
    deals += [d.masks() for d in random_deals(77, 200)]
    count, missed, cost, waste = (collections.Counter() for _ in range(4))
    worst = []
    for _ in range(args.positions):
        masks, leader, trick = list(rng.choice(deals)), rng.randrange(4), []
        for _ in range(rng.randrange(16, 36)):
            mover = (leader + len(trick)) & 3
            s, r, _group = rng.choice(_engine(masks, trump, leader, trick).groups())
            masks[mover] &= ~(1 << (16 * s + r))
            trick.append((s, r))
            if len(trick) == 4:
                leader, trick = trick_winner(trick, leader, trump), []
        mover = (leader + len(trick)) & 3
        e = _engine(masks, trump, leader, trick)
        value = e.ns_tricks()
        target = value if mover % 2 == 0 else value + 1
        left = bin(masks[leader]).count("1") + (1 if trick else 0)
        if target <= 0 or target > left:
            continue
        want = mover % 2 == 0
        kids = []
        for s, r, _group in e.groups():
            answer, nodes = _child(masks, trump, leader, trick, target, mover, s, r)
            kids.append((Card(Suit(s), r), answer == want, nodes + 1))
        spent = 0
        for _card, ok, nodes in kids:
            spent += nodes
            if ok:
                break
        best = min(nodes for _card, ok, nodes in kids if ok)
        if not trick:
            kind = "lead"
        else:
            led = trick[0][0]
            follows = any(int(card.suit) == led for card, _ok, _n in kids)
            kind = (f"pos{len(trick)} {'follow' if follows else 'void'}"
                    + (" trumps led" if led == trump else ""))
        count[kind] += 1
        cost[kind] += spent
        waste[kind] += spent - best
        missed[kind] += spent > best
        worst.append((spent - best, masks, leader, trick, target, kids))
    print(f"{'kind':22s} {'count':>6s} {'missed':>6s} {'cost':>9s} {'waste':>9s} share")
    for kind in sorted(cost, key=lambda k: -waste[k]):
        print(f"{kind:22s} {count[kind]:6d} {missed[kind]:6d} {cost[kind]:9d} "
              f"{waste[kind]:9d} {waste[kind] / cost[kind]:.1%}")
    worst.sort(key=lambda w: -w[0])
    for lost, masks, leader, trick, target, kids in worst[:args.examples]:
        hands = " ".join(f"{'NESW'[h]}:{Hand(masks[h]).to_pbn()}" for h in range(4))
        shown = " ".join(str(Card(Suit(s), r)) for s, r in trick) or "-"
        print(f"\nwaste {lost}: {'NESW'[leader]} leads, trick {shown}, N-S target {target}")
        print(f"    {hands}")
        print("    " + ", ".join(f"{card} {'yes' if ok else 'no'} {n}" for card, ok, n in kids))
    return 0


if __name__ == "__main__":
    sys.exit(main())
