"""Slam bidding: Blackwood 4NT and its answers (spec: "Slams": 5♣ = 0 or 4 aces, 5♦ = 1,
5♥ = 2, 5♠ = 3; 33 combined points for a small slam, 37 for a grand slam)."""

from __future__ import annotations

from ai.constraints import ace_count
from ddsolver.auction import Call
from ddsolver.cards import Strain

from .common import (
    F1,
    SUITS,
    honours,
    last_name,
    length,
    plen,
    pmin,
    rho_passed,
    rule,
    total_points,
)

BLACKWOOD = "Blackwood"
ANSWER = "Blackwood answer"


def _can_ask(ctx, b) -> bool:
    from .common import partner_last
    last = partner_last(ctx)
    if last is None or not last.is_bid or last.strain == Strain.NOTRUMP:
        return False
    if ctx.doubled:
        return False    # partner (or an opponent) has doubled the last bid
    theirs = ctx.last_explanation(ctx.partner)
    if theirs is not None and theirs.artificial:
        return False    # partner's last bid says nothing of its suit (2C-2D: 4NT is natural)
    mine = ctx.last_explanation(ctx.seat)
    if mine is not None and mine.name in ("Stayman", "Jacoby transfer") and rho_passed(ctx):
        return False    # over the answer to my Stayman or transfer, 4NT is quantitative
    if any(c.is_bid and c.level == 4 and c.strain == Strain.NOTRUMP
           for c in ctx.calls_of(ctx.seat) + ctx.calls_of(ctx.partner)):
        return False
    return True


def _ask_calls(ctx, b):
    call = Call.bid(4, Strain.NOTRUMP)
    for s in SUITS:
        yield call, {"y": s}


def _fit_len(ctx, b):
    return max(8 - plen(ctx, b["y"]), 2)


def _own_suits(ctx):
    return [c.strain for c in ctx.calls_of(ctx.seat) if c.is_bid and c.strain != Strain.NOTRUMP]


def _own_ask_calls(ctx, b):
    """Blackwood with one of my own bid suits as trumps (six or more cards)."""
    call = Call.bid(4, Strain.NOTRUMP)
    for s in dict.fromkeys(_own_suits(ctx)):
        yield call, {"y": s}


#: Combined total points (mine plus partner's estimate) for a small slam in a suit.
SLAM_POINTS = 31


#: Partner's range wider than this counts at its minimum for slam purposes.
SLAM_WIDTH = 10
#: At most this much above partner's minimum is counted for slam purposes.
SLAM_EXTRA = 3


