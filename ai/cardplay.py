"""Monte Carlo card play: declarer (and dummy), defenders, opening leads.

The method is perfect-information Monte Carlo as GIB made it standard (Ginsberg, "GIB:
Imperfect information in a computationally challenging game", JAIR 14, 2001): deal the
cards the seat cannot see many times consistently with what it knows
(:func:`ai.sampling.sample_deals`), solve every layout double dummy for every legal card
(:class:`ddsolver.Solver`, one per thread, reused across the layouts of a decision), and
play the card with the best expected result *for the contract and the scoring*:

- at IMPs each card's result in a layout is the IMPs it loses against the best card of that
  layout (:func:`ddsolver.scoring.imps` of the difference of the duplicate scores), so the
  tricks that make or defeat the contract weigh most;
- at matchpoints every trick counts: the mean number of tricks.

Ties go to the card with more tricks on average, then to the card whose worst layouts are
best (a robust choice against strategy fusion, see ``shared`` design notes in the README's
sources: Frank & Basin, AIJ 1998), then to the lowest card.  A card worse than another in
every sampled layout is never chosen; equivalent cards give the lowest; a single legal card
is played without search.  A time budget per decision caps the layouts solved.
"""

from __future__ import annotations

import math
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Sequence, Tuple

from ai.players import SeatView
from ai.sampling import Samples, sample_deals
from ddsolver.cards import Card
from ddsolver.play import Position
from ddsolver.scoring import imps, score
from ddsolver.solver import Solver
from ddsolver.table import Seat

__all__ = ["CardChoice", "CardPlayer", "PlaySettings"]


