"""Monte Carlo card play: declarer (and dummy), defenders, opening leads.

The method is perfect-information Monte Carlo as GIB made it standard (Ginsberg, "GIB:
Imperfect information in a computationally challenging game", JAIR 14, 2001): deal the
cards the seat cannot see many times consistently with what it knows
(:func:`ai.sampling.sample_deals`), solve every layout double dummy for every legal card
(:class:`ddsolver.Solver`, one per thread, reused across the layouts of a decision and from
decision to decision), and play the card with the best expected result *for the contract
and the scoring* (:attr:`PlaySettings.utility`):

- at IMPs each card's result in a layout is the IMPs it loses against the best card of that
  layout (:func:`ddsolver.scoring.imps` of the difference of the duplicate scores), so the
  tricks that make or defeat the contract weigh most and an overtrick little;
- at matchpoints every trick counts: the mean number of tricks.

Layouts are solved in fixed chunks; after :attr:`PlaySettings.min_samples` of them the
decision stops early when one card is clearly best (its paired advantage over every other
card exceeds :attr:`PlaySettings.early_stop` standard errors, or the other cards have done
exactly as well in every layout so far and :attr:`PlaySettings.equal_stop` layouts were
solved).  The chunks and the checks do not depend on the number of threads or on the
machine, so a decision is a function of the view and the random numbers; only the time
budget (:attr:`PlaySettings.time_budget`, a cap) can cut a decision short on a slow or busy
machine.

Choice among the cards (see ``docs/design/cardplay.md`` and
Frank & Basin, "Search in games with incomplete information", AIJ 1998, on strategy
fusion): a card worse than another in every layout solved is never chosen; among the rest
the best expected utility wins, cards within :attr:`PlaySettings.tie_margin` of it count as
equal and are separated by the mean tricks, then by the worst layout's tricks (a robust
choice), then by not overtaking a trick partner already wins, then by the lowest card.  A
single legal card, or legal cards that are all equivalent whatever the hidden hands, are
played without search.
"""

from __future__ import annotations

import math
import numbers
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields, replace
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ai.players import InvalidViewError, SeatView
from ai.sampling import MAX_SAMPLES, SamplingSettings, sample_deals, submit_or_run
from ddsolver.cards import Card
from ddsolver.errors import brief_repr
from ddsolver.play import Position
from ddsolver.scoring import imps, score
from ddsolver.solver import MAX_MEMORY_MB, Solver
from ddsolver.table import Seat

__all__ = ["CardChoice", "CardPlayer", "PlaySettings", "UTILITIES", "position_in"]

#: What a card is chosen for (:attr:`PlaySettings.utility`).
UTILITIES = ("score", "tricks")

#: Layouts solved between two checks of the early stop and the budget.
CHUNK = 8

#: The share of a decision's time budget that the ``"auction"`` sampler may spend weighing
#: its layouts by the hidden players' cards (``play_weights``), unless ``play_seconds`` is
#: set in :attr:`PlaySettings.sampling`.  Checking a card of the first tricks solves a
#: nearly full deal in every layout (about 0.1 s each in a partscore): without this cap a
#: decision took 4-13 s at a 1 s budget; a card whose check is not finished in time is
#: not used (:class:`ai.sampling.SamplingSettings`).
PLAY_CHECK_SHARE = 0.4


def _methods() -> Tuple[str, ...]:
    import ai.sampling as sampling
    return tuple(getattr(sampling, "METHODS", ("uniform", "rejection")))


