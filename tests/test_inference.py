"""Tests of ai.inference: per-seat constraints from an auction."""

from __future__ import annotations

import pytest

from ai.bidding import HandConstraints, StandardAmerican
from ai.inference import combine, infer, normalise
from ddsolver.auction import Auction
from ddsolver.cards import Suit
from ddsolver.table import Seat


@pytest.fixture(scope="module")
def sa():
    return StandardAmerican()


def test_1nt_opening(sa):
    inf = infer(Auction("N", ["1NT"]), sa)
    c = inf[Seat.NORTH].constraints
    assert c.hcp == (15, 17) and c.balanced is True
    assert all(c.length(s) == (2, 5) for s in Suit)      # balanced, normalised
    assert inf[Seat.EAST].constraints == HandConstraints()  # has not called yet


def test_stayman_sequence_combines(sa):
    a = Auction("N", ["1NT", "Pass", "2C", "Pass", "2H", "Pass"])
    inf = infer(a, sa)
    north = inf[Seat.NORTH].constraints
    assert north.hcp == (15, 17) and north.length(Suit.HEARTS) == (4, 5)
    assert inf[Seat.SOUTH].constraints.hcp[0] == 8
    assert len(inf[Seat.NORTH].calls) == 2
    # East passed twice over 1NT: no strong balanced hand
    assert inf[Seat.EAST].constraints.hcp[1] <= 14


def test_opener_raise_narrows_range(sa):
    a = Auction("N", ["1H", "Pass", "1S", "Pass", "2S", "Pass"])
    north = infer(a, sa)[Seat.NORTH].constraints
    assert north.hcp == (11, 15)
    assert north.length(Suit.HEARTS)[0] == 5 and north.length(Suit.SPADES)[0] == 4
    assert north.length(Suit.HEARTS)[1] == 9      # 13 - 4 spades
    south = infer(a, sa)[Seat.SOUTH].constraints
    assert south.hcp[0] == 6 and south.length(Suit.SPADES)[0] == 4


def test_matches_explanations(sa):
    a = Auction("W", ["1D", "1S", "X", "2S", "Pass"])
    exps = sa.explain_all(a)
    inf = combine(a, exps)
    for i, e in enumerate(exps):
        seat = a.seat_of(i)
        both = inf[seat].constraints & e.constraints
        assert normalise(both) == inf[seat].constraints


def test_passes_carry_meaning(sa):
    a = Auction("N", ["Pass", "Pass", "1H", "Pass"])
    inf = infer(a, sa)
    assert inf[Seat.NORTH].constraints.hcp == (0, 11)
    assert inf[Seat.WEST].constraints.hcp[1] <= 16


def test_contradiction_is_reported_not_raised(sa):
    # North passes as dealer (0-11) and later invites slam with 16-17 (a human's call)
    a = Auction("N", ["Pass", "Pass", "1NT", "Pass", "4NT", "Pass"])
    north = infer(a, sa)[Seat.NORTH]
    assert not north.consistent
    assert north.constraints.hcp == (16, 17)          # the later call wins
    assert infer(a, sa)[Seat.SOUTH].consistent


def test_responder_pass_after_2nt(sa):
    a = Auction("N", ["Pass", "Pass", "2NT", "Pass", "Pass", "Pass"])
    assert infer(a, sa)[Seat.NORTH].constraints.hcp == (0, 3)
    b = Auction("N", ["Pass", "Pass", "Pass", "2C", "Pass", "2D", "Pass", "2NT"])
    assert infer(b, sa)[Seat.WEST].constraints.hcp == (22, 24)


def test_normalise():
    c = HandConstraints.make(spades=6, hearts=5, diamonds=(None, 3))
    n = normalise(c)
    assert n.length(Suit.CLUBS) == (0, 2)
    assert n.length(Suit.SPADES) == (6, 8)


def test_system_is_explicit():
    inf = infer(Auction("N", ["1S"]), StandardAmerican())
    assert inf[Seat.NORTH].constraints.length(Suit.SPADES)[0] == 5
    with pytest.raises(TypeError, match="system"):
        infer(Auction("N", ["1S"]))      # no system: a missing argument
    with pytest.raises(TypeError, match="bidding system"):
        infer(Auction("N", ["1S"]), None)
    with pytest.raises(TypeError, match="Auction"):
        infer(None, StandardAmerican())
