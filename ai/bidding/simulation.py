"""A bidder that thinks with the solver: the rules' candidates judged by simulation.

At a decision where the system's rules leave a real choice (:meth:`BiddingSystem.candidates`
lists more than one call whose explanation the hand satisfies: invite or bid game, slam or
not, compete or defend, which strain), the bidder

1. deals the hidden hands consistently with the auction and its explanations
   (:func:`ai.sampling.sample_deals`, method ``"auction"``),
2. for each candidate call finishes the auction with the system (every seat bidding its
   layout's hand by the rules),
3. scores each resulting contract double dummy at the vulnerability (the duplicate table;
   a passed-out board scores 0),
4. and makes the call with the best expected result: at IMPs the mean IMPs it gains over the
   rules' own choice, at matchpoints the mean of winning (1), tying (1/2) or losing (0)
   against it.

It departs from the rules' choice only when the best alternative gains at least
:attr:`SimulationSettings.margin` on average and that gain is at least
:attr:`SimulationSettings.confidence` standard errors above zero.  Because it only chooses
among calls whose explanation the hand satisfies, partner's and the opponents' reading of
every call stays true.  The idea is ben's bidding search (github lorserker/ben, "bidding
with simulation"), here made explainable by choosing among the rules' own calls; GIB bid
the same way with its borel simulations (Ginsberg, JAIR 14, 2001).

>>> from ai.bidding import StandardAmerican
>>> from ai.bidding.simulation import SimulatingBidder, SimulationSettings
>>> bidder = SimulatingBidder(StandardAmerican(), SimulationSettings(samples=8), seed=1)
>>> from ddsolver import Auction, Hand
>>> str(bidder.choose(Hand.from_pbn("5432.5432.432.32"), Auction("N")))   # one candidate
'Pass'
"""

from __future__ import annotations

import math
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Dict, List, Optional, Sequence, Tuple

from ai.players import seat_view
from ai.sampling import sample_deals
from ddsolver.auction import Auction, Call
from ddsolver.deal import Deal, Hand
from ddsolver.play import Position
from ddsolver.scoring import imps, score
from ddsolver.solver import Solver
from ddsolver.table import Seat, Vulnerability

__all__ = ["BidDecision", "SimulatingBidder", "SimulationSettings"]


