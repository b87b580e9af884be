"""What an auction says about each seat's hidden hand.

:func:`infer` explains every call of an auction with a bidding system and combines, per seat,
the constraints of its calls (intersection of :class:`~ai.constraints.HandConstraints`),
so the result is exactly consistent with the explanations the players are shown.
:mod:`ai.sampling` draws hidden hands that satisfy these constraints.  The bidding system is
always passed in (this module does not import :mod:`ai.bidding`, which sits above it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Dict, Tuple

from ai.constraints import HandConstraints
from ddsolver.table import Seat

__all__ = ["SeatInference", "combine", "infer", "normalise"]


@dataclass(frozen=True)
class SeatInference:
    """What the calls of one seat have shown.

    :ivar seat: the seat.
    :ivar constraints: the combined constraints of all its calls (normalised: suit ranges
        tightened so that the lengths can add up to 13).
    :ivar calls: ``(index in the auction, call, explanation)`` for each of its calls.
    :ivar consistent: ``False`` if two calls contradicted each other; the later call's
        meaning then won on the conflicting points.
    """

    seat: Seat
    constraints: HandConstraints
    calls: Tuple = field(default_factory=tuple)
    consistent: bool = True

    def satisfied_by(self, hand) -> bool:
        """Whether ``hand`` could have made these calls (per the constraints)."""
        return self.constraints.satisfied_by(hand)


def normalise(c: HandConstraints) -> HandConstraints:
    """Tighten suit-length ranges so that they are consistent with 13 cards and with
    ``balanced`` (2..5 cards in every suit)."""
    lengths = [list(r) for r in c.lengths]
    if c.balanced:
        for r in lengths:
            r[0] = max(r[0], 2)
            r[1] = min(r[1], 5)
    for _ in range(2):
        total_min = sum(r[0] for r in lengths)
        total_max = sum(r[1] for r in lengths)
        for r in lengths:
            others_min = total_min - r[0]
            others_max = total_max - r[1]
            r[1] = min(r[1], 13 - others_min)
            r[0] = max(r[0], 13 - others_max)
    # may be a contradiction (the caller checks is_empty): not checked as a new one would be
    return HandConstraints._unchecked(c.hcp, tuple((a, b) for a, b in lengths), c.balanced,
                                      c.stoppers, c.aces)


def _merge(cur: HandConstraints, new: HandConstraints) -> Tuple[HandConstraints, bool]:
    """Intersect; where a dimension contradicts, the newer constraint wins."""
    ok = True
    lo, hi = max(cur.hcp[0], new.hcp[0]), min(cur.hcp[1], new.hcp[1])
    if lo > hi:
        lo, hi = new.hcp
        ok = False
    lengths = []
    for (a, b), (c, d) in zip(cur.lengths, new.lengths):
        x, y = max(a, c), min(b, d)
        if x > y:
            x, y = c, d
            ok = False
        lengths.append((x, y))
    bal = cur.balanced if new.balanced is None else new.balanced
    if cur.balanced is not None and new.balanced is not None and cur.balanced != new.balanced:
        ok = False
    if cur.aces is None:
        aces = new.aces
    elif new.aces is None:
        aces = cur.aces
    else:
        aces = cur.aces & new.aces
        if not aces:
            aces = new.aces
            ok = False
    merged = HandConstraints._unchecked((lo, hi), tuple(lengths), bal,
                                        cur.stoppers | new.stoppers, aces)
    norm = normalise(merged)
    if norm.is_empty:
        return normalise(new), False
    return norm, ok


def combine(auction, explanations: Sequence) -> Dict[Seat, SeatInference]:
    """Combine already computed explanations (index-aligned with ``auction.calls``) into
    per-seat constraints.  :func:`infer` is the usual entry point."""
    cons = {s: HandConstraints() for s in Seat}
    calls = {s: [] for s in Seat}
    ok = {s: True for s in Seat}
    for i, (call, exp) in enumerate(zip(auction.calls, explanations)):
        seat = auction.dealer.next(i)
        cons[seat], good = _merge(cons[seat], exp.constraints)
        ok[seat] = ok[seat] and good
        calls[seat].append((i, call, exp))
    return {s: SeatInference(s, cons[s], tuple(calls[s]), ok[s]) for s in Seat}


def infer(auction, system) -> Dict[Seat, SeatInference]:
    """Per-seat constraints implied by ``auction`` under ``system``.

    :param auction: a :class:`ddsolver.auction.Auction` (finished or not).
    :param system: the bidding system the players use, an object with
        ``explain_all(auction) -> [Explanation]`` such as :class:`ai.bidding.StandardAmerican`.
    :returns: ``{Seat: SeatInference}`` for all four seats; a seat that has not called yet
        has trivial constraints.  Every constraint comes from the explanations
        ``system.explain_all(auction)``: HCP range, suit-length ranges, balanced, stoppers,
        aces.
    :raises TypeError: if ``auction`` is not an Auction or ``system`` has no ``explain_all``.
    """
    from ddsolver.auction import Auction
    if not isinstance(auction, Auction):
        raise TypeError(f"infer needs an Auction, got {type(auction).__name__}")
    if not callable(getattr(system, "explain_all", None)):
        raise TypeError("infer needs a bidding system with explain_all(auction) "
                        f"(e.g. ai.bidding.StandardAmerican()), got {type(system).__name__}")
    return combine(auction, system.explain_all(auction))
