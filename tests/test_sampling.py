"""Tests of ai.sampling: layouts consistent with a seat's view."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ai.bidding import StandardAmerican
from ai.inference import infer
from ai.players import seat_view
from ai.sampling import SamplingError, sample_deals
from ddsolver.cards import FULL_DECK_MASK, Suit, cards_of_mask
from ddsolver.deal import Deal, Hand
from ddsolver.table import Seat

DEAL = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")
AUCTION = "1NT Pass 3NT Pass Pass Pass"


def _check(view, deal):
    assert deal.is_complete()
    for s in Seat:
        known = view.known_cards(s)
        assert known.mask & deal[s].mask == known.mask
    for s, suits in view.voids.items():
        held = deal[s].mask & ~sum(c.bit for c in view.played_by(s))
        for suit in suits:
            assert not (held >> (16 * int(suit))) & 0xFFFF


def test_uniform_keeps_known_cards_and_voids():
    played = [(Seat.EAST, "H2"), (Seat.SOUTH, "HA"), (Seat.WEST, "S2"), (Seat.NORTH, "H5")]
    view = seat_view("N", DEAL.north, dealer="N", vulnerability="None", auction=AUCTION,
                     played=played, dummy_hand=DEAL.south)
    s = sample_deals(view, 200, random.Random(3))
    assert len(s) == 200 and len(s.weights) == 200
    for deal in s:
        _check(view, deal)
    # after West shows out of hearts, no sample gives West a heart
    assert all(deal.west.length(Suit.HEARTS) == 0 for deal in s)
    again = sample_deals(view, 200, 3)
    assert [d.to_pbn() for d in again] == [d.to_pbn() for d in s]


def test_uniform_split_frequencies():
    """Five missing hearts between two hidden hands split 3-2 / 4-1 / 5-0 in 68 / 28 / 4 %."""
    north = "AKQ2.AKQJ2.A2.A2"      # 5 hearts in N, 3 in S: 5 missing
    south = "543.876.KQJ43.KQ"
    rng = random.Random(0)
    free = sorted(cards_of_mask(FULL_DECK_MASK & ~Hand.from_pbn(north).mask
                                & ~Hand.from_pbn(south).mask))
    rng.shuffle(free)
    deal = Deal([Hand.from_pbn(north), Hand(free[:13]), Hand.from_pbn(south), Hand(free[13:])])
    view = seat_view("N", deal.north, dealer="N", vulnerability="None",
                     auction="1S Pass 2S Pass Pass Pass", played=[(Seat.EAST, free[0])],
                     dummy_hand=deal.south)
    s = sample_deals(view, 4000, 11)
    splits = Counter(max(d.east.length(Suit.HEARTS), d.west.length(Suit.HEARTS))
                     for d in s)
    n = len(s)
    # exact frequencies given the lead: close to the textbook ones; 4,000 samples -> SE ~0.7 %
    for longer, p in ((3, 0.68), (4, 0.28), (5, 0.04)):
        assert abs(splits[longer] / n - p) < 0.05


def test_rejection_uses_the_auction():
    sa = StandardAmerican()
    view = seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION)
    s = sample_deals(view, 30, 5, method="rejection", system=sa)
    opener = infer(view.auction, sa)[Seat.NORTH].constraints
    assert len(s) == 30
    for deal in s:
        _check(view, deal)
        assert opener.satisfied_by(deal.north)
        assert 15 <= deal.north.hcp <= 17 and deal.north.is_balanced()


def test_bad_arguments():
    view = seat_view("E", DEAL.east, dealer="N", vulnerability="None", auction=AUCTION)
    for n in (-1, 1.5, True, "3"):
        with pytest.raises(SamplingError):
            sample_deals(view, n, 1)
    with pytest.raises(SamplingError, match="method"):
        sample_deals(view, 3, 1, method="magic")
    with pytest.raises(SamplingError, match="system"):
        sample_deals(view, 3, 1, method="rejection")
    with pytest.raises(TypeError):
        sample_deals(DEAL, 3, 1)
    assert len(sample_deals(view, 0, 1)) == 0
