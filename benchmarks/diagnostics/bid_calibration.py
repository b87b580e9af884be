"""Is the hard bidder's simulation right?  Its simulated gains against the real deals' gains.

    python -m benchmarks.diagnostics.bid_calibration run --seed 7 --deals 350 --out C.jsonl \\
        [--start 0] [--samples 48] [--bid-weights yes|no] [--cache 'dd_seed{seed}.jsonl']
    python -m benchmarks.diagnostics.bid_calibration report C.jsonl ... [--against B.jsonl ...]

``run`` bids each deal with the rules alone (``StandardAmerican``, four robots; the
duplicate cycle's dealer and vulnerability, as ``bidding_quality``).  At every call where the
hard bidder would simulate (:meth:`ai.bidding.simulation.SimulatingBidder.pool` gives two or
more candidates) it judges the candidates on ``--samples`` layouts of the seat's view
(:meth:`SimulatingBidder.evaluate`, every layout, no stops, untimed): the simulated gain of
each candidate over the rules' call, in IMPs for the deciding side, with its standard
error.  Then, for the measurement only, each candidate's *real* gain: the auction finished
by the system on the real deal after that candidate, scored double dummy (the deal's DD
table), against the rules' call finished the same way.  The real deal never reaches the
simulation.  One row per deal, with or without decisions (JSON lines, written to
``OUT.part`` and renamed when done).

``report`` says

* how well the simulated gains predict the real ones (mean real minus simulated, by kind of
  candidate and by bins of the simulated gain): a calibrated simulation has real minus
  simulated near 0 in every bin;
* what a choice among the rules' candidates could gain at most: an oracle that sees the real
  deal and departs once per deal (the best real gain of any candidate at any decision), and
  the same among the candidates that reach slam more often than the rules' call;
* what decision rules gain (the hard bidder's: the best simulated gain if it is at least
  ``margin`` IMPs and ``confidence`` standard errors; a grid of both): per deal, the real
  gain of the rule's first departure (later calls of that auction are the rules', so this is
  the gain of one departure, not of the whole hard bidder);
* with ``--against`` (rows of another ``run`` on the same deals, e.g. ``--bid-weights yes``),
  the same rules paired: the real gains are the same deal's, only the simulations differ.

Gains are IMPs per deal (every deal counts, those without a decision as 0).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import sys
from collections import defaultdict
from dataclasses import asdict
from typing import Dict, List, Optional, Sequence, Tuple

from ai.bidding import StandardAmerican
from ai.bidding.quality import check_cache, tables_for
from ai.bidding.simulation import (
    SimulatingBidder,
    SimulationSettings,
    departure,
    finish_auction,
)
from benchmarks.diagnostics.play_decisions import (
    at_least,
    check_out,
    positive,
    read_row_files,
    write_rows,
)
from benchmarks.quality.play_strength import mean_se
from ddsolver.auction import Auction
from ddsolver.deal import random_deals
from ddsolver.scoring import imps, score
from ddsolver.table import board_dealer, board_vulnerability

#: Decision rules of the report: (margin in IMPs, confidence in standard errors); the first
#: is the hard bidder's default.
RULES = ((0.5, 2.0), (0.5, 1.0), (0.5, 3.0), (1.0, 2.0), (0.0, 0.0))

#: A candidate "goes to slam" when the share of its layouts whose auction ends at the six or
#: seven level exceeds the rules' call's by more than this (20 percentage points); it "stays
#: out of slam" when the rules' call's exceeds its by more than this.
SLAM_SHARE = 0.2


def _real(system, deal, table, auction: Auction, call, vul, seat) -> Tuple[Optional[str], int]:
    """The contract the system reaches on the real deal after ``call`` and its DD score for
    ``seat``'s side (0 when passed out)."""
    a = auction.copy()
    a.add(call)
    c = finish_auction(system, deal, a, vul).contract
    if c is None:
        return None, 0
    tricks = int(table[int(c.strain)][int(c.declarer)])
    points = score(c, tricks, vul.is_vulnerable(c.declarer))
    return str(c), points if c.declarer.side == seat.side else -points


