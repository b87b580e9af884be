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

Where it simulates, and what it saves (``docs/bidding.md`` has its measurements so far):

* **only real choices**: candidates that are alternatives of the same kind as the rules'
  call are compared; a decision whose alternatives cannot change the final contract much
  is not simulated at all (:func:`worth_simulating`: the opening call, a choice among
  one-level bids);
* **no Pass for a competitive bid**: in an auction the opponents have entered
  (:func:`uncontested` is false), Pass is not a candidate against the rules' bid or double
  (:attr:`SimulationSettings.pass_in_competition`: such departures lost on the tuning seeds
  and on a validation seed alike);
* **only layouts that differ**: a layout on which every candidate's auction ends in the
  same contract gains nothing for any of them and is not solved; a candidate that ends in
  the rules' own contract on every one of the first :attr:`SimulationSettings.screen`
  layouts is dropped (it changes nothing);
* **one solve per strain and declarer**: the double-dummy result of a layout is shared by
  every candidate that ends in a contract of the same strain and declarer, and solves of the
  same trump run on the same solver (its transposition table stays valid);
* **the seat's own later calls are remembered**: the hand is the same on every layout, so
  its call after the same auction is chosen once;
* **sequential stop**: layouts are dealt and solved in batches; it stops when no
  alternative can still reach the margin, when the time budget is spent, or at
  :attr:`SimulationSettings.samples` layouts.

The time per call is bounded: no new batch starts after :attr:`SimulationSettings.time_budget`
seconds (once :attr:`SimulationSettings.min_samples` layouts are solved), and a decision
that reaches :attr:`SimulationSettings.max_seconds` before that keeps the rules' call.  So a
call takes at most about ``max_seconds`` plus one batch (a batch is ``threads`` layouts per
thread: typically 0.1-0.3 s on one core).

