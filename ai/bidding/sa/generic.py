"""Generic rules: where no specific rule's auction pattern applies, the players place the
contract from what partner has shown (spec: "25 combined points usually for game, 33 for a
small slam; look for an eight-card major fit"), compete on fits, double for penalty, and
keep bidding when partner's last call was forcing."""

from __future__ import annotations

from ddsolver.cards import Strain

from .common import (MAJORS, MINORS, SUITS, F1, NF, cheapest_level, length, my_last,
                     not_jump, partner_has_bid, partner_last, plen, pmax, pmin, rule)

H, S = Strain.HEARTS, Strain.SPADES


def _fit(var):
    return lambda ctx, b: max(8 - plen(ctx, b[var]), 3)


def _no_fit(major):
    return lambda ctx, b: (0, 7 - plen(ctx, major))


def _constructive(ctx, b):
    """Partner has bid and the last bid is ours (no competition to answer)."""
    return partner_has_bid(ctx) and ctx.last_bid_ours and not _in_game_or_above(ctx)


def _in_game_or_above(ctx):
    last = ctx.last_bid
    if last is None:
        return False
    return ctx.last_bid_ours and last.level >= {Strain.CLUBS: 5, Strain.DIAMONDS: 5,
                                                Strain.HEARTS: 4, Strain.SPADES: 4,
                                                Strain.NOTRUMP: 3}[last.strain]


def _game_hcp(ctx, b):
    return 25 - pmin(ctx)


def _below_slam(ctx, b):
    return 32 - pmin(ctx)


def _limited(ctx):
    return pmax(ctx) - pmin(ctx) <= 7


def _inv_lo(ctx, b):
    return 25 - pmax(ctx)


def _inv_hi(ctx, b):
    return 24 - pmin(ctx)


def _partner_suit_not_fit(hand, ctx, b):
    last = partner_last(ctx)
    if last is None or not last.is_bid or last.strain == Strain.NOTRUMP:
        return True
    return length(hand, last.strain) + plen(ctx, last.strain) < 8


def _opp_last(ctx, b):
    return ctx.last_bid is not None and not ctx.last_bid_ours


def _lott(ctx, b):
    level = b.get("_level", 2)
    return max(level + 6 - plen(ctx, b["y"]), 3)


def _compete_calls(ctx, b):
    from ddsolver.auction import Call
    for s in SUITS:
        lv = cheapest_level(ctx, s)
        if lv <= 3:
            yield Call.bid(lv, s), {"y": s, "_level": lv}


def _penalty_hcp(ctx, b):
    lv = ctx.last_bid.level
    return {1: 30, 2: 24, 3: 22, 4: 21}.get(lv, 20) - pmin(ctx)


def _forced(ctx, b):
    return ctx.forced()


GENERIC = [
    # -- game and slam from partner's shown values
    rule("Notrump slam", None, "6NT", {"hcp": (lambda c, b: 33 - pmin(c), lambda c, b: 36 - pmin(c)),
                                       "balanced": True}, "to play", priority=420,
         when=_constructive, group="generic"),
    rule("Major game", None, "4M", {"hcp": (_game_hcp, _below_slam), "M": _fit("M")},
         "eight-card fit, values for game", priority=400, when=_constructive,
         group="generic"),
    rule("Notrump game", None, "3NT", {"hcp": (_game_hcp, _below_slam), "stop": "theirs",
                                       "H": _no_fit(H), "S": _no_fit(S)},
         "values for game, no major fit", priority=390, when=_constructive, group="generic"),
    rule("Minor game", None, "5m", {"hcp": (lambda c, b: 27 - pmin(c), _below_slam),
                                    "m": _fit("m")},
         "fit, values for game", priority=380, when=_constructive, group="generic"),
    # -- invitations when partner is limited
    rule("Invitational raise", None, "3M", {"hcp": (_inv_lo, _inv_hi), "M": _fit("M")},
         "invites game", priority=300, group="generic",
         when=lambda c, b: _constructive(c, b) and _limited(c)),
    rule("Notrump invitation", None, "2NT", {"hcp": (_inv_lo, _inv_hi), "stop": "theirs",
                                             "H": _no_fit(H), "S": _no_fit(S)},
         "invites 3NT", priority=290, group="generic",
         when=lambda c, b: _constructive(c, b) and _limited(c)),
    # -- part-score: move to a fit
    rule("Preference", None, ("2y", "3y"), {"hcp": (0, _inv_hi), "y": _fit("y")},
         "prefers {y}", priority=200, where=not_jump, group="generic",
         when=_constructive, judge=_partner_suit_not_fit,
         prefer=lambda h, c, b: (length(h, b["y"]) + plen(c, b["y"]), int(b["y"]))),
    # -- competition
    rule("Competitive bid", None, _compete_calls, {"y": _lott}, "fit in {y}, competing",
         priority=250, group="generic",
         when=lambda c, b: partner_has_bid(c) and _opp_last(c, b),
         prefer=lambda h, c, b: (length(h, b["y"]) + plen(c, b["y"]), int(b["y"]))),
    rule("Penalty double", None, "X", {"hcp": (_penalty_hcp, None)}, "for penalty",
         priority=300, group="generic",
         when=lambda c, b: _opp_last(c, b) and c.doubled == 0 and c.last_bid.level >= 2),
    # -- forced to bid
    rule("Raise", None, ("2y", "3y", "4y"), {"y": 3}, "support for partner's {y}",
         priority=160, where=lambda c, b, call: not_jump(c, b, call)
         and partner_last(c) is not None and partner_last(c).is_bid
         and partner_last(c).strain == call.strain, group="generic", when=_forced),
    rule("Own suit again", None, ("2y", "3y", "4y"), {"y": 6}, "six or more {y}",
         priority=150, where=not_jump, group="generic", when=_forced,
         prefer=lambda h, c, b: length(h, b["y"])),
    rule("Notrump", None, ("1NT", "2NT", "3NT"), {"stop": "theirs"}, "stopper in their suits",
         priority=140, group="generic", when=_forced,
         where=lambda c, b, call: call.level == cheapest_level(c, Strain.NOTRUMP)),
    rule("New suit", None, ("1y", "2y", "3y", "4y"), {"y": 4}, "four or more {y}",
         priority=130, forcing=NF, where=not_jump, group="generic", when=_forced,
         prefer=lambda h, c, b: (length(h, b["y"]), -int(b["y"]))),
    rule("Pass", None, "P", {}, "nothing more to say", priority=50, group="generic",
         when=lambda c, b: not c.forced()),
]