def run(seed: int, start: int, count: int, settings: SimulationSettings,
        cache: Optional[str] = None, progress: bool = True):
    """Rows of deals ``start+1 .. start+count`` of ``seed`` (see the module docstring), each
    decision judged on ``settings.samples`` layouts."""
    deals = random_deals(seed, start + count)[start:]
    tables = tables_for(deals, cache.replace("{seed}", str(seed)) if cache else None,
                        progress=progress)
    system = StandardAmerican()
    bidder = SimulatingBidder(StandardAmerican(), settings, seed=f"bcal:{seed}")
    try:
        for k, (deal, table) in enumerate(zip(deals, tables)):
            board = start + k + 1
            dealer, vul = board_dealer(board), board_vulnerability(board)
            auction, decisions = Auction(dealer), []
            while not auction.is_finished:
                seat = auction.to_act
                rules_call, pool = bidder.pool(deal[seat], auction, vul)
                if len(pool) >= 2:
                    rng = random.Random(f"bcal:{seed}:{board}:{len(auction.calls)}")
                    ev = bidder.evaluate(deal[seat], auction, vul, pool, rng,
                                         stops=False)
                    n = len(ev.finals)
                    gains = [(0.0, 0.0)] + [ev.gain(j) for j in range(1, len(pool))]
                    real = [_real(system, deal, table, auction, c, vul, seat) for c in pool]
                    decisions.append({
                        "at": len(auction.calls), "seat": seat.letter,
                        "candidates": [str(c) for c in pool],
                        "sim": [round(g, 3) for g, _ in gains],
                        "se": [round(e, 3) if math.isfinite(e) else None for _, e in gains],
                        "layouts": n,
                        "slam": [round(sum(1 for f in ev.finals if f[j] is not None
                                           and f[j].level >= 6) / max(1, n), 3)
                                 for j in range(len(pool))],
                        "real_contract": [c for c, _ in real],
                        "real_gain": [imps(s - real[0][1]) for _, s in real]})
                auction.add(rules_call)
            if progress:
                print(f"seed {seed} board {board}: {len(decisions)} decisions", file=sys.stderr,
                      flush=True)
            yield {"seed": seed, "board": board, "deal": str(deal), "dealer": dealer.letter,
                   "vulnerability": vul.pbn, "auction": " ".join(str(c) for c in auction.calls),
                   "decisions": decisions, "samples": settings.samples,
                   "bid_weights": settings.bid_weights}
    finally:
        bidder.close()


# -- the report ----------------------------------------------------------------------------
def _kind(d: dict, j: int) -> str:
    up = d["slam"][j] - d["slam"][0]
    c = d["candidates"][j]
    if up > SLAM_SHARE:
        return "goes to slam"
    if up < -SLAM_SHARE:
        return "stays out of slam"
    return {"Pass": "Pass", "X": "double", "XX": "redouble"}.get(c, "another bid")


def choice(d: dict, margin: float, confidence: float) -> int:
    """The candidate a rule picks at decision ``d``: the hard bidder's rule
    (:func:`ai.bidding.simulation.departure`) on the simulated gains and standard errors."""
    errors = [math.inf if e is None else e for e in d["se"]]
    return departure(d["sim"], errors, margin, confidence)


def first_departure(row: dict, margin: float, confidence: float) -> Tuple[float, bool]:
    """The real gain of a rule's first departure in ``row`` (0 if it never departs)."""
    for d in row["decisions"]:
        j = choice(d, margin, confidence)
        if j:
            return float(d["real_gain"][j]), True
    return 0.0, False


def _fmt(m: float, se: float, digits: int = 3) -> str:
    return f"{m:+.{digits}f} ± {se:.{digits}f}"


def _by_deal(rows: Sequence[dict], what: str) -> Dict[Tuple[int, int], dict]:
    out: Dict[Tuple[int, int], dict] = {}
    for r in rows:
        key = (r["seed"], r["board"])
        if key in out:
            raise ValueError(f"{what} hold seed {key[0]} board {key[1]} twice")
        out[key] = r
    return out


