"""Layouts of the unseen cards consistent with what one seat sees, and constrained deals.

:func:`sample_deals` deals the cards a :class:`~ai.players.SeatView` does not show to the
seats that hold them, keeping every card the view shows where it is (the seat's own hand,
dummy, the cards played) and every void shown by a failure to follow suit.

Methods (``method=``):

- ``"uniform"``: every layout consistent with the known cards and the shown voids is equally
  likely: the plain Monte Carlo sampler that GIB popularised (Ginsberg, "GIB: Imperfect
  information in a computationally challenging game", JAIR 14, 2001).  A baseline.
- ``"rejection"``: uniform layouts kept only when each hidden hand satisfies the HCP and
  suit-length constraints the auction gave it (:func:`ai.inference.infer`); simple rejection
  with a cap on tries (the second baseline of the play-strength benchmark).
- ``"auction"`` (**the method the hard computer should use**): every layout that satisfies
  the known cards, the shown voids and every constraint the auction gave each hidden seat
  (HCP range, suit lengths, balanced, stoppers, aces shown by Blackwood answers), each
  equally likely a priori, drawn *exactly* without rejecting whole deals (see "How the
  auction method deals" below); then each layout is weighed by how well it explains the
  calls and the cards the hidden players chose (:class:`SamplingSettings`).  When few
  layouts are possible it returns every one of them (:attr:`Samples.exact`).  When no layout
  fits (a misbid, a misplay) it relaxes the constraints in a documented order and says so
  (:attr:`Samples.relaxed`).  It needs ``system=`` (the bidding system that explains the
  calls, e.g. :class:`ai.bidding.StandardAmerican`; this module does not import it).

How the auction method deals (an exact sampler; the idea of dealing a hand's suit lengths
first, weighted by the number of card combinations, then the cards within the suits, as
described in ``docs/design/cardplay.md``, "Sampling without waste", made exact by dynamic
programming):

- *Two hidden seats* (every decision after the opening lead): the unseen cards of each suit
  are split between the two seats.  A split of one suit is "``d`` cards to the first seat,
  of which these honours (A K Q J)"; the spot cards then go in ``C(spots, d - honours)``
  ways.  Suit lengths, voids and stoppers are local to a suit; HCP, aces, the hand size and
  balanced (every suit 2..5 and at most one doubleton) are sums over the suits.  A forward
  pass over the four suits counts, for every partial state (cards, HCP and aces given to the
  first seat, doubletons of each seat), the number of card layouts reaching it; a backward
  pass then draws a final state that meets every constraint in proportion to its count and
  walks back suit by suit, so every consistent layout is drawn with the same probability and
  nothing is rejected.  The count is exact, which also gives exact enumeration and an
  instant proof that no layout fits.
- *Three or more hidden seats* (the opening lead; the analyst's deals): the seat whose
  constraints are the tightest (the smallest share of hands meeting them, counted exactly)
  is drawn by the same dynamic programme against the other seats taken together; the other
  seats' cards are then shuffled and split, and the draw is kept only if they meet their
  own constraints.  This is exact rejection sampling whose acceptance rate is that of the
  *other* seats only (a 2♣ opener's 22+ HCP costs nothing).

Random numbers: only :meth:`random.Random.random` (Mersenne Twister), whose sequence for a
given seed Python guarantees on every platform and version; integers and shuffles are
derived from it here (no ``shuffle``/``randrange``, whose algorithms may change), counts are
summed in a fixed order and nothing depends on hash order.  The same view, seed and settings
give the same layouts everywhere (the weights too, unless a time budget cut the play checks
short).  The baselines ``"uniform"`` and ``"rejection"`` keep their original behaviour.

The analyst's tools use the same machinery: :func:`deal_constrained` deals from per-seat
constraints and known cards (what ``redeal`` and endplay's dealer are used for), and
:func:`simulate_contract` gives the distribution of double-dummy tricks for a contract over
such deals (the ``ddsolver-ai simulate`` command).
"""

from __future__ import annotations

import bisect
import itertools
import math
import numbers
import random
import re
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, fields, replace
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ai.constraints import MAX_HCP, HandConstraints
from ai.inference import infer
from ai.players import SeatView
from ddsolver.auction import Auction
from ddsolver.cards import Card, Strain, cards_of_mask
from ddsolver.deal import Deal, Hand, pbn_hand_mask
from ddsolver.errors import BridgeError, InvalidDealError, brief_repr
from ddsolver.play import Position
from ddsolver.solver import MAX_MEMORY_MB, CancelGroup, Solver
from ddsolver.table import Seat

__all__ = ["MAX_SAMPLES", "METHODS", "RELAXATION_ORDER", "NoLayoutError", "SamplingError",
           "SamplingSettings", "SamplingTypeError", "Samples", "Simulation", "deal_constrained",
           "declarer_tricks", "sample_deals", "simulate_contract"]

_SUIT_MASK = 0xFFFF

#: The sampling methods :func:`sample_deals` knows.
METHODS = ("uniform", "rejection", "auction")

#: The most layouts or deals one call asks for: ``n`` of :func:`sample_deals`,
#: :func:`deal_constrained` and :func:`simulate_contract` (and ``-n`` of ``ddsolver-ai
#: simulate``), and :attr:`SamplingSettings.exact_max_layouts`.  A million deals take about
#: 0.6 GB and a minute to deal; more is refused rather than left to exhaust the memory.
MAX_SAMPLES = 1_000_000


class SamplingError(BridgeError):
    """No layout of the unseen cards satisfies the view (or the sampler's arguments are
    bad: a negative count, an unknown method or setting)."""


class SamplingTypeError(SamplingError, TypeError):
    """An argument of the wrong type (constraints, known cards, a mapping that is not
    one): a :class:`SamplingError` that is also a :class:`TypeError`."""


class NoLayoutError(SamplingError):
    """No deal satisfies the constraints (given to :func:`deal_constrained`, or the known
    cards and shown voids of a view)."""


@dataclass(frozen=True)
class Samples:
    """Complete deals consistent with a view, with their weights.

    A sequence of :class:`~ddsolver.deal.Deal` (``len``, iteration, indexing).

    :ivar deals: the layouts, as complete deals of the original 13-card hands.
    :ivar weights: one non-negative weight per deal (relative likelihood; they need not
        sum to 1).
    :ivar exact: ``True`` when :attr:`deals` is every consistent layout (enumeration),
        each with its exact weight.
    :ivar relaxed: the constraints that had to be dropped to find layouts, in the order
        they were dropped (empty when none was), e.g. ``("W: stoppers", "W: hcp+-2")``;
        also ``"play weights"`` / ``"bidding weights"`` when those gave every layout a
        zero weight and were dropped.
    :ivar tries: layouts drawn to find these (rejection) or ``len(deals)``.
    :ivar stats: what the draw cost (``"auction"`` only): ``layouts`` (the exact number of
        consistent layouts when known, two hidden seats), ``deal_seconds``,
        ``bid_checks`` (calls replayed with the bidding system), ``bid_seconds``,
        ``bid_dropped`` (layouts dropped unweighed at the end of ``bid_seconds``),
        ``play_cards`` (hidden players' cards checked), ``play_solves`` (layouts
        checked: one batch solve each), ``play_seconds``.
    """

    deals: Tuple[Deal, ...]
    weights: Tuple[float, ...]
    exact: bool = False
    relaxed: Tuple[str, ...] = ()
    tries: int = 0
    stats: Mapping[str, float] = field(default_factory=dict, compare=False)

    def __len__(self) -> int:
        return len(self.deals)

    def __iter__(self):
        return iter(self.deals)

    def __getitem__(self, i):
        return self.deals[i]


@dataclass(frozen=True)
class SamplingSettings:
    """Settings of the ``"auction"`` method; every field can also be passed to
    :func:`sample_deals` as a keyword (``sample_deals(view, 50, rng, method="auction",
    system=sa, play_weights=True)``).

    Dealing:

    :ivar exact_max_layouts: when the view has at most this many consistent layouts (two
        hidden seats; counted exactly), return every one of them with ``exact=True``, even
        if that is more than ``n`` (0: never; at most :data:`MAX_SAMPLES`).  Measured in
        ``benchmarks/NOTES.md`` ("Sampling").
    :ivar max_tries: three or more hidden seats: draws at most (a draw is one hand of the
        tightest seat plus a split of the rest); fewer than ``n`` layouts are returned when
        it is reached, and none found means the constraints are relaxed.
    :ivar max_seconds: the same cap in seconds, a positive number (``None``: no time cap),
        as :func:`deal_constrained` takes it.  Not 0: dealing cannot take no time (the
        clock is read every 256 draws), and a view that found nothing in that time would
        have its constraints relaxed one by one.

    Weights by the calls (the bidding system is asked what each hidden seat would have
    called with the layout's hand, as GIB filtered its deals through its bidding module):

    :ivar bid_weights: weigh by the calls.
    :ivar misbid_weight: the weight of a layout in which some hidden seat would have called
        otherwise with its hand (a call the system makes, replayed with ``system.choose``),
        against 1 for a layout that explains every call (0: a strict filter).
    :ivar bid_cache: a dict the caller keeps (e.g. one per board) so that a hand already
        replayed is not replayed again; ``None``: a fresh one per call.
    :ivar bid_seconds: time budget of the calls' weights in seconds (``None``: none).  The
        layouts (drawn at random, or enumerated and shuffled) are weighed in order until the
        budget is spent (at least 8 of them); the others are dropped, so fewer than ``n``
        layouts may come back, each correctly weighted (and ``exact`` is then ``False``;
        ``stats["bid_dropped"]`` says how many).
    :ivar bid_filter: instead of weighing, keep each drawn layout with probability equal
        to its weight by the calls (1 or ``misbid_weight``): the kept layouts follow the
        weighted distribution exactly and their weights leave the calls out.  Draws at most
        ``bid_draws * n`` layouts (and stops at ``bid_seconds``); fewer than ``n`` may be
        returned.
    :ivar bid_draws: see ``bid_filter``.

    Weights by the play (GIB's and ben's "a card that would have been a clear double-dummy
    mistake in that layout makes it less likely"):

    :ivar play_weights: weigh by the hidden players' cards.
    :ivar play_checks: how many of the hidden players' cards to check, the most recent
        first.
    :ivar play_mistake_weight: factor per trick a checked card loses double dummy in the
        layout, against that player's best card.
    :ivar check_opening_lead: also check the opening lead (off by default: the leader chose
        it without seeing dummy).
    :ivar play_seconds: time budget of the play checks in seconds (``None``: none).  Cards
        are checked one at a time across every layout; a card not finished in time is not
        used.  With a budget the weights can depend on the machine's speed.
    :ivar threads: threads for the play checks, one :class:`~ddsolver.Solver` each.
    :ivar solver_memory_mb: transposition table of each such solver, MiB (1 to
        :data:`ddsolver.solver.MAX_MEMORY_MB`).

    Weights by carding (no solving):

    :ivar lowest_equals_weight: factor per card for a layout in which a hidden player,
        following suit, played a card while holding the next lower card of the suit still
        out (a touching card: the two are equal).  Standard carding, and this engine's own
        players (:mod:`ai.cardplay`: "equivalent cards give the lowest"), follow with the
        lowest of touching cards, so such a layout is less likely: the restricted-choice
        argument, with a player who always plays the lowest of equals (Kelsey and
        Glauert, *Bridge Odds for Practical Players*, on restricted choice).  Leads and
        discards are not weighed (conventions differ: top of a sequence, signals).
        ``1.0``: off.
    """

    exact_max_layouts: int = 1000
    max_tries: int = 200_000
    max_seconds: Optional[float] = 20.0
    bid_weights: bool = True
    misbid_weight: float = 0.05
    bid_cache: Optional[dict] = field(default=None, compare=False)
    bid_filter: bool = False
    bid_draws: int = 10
    bid_seconds: Optional[float] = None
    play_weights: bool = False
    play_checks: int = 4
    play_mistake_weight: float = 0.25
    check_opening_lead: bool = False
    play_seconds: Optional[float] = None
    threads: int = 1
    solver_memory_mb: int = 64
    lowest_equals_weight: float = 1.0

    def checked(self) -> "SamplingSettings":
        """The settings, checked.

        :raises SamplingError: a value of the wrong type or out of range.
        """
        def integer(name, lo):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < lo:
                raise SamplingError(f"{name} must be an integer >= {lo}, got {v!r}")

        integer("exact_max_layouts", 0)
        if self.exact_max_layouts > MAX_SAMPLES:
            raise SamplingError(f"exact_max_layouts must be at most {MAX_SAMPLES:,} "
                                f"(MAX_SAMPLES), got {self.exact_max_layouts!r}")

        def number(name, lo, hi, optional=False):
            v = getattr(self, name)
            if v is None and optional:
                return
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
                raise SamplingError(f"{name} must be a number in [{lo}, {hi}], got {v!r}")

        integer("play_checks", 0)
        for name in ("max_tries", "threads", "solver_memory_mb", "bid_draws"):
            integer(name, 1)
        if self.solver_memory_mb > MAX_MEMORY_MB:    # what a Solver takes at most
            raise SamplingError(f"solver_memory_mb must be at most {MAX_MEMORY_MB:,} MiB "
                                f"(ddsolver.solver.MAX_MEMORY_MB), got "
                                f"{brief_repr(self.solver_memory_mb)}")
        for name in ("misbid_weight", "play_mistake_weight", "lowest_equals_weight"):
            number(name, 0.0, 1.0)
        if self.max_seconds is not None and (
                isinstance(self.max_seconds, bool)
                or not isinstance(self.max_seconds, (int, float))
                or not 0 < self.max_seconds <= math.inf):
            # as deal_constrained checks it (bid_seconds and play_seconds may be 0: the
            # weights then take the least work, which is well defined)
            raise SamplingError(f"max_seconds must be a positive number or None, got "
                                f"{self.max_seconds!r}")
        number("play_seconds", 0.0, math.inf, optional=True)
        number("bid_seconds", 0.0, math.inf, optional=True)
        for name in ("bid_weights", "bid_filter", "play_weights", "check_opening_lead"):
            if not isinstance(getattr(self, name), bool):
                raise SamplingError(f"{name} must be True or False")
        if self.bid_cache is not None and not isinstance(self.bid_cache, dict):
            raise SamplingError("bid_cache must be a dict or None")
        return self


