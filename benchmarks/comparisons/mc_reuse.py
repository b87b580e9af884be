"""Monte Carlo decisions: one solver reused across the samples of a decision vs a fresh
solver for each sample.

    python -m benchmarks.comparisons.mc_reuse [--decisions 20] [--samples 30] [--seed 5]
                                              [--json out.json]

A *decision* is a declarer's play problem as a Monte Carlo player meets it: a deal of
``list100.txt`` (DDS's test file) is played for ``--cards-played`` cards (default 5: the
opening lead, a trick, the lead to the second trick) choosing each card at random from the
legal cards, in the file's trump strain with the file's opening leader; then declarer's
side (declarer and dummy) sees its own two hands and the cards played, and samples
``--samples`` layouts of the defenders' unseen cards by dealing them again at random between
the two defenders (each keeps the number of cards it holds).
Each sample is solved for every legal card of the player to move (``Solver.solve``).

Two ways are timed on the same samples, single thread, CPU time, sample by sample in
alternating order (a drift of the machine's speed then reaches both):

* **reused**: one :class:`ddsolver.solver.Solver` for all samples of a decision (its
  transposition table keeps entries across samples: same trump, positions described by
  suit lengths and relative ranks, so the entries stay exact);
* **fresh**: a new ``Solver`` for every sample.

Both must return identical values for every card of every sample (the script stops with an
error otherwise).  Printed: decisions, samples, mean CPU ms per sample for each way, the
ratio, and the node counts.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from ddsolver.cards import cards_of_mask
from ddsolver.ddsfiles import read_dds_file
from ddsolver.play import Position
from ddsolver.solver import Solver
from ddsolver.table import Seat

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def decisions(count: int, cards_played: int, rng: random.Random):
    """``count`` positions reached by random legal play from the start of list100 deals."""
    records = read_dds_file(DATA / "list100.txt")
    out = []
    for rec in records:
        if len(out) >= count:
            break
        pos = Position(rec.deal, rec.trump, rec.leader)
        for _ in range(cards_played):
            pos.play(rng.choice(pos.legal_cards))
        out.append((pos, rec.leader))
    return out


def samples(pos: Position, defender: Seat, n: int, rng: random.Random):
    """``n`` positions equal to ``pos`` for declarer's side, with the two defenders' unseen
    cards dealt again at random (each defender keeps its number of cards).  ``defender`` is
    one defender's seat (the opening leader)."""
    masks = pos.masks()
    d1, d2 = defender, defender.partner
    unseen = list(cards_of_mask(masks[d1] | masks[d2]))
    n1 = bin(masks[d1]).count("1")
    out = []
    for _ in range(n):
        rng.shuffle(unseen)
        new = list(masks)
        new[d1] = sum(c.bit for c in unseen[:n1])
        new[d2] = sum(c.bit for c in unseen[n1:])
        try:
            out.append(Position.from_remaining(new, pos.trump, pos.leader, pos.trick_cards))
        except Exception:  # a redeal that makes a card already played a revoke: skip it
            continue
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=20)
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--cards-played", type=int, default=5)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", dest="json_out")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    work = [(d, samples(d, leader, args.samples, rng))
            for d, leader in decisions(args.decisions, args.cards_played, rng)]
    n = sum(len(s) for _, s in work)

    # the two ways sample by sample, the order alternating, so that a drift of the
    # machine's speed reaches both alike
    fresh_answers, fresh_nodes, fresh_s = [], 0, 0.0
    reused_answers, reused_nodes, reused_s = [], 0, 0.0
    k = 0
    for _, group in work:
        t0 = time.process_time()
        reused = Solver()
        reused_s += time.process_time() - t0
        for p in group:
            for way in (("fresh", "reused") if k % 2 == 0 else ("reused", "fresh")):
                t0 = time.process_time()
                if way == "fresh":
                    solver = Solver()
                    fresh_answers.append(solver.solve(p))
                    fresh_s += time.process_time() - t0
                    fresh_nodes += solver.nodes
                else:
                    reused_answers.append(reused.solve(p))
                    reused_s += time.process_time() - t0
            k += 1
        reused_nodes += reused.nodes

    bad = sum(1 for a, b in zip(fresh_answers, reused_answers) if a != b)
    if bad:
        print(f"ERROR: {bad} samples differ between a reused and a fresh solver")
        return 1
    result = {
        "decisions": len(work), "samples": n, "cards_played": args.cards_played,
        "fresh_ms_per_sample": 1000 * fresh_s / n, "reused_ms_per_sample": 1000 * reused_s / n,
        "fresh_nodes": fresh_nodes, "reused_nodes": reused_nodes,
        "speedup": fresh_s / reused_s if reused_s else float("inf"),
    }
    print(f"{result['decisions']} decisions, {n} samples (every legal card solved), "
          f"{args.cards_played} cards played before the decision; answers identical")
    print(f"fresh solver per sample : {result['fresh_ms_per_sample']:8.1f} ms/sample, "
          f"{fresh_nodes:,} nodes")
    print(f"one solver per decision : {result['reused_ms_per_sample']:8.1f} ms/sample, "
          f"{reused_nodes:,} nodes")
    print(f"reuse speed-up          : {result['speedup']:.2f}x")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