def report(rows: List[dict], against: Sequence[dict] = ()) -> None:
    """Print the tables of the module docstring for ``rows`` (and ``against``).

    :raises ValueError: if a deal is in the rows twice, or ``against`` lacks a deal of
        ``rows``.
    """
    _by_deal(rows, "the rows")
    other = _by_deal(against, "the --against rows")
    missing = [r for r in rows if other.get((r["seed"], r["board"]), {}).get("deal")
               != r.get("deal")]
    if against and missing:
        raise ValueError(f"{len(missing)} deals of the rows are not in --against "
                         f"(e.g. seed {missing[0]['seed']} board {missing[0]['board']})")
    decisions = [d for r in rows for d in r["decisions"]]
    alts = [(d, j) for d in decisions for j in range(1, len(d["candidates"]))]
    print(f"{len(rows)} deals, {len(decisions)} decisions simulated, {len(alts)} "
          f"alternatives to the rules' call")
    kinds: Dict[str, list] = defaultdict(list)
    bins: Dict[int, list] = defaultdict(list)
    for d, j in alts:
        pair = (d["sim"][j], d["real_gain"][j])
        kinds["every alternative"].append(pair)
        kinds[_kind(d, j)].append(pair)
        bins[max(-6, min(6, 2 * math.floor(pair[0] / 2)))].append(pair)
    print("\nreal minus simulated gain, IMPs (0 when calibrated):")
    print("| candidate | n | simulated | real | real minus simulated |\n|---|---|---|---|---|")
    for k, v in kinds.items():
        print(f"| {k} | {len(v)} | {sum(s for s, _ in v) / len(v):+.2f} | "
              f"{sum(r for _, r in v) / len(v):+.2f} | "
              f"{_fmt(*mean_se([r - s for s, r in v]))} |")
    print("\nby the simulated gain:")
    print("| simulated gain | n | mean simulated | mean real |\n|---|---|---|---|")
    for b in sorted(bins):
        v = bins[b]
        label = f"< {b + 2}" if b == -6 else f">= {b}" if b == 6 else f"{b} to {b + 2}"
        print(f"| {label} | {len(v)} | {sum(s for s, _ in v) / len(v):+.2f} | "
              f"{_fmt(*mean_se([r for _, r in v]), 2)} |")
    n = len(rows)
    oracle = [max([0] + [g for d in r["decisions"] for g in d["real_gain"]]) for r in rows]
    slam = [max([0] + [d["real_gain"][j] for d in r["decisions"]
                       for j in range(1, len(d["candidates"])) if _kind(d, j) == "goes to slam"])
            for r in rows]
    print(f"\nan oracle that sees the real deal and departs once per deal: "
          f"{_fmt(*mean_se(oracle))} IMPs per deal; among the candidates that go to slam "
          f"only: {_fmt(*mean_se(slam))}")
    print("\nthe rules' first departure, real gain per deal:")
    head = ("| margin | confidence | gain per deal | minus the first rule's, paired "
            "| deals departed |")
    if against:
        head += " --against: gain per deal | paired, these rows minus --against |"
    print(head)
    print("|---|---|---|---|---|" + ("---|---|" if against else ""))
    first = [first_departure(r, *RULES[0])[0] for r in rows]
    for margin, confidence in RULES:
        res = [first_departure(r, margin, confidence) for r in rows]
        paired = _fmt(*mean_se([g - f for (g, _), f in zip(res, first)]))
        line = (f"| {margin} | {confidence} | {_fmt(*mean_se([g for g, _ in res]))} | "
                f"{paired} | {sum(x for _, x in res)} of {n} |")
        if against:
            base = [first_departure(other[(r['seed'], r['board'])], margin, confidence)[0]
                    for r in rows]
            line += (f" {_fmt(*mean_se(base))} | "
                     f"{_fmt(*mean_se([g - b for (g, _), b in zip(res, base)]))} |")
        print(line)


#: The most deals a run may reach (``--start`` plus ``--deals``): the deals before
#: ``--start`` are dealt too, so a larger stream would take long with no output.
MAX_DEALS = 100_000

_LISTS = ("candidates", "sim", "se", "slam", "real_gain")