>>> from ai.bidding import StandardAmerican
>>> from ai.bidding.simulation import SimulatingBidder, SimulationSettings
>>> bidder = SimulatingBidder(StandardAmerican(), SimulationSettings(samples=8), seed=1)
>>> from ddsolver import Auction, Hand
>>> str(bidder.choose(Hand.from_pbn("5432.5432.432.32"), Auction("N")))   # one candidate
'Pass'
"""

from __future__ import annotations

import math
import numbers
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Sequence, Tuple

from ai.players import seat_view
from ai.sampling import MAX_SAMPLES, NoLayoutError, sample_deals, submit_or_run
from ddsolver.auction import Auction, Call
from ddsolver.contract import Contract
from ddsolver.deal import Deal, Hand
from ddsolver.errors import (
    AuctionFinishedError,
    IllegalCallError,
    InvalidDealError,
    brief_repr,
)
from ddsolver.play import Position
from ddsolver.scoring import imps, score
from ddsolver.solver import MAX_MEMORY_MB, Solver
from ddsolver.table import Seat, Vulnerability

__all__ = ["BidDecision", "Evaluation", "SimulatingBidder", "SimulationSettings",
           "departure", "finish_auction", "uncontested", "worth_simulating"]

#: ``SimulationSettings.where`` values: simulate every decision with more than one candidate
#: (``"all"``), only those :func:`worth_simulating` accepts (``"choices"``), or only those
#: of them in an auction the opponents have not entered (``"uncontested"``, see
#: :func:`uncontested`).
WHERE = ("all", "choices", "uncontested")


@dataclass(frozen=True)
class SimulationSettings:
    """How the simulating bidder decides.

    :ivar samples: layouts of the hidden hands per decision (at most; 1 to
        :data:`ai.sampling.MAX_SAMPLES`).
    :ivar min_samples: layouts always used before a stop (unless ``max_seconds`` runs out).
    :ivar batch: layouts dealt, finished and solved together (then the stops are checked).
    :ivar time_budget: seconds per decision after which no new batch starts (once
        ``min_samples`` layouts are done); ``None``: no limit (see :meth:`untimed`).
    :ivar max_seconds: seconds per decision after which the simulation gives up and the
        rules' call is made if ``min_samples`` layouts are not done yet; it also caps the
        sampler (a quarter of it, at least 0.5 s); ``None``: no limit.
    :ivar max_candidates: at most this many candidates are simulated (the rules' choice and
        the next ones in the rules' order).
    :ivar judged_only: simulate only candidates that some rule accepts on its judgement too
        (:attr:`Candidate.judged`), not those whose promise alone the hand meets.
    :ivar where: ``"choices"`` (simulate only where :func:`worth_simulating` says the
        candidates are a real choice), ``"uncontested"`` (only those of them where the
        opponents have only passed: :func:`uncontested`) or ``"all"``.
    :ivar pass_in_competition: whether Pass may replace the rules' bid or double in an
        auction the opponents have entered (default no: ``docs/bidding.md``, "Fifth
        round").
    :ivar screen: after this many layouts a candidate whose auction ended in the rules' own
        final contract on every layout is dropped (0: never).
    :ivar hopeless: stop early (after ``min_samples``) when every alternative's mean gain
        plus this many standard errors is below ``margin`` (0: never stop early).
    :ivar margin: the least mean gain (IMPs at IMP scoring; a share of boards won at MP) for
        which the bidder departs from the rules' choice.
    :ivar confidence: the gain must also be at least this many standard errors.
    :ivar bid_weights: weigh the layouts by the hidden seats' calls (the sampler replays
        them with the system; slower, see :class:`ai.sampling.SamplingSettings`).
    :ivar bid_filter: with ``bid_weights``, keep each drawn layout with probability equal to
        its weight by the calls instead of weighing it (every kept layout then counts fully;
        the sampler draws at most ten times ``samples``: ``bid_filter`` of
        :class:`ai.sampling.SamplingSettings`).  Fewer than ``samples`` layouts may be kept; a
        decision left with fewer than ``min_samples`` keeps the rules' call (reason
        ``"out of time"``).
    :ivar threads: solver threads (``None``: up to 2).
    :ivar memory_mb: transposition table of each solver, MiB (1 to
        :data:`ddsolver.solver.MAX_MEMORY_MB`; the solvers are made at the first decision,
        and a table this machine cannot allocate is a MemoryError then).
    :ivar scoring: ``"IMP"`` or ``"MP"``.
    :raises ValueError: (at construction) for a value of the wrong type or out of range
        (``samples`` above :data:`ai.sampling.MAX_SAMPLES` and ``memory_mb`` above
        :data:`ddsolver.solver.MAX_MEMORY_MB` included).
    """

    samples: int = 48
    min_samples: int = 16
    batch: int = 8
    time_budget: Optional[float] = 3.0
    max_seconds: Optional[float] = 8.0
    max_candidates: int = 4
    judged_only: bool = False
    where: str = "choices"
    screen: int = 8
    hopeless: float = 1.0
    margin: float = 0.5
    confidence: float = 2.0
    bid_weights: bool = False
    bid_filter: bool = False
    pass_in_competition: bool = False
    threads: Optional[int] = None
    memory_mb: int = 32
    scoring: str = "IMP"

    def __post_init__(self):
        for name in ("samples", "min_samples", "batch", "max_candidates", "memory_mb",
                     "screen", "threads"):
            v = getattr(self, name)
            if isinstance(v, numbers.Integral) and not isinstance(v, bool):
                object.__setattr__(self, name, int(v))      # a NumPy integer too
        for name in ("samples", "min_samples", "batch", "max_candidates", "memory_mb"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
        if self.samples > MAX_SAMPLES:     # what the sampler deals at most
            raise ValueError(f"samples must be at most {MAX_SAMPLES:,} (MAX_SAMPLES), got "
                             f"{self.samples:,}")
        if self.memory_mb > MAX_MEMORY_MB:     # what a Solver takes at most
            raise ValueError(f"memory_mb must be at most {MAX_MEMORY_MB:,} MiB "
                             f"(ddsolver.solver.MAX_MEMORY_MB), got {brief_repr(self.memory_mb)}")
        if isinstance(self.screen, bool) or not isinstance(self.screen, int) or self.screen < 0:
            raise ValueError(f"screen must be an integer >= 0, got {self.screen!r}")
        for name in ("time_budget", "max_seconds", "margin", "confidence", "hopeless"):
            v = getattr(self, name)
            if v is None and name in ("time_budget", "max_seconds"):
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) \
                    or v < 0:
                raise ValueError(f"{name} must be a number >= 0, got {v!r}")
        if self.threads is not None and (isinstance(self.threads, bool)
                                         or not isinstance(self.threads, int)
                                         or self.threads < 1):
            raise ValueError(f"threads must be None or an integer >= 1, got {self.threads!r}")
        if self.scoring not in ("IMP", "MP"):
            raise ValueError(f"scoring must be 'IMP' or 'MP', got {self.scoring!r}")
        if self.where not in WHERE:
            raise ValueError(f"where must be one of {', '.join(WHERE)}, got {self.where!r}")
        for name in ("judged_only", "bid_weights", "bid_filter", "pass_in_competition"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False")

    def untimed(self) -> "SimulationSettings":
        """A copy without time limits: every decision then depends on the view and the
        random numbers only, never on the machine's speed or load (matches, benchmarks)."""
        return replace(self, time_budget=None, max_seconds=None)


