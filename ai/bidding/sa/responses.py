"""Responses to one of a suit, to weak twos, preempts and 2♣, and opener's rebids
(spec: "Responses" and "Strategy the computers follow")."""

from __future__ import annotations

from ddsolver.cards import Strain

from .common import F1, GF, NF, length, not_jump, rule, single_jump, total_points

H, S, D, C = Strain.HEARTS, Strain.SPADES, Strain.DIAMONDS, Strain.CLUBS


def _len_prefer(var, up_the_line=False):
    """Prefer the longest suit; between equal lengths the higher (or with four-card suits
    and ``up_the_line``, the cheaper)."""
    def key(h, c, b):
        n = length(h, b[var])
        if up_the_line and n == 4:
            return (n, -int(b[var]))
        return (n, int(b[var]))
    return key


def _one_level_response_prefer(h, c, b):
    s = b["y"]
    n = length(h, s)
    major = s in (H, S)
    # majors first; longer first; 4-4 up the line, 5-5 the higher
    return (major, n, -int(s) if n == 4 else int(s))


def _two_over_one_len(ctx, b):
    return 5 if b["y"] == H else 4


def _tp(var, lo, hi):
    """Judgement: total points with ``var`` as trumps within ``lo``..``hi`` (numbers, or
    names of this module's thresholds, read when the rule judges)."""
    def value(v):
        if isinstance(v, str):
            return globals()[v]
        return v() if callable(v) else v
    return lambda h, c, b: value(lo) <= total_points(h, b[var], c) <= value(hi)


#: Total points of the raises of one of a major: game raise, limit raise (low end), single
#: raise (low end).
RAISE_GAME, RAISE_LIMIT, RAISE_SINGLE = 13, 10, 6
#: Opener's total points after a single raise: game, game try.
OPENER_GAME, OPENER_TRY = 19, 15
#: Opener's total points to accept a limit raise.
ACCEPT_LIMIT = 14


RESPONSES = []

# -- responses to one of a major -----------------------------------------------------------
p = "1M P"
RESPONSES += [
    rule("Game raise", p, "4M", {"hcp": (10, 16), "M": 4}, "four-card support, values for game",
         priority=720, judge=_tp("M", "RAISE_GAME", 99)),
    rule("Game raise", p, "4M", {"hcp": (13, 16), "M": (3, 3), "balanced": True},
         "support, values for game", priority=630),
    rule("Limit raise", p, "3M", {"hcp": (8, 12), "M": 3}, "invites game", priority=710,
         judge=_tp("M", "RAISE_LIMIT", lambda: RAISE_GAME - 1)),
    rule("Single raise", p, "2M", {"hcp": (5, 10), "M": 3}, "three-card support", priority=700,
         judge=_tp("M", "RAISE_SINGLE", 99)),
    rule("New suit", "1H P", "1S", {"hcp": (6, None), "S": 4}, "four or more ♠", forcing=F1,
         priority=690),
    rule("Notrump game", p, "3NT", {"hcp": (13, 15), "M": (0, 2), "balanced": True},
         "no fit", priority=660),
    rule("Notrump invitation", p, "2NT", {"hcp": (11, 12), "M": (0, 2), "balanced": True},
         "no fit, invites 3NT", priority=650),
    rule("New suit at the two level", p, "2y", {"hcp": (11, None), "y": _two_over_one_len},
         "four or more {y} (five ♥)", forcing=F1, priority=640,
         where=lambda ctx, b, call: call.strain < b["M"], prefer=_len_prefer("y")),
    rule("1NT response", "1H P", "1NT", {"hcp": (6, 10), "H": (0, 2), "S": (0, 3)},
         "no fit, no four spades", priority=600),
    rule("1NT response", "1S P", "1NT", {"hcp": (6, 10), "S": (0, 2)}, "no fit",
         priority=600),
    rule("Pass", p, "P", {"hcp": (0, 5)}, "too weak to respond", priority=100),
]

