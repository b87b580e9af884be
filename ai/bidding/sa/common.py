"""Shared helpers for the Standard American rule tables: judgement functions, auction
facts and the :func:`rule` shorthand."""

from __future__ import annotations

from typing import Optional

from ddsolver.cards import Strain, Suit
from ddsolver.deal import Hand

from ..explanation import Forcing
from ..rules import Rule

NF = Forcing.NON_FORCING
F1 = Forcing.FORCING
GF = Forcing.GAME_FORCING

MAJORS = (Strain.HEARTS, Strain.SPADES)
SUITS = (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES)


def rule(name, patterns, call, hand=None, meaning="", **kw) -> Rule:
    """Shorthand for :class:`Rule` (``patterns`` may be one string, a list, or ``None``
    for "any auction")."""
    if patterns is None or isinstance(patterns, str):
        patterns = (patterns,)
    return Rule(name=name, patterns=tuple(patterns), call=call,
                hand=hand if hand is not None else {}, meaning=meaning, **kw)


def length(hand: Hand, strain: Strain) -> int:
    return hand.length(Suit(int(strain)))


def opens_one(hand: Hand) -> bool:
    """12+ HCP, or 11 with a long suit (the two longest suits hold nine cards or more:
    the rule of 20)."""
    if hand.hcp >= 12:
        return True
    if hand.hcp == 11:
        lens = sorted((hand.length(s) for s in Suit), reverse=True)
        return lens[0] + lens[1] >= 9   # the rule of 20: a six-card suit or 5-4 shape
    return False


def opening_suit(hand: Hand) -> Strain:
    """The suit of a one-level opening: a five-card major unless a minor is longer (the
    longer major; spades with 5-5); else the longer minor (clubs with 3-3, diamonds with
    4-4 or longer equal minors)."""
    s, h = hand.length(Suit.SPADES), hand.length(Suit.HEARTS)
    d, c = hand.length(Suit.DIAMONDS), hand.length(Suit.CLUBS)
    major_len = max(s, h)
    if major_len >= 5 and major_len >= max(d, c):
        return Strain.SPADES if s >= h else Strain.HEARTS
    if major_len >= 5 and max(d, c) > major_len:
        return Strain.DIAMONDS if d >= c else Strain.CLUBS
    if c > d:
        return Strain.CLUBS
    if d > c:
        return Strain.DIAMONDS
    return Strain.CLUBS if c == 3 else Strain.DIAMONDS


def honours(hand: Hand, strain: Strain, top: int = 5) -> int:
    """Number of the top ``top`` honours (A K Q J T) held in ``strain``."""
    ranks = hand.holding(Suit(int(strain)))
    return sum(1 for r in ranks if r >= 15 - top)


def good_suit(hand: Hand, strain: Strain) -> bool:
    """Two of the top four honours, three of the top five, or a six-card suit with one of
    the top three."""
    if honours(hand, strain, 4) >= 2 or honours(hand, strain) >= 3:
        return True
    return length(hand, strain) >= 6 and honours(hand, strain, 3) >= 1


# -- auction facts (public) ------------------------------------------------------------
def cheapest_level(ctx, strain: Strain) -> int:
    """The lowest level at which ``strain`` may be bid now."""
    last = ctx.last_bid
    if last is None:
        return 1
    return last.level if strain > last.strain else last.level + 1


def not_jump(ctx, b, call) -> bool:
    return call.is_bid and call.level == cheapest_level(ctx, call.strain)


def single_jump(ctx, b, call) -> bool:
    return call.is_bid and call.level == cheapest_level(ctx, call.strain) + 1


def partner_shown(ctx):
    return ctx.shown(ctx.partner)


def pmin(ctx) -> int:
    return partner_shown(ctx).hcp[0]


def pmax(ctx) -> int:
    return partner_shown(ctx).hcp[1]


def plen(ctx, strain: Strain) -> int:
    """Partner's promised minimum length in ``strain``."""
    return partner_shown(ctx).lengths[Suit(int(strain))][0]


def rho_passed(ctx) -> bool:
    return bool(ctx.calls) and ctx.calls[-1].is_pass


def partner_last(ctx):
    calls = ctx.calls_of(ctx.partner)
    return calls[-1] if calls else None


def partner_has_bid(ctx) -> bool:
    return any(c.is_bid for c in ctx.calls_of(ctx.partner))


def last_name(ctx, seat) -> Optional[str]:
    exp = ctx.last_explanation(seat)
    return None if exp is None else exp.name


def length_points(hand: Hand) -> int:
    """One point for every card beyond five in a suit."""
    return sum(max(0, hand.length(s) - 5) for s in Suit)


#: Shortness points as dummy: void, singleton, doubleton (with three or more trumps).
SHORTNESS = {0: 3, 1: 2, 2: 1}
#: Whether notrump judgement adds length points to HCP (it does not: on the tuning seeds
#: double-dummy notrump tricks grow with the side's HCP, 0.51 a point, and not with its
#: long suits).
NT_LENGTH_POINTS = False


def support_points(hand: Hand, trump: Strain) -> float:
    """Shortness points as dummy for ``trump`` (:data:`SHORTNESS`: void, singleton,
    doubleton), counted only with three or more trumps."""
    if length(hand, trump) < 3:
        return 0
    pts = 0
    for s in Suit:
        if int(s) == int(trump):
            continue
        pts += SHORTNESS.get(hand.length(s), 0)
    return pts


#: Points added per trump beyond eight in a known fit (my length plus partner's promised
#: length).
FIT_POINTS = 1


def total_points(hand: Hand, trump: Optional[Strain] = None, ctx=None) -> float:
    """HCP plus length points, or (with a known trump fit) plus the larger of length and
    shortness points; with ``ctx`` also :data:`FIT_POINTS` per trump of the fit beyond
    eight (partner's promised length counted)."""
    if trump is None or trump == Strain.NOTRUMP:
        return hand.hcp + (length_points(hand) if NT_LENGTH_POINTS else 0)
    pts = hand.hcp + max(length_points(hand), support_points(hand, trump))
    if ctx is not None and FIT_POINTS:
        pts += FIT_POINTS * max(0, length(hand, trump) + plen(ctx, trump) - 8)
    return pts


def pest(ctx) -> int:
    """A working estimate of partner's HCP: the minimum shown plus half the width of the
    range, at most three more."""
    lo, hi = partner_shown(ctx).hcp
    return lo + min(3, (hi - lo) // 2)

