"""Walk down one zero-window test's proof where ddsolver's tree exceeds DDS's most.

    python -m benchmarks.diagnostics.proof_walk --set random --deal 90 --strain NT --leader E
                                                --target 1 [--steps 12]
    python -m benchmarks.diagnostics.proof_walk --position 93 --target 9
                                                # a line of solve_positions.jsonl

At each step the position (a trick start or partway through a trick) is searched fresh by
both solvers with the same question, "do North-South reach ``target`` of the tricks left
(the current one included)?": ddsolver with ``Engine.ns_reaches``, DDS with ``SolveBoard``
given the target for the side to move.  Then every legal card of the player to move is
played and its child searched the same way; among the children with the same answer (those
on the proof) the walk goes on in the one where our trick nodes exceed DDS's most.  Printed
per step: the hands, the trick so far, both solvers' trick nodes (trick starts reached by a
card; DDS's ``futureTricks.nodes``) and each child's.  A gap that grows step by step shows a
kind of position where our trees are larger.  Needs the DDS library
(``pip install -e '.[bench]'``); random deals are ``ddsolver.deal.random_deals(2026, 200)``,
the ones ``compare_dds.py`` uses.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.bench_sets import load_positions, position_item
from benchmarks.dds_ctypes import DDS
from ddsolver._search import Engine
from ddsolver.cards import Card, Strain, Suit
from ddsolver.ddsfiles import read_dds_file
from ddsolver.deal import Hand, random_deals
from ddsolver.table import Seat

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def trick_winner(trick, leader: int, trump: int) -> int:
    """Seat (0..3) winning a complete trick of four ``(suit, rank)`` cards led by ``leader``."""
    best = 0
    for i in range(1, 4):
        s, r = trick[i]
        bs, br = trick[best]
        if (s == bs and r > br) or (s == trump and bs != trump):
            best = i
    return (leader + best) & 3


class Walker:
    def __init__(self, trump: int):
        self.trump = trump
        self.dds = DDS()

    def nodes(self, masks, leader, trick, ns_target, tricks_left):
        """(answer, our trick nodes, DDS's trick nodes) of "N-S reach ``ns_target``"."""
        eng = Engine()
        eng.set_position(list(masks), self.trump, leader, list(trick))
        answer = eng.ns_reaches(ns_target)
        ours = eng.stats["trick_nodes"]
        mover = (leader + len(trick)) & 3
        target = ns_target if mover % 2 == 0 else tricks_left - ns_target + 1
        self.dds.free_memory()
        board = DDS.board(list(masks), Strain(self.trump), Seat(leader),
                          [Card(Suit(s), r) for s, r in trick])
        fut = self.dds.solve_board(board, target, 1, 1)
        return answer, ours, fut.nodes


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=("list100", "random"), default="random")
    ap.add_argument("--deal", type=int, default=None, help="index in the set (0-based)")
    ap.add_argument("--position", type=int, default=None,
                    help="start instead from line K (0-based) of solve_positions.jsonl "
                         "(its strain, leader and trick so far; --set, --deal, --strain and "
                         "--leader are then ignored)")
    ap.add_argument("--strain", default="NT", help="C, D, H, S or NT")
    ap.add_argument("--leader", default="E", help="the opening leader: N, E, S or W")
    ap.add_argument("--target", type=int, required=True,
                    help="N-S tricks asked for among the tricks left at the start, 1..13")
    ap.add_argument("--play", default="",
                    help="cards played from the start before the walk begins, in order, "
                         "e.g. 'D6 DK D3 C7' (each by the player to move)")
    ap.add_argument("--steps", type=int, default=12, help="cards to walk down")
    args = ap.parse_args(argv)
    if (args.deal is None) == (args.position is None):
        ap.error("give one of --deal and --position")
    if args.position is not None:
        rows = load_positions()
        if not 0 <= args.position < len(rows):
            ap.error(f"--position must lie in 0..{len(rows) - 1}")
        item = position_item(rows[args.position])
        masks = list(item.masks)
        trump, leader = int(item.trump), int(item.leader)
        trick = [(int(c.suit), int(c.rank)) for c in item.trick]
        tricks_left = bin(masks[leader]).count("1") + (1 if trick else 0)
    else:
        if args.set == "list100":
            deal = read_dds_file(DATA / "list100.txt")[args.deal].deal
        else:
            deal = random_deals(2026, 200)[args.deal]
        trump = int(Strain.from_str(args.strain))
        leader = int(Seat.from_str(args.leader))
        masks, trick, tricks_left = list(deal.masks()), [], 13
    walker = Walker(trump)
    ns_target = args.target
    for text in args.play.split():
        card = Card.from_str(text)
        mover = (leader + len(trick)) & 3
        bit = 1 << (16 * int(card.suit) + int(card.rank))
        if not masks[mover] & bit:
            ap.error(f"--play: {text} is not held by the player to move ({Seat(mover).name})")
        masks[mover] &= ~bit
        trick = trick + [(int(card.suit), int(card.rank))]
        if len(trick) == 4:
            leader = trick_winner(trick, leader, trump)
            trick, tricks_left = [], tricks_left - 1
            if leader % 2 == 0:
                ns_target -= 1
    for step in range(args.steps):
        answer, ours, dds = walker.nodes(masks, leader, trick, ns_target, tricks_left)
        hands = "  ".join(f"{Seat(h).name[0]} {Hand(masks[h]).to_pbn()}" for h in range(4))
        shown = " ".join(str(Card(Suit(s), r)) for s, r in trick) or "-"
        print(f"step {step}: {tricks_left} tricks left, {Seat(leader).name} "
              f"{'leads' if not trick else 'led'}, trick {shown}, "
              f"N-S need {ns_target}: {'yes' if answer else 'no'}; ours {ours:,} DDS {dds:,}")
        print(f"    {hands}")
        mover = (leader + len(trick)) & 3
        eng = Engine()
        eng.set_position(list(masks), trump, leader, list(trick))
        best = None
        for s, r, _group in eng.groups():
            child = list(masks)
            child[mover] &= ~(1 << (16 * s + r))
            ctrick, cleader, ctl, ctarget = trick + [(s, r)], leader, tricks_left, ns_target
            if len(ctrick) == 4:
                cleader = trick_winner(ctrick, leader, trump)
                ctrick, ctl = [], tricks_left - 1
                if cleader % 2 == 0:
                    ctarget -= 1
            if ctarget <= 0 or ctarget > ctl:
                continue        # decided by the trick just won: nothing left to search
            a, o, d = walker.nodes(child, cleader, ctrick, ctarget, ctl)
            if a != answer:
                continue        # off the proof
            print(f"      {Card(Suit(s), r)}: ours {o:,} DDS {d:,}")
            if best is None or o - d > best[0]:
                best = (o - d, child, cleader, ctrick, ctarget, ctl)
        if best is None:
            break
        _, masks, leader, trick, ns_target, tricks_left = best
    return 0


if __name__ == "__main__":
    sys.exit(main())