# -- responses to one of a minor -----------------------------------------------------------
p = "1m P"
RESPONSES += [
    rule("New suit", p, "1y", {"hcp": (6, None), "y": 4}, "four or more {y}", forcing=F1,
         priority=690, where=lambda ctx, b, call: call.strain > b["m"],
         prefer=_one_level_response_prefer),
    rule("Limit raise", p, "3m", {"hcp": (10, 12), "m": 4, "H": (0, 3), "S": (0, 3)},
         "invites game, no four-card major", priority=685),
    rule("Single raise", p, "2m", {"hcp": (6, 10), "m": 4, "H": (0, 3), "S": (0, 3)},
         "no four-card major", priority=680),
    rule("Notrump game", p, "3NT", {"hcp": (13, 15), "H": (0, 3), "S": (0, 3),
                                    "balanced": True}, "no four-card major", priority=660),
    rule("Notrump invitation", p, "2NT", {"hcp": (11, 12), "H": (0, 3), "S": (0, 3),
                                          "balanced": True},
         "no four-card major, invites 3NT", priority=650),
    rule("New suit at the two level", "1D P", "2C", {"hcp": (11, None), "C": 4},
         "four or more ♣", forcing=F1, priority=640),
    rule("1NT response", p, "1NT", {"hcp": (6, 10), "H": (0, 3), "S": (0, 3)},
         "no four-card major", priority=600),
    rule("Pass", p, "P", {"hcp": (0, 5)}, "too weak to respond", priority=100),
]


# -- opener's rebid after a one-level response (also over an overcall) -------------------
def up(ctx, b, call):
    return call.strain > b["y"]


p = ["1x P 1y P", "1x P 1y B"]
RESPONSES += [
    rule("Raise of responder's suit", p, "4y", {"hcp": (15, 21), "y": 4}, "four-card support",
         priority=720, where=lambda ctx, b, call: call.strain in (H, S),
         judge=_tp("y", 19, 99)),
    rule("Raise of responder's suit", p, "3y", {"hcp": (13, 18), "y": 4},
         "four-card support, invites game", priority=715, judge=_tp("y", 16, 18)),
    rule("Raise of responder's suit", p, "2y", {"hcp": (11, 15), "y": 4}, "four-card support",
         priority=710),
    rule("Jump to 2NT", p, "2NT", {"hcp": (18, 19), "balanced": True}, "invites 3NT",
         priority=705),
    rule("New suit at the one level", p, "1z", {"hcp": (11, 18), "z": 4}, "four or more {z}",
         priority=650, where=up, prefer=_len_prefer("z", True)),
    rule("1NT rebid", p, "1NT", {"hcp": (11, 14), "balanced": True}, "minimum, balanced",
         priority=640),
    rule("Jump shift", p, "3z", {"hcp": (19, None), "z": 4}, "game forcing", forcing=GF,
         priority=630, where=single_jump, prefer=_len_prefer("z")),
    rule("Reverse", p, "2z", {"hcp": (16, None), "z": 4, "x": 5}, "forcing, extra values",
         forcing=F1, priority=620, where=lambda ctx, b, call: call.strain > b["x"],
         prefer=_len_prefer("z")),
    rule("Jump rebid", p, "3x", {"hcp": (14, 18), "x": 6}, "invites game", priority=615,
         judge=_tp("x", 16, 18)),
    rule("Game in own suit", p, "4x", {"hcp": (16, 21), "x": 6}, "to play", priority=616,
         where=lambda ctx, b, call: call.strain in (H, S), judge=_tp("x", 19, 99)),
    rule("Notrump game", p, "3NT", {"hcp": (19, 21)}, "to play", priority=612,
         where=lambda ctx, b, call: b["x"] in (C, D)),
    rule("Rebid of own suit", p, "2x", {"hcp": (11, 15), "x": 6}, "minimum, six cards",
         priority=610),
    rule("New lower suit", p, "2z", {"hcp": (11, 18), "z": 4}, "four or more {z}",
         priority=600, where=lambda ctx, b, call: call.strain < b["x"] and not_jump(ctx, b, call),
         prefer=_len_prefer("z")),
    rule("Rebid of own suit", p, "2x", {"hcp": (11, 15), "x": 5}, "minimum", priority=550),
    rule("Pass", "1x P 1y B", "P", {}, "nothing to add over the overcall", priority=100),
]


