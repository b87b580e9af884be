"""The sampler (:mod:`ai.sampling`): speed on typical and tight views, the cost of the
weights and what they buy, and the exact-enumeration threshold.

    python -m benchmarks.diagnostics.sampling_speed speed [-n 200] [--repeat 5]
    python -m benchmarks.diagnostics.sampling_speed weights [--deals 40] [--seed 7]
    python -m benchmarks.diagnostics.sampling_speed exact [--deals 30] [--seed 11]

``speed``: samples per second of the baseline ``"rejection"`` (whole-deal rejection capped at
20,000 tries, as the play-strength benchmark runs it) and of ``"auction"`` (the exact
sampler; weights off, so the figure is the dealing alone) on fixed views: declarer and a
defender after the opening lead of 1NT-3NT, the opening leader after 1NT-3NT and after
2C-2D-2NT-3NT (three hidden hands), a defender whose 1NT-opening declarer has shown out of a
suit, declarer against a three-level preempter (seven cards), and late in the play (exact
enumeration).  Medians of ``--repeat`` runs, wall time.

``weights``: robot-bid deals (seeded), played double dummy by all four hands (every card
the best for its side in the real deal, ties to the lowest), views of declarer and of the
defenders after 1..7 tricks; for each sampler configuration the *placement accuracy*: the
weighted share of layouts that put each hidden card with its real holder, averaged over
the hidden cards (0.5 for two hidden hands that know nothing), paired against the exact
sampler without weights; and the time per view.  Caveat: double-dummy play makes the
hidden players' cards as informative as they can be; real opponents' cards say less.

``exact``: views late in the play (double-dummy play as above): the number of consistent
layouts, the time to enumerate them (and to weigh them by the calls, counts up to 1,000),
and the time to solve one for every legal card (what a card player pays per layout).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from ai.bidding import StandardAmerican, bid_deal
from ai.players import seat_view
from ai.sampling import sample_deals
from ddsolver.auction import Auction
from ddsolver.cards import Card
from ddsolver.deal import Deal, random_deals
from ddsolver.play import Position
from ddsolver.solver import Solver
from ddsolver.table import Seat

SA = StandardAmerican()
DEAL = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")


def dd_play(deal: Deal, auction: Auction, k: int, solver: Solver) -> list:
    """The first ``k`` cards of double-dummy play (ties to the lowest card)."""
    pos = Position(deal, auction.contract.strain, auction.declarer.lho)
    out = []
    for _ in range(k):
        seat = pos.to_move
        values = solver.solve(pos)
        best = max(values.values())
        card = min((c for c, v in values.items() if v == best), key=lambda c: (c.rank, c.suit))
        pos.play(card)
        out.append((seat, card))
    return out


def random_play(deal: Deal, auction: Auction, k: int, rng: random.Random) -> list:
    pos = Position(deal, auction.contract.strain, auction.declarer.lho)
    out = []
    for _ in range(k):
        seat = pos.to_move
        card = rng.choice(pos.legal_cards)
        pos.play(card)
        out.append((seat, card))
    return out


def view_of(seat, deal, dealer, auction, played):
    declarer = auction.declarer
    dummy = deal[declarer.partner] if played else None
    return seat_view(seat, deal[seat], dealer=dealer, vulnerability="None", auction=auction,
                     played=played, dummy_hand=dummy)


# -- the views of the speed test -------------------------------------------------------------
def _find(predicate, seed: int, limit: int = 5000):
    """The first robot-bid deal of the seeded stream (dealer North) meeting ``predicate``."""
    for deal in random_deals(seed, limit):
        auction = bid_deal(deal, "N", None, SA)
        if not auction.is_passed_out and predicate(deal, auction):
            return deal, auction
    raise RuntimeError("no deal found")


def speed_views() -> list:
    out = []
    a13 = Auction.from_str("N", "1NT Pass 3NT Pass Pass Pass")
    lead = [(Seat.EAST, Card.from_str("C3"))]
    out.append(("declarer, trick 1, 1NT-3NT", view_of(Seat.NORTH, DEAL, "N", a13, lead)))
    out.append(("defender, trick 1, 1NT-3NT", view_of(Seat.EAST, DEAL, "N", a13, lead)))
    out.append(("opening lead, 1NT-3NT (3 hidden)", view_of(Seat.EAST, DEAL, "N", a13, [])))
    strong = Deal.from_pbn("N:AKQ4.AK5.KQ96.A2 653.T742.T42.K73 JT97.Q86.A87.T96 82.J93.J53.QJ854")
    a2c = Auction.from_str("N", "2C Pass 2D Pass 2NT Pass 3NT Pass Pass Pass")
    out.append(("opening lead, 2C-2D-2NT-3NT (3 hidden)",
                view_of(Seat.EAST, strong, "N", a2c, [])))

    # a 1NT opener who declares notrump and has shown out of a suit (defender's view)
    def shown_out(deal, auction):
        if str(auction.calls[0]) != "1NT" or auction.declarer != Seat.NORTH \
                or auction.contract.strain.letter != "NT":
            return False
        return any(deal.north.length(s) == 2 for s in range(4))

    deal, auction = _find(shown_out, 3)
    rng = random.Random(1)
    for _ in range(400):
        played = random_play(deal, auction, 20, rng)
        view = view_of(Seat.EAST, deal, "N", auction, played)
        if view.voids[Seat.NORTH]:
            n_void = len(played)
            break
    out.append((f"tight: 1NT opener shown out ({n_void} cards played)", view))

    # declarer against a three-level preempt (seven cards) by an opponent
    def preempt(deal, auction):
        first = next((i for i, c in enumerate(auction.calls) if c.is_bid), None)
        if first is None or auction.calls[first].level != 3 or \
                auction.calls[first].strain.letter == "NT":
            return False
        opener = auction.seat_of(first)
        return auction.declarer.side != opener.side

    deal, auction = _find(preempt, 5)
    out.append(("tight: declarer vs a 3-level preempter", view_of(
        auction.declarer, deal, "N", auction, [(auction.declarer.lho,
                                                 dd_play(deal, auction, 1, Solver(64))[0][1])])))
    played = random_play(DEAL, a13, 32, random.Random(4))
    out.append(("late: after 8 tricks (exact)", view_of(Seat.NORTH, DEAL, "N", a13, played)))
    return out


def cmd_speed(args) -> None:
    print(f"samples per second, median of {args.repeat} runs of n = {args.n} "
          "(wall time; other work may be running on the machine)")
    print(f"{'view':48} {'method':10} {'got':>5} {'tries':>7} {'seconds':>8} {'samples/s':>10}")
    for name, view in speed_views():
        for method in ("rejection", "auction"):
            times, got, tries = [], 0, 0
            for r in range(args.repeat):
                opts = {} if method == "rejection" else {"bid_weights": False}
                t = time.perf_counter()
                s = sample_deals(view, args.n, 100 + r, method=method, system=SA, **opts)
                times.append(time.perf_counter() - t)
                got, tries = len(s), s.tries
            sec = statistics.median(times)
            extra = " exact" if method == "auction" and s.exact else ""
            print(f"{name:48} {method:10} {got:5d} {tries:7d} {sec:8.3f} "
                  f"{got / sec:10.0f}{extra}")


# -- what the weights buy ----------------------------------------------------------------------
def accuracy(view, deal, samples) -> float:
    """Weighted share of the layouts placing each hidden card with its real holder in
    ``deal`` (which the view does not have), averaged over the hidden cards."""
    hidden = view.hidden_seats
    unseen = list(view.unseen_cards)
    total = sum(samples.weights)
    if not total:
        return math.nan
    acc = 0.0
    for c in unseen:
        holder = next(s for s in hidden if c in deal[s])
        acc += sum(w for d, w in zip(samples.deals, samples.weights) if c in d[holder]) / total
    return acc / len(unseen)


CONFIGS = [
    ("uniform", dict(method="uniform")),
    ("rejection", dict(method="rejection")),
    ("auction", dict(method="auction", bid_weights=False)),
    ("auction+bid", dict(method="auction")),
    ("auction+play2", dict(method="auction", bid_weights=False, play_weights=True,
                           play_checks=2)),
    ("auction+bid+play2", dict(method="auction", play_weights=True, play_checks=2)),
    ("auction+bid+play4", dict(method="auction", play_weights=True, play_checks=4)),
]


def cmd_weights(args) -> None:
    solver = Solver(64)
    rows = {name: [] for name, _ in CONFIGS}
    secs = {name: [] for name, _ in CONFIGS}
    stats = {"bid_checks": [], "play_solves": []}
    views = 0
    for i, deal in enumerate(random_deals(args.seed, args.deals * 3)):
        if views >= args.deals * len(args.tricks):
            break
        auction = bid_deal(deal, "N", None, SA)
        if auction.is_passed_out:
            continue
        played_all = dd_play(deal, auction, 4 * max(args.tricks) + 1, solver)
        for t in args.tricks:
            if t == 0:                                  # the opening leader's view
                played, seat = [], auction.declarer.lho
            else:
                played = played_all[:4 * t + 1]        # t tricks and the next lead
                seat = (auction.declarer, auction.declarer.lho,
                        auction.declarer.rho)[views % 3]
            view = view_of(seat, deal, "N", auction, played)
            views += 1
            for name, opts in CONFIGS:
                opts = dict(opts)
                method = opts.pop("method")
                extra = {} if method != "auction" else dict(exact_max_layouts=0, **opts)
                start = time.perf_counter()
                s = sample_deals(view, args.n, 1000 + views, method=method, system=SA, **extra)
                secs[name].append(time.perf_counter() - start)
                rows[name].append(accuracy(view, deal, s))
                if name == "auction+bid+play4":
                    stats["bid_checks"].append(s.stats.get("bid_checks", 0))
                    stats["play_solves"].append(s.stats.get("play_solves", 0))
    print(f"{views} views ({args.deals} deals x tricks {args.tricks}; seed {args.seed}; "
          f"n = {args.n} layouts each; double-dummy play)")
    print(f"{'configuration':20} {'accuracy':>9} {'vs auction':>16} {'s/view':>8}")
    ref = rows["auction"]
    for name, _ in CONFIGS:
        acc = [x for x in rows[name] if not math.isnan(x)]
        diff = [a - b for a, b in zip(rows[name], ref) if not math.isnan(a - b)]
        md = statistics.mean(diff)
        se = statistics.stdev(diff) / math.sqrt(len(diff)) if len(diff) > 1 else math.nan
        print(f"{name:20} {statistics.mean(acc):9.4f} {md:+8.4f} +- {se:.4f} "
              f"{statistics.median(secs[name]):8.3f}")
    print(f"per view (auction+bid+play4): bid checks median "
          f"{statistics.median(stats['bid_checks'])}, play solves median "
          f"{statistics.median(stats['play_solves'])}")


# -- the exact threshold -----------------------------------------------------------------------
def cmd_exact(args) -> None:
    solver = Solver(64)
    rows = []
    seen = 0
    for deal in random_deals(args.seed, args.deals * 3):
        if seen >= args.deals:
            break
        auction = bid_deal(deal, "N", None, SA)
        if auction.is_passed_out:
            continue
        seen += 1
        played_all = dd_play(deal, auction, 4 * 11 + 1, solver)
        for t in range(5, 11):
            played = played_all[:4 * t + 1]
            seat = auction.declarer if seen % 2 else auction.declarer.lho
            view = view_of(seat, deal, "N", auction, played)
            start = time.perf_counter()
            s = sample_deals(view, 40, 1, method="auction", system=SA, bid_weights=False,
                             exact_max_layouts=20000)
            t_plain = time.perf_counter() - start
            count = s.stats["layouts"]
            t_bid = math.nan                  # the calls' weights: only for small counts
            if count <= 1000:
                start = time.perf_counter()
                sample_deals(view, 40, 1, method="auction", system=SA,
                             exact_max_layouts=20000)
                t_bid = time.perf_counter() - start
            # solving up to 100 of the layouts for every legal card of the player to move:
            # the card player's cost per layout
            k = min(len(s), 100)
            gone = sum(c.bit for _, c in played)
            trick_start = len(played) - len(played) % 4
            start = time.perf_counter()
            for d in s.deals[:k]:
                hands = [d[x].mask & ~gone for x in Seat]
                pos = Position.from_remaining(hands, auction.contract.strain,
                                              played[trick_start][0],
                                              [c for _, c in played[trick_start:]])
                solver.solve(pos)
            per = (time.perf_counter() - start) / max(k, 1)
            rows.append((t, len(view.unseen_cards), count, t_plain, t_bid, per))
    print(f"{len(rows)} views ({seen} deals, tricks 5..10 played then a lead; seed "
          f"{args.seed})")
    print(f"{'unseen':>6} {'views':>5} {'layouts med':>11} {'max':>7} {'enum s med':>10} "
          f"{'+bid s med':>10} {'solve ms/layout':>15} {'solve all s med':>15}")
    for unseen in sorted({r[1] for r in rows}, reverse=True):
        sub = [r for r in rows if r[1] == unseen]
        print(f"{unseen:6d} {len(sub):5d} {statistics.median(r[2] for r in sub):11.0f} "
              f"{max(r[2] for r in sub):7.0f} {statistics.median(r[3] for r in sub):10.4f} "
              f"{_median_known(r[4] for r in sub):10.4f} "
              f"{1000 * statistics.median(r[5] for r in sub):15.3f} "
              f"{statistics.median(r[2] * r[5] for r in sub):15.3f}")


def _median_known(values) -> float:
    known = [v for v in values if not math.isnan(v)]
    return statistics.median(known) if known else math.nan


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("speed")
    s.add_argument("-n", type=int, default=200)
    s.add_argument("--repeat", type=int, default=5)
    w = sub.add_parser("weights")
    w.add_argument("--deals", type=int, default=40)
    w.add_argument("--seed", type=int, default=7)
    w.add_argument("-n", type=int, default=40)
    w.add_argument("--tricks", type=lambda t: [int(x) for x in t.split(",")],
                   default=[1, 3, 5, 7])
    e = sub.add_parser("exact")
    e.add_argument("--deals", type=int, default=15)
    e.add_argument("--seed", type=int, default=11)
    args = p.parse_args(argv)
    {"speed": cmd_speed, "weights": cmd_weights, "exact": cmd_exact}[args.cmd](args)


if __name__ == "__main__":
    main()