def pest_slam(ctx) -> int:
    """Partner's HCP as slam bidding counts them: the minimum shown plus a little when the
    range is narrow enough to bank on."""
    from .common import partner_shown
    lo, hi = partner_shown(ctx).hcp
    if hi - lo > SLAM_WIDTH:
        return lo
    return lo + min(SLAM_EXTRA, (hi - lo) // 2)


def _ask_hcp(ctx, b):
    return SLAM_POINTS - pest_slam(ctx) - 3 - 2 * FIT_BONUS


#: Points fewer needed per trump beyond eight in the fit.
FIT_BONUS = 1


def _slam_values(hand, ctx, b):
    """Judgement: total points with ``y`` as trumps plus partner's estimate reach
    :data:`SLAM_POINTS` (less :data:`FIT_BONUS` per trump beyond eight), and ``y`` is our
    best fit."""
    fit = length(hand, b["y"]) + plen(ctx, b["y"])
    need = SLAM_POINTS - FIT_BONUS * max(0, fit - 8)
    return (agreed_suit(hand, ctx) == b["y"]
            and total_points(hand, b["y"]) + pest_slam(ctx) >= need)


#: Points more than :data:`SLAM_POINTS` wanted for a slam in my own suit (no fit shown).
OWN_SUIT_EXTRA = 2


def _own_suit_slam_values(hand, ctx, b):
    """Judgement for Blackwood in my own long suit: a self-sufficient suit (two of the top
    three honours, or seven cards with one) and :data:`OWN_SUIT_EXTRA` more points."""
    y = b["y"]
    if agreed_suit(hand, ctx) != y:
        return False
    top = honours(hand, y, 3)
    if not (top >= 2 or (length(hand, y) >= 7 and top >= 1)):
        return False
    return total_points(hand, y) + pest_slam(ctx) >= SLAM_POINTS + OWN_SUIT_EXTRA


def agreed_suit(hand, ctx):
    """The trump suit slam bidding assumes: our longest fit of eight or more cards (my
    length plus partner's promised length; majors, then higher suits, first on ties); else
    my longest own bid suit of six or more cards; else simply the longest combined suit."""
    def key(s):
        return (length(hand, s) + plen(ctx, s), s in (Strain.HEARTS, Strain.SPADES), s)
    best = max(SUITS, key=key)
    if length(hand, best) + plen(ctx, best) >= 8:
        return best
    own = [s for s in _own_suits(ctx) if length(hand, s) >= 6]
    if own:
        return max(own, key=lambda s: (length(hand, s), s))
    return best


def _answered(ctx, b):
    return last_name(ctx, ctx.partner) == BLACKWOOD and rho_passed(ctx)


def _placing(ctx, b):
    return (last_name(ctx, ctx.seat) == BLACKWOOD and last_name(ctx, ctx.partner) == ANSWER
            and rho_passed(ctx))


def _partner_aces(hand, ctx):
    ans = ctx.calls_of(ctx.partner)[-1]
    mine = ace_count(hand)
    shown = {Strain.CLUBS: 0, Strain.DIAMONDS: 1, Strain.HEARTS: 2, Strain.SPADES: 3}[ans.strain]
    if shown == 0 and mine == 0:
        return 4
    return shown


def _decision(hand, ctx):
    """(level, strain) the Blackwood bidder places the contract in, or None to pass."""
    suit = agreed_suit(hand, ctx)
    aces = ace_count(hand) + _partner_aces(hand, ctx)
    ans = ctx.calls_of(ctx.partner)[-1]
    if aces <= 2:
        if ans.strain == suit:
            return None
        if suit > ans.strain:
            return (5, suit)
        return (6, suit)
    if aces == 4 and hand.hcp + pmin(ctx) >= 37:
        return (7, suit)
    return (6, suit)


SLAM = [
    rule(BLACKWOOD, None, _ask_calls, {"hcp": _ask_hcp, "y": _fit_len},
         "asks for aces; slam interest", forcing=F1, artificial=True, priority=900,
         when=_can_ask, group="always", judge=_slam_values),
    rule(BLACKWOOD, None, _own_ask_calls, {"hcp": _ask_hcp, "y": 6},
         "asks for aces; slam interest", forcing=F1, artificial=True, priority=900,
         when=_can_ask, group="always", judge=_own_suit_slam_values),
    rule(ANSWER, None, "5C", {"aces": (0, 4)}, "0 or 4 aces", artificial=True,
         priority=1100, when=_answered, group="always"),
    rule(ANSWER, None, "5D", {"aces": (1,)}, "one ace", artificial=True, priority=1100,
         when=_answered, group="always"),
    rule(ANSWER, None, "5H", {"aces": (2,)}, "two aces", artificial=True, priority=1100,
         when=_answered, group="always"),
    rule(ANSWER, None, "5S", {"aces": (3,)}, "three aces", artificial=True, priority=1100,
         when=_answered, group="always"),
    rule("Sign-off after Blackwood", None, "5y", {}, "two aces are missing", priority=1100,
         when=_placing, group="always",
         judge=lambda h, c, b: _decision(h, c) == (5, b["y"])),
    rule("Small slam", None, "6y", {}, "at most one ace is missing", priority=1100,
         when=_placing, group="always",
         judge=lambda h, c, b: _decision(h, c) == (6, b["y"])),
    rule("Grand slam", None, "7y", {}, "all the aces and 37 combined points", priority=1100,
         when=_placing, group="always",
         judge=lambda h, c, b: _decision(h, c) == (7, b["y"])),
    rule("Pass", None, "P", {}, "two aces are missing; partner's answer is our suit",
         priority=1100, when=_placing, group="always",
         judge=lambda h, c, b: _decision(h, c) is None),
    rule("Pass", None, "P", {}, "partner has placed the contract", priority=1100,
         when=lambda ctx, b: (last_name(ctx, ctx.seat) == ANSWER and rho_passed(ctx)),
         group="always"),
]