_SETTING_NAMES = frozenset(f.name for f in fields(SamplingSettings))


# -- random numbers: only rng.random(), whose sequence Python guarantees -----------------------
def _below(rng: random.Random, n: int) -> int:
    """A uniform integer 0..n-1 (n >= 1)."""
    return min(int(rng.random() * n), n - 1)


def _shuffled(rng: random.Random, items: Sequence) -> list:
    """A uniformly shuffled copy (Fisher-Yates)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _pick(rng: random.Random, items: Sequence, k: int) -> list:
    """``k`` of ``items`` chosen uniformly (a partial Fisher-Yates)."""
    pool = list(items)
    n = len(pool)
    for i in range(k):
        j = i + _below(rng, n - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def _choose(rng: random.Random, cum: Sequence[float]) -> int:
    """An index drawn in proportion to the increments of the cumulative weights ``cum``."""
    i = bisect.bisect_right(cum, rng.random() * cum[-1])
    return min(i, len(cum) - 1)


# -- hands as masks ---------------------------------------------------------------------------
def _pop(x: int) -> int:
    return bin(x).count("1")


def _suit(mask: int, suit: int) -> int:
    return (mask >> (16 * suit)) & _SUIT_MASK


def _bits_hcp(bits: int) -> int:
    """HCP of one suit's rank bits."""
    return 4 * (bits >> 14 & 1) + 3 * (bits >> 13 & 1) + 2 * (bits >> 12 & 1) + (bits >> 11 & 1)


def _stopper(bits: int, length: int) -> bool:
    """A, Kx, Qxx or Jxxx (as :func:`ai.constraints.has_stopper`)."""
    return bool(bits >> 14 & 1 or (bits >> 13 & 1 and length >= 2)
                or (bits >> 12 & 1 and length >= 3) or (bits >> 11 & 1 and length >= 4))


def _mask_ok(mask: int, cons: Optional[HandConstraints]) -> bool:
    """Whether the 13-card hand ``mask`` meets ``cons`` (same as
    :meth:`HandConstraints.satisfied_by`, on a mask)."""
    if cons is None:
        return True
    hcp = aces = dbl = 0
    bal = True
    for s in range(4):
        bits = _suit(mask, s)
        n = _pop(bits)
        lo, hi = cons.lengths[s]
        if not lo <= n <= hi:
            return False
        if s in cons.stoppers and not _stopper(bits, n):
            return False
        hcp += _bits_hcp(bits)
        aces += bits >> 14 & 1
        if n == 2:
            dbl += 1
        elif not 3 <= n <= 5:
            bal = False
    if not cons.hcp[0] <= hcp <= cons.hcp[1]:
        return False
    if cons.aces is not None and aces not in cons.aces:
        return False
    if cons.balanced is not None and (bal and dbl <= 1) != cons.balanced:
        return False
    return True


def _active(cons: Optional[HandConstraints]) -> Optional[HandConstraints]:
    """``None`` for missing or trivial constraints."""
    return None if cons is None or cons.is_trivial else cons


# -- the exact two-seat dealer ----------------------------------------------------------------
@dataclass(frozen=True)
class _Spec:
    """One seat to deal to.

    :ivar known: cards known to be in the seat's original hand (mask).
    :ivar need: cards still to deal to it.
    :ivar voids: suits (bits) of which it may receive no unseen card.
    :ivar alts: the hand must meet at least one of these; ``()``: any hand.
    """

    seat: Seat
    known: int
    need: int
    voids: int = 0
    alts: Tuple[HandConstraints, ...] = ()


def _bal_next(state: int, cat: int) -> int:
    """Balanced tracking: state 0/1 = doubletons so far with every suit 2..5, 2 = not
    balanced; ``cat`` 0 = a suit of 3..5, 1 = a doubleton, 2 = a suit outside 2..5."""
    if state == 2 or cat == 2:
        return 2
    return min(state + cat, 2)


def _bal_cat(length: int) -> int:
    return 0 if 3 <= length <= 5 else 1 if length == 2 else 2


