"""Bidding quality of the Standard American robots on seeded random deals, scored
double-dummy against par (the measure is :mod:`ai.bidding.quality`, which explains it).

Usage (from the repository root)::

    python -m benchmarks.quality.bidding_quality --seed 2024 --seed 1 --seed 2 \
        --cache 'cache/dd_seed{seed}.jsonl' [--boards OUT.jsonl] [--baseline OLD.jsonl]

Prints, per seed and for all seeds together, the mean IMPs per board from par with its
standard error, the breakdown by cause, the game and slam rates and the time per call
(``--json``: the same as JSON); ``--baseline`` adds the paired difference against an
earlier ``--boards`` file.  Seed 58213 is the validation seed: refused without
``--validation`` (see :mod:`ai.bidding.quality`).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from ai.bidding.quality import (
    TUNING_SEEDS,
    VALIDATION_SEED,
    check_cache,
    format_table,
    paired,
    run,
    summarise,
)


def _print_summary(summary: dict) -> None:
    """The table of one seed (or of all), and the paired difference when there is one."""
    print(format_table(summary))
    d = summary.get("paired")
    if d:
        print(f"\nversus the baseline: {d['mean_difference']:+.3f} ± "
              f"{d['standard_error']:.3f} IMPs per board on {d['boards']} boards "
              f"({d['better']} better, {d['worse']} worse)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, action="append",
                    help=f"a seed of deals (repeatable; default the tuning seeds "
                         f"{', '.join(map(str, TUNING_SEEDS))})")
    ap.add_argument("--validation", action="store_true",
                    help=f"allow the validation seed {VALIDATION_SEED} (only with final rules)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", action="store_true", help="print the summaries as JSON")
    ap.add_argument("--boards", metavar="FILE", help="write every board as JSON lines")
    ap.add_argument("--baseline", metavar="FILE",
                    help="a --boards file of an earlier run: report the paired difference")
    ap.add_argument("--cache", metavar="FILE",
                    help="JSON-lines cache of DD tables solved by earlier runs ({seed} in the "
                         "name is replaced by the seed)")
    args = ap.parse_args(argv)
    seeds = args.seed or list(TUNING_SEEDS)
    if VALIDATION_SEED in seeds and not args.validation:
        ap.error(f"seed {VALIDATION_SEED} is the validation seed: run it only with the final "
                 f"rules, and say so with --validation")
    try:                               # a damaged cache is named before any work
        check_cache(args.cache, seeds)
    except ValueError as e:
        ap.error(f"--cache: {e}")
    baseline = []
    if args.baseline:
        with open(args.baseline) as fh:
            baseline = [json.loads(line) for line in fh if line.strip()]
    summaries = {}
    everything = []
    for seed in seeds:
        results = run(args.deals, seed, args.threads, cache=args.cache)
        everything += results
        summary = summarise(results)
        if baseline:
            summary["paired"] = paired(results, baseline)
        summaries[seed] = summary
        if not args.json:
            print(f"\nSeed {seed}" + (" (validation)" if seed == VALIDATION_SEED else ""))
            _print_summary(summary)
            sys.stdout.flush()
    if len(seeds) > 1:
        summary = summarise(everything)
        if baseline:
            summary["paired"] = paired(everything, baseline)
        summaries["all"] = summary
        if not args.json:
            print(f"\nAll {len(seeds)} seeds")
            _print_summary(summary)
    if args.boards:
        with open(args.boards, "w") as fh:
            fh.writelines(json.dumps(asdict(r)) + "\n" for r in everything)
    if args.json:
        print(json.dumps({str(k): v for k, v in summaries.items()}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
