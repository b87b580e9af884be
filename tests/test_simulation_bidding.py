"""Tests of ai.bidding.simulation: the rules' candidates judged by double-dummy simulation."""

from __future__ import annotations

import pytest

from ai.bidding import StandardAmerican
from ai.bidding.simulation import SimulatingBidder, SimulationSettings, finish_auction
from ddsolver.auction import Auction
from ddsolver.deal import Deal, Hand, random_deals
from ddsolver.errors import AuctionFinishedError, InvalidDealError
from ddsolver.table import Seat, Vulnerability

SA = StandardAmerican()
FAST = SimulationSettings(samples=6, min_samples=6, time_budget=30.0, threads=1)


def _decisions(count=40, seed=7):
    """(hand, auction, vulnerability) at every decision of the rules' auctions of some
    random deals where the rules leave more than one candidate."""
    out = []
    for i, deal in enumerate(random_deals(seed, count)):
        a = Auction(Seat(i % 4))
        while not a.is_finished:
            hand = deal[a.to_act]
            cands = SA.candidates(hand, a, Vulnerability.NONE)
            if len(cands) > 1:
                out.append((hand, a.copy()))
            a.add(SA.choose(hand, a, Vulnerability.NONE))
    return out


def test_finish_auction_by_the_rules():
    deal = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 "
                         "K82.Q93.KJ5.Q854")
    a = finish_auction(SA, deal, Auction("N"), Vulnerability.NONE)
    assert a.is_finished and str(a.calls[0]) == "1NT"


def test_choices_are_candidates_whose_explanation_the_hand_meets():
    cases = _decisions()[:6]
    assert cases, "no decision with a choice in 40 deals"
    bidder = SimulatingBidder(SA, FAST, seed=3)
    for hand, auction in cases:
        d = bidder.decide(hand, auction, "None")
        assert d.rules_call == SA.choose(hand, auction, Vulnerability.NONE)
        assert d.call in d.candidates and d.candidates[0] == d.rules_call
        assert SA.explain(auction, d.call).constraints.satisfied_by(hand)
        assert d.samples == 6 and len(d.gains) == len(d.candidates)
        assert d.gains[0] == 0.0
        if d.departed:
            j = d.candidates.index(d.call)
            assert d.gains[j] >= FAST.margin and d.gains[j] >= FAST.confidence * d.errors[j]


def test_seeded_decisions_repeat():
    hand, auction = _decisions()[0]
    a = SimulatingBidder(SA, FAST, seed=11).decide(hand, auction)
    b = SimulatingBidder(SA, FAST, seed=11).decide(hand, auction)
    assert (a.call, a.gains) == (b.call, b.gains)


def test_one_candidate_needs_no_simulation():
    d = SimulatingBidder(SA, FAST).decide(Hand.from_pbn("5432.5432.432.32"), Auction("N"))
    assert str(d.call) == "Pass" and d.samples == 0 and not d.departed


def test_bad_input():
    with pytest.raises(TypeError):
        SimulatingBidder(object())
    with pytest.raises(TypeError):
        SimulatingBidder(SA, settings={"samples": 3})
    for bad in (dict(samples=0), dict(margin=-1), dict(threads=0), dict(scoring="rubber"),
                dict(time_budget=float("nan"))):
        with pytest.raises(ValueError):
            SimulationSettings(**bad)
    bidder = SimulatingBidder(SA, FAST)
    with pytest.raises(InvalidDealError):
        bidder.choose(Hand.from_pbn("AQ4.KJ5.Q963.KJ"), Auction("N"))
    with pytest.raises(AuctionFinishedError):
        bidder.choose(Hand.from_pbn("AQ4.KJ5.Q963.KJ2"), Auction("N", ["Pass"] * 4))