@dataclass(frozen=True)
class BidDecision:
    """A call and how it was chosen.

    :ivar call: the call made.
    :ivar rules_call: the call the rules alone make.
    :ivar candidates: the calls simulated (the rules' first), or just the rules' call.
    :ivar gains: for each candidate, the mean gain over the rules' call (IMPs, or a share of
        boards won at matchpoints); 0 for the rules' call and for a candidate dropped by the
        screen.
    :ivar errors: the standard error of each gain.
    :ivar samples: layouts used; :ivar solved: layouts that needed a double-dummy solve
        (their candidates' contracts differed); :ivar seconds: time spent.
    :ivar reason: why the decision was made so: ``"one candidate"``, ``"not a real
        choice"``, ``"simulated"``, ``"no layout"`` (the sampler found none), ``"out of
        time"``.
    """

    call: Call
    rules_call: Call
    candidates: Tuple[Call, ...] = ()
    gains: Tuple[float, ...] = ()
    errors: Tuple[float, ...] = ()
    samples: int = 0
    seconds: float = 0.0
    solved: int = 0
    reason: str = "simulated"

    @property
    def departed(self) -> bool:
        """Whether the simulation overruled the rules."""
        return self.call != self.rules_call

    @property
    def simulated(self) -> bool:
        """Whether layouts were dealt and judged for this decision."""
        return self.samples > 0


def finish_auction(system, deal: Deal, auction: Auction, vulnerability: Vulnerability,
                   limit: int = 60, memo: Optional[dict] = None,
                   seat: Optional[Seat] = None) -> Auction:
    """``auction`` (a copy) finished by the system bidding every seat's hand of ``deal``.

    :param memo: optional dict of ``seat``'s calls by auction (its hand is the same in
        every deal it is used with): read and filled.
    :raises RuntimeError: if the auction does not end within ``limit`` more calls (a fault
        of the system; legal auctions always end).
    """
    a = auction.copy()
    for _ in range(limit):
        if a.is_finished:
            return a
        to_act = a.to_act
        if memo is not None and to_act == seat:
            key = a.calls
            call = memo.get(key)
            if call is None:
                call = system.choose(deal[to_act], a, vulnerability)
                memo[key] = call
        else:
            call = system.choose(deal[to_act], a, vulnerability)
        a.add(call)
    if a.is_finished:
        return a
    raise RuntimeError(f"the system's auction did not end: {a}")


# -- where a simulation is worth its time ----------------------------------------------------
def worth_simulating(calls: Sequence[Call], auction: Auction) -> bool:
    """Whether the candidates ``calls`` (the rules' call first) for the seat to act in
    ``auction`` are a real choice, one that can change the final contract much: an
    invitation or a game, a slam or not, competing or defending, a strain.

    Not real choices (measured on the tuning seeds with ``benchmarks/quality/hard_bidding.py``:
    simulating them gained nothing): the opening call (no bid made yet: the whole auction is still
    ahead, and the system's openings are its own matter), and a choice among one-level bids
    only (1♥ or 1♠ to respond: the auction goes on and the partnership still finds its
    level).
    """
    if len(calls) < 2:
        return False
    if not any(c.is_bid for c in auction.calls):
        return False
    if all(c.is_bid and c.level == 1 for c in calls):
        return False
    return True