class _PairDP:
    """Every split of the unseen cards between seats ``a`` and ``b`` meeting ``ca`` and
    ``cb`` (``None``: any hand), counted by suit and drawn uniformly (module docstring)."""

    def __init__(self, unseen: int, a: _Spec, b: _Spec, ca: Optional[HandConstraints],
                 cb: Optional[HandConstraints]):
        self.a, self.b = a, b
        ca, cb = _active(ca), _active(cb)
        self.ca, self.cb = ca, cb
        cons = [c for c in (ca, cb) if c is not None]
        track_h = any(c.hcp != (0, MAX_HCP) for c in cons)
        track_a = any(c.aces is not None for c in cons)
        bal_a = ca is not None and ca.balanced is not None
        bal_b = cb is not None and cb.balanced is not None
        ht = sum(_bits_hcp(_suit(unseen, s)) for s in range(4))
        at = sum(_suit(unseen, s) >> 14 & 1 for s in range(4))
        C = a.need + 1
        H = ht + 1 if track_h else 1
        AA = at + 1 if track_a else 1
        BA = 3 if bal_a else 1
        BB = 3 if bal_b else 1
        self.dims = (C, H, AA, BA, BB)
        F = np.zeros(self.dims)
        F[0, 0, 0, 0, 0] = 1.0
        self._F: List[np.ndarray] = []
        self._keys: List[list] = []
        self._entries: List[tuple] = []
        self._spots: List[list] = []
        self._cache: List[dict] = [dict() for _ in range(4)]
        for t in range(4):
            bits = _suit(unseen, t)
            u = _pop(bits)
            hon = [r for r in (14, 13, 12, 11) if bits >> r & 1]
            spots = [r for r in range(2, 11) if bits >> r & 1]
            self._spots.append(spots)
            ka, kb = _suit(a.known, t), _suit(b.known, t)
            kla, klb = _pop(ka), _pop(kb)
            keys: Dict[tuple, list] = {}
            for d in range(u + 1):
                if d and a.voids >> t & 1 or d < u and b.voids >> t & 1:
                    continue
                if d > a.need or u - d > b.need:
                    continue
                la, lb = kla + d, klb + u - d
                if ca is not None and not ca.lengths[t][0] <= la <= ca.lengths[t][1]:
                    continue
                if cb is not None and not cb.lengths[t][0] <= lb <= cb.lengths[t][1]:
                    continue
                cat_a = _bal_cat(la) if bal_a else 0
                cat_b = _bal_cat(lb) if bal_b else 0
                for sub in range(1 << len(hon)):
                    ra = 0
                    for i, r in enumerate(hon):
                        if sub >> i & 1:
                            ra |= 1 << r
                    k = _pop(ra)
                    if k > d or len(hon) - k > u - d:
                        continue
                    rb = 0
                    for r in hon:
                        if not ra >> r & 1:
                            rb |= 1 << r
                    if ca is not None and t in ca.stoppers and not _stopper(ka | ra, la):
                        continue
                    if cb is not None and t in cb.stoppers and not _stopper(kb | rb, lb):
                        continue
                    w = float(math.comb(len(spots), d - k))
                    x = _bits_hcp(ra) if track_h else 0
                    ac = ra >> 14 & 1 if track_a else 0
                    key = (d, x, ac)
                    if key not in keys:
                        keys[key] = [0.0, [], cat_a, cat_b]
                    keys[key][0] += w
                    keys[key][1].append((ra, w))
            klist = [(key, v[0], v[2], v[3], v[1]) for key, v in keys.items()]
            self._keys.append(klist)
            # transitions for the backward pass: (key index, source balanced states, target)
            ent = []
            for j, (key, w, cat_a, cat_b, _) in enumerate(klist):
                for ba0 in range(BA):
                    for bb0 in range(BB):
                        ent.append((key[0], key[1], key[2], w, ba0, bb0,
                                    _bal_next(ba0, cat_a) if bal_a else 0,
                                    _bal_next(bb0, cat_b) if bal_b else 0, j))
            arr = np.array(ent, dtype=np.float64).reshape(-1, 9)
            self._entries.append(tuple(arr[:, i].astype(np.int64) if i != 3 else arr[:, i]
                                       for i in range(9)))
            self._F.append(F)
            G = np.zeros(self.dims)
            groups: Dict[tuple, list] = {}
            for key, w, cat_a, cat_b, _ in klist:
                groups.setdefault((cat_a, cat_b), []).append((key, w))
            for (cat_a, cat_b), members in groups.items():
                S = np.zeros(self.dims)
                for (d, x, ac), w in members:
                    if d >= C or x >= H or ac >= AA:
                        continue
                    S[d:, x:, ac:] += w * F[:C - d, :H - x, :AA - ac]
                for ba0 in range(BA):
                    nba = _bal_next(ba0, cat_a) if bal_a else 0
                    for bb0 in range(BB):
                        nbb = _bal_next(bb0, cat_b) if bal_b else 0
                        G[:, :, :, nba, nbb] += S[:, :, :, ba0, bb0]
            F = G
        # the final states that meet every constraint
        kh_a = sum(_bits_hcp(_suit(a.known, s)) for s in range(4))
        kh_b = sum(_bits_hcp(_suit(b.known, s)) for s in range(4))
        ka_a = sum(_suit(a.known, s) >> 14 & 1 for s in range(4))
        ka_b = sum(_suit(b.known, s) >> 14 & 1 for s in range(4))
        ok = np.ones((H, AA, BA, BB), dtype=bool)
        if track_h:
            h = np.arange(H)
            good = np.ones(H, dtype=bool)
            if ca is not None:
                good &= (kh_a + h >= ca.hcp[0]) & (kh_a + h <= ca.hcp[1])
            if cb is not None:
                good &= (kh_b + ht - h >= cb.hcp[0]) & (kh_b + ht - h <= cb.hcp[1])
            ok &= good[:, None, None, None]
        if track_a:
            good = np.ones(AA, dtype=bool)
            for x in range(AA):
                if ca is not None and ca.aces is not None and ka_a + x not in ca.aces:
                    good[x] = False
                if cb is not None and cb.aces is not None and ka_b + at - x not in cb.aces:
                    good[x] = False
            ok &= good[None, :, None, None]
        for cons_, axis, tracked in ((ca, 2, bal_a), (cb, 3, bal_b)):
            if tracked:
                good = np.array([s < 2 for s in range(3)]) if cons_.balanced \
                    else np.array([s == 2 for s in range(3)])
                shape = [1, 1, 1, 1]
                shape[axis] = 3
                ok &= good.reshape(shape)
        final = F[a.need] * ok
        idx = np.nonzero(final.ravel())[0]
        self._final_states = [np.unravel_index(int(i), final.shape) for i in idx]
        self._final_cum = list(itertools.accumulate(final.ravel()[idx].tolist()))
        self.total = self._final_cum[-1] if self._final_cum else 0.0

    # -- drawing ----------------------------------------------------------------------------
    def _cond(self, t: int, state: tuple):
        """The ways of reaching ``state`` after suit ``t``: (cumulative weights, choices)."""
        hit = self._cache[t].get(state)
        if hit is not None:
            return hit
        c, h, a, ba, bb = state
        E_d, E_x, E_a, E_w, E_ba0, E_bb0, E_ba, E_bb, E_j = self._entries[t]
        m = (E_ba == ba) & (E_bb == bb) & (E_d <= c) & (E_x <= h) & (E_a <= a)
        idx = np.nonzero(m)[0]
        vals = E_w[idx] * self._F[t][c - E_d[idx], h - E_x[idx], a - E_a[idx], E_ba0[idx],
                                      E_bb0[idx]]
        keep = np.nonzero(vals > 0)[0]
        vals = vals[keep].tolist()
        idx = idx[keep]
        choices = [(int(E_j[i]), (c - int(E_d[i]), h - int(E_x[i]), a - int(E_a[i]),
                                  int(E_ba0[i]), int(E_bb0[i]))) for i in idx]
        out = (list(itertools.accumulate(vals)), choices)
        self._cache[t][state] = out
        return out

    def sample(self, rng: random.Random) -> int:
        """The cards dealt to seat ``a`` in one uniformly drawn layout (a mask)."""
        h, ac, ba, bb = self._final_states[_choose(rng, self._final_cum)]
        state = (self.a.need, int(h), int(ac), int(ba), int(bb))
        mask = 0
        for t in (3, 2, 1, 0):
            cum, choices = self._cond(t, state)
            j, state = choices[_choose(rng, cum)]
            key, _, _, _, subs = self._keys[t][j]
            d = key[0]
            if len(subs) == 1:
                ra = subs[0][0]
            else:
                ra = subs[_choose(rng, list(itertools.accumulate(w for _, w in subs)))][0]
            bits = ra
            for r in _pick(rng, self._spots[t], d - _pop(ra)):
                bits |= 1 << r
            mask |= bits << (16 * t)
        return mask

    def layouts(self) -> Iterable[int]:
        """Every consistent layout once (the cards dealt to seat ``a``), in a fixed order."""
        for h, ac, ba, bb in self._final_states:
            yield from self._walk(3, (self.a.need, int(h), int(ac), int(ba), int(bb)))

    def _walk(self, t: int, state: tuple) -> Iterable[int]:
        if t < 0:
            yield 0
            return
        _, choices = self._cond(t, state)
        for j, src in choices:
            key, _, _, _, subs = self._keys[t][j]
            d = key[0]
            for ra, _ in subs:
                for spots in itertools.combinations(self._spots[t], d - _pop(ra)):
                    bits = ra
                    for r in spots:
                        bits |= 1 << r
                    for rest in self._walk(t - 1, src):
                        yield rest | (bits << (16 * t))


class _Dealer:
    """Deals ``unseen`` to the seats of ``specs`` (every layout meeting the specs equally
    likely).  Two seats: :class:`_PairDP`.  Three or four: the tightest seat by
    :class:`_PairDP` against the rest, the rest by an exact rejection step."""

    def __init__(self, unseen: int, specs: Sequence[_Spec]):
        self.unseen = unseen
        self.specs = tuple(specs)
        if sum(s.need for s in self.specs) != _pop(unseen):
            raise SamplingError("the hands to deal do not add up to the unseen cards")
        self.k = len(self.specs)
        self.count: Optional[float] = None       # exact number of layouts, when known
        self.culprits: Tuple[Seat, ...] = ()
        self._pairs: List[Tuple[_PairDP, float]] = []
        if self.k == 0:
            self.count = 1.0
        elif self.k == 1:
            spec = self.specs[0]
            ok = not any(_suit(unseen, t) and spec.voids >> t & 1 for t in range(4)) and (
                not spec.alts or any(_mask_ok(spec.known | unseen, c) for c in spec.alts))
            self.count = 1.0 if ok else 0.0
            if not ok:
                self.culprits = (spec.seat,)
        elif self.k == 2:
            a, b = self.specs
            for ca in a.alts or (None,):
                for cb in b.alts or (None,):
                    dp = _PairDP(unseen, a, b, ca, cb)
                    if dp.total > 0:
                        self._pairs.append((dp, dp.total))
            self.overlap = len(a.alts) > 1 or len(b.alts) > 1
            self.count = sum(w for _, w in self._pairs)
            if self.count == 0:
                self.culprits = self._alone_infeasible()
            elif self.overlap:
                self.count = None                 # alternatives may overlap: not known
        else:
            self._setup_many()

    def _merged(self, others: Sequence[_Spec]) -> _Spec:
        voids = 0b1111
        for s in others:
            voids &= s.voids
        return _Spec(others[0].seat, 0, sum(s.need for s in others), voids, ())

    def _alone_infeasible(self) -> Tuple[Seat, ...]:
        """Seats whose own constraints no layout meets (the others unconstrained)."""
        out = []
        for i, s in enumerate(self.specs):
            if not s.alts:
                continue
            rest = [o for j, o in enumerate(self.specs) if j != i]
            w = self._merged(rest)
            if all(_PairDP(self.unseen, s, w, c, None).total == 0 for c in s.alts):
                out.append(s.seat)
        return tuple(out)

    def _sums_impossible(self) -> bool:
        """A quick necessary condition for three or more seats: the seats' least HCP, aces
        and suit lengths cannot exceed what the unseen cards hold (nor their most fall
        short of it); alternatives count by their loosest bound."""
        dealt = [s for s in self.specs if s.alts]
        if not dealt:
            return False

        def lo_hi(s, get):
            return min(get(c)[0] for c in s.alts), max(get(c)[1] for c in s.alts)

        free_hcp = sum(_bits_hcp(_suit(self.unseen, t)) for t in range(4))
        free_aces = sum(_suit(self.unseen, t) >> 14 & 1 for t in range(4))
        lo = hi = 0
        alo = ahi = 0
        for s in self.specs:
            kh = sum(_bits_hcp(_suit(s.known, t)) for t in range(4))
            ka = sum(_suit(s.known, t) >> 14 & 1 for t in range(4))
            if s.alts:
                a, b = lo_hi(s, lambda c: c.hcp)
                lo += max(0, a - kh)
                hi += max(0, b - kh)
                aces = [c.aces for c in s.alts]
                if any(x is None for x in aces):
                    ahi += 4
                else:
                    alo += max(0, min(min(x) for x in aces) - ka)
                    ahi += max(0, max(max(x) for x in aces) - ka)
            else:
                hi += MAX_HCP
                ahi += 4
        if lo > free_hcp or hi < free_hcp or alo > free_aces or ahi < free_aces:
            return True
        for t in range(4):
            free = _pop(_suit(self.unseen, t))
            lo = hi = 0
            for s in self.specs:
                k = _pop(_suit(s.known, t))
                if s.voids >> t & 1:
                    continue
                if s.alts:
                    a, b = lo_hi(s, lambda c: c.lengths[t])
                    lo += max(0, a - k)
                    hi += max(0, min(b - k, s.need))
                else:
                    hi += s.need
            if lo > free or hi < free:
                return True
        return False

    def _setup_many(self) -> None:
        u = _pop(self.unseen)
        if self._sums_impossible():
            self.count = 0.0
            return
        best = None
        zero = []
        for i, s in enumerate(self.specs):
            if not s.alts:
                continue
            rest = [o for j, o in enumerate(self.specs) if j != i]
            w = self._merged(rest)
            pairs = [(dp, dp.total) for dp in (_PairDP(self.unseen, s, w, c, None)
                                               for c in s.alts) if dp.total > 0]
            share = sum(t for _, t in pairs) / math.comb(u, s.need)
            if share == 0:
                zero.append(s.seat)
            elif best is None or share < best[0]:
                best = (share, i, pairs)
        if zero:
            self.culprits = tuple(zero)
            self.count = 0.0
            return
        if best is None:              # nobody constrained: the first seat, any hand
            i = 0
            rest = list(self.specs[1:])
            dp = _PairDP(self.unseen, self.specs[0], self._merged(rest), None, None)
            pairs = [(dp, dp.total)] if dp.total > 0 else []
        else:
            _, i, pairs = best
        self._x = i
        self._pairs = pairs
        self._rest = [s for j, s in enumerate(self.specs) if j != i]
        self.overlap = len(self.specs[i].alts) > 1

    @property
    def feasible(self) -> bool:
        return bool(self._pairs) or (self.k < 2 and self.count == 1.0)

    def _pick_pair(self, rng):
        if len(self._pairs) == 1:
            return self._pairs[0][0]
        cum = list(itertools.accumulate(w for _, w in self._pairs))
        return self._pairs[_choose(rng, cum)][0]

    @staticmethod
    def _n_met(mask: int, spec: _Spec) -> int:
        return sum(1 for c in spec.alts if _mask_ok(mask, c)) if spec.alts else 1

    def draw(self, rng: random.Random) -> Optional[Dict[Seat, int]]:
        """One layout (the full original hand of every spec's seat), or ``None`` when this
        draw was rejected."""
        if self.k == 0:
            return {}
        if self.k == 1:
            s = self.specs[0]
            return {s.seat: s.known | self.unseen}
        dp = self._pick_pair(rng)
        dealt = dp.sample(rng)
        if self.k == 2:
            a, b = self.specs
            hands = {a.seat: a.known | dealt, b.seat: b.known | (self.unseen & ~dealt)}
            if self.overlap:
                m = self._n_met(hands[a.seat], a) * self._n_met(hands[b.seat], b)
                if m > 1 and rng.random() * m >= 1.0:
                    return None
            return hands
        x = self.specs[self._x]
        hands = {x.seat: x.known | dealt}
        if self.overlap:
            m = self._n_met(hands[x.seat], x)
            if m > 1 and rng.random() * m >= 1.0:
                return None
        rest = _shuffled(rng, list(cards_of_mask(self.unseen & ~dealt)))
        i = 0
        for s in self._rest:
            m = 0
            for c in rest[i:i + s.need]:
                m |= c.bit
            i += s.need
            for t in range(4):
                if s.voids >> t & 1 and _suit(m, t):
                    return None
            m |= s.known
            if s.alts and not any(_mask_ok(m, c) for c in s.alts):
                return None
            hands[s.seat] = m
        return hands

    def layouts(self) -> List[Dict[Seat, int]]:
        """Every layout (two seats or fewer), in a fixed order; duplicates removed when
        alternatives overlap."""
        if self.k < 2:
            return [self.draw(random.Random(0))] if self.feasible else []
        if self.k > 2:
            raise SamplingError("exact enumeration needs at most two hidden seats")
        a, b = self.specs
        seen = set()
        out = []
        for dp, _ in self._pairs:
            for dealt in dp.layouts():
                if dealt in seen:
                    continue
                seen.add(dealt)
                out.append({a.seat: a.known | dealt, b.seat: b.known | (self.unseen & ~dealt)})
        return out