# -- responder's five-card major after opener's 2NT rebid (18-19 balanced) ---------------
def _game_values(hand, ctx, b):
    """Judgement: values for game opposite partner's shown strength (as the generic
    "Notrump game")."""
    from .generic import _tp_game
    return _tp_game()(hand, ctx, b)


def _five_card_major_forcing(prefix: str, hcp: tuple, **more) -> list:
    """Responder's 3 of the major with five cards and game values after opener's rebid
    ``prefix`` (opener then chooses: four of the major with three, else 3NT)."""
    return [
        rule("Five-card major, game forcing", prefix, "3y", {"hcp": hcp, "y": (5, 5), **more},
             "asks opener to choose 3NT or four of the major", forcing=GF, priority=460,
             group="always", where=lambda ctx, b, call: b["y"] in (H, S),
             judge=_game_values),
        rule("Chooses the major", prefix + " 3y P", "4y", {"y": 3}, "three-card support",
             priority=710),
        rule("Chooses notrump", prefix + " 3y P", "3NT", {"y": (0, 2)}, "no fit",
             priority=700),
    ]


RESPONSES += _five_card_major_forcing("1x P 1y P 2NT P", (7, 13))

# -- responder's five-card major after opener's new suit at the one level (11-18) -----------
RESPONSES += _five_card_major_forcing("1x P 1y P 1z P", (10, 17), z=(0, 3))
# 3y is also the generic invitational rebid of six cards: over 3NT (a doubleton) the six-card
# hand has the fit
p = "1x P 1y P 1z P 3y P 3NT P"
RESPONSES += [
    rule("Major game", p, "4y", {"y": 6}, "six or more cards, to play", priority=700,
         group="always", where=lambda ctx, b, call: call.strain in (H, S)),
]


# -- responder's rebid after opener's 1NT rebid (11-14 balanced) --------------------------
def _major_y(ctx, b, call):
    return b["y"] in (H, S)


p = "1x P 1y P 1NT P"
RESPONSES += [
    rule("Major game", p, "4y", {"hcp": (10, 18), "y": 6}, "six or more cards, to play",
         priority=720, where=lambda ctx, b, call: call.strain in (H, S),
         judge=_tp("y", 13, 99)),
    rule("Five-card major, game forcing", p, "3y", {"hcp": (12, 18), "y": (5, 5)},
         "asks opener to choose 3NT or four of the major", forcing=GF, priority=715,
         where=_major_y),
    rule("Notrump game", p, "3NT", {"hcp": (13, 17)}, "to play", priority=700),
    rule("Quantitative 4NT", p, "4NT", {"hcp": (18, 19)}, "invites 6NT", priority=700),
    rule("Notrump slam", p, "6NT", {"hcp": (20, None)}, "to play", priority=700),
    rule("Notrump invitation", p, "2NT", {"hcp": (11, 12)}, "invites 3NT", priority=690),
    rule("Own suit, to play", p, "2y", {"hcp": (6, 10), "y": 6}, "six or more cards, weak",
         priority=680),
    rule("Second suit, to play", p, "2z", {"hcp": (6, 10), "y": 5, "z": 4},
         "weak, five-four", priority=670, where=lambda ctx, b, call: call.strain < b["y"]
         and not_jump(ctx, b, call)),
    rule("Preference", p, "2x", {"hcp": (6, 10), "x": 4}, "weak, support", priority=660,
         where=not_jump, judge=lambda h, c, b: not h.is_balanced()),
    rule("Pass", p, "P", {"hcp": (0, 10)}, "no game", priority=100),
]
p = "1x P 1y P 1NT P 3y P"
RESPONSES += [
    rule("Chooses the major", p, "4y", {"y": 3}, "three-card support", priority=710),
    rule("Chooses notrump", p, "3NT", {"y": (0, 2)}, "no fit", priority=700),
]
p = "1x P 1y P 1NT P 2NT P"
RESPONSES += [
    rule("Accepts the invitation", p, "3NT", {"hcp": (13, 14)}, "maximum", priority=700),
    rule("Declines the invitation", p, "P", {"hcp": (11, 12)}, "minimum", priority=690),
]

