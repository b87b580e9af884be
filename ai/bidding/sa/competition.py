"""Competitive bidding: overcalls, the 1NT overcall, takeout doubles and their answers,
penalty doubles, and responder's calls over interference (spec: "Competition")."""

from __future__ import annotations

from ddsolver.cards import Strain

from .common import F1, GF, cheapest_level, good_suit, length, not_jump, rule, single_jump

H, S, D, C = Strain.HEARTS, Strain.SPADES, Strain.DIAMONDS, Strain.CLUBS


def _prefer_len(var):
    return lambda h, c, b: (length(h, b[var]), int(b[var]))


def _good(var):
    """Judgement for overcalls: a good suit, or a sound hand (13+ HCP)."""
    return lambda h, c, b: good_suit(h, b[var]) or h.hcp >= 13


def _run_calls(ctx, b):
    """After their redouble: the cheapest bid in each suit but theirs."""
    from ddsolver.auction import Call
    theirs = {c.strain for c in ctx.calls if c.is_bid}
    for s in (C, D, H, S):
        if s in theirs:
            continue
        yield Call.bid(cheapest_level(ctx, s), s), {"z": s}


def _takeout_shape(ctx, b):
    """Short (0-2) in every suit the opponents bid, 3+ in the others."""
    spec = {"hcp": (12, None)}
    theirs = [s for s in ctx.bid_strains(ctx.seat.lho) if s != Strain.NOTRUMP]
    for s in (C, D, H, S):
        spec["CDHS"[int(s)]] = (0, 2) if s in theirs else (3, None)
    return spec


def _shape_spec(extra):
    def build(ctx, b):
        from ..rules import build_constraints
        spec = _takeout_shape(ctx, b)
        spec.update(extra)
        return build_constraints(spec, ctx, b)
    return build


COMPETITION = []

# -- direct and balancing action over a one-level suit opening -----------------------------
DIRECT = ["1x", "1x P 1y", "1x P 1NT", "1x P 2x"]
BALANCING = ["1x P P"]
COMPETITION += [
    rule("1NT overcall", ["1x"], "1NT", {"hcp": (15, 18), "balanced": True, "stop": "theirs"},
         "balanced with a stopper in their suit", priority=620),
    rule("Takeout double", DIRECT, "X", _shape_spec({}),
         "asks partner to bid one of the other suits", forcing=F1, artificial=True,
         priority=560),
    rule("Strong double", ["1x"], "X", {"hcp": (17, None)},
         "too strong for an overcall; will bid again", forcing=F1, artificial=True,
         priority=555),
    rule("Overcall", DIRECT, "1z", {"hcp": (8, 16), "z": 5}, "a good five-card {z} suit",
         priority=600, judge=_good("z"), prefer=_prefer_len("z")),
    rule("Overcall", DIRECT, "2z", {"hcp": (11, 16), "z": 5}, "a good {z} suit",
         priority=590, where=not_jump, judge=_good("z"), prefer=_prefer_len("z")),
    rule("Weak jump overcall", ["1x"], "2z", {"hcp": (5, 10), "z": (6, 7)},
         "six-card {z} suit, preemptive", priority=580, where=single_jump,
         judge=_good("z"), prefer=_prefer_len("z")),
    rule("Pass", DIRECT, "P", {"hcp": (0, 16)}, "no suitable action", priority=100),
    # balancing seat: about three points lighter
    rule("Balancing 1NT", BALANCING, "1NT", {"hcp": (12, 16), "balanced": True,
                                             "stop": "theirs"},
         "balanced with a stopper", priority=620),
    rule("Balancing double", BALANCING, "X", _shape_spec({"hcp": (9, None)}),
         "takeout", forcing=F1, artificial=True, priority=560),
    rule("Balancing overcall", BALANCING, "1z", {"hcp": (6, 16), "z": 5}, "five or more {z}",
         priority=600, prefer=_prefer_len("z")),
    rule("Balancing overcall", BALANCING, "2z", {"hcp": (9, 16), "z": 5}, "five or more {z}",
         priority=590, where=not_jump, prefer=_prefer_len("z")),
    rule("Strong double", BALANCING, "X", {"hcp": (17, None)}, "strong", forcing=F1,
         artificial=True, priority=555),
    rule("Pass", BALANCING, "P", {"hcp": (0, 16)}, "no suitable action", priority=100),
]