# -- relaxation -------------------------------------------------------------------------------
# (the constraints relaxed may be a contradiction, which the constructor refuses: built unchecked)
_relaxed = HandConstraints._unchecked


def _widen_hcp(by: int):
    def step(c: HandConstraints) -> HandConstraints:
        lo, hi = c.hcp
        return _relaxed((max(0, lo - by) if lo > 0 else 0,
                         min(MAX_HCP, hi + by) if hi < MAX_HCP else MAX_HCP),
                        c.lengths, c.balanced, c.stoppers, c.aces)
    return step


def _widen_lengths(c: HandConstraints) -> HandConstraints:
    return _relaxed(c.hcp, tuple((max(0, lo - 1), min(13, hi + 1)) for lo, hi in c.lengths),
                    c.balanced, c.stoppers, c.aces)


#: The order in which the ``"auction"`` method drops a hidden seat's constraints when no
#: layout meets them all (a misbid, or a misplay that contradicts the auction).  Each step
#: applies to the seats whose own constraints no layout meets, or to every constrained
#: seat when only their combination is impossible.  Weights never make a layout impossible
#: unless a weight factor is 0: then the play weights are dropped first, then the bidding
#: weights (``Samples.relaxed`` says "play weights" / "bidding weights").
RELAXATION_ORDER: Tuple[Tuple[str, object], ...] = (
    ("stoppers", lambda c: _relaxed(c.hcp, c.lengths, c.balanced, frozenset(), c.aces)),
    ("aces", lambda c: _relaxed(c.hcp, c.lengths, c.balanced, c.stoppers, None)),
    ("hcp+-2", _widen_hcp(2)),
    ("hcp+-4", _widen_hcp(4)),
    ("hcp", lambda c: _relaxed((0, MAX_HCP), c.lengths, c.balanced, c.stoppers, c.aces)),
    ("balanced", lambda c: _relaxed(c.hcp, c.lengths, None, c.stoppers, c.aces)),
    ("lengths+-1", _widen_lengths),
    ("lengths", lambda c: _relaxed(c.hcp, HandConstraints().lengths, c.balanced, c.stoppers,
                                   c.aces)),
    ("all", lambda c: HandConstraints()),
)


# -- the baselines ----------------------------------------------------------------------------
def _known_masks(view: SeatView) -> Tuple[Dict[Seat, int], int, Dict[Seat, int], Dict[Seat, int]]:
    """(known cards per seat's original hand, unseen mask, cards still to deal per hidden
    seat, void mask per seat as suit bits)."""
    known = {s: view.known_cards(s).mask for s in Seat}
    unseen = view.unseen_cards.mask
    need = {s: 13 - bin(known[s]).count("1") for s in view.hidden_seats}
    voids = {s: sum(1 << int(x) for x in v) for s, v in view.voids.items()}
    return known, unseen, need, voids


def _allowed(card: Card, seat: Seat, voids: Dict[Seat, int]) -> bool:
    return not (voids[seat] >> int(card.suit)) & 1


def _deal_uniform(known, unseen_cards: List[Card], need, voids, rng: random.Random,
                  hidden: Sequence[Seat]) -> Optional[Deal]:
    """One uniformly random layout, or ``None`` if this draw failed (3 hidden seats with
    voids: the caller retries)."""
    cards = list(unseen_cards)
    if len(hidden) == 2:
        a, b = hidden
        forced_a = [c for c in cards if not _allowed(c, b, voids)]
        forced_b = [c for c in cards if not _allowed(c, a, voids)]
        if any(not _allowed(c, a, voids) and not _allowed(c, b, voids) for c in cards):
            raise SamplingError("an unseen card's suit has been shown out of by both "
                                "hidden seats")
        free = [c for c in cards if _allowed(c, a, voids) and _allowed(c, b, voids)]
        k = need[a] - len(forced_a)
        if k < 0 or k > len(free):
            raise SamplingError("the shown voids leave no room for the unseen cards")
        rng.shuffle(free)
        hands = dict(known)
        hands[a] |= sum(c.bit for c in forced_a + free[:k])
        hands[b] |= sum(c.bit for c in forced_b + free[k:])
        return Deal([Hand(hands[s]) for s in Seat])
    rng.shuffle(cards)
    hands = dict(known)
    i = 0
    for s in hidden:
        for c in cards[i:i + need[s]]:
            if not _allowed(c, s, voids):
                return None
            hands[s] |= c.bit
        i += need[s]
    return Deal([Hand(hands[s]) for s in Seat])


def _sample_baseline(view, n, rng, method, system, max_tries: Optional[int]) -> Samples:
    known, unseen, need, voids = _known_masks(view)
    hidden = view.hidden_seats
    cards = sorted(cards_of_mask(unseen))
    checks = {}
    if method == "rejection":
        inferred = infer(view.auction, system)
        checks = {s: inferred[s].constraints for s in hidden
                  if not inferred[s].constraints.is_trivial}
    deals: List[Deal] = []
    tries = 0
    if max_tries is not None:
        limit = max_tries
    else:
        limit = 20_000 if method == "rejection" else max(50 * n, 1000)
    while len(deals) < n and tries < limit:
        tries += 1
        deal = _deal_uniform(known, cards, need, voids, rng, hidden)
        if deal is None:
            continue
        if checks and not all(c.satisfied_by(deal[s]) for s, c in checks.items()):
            continue
        deals.append(deal)
    if n and not deals and method == "uniform":
        raise SamplingError(f"no layout of the unseen cards fits the shown voids (in "
                            f"{tries} tries)")
    return Samples(tuple(deals), tuple(1.0 for _ in deals), tries=tries)


# -- the auction method -----------------------------------------------------------------------
def _draw_many(dealer: _Dealer, n: int, rng: random.Random, settings: SamplingSettings
               ) -> Tuple[List[Dict[Seat, int]], int]:
    out: List[Dict[Seat, int]] = []
    tries = 0
    deadline = None if settings.max_seconds is None else time.monotonic() + settings.max_seconds
    while len(out) < n and tries < settings.max_tries:
        tries += 1
        hands = dealer.draw(rng)
        if hands is not None:
            out.append(hands)
        if deadline is not None and tries % 256 == 0 and time.monotonic() > deadline:
            break
    return out, tries


def _view_specs(view: SeatView, cons: Dict[Seat, Optional[HandConstraints]]) -> List[_Spec]:
    known, _, need, voids = _known_masks(view)
    return [_Spec(s, known[s], need[s], voids[s], () if cons.get(s) is None else (cons[s],))
            for s in view.hidden_seats]


def _deals_from(view: SeatView, layouts: Sequence[Dict[Seat, int]]) -> List[Deal]:
    known = {s: view.known_cards(s).mask for s in Seat}
    out = []
    for hands in layouts:
        out.append(Deal([Hand(hands.get(s, known[s])) for s in Seat]))
    return out


def _sample_auction(view: SeatView, n: int, rng: random.Random, system,
                    settings: SamplingSettings) -> Samples:
    t0 = time.perf_counter()
    hidden = view.hidden_seats
    inferred = infer(view.auction, system)
    cons: Dict[Seat, Optional[HandConstraints]] = {
        s: _active(inferred[s].constraints) for s in hidden}
    unseen = view.unseen_cards.mask
    relaxed: List[str] = []
    stage = 0
    layouts: List[Dict[Seat, int]] = []
    rejected: List[Dict[Seat, int]] = []
    tries = 0
    exact = False
    count = None
    check = _BidCheck(view, system, settings) if settings.bid_weights and n else None
    filtering = check is not None and settings.bid_filter
    while True:
        dealer = _Dealer(unseen, _view_specs(view, cons))
        if dealer.feasible:
            count = dealer.count
            if count is not None and count <= settings.exact_max_layouts:
                # in random order, so that a caller who solves only the first ones (a time
                # budget) still gets a uniform choice of them
                layouts = _shuffled(rng, dealer.layouts()) if n else []
                tries = len(layouts)
                exact = True
                break
            if filtering:
                layouts, tries, rejected = _draw_filtered(dealer, n, rng, settings, check)
                if layouts or rejected or not n:
                    break
            else:
                layouts, tries = _draw_many(dealer, n, rng, settings)
                if layouts or not n:
                    break
            culprits = tuple(s for s in hidden if cons[s] is not None)
        else:
            culprits = dealer.culprits or tuple(s for s in hidden if cons[s] is not None)
        if not culprits or stage >= len(RELAXATION_ORDER):
            raise NoLayoutError("no layout of the unseen cards fits the known cards and the "
                                "shown voids")
        # drop the next constraint that changes something for the culprits
        while stage < len(RELAXATION_ORDER):
            name, step = RELAXATION_ORDER[stage]
            stage += 1
            changed = False
            for s in culprits:
                new = _active(step(cons[s])) if cons[s] is not None else None
                if new != cons[s]:
                    cons[s] = new
                    relaxed.append(f"{s.letter}: {name}")
                    changed = True
            if changed:
                break
    stats: Dict[str, object] = {"layouts": count}
    bid = None
    if check is not None:
        if filtering and not exact:
            if not layouts and rejected:
                relaxed.append("bidding weights")
                layouts = rejected[:n]
            bid = [1.0] * len(layouts)
        else:
            # within the budget: the layouts come in random order, so those weighed in
            # time are a uniform choice of them, correctly weighted; the rest are dropped
            deadline = (None if settings.bid_seconds is None
                        else time.monotonic() + settings.bid_seconds)
            bid = []
            for h in layouts:
                if deadline is not None and len(bid) >= _BID_MIN and \
                        time.monotonic() > deadline:
                    break
                bid.append(check.factor(h))
            if len(bid) < len(layouts):
                stats["bid_dropped"] = len(layouts) - len(bid)
                layouts = layouts[:len(bid)]
                exact = False
        stats.update(bid_checks=check.asked, bid_seconds=check.seconds)
    deals = _deals_from(view, layouts)
    stats["deal_seconds"] = time.perf_counter() - t0 - stats.get("bid_seconds", 0.0)
    play = None
    if deals and settings.play_weights:
        play, pstats = _play_factors(view, deals, settings)
        stats.update(pstats)
    if deals and settings.lowest_equals_weight < 1.0:
        equals = _equals_factors(view, deals, settings.lowest_equals_weight)
        play = equals if play is None else [x * y for x, y in zip(play, equals)]
    weights = [1.0] * len(deals)
    if bid is not None and play is not None:
        weights = [x * y for x, y in zip(bid, play)]
        if not any(weights):
            relaxed.append("play weights")
            weights = list(bid)
    elif play is not None:
        weights = list(play)
        if not any(weights):
            relaxed.append("play weights")
            weights = [1.0] * len(deals)
    elif bid is not None:
        weights = list(bid)
    if deals and not any(weights):
        relaxed.append("bidding weights")
        weights = [1.0] * len(deals)
    return Samples(tuple(deals), tuple(weights), exact=exact, relaxed=tuple(relaxed),
                   tries=tries, stats=stats)


