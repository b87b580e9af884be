"""Where the Monte Carlo declarer's losses come from: its layouts' calibration, and strategy fusion.

    python -m benchmarks.diagnostics.posterior calibrate D.jsonl --out C.jsonl \\
        [--samples 120] [--part 0/2] [--set NAME=VALUE ...]
    python -m benchmarks.diagnostics.posterior rollouts D.jsonl --out R.jsonl \\
        [--samples 24] [--delta 1.0] [--part 0/2]
    python -m benchmarks.diagnostics.posterior report C.jsonl ... [--risk W [--risk-share S]]
    python -m benchmarks.diagnostics.posterior report R.jsonl ...

``D.jsonl`` holds the decisions (:mod:`benchmarks.diagnostics.play_decisions`
``collect``; for ``calibrate`` collect them with ``--all``: a file of only the decisions
that can lose a trick in the real deal is a selection made with the real deal, and leaves
out the losses the layouts expect at every other decision, which makes any player look
over-confident; ``report`` says so when the rows are such a selection).  At each one the
deciding seat's view (nothing else) is dealt by the ``"auction"`` sampler with the hard
level's options (play weights on, the calls' weights off) or the ones given, and every
layout is solved for every legal card.

``calibrate`` asks whether the layouts' beliefs are right: for each legal card, ``q`` is the
weighted share of layouts in which the card keeps the layout's double-dummy value, and the
report compares ``q`` with how often the card keeps the real deal's value, bin by bin,
separately for sampled and enumerated (every layout, late in the play) decisions.  It also
gives the tricks that the plain choice on those layouts (best mean utility, in tricks or in
IMPs for the contract) loses per deal against the real deal's best card.  A calibrated
``q`` that is often far from 0 and 1 means the losses are decisions the seat's information
does not settle.

``rollouts`` asks whether strategy fusion costs tricks: Monte Carlo values a card as if
declarer would know the layout at every later decision.  Among the cards within ``--delta``
IMPs of the best on ``--samples`` layouts, each is instead played out in every layout:
declarer's later cards are chosen the same way on the layouts still consistent with the
cards seen since (so it does not know which one is real), the defenders play double dummy
in that layout (as the benchmark's defenders do), and the card with the best mean IMPs at
the end is chosen.  The report counts the decisions where this changes the card, and the
tricks lost per deal by both choices, paired.  Declarer's decisions only.

The real deal is used to build each view and to score the choices, never by the choices.
"""

from __future__ import annotations

import argparse
import ast
import random
import sys
from collections import Counter
from dataclasses import fields
from typing import Dict, List, Tuple

import numpy as np

from ai.cardplay import _tail_loss, position_in
from ai.robot import LEVELS
from ai.sampling import SamplingError, SamplingSettings, sample_deals
from benchmarks.diagnostics.play_decisions import (
    at_least,
    check_out,
    decision_view,
    positive,
    read_decisions,
    read_row_files,
    write_rows,
)
from benchmarks.quality.play_strength import _system, mean_se
from ddsolver.scoring import imps, score
from ddsolver.solver import Solver

_SETTINGS = {f.name for f in fields(SamplingSettings)}

#: The hard level's sampler options, one thread.
HARD = {**dict(LEVELS["hard"].sampling), "threads": 1}


def _key(d: dict) -> List:
    return [d["seed"], d["member"], d["test"], d["played"]]


def _layouts(view, n: int, d: dict, options: dict, system, stream: str):
    # each decision's own random numbers, named after the decision (and the command)
    if stream == "calib":
        rng = random.Random(f"calib:{d['seed']}:{d['member']}:{d['played']}")
    else:
        rng = random.Random(f"posterior:{d['seed']}:{d['member']}:{d['test']}:{d['played']}")
    return sample_deals(view, n, rng, method="auction", system=system, **options)


def _scores(view) -> Tuple[Dict[int, int], int]:
    """Declarer's score for each trick count, and the tricks declarer has already won."""
    vulnerable = view.vulnerability.is_vulnerable(view.declarer)
    return ({t: score(view.contract, t, vulnerable) for t in range(14)},
            view.declarer_tricks)


