"""How much of the hard declarer's loss could better inference remove? An oracle bound.

The declarer test of :mod:`benchmarks.quality.play_strength` (the computer declares, and
plays dummy, against double-dummy defenders), with one change that no real player can
have: the constraints the sampler takes from the auction (:func:`ai.inference.infer`) are
narrowed to the true shape of each hidden hand (``--know shape``), or to its true shape
and high-card points (``--know shape,hcp``).  Everything else (the layouts dealt, the
weights by the play, the choice of card) is the level's own.  The declarer then knows
what perfect inference from the auction and the play could at most tell it about the
hands' shapes and strength; what it still loses is the cost of guesses no inference of
that kind settles (which card lies where within the lengths) and of Monte Carlo's own
strategy fusion.

This module peeks at the deal by design (it patches ``ai.sampling.infer`` for the
duration of a deal, with the deal's true hands); it is a measurement, never a player.
Rows are written as ``play_strength`` writes them, with the player named ``hard`` plus
``--tag`` (default ``+shape`` or ``+shape,hcp``), so that ``play_strength report`` pairs
them with a plain run on the same deals::

    python -m benchmarks.quality.play_strength run --seed 2025 --deals 300 \\
        --tests declarer --players hard --threads 1 --no-budget --out plain.jsonl
    python -m benchmarks.diagnostics.oracle_declarer --seed 2025 --deals 300 \\
        --know shape --out shape.jsonl
    python -m benchmarks.quality.play_strength report plain.jsonl shape.jsonl
"""

from __future__ import annotations

import argparse
import sys
from types import SimpleNamespace
from typing import Dict, Optional, Sequence

import ai.sampling
from ai.constraints import HandConstraints
from benchmarks.quality import play_strength
from ddsolver.cards import Suit
from ddsolver.table import Seat

KNOWN = ("shape", "hcp")

_real_infer = ai.sampling.infer


def _truth(hand, know: Sequence[str]) -> HandConstraints:
    """The constraints that pin ``hand``'s shape (and HCP) exactly."""
    kwargs = {}
    if "shape" in know:
        kwargs["lengths"] = tuple((hand.length(s), hand.length(s)) for s in Suit)
    if "hcp" in know:
        kwargs["hcp"] = (hand.hcp, hand.hcp)
    return HandConstraints(**kwargs)


def oracle_infer(deal, know: Sequence[str]):
    """An ``infer`` that adds the true shape (and HCP) of ``deal``'s hands to the
    auction's constraints (the truth alone where the two contradict)."""
    truth = {s: _truth(deal[s], know) for s in Seat}

    def infer(auction, system) -> Dict[Seat, object]:
        out = {}
        for seat, inf in _real_infer(auction, system).items():
            both = inf.constraints & truth[seat]
            out[seat] = SimpleNamespace(seat=seat, calls=inf.calls, consistent=True,
                                        constraints=truth[seat] if both.is_empty else both)
        return out

    return infer


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=play_strength.TUNING_SEED)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--player", default="hard", choices=play_strength.PLAYERS)
    ap.add_argument("--know", default="shape",
                    help=f"what the declarer is told: a comma list of {', '.join(KNOWN)}")
    ap.add_argument("--tag", default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    know = [k for k in args.know.split(",") if k]
    bad = [k for k in know if k not in KNOWN]
    if not know or bad:
        ap.error(f"--know takes a comma list of {', '.join(KNOWN)}, got {args.know!r}")
    play_strength.check_run_args(ap, args)
    real_run = play_strength.RUNNERS["declarer"]

    def run_declarer(member, name, seed, threads):
        ai.sampling.infer = oracle_infer(member[2], know)
        try:
            return real_run(member, name, seed, threads)
        finally:
            ai.sampling.infer = _real_infer

    play_strength.RUNNERS["declarer"] = run_declarer
    play_strength.UNTIMED["untimed"] = True
    tag = args.tag if args.tag is not None else "+" + ",".join(know)
    play_strength.run(args.seed, args.start, args.deals, ["declarer"], [args.player],
                      args.out, args.threads, tag=tag)
    return 0


if __name__ == "__main__":
    sys.exit(main())
