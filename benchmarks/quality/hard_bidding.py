"""Bidding quality of the hard bidder (the rules' candidates judged by simulation,
:mod:`ai.bidding.simulation`) against the rules alone, on the same seeded deals, scored
double-dummy against par (the measure is :mod:`ai.bidding.quality`, which explains it).

Usage (from the repository root)::

    nice -n 10 python -m benchmarks.quality.hard_bidding --seed 2024 --deals 1000 \
        --cache 'cache/dd_seed{seed}.jsonl' --boards OUT.jsonl [--start 0 --count 250]
    python -m benchmarks.quality.hard_bidding --merge 'OUT*.jsonl'

Every seat bids by the same bidder (four rules robots, or four hard robots); deal ``i`` is
board ``i + 1`` (dealer and vulnerability of the duplicate cycle).  Reported per seed and
for all seeds together: for each bidder the mean IMPs per board from par with its standard
error and the breakdown by cause; the paired difference hard minus rules on the same boards
with its standard error (claimed only at two standard errors or more); for the hard bidder
the time per call (median and mean over every call, and over the simulated decisions), how
many calls it simulated and how many times it departed from the rules' call.

``--start``/``--count`` run a chunk of the seed's deals (several chunks can run at once and
be merged with ``--merge``).  ``--changed-from FILE`` compares another ``--confidence``
cheaply: the bidder's layouts depend only on the hand and the auction, so a board whose
logged decisions in FILE (an earlier run with the same settings but ``confidence``) would all
be decided the same way is bid the same way; only the others are bid again, the rest are
copied from FILE.  Seed 58213 is the validation seed: refused without
``--validation`` (run it once, with the final rules).
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import re
import statistics
import sys
import time
from dataclasses import MISSING, asdict, fields
from typing import Dict, List

from ai.bidding import StandardAmerican
from ai.bidding.quality import (
    TUNING_SEEDS,
    VALIDATION_SEED,
    BoardResult,
    changed_boards,
    check_cache,
    format_table,
    score_board,
    summarise,
    tables_for,
)
from ai.bidding.simulation import SimulatingBidder, SimulationSettings
from ddsolver.auction import Auction
from ddsolver.deal import random_deals
from ddsolver.par import par
from ddsolver.table import board_dealer, board_vulnerability

#: Settings that can be overridden on the command line.
_OPTIONS = ("samples", "min_samples", "batch", "time_budget", "max_seconds",
            "max_candidates", "where", "screen", "hopeless", "margin", "confidence",
            "threads", "bid_weights", "bid_filter", "pass_in_competition")


def run_chunk(seed: int, start: int, count: int, settings: SimulationSettings,
              cache=None, progress=True) -> List[dict]:
    """Boards ``start+1 .. start+count`` of ``seed`` bid by the rules and by the hard
    bidder: one dict per board with ``rules`` and ``hard`` (:class:`BoardResult` fields)
    and ``decisions`` (the hard bidder's decisions that simulated)."""
    deals = random_deals(seed, start + count)
    if cache:
        cache = cache.replace("{seed}", str(seed))
    tables = tables_for(deals[start:], cache, progress=progress)
    rules = StandardAmerican()
    hard = SimulatingBidder(StandardAmerican(), settings, seed=f"bench:{seed}")
    out = []
    t0 = time.time()
    try:
        for k, (deal, table) in enumerate(zip(deals[start:], tables)):
            board = start + k + 1
            dealer, vul = board_dealer(board), board_vulnerability(board)
            p = par(table, vul, dealer).score
            r = score_board(board, deal, dealer, vul, table, p, rules, seed)
            hard.reset_log()
            h = score_board(board, deal, dealer, vul, table, p, hard, seed)
            decisions = [{"call": str(d.call), "rules": str(d.rules_call),
                          "candidates": [str(c) for c in d.candidates],
                          "gains": [round(g, 3) for g in d.gains],
                          "errors": [round(e, 3) if math.isfinite(e) else None
                                     for e in d.errors],
                          "samples": d.samples, "solved": d.solved,
                          "seconds": round(d.seconds, 4), "reason": d.reason}
                         for d in hard.log if d.reason != "one candidate"]
            out.append({"seed": seed, "board": board, "rules": asdict(r), "hard": asdict(h),
                        "decisions": decisions, "settings": asdict(settings),
                        "untrue": untrue_explanations(rules, deal, dealer, h.auction)})
            if progress:
                print(f"seed {seed} board {board}: rules {r.contract} {r.imps}, hard "
                      f"{h.contract} {h.imps} ({time.time() - t0:.0f} s)", file=sys.stderr,
                      flush=True)
    finally:
        hard.close()
    return out


def untrue_explanations(system, deal, dealer, calls: str) -> int:
    """How many calls of the auction ``calls`` (text) have an explanation that the hand
    which made them does not satisfy (the property the hard bidder must keep: 0)."""
    auction = Auction(dealer, calls.split())
    bad = 0
    for j, exp in enumerate(system.explain_all(auction)):
        if exp.constraints.violations(deal[dealer.next(j)]):
            bad += 1
    return bad


def _result(d: dict) -> BoardResult:
    names = {f.name for f in fields(BoardResult)}
    return BoardResult(**{k: v for k, v in d.items() if k in names})


def report(rows: List[dict]) -> dict:
    """Summaries of rows of :func:`run_chunk`: ``rules`` and ``hard`` (see
    :func:`ai.bidding.quality.summarise`), ``paired`` (hard minus rules) and ``hard_calls``
    (time per call, simulations, departures)."""
    rules = [_result(r["rules"]) for r in rows]
    hard = [_result(r["hard"]) for r in rows]
    diffs = [h.imps - r.imps for h, r in zip(hard, rules)]
    n = len(diffs)
    decisions = [d for r in rows for d in r["decisions"]]
    simulated = [d for d in decisions if d["samples"] > 0]
    calls = [x for h in hard for x in h.call_seconds]
    sim_secs = [d["seconds"] for d in simulated]
    return {
        "rules": summarise(rules),
        "hard": summarise(hard),
        "paired": {"boards": n, "mean_difference": sum(diffs) / n if n else 0.0,
                   "standard_error": statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 0.0,
                   "changed": sum(1 for r, h in zip(rules, hard) if r.auction != h.auction),
                   "better": sum(1 for d in diffs if d < 0),
                   "worse": sum(1 for d in diffs if d > 0)},
        "hard_calls": {
            "calls": len(calls),
            "median_ms": 1000 * statistics.median(calls) if calls else 0.0,
            "mean_ms": 1000 * sum(calls) / len(calls) if calls else 0.0,
            "max_ms": 1000 * max(calls) if calls else 0.0,
            "choices": len(decisions),
            "simulated": len(simulated),
            "simulated_median_s": statistics.median(sim_secs) if sim_secs else 0.0,
            "simulated_mean_s": sum(sim_secs) / len(sim_secs) if sim_secs else 0.0,
            "simulated_max_s": max(sim_secs) if sim_secs else 0.0,
            "departures": sum(1 for d in decisions if d["call"] != d["rules"]),
            "out_of_time": sum(1 for d in decisions if d["reason"] == "out of time"),
            "untrue_explanations": sum(r.get("untrue", 0) for r in rows),
        },
    }


def format_report(s: dict, title: str) -> str:
    """The report of one seed (or all) as Markdown."""
    p, c = s["paired"], s["hard_calls"]
    n = p["boards"]
    out = [f"### {title}", "", "Rules alone:", "", format_table(s["rules"]), "",
           "Hard bidder:", "", format_table(s["hard"]), "",
           f"Paired, hard minus rules: {p['mean_difference']:+.3f} ± "
           f"{p['standard_error']:.3f} IMPs per board on {n} boards "
           f"({_plural(p['changed'], 'auction')} changed, {p['better']} better, "
           f"{p['worse']} worse).", "",
           f"Hard bidder's calls: {c['calls']}; median {c['median_ms']:.1f} ms, mean "
           f"{c['mean_ms']:.0f} ms, longest {c['max_ms']:.0f} ms per call.  Calls with a "
           f"choice among candidates: {c['choices']}; simulated: {c['simulated']} "
           f"({c['simulated'] / max(1, n):.2f} per board; median {c['simulated_median_s']:.2f} s,"
           f" mean {c['simulated_mean_s']:.2f} s, longest {c['simulated_max_s']:.2f} s); "
           f"departures from the rules' call: {c['departures']} "
           f"({100.0 * c['departures'] / max(1, c['calls']):.2f} % of calls, "
           f"{100.0 * c['departures'] / max(1, c['simulated']):.1f} % of simulated "
           f"decisions); out of time: {c['out_of_time']}; calls whose explanation the hand "
           f"does not satisfy: {c['untrue_explanations']}."]
    return "\n".join(out)


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


#: What each row of a ``--boards`` file must hold, with its type.
_ROW_KEYS = {"seed": int, "board": int, "rules": dict, "hard": dict, "decisions": list,
             "settings": dict}
_DECISION_KEYS = {"call": str, "rules": str, "candidates": list, "gains": list,
                  "errors": list, "reason": str, "samples": int, "seconds": (int, float)}
_RESULT_KEYS = {"contract": str, "imps": int, "auction": str}


def read_boards(path: str) -> List[dict]:
    """The rows of a ``--boards`` file written by this benchmark.

    :raises OSError: if the file cannot be read.
    :raises ValueError: naming the line and the field, if it is empty, a line is not JSON,
        or a row lacks a field or has one of the wrong type.
    """
    rows = []
    with open(path) as fh:
        for k, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as e:
                raise ValueError(f"line {k} is not JSON ({e})") from None
            _check_fields(row, _ROW_KEYS, f"line {k}")
            if row["board"] < 1:
                raise ValueError(f"line {k}: board {row['board']} is not a board number")
            for side in ("rules", "hard"):
                _check_fields(row[side], _RESULT_KEYS, f"line {k}, {side!r}")
                missing = [f.name for f in fields(BoardResult) if f.name not in row[side]
                           and f.default is MISSING and f.default_factory is MISSING]
                if missing:
                    raise ValueError(f"line {k}, {side!r} has no {missing[0]!r}: not a "
                                     f"--boards file of this benchmark")
            for j, d in enumerate(row["decisions"], 1):
                _check_fields(d, _DECISION_KEYS, f"line {k}, decision {j}")
                if not len(d["candidates"]) == len(d["gains"]) == len(d["errors"]) >= 1:
                    raise ValueError(f"line {k}, decision {j}: candidates, gains and errors "
                                     f"differ in length")
                if not all(isinstance(x, (int, float)) for x in d["gains"]) or not all(
                        x is None or isinstance(x, (int, float)) for x in d["errors"]):
                    raise ValueError(f"line {k}, decision {j}: gains and errors must be "
                                     f"numbers")
            rows.append(row)
    if not rows:
        raise ValueError("it holds no boards")
    return rows


def _check_fields(obj, keys: dict, where: str) -> None:
    if not isinstance(obj, dict):
        raise ValueError(f"{where} is not an object: not a --boards file of this benchmark")
    for key, kind in keys.items():
        if key not in obj:
            raise ValueError(f"{where} has no {key!r}: not a --boards file of this benchmark")
        value = obj[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            name = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple)
                                                     else (kind,)))
            raise ValueError(f"{where}: {key!r} must be {name}, not {type(value).__name__}")


