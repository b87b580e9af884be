"""Layouts of the unseen cards consistent with what one seat sees.

:func:`sample_deals` deals the cards a :class:`~ai.players.SeatView` does not show to the
seats that hold them, keeping every card the view shows where it is (the seat's own hand,
dummy, the cards played) and every void shown by a failure to follow suit.

Methods (``method=``):

- ``"uniform"``: every layout consistent with the known cards and the shown voids is equally
  likely: the plain Monte Carlo sampler that GIB popularised (Ginsberg, "GIB: Imperfect
  information in a computationally challenging game", JAIR 14, 2001).
- ``"rejection"``: uniform layouts kept only when each hidden hand satisfies the HCP and
  suit-length constraints the auction gave it (:func:`ai.inference.infer`); simple rejection
  with a cap on tries (the second baseline of the play-strength benchmark).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ai.inference import infer
from ai.players import SeatView
from ddsolver.cards import Card, cards_of_mask
from ddsolver.deal import Deal, Hand
from ddsolver.errors import BridgeError
from ddsolver.table import Seat

__all__ = ["SamplingError", "Samples", "sample_deals"]

_SUIT_MASK = 0xFFFF


class SamplingError(BridgeError):
    """No layout of the unseen cards satisfies the view (or the sampler's arguments are
    bad: a negative count, an unknown method)."""


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
        they were dropped (empty when none was).
    :ivar tries: layouts drawn to find these (rejection) or ``len(deals)``.
    """

    deals: Tuple[Deal, ...]
    weights: Tuple[float, ...]
    exact: bool = False
    relaxed: Tuple[str, ...] = ()
    tries: int = 0

    def __len__(self) -> int:
        return len(self.deals)

    def __iter__(self):
        return iter(self.deals)

    def __getitem__(self, i):
        return self.deals[i]


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


def sample_deals(view: SeatView, n: int, rng, *, method: str = "uniform", system=None,
                 max_tries: int = 20_000) -> Samples:
    """Up to ``n`` complete deals consistent with ``view``.

    :param view: the seat's view (:class:`ai.players.SeatView`).
    :param n: how many layouts (``n >= 0``).
    :param rng: a :class:`random.Random` or an integer seed; the same view, seed and method
        give the same layouts on every platform.
    :param method: ``"uniform"`` or ``"rejection"`` (see the module's docstring).
    :param system: the bidding system whose explanations give the auction's constraints
        (``"rejection"`` only; default :class:`ai.bidding.StandardAmerican` is NOT imported
        here: pass it).
    :param max_tries: ``"rejection"``: layouts drawn at most; fewer than ``n`` deals are
        returned when the cap is reached (``Samples.tries`` says how many were drawn).
    :returns: :class:`Samples` with equal weights.
    :raises SamplingError: ``n`` negative or not an integer, an unknown method, a missing
        system for ``"rejection"``, or no layout consistent with the shown voids.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise SamplingError(f"the number of samples must be an integer >= 0, got {n!r}")
    if method not in ("uniform", "rejection"):
        raise SamplingError(f"unknown sampling method {method!r}: 'uniform' or 'rejection'")
    if not isinstance(view, SeatView):
        raise TypeError(f"sample_deals needs a SeatView, got {type(view).__name__}")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    known, unseen, need, voids = _known_masks(view)
    hidden = view.hidden_seats
    cards = sorted(cards_of_mask(unseen))
    checks = {}
    if method == "rejection":
        if system is None:
            raise SamplingError("method 'rejection' needs the bidding system (system=...)")
        inferred = infer(view.auction, system)
        checks = {s: inferred[s].constraints for s in hidden
                  if not inferred[s].constraints.is_trivial}
    deals: List[Deal] = []
    tries = 0
    limit = max_tries if method == "rejection" else max(50 * n, 1000)
    while len(deals) < n and tries < limit:
        tries += 1
        deal = _deal_uniform(known, cards, need, voids, rng, hidden)
        if deal is None:
            continue
        if checks and not all(c.satisfied_by(deal[s]) for s, c in checks.items()):
            continue
        deals.append(deal)
    if n and not deals and method == "uniform":
        raise SamplingError("no layout of the unseen cards fits the shown voids")
    return Samples(tuple(deals), tuple(1.0 for _ in deals), tries=tries)