def calibrate(decisions: List[dict], samples: int, options: dict):
    """One row per decision: the legal cards, the layouts' weights and every card's value in
    each layout (tricks for the side to move from here on), and the real deal's values."""
    system = _system()
    solver = Solver(memory_mb=128)
    for d in decisions:
        view = decision_view(d, system)
        dealt = _layouts(view, samples, d, options, system, "calib")
        legal = view.legal_cards
        trick = view.current_trick
        leader = trick[0][0] if trick else view.to_play
        masks = np.array([position_in(view, w).masks() for w in dealt.deals], dtype=np.uint64)
        values = solver.solve_layouts(masks, view.trump, leader, [c for _, c in trick])
        scores, done = _scores(view)
        yield {"key": _key(d), "equal": bool(d.get("equal", False)),
               "cards": [str(c) for c in legal],
               "weights": [float(w) for w in dealt.weights], "exact": bool(dealt.exact),
               "values": values[:, [c.index for c in legal]].tolist(),
               "declarer_side": view.to_play.side == view.declarer.side,
               "left": 13 - len(view.tricks) + (1 if trick else 0),
               "scores": scores, "done": done,
               "real": d["values"]}


def _side_score(row: dict, tricks: int) -> int:
    """The deciding side's score when it takes ``tricks`` of the tricks left."""
    t = row["done"] + (tricks if row["declarer_side"] else row["left"] - tricks)
    points = row["scores"][str(t)]
    return points if row["declarer_side"] else -points


def _pick(row: dict, utility: str, risk: float = 0.0, share: float = 0.25) -> int:
    """Index of the card the plain choice makes on the row's layouts; with ``risk``, at
    declarer's decisions, the utility plus ``risk`` times the tail loss over the worst
    ``share`` of the layouts (:attr:`ai.cardplay.PlaySettings.declarer_risk`)."""
    w, vals = row["weights"], row["values"]
    total = sum(w) or 1.0
    m = len(row["cards"])
    tricks = [0.0] * m
    util = [0.0] * m
    for wi, r in zip(w, vals):
        sc = [_side_score(row, v) for v in r]
        top = max(sc)
        for j in range(m):
            tricks[j] += wi * r[j] / total
            util[j] += wi * imps(sc[j] - top) / total
    if risk and row["declarer_side"]:
        tops = [max(r) for r in vals]
        for j in range(m):
            tail = _tail_loss([r[j] - t for r, t in zip(vals, tops)], w, total, share)
            (tricks if utility == "tricks" else util)[j] += risk * tail
    first, second = (tricks, util) if utility == "tricks" else (util, tricks)
    rank = "23456789TJQKA"
    return max(range(m), key=lambda j: (round(first[j], 9), round(second[j], 9),
                                        -rank.index(row["cards"][j][1])))


