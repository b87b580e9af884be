"""Bidding: the Standard American system of ``docs/game.md`` as rules, with an
explanation for every call.

>>> from ai.bidding import StandardAmerican
>>> from ddsolver.auction import Auction
>>> from ddsolver.deal import Hand
>>> sa = StandardAmerican()
>>> str(sa.choose(Hand.from_pbn("AQ4.KJ5.Q963.KJ2"), Auction("N")))
'1NT'
>>> sa.explain(Auction("N", ["1NT", "Pass"]), "2C").text
'Stayman: asks for a four-card major; 8+ HCP; forcing'
"""

from __future__ import annotations

from ai.constraints import HandConstraints, ace_count, has_stopper

from .explanation import Explanation, Forcing
from .rules import Context, Rule
from .system import BiddingSystem, Candidate, Hint, check_vulnerability

__all__ = [
    "BiddingSystem",
    "Candidate",
    "Context",
    "Explanation",
    "Forcing",
    "HandConstraints",
    "Hint",
    "Rule",
    "StandardAmerican",
    "ace_count",
    "bid_deal",
    "check_vulnerability",
    "has_stopper",
]


class StandardAmerican(BiddingSystem):
    """The simple Standard American system of ``docs/game.md`` ("The bidding system").

    Openings: 1NT 15-17 and 2NT 20-21 balanced, strong artificial 2♣ (22+) with a 2♦
    waiting answer, five-card majors, the longer minor, weak twos (six cards, 5-10), three-
    level preempts (seven cards).  Responses: raises (single 6-10, limit 10-12, game 13+),
    new suits (one level 6+, two level 11+), 1NT/2NT/3NT.  After notrump: Stayman, Jacoby
    transfers and their continuations.  Competition: overcalls, the 1NT overcall, takeout
    doubles and their answers, penalty doubles.  Slams: Blackwood.  See
    :mod:`ai.bidding.sa` for the rule tables.
    """

    name = "Standard American (simple)"

    def __init__(self):
        from .sa import ALL_RULES
        super().__init__(ALL_RULES, defaults=(), name=self.name)


def bid_deal(deal, dealer, vulnerability=None, system=None):
    """Let ``system`` (default :class:`StandardAmerican`) bid all four hands of ``deal``;
    each seat's call is chosen from its own hand and the auction only.

    :param deal: a complete :class:`ddsolver.deal.Deal` (for PBN text use
        :meth:`Deal.from_pbn` first).
    :param dealer: a :class:`ddsolver.table.Seat` or its letter or name.
    :param vulnerability: a :class:`ddsolver.table.Vulnerability`, its text (``"None"``,
        ``"NS"``, ``"EW"``, ``"All"``), 0..3, or ``None`` (default) for none vulnerable.
    :returns: the finished :class:`ddsolver.auction.Auction`.
    :raises TypeError: if ``deal`` is not a Deal, or ``dealer`` or ``vulnerability`` is of a
        type neither can have.
    :raises InvalidDealError: if ``deal`` is not a complete deal.
    :raises InvalidNotationError: if ``dealer`` or ``vulnerability`` is text (or a number)
        that names none.
    """
    from ddsolver.auction import Auction
    from ddsolver.deal import Deal
    from ddsolver.errors import InvalidDealError
    from ddsolver.table import Seat
    if not isinstance(deal, Deal):
        raise TypeError(f"bid_deal takes a Deal, got {type(deal).__name__}: {deal!r:.80}"
                        + (" (for PBN text use Deal.from_pbn)" if isinstance(deal, str) else ""))
    dealer = Seat.coerce(dealer)
    vulnerability = check_vulnerability(vulnerability)
    if system is None:
        system = StandardAmerican()
    if not deal.is_complete():
        raise InvalidDealError(f"deal {deal} is not complete")
    auction = Auction(dealer)
    while not auction.is_finished:
        seat = auction.to_act
        auction.add(system.choose(deal[seat], auction, vulnerability))
        if len(auction) > 320:  # cannot happen with legal calls; belt and braces
            break
    return auction