def uncontested(auction: Auction) -> bool:
    """Whether the opponents of the seat to act in ``auction`` have made no call but Pass.

    Where this is false the hard bidder does not replace the rules' bid or double by Pass
    (:attr:`SimulationSettings.pass_in_competition`): such departures lost 58 IMPs on 82
    boards of the tuning seeds 7 and 8 and 43 on 79 boards of seed 90001
    (``docs/bidding.md``, "Fifth round").
    """
    n = len(auction.calls)
    return all(auction.calls[j].is_pass for j in range(n - 1, -1, -2))


# -- the decision rule ----------------------------------------------------------------------
def departure(gains: Sequence[float], errors: Sequence[float], margin: float,
              confidence: float, active: Optional[Sequence[bool]] = None) -> int:
    """The candidate chosen from the simulated gains over the rules' call (index 0): the one
    with the best mean gain (the first on ties) if it gains at least ``margin`` and at least
    ``confidence`` standard errors (``errors``; an infinite one never does), else the rules'
    call, 0.  ``active``: candidates still compared (the others are never chosen)."""
    def key(j):
        return (gains[j] if active is None or active[j] else -math.inf, -j)
    best = max(range(len(gains)), key=key)
    if best != 0 and (active is None or active[best]) and gains[best] >= margin \
            and gains[best] >= confidence * errors[best]:
        return best
    return 0


# -- the evaluation of one decision -----------------------------------------------------------
@dataclass
class Evaluation:
    """Layout-by-layout results of a decision's candidates (diagnostics, tuning).

    :ivar calls: the candidates, the rules' call first.
    :ivar deals: the layouts judged (complete deals: the seat's own hand and sampled
        hidden hands).
    :ivar finals: per layout, the final contract of each candidate's auction (``None``:
        passed out).
    :ivar scores: per layout, each candidate's score for the deciding side (``None`` when
        every candidate ended in the same contract: nothing to solve, every gain 0).
    :ivar weights: per layout, its weight.
    :ivar active: the candidates still compared (the screen drops the others).
    :ivar reason: ``"no layout"`` when the sampler found none, else empty.
    """

    calls: Tuple[Call, ...]
    deals: List[Deal] = field(default_factory=list)
    finals: List[Tuple[Optional[Contract], ...]] = field(default_factory=list)
    scores: List[Optional[Tuple[int, ...]]] = field(default_factory=list)
    weights: List[float] = field(default_factory=list)
    active: List[bool] = field(default_factory=list)
    solved: int = 0
    sample_seconds: float = 0.0
    finish_seconds: float = 0.0
    solve_seconds: float = 0.0
    reason: str = ""

    def diffs(self, j: int, scoring: str = "IMP") -> List[float]:
        """Per layout, candidate ``j``'s gain over the rules' call."""
        out = []
        for row in self.scores:
            if row is None or row[j] == row[0]:
                out.append(0.0)
            elif scoring == "MP":
                out.append(0.5 if row[j] > row[0] else -0.5)
            else:
                out.append(float(imps(row[j] - row[0])))
        return out

    def gain(self, j: int, scoring: str = "IMP", upto: Optional[int] = None
             ) -> Tuple[float, float]:
        """The weighted mean gain of candidate ``j`` over the rules' call and its standard
        error (``inf`` with fewer than two layouts), over the first ``upto`` layouts."""
        d = self.diffs(j, scoring)
        w = self.weights
        if upto is not None:
            d, w = d[:upto], w[:upto]
        return weighted_mean_se(d, w)


def weighted_mean_se(values: Sequence[float], weights: Sequence[float]
                     ) -> Tuple[float, float]:
    """The weighted mean of ``values`` and its standard error (by the effective sample
    size ``(sum w)^2 / sum w^2``); ``(0, inf)`` when there is nothing to average."""
    total = sum(weights)
    if not values or total <= 0:
        return 0.0, float("inf")
    mean = sum(w * v for w, v in zip(weights, values)) / total
    n_eff = total * total / sum(w * w for w in weights)
    if n_eff <= 1:
        return mean, float("inf")
    var = sum(w * (v - mean) ** 2 for w, v in zip(weights, values)) / total
    # the weighted variance is biased low by (n_eff - 1) / n_eff
    var *= n_eff / (n_eff - 1)
    return mean, math.sqrt(var / n_eff)