# -- balancing after they have found a fit at the two level ---------------------------------
RAISED = ["1x P 2x P P"]
COMPETITION += [
    rule("Balancing double", RAISED, "X", _shape_spec({"hcp": (9, None)}),
         "takeout; they have a fit", forcing=F1, artificial=True, priority=560),
    rule("Balancing overcall", RAISED, "2z", {"hcp": (7, 16), "z": 5}, "five or more {z}",
         priority=590, where=not_jump, prefer=_prefer_len("z")),
    rule("Balancing overcall", RAISED, "3z", {"hcp": (9, 16), "z": 6}, "six or more {z}",
         priority=585, where=not_jump, prefer=_prefer_len("z")),
    rule("Pass", RAISED, "P", {}, "no suitable action", priority=100),
]

# -- over weak twos and preempts -----------------------------------------------------------
for p, lv in (("2x", 2), ("3x", 3), ("2x P 3x", 3)):
    COMPETITION += [
        rule("Takeout double", p, "X", _shape_spec({"hcp": (12 + lv - 2, None)}),
             "takeout", forcing=F1, artificial=True, priority=560),
        rule("Strong double", p, "X", {"hcp": (18, None)}, "strong", forcing=F1,
             artificial=True, priority=555),
        rule("Overcall", p, f"{lv}z", {"hcp": (11 + lv - 2, 17), "z": 5 + lv - 2},
             "a good {z} suit", priority=590, judge=_good("z"), prefer=_prefer_len("z")),
        rule("Overcall", p, f"{lv + 1}z", {"hcp": (12 + lv - 2, 17), "z": 6},
             "a good {z} suit", priority=585, where=not_jump, judge=_good("z"),
             prefer=_prefer_len("z")),
        rule("Notrump overcall", p, f"{lv}NT", {"hcp": (15, 18), "stop": "theirs"},
             "stopper in their suit", priority=620),
        rule("Pass", p, "P", {"hcp": (0, 17)}, "no suitable action", priority=100),
    ]
for p, lv in (("2x P P", 2), ("3x P P", 3)):
    COMPETITION += [
        rule("Balancing double", p, "X", _shape_spec({"hcp": (9 + lv - 2, None)}),
             "takeout", forcing=F1, artificial=True, priority=560),
        rule("Strong double", p, "X", {"hcp": (16, None)}, "strong", forcing=F1,
             artificial=True, priority=555),
        rule("Balancing overcall", p, f"{lv}z", {"hcp": (8 + lv - 2, 17), "z": 5},
             "five or more {z}", priority=590, prefer=_prefer_len("z")),
        rule("Balancing overcall", p, f"{lv + 1}z", {"hcp": (10 + lv - 2, 17), "z": 5},
             "five or more {z}", priority=585, where=not_jump, prefer=_prefer_len("z")),
        rule("Balancing notrump", p, f"{lv}NT", {"hcp": (14, 18), "stop": "theirs"},
             "stopper in their suit", priority=620),
        rule("Pass", p, "P", {"hcp": (0, 15)}, "no suitable action", priority=100),
    ]
COMPETITION.append(rule("Notrump game", "3x", "3NT", {"hcp": (19, 22), "stop": "theirs"},
                        "stopper in their suit", priority=625))

# -- over their 1NT ------------------------------------------------------------------------
COMPETITION += [
    rule("Penalty double", ["1NT", "1NT P P"], "X", {"hcp": (15, None)}, "for penalty",
         priority=650),
    rule("Natural overcall", ["1NT", "1NT P P"], "2z", {"hcp": (8, 14), "z": 6},
         "a long {z} suit", priority=600, judge=_good("z"), prefer=_prefer_len("z")),
    rule("Pass", ["1NT", "1NT P P"], "P", {"hcp": (0, 14)}, "no suitable action",
         priority=100),
    rule("Pass", ["2NT", "2NT P P", "2C", "2C P 2D", "2C P 2D P P"], "P", {}, "no action",
         priority=100),
]

# -- advancing partner's overcall ----------------------------------------------------------
# Raises are judged on total points with the overcall's suit as trumps (shortness counts).
def _tp_range(var, lo, hi=99):
    from .common import total_points
    return lambda h, c, b: lo <= total_points(h, b[var], c) <= hi


def _major_call(ctx, b, call):
    return call.strain in (H, S)


