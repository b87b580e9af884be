"""Card-play strength of the computer players, measured double-dummy.

    python -m benchmarks.quality.play_strength run --seed 2025 --deals 200 \\
        --tests declarer,defence --players easy,medium,hard,plain,auction --out R.jsonl
    python -m benchmarks.quality.play_strength run --seed 2025 --tests match \\
        --players hard-easy,hard-medium --out R.jsonl
    python -m benchmarks.quality.play_strength report R.jsonl [--against hard]

The deals: the stream ``random.Random(seed)`` of :func:`ddsolver.deal.random_deals`; deal
``k`` of the stream is board ``k + 1`` (dealer and vulnerability by the duplicate cycle,
:func:`ddsolver.table.board_dealer`, :func:`~ddsolver.table.board_vulnerability`), bid by
four StandardAmerican robots (:func:`ai.bidding.bid_deal`); passed-out deals are skipped, so
the set's member ``i`` is the ``i``-th deal of the stream with a contract.  ``--start`` and
``--deals`` pick members ``start .. start + deals - 1``: a long run is done in chunks.

Tests (each row of the results file is one deal of one test for one player):

* ``declarer``: the player is declarer (it plays dummy's cards too) against double-dummy
  defenders (:class:`DoubleDummyPlayer`: they see all four hands; they also make the opening
  lead).  Tricks lost = the double-dummy value after the opening lead - declarer's tricks
  (never negative against these defenders); contracts made; IMPs lost against the
  double-dummy result; seconds per decision (decisions with two or more legal cards).
* ``defence``: the player holds both defenders' hands (the opening lead included) against a
  double-dummy declarer.  Tricks given away = declarer's tricks - the deal's double-dummy
  value; the opening lead's share = the double-dummy value after the lead - the value
  before it (tricks lost by the lead against the best lead).
* ``lead``: the opening lead alone (cheaper: one decision per deal).
* ``match``: duplicate, full deals (bidding and play by the computers, both tables, seats
  swapped): player ``A-B`` is A at North-South and B at East-West at one table and the
  reverse at the other; IMPs per board for A, and the seconds of each whole board.
* ``board``: four computers of one level play the whole board (bidding and play): seconds
  per board.

Players: ``easy``, ``medium``, ``hard`` (:data:`ai.robot.LEVELS`), and the two baselines of
issue 20 run through the same code (:class:`ai.cardplay.CardPlayer`): ``plain`` (50 uniform
layouts consistent with the known cards and shown voids, the card with the best mean
tricks) and ``auction`` (the same, layouts also filtered by the auction's HCP and length
constraints by simple rejection).

The results file takes one JSON line per finished deal (appended and flushed at once); a run
skips the rows already there, so an interrupted run is resumed by running it again.

Seeds: tuning on seed 2025.  Seed **90417** is the first validation seed: chosen before any
tuning and run once the players were final (third session of 2026-12-02, code of
2344ef7).  Seed **424242** is the second validation seed, chosen on 2026-12-02 (fourth
session) before the batch solves were measured and never used for tuning: it validates
the players after that session's changes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ai.bidding.quality import read_json_lines
from ai.cardplay import PlaySettings
from ai.game import play_board
from ai.players import SeatView
from ai.robot import LEVELS, ComputerPlayer
from ddsolver.auction import Auction
from ddsolver.deal import Deal, random_deal
from ddsolver.play import Position
from ddsolver.scoring import imps, ns_score
from ddsolver.solver import Solver
from ddsolver.table import Seat, Vulnerability, board_dealer, board_vulnerability

TUNING_SEED = 2025
VALIDATION_SEED = 90417
VALIDATION_SEED_2 = 424242

#: The two baselines of issue 20, as settings of the same card player.
BASELINES = {
    "plain": PlaySettings(samples=50, lead_samples=50, method="uniform", utility="tricks",
                          time_budget=600.0, min_samples=50),
    "auction": PlaySettings(samples=50, lead_samples=50, method="rejection",
                            utility="tricks", time_budget=600.0, min_samples=50),
}
PLAYERS = tuple(LEVELS) + tuple(BASELINES)
TESTS = ("declarer", "defence", "lead", "match", "board")


# -- the deals ------------------------------------------------------------------------------
class DealSet:
    """The benchmark's deals of one seed: ``(member, board, deal, dealer, vulnerability,
    auction)`` for each deal of the stream with a contract."""

    def __init__(self, seed: int):
        from ai.bidding import StandardAmerican
        self.seed = seed
        self.system = StandardAmerican()
        self._rng = random.Random(seed)
        self._members: List[tuple] = []
        self._drawn = 0

    def member(self, i: int) -> tuple:
        from ai.bidding import bid_deal
        while len(self._members) <= i:
            deal = random_deal(self._rng)
            self._drawn += 1
            board = self._drawn
            dealer, vul = board_dealer(board), board_vulnerability(board)
            auction = bid_deal(deal, dealer, vul, self.system)
            if auction.contract is not None:
                self._members.append((len(self._members), board, deal, dealer, vul, auction))
        return self._members[i]

    def members(self, start: int, count: int) -> Iterable[tuple]:
        for i in range(start, start + count):
            yield self.member(i)


# -- the double-dummy player (benchmark only: it holds the Deal) -----------------------------
def _position(deal: Deal, view: SeatView) -> Position:
    pos = Position(deal, trump=view.trump, leader=view.declarer.lho)
    for _, card in view.played:
        pos.play(card)
    return pos


class DoubleDummyPlayer:
    """Plays the real position double dummy: it is given the whole :class:`Deal` (this
    benchmark's referee only; nothing in ``ai`` may do this).  Among the cards that keep the
    double-dummy value it plays the lowest (then the lowest suit).  Calls by the system."""

    def __init__(self, deal: Deal, system):
        self.deal = deal
        self.system = system
        self.solver = Solver(memory_mb=64)

    def call(self, view: SeatView):
        return self.system.choose(view.original_hand, view.auction, view.vulnerability)

    def card(self, view: SeatView):
        legal = view.legal_cards
        if len(legal) == 1:
            return legal[0]
        values = self.solver.solve(_position(self.deal, view))
        best = max(values.values())
        return min((c for c, v in values.items() if v == best),
                   key=lambda c: (int(c.rank), int(c.suit)))


class Timed:
    """Wraps a player and records the seconds of each card decision with two or more legal
    cards (forced cards take no search and are left out)."""

    def __init__(self, player):
        self.player = player
        self.times: List[float] = []
        self.cpu: List[float] = []
        self.samples: List[int] = []
        self.reasons: Dict[str, int] = {}

    def call(self, view):
        return self.player.call(view)

    def card(self, view):
        t = time.perf_counter()
        c = time.process_time()
        card = self.player.card(view)
        choice = getattr(self.player, "last_choice", None)
        if choice is not None:
            self.reasons[choice.reason] = self.reasons.get(choice.reason, 0) + 1
        if len(view.legal_cards) > 1:
            self.times.append(time.perf_counter() - t)
            self.cpu.append(time.process_time() - c)
            self.samples.append(0 if choice is None else choice.samples)
        return card


#: ``--no-budget``: every time budget lifted (:meth:`ai.cardplay.PlaySettings.untimed`: the
#: decisions then depend on the view and the seed only, not on the machine's load).
UNTIMED = {"untimed": False}
_OVERRIDES: Dict[str, object] = {}


def make_player(name: str, seed, threads: Optional[int]):
    """A computer of one of :data:`PLAYERS`, seeded (untimed with ``--no-budget``)."""
    if name in LEVELS:
        settings = LEVELS[name]
    elif name in BASELINES:
        settings = BASELINES[name]
    else:
        raise SystemExit(f"unknown player {name!r}: one of {', '.join(PLAYERS)}")
    over = dict(_OVERRIDES)
    if threads is not None:
        over["threads"] = threads
    settings = settings.with_(**over)
    if UNTIMED["untimed"]:
        settings = settings.untimed()
    level = name if name in LEVELS else "hard"
    return ComputerPlayer(level, seed=seed, settings=settings)


def _dd_declarer_tricks(solver: Solver, deal: Deal, auction: Auction, played=()) -> int:
    """Declarer's side's tricks (whole deal) when every card from this point on is played
    double dummy, after the cards ``played``."""
    from ddsolver.play import trick_winner
    contract = auction.contract
    declarer = auction.declarer
    pos = Position(deal, trump=contract.strain, leader=declarer.lho)
    for _, card in played:
        pos.play(card)
    done = 0
    cards = list(played)
    for i in range(0, len(cards) - len(cards) % 4, 4):
        t = cards[i:i + 4]
        done += trick_winner([c for _, c in t], t[0][0], contract.strain).side == declarer.side
    ns = solver.ns_tricks(pos)
    return done + (ns if declarer.side == Seat.NORTH.side else pos.tricks_left - ns)


def _close(*players) -> None:
    for p in players:
        inner = getattr(p, "player", p)
        if hasattr(inner, "close"):
            inner.close()


def _summary_times(times: Sequence[float], timed: Sequence["Timed"] = ()) -> dict:
    out = {"times": [round(t, 4) for t in times]}
    if timed:
        out["cpu"] = [round(t, 4) for p in timed for t in p.cpu]
        reasons: Dict[str, int] = {}
        for p in timed:
            for k, v in p.reasons.items():
                reasons[k] = reasons.get(k, 0) + v
        out["reasons"] = reasons
    return out


def _play_against_dd(member, name, seed, threads, test):
    """Play one board with the computer ``name`` on one side and double-dummy players on
    the other: as declarer (``test == "declarer"``, it plays dummy too) or as both
    defenders.  Returns the computer (closed), the ``BoardResult``, the seconds the board
    took, declarer's double-dummy tricks before and after the opening lead, and the sign
    that turns North-South scores into declarer's side's."""
    idx, board, deal, dealer, vul, auction = member
    system = _system()
    declarer = auction.declarer
    computer = Timed(make_player(name, f"{seed}:{idx}:{test}", threads))
    dd = DoubleDummyPlayer(deal, system)
    computer_side = declarer.side if test == "declarer" else declarer.side.opponents
    players = {s: (computer if s.side == computer_side else dd) for s in Seat}
    t0 = time.perf_counter()
    result = play_board(deal, players, dealer, vul, auction=auction, scoring="IMP",
                        system=system)
    seconds = time.perf_counter() - t0
    before = _dd_declarer_tricks(dd.solver, deal, auction)
    after = _dd_declarer_tricks(dd.solver, deal, auction, result.play[:1])
    _close(computer)
    sign = 1 if declarer.side == Seat.NORTH.side else -1
    return computer, result, seconds, before, after, sign


def _common_fields(computer, result, seconds) -> dict:
    return {"seconds": round(seconds, 3), "samples": computer.samples,
            "play": " ".join(str(c) for _, c in result.play),
            **_summary_times(computer.times, [computer])}


def run_declarer(member, name, seed, threads) -> dict:
    vul = member[4]
    computer, result, seconds, before, after, sign = _play_against_dd(
        member, name, seed, threads, "declarer")
    contract = result.contract
    dd_score = ns_score(contract, after, vul)
    return {"dd": before, "dd_after_lead": after, "tricks": result.tricks,
            "loss": after - result.tricks,
            "made": result.tricks >= contract.tricks_needed,
            "dd_made": after >= contract.tricks_needed,
            "imps": imps(sign * (result.score - dd_score)),
            **_common_fields(computer, result, seconds)}


def run_defence(member, name, seed, threads) -> dict:
    vul = member[4]
    computer, result, seconds, before, after, sign = _play_against_dd(
        member, name, seed, threads, "defence")
    contract = result.contract
    dd_score = ns_score(contract, before, vul)
    return {"dd": before, "dd_after_lead": after, "tricks": result.tricks,
            "given": result.tricks - before, "lead_loss": after - before,
            "set": result.tricks < contract.tricks_needed,
            "dd_set": before < contract.tricks_needed,
            "imps": imps(-sign * (result.score - dd_score)),
            "lead": str(result.play[0][1]),
            **_common_fields(computer, result, seconds)}


def run_lead(member, name, seed, threads) -> dict:
    from ai.game import view_of
    idx, board, deal, dealer, vul, auction = member
    system = _system()
    declarer = auction.declarer
    leader = declarer.lho
    computer = Timed(make_player(name, f"{seed}:{idx}:lead", threads))
    calls = tuple(auction.calls)
    view = view_of(deal, leader, dealer=dealer, vulnerability=vul, calls=calls,
                   explanations=tuple(system.explain_all(auction)), scoring="IMP")
    card = computer.card(view)
    solver = Solver(memory_mb=64)
    before = _dd_declarer_tricks(solver, deal, auction)
    after = _dd_declarer_tricks(solver, deal, auction, [(leader, card)])
    _close(computer)
    return {"dd": before, "dd_after_lead": after, "lead_loss": after - before,
            "lead": str(card), "samples": computer.samples,
            **_summary_times(computer.times, [computer])}


def run_match(member, name, seed, threads) -> dict:
    idx, board, deal, dealer, vul, auction = member
    system = _system()
    a, b = name.split("-")
    out = {}
    scores = []
    times: List[float] = []
    timed_a: List[Timed] = []
    for table, (ns, ew) in enumerate(((a, b), (b, a))):
        made = {}
        players = {}
        for s in Seat:
            lvl = ns if s.side == Seat.NORTH.side else ew
            p = Timed(make_player(lvl, f"{seed}:{idx}:match{table}:{s.letter}", threads))
            players[s] = p
            made[s] = (lvl, p)
        t0 = time.perf_counter()
        result = play_board(deal, players, dealer, vul, scoring="IMP", system=system)
        out[f"seconds{table}"] = round(time.perf_counter() - t0, 3)
        out[f"contract{table}"] = "Pass" if result.contract is None else str(result.contract)
        out[f"tricks{table}"] = result.tricks
        scores.append(result.score)
        for s, (lvl, p) in made.items():
            if lvl == a:
                times.extend(p.times)
                timed_a.append(p)
        _close(*players.values())
    out.update({"score0": scores[0], "score1": scores[1],
                "imps": imps(scores[0] - scores[1]), **_summary_times(times, timed_a)})
    return out


def run_board(member, name, seed, threads) -> dict:
    idx, board, deal, dealer, vul, auction = member
    system = _system()
    players = {s: Timed(make_player(name, f"{seed}:{idx}:board:{s.letter}", threads))
               for s in Seat}
    t0 = time.perf_counter()
    result = play_board(deal, players, dealer, vul, scoring="IMP", system=system)
    seconds = time.perf_counter() - t0
    times = [t for p in players.values() for t in p.times]
    _close(*players.values())
    return {"seconds": round(seconds, 3), "tricks": result.tricks,
            "contract": str(result.contract),
            **_summary_times(times, list(players.values()))}


_SYSTEM = None


def _system():
    global _SYSTEM
    if _SYSTEM is None:
        from ai.bidding import StandardAmerican
        _SYSTEM = StandardAmerican()
    return _SYSTEM


RUNNERS = {"declarer": run_declarer, "defence": run_defence, "lead": run_lead,
           "match": run_match, "board": run_board}


# -- the results file ------------------------------------------------------------------------
def read_rows(path: str) -> List[dict]:
    """Every complete row of a results file.  A line cut short by an interruption (the
    last line) is skipped quietly; other lines that are not JSON are skipped with a warning
    on stderr that counts them."""
    if not os.path.exists(path):
        return []
    rows, bad = read_json_lines(path)
    if bad:
        print(f"warning: {path}: {len(bad)} line(s) that are not JSON skipped (line "
              f"{', '.join(map(str, bad[:5]))}{', ...' if len(bad) > 5 else ''})",
              file=sys.stderr)
    return [row for _, row in rows]


def check_run_args(ap: argparse.ArgumentParser, args) -> None:
    """Refuse (``ap.error``: a usage message, status 2) a run's arguments that would fail
    only after deals have been played: a negative ``--start`` or ``--deals``, ``--threads``
    below 1, an ``--out`` that is a folder or in a folder that does not exist."""
    if args.deals < 0 or args.start < 0:
        ap.error("--deals and --start must be >= 0")
    if args.threads is not None and args.threads < 1:
        ap.error(f"--threads must be >= 1, got {args.threads}")
    if os.path.isdir(args.out):
        ap.error(f"--out {args.out!r} is a folder; give a results file")
    folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(folder):
        ap.error(f"--out {args.out!r}: no folder {folder!r}")


def _key(row) -> tuple:
    return (row["seed"], row["test"], row["player"], row["member"])


def _append(path: str, row: dict) -> None:
    text = json.dumps(row, sort_keys=True) + "\n"
    need_newline = False
    if os.path.exists(path) and os.path.getsize(path) > 0:
        with open(path, "rb") as fh:
            fh.seek(-1, os.SEEK_END)
            need_newline = fh.read(1) != b"\n"
    with open(path, "a") as fh:
        fh.write(("\n" if need_newline else "") + text)
        fh.flush()
        os.fsync(fh.fileno())


def _version() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except Exception:
        return "?"


def run(seed: int, start: int, count: int, tests: Sequence[str], players: Sequence[str],
        out: str, threads: Optional[int] = None, progress: bool = True,
        tag: str = "") -> None:
    """Run the tests for the players on set members ``start .. start + count - 1``,
    appending one row per finished deal to ``out`` (rows already there are skipped)."""
    done = {_key(r) for r in read_rows(out)}
    deals = DealSet(seed)
    version = _version()
    for member in deals.members(start, count):
        idx, board, deal, dealer, vul, auction = member
        for test in tests:
            for name in players:
                key = (seed, test, name + tag, idx)
                if key in done:
                    continue
                t0 = time.perf_counter()
                res = RUNNERS[test](member, name, seed, threads)
                row = {"seed": seed, "test": test, "player": name + tag, "member": idx,
                       "board": board, "deal": deal.to_pbn() if hasattr(deal, "to_pbn")
                       else str(deal), "dealer": dealer.letter, "vulnerability": vul.pbn,
                       "auction": " ".join(str(c) for c in auction.calls),
                       "contract": str(auction.contract),
                       "version": version, "load": os.getloadavg()[0], **res}
                _append(out, row)
                if progress:
                    extra = {k: row[k] for k in ("loss", "given", "lead_loss", "imps")
                             if k in row}
                    print(f"{test:8s} {name + tag:10s} #{idx:3d} {row['contract']:6s} "
                          f"{extra} {time.perf_counter() - t0:6.1f}s", file=sys.stderr,
                          flush=True)


# -- the report ------------------------------------------------------------------------------
def mean_se(xs: Sequence[float]) -> Tuple[float, float]:
    """Mean and its standard error (sample standard deviation / sqrt(n))."""
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    return m, statistics.stdev(xs) / math.sqrt(n)


def _pct(xs) -> str:
    m, se = mean_se([100.0 * bool(x) for x in xs])
    return f"{m:.1f} ± {se:.1f}"


def _quantile(xs, q) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(math.ceil(q * len(xs))) - 1))
    return xs[k]


def report(rows: List[dict], against: str = "hard", seed: Optional[int] = None) -> str:
    """Markdown tables: per test and player, means with standard errors, and paired
    differences against ``against`` on the deals both played."""
    if seed is not None:
        rows = [r for r in rows if r["seed"] == seed]
    out = []
    by: Dict[tuple, Dict[int, dict]] = {}
    for r in rows:
        by.setdefault((r["seed"], r["test"], r["player"]), {})[r["member"]] = r
    seeds = sorted({k[0] for k in by})
    for sd in seeds:
        for test, field, label in (("declarer", "loss", "tricks lost / deal"),
                                   ("defence", "given", "tricks given / deal"),
                                   ("lead", "lead_loss", "tricks lost by the lead"),
                                   ("match", "imps", "IMPs / board (first named)"),
                                   ("board", "seconds", "seconds / board")):
            names = sorted(p for (s, t, p) in by if s == sd and t == test)
            if not names:
                continue
            out.append(f"\n### seed {sd}: {test}\n")
            head = f"| player | deals | {label} | paired vs {against} |"
            extra = []
            if test == "declarer":
                extra = ["reached DD %", "made %", "DD made %", "IMPs vs DD"]
            elif test == "defence":
                extra = ["lead loss", "set %", "IMPs vs DD"]
            if test in ("declarer", "defence", "lead", "match", "board"):
                extra += ["s/decision median", "p95"]
            out.append(head + "".join(f" {e} |" for e in extra))
            out.append("|" + "---|" * (4 + len(extra)))
            ref = by.get((sd, test, against), {})
            for p in names:
                d = by[(sd, test, p)]
                xs = [d[i][field] for i in sorted(d)]
                m, se = mean_se(xs)
                common = sorted(set(d) & set(ref))
                if p != against and common:
                    dm, dse = mean_se([d[i][field] - ref[i][field] for i in common])
                    paired = f"{dm:+.3f} ± {dse:.3f} (n={len(common)})"
                else:
                    paired = "-"
                cells = [p, str(len(xs)), f"{m:.3f} ± {se:.3f}", paired]
                vals = [d[i] for i in sorted(d)]
                if test == "declarer":
                    cells += [_pct(v["loss"] == 0 for v in vals), _pct(v["made"] for v in vals),
                              _pct(v["dd_made"] for v in vals),
                              "%.2f ± %.2f" % mean_se([v["imps"] for v in vals])]
                elif test == "defence":
                    cells += ["%.3f ± %.3f" % mean_se([v["lead_loss"] for v in vals]),
                              _pct(v["set"] for v in vals),
                              "%.2f ± %.2f" % mean_se([v["imps"] for v in vals])]
                times = [t for v in vals for t in v.get("times", [])]
                cells += [f"{_quantile(times, 0.5):.3f}", f"{_quantile(times, 0.95):.3f}"]
                out.append("| " + " | ".join(cells) + " |")
            loads = [r["load"] for (s, t, p), d in by.items() if s == sd and t == test
                     for r in d.values()]
            if loads:
                out.append(f"\n(load average during the runs: median "
                           f"{statistics.median(loads):.1f} on {os.cpu_count()} cores)")
    return "\n".join(out)


def mistakes(row: dict, rerun: bool = False, threads: Optional[int] = 1) -> List[str]:
    """The cards of a ``declarer`` or ``defence`` row that lost a trick double dummy: trick,
    seat, card, the double-dummy value before and after, the cards that kept it, and (with
    ``rerun``) the computer's utilities for that view again (same seed)."""
    from ai.game import view_of
    from ddsolver.cards import Card
    deal = Deal.from_pbn(row["deal"])
    dealer = Seat.coerce(row["dealer"])
    vul = Vulnerability.coerce(row["vulnerability"])
    auction = Auction.from_str(dealer, row["auction"])
    declarer = auction.declarer
    side = declarer.side if row["test"] == "declarer" else declarer.lho.side
    cards = [Card.from_str(c) for c in row["play"].split()]
    solver = Solver(memory_mb=64)
    pos = Position(deal, trump=auction.contract.strain, leader=declarer.lho)
    played = []
    out = []
    system = _system()
    name = row["player"].split("-")[0]
    for card in cards:
        seat = pos.to_move
        if seat.side == side and len(pos.legal_cards) > 1:
            values = solver.solve(pos)
            best = max(values.values())
            if values[card] < best:
                keep = " ".join(str(c) for c, v in values.items() if v == best)
                line = (f"trick {len(played) // 4 + 1} {seat.letter} played {card} "
                        f"({values[card]} instead of {best}; best: {keep})")
                if rerun:
                    controller = declarer if seat == declarer.partner else seat
                    view = view_of(deal, controller, dealer=dealer, vulnerability=vul,
                                   calls=tuple(auction.calls),
                                   explanations=tuple(system.explain_all(auction)),
                                   played=played, scoring="IMP")
                    p = make_player(name, f"{row['seed']}:{row['member']}:{row['test']}",
                                    threads)
                    choice = p.hint(view)
                    p.close()
                    ranked = sorted(zip(choice.cards, choice.utility), key=lambda x: -x[1])
                    line += (f"\n    rerun: {choice.card} ({choice.reason}, {choice.samples} "
                             f"layouts) " + " ".join(f"{c}:{u:.2f}" for c, u in ranked[:6]))
                out.append(line)
        pos.play(card)
        played.append((seat, card))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run tests, appending to a results file")
    r.add_argument("--seed", type=int, default=TUNING_SEED)
    r.add_argument("--start", type=int, default=0)
    r.add_argument("--deals", type=int, default=200)
    r.add_argument("--tests", default="declarer")
    r.add_argument("--players", default="hard")
    r.add_argument("--threads", type=int, default=None)
    r.add_argument("--tag", default="", help="suffix for the player names in the rows "
                   "(to keep runs of different code apart)")
    r.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="override a PlaySettings field of every computer (e.g. "
                   "samples=200, early_stop=4.0); repeatable; use with --tag")
    r.add_argument("--out", required=True)
    r.add_argument("--quiet", action="store_true")
    r.add_argument("--no-budget", action="store_true",
                   help="lift every time budget (decisions independent of the load; "
                   "for tuning; the seconds are still recorded)")
    p = sub.add_parser("report", help="summarise a results file")
    p.add_argument("files", nargs="+")
    p.add_argument("--against", default="hard")
    p.add_argument("--seed", type=int, default=None)
    m = sub.add_parser("mistakes", help="the cards of each row that lost a trick")
    m.add_argument("file")
    m.add_argument("--player", default=None)
    m.add_argument("--test", default="declarer")
    m.add_argument("--rerun", action="store_true")
    m.add_argument("--no-budget", action="store_true")
    args = ap.parse_args(argv)
    if args.cmd == "mistakes":
        UNTIMED["untimed"] = args.no_budget
        for row in read_rows(args.file):
            if row["test"] != args.test or "play" not in row:
                continue
            if args.player and row["player"] != args.player:
                continue
            lines = mistakes(row, args.rerun)
            if lines:
                print(f"#{row['member']} {row['player']} {row['contract']} "
                      f"{row['deal']} | {row['auction']}")
                for line in lines:
                    print("  " + line)
        return 0
    if args.cmd == "run":
        tests = [t for t in args.tests.split(",") if t]
        for t in tests:
            if t not in TESTS:
                ap.error(f"unknown test {t!r}: one of {', '.join(TESTS)}")
        names = [p for p in args.players.split(",") if p]
        for n in names:
            parts = n.split("-") if "match" in tests else [n]
            for part in parts:
                if part not in PLAYERS:
                    ap.error(f"unknown player {part!r}: one of {', '.join(PLAYERS)}")
        check_run_args(ap, args)
        UNTIMED["untimed"] = args.no_budget
        for item in args.set:
            name, sep, value = item.partition("=")
            if not sep or name not in PlaySettings.__dataclass_fields__:
                ap.error(f"--set needs NAME=VALUE with a PlaySettings field, got {item!r}")
            try:
                _OVERRIDES[name] = json.loads(value)
            except ValueError:
                _OVERRIDES[name] = value
        run(args.seed, args.start, args.deals, tests, names, args.out, args.threads,
            progress=not args.quiet, tag=args.tag)
        return 0
    missing = [f for f in args.files if not os.path.isfile(f)]
    if missing:
        ap.error(f"no such results file: {', '.join(missing)}")
    rows = [row for f in args.files for row in read_rows(f)]
    print(report(rows, args.against, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