class SimulatingBidder:
    """The rules' candidates judged by double-dummy simulation (see the module docstring).

    Has the ``choose(hand, auction, vulnerability)`` of a bidding system, so it can stand in
    for one wherever calls are chosen; explanations still come from ``system``.

    :param system: the bidding system (e.g. :class:`ai.bidding.StandardAmerican`).
    :param settings: :class:`SimulationSettings`.
    :param seed: integer or text for reproducible decisions (the random numbers of a
        decision come from the seed, the hand and the auction only), or ``None``.
    :raises TypeError: if ``system`` has no ``candidates`` or ``settings`` is not a
        :class:`SimulationSettings`, or ``seed`` is neither an integer, text nor ``None``.
    """

    def __init__(self, system, settings: SimulationSettings = SimulationSettings(),
                 seed=None):
        if not callable(getattr(system, "candidates", None)):
            raise TypeError("the simulating bidder needs a bidding system with candidates() "
                            f"(e.g. StandardAmerican), got {type(system).__name__}")
        if not isinstance(settings, SimulationSettings):
            raise TypeError(f"settings must be SimulationSettings, got "
                            f"{type(settings).__name__}")
        if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
            seed = int(seed)        # a NumPy integer too
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise TypeError(f"seed must be an integer, text or None, got {seed!r}")
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
        #: every decision since the bidder was made or :meth:`reset_log` (benchmarks)
        self.log: List[BidDecision] = []

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

    def reset_log(self) -> None:
        """Forget the logged decisions."""
        self.log = []

    # -- the decision --------------------------------------------------------------------
    def pool(self, hand: Hand, auction: Auction,
             vulnerability: Vulnerability = Vulnerability.NONE) -> Tuple[Call, List[Call]]:
        """The rules' call and the candidates a simulation would compare (the rules' call
        first), before any layout is dealt: ``max_candidates`` of the system's candidates
        (judged ones only with ``judged_only``), or the rules' call alone when the settings'
        ``where`` says the choice is not worth a simulation.

        :raises InvalidDealError, AuctionFinishedError, TypeError, InvalidNotationError: as
            :meth:`BiddingSystem.candidates`.
        """
        cands = self.system.candidates(hand, auction, vulnerability)
        rules_call = next(c.call for c in cands if c.chosen)
        s = self.settings
        pool = [c.call for c in cands if c.chosen or not s.judged_only or c.judged]
        pool = pool[:s.max_candidates]
        contested = not uncontested(auction)
        if s.where != "all" and not worth_simulating(pool, auction) \
                or s.where == "uncontested" and contested:
            pool = [rules_call]
        elif contested and not s.pass_in_competition and not rules_call.is_pass:
            pool = [c for c in pool if not c.is_pass]
        return rules_call, pool

    def decide(self, hand: Hand, auction: Auction,
               vulnerability: Vulnerability = Vulnerability.NONE) -> BidDecision:
        """Choose a call among the rules' candidates by simulation.

        :raises InvalidDealError: if ``hand`` is not a 13-card hand.
        :raises AuctionFinishedError: if the auction is over.
        :raises IllegalCallError: if ``auction`` is not an :class:`Auction`.
        :raises TypeError, InvalidNotationError: for a bad vulnerability.
        """
        start = time.perf_counter()
        if not isinstance(hand, Hand):
            raise InvalidDealError(f"expected a Hand, got {type(hand).__name__}: {hand!r:.80}")
        if not isinstance(auction, Auction):
            raise IllegalCallError(f"expected an Auction, got {type(auction).__name__}")
        if auction.is_finished:
            raise AuctionFinishedError(
                f"the auction {' '.join(str(c) for c in auction.calls)} is finished")
        vulnerability = Vulnerability.coerce(vulnerability)
        cands = self.system.candidates(hand, auction, vulnerability)
        rules_call, calls = self.pool(hand, auction, vulnerability)
        if len(calls) < 2:
            reason = "one candidate" if len(cands) < 2 else "not a real choice"
            return self._done(BidDecision(rules_call, rules_call, (rules_call,), (0.0,),
                                          (0.0,), 0, time.perf_counter() - start,
                                          reason=reason))
        rng = self._rng(hand, auction, vulnerability)
        ev = self.evaluate(hand, auction, vulnerability, calls, rng, start=start)
        s = self.settings
        m = len(calls)
        gains, errors = [0.0] * m, [0.0] * m
        for j in range(1, m):
            gains[j], errors[j] = ev.gain(j, s.scoring)
        call = rules_call
        reason = "simulated"
        n = len(ev.finals)
        if n == 0:
            reason = ev.reason or "out of time"
        elif n < s.min_samples:
            reason = "out of time"
        else:
            call = calls[departure(gains, errors, s.margin, s.confidence, ev.active)]
        return self._done(BidDecision(call, rules_call, tuple(calls), tuple(gains),
                                      tuple(errors), n, time.perf_counter() - start,
                                      solved=ev.solved, reason=reason))

    def _done(self, decision: BidDecision) -> BidDecision:
        self.last = decision
        self.log.append(decision)
        return decision

    def evaluate(self, hand: Hand, auction: Auction, vulnerability: Vulnerability,
                 calls: Sequence[Call], rng: random.Random, samples: Optional[int] = None,
                 start: Optional[float] = None, stops: bool = True) -> Evaluation:
        """Deal up to ``samples`` (default ``settings.samples``) layouts for the seat to act
        and judge ``calls`` (the rules' call first) on them (see the module docstring).

        :param samples: ``None`` or an integer 1 to :data:`ai.sampling.MAX_SAMPLES`.
        :param stops: apply the screen, the sequential stop and the time limits (``False``:
            every layout, every candidate; for tuning).
        :returns: :class:`Evaluation` (``reason`` attribute ``"no layout"`` when the
            sampler found none).
        :raises ValueError: if ``samples`` is neither ``None`` nor an integer 1 to
            :data:`ai.sampling.MAX_SAMPLES`.
        :raises ai.sampling.SamplingError: if the sampler refuses its arguments (a
            ``system`` without ``explain_all``); no layout at all is the ``"no layout"``
            reason instead.
        """
        s = self.settings
        start = time.perf_counter() if start is None else start
        if samples is not None and (isinstance(samples, bool)
                                    or not isinstance(samples, numbers.Integral)
                                    or not 1 <= samples <= MAX_SAMPLES):
            raise ValueError(f"samples must be None or an integer 1 to {MAX_SAMPLES:,} "
                             f"(MAX_SAMPLES), got {samples!r}")
        n = s.samples if samples is None else samples
        seat = auction.to_act
        ev = Evaluation(tuple(calls), active=[True] * len(calls))
        view = seat_view(seat, hand, dealer=auction.dealer, vulnerability=vulnerability,
                         auction=auction)
        t0 = time.perf_counter()
        cap = None if s.max_seconds is None or not stops else max(0.5, s.max_seconds / 4)
        try:
            layouts = sample_deals(view, n, rng, method="auction", system=self.system,
                                   bid_weights=s.bid_weights, bid_filter=s.bid_filter,
                                   max_seconds=cap, bid_seconds=cap)
        except NoLayoutError:
            ev.reason = "no layout"
            return ev
        ev.sample_seconds = time.perf_counter() - t0
        deals = list(layouts)
        memo: dict = {}
        i = 0
        while i < len(deals):
            now = time.perf_counter() - start
            done = len(ev.finals)
            if stops:
                if done < s.min_samples and s.max_seconds is not None and now > s.max_seconds:
                    break
                if done >= s.min_samples and (
                        (s.time_budget is not None and now > s.time_budget)
                        or self._settled(ev)):
                    break
            batch = deals[i:i + s.batch]
            self._judge(ev, batch, auction, seat, vulnerability, memo)
            ev.weights.extend(layouts.weights[i:i + len(batch)])
            i += len(batch)
            if stops and s.screen and len(ev.finals) >= s.screen:
                self._screen(ev)
        return ev

    def _screen(self, ev: Evaluation) -> None:
        for j in range(1, len(ev.calls)):
            if ev.active[j] and all(f[j] == f[0] for f in ev.finals):
                ev.active[j] = False

    def _settled(self, ev: Evaluation) -> bool:
        """Whether no active alternative can still reach the margin."""
        s = self.settings
        if s.hopeless <= 0:
            return False
        for j in range(1, len(ev.calls)):
            if not ev.active[j]:
                continue
            g, e = ev.gain(j, s.scoring)
            if g + s.hopeless * e >= s.margin:
                return False
        return True

    def _judge(self, ev: Evaluation, deals: Sequence[Deal], auction: Auction, seat: Seat,
               vul: Vulnerability, memo: dict) -> None:
        t0 = time.perf_counter()
        rows = []
        for deal in deals:
            finals = []
            for j, call in enumerate(ev.calls):
                if not ev.active[j]:
                    finals.append(None)
                    continue
                a = auction.copy()
                a.add(call)
                finals.append(finish_auction(self.system, deal, a, vul, memo=memo,
                                             seat=seat).contract)
            # an inactive candidate counts as the rules' own contract
            finals = [f if ev.active[j] else finals[0] for j, f in enumerate(finals)]
            rows.append(tuple(finals))
        t1 = time.perf_counter()
        ev.finish_seconds += t1 - t0
        # the (layout, strain, declarer) solves needed: only where contracts differ
        jobs: Dict[Tuple[int, int, int], Optional[int]] = {}
        for k, finals in enumerate(rows):
            if len(set(finals)) > 1:
                for c in finals:
                    if c is not None:
                        jobs[(k, int(c.strain), int(c.declarer))] = None
        if jobs:
            self._solve(jobs, deals)
        for k, finals in enumerate(rows):
            ev.deals.append(deals[k])
            ev.finals.append(finals)
            if len(set(finals)) == 1:
                ev.scores.append(None)
                continue
            ev.solved += 1
            row = []
            for c in finals:
                if c is None:
                    row.append(0)
                    continue
                tricks = jobs[(k, int(c.strain), int(c.declarer))]
                points = score(c, tricks, vul.is_vulnerable(c.declarer))
                row.append(points if c.declarer.side == seat.side else -points)
            ev.scores.append(tuple(row))
        ev.solve_seconds += time.perf_counter() - t1

    def _solve(self, jobs: Dict[Tuple[int, int, int], Optional[int]],
               deals: Sequence[Deal]) -> None:
        """Declarer's double-dummy tricks for every ``(layout, strain, declarer)`` key of
        ``jobs`` (filled in place); keys of one strain go to the same solver, in order, so
        that its transposition table stays valid between them."""
        solvers, pool = self._solvers_and_pool()
        keys = sorted(jobs, key=lambda k: (k[1], k[0], k[2]))

        def work(solver: Solver, part):
            for k, strain, declarer in part:
                d = Seat(declarer)
                pos = Position(deals[k], trump=strain, leader=d.lho)
                # solve_best counts the leader's side: declarer takes the rest
                jobs[(k, strain, declarer)] = 13 - solver.solve_best(pos)

        if pool is None or len(keys) < 2:
            work(solvers[0], keys)
            return
        parts = _split(keys, len(solvers))
        futures = [submit_or_run(pool, work, solvers[j], part)
                   for j, part in enumerate(parts) if part]
        for f in futures:
            f.result()

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
        """Release the solver threads (the bidder can still be used afterwards; a decision
        under way in another thread finishes on its own thread)."""
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None

    def with_settings(self, **changes) -> "SimulatingBidder":
        """A new bidder with some settings changed.

        :raises ValueError: for a bad setting; :raises TypeError: for an unknown one.
        """
        return SimulatingBidder(self.system, replace(self.settings, **changes), self.seed)


def _split(keys: List, parts: int) -> List[List]:
    """``keys`` in ``parts`` contiguous runs of nearly equal length (solves of one strain
    stay together as much as possible)."""
    n = len(keys)
    out = []
    for p in range(parts):
        out.append(keys[p * n // parts:(p + 1) * n // parts])
    return out