def _draw_filtered(dealer: _Dealer, n: int, rng: random.Random, settings: SamplingSettings,
                   check: "_BidCheck"):
    """Layouts each kept with probability equal to its calls' weight (so the kept ones
    follow the weighted distribution exactly), until ``n`` are kept or the budget
    (``bid_draws`` per sample, ``bid_seconds``, ``max_tries``) runs out.  Returns (kept,
    draws, the first rejected ones)."""
    kept: List[Dict[Seat, int]] = []
    rejected: List[Dict[Seat, int]] = []
    draws = 0
    limit = min(settings.max_tries, settings.bid_draws * n)
    deadline = (None if settings.bid_seconds is None
                else time.monotonic() + settings.bid_seconds)
    while len(kept) < n and draws < limit:
        draws += 1
        hands = dealer.draw(rng)
        if hands is None:
            continue
        f = check.factor(hands)
        if f >= 1.0 or rng.random() < f:
            kept.append(hands)
        elif len(rejected) < n:
            rejected.append(hands)
        if deadline is not None and time.monotonic() > deadline:
            break
    return kept, draws, rejected


# -- weights by the calls ---------------------------------------------------------------------
#: Layouts always weighed by the calls, whatever ``bid_seconds`` says.
_BID_MIN = 8


class _BidCheck:
    """Would the system have made the hidden seats' calls with a layout's hands?

    Each hidden seat's calls that the system itself makes are replayed with
    ``system.choose`` (a call explained as "not in the system" is skipped: no hand would
    make it); the first call it would not have made ends the check.  The calls that have
    failed most often so far are asked first (the order changes the cost, never the
    result).  Results are cached per (auction, seat, hand) in ``settings.bid_cache`` when
    given.
    """

    def __init__(self, view: SeatView, system, settings: SamplingSettings):
        hidden = set(view.hidden_seats)
        calls = view.calls
        auction = view.auction
        self.system = system
        self.vulnerability = view.vulnerability
        self.weight = settings.misbid_weight
        self.cache = settings.bid_cache if settings.bid_cache is not None else {}
        self.checks: List[Tuple[Seat, list]] = []
        self.asked = 0
        self.seconds = 0.0
        self._done = 0
        if not calls:
            return
        explanations = system.explain_all(auction)
        by_seat: Dict[Seat, list] = {}
        for i, call in enumerate(calls):
            seat = auction.seat_of(i)
            if seat in hidden and getattr(explanations[i], "in_system", True):
                # [prefix, call, times it failed, position in the auction]
                by_seat.setdefault(seat, []).append([Auction(view.dealer, calls[:i]), call,
                                                     0, i])
        self.checks = [(s, by_seat[s]) for s in Seat if s in by_seat]
        self.key = (int(view.dealer), tuple(str(c) for c in calls), view.vulnerability.pbn,
                    getattr(system, "name", type(system).__name__))

    def _reorder(self) -> None:
        for _, items in self.checks:
            items.sort(key=lambda it: (-it[2], it[3]))
        self.checks.sort(key=lambda si: (-sum(it[2] for it in si[1]), int(si[0])))

    def factor(self, hands: Mapping[Seat, int]) -> float:
        """``misbid_weight`` if some hidden seat would have called otherwise, else 1."""
        if not self.checks:
            return 1.0
        t0 = time.perf_counter()
        self._done += 1
        if self._done % 8 == 0:
            self._reorder()
        try:
            for seat, items in self.checks:
                key = (self.key, int(seat), hands[seat])
                good = self.cache.get(key)
                if good is None:
                    good = True
                    hand = Hand(hands[seat])
                    for item in items:
                        self.asked += 1
                        if self.system.choose(hand, item[0], self.vulnerability) != item[1]:
                            item[2] += 1
                            good = False
                            break
                    self.cache[key] = good
                if not good:
                    return self.weight
            return 1.0
        finally:
            self.seconds += time.perf_counter() - t0


# -- weights by the play ----------------------------------------------------------------------
_local = threading.local()


def _thread_solver(memory_mb: int) -> Solver:
    solver = getattr(_local, "solver", None)
    if solver is None or getattr(_local, "memory_mb", None) != memory_mb:
        solver = Solver(memory_mb)
        _local.solver = solver
        _local.memory_mb = memory_mb
    return solver


#: Layouts per batch solve of a play check (the deadline is looked at between batches).
PLAY_BATCH = 8


class _PlayCheck:
    """One hidden player's card to check: the position just before it."""

    def __init__(self, view: SeatView, i: int):
        self.seat, self.card = view.played[i]
        start = i - i % 4
        self.leader = view.played[start][0]
        self.trick = [c for _, c in view.played[start:i]]
        before = 0
        for _, c in view.played[:i]:
            before |= c.bit
        self.keep = np.uint64(~before & 0xFFFFFFFFFFFFFFFF)
        self.trump = view.trump

    def losses(self, hands: np.ndarray, solver: Solver) -> np.ndarray:
        """Tricks the card loses double dummy against the player's best card, per layout
        (rows of ``hands``: the masks N, E, S, W of the whole deal), in one batch solve
        (:meth:`ddsolver.solver.Solver.card_losses`)."""
        return solver.card_losses(hands & self.keep, self.trump, self.leader, self.trick,
                                  self.card)


_pools: Dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def _play_pool(threads: int) -> ThreadPoolExecutor:
    """The play checks' threads, kept for the life of the process: each keeps its solver
    (:func:`_thread_solver`) and so its transposition table from decision to decision (a
    pool made per decision cost 18 % more process CPU on 5 deals of seed 2025, untimed,
    two threads: a fresh table each time; benchmarks/NOTES.md)."""
    with _pools_lock:
        pool = _pools.get(threads)
        if pool is None:
            pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="playcheck")
            _pools[threads] = pool
        return pool


def submit_or_run(pool: ThreadPoolExecutor, fn, *args) -> Future:
    """``pool.submit(fn, *args)``, or ``fn(*args)`` run here when ``pool`` has been shut
    down meanwhile (a player's ``close()`` called from another thread while a decision is
    under way; also at interpreter exit): the decision then ends on the calling thread with
    the same result instead of failing with ``RuntimeError``."""
    try:
        return pool.submit(fn, *args)
    except RuntimeError:
        future: Future = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:    # re-raised by future.result(), as from the pool
            future.set_exception(exc)
        return future