@dataclass(frozen=True)
class PlaySettings:
    """How a computer chooses its cards.

    :ivar samples: layouts of the unseen cards per decision (at most).
    :ivar lead_samples: layouts for the opening lead (solving trick 1 costs more).
    :ivar method: the sampling method (:func:`ai.sampling.sample_deals`).
    :ivar time_budget: seconds per decision: layouts are solved in batches until the budget
        is spent (at least :attr:`min_samples` are solved whatever the time).
    :ivar min_samples: layouts always solved, budget or not.
    :ivar threads: solver threads (``None``: every core, at most 2 per decision batch).
    :ivar memory_mb: transposition-table memory of each solver, MiB.
    :ivar sampling: extra keyword options passed to :func:`ai.sampling.sample_deals`.
    """

    samples: int = 40
    lead_samples: int = 24
    method: str = "uniform"
    time_budget: float = 1.0
    min_samples: int = 4
    threads: Optional[int] = None
    memory_mb: int = 64
    sampling: Tuple[Tuple[str, object], ...] = field(default_factory=tuple)

    def __post_init__(self):
        for name in ("samples", "lead_samples", "min_samples", "memory_mb"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        if isinstance(self.time_budget, bool) or not isinstance(self.time_budget, (int, float)) \
                or not self.time_budget > 0 or not math.isfinite(self.time_budget):
            raise ValueError(f"time_budget must be a positive number of seconds, got "
                             f"{self.time_budget!r}")
        if self.threads is not None and (isinstance(self.threads, bool) or
                                         not isinstance(self.threads, int) or self.threads < 1):
            raise ValueError(f"threads must be None or an integer >= 1, got {self.threads!r}")

    def with_(self, **changes) -> "PlaySettings":
        """A copy with some settings changed (checked again)."""
        return replace(self, **changes)


@dataclass(frozen=True)
class CardChoice:
    """A card and how it was chosen.

    :ivar card: the card to play.
    :ivar cards: the legal cards considered, in the order of :attr:`SeatView.legal_cards`.
    :ivar tricks: ``tricks[i][j]``: declarer's side's total tricks (0..13, whole deal) if
        card ``j`` is played in layout ``i`` and all four hands then play double dummy.
    :ivar weights: one weight per layout.
    :ivar utility: the expected utility of each card (IMPs lost against the layout's best
        card at IMPs, <= 0; tricks for the side to play at matchpoints).
    :ivar samples: layouts solved; :ivar seconds: time spent; :ivar exact: layouts were
        every consistent layout.
    """

    card: Card
    cards: Tuple[Card, ...] = ()
    tricks: Tuple[Tuple[int, ...], ...] = ()
    weights: Tuple[float, ...] = ()
    utility: Tuple[float, ...] = ()
    samples: int = 0
    seconds: float = 0.0
    exact: bool = False


def position_in(view: SeatView, deal) -> Position:
    """The current position of the play in ``deal`` (a complete layout consistent with
    ``view``): the cards each seat still holds, the trump, the trick in progress."""
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


class CardPlayer:
    """Chooses cards for one computer seat by Monte Carlo sampling and double-dummy solving.

    Owns its solvers (one per thread, each with its own transposition table, reused from
    decision to decision) and nothing of any deal: every decision starts from the
    :class:`SeatView` it is given.

    :param settings: :class:`PlaySettings`.
    :param system: the bidding system whose explanations constrain the layouts (passed to
        the sampler).
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

    def _solver_list(self) -> List[Solver]:
        with self._lock:
            while len(self._solvers) < self._threads:
                self._solvers.append(Solver(memory_mb=self.settings.memory_mb))
            if self._pool is None and self._threads > 1:
                self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="cardplay")
            return self._solvers

    def close(self) -> None:
        """Release the solver threads (the player can still be used afterwards)."""
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

        :param view: the deciding seat's view; ``view.legal_cards`` must not be empty.
        :param rng: the random numbers for the layouts.
        :raises ValueError: if the view asks for no card.
        """
        legal = view.legal_cards
        if not legal:
            raise ValueError(f"{view.seat.name} has no card to play in this view")
        if len(legal) == 1:
            return CardChoice(legal[0], legal)
        start = time.perf_counter()
        s = self.settings
        opening_lead = not view.played
        n = s.lead_samples if opening_lead else s.samples
        samples = sample_deals(view, n, rng, method=s.method, system=self.system,
                               **dict(s.sampling))
        if len(samples) == 0:
            return CardChoice(_lowest_of_longest(view), legal, seconds=time.perf_counter()
                              - start)
        tricks, used = self._solve_layouts(view, samples, start)
        weights = list(samples.weights[:used])
        return self._pick(view, legal, tricks, weights, start,
                          exact=samples.exact and used == len(samples))

    def _solve_layouts(self, view: SeatView, samples: Samples, start: float):
        """Declarer-side tricks of every legal card in each layout, within the budget."""
        solvers = self._solver_list()
        legal = view.legal_cards
        decl_side = view.declarer.side
        mover_decl = view.to_play.side == decl_side
        done = view.declarer_tricks
        budget = self.settings.time_budget
        minimum = self.settings.min_samples

        def one(solver: Solver, deal) -> Tuple[int, ...]:
            values = solver.solve(position_in(view, deal))
            left = 13 - len(view.tricks) + (1 if view.current_trick else 0)
            row = []
            for card in legal:
                v = values[card]
                row.append(done + (v if mover_decl else left - v))
            return tuple(row)

        out: List[Tuple[int, ...]] = []
        deals = list(samples)
        k = len(solvers)
        i = 0
        while i < len(deals):
            if len(out) >= minimum and time.perf_counter() - start > budget:
                break
            batch = deals[i:i + k]
            if k == 1 or len(batch) == 1:
                out.extend(one(solvers[0], d) for d in batch)
            else:
                futures = [self._pool.submit(one, solvers[j], d) for j, d in enumerate(batch)]
                out.extend(f.result() for f in futures)
            i += len(batch)
        return out, len(out)

    def _pick(self, view: SeatView, legal: Sequence[Card], tricks, weights, start, exact):
        decl = view.declarer
        contract = view.contract
        vulnerable = view.vulnerability.is_vulnerable(decl)
        mover_decl = view.to_play.side == decl.side
        sign = 1 if mover_decl else -1
        m = len(legal)
        total_w = sum(weights) or 1.0
        mean_tricks = [sum(w * row[j] for w, row in zip(weights, tricks)) / total_w
                       for j in range(m)]
        if view.scoring == "MP":
            mover = [[(row[j] if mover_decl else 13 - row[j]) for j in range(m)]
                     for row in tricks]
            utility = [sum(w * r[j] for w, r in zip(weights, mover)) / total_w
                       for j in range(m)]
        else:
            cache: Dict[int, int] = {}

            def pts(t: int) -> int:
                if t not in cache:
                    cache[t] = sign * score(contract, t, vulnerable)
                return cache[t]

            utility = [0.0] * m
            for w, row in zip(weights, tricks):
                scores = [pts(t) for t in row]
                best = max(scores)
                for j in range(m):
                    utility[j] += w * imps(scores[j] - best)
            utility = [u / total_w for u in utility]
        # mover's view of tricks for the tie-breaks
        mover_mean = [t if mover_decl else 13 - t for t in mean_tricks]
        worst = [min((row[j] if mover_decl else 13 - row[j]) for row in tricks)
                 for j in range(m)]
        dominated = set()
        for a in range(m):
            for b in range(m):
                if a != b and b not in dominated:
                    ra = [(row[a] if mover_decl else 13 - row[a]) for row in tricks]
                    rb = [(row[b] if mover_decl else 13 - row[b]) for row in tricks]
                    if all(x <= y for x, y in zip(ra, rb)) and any(x < y for x, y in zip(ra, rb)):
                        dominated.add(a)
                        break
        order = sorted(
            (j for j in range(m) if j not in dominated),
            key=lambda j: (-round(utility[j], 9), -round(mover_mean[j], 9), -worst[j],
                           int(legal[j].rank), -int(legal[j].suit)))
        best = order[0]
        return CardChoice(legal[best], tuple(legal), tuple(tricks), tuple(weights),
                          tuple(utility), len(tricks), time.perf_counter() - start, exact)


def _lowest_of_longest(view: SeatView) -> Card:
    """A safe default when no layout could be sampled: the lowest card of the longest
    holding among the legal cards."""
    legal = view.legal_cards
    by_suit: Dict[int, List[Card]] = {}
    for c in legal:
        by_suit.setdefault(int(c.suit), []).append(c)
    suit = max(by_suit, key=lambda s: (len(by_suit[s]), s))
    return min(by_suit[suit], key=lambda c: c.rank)