ONE, TWO = "1x 1y P", "1x 2y P"
COMPETITION += [
    rule("Raise to game", ONE, "4y", {"hcp": (10, None), "y": 3}, "support, values for game",
         priority=720, where=_major_call, judge=_tp_range("y", 13)),
    rule("Jump raise", ONE, "3y", {"hcp": (8, 12), "y": 3}, "support, invitational",
         priority=710, where=single_jump, judge=_tp_range("y", 11, 12)),
    rule("Raise", ONE, "2y", {"hcp": (5, 10), "y": 3}, "support", priority=700,
         judge=_tp_range("y", 7, 10)),
    rule("Raise to game", TWO, "4y", {"hcp": (10, None), "y": 3}, "support, values for game",
         priority=720, where=_major_call, judge=_tp_range("y", 12)),
    rule("Raise", TWO, "3y", {"hcp": (5, 12), "y": 3}, "support", priority=700,
         where=not_jump, judge=_tp_range("y", 7, 11)),
]
# after the opener's partner has bid too: raise at the cheapest level (up to 10 total points
# where a jump is still below game, else up to 12), jump raise, game, notrump, a new suit
BID = ("1x 1y B", "1x 2y B")


def _raise_hi(ctx, b):
    from .common import cheapest_level
    return 10 if cheapest_level(ctx, b["y"]) <= 2 else 12


def _tp_raise(h, c, b):
    from .common import total_points
    return 7 <= total_points(h, b["y"], c) <= _raise_hi(c, b)


def _below_game_jump(ctx, b, call):
    return single_jump(ctx, b, call) and call.level <= 3


COMPETITION += [
    rule("Raise to game", BID, "4y", {"hcp": (10, None), "y": 3}, "support, values for game",
         priority=720, where=_major_call, judge=_tp_range("y", 13)),
    rule("Jump raise", BID, "3y", {"hcp": (8, 12), "y": 3}, "support, invitational",
         priority=710, where=_below_game_jump, judge=_tp_range("y", 11, 12)),
    rule("Raise", BID, ("2y", "3y"), {"hcp": (5, 12), "y": 3}, "support, competing",
         priority=700, where=not_jump, judge=_tp_raise),
    rule("Notrump game", BID, "3NT", {"hcp": (14, None), "stop": "theirs", "y": (0, 2)},
         "stopper in their suits", priority=690),
    rule("New suit", BID, ("2z", "3z"), {"hcp": (10, None), "z": 5, "y": (0, 2)},
         "five or more {z}", priority=670, where=not_jump, prefer=_prefer_len("z")),
    rule("Pass", BID, "P", {}, "nothing more to say", priority=100),
]

for p in (ONE, TWO):
    COMPETITION += [
        rule("Notrump game", p, "3NT", {"hcp": (14, None), "stop": "theirs", "y": (0, 2)},
             "stopper in their suit", priority=690),
        rule("Notrump invitation", p, "2NT", {"hcp": (11, 13), "stop": "theirs", "y": (0, 2)},
             "stopper in their suit", priority=680, where=lambda ctx, b, call: True),
        rule("Notrump", p, "1NT", {"hcp": (8, 10), "stop": "theirs", "y": (0, 2)},
             "stopper in their suit", priority=680),
        rule("New suit", p, ("1z", "2z"), {"hcp": (8, None), "z": 5, "y": (0, 2)},
             "five or more {z}", priority=670, where=not_jump, prefer=_prefer_len("z")),
        rule("Pass", p, "P", {"hcp": (0, 16)}, "nothing more to say", priority=100),
    ]

# -- answering a takeout double ------------------------------------------------------------
for p, forced in (("1x X P", True), ("2x X P", True), ("3x X P", True),
                  ("1x P P X P", True)):
    lvl = int(p[0])
    COMPETITION += [
        rule("Game", p, "4z", {"hcp": (12, None), "z": 4}, "to play", priority=720,
             where=lambda ctx, b, call: call.strain in (H, S), prefer=_prefer_len("z")),
        rule("Notrump game", p, "3NT", {"hcp": (13, None), "stop": "theirs"},
             "stopper in their suit", priority=715),
        rule("Jump answer", p, f"{lvl + 1}z", {"hcp": (9, 11), "z": 4},
             "four or more {z}, invitational", priority=700, where=single_jump,
             prefer=_prefer_len("z")),
        rule("Jump answer", p, f"{lvl + 2}z", {"hcp": (9, 11), "z": 4},
             "four or more {z}, invitational", priority=700, where=single_jump,
             prefer=_prefer_len("z")),
        rule("Notrump answer", p, f"{lvl}NT", {"hcp": (6, 10), "stop": "theirs"},
             "stopper in their suit", priority=690,
             where=lambda ctx, b, call, one=(lvl == 1): one),
        rule("Notrump answer", p, "2NT", {"hcp": (11, 12), "stop": "theirs"},
             "stopper in their suit, invitational", priority=690),
        rule("Cheapest answer", p, (f"{lvl}z", f"{lvl + 1}z"), {"hcp": (0, 8), "z": 4},
             "four or more {z}", priority=650, where=not_jump, prefer=_prefer_len("z")),
        rule("Cheapest answer", p, (f"{lvl}z", f"{lvl + 1}z", f"{lvl + 2}z"),
             {"hcp": (0, 12), "z": 3}, "the best suit available", priority=600,
             where=not_jump, prefer=_prefer_len("z")),
        rule("Penalty pass", p, "P", {"hcp": (8, None), "x": 5}, "long, strong trumps",
             priority=640, judge=lambda h, c, b: good_suit(h, b["x"])),
    ]