def report_calibration(rows: List[dict], risk: float = 0.0, share: float = 0.25) -> None:
    bins = {True: Counter(), False: Counter()}
    for row in rows:
        w, vals = row["weights"], row["values"]
        total = sum(w) or 1.0
        best = [max(r) for r in vals]
        real_best = max(row["real"].values())
        for j, card in enumerate(row["cards"]):
            q = sum(wi for wi, r, b in zip(w, vals, best) if r[j] == b) / total
            b = min(int(q * 10), 9)
            c = bins[row["exact"]]
            c[(b, "n")] += 1
            c[(b, "q")] += q
            c[(b, "real")] += row["real"][card] == real_best
    for exact in (False, True):
        c = bins[exact]
        print(f"{'enumerated' if exact else 'sampled'} decisions: share of layouts where the "
              f"card keeps the value (q) against the real deal")
        print("| q | cards | mean q | keeps it in the real deal |\n|---|---|---|---|")
        for b in range(10):
            n = c[(b, "n")]
            if n:
                print(f"| {b / 10:.1f}-{(b + 1) / 10:.1f} | {n} | {c[(b, 'q')] / n:.3f} | "
                      f"{c[(b, 'real')] / n:.3f} |")
    deals = sorted({tuple(r["key"][:3]) for r in rows})
    lost = {u: Counter() for u in ("tricks", "IMPs")}
    expected = {u: Counter() for u in lost}
    for row in rows:
        real_best = max(row["real"].values())
        w, vals = row["weights"], row["values"]
        total = sum(w) or 1.0
        for u in lost:
            j = _pick(row, u)
            lost[u][tuple(row["key"][:3])] += real_best - row["real"][row["cards"][j]]
            expected[u][tuple(row["key"][:3])] += sum(
                wi * (max(r) - r[j]) for wi, r in zip(w, vals)) / total
    for u in lost:
        m, se = mean_se([lost[u][k] for k in deals])
        e, _ = mean_se([expected[u][k] for k in deals])
        print(f"best mean {u}: tricks lost per deal {m:.3f} ± {se:.3f} (the layouts "
              f"expected {e:.3f})")
    m, se = mean_se([lost["tricks"][k] - lost["IMPs"][k] for k in deals])
    print(f"tricks minus IMPs, paired: {m:+.3f} ± {se:.3f} ({len(rows)} decisions, "
          f"{len(deals)} deals)")
    if risk:
        loss = {u: {"tricks": Counter(), "IMPs": Counter()} for u in ("plain", "risk")}
        changed = 0
        for row in rows:
            key = tuple(row["key"][:3])
            real = [row["real"][c] for c in row["cards"]]
            top = max(_side_score(row, v) for v in real)
            picks = {"plain": _pick(row, "IMPs"), "risk": _pick(row, "IMPs", risk, share)}
            changed += picks["plain"] != picks["risk"]
            for u, j in picks.items():
                loss[u]["tricks"][key] += max(real) - real[j]
                loss[u]["IMPs"][key] -= imps(_side_score(row, real[j]) - top)
        m, se = mean_se([loss["risk"]["tricks"][k] for k in deals])
        print(f"best mean IMPs + {risk:g} x tail loss (worst {share:.0%} of the layouts; "
              f"declarer's decisions): tricks lost per deal {m:.3f} ± {se:.3f}; "
              f"{changed} choices differ from best mean IMPs")
        for what in ("tricks", "IMPs"):
            m, se = mean_se([loss["risk"][what][k] - loss["plain"][what][k] for k in deals])
            i, _ = mean_se([loss["plain"][what][k] for k in deals])
            print(f"  {what} lost per deal, paired against best mean IMPs ({i:.3f}): "
                  f"{m:+.3f} ± {se:.3f}")
    if not any(row.get("equal") for row in rows):
        print("note: no decision here has all its cards equal in the real deal, so these "
              "rows are the decisions that can lose a trick, chosen with the real deal: "
              "the layouts' expected losses at the other decisions are missing and every "
              "figure above leans towards over-confidence (collect with --all)")


def rollouts(decisions: List[dict], samples: int, delta: float):
    """One row per declarer decision: the plain choice on the layouts, the candidates within
    ``delta`` IMPs of it, and each candidate's mean IMPs and tricks when played out."""
    system = _system()
    solver = Solver(memory_mb=128)
    for d in decisions:
        view = decision_view(d, system)
        if view.to_play.side != view.declarer.side:
            continue
        dealt = _layouts(view, samples, d, dict(HARD), system, "rollouts")
        yield _rollout_row(d, view, dealt, solver, delta)