def _or_none(convert, what: str):
    """A command-line type: ``convert(text)``, or ``None`` for ``none`` (no limit, or the
    setting's automatic choice)."""
    def parse(text: str):
        if text.strip().lower() == "none":
            return None
        try:
            return convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what} or 'none', got {text!r}") \
                from None
    return parse


def _yes_no(text: str) -> bool:
    """A command line's yes or no (``1/0``, ``true/false``, ``yes/no``)."""
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected yes or no, got {text!r}")


def _option_help() -> Dict[str, str]:
    """Each setting's description from :class:`SimulationSettings`'s docstring, as plain
    text (Sphinx roles and literals unwrapped)."""
    doc = re.sub(r"\s+", " ", SimulationSettings.__doc__ or "")
    out = {}
    for name, text in re.findall(r":ivar (\w+): (.*?)(?= :ivar | :raises |$)", doc):
        text = re.sub(r":\w+:`~?(?:[\w.]+\.)?([^`]+)`", r"\1", text)
        out[name] = text.replace("``", "").strip()
    return out


def _shown(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def main(argv=None) -> int:
    first = __doc__.split("\n\n")[0].replace("\n", " ")
    ap = argparse.ArgumentParser(prog="python -m benchmarks.quality.hard_bidding",
                                 description=re.sub(r":\w+:`~?([^`]+)`", r"\1", first))
    ap.add_argument("--seed", type=int, action="append",
                    help=f"a seed of deals (repeatable; default the tuning seeds "
                         f"{', '.join(map(str, TUNING_SEEDS))})")
    ap.add_argument("--deals", type=int, default=1000, help="deals per seed (default 1000)")
    ap.add_argument("--start", type=int, default=0, help="first deal of the chunk (0-based)")
    ap.add_argument("--count", type=int, default=None, help="deals in the chunk")
    ap.add_argument("--validation", action="store_true",
                    help=f"allow the validation seed {VALIDATION_SEED} (only with final rules)")
    ap.add_argument("--cache", metavar="FILE",
                    help="JSON-lines cache of DD tables ({seed} is replaced by the seed)")
    ap.add_argument("--boards", metavar="FILE", help="write every board as JSON lines")
    ap.add_argument("--merge", metavar="GLOB", action="append",
                    help="report on --boards files of earlier runs instead of bidding")
    ap.add_argument("--json", action="store_true", help="print the summaries as JSON")
    ap.add_argument("--changed-from", metavar="FILE",
                    help="bid again only the boards of this earlier run (other --confidence, "
                         "else the same settings) that the new confidence could change; copy "
                         "the rest")
    described = _option_help()
    for name in _OPTIONS:
        default = getattr(SimulationSettings(), name)
        kind = type(default) if default is not None else int
        metavar = None
        if kind is bool:
            kind, metavar = _yes_no, "yes|no"
        if name in ("time_budget", "max_seconds"):
            kind, metavar = _or_none(float, "seconds"), "SECONDS|none"
        if name == "threads":
            kind, metavar = _or_none(int, "a whole number"), "N|none"
        text = described.get(name, f"SimulationSettings.{name}").replace("%", "%%")
        ap.add_argument("--" + name.replace("_", "-"), type=kind, default=None,
                        metavar=metavar, help=f"{text} (default {_shown(default)})")
    args = ap.parse_args(argv)
    if args.merge:
        paths, real = [], set()
        for pattern in args.merge:
            matched = sorted(glob.glob(pattern))
            if not matched:
                ap.error(f"--merge {pattern}: no file matches")
            for path in matched:                   # a file matched twice is read once
                if os.path.realpath(path) not in real:
                    real.add(os.path.realpath(path))
                    paths.append(path)
        rows, seen = [], set()
        for path in paths:
            if not os.path.isfile(path):
                ap.error(f"--merge {path}: " + ("it is a directory" if os.path.isdir(path)
                                                 else "not a regular file"))
            try:
                got = read_boards(path)
            except (OSError, UnicodeDecodeError, ValueError) as e:
                ap.error(f"--merge {path}: {e}")
            for r in got:
                if (r["seed"], r["board"]) in seen:
                    ap.error(f"--merge {path}: seed {r['seed']} board {r['board']} is in "
                             f"another row too (the same run merged twice?)")
                seen.add((r["seed"], r["board"]))
            rows += got
        seeds = sorted({r["seed"] for r in rows}, key=lambda s: (s == VALIDATION_SEED, s))
    else:
        seeds = args.seed or list(TUNING_SEEDS)
        if VALIDATION_SEED in seeds and not args.validation:
            ap.error(f"seed {VALIDATION_SEED} is the validation seed: run it only with the "
                     f"final rules, and say so with --validation")
        changes = {k: getattr(args, k) for k in _OPTIONS if getattr(args, k) is not None}
        try:
            settings = SimulationSettings(**changes)
        except (ValueError, TypeError) as e:
            message = str(e)
            named = next((k for k in changes if message.startswith(k + " ")), None)
            if named is not None:
                message = f"argument --{named.replace('_', '-')}: {message}"
            ap.error(message)
        count = args.deals - args.start if args.count is None else args.count
        if args.deals < 1 or not 0 <= args.start < args.deals or count < 1:
            ap.error(f"nothing to bid: --deals {args.deals}, --start {args.start}, "
                     f"--count {count} (want --deals >= 1, 0 <= --start < --deals, "
                     f"--count >= 1)")
        rows = []
        earlier = []
        if args.changed_from:
            try:
                earlier = read_boards(args.changed_from)
                seeds = sorted({r["seed"] for r in earlier})
                again = {(r["seed"], r["board"]) for r in changed_boards(earlier, settings)}
            except OSError as e:
                ap.error(f"--changed-from {args.changed_from}: {e.strerror or e}")
            except ValueError as e:
                ap.error(f"--changed-from {args.changed_from}: {e}")
            if VALIDATION_SEED in seeds and not args.validation:
                ap.error(f"--changed-from {args.changed_from} holds the validation seed "
                         f"{VALIDATION_SEED}: run it only with the final rules, and say so "
                         f"with --validation")
            print(f"{_plural(len(again), 'board')} of {len(earlier)} to bid again",
                  file=sys.stderr)
        try:                 # a damaged cache is named before any work (--changed-from's seeds)
            check_cache(args.cache, seeds)
        except ValueError as e:
            ap.error(f"--cache: {e}")
        for seed in seeds:
            if args.changed_from:
                chunk = []
                for r in sorted((r for r in earlier if r["seed"] == seed),
                                key=lambda r: r["board"]):
                    if (seed, r["board"]) in again:
                        new = run_chunk(seed, r["board"] - 1, 1, settings, args.cache,
                                        progress=False)
                        chunk += new
                        print(f"seed {seed} board {r['board']} bid again: hard "
                              f"{r['hard']['contract']} {r['hard']['imps']} -> "
                              f"{new[0]['hard']['contract']} {new[0]['hard']['imps']}",
                              file=sys.stderr, flush=True)
                    else:
                        chunk.append(dict(r, settings=asdict(settings)))
            else:
                chunk = run_chunk(seed, args.start, count, settings, args.cache)
            rows += chunk
            if args.boards:
                with open(args.boards, "a") as fh:
                    fh.writelines(json.dumps(r) + "\n" for r in chunk)
    summaries: Dict[str, dict] = {}
    for seed in seeds:
        mine = sorted((r for r in rows if r["seed"] == seed), key=lambda r: r["board"])
        summaries[str(seed)] = report(mine)
        if not args.json:
            tag = " (validation)" if seed == VALIDATION_SEED else ""
            print(format_report(summaries[str(seed)], f"Seed {seed}{tag}") + "\n")
    if len(seeds) > 1:
        tuning = [r for r in rows if r["seed"] != VALIDATION_SEED]
        if tuning:
            summaries["tuning"] = report(tuning)
            if not args.json:
                print(format_report(summaries["tuning"], "All tuning seeds") + "\n")
    if args.json:
        print(json.dumps(summaries, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