@dataclass(frozen=True)
class PlaySettings:
    """How a computer chooses its cards (every field public; see ``docs/computer-players.md``).

    :ivar samples: layouts of the unseen cards per decision, at most (1 to
        :data:`ai.sampling.MAX_SAMPLES`).
    :ivar lead_samples: layouts for the opening lead (a solve at trick 1 costs most; 1 to
        :data:`ai.sampling.MAX_SAMPLES`).
    :ivar exact_samples: when the sampler returns every consistent layout
        (``Samples.exact``), up to this many of them are solved (in a random order).
    :ivar min_samples: layouts solved before the early stop or the budget may end a decision.
    :ivar method: the sampling method (:func:`ai.sampling.sample_deals`).
    :ivar sampling: extra keyword options for :func:`ai.sampling.sample_deals`, as
        ``(name, value)`` pairs (a dict is accepted and converted); method ``"auction"``
        only, each a field of :class:`ai.sampling.SamplingSettings`, checked here.
    :ivar utility: ``"score"``: the expected result for the contract and the scoring (IMPs
        against each layout's best card at IMPs, tricks at matchpoints); ``"tricks"``: the
        mean tricks of the side to play whatever the scoring (the plain Monte Carlo player
        GIB popularised; the benchmark's baselines).
    :ivar early_stop: stop when the best card's paired advantage over each other card is at
        least this many standard errors (0: never stop early for this reason).
    :ivar equal_stop: stop when every other card has done exactly as well as the best one in
        each of at least this many layouts (0: never).
    :ivar tie_margin: cards whose expected utility is within this margin of the best one
        (IMPs, or tricks) count as equally good.
    :ivar declarer_risk: at declarer's decisions, each card's expected utility plus this
        many times its tail loss: the weighted mean of the tricks it loses against the
        layout's best card over the worst :attr:`risk_share` of the layouts for that card
        (a conditional value at risk, Rockafellar & Uryasev, J. of Risk 2, 2000); ``0``:
        the plain expectation.  Applied when the card is chosen, not by the early stop.
    :ivar risk_share: the share of the layouts' weight that makes the tail, in (0, 1].
    :ivar declarer_trick_weight: at IMPs (utility ``"score"``), at declarer's decisions,
        each card's result in a layout is its IMPs plus this many times the tricks it
        loses against the layout's best card (``0``: IMPs alone), so that overtricks and
        undertricks beyond the contract's count for more than an IMP; used by the choice
        and the early stop alike.
    :ivar time_budget: seconds per decision, a cap: no new chunk of layouts is started when
        it would end past the budget (the first :attr:`min_samples` are always solved), and
        the weights by the play get :data:`PLAY_CHECK_SHARE` of it; ``None``: no cap (see
        :meth:`untimed`).
    :ivar lead_time_budget: the same for the opening lead (``None``: :attr:`time_budget`).
    :ivar time_limit: seconds per decision, a hard limit (a server's): once it has passed
        no new chunk of layouts is started, even among the first :attr:`min_samples` (the
        first chunk, at most :data:`CHUNK` layouts, is always solved), and the sampler's
        own time cap (``max_seconds`` of the ``"auction"`` method) is lowered to it;
        ``None``: no limit.  Unlike the budget it is not anticipated: a decision that
        ends before the limit solved at least its :attr:`min_samples` layouts.
    :ivar threads: solver threads (``None``: every core, at most 2).
    :ivar memory_mb: transposition-table memory of each solver, MiB (1 to
        :data:`ddsolver.solver.MAX_MEMORY_MB`; the solvers are made at the first decision,
        and a table this machine cannot allocate is a MemoryError then).
    :raises ValueError: (at construction) for a value of the wrong type or out of range
        (``samples`` or ``lead_samples`` above :data:`ai.sampling.MAX_SAMPLES` and
        ``memory_mb`` above :data:`ddsolver.solver.MAX_MEMORY_MB` included).
    """

    samples: int = 40
    lead_samples: int = 24
    exact_samples: int = 0
    min_samples: int = 4
    method: str = "uniform"
    sampling: Tuple[Tuple[str, object], ...] = field(default_factory=tuple)
    utility: str = "score"
    early_stop: float = 0.0
    equal_stop: int = 0
    tie_margin: float = 0.0
    declarer_risk: float = 0.0
    risk_share: float = 0.25
    declarer_trick_weight: float = 0.0
    time_budget: Optional[float] = 1.0
    lead_time_budget: Optional[float] = None
    time_limit: Optional[float] = None
    threads: Optional[int] = None
    memory_mb: int = 64

    def __post_init__(self):
        for name in ("samples", "lead_samples", "min_samples", "memory_mb", "exact_samples",
                     "equal_stop", "threads"):
            value = getattr(self, name)
            if isinstance(value, numbers.Integral) and not isinstance(value, bool):
                object.__setattr__(self, name, int(value))      # a NumPy integer too
        for name in ("samples", "lead_samples", "min_samples", "memory_mb"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        for name in ("samples", "lead_samples"):
            value = getattr(self, name)
            if value > MAX_SAMPLES:     # what the sampler deals at most
                raise ValueError(f"{name} must be at most {MAX_SAMPLES:,} (MAX_SAMPLES), got "
                                 f"{value:,}")
        if self.memory_mb > MAX_MEMORY_MB:     # what a Solver takes at most
            raise ValueError(f"memory_mb must be at most {MAX_MEMORY_MB:,} MiB "
                             f"(ddsolver.solver.MAX_MEMORY_MB), got {brief_repr(self.memory_mb)}")
        for name in ("exact_samples", "equal_stop"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
        for name in ("early_stop", "tie_margin", "declarer_risk", "declarer_trick_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not value >= 0 or not math.isfinite(value):
                raise ValueError(f"{name} must be a number >= 0, got {value!r}")
        for name in ("time_budget", "lead_time_budget", "time_limit"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not value > 0 or not math.isfinite(value):
                raise ValueError(f"{name} must be a positive number of seconds, got "
                                 f"{value!r}")
        if self.threads is not None and (isinstance(self.threads, bool) or
                                         not isinstance(self.threads, int) or self.threads < 1):
            raise ValueError(f"threads must be None or an integer >= 1, got {self.threads!r}")
        if isinstance(self.risk_share, bool) or not isinstance(self.risk_share, (int, float)) \
                or not 0 < self.risk_share <= 1:
            raise ValueError(f"risk_share must be a number in (0, 1], got {self.risk_share!r}")
        if self.utility not in UTILITIES:
            raise ValueError(f"utility must be one of {UTILITIES}, got {self.utility!r}")
        if self.method not in _methods():
            raise ValueError(f"method must be one of {_methods()}, got {self.method!r}")
        sampling = self.sampling
        if isinstance(sampling, dict):
            sampling = tuple(sorted(sampling.items()))
        try:
            sampling = tuple((str(k), v) for k, v in sampling)
        except (TypeError, ValueError):
            raise ValueError(f"sampling must be (name, value) pairs or a dict, got "
                             f"{self.sampling!r}") from None
        object.__setattr__(self, "sampling", sampling)
        if sampling:
            if self.method != "auction":
                raise ValueError(f"sampling options are for method 'auction', not "
                                 f"{self.method!r}: {dict(sampling)!r}")
            from ai.sampling import SamplingError, SamplingSettings
            try:
                SamplingSettings(**dict(sampling)).checked()
            except TypeError as exc:
                raise ValueError(f"unknown sampling option: {exc}") from None
            except SamplingError as exc:
                raise ValueError(f"sampling: {exc}") from None

    def untimed(self) -> "PlaySettings":
        """A copy without time budgets and time limit (and, for the ``"auction"`` sampler,
        without its time caps ``max_seconds``, ``bid_seconds``, ``play_seconds``): every
        decision then depends on the view and the random numbers only, never on the
        machine's speed or load (matches, benchmarks)."""
        changes: Dict[str, object] = {"time_budget": None, "lead_time_budget": None,
                                      "time_limit": None}
        if self.method == "auction":
            import ai.sampling as sampling_module
            known = getattr(sampling_module, "SamplingSettings", None)
            names = {f.name for f in fields(known)} if known is not None else set()
            sampling = dict(self.sampling)
            for name in ("max_seconds", "bid_seconds", "play_seconds"):
                if name in names:
                    sampling[name] = None
            changes["sampling"] = tuple(sorted(sampling.items()))
        return replace(self, **changes)

    def with_(self, **changes) -> "PlaySettings":
        """A copy with some settings changed (checked again).

        :raises TypeError: for an unknown setting; :raises ValueError: for a bad value."""
        return replace(self, **changes)


@dataclass(frozen=True)
class CardChoice:
    """A card and how it was chosen.

    :ivar card: the card to play.
    :ivar cards: the legal cards considered, in the order of :attr:`SeatView.legal_cards`.
    :ivar tricks: ``tricks[i][j]``: declarer's side's total tricks (0..13, whole deal) if
        card ``j`` is played in layout ``i`` and all four hands then play double dummy.
    :ivar weights: one weight per layout solved.
    :ivar utility: the expected utility of each card for the side to play (IMPs against the
        layout's best card at IMPs, <= 0; mean tricks otherwise).
    :ivar samples: layouts solved; :ivar seconds: time spent; :ivar exact: the layouts
        solved were every consistent layout.
    :ivar reason: ``"forced"``, ``"equivalent"`` (all legal cards equivalent), ``"searched"``,
        ``"early"`` (stopped early: one card clearly best), ``"budget"`` (the time budget
        or the time limit ended the search) or ``"no layout"`` (the sampler found none: a
        safe default card).
    """

    card: Card
    cards: Tuple[Card, ...] = ()
    tricks: Tuple[Tuple[int, ...], ...] = ()
    weights: Tuple[float, ...] = ()
    utility: Tuple[float, ...] = ()
    samples: int = 0
    seconds: float = 0.0
    exact: bool = False
    reason: str = "searched"


def position_in(view: SeatView, deal) -> Position:
    """The current position of the play in ``deal`` (a complete layout consistent with
    ``view``): the cards each seat still holds, the trump, the trick in progress.

    :raises InvalidPositionError, InvalidDealError: if ``deal`` does not fit the view."""
    played = view.played
    masks = []
    for s in Seat:
        m = deal[s].mask
        for seat, card in played:
            if seat == s:
                m &= ~card.bit
        masks.append(m)
    trick = view.current_trick
    leader = trick[0][0] if trick else view.to_play
    return Position.from_remaining(masks, view.trump, leader, [c for _, c in trick])


def _check_view(view) -> None:
    if not isinstance(view, SeatView):
        raise TypeError(f"a card is chosen from a SeatView, got {type(view).__name__}")
    view.check()
    if view.to_play is None or view.contract is None:
        raise InvalidViewError(f"no card is due in this view of {view.seat.name} "
                               f"(the auction is not over, or the play is)")
    if view.to_play not in view.controls or not view.legal_cards:
        raise InvalidViewError(f"{view.to_play.name} is to play, not a seat "
                               f"{view.seat.name} plays for")


def _equivalent_cards(view: SeatView) -> bool:
    """Whether every legal card is equivalent whatever the hidden hands hold: one suit, and
    every rank between the highest and the lowest is either played in a completed trick or
    held by the seat to play (a card of the trick in progress between them is not: one of
    them would beat it and the other not, which decides who leads next)."""
    legal = view.legal_cards
    suit = legal[0].suit
    if any(c.suit != suit for c in legal):
        return False
    hi, lo = max(c.rank for c in legal), min(c.rank for c in legal)
    own = view.hand if view.to_play == view.seat else view.dummy_hand
    n = len(view.played) - len(view.current_trick)
    gone = {c for _, c in view.played[:n]}
    for r in range(int(lo) + 1, int(hi)):
        card = Card(suit, r)
        if card not in gone and card not in own:
            return False
    return True


class CardPlayer:
    """Chooses cards for one computer seat by Monte Carlo sampling and double-dummy solving.

    Owns its solvers (one per thread, each with its own transposition table, reused from
    decision to decision) and nothing of any deal: every decision starts from the
    :class:`SeatView` it is given.

    :param settings: :class:`PlaySettings`.
    :param system: the bidding system whose explanations constrain the layouts (passed to
        the sampler).
    :raises TypeError: if ``settings`` is not a :class:`PlaySettings`.
    """

    def __init__(self, settings: PlaySettings = PlaySettings(), system=None):
        if not isinstance(settings, PlaySettings):
            raise TypeError(f"settings must be PlaySettings, got {type(settings).__name__}")
        self.settings = settings
        self.system = system
        n = settings.threads or min(2, os.cpu_count() or 1)
        self._threads = max(1, n)
        self._solvers: List[Solver] = []
        self._lock = threading.Lock()
        self._pool: Optional[ThreadPoolExecutor] = None
        self._bid_key = None
        self._bid_cache: dict = {}

    def _solvers_and_pool(self) -> Tuple[List[Solver], Optional[ThreadPoolExecutor]]:
        """The solvers and the thread pool of one decision, taken together under the lock:
        the decision keeps using them even if :meth:`close` is called meanwhile from
        another thread (the pool's work then runs on the deciding thread)."""
        with self._lock:
            while len(self._solvers) < self._threads:
                self._solvers.append(Solver(memory_mb=self.settings.memory_mb))
            if self._pool is None and self._threads > 1:
                self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="cardplay")
            return self._solvers, self._pool

    def _bid_cache_for(self, view: SeatView) -> dict:
        """The sampler's cache of "would this hand have made these calls" for this board's
        auction (a pure cache: it changes no answer, only saves replaying the calls)."""
        key = (view.dealer, view.vulnerability, view.calls)
        if key != self._bid_key:
            self._bid_key = key
            self._bid_cache = {}
        return self._bid_cache

    def close(self) -> None:
        """Release the solver threads (the player can still be used afterwards; a decision
        under way in another thread finishes on its own thread)."""
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None

    def __del__(self):  # pragma: no cover - best effort
        try:
            self.close()
        except Exception:
            pass

    # -- the decision -----------------------------------------------------------------------
    def choose(self, view: SeatView, rng: random.Random) -> CardChoice:
        """The card to play for ``view.to_play``.

        :param view: the deciding seat's view (its own card, or dummy's when it is
            declarer).
        :param rng: the random numbers for the layouts (:class:`random.Random`).
        :raises TypeError: if ``view`` is not a :class:`SeatView` or ``rng`` not a
            :class:`random.Random`.
        :raises InvalidViewError: if the view is inconsistent (:meth:`SeatView.check`) or
            asks no card of a seat it plays for.
        :raises SamplingError: if the sampler refuses the view (no layout fits the shown
            voids).
        """
        _check_view(view)
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, got {type(rng).__name__}")
        legal = view.legal_cards
        if len(legal) == 1:
            return CardChoice(legal[0], legal, reason="forced")
        if _equivalent_cards(view):
            return CardChoice(min(legal, key=lambda c: c.rank), legal, reason="equivalent")
        start = time.perf_counter()
        s = self.settings
        opening_lead = not view.played
        n = s.lead_samples if opening_lead else s.samples
        budget = s.time_budget
        if opening_lead and s.lead_time_budget is not None:
            budget = s.lead_time_budget
        options = dict(s.sampling)
        if s.method == "auction":
            options.setdefault("threads", self._threads)
            options.setdefault("bid_cache", self._bid_cache_for(view))
            if budget is not None and options.get("play_weights"):
                options.setdefault("play_seconds", PLAY_CHECK_SHARE * budget)
            if s.time_limit is not None:
                cap = options.get("max_seconds", SamplingSettings.max_seconds)
                options["max_seconds"] = s.time_limit if cap is None else min(
                    cap, s.time_limit)
        samples = sample_deals(view, n, rng, method=s.method, system=self.system, **options)
        if len(samples) == 0:
            return CardChoice(_lowest_of_longest(view), legal, reason="no layout",
                              seconds=time.perf_counter() - start)
        deals = list(samples.deals)
        weights = list(samples.weights)
        # every layout when the sampler enumerated them (it gives them in a random order,
        # so a budget that cuts the list short still solves a uniform choice of them)
        cap = max(n, s.exact_samples) if samples.exact else n
        if len(deals) > cap:
            deals, weights = deals[:cap], weights[:cap]
        tricks, reason = self._solve_layouts(view, deals, weights, start, budget)
        used = len(tricks)
        return self._pick(view, legal, tricks, weights[:used], start,
                          exact=samples.exact and used == len(samples), reason=reason)

    def _solve_layouts(self, view: SeatView, deals, weights, start: float, budget: float):
        """Declarer-side tricks of every legal card in each layout, solved in chunks of
        :data:`CHUNK` until the layouts, the early stop, the budget or the time limit end
        it (the first :attr:`PlaySettings.min_samples` in one batch, or in chunks under a
        time limit)."""
        solvers, pool = self._solvers_and_pool()
        legal = view.legal_cards
        mover_decl = view.to_play.side == view.declarer.side
        done = view.declarer_tricks
        left = 13 - len(view.tricks) + (1 if view.current_trick else 0)
        s = self.settings
        minimum = min(s.min_samples, len(deals))

        columns = [c.index for c in legal]
        trick = view.current_trick
        leader = trick[0][0] if trick else view.to_play
        trick_cards = [c for _, c in trick]
        gone = [0, 0, 0, 0]
        for seat, card in view.played:
            gone[seat] |= card.bit
        keep = np.array([~g & 0xFFFFFFFFFFFFFFFF for g in gone], dtype=np.uint64)

        def solve(solver: Solver, part: List) -> List[Tuple[int, ...]]:
            # one batch: the GIL is released for all of its layouts (Solver.solve_layouts)
            hands = np.array([d.masks() for d in part], dtype=np.uint64) & keep
            values = solver.solve_layouts(hands, view.trump, leader,
                                          trick_cards)[:, columns].astype(np.int16)
            side = values if mover_decl else left - values
            return [tuple(row) for row in (done + side).tolist()]

        def run(chunk: List) -> List[Tuple[int, ...]]:
            k = len(solvers)
            if k == 1 or len(chunk) == 1 or pool is None:
                return solve(solvers[0], chunk)
            parts = [chunk[j::k] for j in range(k)]
            futures = [submit_or_run(pool, solve, solvers[j], parts[j])
                       for j in range(k) if parts[j]]
            results = [f.result() for f in futures]
            out: List = [None] * len(chunk)
            for j, res in enumerate(results):
                out[j::k] = res
            return out

        out: List[Tuple[int, ...]] = []
        i = 0
        reason = "searched"
        limit = s.time_limit
        while i < len(deals):
            if i < minimum:
                # the first layouts: always solved, unless the hard time limit ends them
                step = minimum - i if limit is None else min(CHUNK, minimum - i)
            else:
                if self._clear(view, out, weights[:len(out)]):
                    reason = "early"
                    break
                step = min(CHUNK, len(deals) - i)
            if out:
                elapsed = time.perf_counter() - start
                # the budget: no chunk that would end past it; the limit: none once past it
                # (so a decision that ends before the limit has its min_samples layouts)
                if (i >= minimum and budget is not None
                        and elapsed + elapsed / len(out) * step > budget) \
                        or (limit is not None and elapsed > limit):
                    reason = "budget"
                    break
            out.extend(run(deals[i:i + step]))
            i += step
        return out, reason

    def _utilities(self, view: SeatView, tricks) -> List[List[float]]:
        """Per layout, the utility of each card for the side to play."""
        mover_decl = view.to_play.side == view.declarer.side
        if view.scoring == "MP" or self.settings.utility == "tricks":
            if mover_decl:
                return [list(map(float, row)) for row in tricks]
            return [[13.0 - t for t in row] for row in tricks]
        contract = view.contract
        vulnerable = view.vulnerability.is_vulnerable(view.declarer)
        sign = 1 if mover_decl else -1
        pts = {t: sign * score(contract, t, vulnerable) for t in range(14)}
        weight = self.settings.declarer_trick_weight if mover_decl else 0.0
        rows = []
        for row in tricks:
            scores = [pts[t] for t in row]
            best = max(scores)
            if weight:
                most = max(row)
                rows.append([float(imps(x - best)) + weight * (t - most)
                             for x, t in zip(scores, row)])
            else:
                rows.append([float(imps(x - best)) for x in scores])
        return rows

    def _clear(self, view: SeatView, tricks, weights) -> bool:
        """Whether one card is clearly best on the layouts solved so far."""
        s = self.settings
        if not s.early_stop and not s.equal_stop:
            return False
        u = self._utilities(view, tricks)
        m = len(u[0])
        total = sum(weights)
        if total <= 0:
            return False
        means = [sum(w * r[j] for w, r in zip(weights, u)) / total for j in range(m)]
        b = max(range(m), key=lambda j: means[j])
        n = len(u)
        w2 = sum(w * w for w in weights)
        n_eff = total * total / w2 if w2 > 0 else 0.0
        for j in range(m):
            if j == b:
                continue
            d = [r[b] - r[j] for r in u]
            if all(x == 0 for x in d):
                if s.equal_stop and n >= s.equal_stop:
                    continue
                return False
            if not s.early_stop or n_eff < 2:
                return False
            mean = sum(w * x for w, x in zip(weights, d)) / total
            var = sum(w * (x - mean) ** 2 for w, x in zip(weights, d)) / total
            se = math.sqrt(var / n_eff) if var > 0 else 0.0
            if mean <= 0 or (se > 0 and mean < s.early_stop * se):
                return False
        return True

    def _pick(self, view: SeatView, legal: Sequence[Card], tricks, weights, start, exact,
              reason) -> CardChoice:
        mover_decl = view.to_play.side == view.declarer.side
        m = len(legal)
        u = self._utilities(view, tricks)
        total_w = sum(weights) or 1.0
        utility = [sum(w * r[j] for w, r in zip(weights, u)) / total_w for j in range(m)]
        mover = [[(row[j] if mover_decl else 13 - row[j]) for j in range(m)] for row in tricks]
        mover_mean = [sum(w * r[j] for w, r in zip(weights, mover)) / total_w for j in range(m)]
        worst = [min(r[j] for r in mover) for j in range(m)]
        if self.settings.declarer_risk and mover_decl:
            share = self.settings.risk_share
            tops = [max(r) for r in mover]
            for j in range(m):
                utility[j] += self.settings.declarer_risk * _tail_loss(
                    [r[j] - t for r, t in zip(mover, tops)], weights, total_w, share)
        dominated = set()
        for a in range(m):
            ra = [r[a] for r in mover]
            for b in range(m):
                if a != b and b not in dominated:
                    rb = [r[b] for r in mover]
                    if all(x <= y for x, y in zip(ra, rb)) and ra != rb:
                        dominated.add(a)
                        break
        candidates = [j for j in range(m) if j not in dominated]
        top = max(utility[j] for j in candidates)
        margin = self.settings.tie_margin + 1e-9
        tied = [j for j in candidates if utility[j] >= top - margin]
        overtakes = _overtakes(view, legal)
        best = min(tied, key=lambda j: (-round(mover_mean[j], 9), -worst[j],
                                        overtakes[j], int(legal[j].rank),
                                        -int(legal[j].suit)))
        return CardChoice(legal[best], tuple(legal), tuple(tricks), tuple(weights),
                          tuple(utility), len(tricks), time.perf_counter() - start, exact,
                          reason)


def _tail_loss(losses: Sequence[float], weights: Sequence[float], total: float,
               share: float) -> float:
    """The weighted mean of ``losses`` (tricks, <= 0) over the worst ``share`` of the
    total weight (a layout straddling the boundary counts in part)."""
    cap = share * total
    if cap <= 0:
        return 0.0
    taken = acc = 0.0
    for x, w in sorted(zip(losses, weights)):
        part = min(w, cap - taken)
        if part <= 0:
            break
        acc += part * x
        taken += part
    return acc / cap


def _winning(cards: Sequence[Card], trump) -> int:
    """Index of the card winning a (possibly incomplete) trick so far."""
    t = None if trump is None or int(trump) == 4 else int(trump)
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if (c.suit == b.suit and c.rank > b.rank) or \
                (t is not None and int(c.suit) == t and int(b.suit) != t):
            best = i
    return best


def _overtakes(view: SeatView, legal: Sequence[Card]) -> List[bool]:
    """For each legal card: whether it would beat a card of partner's that is winning the
    trick so far (a ruff or an overtake of partner's winner)."""
    trick = view.current_trick
    if not trick:
        return [False] * len(legal)
    cards = [c for _, c in trick]
    if trick[_winning(cards, view.trump)][0] != view.to_play.partner:
        return [False] * len(legal)
    n = len(cards)
    return [_winning(cards + [c], view.trump) == n for c in legal]


def _lowest_of_longest(view: SeatView) -> Card:
    """A safe default when no layout could be sampled: the lowest card of the longest
    holding among the legal cards."""
    legal = view.legal_cards
    by_suit: Dict[int, List[Card]] = {}
    for c in legal:
        by_suit.setdefault(int(c.suit), []).append(c)
    suit = max(by_suit, key=lambda s: (len(by_suit[s]), s))
    return min(by_suit[suit], key=lambda c: c.rank)