# -- the doubler's rebid after partner's answer -------------------------------------------
def _tp(var, lo, hi):
    from .common import total_points
    return lambda h, c, b: lo <= total_points(h, b[var], c) <= hi


DOUBLER = ["1x X P 1y P", "1x X P 2y P", "2x X P 2y P", "2x X P 3y P", "1x P P X P 1y P",
           "1x P P X P 2y P",
           # the opener's side bids again: the doubler still describes his hand
           "1x X P 1y B", "1x X P 2y B", "1x P P X P 1y B"]
COMPETITION += [
    rule("Raise to game", DOUBLER, "4y", {"hcp": (15, None), "y": 4}, "four-card support",
         priority=720, where=lambda ctx, b, call: call.strain in (H, S),
         judge=_tp("y", 22, 99)),
    rule("Invitational raise", DOUBLER, "3y", {"hcp": (14, None), "y": 4},
         "four-card support, invites game", priority=710, judge=_tp("y", 19, 21)),
    rule("Raise", DOUBLER, "2y", {"hcp": (13, None), "y": 4}, "four-card support, extra values",
         priority=700, judge=_tp("y", 16, 18)),
    rule("Notrump", DOUBLER, ("1NT", "2NT"), {"hcp": (18, 20), "balanced": True,
                                              "stop": "theirs"},
         "18-20, balanced, stopper", priority=690, where=not_jump),
    rule("Notrump game", DOUBLER, "3NT", {"hcp": (21, None), "stop": "theirs"},
         "21 or more, stopper", priority=690),
    rule("Own suit", DOUBLER, ("1z", "2z", "3z"), {"hcp": (17, None), "z": 5},
         "strong with a five-card suit", priority=680, where=not_jump,
         prefer=_prefer_len("z")),
    rule("Own suit", DOUBLER, ("1z", "2z", "3z"), {"hcp": (17, None), "z": 5},
         "strong with a five-card suit", priority=695,
         where=lambda ctx, b, call: not_jump(ctx, b, call) and call.strain in (H, S),
         judge=lambda h, c, b: not h.is_balanced(), prefer=_prefer_len("z")),
    rule("Pass", DOUBLER, "P", {}, "no extra values", priority=100),
]

for p in ("1x X +", "2x X +"):
    COMPETITION += [
        rule("Free bid", p, ("1z", "2z", "3z"), {"hcp": (6, None), "z": 4}, "four or more {z}",
             priority=650, where=not_jump, prefer=_prefer_len("z")),
        rule("Pass", p, "P", {}, "nothing to add", priority=100),
    ]

# -- after their redouble of our takeout double: run to a suit -----------------------------
COMPETITION += [
    rule("Escape from the redouble", ["1x X XX", "1x X XX P P"], _run_calls, {"z": 4},
         "four or more {z}, to play", priority=650,
         prefer=lambda h, c, b: (length(h, b["z"]), -int(b["z"]))),
    rule("Escape from the redouble", ["1x X XX", "1x X XX P P"], _run_calls, {"z": 3},
         "the best suit available", priority=640,
         prefer=lambda h, c, b: (length(h, b["z"]), -int(b["z"]))),
    rule("Pass", "1x X XX", "P", {"x": 5, "hcp": (8, None)}, "happy to defend",
         priority=660, judge=lambda h, c, b: good_suit(h, b["x"])),
    rule("Pass", "1x X XX P P", "P", {"x": 4}, "happy to defend", priority=660,
         judge=lambda h, c, b: good_suit(h, b["x"])),
]

# -- responder over interference -----------------------------------------------------------
INT = ["1x +"]