@dataclass(frozen=True)
class SimulationSettings:
    """How the simulating bidder decides.

    :ivar samples: layouts of the hidden hands per decision (at most).
    :ivar min_samples: layouts always used, whatever the time budget.
    :ivar time_budget: seconds per decision: layouts are dealt and solved in chunks until
        the budget is spent.
    :ivar max_candidates: at most this many candidates are simulated (the rules' choice and
        the next ones in the rules' order).
    :ivar judged_only: simulate only candidates that some rule accepts on its judgement too
        (:attr:`Candidate.judged`), not those whose promise alone the hand meets.
    :ivar margin: the least mean gain (IMPs at IMP scoring; a share of boards won at MP) for
        which the bidder departs from the rules' choice.
    :ivar confidence: the gain must also be at least this many standard errors.
    :ivar threads: solver threads (``None``: up to 2).
    :ivar memory_mb: transposition table of each solver, MiB.
    :ivar scoring: ``"IMP"`` or ``"MP"``.
    """

    samples: int = 32
    min_samples: int = 12
    time_budget: float = 3.0
    max_candidates: int = 4
    judged_only: bool = False
    margin: float = 0.5
    confidence: float = 2.0
    threads: Optional[int] = None
    memory_mb: int = 32
    scoring: str = "IMP"

    def __post_init__(self):
        for name in ("samples", "min_samples", "max_candidates", "memory_mb"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
        for name in ("time_budget", "margin", "confidence"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) \
                    or v < 0:
                raise ValueError(f"{name} must be a number >= 0, got {v!r}")
        if self.threads is not None and (isinstance(self.threads, bool)
                                         or not isinstance(self.threads, int)
                                         or self.threads < 1):
            raise ValueError(f"threads must be None or an integer >= 1, got {self.threads!r}")
        if self.scoring not in ("IMP", "MP"):
            raise ValueError(f"scoring must be 'IMP' or 'MP', got {self.scoring!r}")


@dataclass(frozen=True)
class BidDecision:
    """A call and how it was chosen.

    :ivar call: the call made.
    :ivar rules_call: the call the rules alone make.
    :ivar candidates: the calls simulated (the rules' first), or just the rules' call.
    :ivar gains: for each candidate, the mean gain over the rules' call (IMPs, or a share of
        boards won at matchpoints); 0 for the rules' call.
    :ivar errors: the standard error of each gain.
    :ivar samples: layouts used; :ivar seconds: time spent.
    """

    call: Call
    rules_call: Call
    candidates: Tuple[Call, ...] = ()
    gains: Tuple[float, ...] = ()
    errors: Tuple[float, ...] = ()
    samples: int = 0
    seconds: float = 0.0

    @property
    def departed(self) -> bool:
        """Whether the simulation overruled the rules."""
        return self.call != self.rules_call


def finish_auction(system, deal: Deal, auction: Auction, vulnerability: Vulnerability,
                   limit: int = 60) -> Auction:
    """``auction`` (a copy) finished by the system bidding every seat's hand of ``deal``.

    :raises RuntimeError: if the auction does not end within ``limit`` more calls (a fault
        of the system; legal auctions always end).
    """
    a = auction.copy()
    for _ in range(limit):
        if a.is_finished:
            return a
        seat = a.to_act
        a.add(system.choose(deal[seat], a, vulnerability))
    if a.is_finished:
        return a
    raise RuntimeError(f"the system's auction did not end: {a}")


class SimulatingBidder:
    """The rules' candidates judged by double-dummy simulation (see the module docstring).

    Has the ``choose(hand, auction, vulnerability)`` of a bidding system, so it can stand in
    for one wherever calls are chosen; explanations still come from ``system``.

    :param system: the bidding system (e.g. :class:`ai.bidding.StandardAmerican`).
    :param settings: :class:`SimulationSettings`.
    :param seed: integer or text for reproducible decisions (the random numbers of a
        decision come from the seed, the hand and the auction only), or ``None``.
    """

    def __init__(self, system, settings: SimulationSettings = SimulationSettings(),
                 seed=None):
        if not callable(getattr(system, "candidates", None)):
            raise TypeError("the simulating bidder needs a bidding system with candidates() "
                            f"(e.g. StandardAmerican), got {type(system).__name__}")
        if not isinstance(settings, SimulationSettings):
            raise TypeError(f"settings must be SimulationSettings, got "
                            f"{type(settings).__name__}")
        self.system = system
        self.settings = settings
        self.seed = seed
        self.name = f"{getattr(system, 'name', 'system')} + simulation"
        self._threads = settings.threads or min(2, os.cpu_count() or 1)
        self._solvers: List[Solver] = []
        self._pool: Optional[ThreadPoolExecutor] = None
        self._lock = threading.Lock()
        #: the last decision (diagnostics, benchmarks)
        self.last: Optional[BidDecision] = None

    # -- a bidding system's face -----------------------------------------------------------
    def explain(self, auction, call):
        """The system's explanation (the simulation never changes a call's meaning)."""
        return self.system.explain(auction, call)

    def explain_all(self, auction):
        """The system's explanations of every call of ``auction``."""
        return self.system.explain_all(auction)

    def candidates(self, hand, auction, vulnerability=Vulnerability.NONE):
        """The system's candidates (see :meth:`BiddingSystem.candidates`)."""
        return self.system.candidates(hand, auction, vulnerability)

    def hint(self, hand, auction, vulnerability=Vulnerability.NONE):
        """The system's hint (the rules' call and its explanation)."""
        return self.system.hint(hand, auction, vulnerability)

    def choose(self, hand: Hand, auction: Auction,
               vulnerability: Vulnerability = Vulnerability.NONE) -> Call:
        """The call for the seat to act (see :meth:`decide`)."""
        return self.decide(hand, auction, vulnerability).call

    # -- the decision --------------------------------------------------------------------
    def decide(self, hand: Hand, auction: Auction,
               vulnerability: Vulnerability = Vulnerability.NONE) -> BidDecision:
        """Choose a call among the rules' candidates by simulation.

        :raises InvalidDealError: if ``hand`` is not a 13-card hand.
        :raises AuctionFinishedError: if the auction is over.
        :raises TypeError, InvalidNotationError: for a bad vulnerability.
        """
        start = time.perf_counter()
        vulnerability = Vulnerability.coerce(vulnerability)
        cands = self.system.candidates(hand, auction, vulnerability)
        rules_call = next(c.call for c in cands if c.chosen)
        pool = [c for c in cands if c.chosen or not self.settings.judged_only or c.judged]
        pool = pool[:self.settings.max_candidates]
        if len(pool) < 2:
            decision = BidDecision(rules_call, rules_call, (rules_call,), (0.0,), (0.0,), 0,
                                   time.perf_counter() - start)
            self.last = decision
            return decision
        calls = [c.call for c in pool]           # the rules' call first
        seat = auction.to_act
        view = seat_view(seat, hand, dealer=auction.dealer, vulnerability=vulnerability,
                         auction=auction)
        rng = self._rng(hand, auction, vulnerability)
        s = self.settings
        samples = sample_deals(view, s.samples, rng, method="auction", system=self.system,
                               bid_weights=False)
        results: List[List[int]] = []            # per layout: our side's score per call
        weights: List[float] = []
        deals = list(samples)
        chunk = max(1, self._threads)
        i = 0
        while i < len(deals):
            if len(results) >= s.min_samples and time.perf_counter() - start > s.time_budget:
                break
            batch = deals[i:i + chunk]
            rows = self._run(batch, auction, calls, seat, vulnerability)
            results.extend(rows)
            weights.extend(samples.weights[i:i + len(batch)])
            i += len(batch)
        gains, errors = self._gains(results, weights)
        best = max(range(len(calls)), key=lambda j: (gains[j], -j))
        call = rules_call
        if best != 0 and gains[best] >= s.margin and \
                gains[best] >= s.confidence * errors[best] and errors[best] > 0:
            call = calls[best]
        decision = BidDecision(call, rules_call, tuple(calls), tuple(gains), tuple(errors),
                               len(results), time.perf_counter() - start)
        self.last = decision
        return decision

    def _rng(self, hand: Hand, auction: Auction, vulnerability: Vulnerability):
        if self.seed is None:
            return random.Random()
        key = f"{self.seed}:bid:{hand.to_pbn()}:{auction.dealer.letter}:" \
              f"{' '.join(map(str, auction.calls))}:{vulnerability.pbn}"
        return random.Random(key)

    def _solvers_and_pool(self):
        with self._lock:
            while len(self._solvers) < self._threads:
                self._solvers.append(Solver(memory_mb=self.settings.memory_mb))
            if self._pool is None and self._threads > 1:
                self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="simbid")
            return self._solvers, self._pool

    def close(self) -> None:
        """Release the solver threads."""
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None

    def _run(self, deals: Sequence[Deal], auction: Auction, calls: Sequence[Call],
             seat: Seat, vul: Vulnerability) -> List[List[int]]:
        solvers, pool = self._solvers_and_pool()
        # the auctions are finished in this thread (the system is not thread-safe); the
        # double-dummy solves run in parallel
        jobs = []
        for deal in deals:
            finals = []
            for call in calls:
                a = auction.copy()
                a.add(call)
                finals.append(finish_auction(self.system, deal, a, vul).contract)
            jobs.append((deal, finals))

        def solve(solver: Solver, deal: Deal, finals) -> List[int]:
            tricks: Dict[Tuple[int, int], int] = {}
            row = []
            for contract in finals:
                if contract is None:
                    row.append(0)
                    continue
                key = (int(contract.strain), int(contract.declarer))
                if key not in tricks:
                    pos = Position(deal, trump=contract.strain, leader=contract.declarer.lho)
                    # solve_best counts the leader's side: declarer takes the rest
                    tricks[key] = 13 - solver.solve_best(pos)
                points = score(contract, tricks[key], vul.is_vulnerable(contract.declarer))
                row.append(points if contract.declarer.side == seat.side else -points)
            return row

        if pool is None or len(jobs) == 1:
            return [solve(solvers[0], d, f) for d, f in jobs]
        futures = [pool.submit(solve, solvers[j % len(solvers)], d, f)
                   for j, (d, f) in enumerate(jobs)]
        return [f.result() for f in futures]

    def _gains(self, results: List[List[int]], weights: List[float]):
        m = len(results[0]) if results else 1
        total = sum(weights)
        if not results or total <= 0:
            return [0.0] * m, [0.0] * m
        gains, errors = [], []
        for j in range(m):
            if self.settings.scoring == "MP":
                diffs = [(1.0 if r[j] > r[0] else 0.5 if r[j] == r[0] else 0.0) - 0.5
                         for r in results]
            else:
                diffs = [float(imps(r[j] - r[0])) for r in results]
            mean = sum(w * d for w, d in zip(weights, diffs)) / total
            # standard error of a weighted mean (effective sample size)
            n_eff = total * total / sum(w * w for w in weights)
            var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs)) / total
            errors.append(math.sqrt(var / n_eff) if n_eff > 1 else float("inf"))
            gains.append(mean)
        return gains, errors

    def with_settings(self, **changes) -> "SimulatingBidder":
        """A new bidder with some settings changed."""
        return SimulatingBidder(self.system, replace(self.settings, **changes), self.seed)