def _play_factors(view: SeatView, deals: Sequence[Deal], settings: SamplingSettings):
    """``play_mistake_weight ** (tricks lost)`` per deal over the checked cards (the hidden
    players' most recent ones), within the time budget."""
    t0 = time.perf_counter()
    hidden = set(view.hidden_seats)
    idx = [i for i in range(len(view.played) - 1, -1, -1)
           if view.played[i][0] in hidden and (i > 0 or settings.check_opening_lead)]
    idx = idx[:settings.play_checks]
    factors = [1.0] * len(deals)
    stats = {"play_cards": 0, "play_solves": 0, "play_seconds": 0.0}
    if not idx or view.trump is None:
        return factors, stats
    deadline = (None if settings.play_seconds is None
                else time.monotonic() + settings.play_seconds)
    w = settings.play_mistake_weight
    threads = min(settings.threads, len(deals))
    hands = np.array([d.masks() for d in deals], dtype=np.uint64)
    weight = np.ones(len(deals))
    pool = _play_pool(threads) if threads > 1 else None
    for i in idx:
        check = _PlayCheck(view, i)
        stop = threading.Event()

        def work(part, check=check, stop=stop):
            solver = _thread_solver(settings.solver_memory_mb)
            res = []
            for j in range(0, len(part), PLAY_BATCH):
                if stop.is_set() or (deadline is not None and time.monotonic() > deadline):
                    stop.set()
                    return None
                res.append(check.losses(part[j:j + PLAY_BATCH], solver))
            return np.concatenate(res) if res else np.zeros(0, dtype=np.int8)

        if pool is None:
            parts = [work(hands)]
        else:
            # the layouts split between the threads, the most recent card first: under a
            # budget it is the one checked (splitting the checks between the threads
            # instead searched as many nodes, but could leave every check unfinished)
            size = -(-len(deals) // threads)
            futures = [pool.submit(work, hands[j:j + size])
                       for j in range(0, len(deals), size)]
            parts = [f.result() for f in futures]
        if any(p is None for p in parts):
            break                      # out of time: this card is not used
        lost = np.concatenate(parts)
        weight *= np.power(w, lost.astype(np.float64))
        stats["play_solves"] += len(deals)
        stats["play_cards"] += 1
    factors = weight.tolist()
    stats["play_seconds"] = time.perf_counter() - t0
    return factors, stats


def _equals_checks(view: SeatView) -> List[Tuple[Seat, int]]:
    """(seat, card bit) per hidden player's card that followed suit while the next lower
    card of the suit (among those not played before that trick) was still out and unseen:
    a layout giving that player the lower card had it follow with the higher of two
    touching cards (:attr:`SamplingSettings.lowest_equals_weight`)."""
    hidden = set(view.hidden_seats)
    unseen = view.unseen_cards.mask
    out = []
    before = 0
    played = view.played
    for start in range(0, len(played), 4):
        trick = played[start:start + 4]
        led = trick[0][1].suit
        for seat, card in trick[1:]:
            if seat not in hidden or card.suit != led:
                continue
            for rank in range(int(card.rank) - 1, 1, -1):
                lower = Card(card.suit, rank)
                if not before & lower.bit:
                    if unseen & lower.bit:
                        out.append((seat, lower.bit))
                    break
        for _, card in trick:
            before |= card.bit
    return out


def _equals_factors(view: SeatView, deals: Sequence[Deal], w: float) -> List[float]:
    """``w ** (cards followed with the higher of touching cards)`` per deal (see
    :func:`_equals_checks`)."""
    checks = _equals_checks(view)
    if not checks:
        return [1.0] * len(deals)
    hands = np.array([d.masks() for d in deals], dtype=np.uint64)
    count = np.zeros(len(deals))
    for seat, bit in checks:
        count += (hands[:, int(seat)] & np.uint64(bit)) != 0
    return np.power(w, count).tolist()


# -- the entry point --------------------------------------------------------------------------
def sample_deals(view: SeatView, n: int, rng, *, method: str = "uniform", system=None,
                 max_tries: Optional[int] = None, settings: Optional[SamplingSettings] = None,
                 **options) -> Samples:
    """Up to ``n`` complete deals consistent with ``view``.

    :param view: the seat's view (:class:`ai.players.SeatView`).
    :param n: how many layouts, ``0 <= n <=`` :data:`MAX_SAMPLES`.
    :param rng: a :class:`random.Random` or an integer seed; the same view, seed, method
        and settings give the same layouts on every platform.
    :param method: ``"uniform"``, ``"rejection"`` or ``"auction"`` (see the module's
        docstring); the hard computer uses ``"auction"``.
    :param system: the bidding system whose explanations give the auction's constraints
        (``"rejection"`` and ``"auction"``; e.g. :class:`ai.bidding.StandardAmerican`,
        which this module does not import: pass it).
    :param max_tries: layouts drawn at most, for every method: an integer ``>= 1``, or
        ``None`` for the method's default.  ``"uniform"``: default ``max(50 * n, 1000)``
        (a draw fails only with three hidden seats and shown voids); ``"rejection"``:
        default 20,000; fewer than ``n`` deals are returned when the cap is reached
        (``Samples.tries`` says how many were drawn).  ``"auction"``: overrides
        ``settings.max_tries`` (see :class:`SamplingSettings`).
    :param settings: :class:`SamplingSettings` of the ``"auction"`` method (default
        ``SamplingSettings()``); ``**options`` override its fields one by one.
    :returns: :class:`Samples`.  ``"uniform"`` and ``"rejection"``: equal weights.
        ``"auction"``: ``n`` layouts drawn exactly (or, with three hidden seats and
        constraints almost nothing meets, fewer when ``max_tries``/``max_seconds`` run
        out), or every layout when there are at most ``settings.exact_max_layouts``
        (``exact=True``; in random order, so that the first ``k`` are a uniform choice of
        ``k``), weighted by the calls and the play as the settings say.
    :raises SamplingError: ``n`` negative, above :data:`MAX_SAMPLES` or not an integer,
        ``max_tries`` not an integer ``>= 1`` or ``None``, an unknown method or option, a
        setting out of range, a missing system for ``"rejection"``/``"auction"``, or no
        layout consistent with the shown voids (:class:`NoLayoutError` for ``"auction"``).
    :raises TypeError: ``view`` is not a :class:`SeatView`.
    :raises InvalidViewError: ``view`` is inconsistent (one not built by
        :func:`ai.players.seat_view`, with a card both held and played, a hand of the
        wrong size, ...: :meth:`SeatView.check`).
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
        raise SamplingError(f"the number of samples must be an integer >= 0, got {n!r}")
    n = int(n)      # a NumPy integer too
    _check_count(n, "the number of samples")
    if max_tries is not None and (isinstance(max_tries, bool)
                                  or not isinstance(max_tries, numbers.Integral)
                                  or max_tries < 1):
        raise SamplingError(f"max_tries must be an integer >= 1 or None, got {max_tries!r}")
    if max_tries is not None:
        max_tries = int(max_tries)
    if method not in METHODS:
        raise SamplingError(f"unknown sampling method {method!r}: one of {', '.join(METHODS)}")
    if not isinstance(view, SeatView):
        raise TypeError(f"sample_deals needs a SeatView, got {type(view).__name__}")
    view.check()    # a forged view made a 14-card hand or "the hands ... do not add up"
    unknown = set(options) - _SETTING_NAMES
    if unknown:
        raise SamplingError(f"unknown sampling option(s): {', '.join(sorted(unknown))}")
    if settings is not None and not isinstance(settings, SamplingSettings):
        raise SamplingError(f"settings must be a SamplingSettings, got "
                            f"{type(settings).__name__}")
    if not isinstance(rng, random.Random):
        if isinstance(rng, bool) or not isinstance(rng, numbers.Integral):
            raise SamplingError(f"rng must be a random.Random or an integer seed, got {rng!r}")
        rng = random.Random(int(rng))
    if method in ("rejection", "auction") and system is None:
        raise SamplingError(f"method {method!r} needs the bidding system (system=...)")
    if method in ("rejection", "auction") and not callable(getattr(system, "explain_all", None)):
        raise SamplingError(f"system must be a bidding system with explain_all and choose, "
                            f"got {type(system).__name__}")
    if method != "auction":
        if options or settings is not None:
            raise SamplingError(f"method {method!r} takes no settings (only 'auction' does)")
        return _sample_baseline(view, n, rng, method, system, max_tries)
    settings = settings or SamplingSettings()
    if max_tries is not None:
        options["max_tries"] = max_tries
    if options:
        settings = replace(settings, **options)
    settings.checked()
    return _sample_auction(view, n, rng, system, settings)


# -- the analyst's tools ----------------------------------------------------------------------
def _as_int(value, what: str, lo: int) -> int:
    """``value`` as an integer ``>= lo`` (a Python or NumPy integer, not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise SamplingTypeError(f"{what} must be an integer >= {lo}, got "
                                f"{type(value).__name__} {value!r}")
    if value < lo:
        raise SamplingError(f"{what} must be an integer >= {lo}, got {value!r}")
    return int(value)


def _check_count(n: int, what: str) -> None:
    if n > MAX_SAMPLES:
        raise SamplingError(f"{what} must be at most {MAX_SAMPLES:,} (MAX_SAMPLES), got {n:,}")


def _as_rng(rng) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    if rng is None:
        return random.Random()
    if isinstance(rng, bool) or not isinstance(rng, numbers.Integral):
        raise SamplingError(f"rng must be a random.Random, an integer seed or None, got {rng!r}")
    return random.Random(int(rng))     # a NumPy integer too


def _seat_key(key) -> Seat:
    try:
        return Seat.coerce(key)
    except (TypeError, ValueError) as exc:
        raise SamplingError(f"not a seat: {key!r} ({exc})") from None


def _name(seat: Seat) -> str:
    """A seat as the messages spell it: ``West``."""
    return seat.name.title()


def _seat_keys(mapping: Mapping, what: str) -> Dict[Seat, object]:
    """``mapping``'s values by seat; two keys naming one seat (``"W"`` and ``3``) are
    refused rather than one silently overriding the other."""
    if mapping is None:
        return {}
    if not isinstance(mapping, Mapping):
        raise SamplingTypeError(f"{what} must be a mapping {{seat: ...}} or None, got "
                                f"{type(mapping).__name__}")
    out: Dict[Seat, object] = {}
    keys: Dict[Seat, object] = {}
    for key, value in mapping.items():
        seat = _seat_key(key)
        if seat in out:
            raise SamplingError(f"{_name(seat)}'s {what} are given twice (keys "
                                f"{keys[seat]!r} and {key!r})")
        out[seat], keys[seat] = value, key
    return out


def _as_known(value, seat: Seat) -> int:
    """The card mask of ``seat``'s known cards; any error names the seat."""
    name = _name(seat)
    if isinstance(value, Hand):
        return value.mask
    try:
        if isinstance(value, str):
            mask = pbn_hand_mask(value)
        else:
            try:
                items = list(value)
            except TypeError:
                raise SamplingTypeError(f"{name}'s known cards must be a Hand, PBN hand text or a "
                                f"list of cards, got {type(value).__name__}") from None
            mask = 0
            for c in items:
                card = c if isinstance(c, Card) else Card.from_str(c)
                if mask & card.bit:
                    raise InvalidDealError(f"{card} is given twice")
                mask |= card.bit
    except BridgeError as exc:
        raise type(exc)(f"{name}'s known cards: {exc}") from None
    if _pop(mask) > 13:
        raise InvalidDealError(f"{name} holds {_pop(mask)} cards (at most 13)")
    return mask


def _as_alts(value, seat: Seat) -> Tuple[HandConstraints, ...]:
    if value is None:
        return ()
    if isinstance(value, HandConstraints):
        alts = (value,)
    else:
        try:
            alts = tuple(value)
        except TypeError:
            alts = None
        if not alts or not all(isinstance(c, HandConstraints) for c in alts):
            raise SamplingTypeError(f"{_name(seat)}'s constraints must be a HandConstraints or a "
                            f"non-empty list of them (alternatives), got {value!r}")
    return tuple(c for c in alts) if not any(c.is_trivial for c in alts) else ()


def deal_constrained(constraints: Optional[Mapping] = None, known: Optional[Mapping] = None,
                     n: int = 1, rng=None, *, max_tries: int = 1_000_000,
                     max_seconds: Optional[float] = 60.0) -> Samples:
    """Complete deals meeting per-seat constraints and known cards, every such deal equally
    likely (what ``redeal`` and endplay's dealer are used for).

    >>> from ai.constraints import HandConstraints
    >>> deals = deal_constrained({"S": HandConstraints((9, 10), balanced=True)},
    ...                          {"N": "AQ4.KJ5.Q963.KJ2"}, n=3, rng=1)
    >>> [d.south.hcp in (9, 10) and d.south.is_balanced() for d in deals]
    [True, True, True]

    :param constraints: ``{seat: HandConstraints}`` (seat as a :class:`Seat`, letter or
        0..3), or ``{seat: [HandConstraints, ...]}`` for a hand that meets *any* of them
        (e.g. a set of exact shapes; overlapping alternatives are handled exactly).  A seat
        not named: any hand.
    :param known: ``{seat: cards}``: cards known to be in that seat's hand (a
        :class:`Hand`, PBN hand text such as ``"AQ4.KJ5.Q963.KJ2"`` or ``"AK..."``, or a
        list of cards): all 13, or some of them.
    :param n: how many deals, ``0 <= n <=`` :data:`MAX_SAMPLES`.
    :param rng: a :class:`random.Random`, an integer seed, or ``None`` (unseeded).
    :param max_tries: with three or more seats to deal, draws at most (see the module
        docstring); :param max_seconds: the same in seconds (``None``: no cap).
    :returns: :class:`Samples` (a sequence of :class:`~ddsolver.deal.Deal`; weights 1;
        ``tries`` draws; ``stats["layouts"]``: the exact number of deals meeting
        everything when at most two seats are dealt).
    :raises NoLayoutError: no deal meets the constraints (proved by counting, naming the
        seats whose own constraints nothing meets), or none was found within
        ``max_tries``/``max_seconds`` with three or more seats to deal.
    :raises SamplingError: ``n`` or a budget not a valid number (``n`` above
        :data:`MAX_SAMPLES`, ``max_tries`` not an integer ``>= 1``), a key that is not a
        seat, two keys naming one seat (``"W"`` and ``3``), a card known in two hands.
    :raises TypeError: constraints or cards of the wrong type.
    :raises InvalidDealError, InvalidNotationError: unreadable or oversized known hands
        (the message names the seat: ``West holds 14 cards (at most 13)``).
    """
    n = _as_int(n, "the number of deals", 0)
    _check_count(n, "the number of deals")
    max_tries = _as_int(max_tries, "max_tries", 1)
    if max_seconds is not None and (isinstance(max_seconds, bool)
                                    or not isinstance(max_seconds, (int, float))
                                    or not max_seconds > 0):
        raise SamplingError(f"max_seconds must be a positive number or None, got "
                            f"{max_seconds!r}")
    rng = _as_rng(rng)
    known_masks = {s: 0 for s in Seat}
    for seat, value in _seat_keys(known, "known cards").items():
        known_masks[seat] = _as_known(value, seat)
    alts = {s: () for s in Seat}
    for seat, value in _seat_keys(constraints, "constraints").items():
        alts[seat] = _as_alts(value, seat)
    seen = 0
    for s in Seat:
        if seen & known_masks[s]:
            card = next(cards_of_mask(seen & known_masks[s]))
            first = next(o for o in Seat if known_masks[o] & card.bit)
            raise SamplingError(f"{card} is given to {_name(first)} and to {_name(s)}")
        seen |= known_masks[s]
    unseen = (sum(1 << (16 * t + r) for t in range(4) for r in range(2, 15))) & ~seen
    specs = []
    for s in Seat:
        need = 13 - _pop(known_masks[s])
        if need == 0:
            if alts[s] and not any(_mask_ok(known_masks[s], c) for c in alts[s]):
                raise NoLayoutError(f"{_name(s)}'s hand {Hand(known_masks[s])} does not meet "
                                    f"its constraints")
            continue
        specs.append(_Spec(s, known_masks[s], need, 0, alts[s]))
    dealer = _Dealer(unseen, specs)
    if not dealer.feasible:
        who = ", ".join(_name(s) for s in dealer.culprits)
        raise NoLayoutError("no deal meets the constraints" +
                            (f" (nothing meets {who}'s own)" if who else
                             " (each seat's can be met alone, not all together)"))
    settings = SamplingSettings(max_tries=max_tries, max_seconds=max_seconds)
    layouts, tries = _draw_many(dealer, n, rng, settings)
    if n and not layouts:
        raise NoLayoutError(f"no deal met the constraints in {tries} tries: they may be "
                            f"impossible or too tight for three or more seats")
    deals = tuple(Deal([Hand(h.get(s, known_masks[s])) for s in Seat]) for h in layouts)
    return Samples(deals, tuple(1.0 for _ in deals), tries=tries,
                   stats={"layouts": dealer.count})


@dataclass(frozen=True)
class Simulation:
    """Double-dummy tricks of one contract over constrained deals (a single-dummy
    estimate: declarer's expected tricks when every hand is placed at random within what
    is known).

    :ivar contract: the contract (with its declarer).
    :ivar deals: the deals.
    :ivar tricks: declarer's tricks in each deal, double dummy, the opening lead from
        declarer's left-hand opponent.
    :ivar distribution: ``distribution[k]``: deals in which declarer takes ``k`` tricks
        (14 entries).
    :ivar mean: mean tricks; :ivar se: its standard error (sample standard deviation /
        sqrt(n)).
    :ivar make: the share of deals in which the contract makes; :ivar make_se: its standard
        error (sqrt(p (1 - p) / n)).
    :ivar mean_score: declarer's mean duplicate score (``vulnerable`` as given);
        :ivar score_se: its standard error.

    One deal gives no standard error: ``se``, ``make_se`` and ``score_se`` are then NaN
    (``None`` in :meth:`to_dict`).
    :ivar vulnerable: declarer's vulnerability used for the scores.
    :ivar tries: draws to find the deals; :ivar seconds: time dealing and solving.
    """

    contract: object
    deals: Tuple[Deal, ...]
    tricks: Tuple[int, ...]
    distribution: Tuple[int, ...]
    mean: float
    se: float
    make: float
    make_se: float
    mean_score: float
    score_se: float
    vulnerable: bool
    tries: int
    seconds: float

    @property
    def n(self) -> int:
        """Number of deals."""
        return len(self.tricks)

    def to_dict(self) -> dict:
        """JSON-ready summary (without the deals); a standard error that one deal cannot
        give is ``None`` (JSON ``null``), never NaN, which is not JSON."""
        def finite(x):
            return x if math.isfinite(x) else None

        return {"contract": str(self.contract), "n": self.n, "mean": self.mean,
                "se": finite(self.se), "make": self.make, "make_se": finite(self.make_se),
                "mean_score": self.mean_score, "score_se": finite(self.score_se),
                "vulnerable": self.vulnerable,
                "distribution": list(self.distribution), "tries": self.tries,
                "seconds": self.seconds}


def _mean_se(values: Sequence[float]) -> Tuple[float, float]:
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = math.fsum(values) / n
    if n == 1:
        return mean, math.nan
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def declarer_tricks(deal: Deal, strain, declarer, solver: Optional[Solver] = None) -> int:
    """Declarer's tricks in ``deal`` double dummy, the opening lead from declarer's
    left-hand opponent (the same as ``ddsolver.dd_table(deal)[strain, declarer]``).

    :raises InvalidDealError: ``deal`` is not complete.
    """
    declarer = Seat.coerce(declarer)
    solver = solver or _thread_solver(64)
    ns = solver.ns_tricks(Position(deal, Strain.coerce(strain), declarer.lho))
    return ns if declarer in (Seat.NORTH, Seat.SOUTH) else 13 - ns


def _with_declarer(contract, seat: Seat, what: str):
    """``contract`` with declarer ``seat``; :class:`SamplingError` if it names another."""
    if contract.declarer is not None and contract.declarer != seat:
        raise SamplingError(f"{what} contradicts the declarer of contract {contract} "
                            f"({contract.declarer.name.title()})")
    return replace(contract, declarer=seat)


def _complete_deals(deals) -> Tuple[Deal, ...]:
    """``deals`` as a tuple of complete deals; a message names the first bad deal and, for
    an incomplete one, its first hand that is not 13 cards."""
    if isinstance(deals, (Deal, str, bytes)):
        raise SamplingError(f"deals must be a sequence of Deals, got a "
                            f"{type(deals).__name__}")
    try:
        deals = tuple(deals)
    except TypeError:
        raise SamplingError(f"deals must be a sequence of Deals, got "
                            f"{type(deals).__name__}") from None
    if not deals:
        raise SamplingError("deals must be a non-empty sequence of complete Deals, got none")
    for i, d in enumerate(deals):
        if not isinstance(d, Deal):
            raise SamplingError(f"deals[{i}] is not a Deal: {d!r}")
        for seat in Seat:
            h = d[seat]
            if h is None:
                raise SamplingError(f"deals[{i}]: {_name(seat)}'s hand is unknown (a deal to "
                                    f"solve needs four 13-card hands)")
            if len(h) != 13:
                raise SamplingError(f"deals[{i}]: {_name(seat)} holds {len(h)} cards (a deal "
                                    f"to solve needs four 13-card hands)")
    return deals


def simulate_contract(contract, declarer=None, constraints: Optional[Mapping] = None,
                      known: Optional[Mapping] = None, n: int = 100, rng=None, *,
                      vulnerable: bool = False, threads: Optional[int] = None,
                      deals: Optional[Sequence[Deal]] = None, progress=None,
                      max_tries: int = 1_000_000,
                      max_seconds: Optional[float] = 60.0) -> Simulation:
    """The distribution of declarer's double-dummy tricks in ``contract`` over ``n`` deals
    drawn by :func:`deal_constrained`, with the mean, its standard error and the chance of
    making.

    Worked case (``docs/sampling.md``): 3NT by North after 1NT-3NT, North
    ``AQ4.KJ5.Q963.KJ2`` opposite 9-10 HCP balanced.

    :param contract: a :class:`~ddsolver.contract.Contract` or its text (``"3NT"``,
        ``"4SX"``, ``"3NTN"``).
    :param declarer: the declarer (a :class:`Seat` or its letter); may be omitted when the
        contract names it, and must agree with it when both do.
    :param constraints: per-seat constraints, as :func:`deal_constrained`.
    :param known: per-seat known cards, as :func:`deal_constrained`.
    :param n: deals, ``1 <= n <=`` :data:`MAX_SAMPLES`.
    :param rng: a :class:`random.Random`, an integer seed or ``None``.
    :param vulnerable: declarer's vulnerability, for the scores.
    :param threads: solver threads, one :class:`~ddsolver.Solver` each (default: every
        core); the figures do not depend on it.
    :param deals: solve these deals instead of drawing them (``constraints``, ``known``,
        ``n`` and ``rng`` are then ignored).
    :param progress: optional callable called with the number of deals solved so far.
    :param max_tries: draws at most, :param max_seconds: seconds at most, as
        :func:`deal_constrained` (not used with ``deals``).
    :returns: :class:`Simulation`.
    :raises NoLayoutError, SamplingError, TypeError: as :func:`deal_constrained`, also for
        ``n < 1`` (or above :data:`MAX_SAMPLES`), ``threads < 1``, a contract without a
        declarer or whose declarer is not ``declarer``, or ``deals`` that are not complete
        deals.
    :raises InvalidNotationError: an unreadable contract or seat.
    """
    import os

    from ddsolver.contract import Contract

    t0 = time.perf_counter()
    if isinstance(contract, str):
        contract = Contract.from_str(contract)
    if not isinstance(contract, Contract):
        raise TypeError(f"contract must be a Contract or its text, got {contract!r}")
    if declarer is not None:
        contract = _with_declarer(contract, Seat.coerce(declarer), f"declarer {declarer!r}")
    if contract.declarer is None:
        raise SamplingError(f"the contract {contract} needs a declarer (declarer=...)")
    if threads is not None and (isinstance(threads, bool)
                                or not isinstance(threads, numbers.Integral) or threads < 1):
        raise SamplingError(f"threads must be an integer >= 1 or None, got {threads!r}")
    if threads is not None:
        threads = int(threads)
    if not isinstance(vulnerable, bool):
        raise TypeError(f"vulnerable must be True or False, got {vulnerable!r}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable or None, got {type(progress).__name__} "
                        f"{progress!r}")
    if deals is None:
        n = _as_int(n, "the number of deals", 1)
        _check_count(n, "the number of deals")
        drawn = deal_constrained(constraints, known, n, rng, max_tries=max_tries,
                                 max_seconds=max_seconds)
        deals, tries = tuple(drawn), drawn.tries
    else:
        deals = _complete_deals(deals)
        tries = len(deals)
    threads = threads or os.cpu_count() or 1
    strain, who = contract.strain, contract.declarer
    done = [0]
    lock = threading.Lock()
    stop = CancelGroup()

    def solve(chunk):
        solver = Solver(64)
        stop.enter(solver)
        try:
            out = []
            for d in chunk:
                stop.check()
                out.append(declarer_tricks(d, strain, who, solver))
                if progress is not None:
                    with lock:
                        done[0] += 1
                        progress(done[0])
            return out
        finally:
            stop.leave(solver)

    if threads == 1 or len(deals) == 1:
        tricks = solve(deals)
    else:
        # contiguous chunks, one solver each; the results do not depend on the split.  On
        # an exception here (Ctrl-C) or in a worker, the other workers' searches are
        # cancelled and they start no other deal, so that the pool's shutdown is prompt.
        k = min(threads, len(deals))
        size = -(-len(deals) // k)
        pool = ThreadPoolExecutor(max_workers=k, thread_name_prefix="simulate")
        try:
            futures = [pool.submit(solve, deals[i:i + size])
                       for i in range(0, len(deals), size)]
            parts = [f.result() for f in futures]
        except BaseException:
            stop.stop()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        tricks = [t for p in parts for t in p]
    dist = [0] * 14
    for t in tricks:
        dist[t] += 1
    mean, se = _mean_se(tricks)
    need = contract.level + 6
    p = sum(1 for t in tricks if t >= need) / len(tricks)
    scores = [contract.score(t, vulnerable) for t in tricks]
    mscore, sse = _mean_se(scores)
    # sqrt(p (1 - p) / n) would say 0 for one deal: no more defined than the others
    make_se = math.sqrt(p * (1 - p) / len(tricks)) if len(tricks) > 1 else math.nan
    return Simulation(contract, deals, tuple(tricks), tuple(dist), mean, se, p,
                      make_se, mscore, sse, vulnerable, tries,
                      time.perf_counter() - t0)


# -- the simulate command ---------------------------------------------------------------------
import click  # noqa: E402  (the command only)

_SEAT_NAMES = ("north", "east", "south", "west")
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def parse_range(text: str, what: str, top: int) -> Tuple[int, int]:
    """``"9-10"``, ``"12+"``, ``"-12"`` (at most), ``"15"`` -> inclusive ``(lo, hi)``
    within ``0..top``.

    :raises SamplingError: anything else, or an empty range.
    """
    t = text.strip().replace(" ", "")
    # ASCII digits only: int() would also take '+5' (read as exactly 5), '1_0', other
    # scripts' digits; few enough for int() (5,000 digits are beyond its limit)
    n = "([0-9]{1,9})"
    m = re.fullmatch(rf"{n}\+|-{n}|{n}(?:-{n})?", t)
    if m is None:
        raise SamplingError(f"{what}: {brief_repr(text)} is not a range such as 9-10, 12+, -12 or "
                            f"15")
    at_least, at_most, first, last = m.groups()
    if at_least is not None:
        lo, hi = int(at_least), top
    elif at_most is not None:
        lo, hi = 0, int(at_most)
    else:
        lo, hi = int(first), int(first if last is None else last)
    if not 0 <= lo <= hi <= top:
        raise SamplingError(f"{what}: {brief_repr(text)} is not a range within 0-{top}")
    return lo, hi


def parse_shapes(text: str, what: str) -> List[Tuple[int, int, int, int]]:
    """Shapes as suit lengths in spades-hearts-diamonds-clubs order: ``"5332"`` or
    ``"5-3-3-2"`` exactly so, ``"any 4432"`` (also ``"any4432"``) in every order;
    several separated by commas.  Returns ``(spades, hearts, diamonds, clubs)`` tuples.

    :raises SamplingError: a pattern that is not four lengths adding up to 13.
    """
    out: List[Tuple[int, int, int, int]] = []
    for part in text.split(","):
        p = part.strip().lower()
        anyorder = p.startswith("any")
        if anyorder:
            p = p[3:].strip()
        digits = p.split("-") if "-" in p else list(p)
        try:
            lengths = tuple(int(x) for x in digits)
        except ValueError:
            lengths = ()
        if len(lengths) != 4 or sum(lengths) != 13:
            raise SamplingError(f"{what}: {brief_repr(part.strip())} is not a shape (four lengths "
                                f"adding up to 13, e.g. 5332, 4-4-3-2 or 'any 4333')")
        for shape in (sorted(set(itertools.permutations(lengths)), reverse=True) if anyorder
                      else [lengths]):
            if shape not in out:
                out.append(shape)
    return out


def seat_constraints(hcp=None, balanced=None, lengths=None, shapes=None, aces=None,
                     stoppers=None, what="") -> Tuple[HandConstraints, ...]:
    """The alternatives for one seat from the command's options (text as given): HCP and
    length ranges, balanced, shapes (one alternative each), ace counts, stopper suits.

    :raises SamplingError: unreadable text.
    """
    from ddsolver.cards import Suit
    base = HandConstraints()
    if hcp:
        base = base.with_hcp(*parse_range(hcp, f"{what} HCP", MAX_HCP))
    for suit, text in (lengths or {}).items():
        if text:
            base = base.with_length(suit, *parse_range(text, f"{what} {suit.name.lower()}", 13))
    if aces:
        try:
            counts = frozenset(int(x) for x in aces.replace(" ", "").split(","))
        except ValueError:
            counts = frozenset({-1})
        if not counts or not counts <= set(range(5)):
            raise SamplingError(f"{what} aces: {aces!r} is not a list of counts 0-4, e.g. 1,4")
        base = base & HandConstraints(aces=counts)
    if stoppers:
        try:
            suits = frozenset(Suit.from_str(c) for c in stoppers.replace(",", "").strip())
        except BridgeError:
            raise SamplingError(f"{what} stoppers: {stoppers!r} is not suit letters such "
                                f"as SH") from None
        base = base & HandConstraints(stoppers=suits)
    if balanced is not None:
        base = replace(base, balanced=balanced)
    if not shapes:
        return () if base.is_trivial else (base,)
    alts = []
    for s, h, d, c in parse_shapes(shapes, f"{what} shape"):
        exact = HandConstraints(lengths=((c, c), (d, d), (h, h), (s, s)))
        alts.append(base & exact)
    return tuple(alts)


def _seat_options(f):
    for name in reversed(_SEAT_NAMES):
        letter = name[0].upper()
        opts = [
            click.option(f"--{name}", f"{name}_hand", metavar="CARDS", default=None,
                         help=f"{name.title()}'s cards, PBN style (S.H.D.C): all 13, or "
                              f"some (e.g. AK... for the spade ace and king)."),
            click.option(f"--{name}-hcp", metavar="RANGE", default=None,
                         help=f"{name.title()}'s HCP: 9-10, 12+, -12 or 15."),
            click.option(f"--{name}-balanced/--{name}-unbalanced", default=None,
                         help="Balanced (4333, 4432, 5332) or not."),
            click.option(f"--{name}-shape", metavar="SHAPES", default=None,
                         help="Shapes S-H-D-C: 5332 exactly so, 'any 4432' in any order; "
                              "several separated by commas."),
            click.option(f"--{name}-aces", metavar="COUNTS", default=None,
                         help="Possible numbers of aces, e.g. 1,4."),
            click.option(f"--{name}-stoppers", metavar="SUITS", default=None,
                         help="Suits stopped (A, Kx, Qxx, Jxxx), e.g. SH."),
        ]
        for suit in reversed(_SUIT_NAMES):
            opts.append(click.option(f"--{name}-{suit}", metavar="RANGE", default=None,
                                     help=f"{name.title()}'s {suit}: 5+, 2-3, -1, 4.",
                                     hidden=True))
        for o in reversed(opts):
            f = o(f)
        del letter
    return f


@click.command("simulate", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-c", "--contract", required=True, metavar="CONTRACT",
              help="The contract, e.g. 3NT, 4S, 4SX (a declarer seat may follow: 3NTN).")
@click.option("-d", "--declarer", default=None, metavar="SEAT",
              help="Declarer: N, E, S or W (unless the contract names it; if both, they "
                   "must agree).")
@_seat_options
@click.option("-n", "--deals", "n", type=click.IntRange(1, MAX_SAMPLES), default=200,
              show_default=True, help=f"Deals to draw and solve (at most {MAX_SAMPLES:,}).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the deals (default: a random one, printed).")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="Solver threads, 1 to 64 (default: every core).")
@click.option("--vulnerable", is_flag=True, help="Declarer vulnerable (for the scores).")
@click.option("--show", type=click.IntRange(min=0), default=0, show_default=True,
              help="Print the first K deals with declarer's tricks.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def simulate_command(contract, declarer, n, seed, threads, vulnerable, show, as_json,
                     **seat_opts):
    """Deal hands meeting per-seat constraints and known cards, solve each double dummy
    for CONTRACT, and report the distribution of declarer's tricks, its mean with the
    standard error, and the chance of making (a single-dummy estimate).

    Suit lengths: --north-spades 5+, --south-hearts 2-3 and the like (every seat and suit).

    \b
    Example (3NT after 1NT-3NT):
      ddsolver-ai simulate -c 3NT -d N --north AQ4.KJ5.Q963.KJ2 \\
          --south-hcp 9-10 --south-balanced -n 500 --seed 1
    """
    import json as _json

    from ddsolver.cards import Suit
    from ddsolver.contract import Contract

    given = {"contract": contract, "declarer": declarer, **seat_opts}
    for key, value in given.items():
        if isinstance(value, str) and not value.strip():
            option = "--" + (key[:-len("_hand")] if key.endswith("_hand") else key
                             ).replace("_", "-")
            hint = "" if key in ("contract", "declarer") else \
                " (leave the option out for no constraint)"
            raise click.BadParameter(f"an empty value{hint}", param_hint=f"'{option}'")
    try:
        con = Contract.from_str(contract)
        if declarer is not None:
            con = _with_declarer(con, Seat.from_str(declarer), f"--declarer {declarer}")
        if con.declarer is None:
            raise SamplingError("give the declarer: --declarer N|E|S|W (or 3NTN)")
        constraints, known, described = {}, {}, []
        for name in _SEAT_NAMES:
            seat = Seat.from_str(name)
            lengths = {Suit.from_str(sname): seat_opts[f"{name}_{sname}"] for sname in _SUIT_NAMES}
            alts = seat_constraints(seat_opts[f"{name}_hcp"], seat_opts[f"{name}_balanced"],
                                    lengths, seat_opts[f"{name}_shape"],
                                    seat_opts[f"{name}_aces"], seat_opts[f"{name}_stoppers"],
                                    what=f"--{name}")
            if alts:
                constraints[seat] = alts
            hand = seat_opts[f"{name}_hand"]
            if hand:
                try:
                    known[seat] = Hand(_as_known(hand, seat))
                except BridgeError as exc:
                    raise SamplingError(f"--{name}: {exc}") from None
            parts = []
            if hand:
                parts.append(known[seat].to_pbn())
            shapes = seat_opts[f"{name}_shape"]
            plain = seat_constraints(seat_opts[f"{name}_hcp"], seat_opts[f"{name}_balanced"],
                                     lengths, None, seat_opts[f"{name}_aces"],
                                     seat_opts[f"{name}_stoppers"], what=f"--{name}")
            if plain:
                parts.append(plain[0].describe())
            if shapes:
                parts.append(f"shape {shapes}")
            if parts:
                described.append(f"{name.title()}: " + "; ".join(parts))
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 31)
        bar = None
        err = sys.stderr
        if not as_json and err.isatty():
            bar = click.progressbar(length=n, label="solving", file=err)
        try:
            if bar is not None:
                bar.__enter__()
            last = [0]

            def progress(k):
                if bar is not None:
                    bar.update(k - last[0])
                    last[0] = k

            sim = simulate_contract(con, None, constraints, known, n, seed,
                                    vulnerable=vulnerable, threads=threads, progress=progress)
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
    except BridgeError as exc:
        raise click.UsageError(str(exc)) from None
    if sim.n < n:
        click.echo(f"Warning: only {sim.n} of the {n} deals asked for were found within the "
                   f"dealer's limits ({sim.tries} tries): the constraints are tight; the "
                   f"figures are from those {sim.n}.", err=True)
    if as_json:
        out = sim.to_dict()
        out["requested"] = n
        out["seed"] = seed
        out["deals"] = [d.to_pbn() for d in sim.deals[:show]]
        click.echo(_json.dumps(out, indent=2, allow_nan=False))
        return
    need = con.level + 6
    lead = con.declarer.lho
    click.echo(f"{con.level}{con.strain.letter}{'X' * con.doubled} by "
               f"{con.declarer.name.title()}: {sim.n} deals (seed {seed}), double dummy, "
               f"opening lead from {lead.name.title()}")
    for line in described:
        click.echo("  " + line)
    click.echo("tricks   deals       %")
    for k, c in enumerate(sim.distribution):
        if c:
            mark = "  made" if k >= need else ""
            click.echo(f"{k:6d} {c:7d} {100 * c / sim.n:7.1f}{mark}")
    vul = "vulnerable" if vulnerable else "not vulnerable"
    if sim.n > 1:
        click.echo(f"mean tricks   {sim.mean:.2f} +- {sim.se:.2f} (standard error)")
        click.echo(f"makes         {100 * sim.make:.1f} % +- {100 * sim.make_se:.1f} %")
        click.echo(f"mean score    {sim.mean_score:+.0f} +- {sim.score_se:.0f} ({vul})")
    else:
        click.echo(f"mean tricks   {sim.mean:.2f} (no standard error from one deal)")
        click.echo(f"makes         {100 * sim.make:.1f} %")
        click.echo(f"mean score    {sim.mean_score:+.0f} ({vul})")
    click.echo(f"time          {sim.seconds:.1f} s ({sim.tries} draws)")
    for d, t in list(zip(sim.deals, sim.tricks))[:show]:
        click.echo(f"{d.to_pbn()}  {t}")