def _rollout_row(d: dict, view, dealt, solver: Solver, delta: float) -> dict:
    worlds = [position_in(view, w) for w in dealt.deals]
    weights = list(dealt.weights)
    total = sum(weights) or 1.0
    pts, done = _scores(view)
    side = int(view.declarer.side)
    trump = view.trump
    consistent = {(): dict(enumerate(worlds))}
    choices: Dict[tuple, tuple] = {}

    def still(seq: tuple) -> dict:
        # the layouts in which every card seen since the decision could have been played
        if seq not in consistent:
            cur = {}
            for j, p in still(seq[:-1]).items():
                if p.is_legal(seq[-1]):
                    q = p.copy()
                    q.play(seq[-1])
                    cur[j] = q
            consistent[seq] = cur
        return consistent[seq]

    def declarer_card(seq: tuple):
        # the plain choice (best mean IMPs, then tricks, then the lowest card) on the
        # layouts still consistent: the same for every layout, as declarer cannot tell
        if seq not in choices:
            here = still(seq)
            js = list(here)
            p0 = here[js[0]]
            legal = p0.legal_cards
            util = np.zeros(len(legal))
            tricks = np.zeros(len(legal))
            masks = np.array([here[j].masks() for j in js], dtype=np.uint64)
            vals = solver.solve_layouts(masks, trump, p0.leader, p0.trick_cards)
            for r, j in enumerate(js):
                t = [done + here[j].tricks_won[side] + int(vals[r, c.index]) for c in legal]
                sc = [pts[x] for x in t]
                util += weights[j] * np.array([imps(x - max(sc)) for x in sc])
                tricks += weights[j] * np.array(t)
            order = sorted(range(len(legal)), key=lambda k: (-round(util[k], 9),
                                                             -round(tricks[k], 9),
                                                             int(legal[k].rank)))
            choices[seq] = (legal[order[0]],
                            {legal[k]: (util[k] / total, tricks[k] / total)
                             for k in range(len(legal))})
        return choices[seq]

    def defender_card(p):
        values = solver.solve(p)
        best = max(values.values())
        return min((c for c, v in values.items() if v == best),
                   key=lambda c: (int(c.rank), int(c.suit)))

    def play_out(card, j: int) -> int:
        p = worlds[j].copy()
        seq = (card,)
        p.play(card)
        while not p.is_finished:
            if len(p.legal_cards) == 1:
                c = p.legal_cards[0]
            elif int(p.to_move.side) == side:
                c = declarer_card(seq)[0]
            else:
                c = defender_card(p)
            p.play(c)
            seq += (c,)
        return done + p.tricks_won[side]

    plain, root = declarer_card(())
    top = max(u for u, _ in root.values())
    candidates, seen = [], set()
    for c in sorted(root, key=lambda c: (-root[c][0], -root[c][1], int(c.rank))):
        shape = (round(root[c][0], 9), round(root[c][1], 9), int(c.suit))
        if root[c][0] >= top - delta and shape not in seen:
            seen.add(shape)
            candidates.append(c)
    candidates = candidates[:4]
    played_out = {}
    if len(candidates) > 1:
        t = {c: [play_out(c, j) for j in range(len(worlds))] for c in candidates}
        for c in candidates:
            u = sum(w * imps(pts[t[c][j]] - max(pts[t[x][j]] for x in candidates))
                    for j, w in enumerate(weights))
            played_out[str(c)] = (u / total, sum(w * x for w, x in zip(weights, t[c])) / total)
    real = d["values"]
    best = max(real.values())
    return {"key": _key(d), "plain": str(plain), "candidates": [str(c) for c in candidates],
            "played_out": played_out,
            "losses": {str(c): best - real[str(c)] for c in candidates}}


def report_rollouts(rows: List[dict]) -> None:
    deals = sorted({tuple(r["key"][:3]) for r in rows})
    plain, out = Counter(), Counter()
    changed = better = worse = with_rollouts = 0
    for row in rows:
        k = tuple(row["key"][:3])
        loss = row["losses"][row["plain"]]
        plain[k] += loss
        card = row["plain"]
        if row["played_out"]:
            with_rollouts += 1
            order = {c: i for i, c in enumerate(row["candidates"])}
            po = row["played_out"]
            card = max(po, key=lambda c: (round(po[c][0], 9), round(po[c][1], 9), -order[c]))
        out[k] += row["losses"][card]
        if card != row["plain"]:
            changed += 1
            better += row["losses"][card] < loss
            worse += row["losses"][card] > loss
    print(f"{len(rows)} declarer decisions, {with_rollouts} with two or more candidates "
          f"played out; the card changed at {changed} ({better} better, {worse} worse)")
    for name, c in (("plain", plain), ("played out", out)):
        m, se = mean_se([c[k] for k in deals])
        print(f"{name}: tricks lost per deal {m:.3f} ± {se:.3f}")
    m, se = mean_se([out[k] - plain[k] for k in deals])
    print(f"played out minus plain, paired: {m:+.3f} ± {se:.3f} ({len(deals)} deals)")


def _part(text: str) -> Tuple[int, int]:
    i, _, n = text.partition("/")
    try:
        i, n = int(i), int(n)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a part is I/N, e.g. 0/2, not {text!r}")
    if not 0 <= i < n:
        raise argparse.ArgumentTypeError(f"part {i} of {n} does not exist")
    return i, n


def _share(text: str) -> float:
    """An argparse type: a share of the layouts in (0, 1]."""
    try:
        x = float(text)
    except ValueError:
        x = None
    if x is None or not 0 < x <= 1:
        raise argparse.ArgumentTypeError(f"a share in (0, 1], not {text!r}")
    return x


