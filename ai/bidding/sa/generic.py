"""Generic rules: where no specific rule's auction pattern applies, the players place the
contract from what partner has shown (spec: "25 combined points usually for game, 33 for a
small slam; look for an eight-card major fit"), invite slam with a quantitative 4NT, compete
on fits, sacrifice and double sacrifices, double for penalty or (after having bid, partner
silent) for takeout, and keep bidding when partner's last call was forcing."""

from __future__ import annotations

from ddsolver.cards import Strain
from ddsolver.contract import game_level

from .common import (
    F1,
    MAJORS,
    NF,
    SUITS,
    cheapest_level,
    last_name,
    length,
    not_jump,
    partner_has_bid,
    partner_last,
    pest,
    plen,
    pmax,
    pmin,
    rho_passed,
    rule,
    total_points,
)

#: Distribution points a hand may add to its HCP in the judgement of the generic rules; the
#: promised HCP range is widened by this much so that the explanation stays true.
DIST = 3
GAME = 25
#: Points more than :data:`GAME` wanted for a minor-suit game.
MINOR_EXTRA = 2
#: Added to the combined points wanted for a penalty double.
PENALTY_SHIFT = 4
#: Invite when total points plus partner's estimate fall this far short of game.
INVITE_BAND = 2
SLAM = 32

H, S = Strain.HEARTS, Strain.SPADES


def _stop_theirs(ctx, b):
    """The opponents' suits in which partner has not promised a stopper (suit letters)."""
    held = ctx.shown(ctx.partner).stoppers
    return [s.letter for s in ctx.opponents_suits() if s not in held]


def _fit(var):
    return lambda ctx, b: max(8 - plen(ctx, b[var]), 2)


def _no_fit(major):
    return lambda ctx, b: (0, min(5, 7 - plen(ctx, major)))


def _constructive(ctx, b):
    """Partner has bid and the last bid is ours (no competition to answer)."""
    return partner_has_bid(ctx) and ctx.last_bid_ours and not _in_game_or_above(ctx)


def _game_try_allowed(ctx, b):
    """Partner has bid, we are not in game yet, and any bid of the opponents is below
    game: the game and slam rules may apply even in competition."""
    if not partner_has_bid(ctx) or _in_game_or_above(ctx):
        return False
    if ctx.last_bid_ours:
        return True
    last = ctx.last_bid
    return last.level <= 3 and not (last.level == 3 and last.strain == Strain.NOTRUMP)


def _in_game_or_above(ctx):
    last = ctx.last_bid
    if last is None:
        return False
    return ctx.last_bid_ours and last.level >= {Strain.CLUBS: 5, Strain.DIAMONDS: 5,
                                                Strain.HEARTS: 4, Strain.SPADES: 4,
                                                Strain.NOTRUMP: 3}[last.strain]


def _game_hcp(ctx, b):
    return GAME - pest(ctx) - DIST


#: Distribution points a hand may add in notrump judgement (none: long suits do not add
#: double-dummy notrump tricks beyond their HCP; measured on the tuning seeds).
NT_DIST = 0


def _nt_game_hcp(ctx, b):
    return GAME - pest(ctx) - NT_DIST


def _nt_inv_lo(ctx, b):
    return GAME - 2 - pest(ctx) - NT_DIST


def _below_slam(ctx, b):
    """Upper HCP bound of a game bid in a suit: where Blackwood is available, a hand that
    reaches the slam points opposite partner's minimum asks for aces instead (every such
    hand can: see :func:`ai.bidding.sa.slam.agreed_suit`), so the game bid denies it."""
    from ddsolver.auction import Call

    from .slam import SLAM_POINTS, _can_ask
    if not (ctx.is_legal(Call.bid(4, Strain.NOTRUMP)) and _can_ask(ctx, {})):
        return None
    return SLAM_POINTS - 1 - pmin(ctx)


def _below_nt_slam(ctx, b):
    """Upper HCP bound of a notrump game: from :data:`SLAM` with partner's estimate the
    hand bids 6NT (see "Notrump slam")."""
    return SLAM - 1 - pest(ctx)


