"""Card-play decisions that matter, replayed under other settings (a fast tuning tool).

    python -m benchmarks.diagnostics.play_decisions collect R.jsonl --out D.jsonl [--all]
    python -m benchmarks.diagnostics.play_decisions eval D.jsonl hard "hard:samples=200" \\
        "hard:early_stop=0,equal_stop=0" [--deals 100] [--threads 1]

``collect`` reads the rows of ``benchmarks.quality.play_strength`` (tests ``declarer`` and
``defence``, which record the play) and keeps every decision of the computer's side whose
legal cards do not all have the same double-dummy value in the real deal (the other
decisions cannot lose a trick).  ``eval`` asks each configuration for its card at each of
those decisions (the same seeds as the benchmark) and counts the tricks the card loses
double dummy against the best card, per deal, with paired differences against the first
configuration.  The positions come from one player's trajectory, so the totals estimate
(to first order) the tricks lost per deal without replaying whole deals: most decisions
are skipped, which makes a comparison several times cheaper than the whole benchmark.
A configuration is a player of ``play_strength`` (``easy``, ``medium``, ``hard``,
``plain``, ``auction``) with ``:name=value,...`` overrides of its
:class:`ai.cardplay.PlaySettings`.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
from typing import Dict, List

from benchmarks.quality import play_strength as ps
from ddsolver.auction import Auction
from ddsolver.cards import Card
from ddsolver.deal import Deal
from ddsolver.play import Position
from ddsolver.solver import Solver
from ddsolver.table import Seat, Vulnerability


def collect(rows: List[dict], every: bool = False) -> List[dict]:
    """The decisions that matter in the rows' plays.

    With ``every``, also the decisions of two or more legal cards whose cards all have the
    same value in the real deal (marked ``"equal": true``): they cannot lose a trick, but a
    player's layouts may expect them to, so a calibration that leaves them out counts the
    losses the layouts expect only where the real deal had something to lose.
    """
    solver = Solver(memory_mb=64)
    out = []
    for row in rows:
        if row["test"] not in ("declarer", "defence") or "play" not in row:
            continue
        deal = Deal.from_pbn(row["deal"])
        dealer = Seat.coerce(row["dealer"])
        auction = Auction.from_str(dealer, row["auction"])
        declarer = auction.declarer
        side = declarer.side if row["test"] == "declarer" else declarer.lho.side
        pos = Position(deal, trump=auction.contract.strain, leader=declarer.lho)
        cards = [Card.from_str(c) for c in row["play"].split()]
        for i, card in enumerate(cards):
            seat = pos.to_move
            if seat.side == side and len(pos.legal_cards) > 1:
                values = solver.solve(pos)
                equal = len(set(values.values())) == 1
                if every or not equal:
                    out.append({"seed": row["seed"], "member": row["member"],
                                "test": row["test"], "deal": row["deal"],
                                "dealer": row["dealer"],
                                "vulnerability": row["vulnerability"],
                                "auction": row["auction"], "played": i,
                                "play": row["play"],
                                "values": {str(c): v for c, v in values.items()},
                                **({"equal": True} if equal else {})})
            pos.play(card)
    return out


def parse_config(text: str):
    name, _, rest = text.partition(":")
    over = {}
    items, depth, cur = [], 0, ""
    for ch in rest:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        items.append(cur)
    if items:
        for item in items:
            k, _, v = item.partition("=")
            try:
                over[k] = ast.literal_eval(v)
            except (ValueError, SyntaxError):
                over[k] = v
    return name, over


def read_decisions(path: str) -> List[dict]:
    """The decisions of a :func:`collect` file.

    :raises SystemExit: with a message naming the file, if it cannot be read, holds no
        decision or a line is not a decision."""
    try:
        with open(path) as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
    except OSError as e:
        raise SystemExit(f"cannot read {path}: {e.strerror or e}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise SystemExit(f"{path} is not a decisions file (JSON lines of 'collect'): {e}")
    need = ("seed", "member", "test", "deal", "dealer", "vulnerability", "auction", "played",
            "play", "values")
    for i, row in enumerate(rows, 1):
        if not isinstance(row, dict) or any(k not in row for k in need):
            raise SystemExit(f"{path}, decision {i}: not a decision of 'collect' (it needs "
                             f"{', '.join(need)})")
    if not rows:
        raise SystemExit(f"no decisions in {path}")
    return rows


def decision_view(d: dict, system):
    """The deciding seat's view at decision ``d`` (a row of :func:`collect`): the seat that
    plays, or declarer when the card is dummy's.  The deal is used only to build the view."""
    from ai.game import view_of
    deal = Deal.from_pbn(d["deal"])
    dealer = Seat.coerce(d["dealer"])
    auction = Auction.from_str(dealer, d["auction"])
    pos = Position(deal, trump=auction.contract.strain, leader=auction.declarer.lho)
    played = []
    for c in [Card.from_str(c) for c in d["play"].split()][:d["played"]]:
        played.append((pos.to_move, c))
        pos.play(c)
    seat = pos.to_move
    controller = auction.declarer if seat == auction.declarer.partner else seat
    return view_of(deal, controller, dealer=dealer,
                   vulnerability=Vulnerability.coerce(d["vulnerability"]),
                   calls=tuple(auction.calls),
                   explanations=tuple(system.explain_all(auction)), played=played,
                   scoring="IMP")