def _number(x, low: float, high: float) -> bool:
    """Whether ``x`` is a JSON number (not a bool) within ``[low, high]``."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    try:
        return low <= float(x) <= high
    except OverflowError:           # an integer too large for a float
        return False


def _problem(row) -> Optional[str]:
    """Why ``row`` is not a whole row of ``run`` (``None`` if it is): the deal's seed and
    board, every decision's lists of one length (two candidates at least), candidates as
    calls' names, gains in IMPs (-24 to 24), standard errors >= 0 (or ``null``), slam
    shares 0 to 1."""
    if not isinstance(row, dict):
        return "not a JSON object"
    if isinstance(row.get("seed"), bool) or not isinstance(row.get("seed"), int) \
            or row["seed"] < 0:
        return "no seed (an integer >= 0)"
    if isinstance(row.get("board"), bool) or not isinstance(row.get("board"), int) \
            or row["board"] < 1:
        return "no board (an integer >= 1)"
    if not isinstance(row.get("decisions"), list):
        return "no list of decisions"
    for d in row["decisions"]:
        if not isinstance(d, dict) or not all(isinstance(d.get(k), list) for k in _LISTS):
            return "a decision without the lists " + ", ".join(_LISTS)
        if len({len(d[k]) for k in _LISTS}) != 1 or len(d["sim"]) < 2:
            return "a decision whose lists differ in length or hold one candidate"
        if not all(isinstance(c, str) and c for c in d["candidates"]):
            return "a candidate that is not a call's name"
        if not all(_number(x, -24, 24) for x in d["sim"] + d["real_gain"]):
            return "a gain that is not a number of IMPs from -24 to 24"
        if not all(e is None or _number(e, 0, math.inf) for e in d["se"]):
            return "a standard error that is not a number >= 0"
        if not all(_number(x, 0, 1) for x in d["slam"]):
            return "a slam share that is not a number from 0 to 1"
    return None


def _read(files: Sequence[str], ap) -> List[dict]:
    """The rows of ``files``, every one checked (:func:`_problem`); ``ap.error`` names the
    first file and row that is not a row of ``run``."""
    rows = []
    for f in files:
        got = read_row_files([f], ap.error)
        for i, r in enumerate(got):
            why = _problem(r)
            if why:
                ap.error(f"{f}: row {i + 1} is not a row that 'run' writes: {why}")
        rows += got
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.diagnostics.bid_calibration",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="{run,report}")
    r = sub.add_parser("run", help="simulated and real gains at the rules' auction's choices")
    r.add_argument("--seed", type=at_least(0, "a seed is an integer >= 0"), required=True)
    r.add_argument("--start", type=at_least(0, "a start is an integer >= 0"), default=0,
                   help="deals to skip: --start 2 begins at board 3 (default 0)")
    r.add_argument("--deals", type=positive("a count of deals is a positive integer"),
                   required=True)
    r.add_argument("--samples", type=positive("a count of layouts is a positive integer"),
                   default=48, help="layouts per decision (default 48, the hard bidder's)")
    r.add_argument("--bid-weights", choices=("yes", "no"), default="no",
                   help="weigh the layouts by the hidden seats' calls (default no)")
    r.add_argument("--cache", metavar="PATH", help="DD tables of the deals, read and written "
                                                   "('{seed}' is replaced by the seed)")
    r.add_argument("--out", required=True, metavar="ROWS.jsonl")
    p = sub.add_parser("report", help="print the calibration and the decision rules' gains")
    p.add_argument("files", nargs="+", metavar="ROWS.jsonl")
    p.add_argument("--against", nargs="+", default=[], metavar="ROWS.jsonl",
                   help="rows of another run on the same deals: the rules paired")
    args = ap.parse_args(argv)
    if args.cmd == "report":
        rows = _read(args.files, p)
        against = _read(args.against, p) if args.against else []
        try:
            report(rows, against)
            sys.stdout.flush()              # a closed pipe shows here, not at exit
        except ValueError as e:
            p.error(str(e))
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            p.error(f"a row is not a complete row of 'run' ({type(e).__name__}: {e})")
        except BrokenPipeError:             # e.g. `report ... | head`: the reader has gone
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError as e:                # e.g. a full disk under `report > FILE`
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            print(f"error: cannot write the report: {e.strerror or e}", file=sys.stderr)
            return 1
        return 0
    check_out(args.out)
    if args.start + args.deals > MAX_DEALS:
        r.error(f"--start + --deals at most {MAX_DEALS:,} (the deals before --start are "
                f"dealt too)")
    if args.cache is not None:
        cache = args.cache.replace("{seed}", str(args.seed))
        if not os.path.basename(cache):
            r.error(f"--cache {cache!r}: no file name")
        if os.path.realpath(cache) == os.path.realpath(args.out):
            r.error(f"--cache {cache}: the same file as --out")
        folder = os.path.dirname(cache) or "."
        if os.path.isdir(cache) or not os.path.isdir(folder):
            r.error(f"--cache {cache}: " + ("it is a directory" if os.path.isdir(cache)
                                               else f"no folder {folder}"))
        try:                                # a damaged cache is named before any work
            check_cache(args.cache, [args.seed])
        except ValueError as e:
            r.error(f"--cache: {e}")
    settings = SimulationSettings(threads=1, samples=args.samples,
                                  bid_weights=args.bid_weights == "yes").untimed()
    def stop(signum, frame):                # kill (SIGTERM) ends the run as Ctrl-C does
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    try:
        n = write_rows(args.out, run(args.seed, args.start, args.deals, settings, args.cache))
    except KeyboardInterrupt:
        part = os.path.realpath(args.out) + ".part"
        print("interrupted: " + (f"the finished deals are in {part}" if os.path.exists(part)
                                 else "no deal was finished, nothing written")
              + f" ({args.out} unchanged)", file=sys.stderr)
        return 130
    except (OSError, ValueError) as e:
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(f"{n} deal{'s' if n != 1 else ''} written to {args.out} "
          f"({json.dumps(asdict(settings))})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