def _tp_game(var=None, extra=0):
    """Judge: total points (with the bound suit as trumps) reach :data:`GAME` (plus
    ``extra``) with partner's estimate."""
    def judge(hand, ctx, b):
        trump = b.get(var) if var else None
        return GAME + extra <= total_points(hand, trump, ctx) + pest(ctx)
    return judge


def _limited(ctx):
    return pmax(ctx) - pmin(ctx) <= 7


def _inv_lo(ctx, b):
    return GAME - 2 - pest(ctx) - DIST


def _inv_hi(ctx, b):
    return GAME - 1 - pest(ctx)


def _tp_invite(var=None):
    def judge(hand, ctx, b):
        trump = b.get(var) if var else None
        tp = total_points(hand, trump, ctx)
        return GAME - INVITE_BAND <= tp + pest(ctx) < GAME
    return judge


def _partner_suit_not_fit(hand, ctx, b):
    last = partner_last(ctx)
    if last is None or not last.is_bid or last.strain == Strain.NOTRUMP:
        return True
    return length(hand, last.strain) + plen(ctx, last.strain) < 8


def _opp_last(ctx, b):
    return ctx.last_bid is not None and not ctx.last_bid_ours


#: Trumps wanted to compete at level L: L + LOTT_TRUMPS (the law of total tricks: 6).
LOTT_TRUMPS = 6


def _lott(ctx, b):
    level = b.get("_level", 2)
    return max(level + LOTT_TRUMPS - plen(ctx, b["y"]), 3)


def _compete_calls(ctx, b):
    from ddsolver.auction import Call
    for s in SUITS:
        lv = cheapest_level(ctx, s)
        if lv <= 3 or (lv == 4 and s in MAJORS):
            yield Call.bid(lv, s), {"y": s, "_level": lv}


def _lott_raise_when(ctx, b):
    """The opponents have bid, partner's last call is a bid in a suit and the last bid of
    the auction (the right-hand opponent passed), below game."""
    last = partner_last(ctx)
    if last is None or not last.is_bid or last.strain == Strain.NOTRUMP:
        return False
    if ctx.last_bid != last or not rho_passed(ctx) or _in_game_or_above(ctx):
        return False
    return bool(ctx.opponents_suits())


def _lott_raise_calls(ctx, b):
    """Raises of partner's suit from the cheapest level up to game: the law of total
    tricks (Vernes, *The Law of Total Tricks*, 1969) bids to as many tricks as the side
    holds trumps."""
    from ddsolver.auction import Call
    y = partner_last(ctx).strain
    lo = cheapest_level(ctx, y)
    for lv in range(lo, game_level(y) + 1):
        if lv <= 4:
            yield Call.bid(lv, y), {"y": y, "_level": lv}


def _penalty_need(ctx) -> int:
    """Combined HCP (mine plus partner's estimate) wanted to double their contract."""
    lv = ctx.last_bid.level
    need = {1: 30, 2: 26, 3: 24, 4: 22}.get(lv, 21) + PENALTY_SHIFT
    strain = ctx.last_bid.strain
    both = {ctx.seat_of(i) for i, c in enumerate(ctx.calls)
            if c.is_bid and c.strain == strain and ctx.seat_of(i).side != ctx.seat.side}
    if len(both) == 2 and lv <= 3:
        need += 2   # they have found a fit
    return need


def _penalty_hcp(ctx, b):
    return _penalty_need(ctx) - pest(ctx)


def _penalty_judge(hand, ctx, b):
    strain = ctx.last_bid.strain
    if strain == Strain.NOTRUMP:
        return True
    n = length(hand, strain)
    return n >= 3 or (n >= 2 and ctx.last_bid.level >= 5)


def _forced(ctx, b):
    return ctx.forced()


def invites(exp) -> bool:
    """The explanation is an invitation: its words say so ("invites game", "support,
    invitational") or its rule is named one ("Notrump invitation", "Invitational raise";
    not "Accepts the invitation")."""
    name = exp.name.lower()
    return ("invites" in exp.description or "invitational" in exp.description
            or name.startswith(("invitational", "notrump invitation")))