# -- opener's rebid after 1NT (6-10) ------------------------------------------------------
p = "1x P 1NT P"
RESPONSES += [
    rule("Notrump game", p, "3NT", {"hcp": (19, 21)}, "to play", priority=700),
    rule("Notrump invitation", p, "2NT", {"hcp": (18, 19), "balanced": True}, "invites 3NT",
         priority=690),
    rule("Reverse", p, "2z", {"hcp": (16, None), "z": 4}, "forcing, extra values", forcing=F1,
         priority=660, where=lambda ctx, b, call: call.strain > b["x"] and not_jump(ctx, b, call),
         prefer=_len_prefer("z")),
    rule("Game in own suit", p, "4x", {"hcp": (16, 21), "x": 6}, "to play", priority=656,
         where=lambda ctx, b, call: call.strain in (H, S), judge=_tp("x", 19, 99)),
    rule("Jump rebid", p, "3x", {"hcp": (14, 18), "x": 6}, "invites game", priority=655,
         judge=_tp("x", 16, 18)),
    rule("Rebid of own suit", p, "2x", {"hcp": (11, 15), "x": 6}, "minimum, six cards",
         priority=650),
    rule("New lower suit", p, "2z", {"hcp": (11, 18), "z": 4}, "four or more {z}",
         priority=640, where=lambda ctx, b, call: call.strain < b["x"],
         prefer=_len_prefer("z")),
    rule("Pass", p, "P", {"hcp": (11, 17)}, "no reason to bid again", priority=100),
]

