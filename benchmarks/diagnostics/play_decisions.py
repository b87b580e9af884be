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
import os
import sys
import time
from typing import Dict, List

from benchmarks.quality import play_strength as ps
from ddsolver.auction import Auction
from ddsolver.cards import Card
from ddsolver.deal import Deal
from ddsolver.errors import BridgeError
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
        values = row["values"]
        if (not isinstance(values, dict) or not values
                or not all(isinstance(v, int) for v in values.values())
                or isinstance(row["played"], bool) or not isinstance(row["played"], int)
                or row["played"] < 0):
            raise SystemExit(f"{path}, decision {i}: 'values' must map the legal cards to "
                             f"tricks and 'played' be a count of cards")
    if not rows:
        raise SystemExit(f"no decisions in {path}")
    return rows


def decision_view(d: dict, system):
    """The deciding seat's view at decision ``d`` (a row of :func:`collect`): the seat that
    plays, or declarer when the card is dummy's.  The deal is used only to build the view.

    :raises SystemExit: naming the decision, if its deal, auction or play cannot be
        replayed (a hand-edited or corrupt file)."""
    try:
        return _decision_view(d, system)
    except (BridgeError, ValueError, TypeError, AttributeError, KeyError,
            IndexError) as e:
        raise SystemExit(f"decision {decision_name(d)} cannot be replayed: {e}")


def decision_name(d: dict) -> str:
    """``seed:member:test:played``, how the messages name a decision."""
    return ":".join(str(d.get(k)) for k in ("seed", "member", "test", "played"))


def _decision_view(d: dict, system):
    from ai.game import view_of
    deal = Deal.from_pbn(d["deal"])
    dealer = Seat.coerce(d["dealer"])
    auction = Auction.from_str(dealer, d["auction"])
    if auction.contract is None:
        raise ValueError("the auction has no contract")
    pos = Position(deal, trump=auction.contract.strain, leader=auction.declarer.lho)
    played = []
    cards = [Card.from_str(c) for c in d["play"].split()]
    if d["played"] > len(cards):
        raise ValueError(f"'played' is {d['played']} but the play has {len(cards)} cards")
    for c in cards[:d["played"]]:
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
        except (TypeError, ValueError, KeyError, BridgeError) as e:
            raise SystemExit(f"configuration {config!r}: {e}")
        finally:
            ps._OVERRIDES.clear()
            ps._OVERRIDES.update(saved)
        card = player.card(view)
        player.close()
        values = d["values"]
        if str(card) not in values:
            raise SystemExit(f"decision {decision_name(d)}: {card} is not among its cards "
                             f"({', '.join(values)})")
        out[(d["seed"], d["member"], d["test"], d["played"])] = \
            max(values.values()) - values[str(card)]
    return out


#: What a row of ``play_strength`` needs for :func:`collect`.
ROW_KEYS = ("seed", "member", "test", "player")


def read_benchmark_rows(path: str) -> List[dict]:
    """The rows of a ``play_strength`` results file, for :func:`collect`.

    :raises SystemExit: with a message naming the file, if it is missing or unreadable,
        is a decisions file, or a row lacks what :func:`collect` needs."""
    if not os.path.isfile(path):
        raise SystemExit(f"cannot read {path}: " + ("it is a directory" if os.path.isdir(path)
                                                     else "no such file"))
    try:
        rows = ps.read_rows(path)
    except (OSError, UnicodeDecodeError) as e:
        raise SystemExit(f"cannot read {path}: {e}")
    for i, row in enumerate(rows, 1):
        if isinstance(row, dict) and {"values", "played"} <= set(row):
            raise SystemExit(f"{path} holds decisions, not the rows of play_strength")
        if not isinstance(row, dict) or any(k not in row for k in ROW_KEYS):
            raise SystemExit(f"{path}, row {i}: not a row of benchmarks.quality.play_strength "
                             f"(it needs {', '.join(ROW_KEYS)})")
    if not rows:
        raise SystemExit(f"no rows in {path}")
    return rows