def _partner_invited(ctx, b):
    exp = ctx.last_explanation(ctx.partner)
    last = partner_last(ctx)
    return (exp is not None and invites(exp) and last is not None
            and last.is_bid and bool(ctx.calls) and ctx.calls[-1].is_pass)


def _my_mid(ctx):
    lo, hi = ctx.shown(ctx.seat).hcp
    hi = min(hi, lo + 6)
    return (lo + hi + 1) // 2


def _accept_judge(hand, ctx, b):
    last = partner_last(ctx)
    trump = None if last.strain == Strain.NOTRUMP else last.strain
    return total_points(hand, trump, ctx) >= _my_mid(ctx)


def _accept_where(ctx, b, call):
    last = partner_last(ctx)
    if last.strain == Strain.NOTRUMP:
        return call.strain == Strain.NOTRUMP or (call.strain in MAJORS
                                                 and call.strain in _my_suits(ctx))
    return call.strain == last.strain or (call.strain == Strain.NOTRUMP
                                          and last.strain in (Strain.CLUBS, Strain.DIAMONDS))


def _accept_prefer(hand, ctx, b):
    """Between 3NT and my own major: the major with six cards (or five opposite
    three promised)."""
    m = b.get("M")
    if m is None:
        return 0
    n = length(hand, m) + plen(ctx, m)
    return 1 if length(hand, m) >= 6 or n >= 8 else -1


def _my_suits(ctx):
    return [c.strain for c in ctx.calls_of(ctx.seat) if c.is_bid and c.strain != Strain.NOTRUMP]


def _reopen_when(ctx, b):
    return (not partner_has_bid(ctx) and any(not c.is_pass for c in ctx.calls_of(ctx.seat))
            and _opp_last(ctx, b) and ctx.doubled == 0 and ctx.last_bid.level <= 3)


def _reopen_double_spec(ctx, b):
    from ..rules import build_constraints
    theirs = [s for s in ctx.bid_strains(ctx.seat.lho) if s != Strain.NOTRUMP]
    spec = {"hcp": (16, None)}
    for s in theirs:
        spec["CDHS"[int(s)]] = (0, 2)
    return build_constraints(spec, ctx, b)


def _partner_nt_last(ctx, b):
    """Partner's last call is a natural notrump bid below 4NT, the last bid of the auction,
    and the right-hand opponent passed."""
    last = partner_last(ctx)
    if last is None or not last.is_bid or last.strain != Strain.NOTRUMP or last.level > 3:
        return False
    exp = ctx.last_explanation(ctx.partner)
    return (exp is not None and not exp.artificial and ctx.last_bid == last
            and rho_passed(ctx))


def _partner_natural_nt(ctx, b):
    """:func:`_partner_nt_last`, partner's range at most :data:`QUANT_WIDTH` wide."""
    return _partner_nt_last(ctx, b) and pmax(ctx) - pmin(ctx) <= QUANT_WIDTH


def _quant_lo(ctx, b):
    return SLAM - pmax(ctx)


def _quant_hi(ctx, b):
    return SLAM - 1 - pest(ctx)


def _quant_asked(ctx, b):
    return last_name(ctx, ctx.partner) == QUANT and rho_passed(ctx)


def _accept_slam_lo(ctx, b):
    return _my_mid(ctx)


QUANT = "Quantitative 4NT"
#: Partner's shown HCP range must be at most this wide for a quantitative 4NT.
QUANT_WIDTH = 4

def _they_bid_game(ctx, b):
    """The opponents' last bid is a game in a suit, undoubled, and partner has bid."""
    last = ctx.last_bid
    return (last is not None and not ctx.last_bid_ours and ctx.doubled == 0
            and last.strain != Strain.NOTRUMP
            and game_level(last.strain) <= last.level < 6 and partner_has_bid(ctx))


def _sacrifice_calls(ctx, b):
    from ddsolver.auction import Call
    for s in SUITS:
        if plen(ctx, s) < 3:
            continue
        lv = cheapest_level(ctx, s)
        if lv <= 5:
            yield Call.bid(lv, s), {"y": s, "_level": lv}