# -- opener after a single raise ----------------------------------------------------------
p = "1M P 2M P"
RESPONSES += [
    rule("Game", p, "4M", {"hcp": (14, 21)}, "to play", priority=700,
         judge=_tp("M", "OPENER_GAME", 99)),
    rule("Game try", p, "3M", {"hcp": (12, 18)}, "invites game", priority=690,
         judge=_tp("M", "OPENER_TRY", lambda: OPENER_GAME - 1)),
    rule("Pass", p, "P", {"hcp": (11, 15)}, "minimum", priority=100),
]
p = "1m P 2m P"
RESPONSES += [
    rule("Notrump game", p, "3NT", {"hcp": (18, 21)}, "to play", priority=700),
    rule("Pass", p, "P", {"hcp": (11, 17)}, "minimum", priority=100),
]
p = "1x P 3x P"
RESPONSES += [
    rule("Accepts the invitation", p, "4x", {"hcp": (11, 21)}, "to play", priority=700,
         where=lambda ctx, b, call: call.strain in (H, S), judge=_tp("x", "ACCEPT_LIMIT", 99)),
    rule("Accepts in notrump", p, "3NT", {"hcp": (14, 21)}, "to play", priority=700,
         where=lambda ctx, b, call: b["x"] in (C, D)),
    rule("Declines the invitation", p, "P", {"hcp": (11, 14)}, "minimum", priority=100),
]
p = "1x P 2NT P"
RESPONSES += [
    rule("Accepts the invitation", p, "3NT", {"hcp": (14, 21)}, "to play", priority=700),
    rule("Major game", p, "4x", {"hcp": (14, 21), "x": 6}, "six or more cards, to play",
         priority=710, where=lambda ctx, b, call: call.strain in (H, S)),
    rule("Own suit, minimum", p, "3x", {"hcp": (11, 13), "x": 6}, "to play", priority=650),
    rule("Declines the invitation", p, "P", {"hcp": (11, 13)}, "minimum", priority=100),
]
p = "1x P 3NT P"
RESPONSES += [
    rule("Major game", p, "4x", {"hcp": (11, 21), "x": 6}, "six or more cards, to play",
         priority=700, where=lambda ctx, b, call: call.strain in (H, S)),
    rule("Pass", p, "P", {"hcp": (11, 21)}, "to play", priority=100),
]
p = "1x P 4x P"
RESPONSES += [
    rule("Pass", p, "P", {"hcp": (11, 21)}, "to play", priority=100),
]
# -- opener after a two-level new suit ----------------------------------------------------
p = "1x P 2y P"
RESPONSES += [
    rule("Raise of responder's suit", p, "3y", {"y": 4}, "four-card support", priority=700,
         where=not_jump),
    rule("Raise of responder's suit", p, "3y", {"y": 3}, "three-card support",
         priority=700, where=lambda ctx, b, call: b["y"] == H and not_jump(ctx, b, call)),
    rule("Notrump", p, "2NT", {"hcp": (11, 14), "balanced": True}, "minimum, balanced",
         priority=690),
    rule("Notrump", p, "3NT", {"hcp": (18, 19), "balanced": True}, "balanced", priority=690),
    rule("Rebid of own suit", p, "2x", {"x": 6}, "six cards", priority=680),
    rule("New suit", p, "2z", {"z": 4}, "four or more {z}", priority=670,
         where=not_jump, prefer=_len_prefer("z")),
    rule("New suit", p, "3z", {"z": 4}, "four or more {z}", priority=660,
         where=not_jump, prefer=_len_prefer("z")),
    rule("Rebid of own suit", p, "2x", {"x": 5}, "five cards", priority=600),
    rule("Rebid of own suit", p, "3x", {"x": 5}, "five cards", priority=590, where=not_jump),
]

# -- responder's doubleton after opener's rebid of the major (five or six cards) --------
def _nt_game_hcp(ctx, b):
    from .generic import _below_nt_slam, _nt_game_hcp
    return (_nt_game_hcp(ctx, b), _below_nt_slam(ctx, b))


p = "1M P 2y P 2M P"
RESPONSES += [
    rule("Doubleton support", p, "3M", {"hcp": _nt_game_hcp, "M": (2, 2)},
         "asks opener to choose 3NT or four of the major",
         forcing=GF, priority=395, group="always", judge=_game_values),
]
p = "1M P 2y P 2M P 3M P"
RESPONSES += [
    rule("Rebid of own suit", p, "4M", {"M": 6}, "six cards", priority=710),
    rule("Five-card major", p, "3NT", {"M": (5, 5)}, "five cards", priority=700),
]


# -- responses to weak twos and preempts ---------------------------------------------------
def _weak_two(ctx, b):
    """The two-level opening is a weak two (2♣ is the strong opening: its own rules)."""
    return b["x"] != C