def check_out(path: str) -> None:
    """:raises SystemExit: if ``path`` cannot be written: a directory, something that is
    not a regular file (a device such as ``/dev/null``, a pipe: :func:`write_rows` renames a
    finished file onto ``path``, which would replace it), or in a folder that does not exist
    or cannot be written.  A symbolic link is followed (its target is written)."""
    if not os.path.basename(path):
        raise SystemExit(f"cannot write {path!r}: no file name")
    path = os.path.realpath(path)
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise SystemExit(f"cannot write {path}: it is a directory")
    if os.path.exists(path) and not os.path.isfile(path):
        raise SystemExit(f"cannot write {path}: not a regular file")
    if not os.path.isdir(folder):
        raise SystemExit(f"cannot write {path}: no folder {folder}")
    if not os.access(folder, os.W_OK):
        raise SystemExit(f"cannot write {path}: permission denied")


def read_row_files(files, error) -> List[dict]:
    """Every complete row of the JSON-lines ``files``; ``error(message)`` (e.g. argparse's
    ``ap.error``, which exits) for a file that is missing or a directory, cannot be read,
    or files with no row at all."""
    for f in files:
        if not os.path.isfile(f):
            error(f"cannot read {f}: " + ("it is a directory" if os.path.isdir(f)
                                           else "not a regular file" if os.path.exists(f)
                                           else "no such file"))
    try:
        rows = [row for f in files for row in ps.read_rows(f)]
    except (OSError, UnicodeDecodeError) as e:
        error(f"cannot read the rows: {e}")
    if not rows:
        error("no rows in " + ", ".join(files))
    return rows


def write_rows(path: str, rows) -> int:
    """Write ``rows`` (an iterable of JSON objects) to ``path``: line by line to
    ``path + ".part"``, renamed to ``path`` once every row is written, so an interrupted or
    failed run leaves the finished rows in the ``.part`` file and an older ``path``
    untouched.  Returns the number of rows."""
    check_out(path)
    path = os.path.realpath(path)       # a symbolic link: its target gets the rows
    part = path + ".part"
    n = 0
    try:
        with open(part, "w") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                n += 1
    except BaseException:
        if n == 0 and os.path.exists(part):    # nothing finished: no .part left behind
            os.remove(part)
        raise
    os.replace(part, path)
    return n


def at_least(low, what: str, convert=int):
    """An argparse type: ``convert(text)``, finite and at least ``low``, else an error that
    says ``what`` is wanted (NaN and infinity are refused too)."""
    def parse(text: str):
        try:
            x = convert(text)
        except ValueError:
            x = None
        if x is None or not low <= x < float("inf"):
            raise argparse.ArgumentTypeError(f"{what}, not {text!r}")
        return x
    return parse


def positive(what: str = "a positive integer"):
    """An argparse type: an integer >= 1."""
    return at_least(1, what)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.diagnostics.play_decisions",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="{collect,eval}")
    c = sub.add_parser("collect", help="the decisions of play_strength's rows",
                       description="the decisions of play_strength's rows (tests declarer and "
                                   "defence)")
    c.add_argument("files", nargs="+", metavar="ROWS.jsonl",
                   help="results of 'python -m benchmarks.quality.play_strength run'")
    c.add_argument("--player", default=None, help="only this player's rows")
    c.add_argument("--all", action="store_true", dest="every",
                   help="also the decisions whose legal cards are all equal in the real "
                        "deal (marked equal; for posterior calibrate)")
    c.add_argument("--out", required=True, metavar="DECISIONS.jsonl")
    e = sub.add_parser("eval", help="tricks lost by configurations at the decisions",
                       description="tricks lost by configurations at the decisions, paired "
                                   "against the first")
    e.add_argument("decisions", metavar="DECISIONS.jsonl")
    e.add_argument("configs", nargs="+", metavar="CONFIG",
                   help="a player of play_strength with overrides, e.g. hard:samples=200")
    e.add_argument("--deals", type=positive(), default=None,
                   help="only the first N deals")
    e.add_argument("--threads", type=positive(), default=None)
    e.add_argument("--budget", action="store_true",
                   help="keep the time budgets (default: lifted, as --no-budget)")
    args = ap.parse_args(argv)
    if args.cmd == "collect":
        check_out(args.out)
        rows = [r for f in args.files for r in read_benchmark_rows(f)
                if args.player is None or r["player"] == args.player]
        try:
            out = collect(rows, args.every)
        except (BridgeError, ValueError, TypeError, AttributeError, KeyError) as e:
            raise SystemExit(f"a row cannot be replayed: {e}")
        write_rows(args.out, out)
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