def _sacrifice_vul(hand, ctx, b):
    """Judgement: not at unfavourable vulnerability."""
    vul = ctx.vulnerability
    if vul is None:
        return True
    return not (vul.is_vulnerable(ctx.seat) and not vul.is_vulnerable(ctx.seat.lho))


def _outbid_our_game(ctx, b):
    """We bid a game, the opponents bid over it (undoubled) and it is our turn."""
    last = ctx.last_bid
    if last is None or ctx.last_bid_ours or ctx.doubled or last.level >= 7:
        return False
    ours = [c for i, c in enumerate(ctx.calls)
            if c.is_bid and ctx.seat_of(i).side == ctx.seat.side]
    return bool(ours) and ours[-1].level >= game_level(ours[-1].strain)


GENERIC = [
    rule("Sacrifice", None, _sacrifice_calls, {"hcp": (0, 10), "y": _lott},
         "a long fit in {y}, little defence: cheaper than their game", priority=330,
         group="always", when=_they_bid_game, judge=_sacrifice_vul,
         prefer=lambda h, c, b: (length(h, b["y"]) + plen(c, b["y"]), int(b["y"]))),
    rule("Penalty double of a sacrifice", None, "X", {}, "they have bid over our game",
         priority=320, group="always", when=_outbid_our_game),
    rule("Accepts the invitation", None, ("3NT", "4M", "5m"), {}, "accepts partner's invitation",
         priority=450, group="generic", when=_partner_invited, where=_accept_where,
         judge=_accept_judge, prefer=_accept_prefer),
    rule("Own suit again", None, ("2y", "3y"), {"y": 6, "hcp": (10, None)},
         "six or more {y}, competing", priority=230, group="generic",
         when=lambda c, b: _opp_last(c, b) and c.doubled == 0,
         where=lambda c, b, call: not_jump(c, b, call) and call.strain in _my_suits(c)
         and (call.level == 2 or c.shown(c.seat).hcp[0] >= 0),
         prefer=lambda h, c, b: length(h, b["y"])),
    rule("Own suit again", None, ("2y", "3y"), {"y": 6, "hcp": (0, _inv_hi)},
         "six or more {y}", priority=190, group="generic", when=_constructive,
         where=lambda c, b, call: not_jump(c, b, call) and call.strain in _my_suits(c),
         judge=_partner_suit_not_fit, prefer=lambda h, c, b: length(h, b["y"])),
    rule("Reopening double", None, "X", _reopen_double_spec, "extra values, takeout",
         forcing=F1, artificial=True, priority=240, group="generic", when=_reopen_when),
    rule("Reopening double", None, "X", {"hcp": (19, None)}, "strong, takeout",
         forcing=F1, artificial=True, priority=238, group="generic", when=_reopen_when),
    rule("Reopening notrump", None, ("1NT", "2NT"), {"hcp": (18, 21), "balanced": True,
                                                     "stop": "theirs"},
         "18-21, balanced, stopper", priority=245, group="generic", when=_reopen_when,
         where=lambda c, b, call: call.level == cheapest_level(c, Strain.NOTRUMP)),
    # -- game and slam from partner's shown values
    rule("Notrump slam", None, "6NT", {"hcp": (lambda c, b: SLAM - pest(c), None),
                                       "stop": _stop_theirs},
         "enough for slam with partner's values", priority=470,
         when=lambda c, b: _game_try_allowed(c, b) or _partner_nt_last(c, b),
         group="generic"),
    rule(QUANT, None, "4NT", {"hcp": (_quant_lo, _quant_hi), "balanced": True},
         "invites 6NT; partner bids it with a maximum", priority=465, group="generic",
         when=_partner_natural_nt),
    rule("Accepts the slam invitation", None, "6NT", {"hcp": (_accept_slam_lo, None)},
         "maximum for the notrump bid", priority=460, group="generic", when=_quant_asked),
    rule("Declines the slam invitation", None, "P", {}, "not a maximum", priority=455,
         group="generic", when=_quant_asked),
    rule("Major game", None, "4M", {"hcp": (_game_hcp, _below_slam), "M": _fit("M")},
         "eight-card fit, values for game", priority=400, when=_game_try_allowed,
         group="generic", judge=_tp_game("M")),
    rule("Major game", None, "4M", {"hcp": (_game_hcp, None), "M": 6},
         "six or more {M}, values for game", priority=395, group="generic",
         when=_game_try_allowed, judge=_tp_game("M"),
         where=lambda c, b, call: call.strain in _my_suits(c)),
    rule("Invitational rebid", None, "3M", {"hcp": (_inv_lo, _inv_hi), "M": 6},
         "six or more {M}, invites game", priority=295, group="generic",
         when=lambda c, b: _game_try_allowed(c, b) and _limited(c), judge=_tp_invite("M"),
         where=lambda c, b, call: call.strain in _my_suits(c)),
    rule("Notrump game", None, "3NT", {"hcp": (_nt_game_hcp, _below_nt_slam),
                                       "stop": _stop_theirs,
                                       "H": _no_fit(H), "S": _no_fit(S)},
         "values for game, no major fit", priority=390, when=_game_try_allowed, group="generic",
         judge=_tp_game()),
    rule("Minor game", None, "5m", {"hcp": (lambda c, b: GAME + MINOR_EXTRA - pest(c) - DIST,
                                            _below_slam),
                                    "m": _fit("m")},
         "fit, values for game", priority=380, when=_game_try_allowed, group="generic",
         judge=_tp_game("m", MINOR_EXTRA)),
    # -- invitations when partner is limited
    rule("Invitational raise", None, "3M", {"hcp": (_inv_lo, _inv_hi), "M": _fit("M")},
         "invites game", priority=300, group="generic",
         when=lambda c, b: _game_try_allowed(c, b) and _limited(c), judge=_tp_invite("M")),
    rule("Notrump invitation", None, "2NT", {"hcp": (_nt_inv_lo, _inv_hi), "stop": _stop_theirs,
                                             "H": _no_fit(H), "S": _no_fit(S)},
         "invites 3NT", priority=290, group="generic",
         when=lambda c, b: _game_try_allowed(c, b) and _limited(c), judge=_tp_invite()),
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
    rule("Competitive raise", None, _lott_raise_calls, {"y": _lott},
         "a long fit in {y}: bids to the level of the trumps held (law of total tricks)",
         priority=245, group="generic", when=_lott_raise_when,
         prefer=lambda h, c, b: b["_level"]),
    rule("Penalty double", None, "X", {"hcp": (_penalty_hcp, None)}, "for penalty",
         priority=300, group="generic", judge=_penalty_judge,
         when=lambda c, b: (_opp_last(c, b) and c.doubled == 0 and c.last_bid.level >= 2
                            and not _reopen_when(c, b))),
    # -- forced to bid
    rule("Raise", None, ("2y", "3y", "4y"), {"y": 3}, "support for partner's {y}",
         priority=160, where=lambda c, b, call: not_jump(c, b, call)
         and partner_last(c) is not None and partner_last(c).is_bid
         and partner_last(c).strain == call.strain, group="generic", when=_forced),
    rule("Own suit again", None, ("2y", "3y", "4y"), {"y": 6}, "six or more {y}",
         priority=150, where=not_jump, group="generic", when=_forced,
         prefer=lambda h, c, b: length(h, b["y"])),
    rule("Notrump", None, ("1NT", "2NT", "3NT"), {"stop": "theirs", "balanced": True},
         "balanced, stopper in their suits",
         priority=140, group="generic", when=_forced,
         where=lambda c, b, call: call.level == cheapest_level(c, Strain.NOTRUMP)),
    rule("New suit", None, ("1y", "2y", "3y", "4y"), {"y": 4}, "four or more {y}",
         priority=130, forcing=NF, where=not_jump, group="generic", when=_forced,
         prefer=lambda h, c, b: (length(h, b["y"]), -int(b["y"]))),
    rule("Pass", None, "P", {}, "nothing more to say", priority=50, group="generic",
         when=lambda c, b: not c.forced()),
]