def _support(ctx, b):
    return 3 if b["x"] in (H, S) else 4


COMPETITION += [
    rule("Game raise", INT, "4x", {"hcp": (13, 16), "x": 4}, "four-card support",
         priority=720, where=lambda ctx, b, call: call.strain in (H, S)),
    rule("Limit raise", INT, "3x", {"hcp": (10, 12), "x": _support}, "invites game",
         priority=710),
    rule("Raise", INT, "2x", {"hcp": (6, 10), "x": _support}, "support", priority=700,
         where=lambda ctx, b, call: b["x"] in (H, S)),
    rule("Raise", INT, "2x", {"hcp": (6, 10), "x": _support}, "support", priority=675,
         where=lambda ctx, b, call: b["x"] in (C, D)),
    rule("Redouble", "1x X", "XX", {"hcp": (10, None)}, "10 or more, usually no fit",
         priority=705),
    rule("Penalty double", ["1x 1y", "1x 2y", "1x 3y"], "X", {"hcp": (10, None), "y": 4},
         "for penalty", priority=690,
         judge=lambda h, c, b: length(h, b["x"]) <= 2 or h.hcp >= 13),
    rule("New suit", INT, "1z", {"hcp": (6, None), "z": 4}, "four or more {z}", forcing=F1,
         priority=680, prefer=_prefer_len("z"),
         judge=lambda h, c, b: b["z"] in (H, S) or length(h, b["x"]) < _support(c, b)),
    rule("Notrump game", INT, "3NT", {"hcp": (13, None), "stop": "theirs"},
         "stopper in their suit", priority=670),
    rule("Notrump invitation", INT, "2NT", {"hcp": (11, 12), "stop": "theirs"},
         "stopper in their suit", priority=665),
    rule("New suit at the two level", INT, "2z", {"hcp": (10, None), "z": 5},
         "five or more {z}", forcing=F1, priority=660, where=not_jump,
         prefer=_prefer_len("z")),
    rule("New suit at the two level", INT, "2z", {"hcp": (10, None), "z": 5},
         "five or more {z}", forcing=F1, priority=668,
         where=lambda ctx, b, call: not_jump(ctx, b, call) and call.strain in (H, S),
         prefer=_prefer_len("z")),
    rule("New suit at the three level", INT, "3z", {"hcp": (12, None), "z": 5},
         "five or more {z}, forcing", forcing=F1, priority=655, where=not_jump,
         prefer=_prefer_len("z")),
    rule("1NT response", INT, "1NT", {"hcp": (8, 10), "stop": "theirs"},
         "stopper in their suit", priority=650),
    rule("Pass", INT, "P", {}, "no suitable action", priority=100),
]

# -- over interference after our 1NT -------------------------------------------------------
p = "1NT +"
COMPETITION += [
    rule("Penalty double", ["1NT 2y", "1NT 3y"], "X", {"hcp": (8, None), "y": 4},
         "for penalty", priority=700),
    rule("Notrump game", p, "3NT", {"hcp": (10, 15), "stop": "theirs"},
         "stopper in their suit", priority=690),
    rule("Notrump game", p, "3NT", {"hcp": (10, 15)}, "values for game", priority=640),
    # over their bid a weak hand competes with a five-card suit; over their penalty double
    # of 1NT (15-17 opposite 8-9 is 23+ combined: 1NT doubled is likely to make) only a
    # hand with at most 7 HCP runs
    rule("Competitive", "1NT B", "2z", {"hcp": (0, 9), "z": 5}, "five or more {z}, to play",
         priority=650, where=not_jump, prefer=_prefer_len("z")),
    rule("Competitive", "1NT X", "2z", {"hcp": (0, 7), "z": 5}, "five or more {z}, to play",
         priority=650, where=not_jump, prefer=_prefer_len("z")),
    rule("Game forcing", p, "3z", {"hcp": (10, None), "z": 5}, "five or more {z}",
         forcing=GF, priority=660, where=not_jump, prefer=_prefer_len("z")),
    rule("Pass", p, "P", {}, "no suitable action", priority=100),
]
# our 1NT doubled in the passout seat, opener passed: a weak hand with a long suit runs
p = "1NT P P X P P"
COMPETITION += [
    rule("Competitive", p, "2z", {"hcp": (0, 7), "z": 5}, "five or more {z}, to play",
         priority=650, prefer=_prefer_len("z")),
    rule("Pass", p, "P", {}, "no suitable action", priority=100),
]
