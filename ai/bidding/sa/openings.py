"""Openings (spec: "The bidding system", openings)."""

from __future__ import annotations

from ddsolver.cards import Strain

from .common import GF, good_suit, opening_suit, opens_one, rule


def _seat_at_most(n):
    return lambda ctx, b: ctx.position is not None and ctx.position <= n


def _natural_one(hand, ctx, b):
    var = "M" if "M" in b else "m"
    return opens_one(hand) and opening_suit(hand) == b[var]


OPENINGS = [
    rule("Strong 2♣ opening", "", "2C", {"hcp": (22, None)},
         "strong and artificial, says nothing about clubs", forcing=GF, artificial=True,
         alert=True, priority=900),
    rule("2NT opening", "", "2NT", {"hcp": (20, 21), "balanced": True}, "", priority=890),
    rule("1NT opening", "", "1NT", {"hcp": (15, 17), "balanced": True}, "", priority=880),
    rule("One of a major", "", "1M", {"hcp": (11, 21), "M": 5}, "five or more {M}",
         priority=800, judge=_natural_one),
    rule("One of a minor", "", "1m", {"hcp": (11, 21), "m": 3},
         "the longer minor, no five-card major unless the minor is longer", priority=800,
         judge=_natural_one),
    rule("Weak two", "", "2x", {"hcp": (5, 10), "x": (6, 6)},
         "a six-card {x} suit, preemptive", priority=700, when=_seat_at_most(3),
         where=lambda ctx, b, call: call.strain != Strain.CLUBS,
         judge=lambda h, c, b: good_suit(h, b["x"])),
    rule("Three-level preempt", "", "3x", {"hcp": (5, 10), "x": (7, 8)},
         "a seven-card {x} suit, preemptive", priority=700, when=_seat_at_most(3)),
    rule("Pass", "", "P", {"hcp": (0, 11)}, "no opening bid", priority=100),
]