def _sampler_option(text: str) -> Tuple[str, object]:
    """``NAME=VALUE``: a field of :class:`ai.sampling.SamplingSettings` and a Python literal."""
    name, eq, value = text.partition("=")
    if not eq or name not in _SETTINGS:
        known = [f.name for f in fields(SamplingSettings)]
        raise argparse.ArgumentTypeError(
            f"{text!r} is not NAME=VALUE with NAME one of: {', '.join(known)}")
    try:
        return name, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        raise argparse.ArgumentTypeError(f"{value!r} is not a Python literal (e.g. 52, 0.05, "
                                         f"True, None)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.diagnostics.posterior",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="{calibrate,rollouts,report}")
    helps = {"calibrate": "the layouts' beliefs against the real deals (rows for 'report')",
             "rollouts": "plain choice against playing the close cards out (rows for "
                         "'report')",
             "report": "print the tables of 'calibrate' or 'rollouts' rows"}
    for name in ("calibrate", "rollouts"):
        c = sub.add_parser(name, help=helps[name], description=helps[name])
        c.add_argument("decisions", help="decisions: the file 'python -m benchmarks."
                                         "diagnostics.play_decisions collect --all' writes")
        c.add_argument("--out", required=True, metavar="ROWS.jsonl",
                       help="where the rows go (JSON lines, one per decision)")
        default = 120 if name == "calibrate" else 24
        c.add_argument("--samples", type=positive("a count of layouts is a positive integer"),
                       default=default, metavar="N",
                       help=f"layouts dealt per decision (default {default})")
        c.add_argument("--part", type=_part, default=(0, 1), metavar="I/N",
                       help="only every N-th decision from the I-th, to split a run among N "
                            "processes (default 0/1: all)")
        if name == "calibrate":
            c.add_argument("--set", dest="options", type=_sampler_option, action="append",
                           default=[], metavar="NAME=VALUE",
                           help="a sampler option instead of the hard level's (repeatable; "
                                "e.g. --set play_checks=52)")
        else:
            c.add_argument("--delta", type=at_least(0.0, "a number of IMPs >= 0", float),
                           default=1.0, metavar="IMPS",
                           help="cards within this many IMPs of the best mean are played out "
                                "(default 1.0)")
    r = sub.add_parser("report", help=helps["report"], description=helps["report"])
    r.add_argument("files", nargs="+", metavar="ROWS.jsonl",
                   help="rows of one kind ('calibrate' or 'rollouts')")
    r.add_argument("--risk", type=at_least(0.0, "a weight >= 0", float), default=0.0,
                   metavar="W", help="calibrate rows: also the choice with a tail-loss "
                                     "term of this weight at declarer's decisions")
    r.add_argument("--risk-share", type=_share, default=0.25, metavar="S",
                   help="the share of the layouts in the tail (default 0.25)")
    args = ap.parse_args(argv)
    if args.cmd == "report":
        rows = read_row_files(args.files, ap.error)
        kinds = {"rollouts" if isinstance(row, dict) and {"played_out", "plain"} <= set(row)
                 else "calibrate" if isinstance(row, dict) and {"values", "weights"} <= set(row)
                 else None for row in rows}
        if None in kinds:
            ap.error("the files hold rows that 'calibrate' and 'rollouts' do not write")
        if len(kinds) > 1:
            ap.error("the files mix 'calibrate' and 'rollouts' rows")
        try:
            if kinds == {"rollouts"}:
                report_rollouts(rows)
            else:
                report_calibration(rows, args.risk, args.risk_share)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            ap.error(f"a row is not a complete row of 'calibrate' or 'rollouts' "
                     f"({type(e).__name__}: {e})")
        return 0
    check_out(args.out)
    decisions = read_decisions(args.decisions)
    i, n = args.part
    decisions = decisions[i::n]
    if args.cmd == "calibrate":
        options = {**HARD, **dict(args.options)}
        try:
            SamplingSettings(**{k: v for k, v in options.items()
                                if k in _SETTINGS}).checked()
        except SamplingError as e:
            ap.error(str(e))
        rows = calibrate(decisions, args.samples, options)
    else:                              # a decision of equal cards cannot lose a trick
        rows = rollouts([d for d in decisions if not d.get("equal")], args.samples,
                        args.delta)
    write_rows(args.out, rows)         # via OUT.part: a failed run leaves OUT as it was
    return 0


if __name__ == "__main__":
    sys.exit(main())