p = "2x P"
RESPONSES += [
    rule("Raise to game", p, "4x", {"hcp": (11, None), "x": 3}, "to play", when=_weak_two,
         priority=700, where=lambda ctx, b, call: call.strain in (H, S), judge=_tp("x", 13, 99)),
    rule("Notrump game", p, "3NT", {"hcp": (16, None), "balanced": True}, "to play",
         when=_weak_two, priority=690),
    rule("Preemptive raise", p, "3x", {"hcp": (0, 14), "x": 3}, "to play", when=_weak_two,
         priority=650),
    rule("New suit", p, "2y", {"hcp": (16, None), "y": 5}, "forcing", forcing=F1,
         when=_weak_two, priority=640, where=not_jump),
    rule("New suit", p, "3y", {"hcp": (16, None), "y": 5}, "forcing", forcing=F1,
         when=_weak_two, priority=630, where=not_jump),
    rule("Pass", p, "P", {"hcp": (0, 15)}, "no game", when=_weak_two, priority=100),
]
p = "3x P"
RESPONSES += [
    rule("Raise to game", p, "4x", {"hcp": (13, None), "x": 2}, "to play", priority=700,
         where=lambda ctx, b, call: call.strain in (H, S)),
    rule("Notrump game", p, "3NT", {"hcp": (15, None), "balanced": True}, "to play",
         priority=690),
    rule("Raise to game", p, "5x", {"hcp": (16, None), "x": 3}, "to play", priority=680,
         where=lambda ctx, b, call: call.strain in (C, D)),
    rule("Pass", p, "P", {"hcp": (0, 15)}, "no game", priority=100),
]
# opener after a forcing new suit over a weak two
p = "2x P 2y P"
RESPONSES += [
    rule("Raise", p, "3y", {"y": 3}, "support", when=_weak_two, priority=700),
    rule("Rebid", p, "3x", {}, "no support", when=_weak_two, priority=600),
]
p = "2x P 3y P"
RESPONSES += [
    rule("Raise", p, "4y", {"y": 3}, "support", when=_weak_two, priority=700,
         where=lambda ctx, b, call: call.strain in (H, S)),
    rule("Notrump", p, "3NT", {}, "no support", when=_weak_two, priority=600),
    rule("Rebid", p, "3x", {}, "no support", when=_weak_two, priority=650, where=not_jump),
]

# -- 2♣ opening ---------------------------------------------------------------------------
RESPONSES += [
    rule("Waiting response", "2C P", "2D", {}, "waiting, artificial", forcing=GF,
         artificial=True, priority=1000),
]
p = "2C P 2D P"
RESPONSES += [
    rule("2NT rebid", p, "2NT", {"hcp": (22, 24), "balanced": True}, "balanced", priority=700),
    rule("3NT rebid", p, "3NT", {"hcp": (25, 27), "balanced": True}, "balanced", priority=700),
    rule("Natural rebid", p, ("2x", "3x"), {"x": 5}, "five or more {x}, game forcing",
         forcing=GF, priority=650, where=not_jump, prefer=_len_prefer("x")),
]
RESPONSES.append(rule("Natural rebid", p, "4NT", {"hcp": (28, None), "balanced": True},
                      "balanced, 28 or more", forcing=NF, priority=690))
p = "2C P 2D P 2M P"
RESPONSES += [
    rule("Raise", p, "3M", {"hcp": (8, None), "M": 3}, "support, slam interest", forcing=GF,
         priority=700),
    rule("Raise to game", p, "4M", {"hcp": (0, 7), "M": 3}, "support, weak", priority=700),
    rule("New suit", p, ("2y", "3y"), {"hcp": (8, None), "y": 5}, "positive, five cards",
         forcing=GF, priority=650, where=not_jump, prefer=_len_prefer("y")),
    rule("Waiting", p, "2NT", {"M": (0, 2)}, "no fit, waiting", forcing=GF, priority=600),
    rule("Waiting", p, "3NT", {"M": (0, 2)}, "no fit", forcing=NF, priority=590),
]
p = "2C P 2D P 3m P"
RESPONSES += [
    rule("New suit", p, "3y", {"hcp": (8, None), "y": 5}, "positive, five cards", forcing=GF,
         priority=650, where=not_jump, prefer=_len_prefer("y")),
    rule("Raise", p, "4m", {"m": 4}, "support", forcing=GF, priority=640),
    rule("Notrump game", p, "3NT", {"m": (0, 3)}, "no fit", priority=600),
]