def evaluate(decisions: List[dict], config: str, threads) -> Dict[tuple, int]:
    """Tricks lost by ``config`` at each decision: ``{(seed, member, test, played): loss}``."""
    name, over = parse_config(config)
    system = ps._system()
    out = {}
    for d in decisions:
        if d.get("equal"):             # no card can lose a trick here
            out[(d["seed"], d["member"], d["test"], d["played"])] = 0
            continue
        view = decision_view(d, system)
        saved = dict(ps._OVERRIDES)
        ps._OVERRIDES.update(over)
        try:
            player = ps.make_player(name, f"{d['seed']}:{d['member']}:{d['test']}", threads)
        finally:
            ps._OVERRIDES.clear()
            ps._OVERRIDES.update(saved)
        card = player.card(view)
        player.close()
        values = d["values"]
        out[(d["seed"], d["member"], d["test"], d["played"])] = \
            max(values.values()) - values[str(card)]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("files", nargs="+")
    c.add_argument("--player", default=None, help="only this player's rows")
    c.add_argument("--all", action="store_true", dest="every",
                   help="also the decisions whose legal cards are all equal in the real "
                        "deal (marked equal; for posterior calibrate)")
    c.add_argument("--out", required=True)
    e = sub.add_parser("eval")
    e.add_argument("decisions")
    e.add_argument("configs", nargs="+")
    e.add_argument("--deals", type=int, default=None, help="only the first N deals")
    e.add_argument("--threads", type=int, default=None)
    e.add_argument("--budget", action="store_true",
                   help="keep the time budgets (default: lifted, as --no-budget)")
    args = ap.parse_args(argv)
    if args.cmd == "collect":
        rows = [r for f in args.files for r in ps.read_rows(f)
                if args.player is None or r["player"] == args.player]
        out = collect(rows, args.every)
        with open(args.out, "w") as fh:
            for d in out:
                fh.write(json.dumps(d) + "\n")
        print(f"{len(out)} decisions from {len(rows)} rows", file=sys.stderr)
        return 0
    decisions = read_decisions(args.decisions)
    if args.deals is not None:
        keep = sorted({(d["seed"], d["member"]) for d in decisions})[:args.deals]
        decisions = [d for d in decisions if (d["seed"], d["member"]) in set(keep)]
    ps.UNTIMED["untimed"] = not args.budget
    deals = sorted({(d["seed"], d["member"], d["test"]) for d in decisions})
    per_deal = {}
    for config in args.configs:
        t0 = time.perf_counter()
        res = evaluate(decisions, config, args.threads)
        sums = {k: 0 for k in deals}
        for (seed, member, test, _), loss in res.items():
            sums[(seed, member, test)] += loss
        per_deal[config] = sums
        m, se = ps.mean_se([sums[k] for k in deals])
        line = f"{config:40s} tricks lost / deal {m:.3f} ± {se:.3f}"
        base = per_deal[args.configs[0]]
        if config != args.configs[0]:
            dm, dse = ps.mean_se([sums[k] - base[k] for k in deals])
            line += f"   vs {args.configs[0]}: {dm:+.3f} ± {dse:.3f}"
        print(line + f"   ({len(decisions)} decisions, {len(deals)} deals, "
              f"{time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
