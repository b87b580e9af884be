"""Notrump openings and their structure: Stayman, Jacoby transfers and continuations
(spec: "After 1NT: 2♣ Stayman; 2♦/2♥ Jacoby transfers; 2NT invites; 3NT to play").

One factory, :func:`notrump_structure`, builds the same structure over 1NT (15-17), 2NT
(20-21), 2♣-2♦-2NT (22-24) and, "systems on", over our 1NT overcall (15-18) and balancing 1NT
(12-16), with point ranges derived from "25 for game, 33 for a small slam, 37 for a grand
slam".  After Stayman's answer or a completed transfer, 4NT is quantitative (not Blackwood).
"""

from __future__ import annotations

from ddsolver.cards import Strain

from .common import F1, GF, length, rule


def stayman_shape(hand) -> bool:
    """A four-card major, and not a five-card major without four of the other."""
    s, h = length(hand, Strain.SPADES), length(hand, Strain.HEARTS)
    if max(s, h) < 4:
        return False
    if max(s, h) >= 5 and min(s, h) < 4:
        return False
    return max(s, h) <= 5


def notrump_structure(prefix: str, level: int, lo: int, hi: int, label: str) -> list:
    """Rules for responder and opener after a notrump bid of ``lo``-``hi`` HCP.

    :param prefix: the auction pattern up to responder's turn (``"1NT P"``).
    :param level: the notrump bid's level (1 or 2).
    """
    L = level
    inv = (25 - hi, 24 - lo) if L == 1 else None
    game = (25 - lo if L == 1 else max(25 - hi, 1), 32 - hi)
    quant = (33 - hi, 32 - lo)
    six = (33 - lo, 36 - lo)
    seven = 37 - lo
    weak_max = (inv[0] if inv else game[0]) - 1
    stay_min = inv[0] if inv else game[0]
    c1, d1, h1 = f"{L + 1}C", f"{L + 1}D", f"{L + 1}H"
    p = prefix
    R = []
    # -- responder's first call
    R += [
        rule("Stayman", p, c1, {"hcp": (stay_min, None)}, "asks for a four-card major",
             forcing=F1, artificial=True, priority=820,
             judge=lambda h, c, b: stayman_shape(h)),
        rule("Jacoby transfer", p, d1, {"H": 5}, "shows five or more ♥; asks opener to bid ♥",
             forcing=F1, artificial=True, alert=True, priority=810,
             judge=lambda h, c, b: length(h, Strain.HEARTS) > length(h, Strain.SPADES)),
        rule("Jacoby transfer", p, h1, {"S": 5}, "shows five or more ♠; asks opener to bid ♠",
             forcing=F1, artificial=True, alert=True, priority=810,
             judge=lambda h, c, b: length(h, Strain.SPADES) >= length(h, Strain.HEARTS)),
        rule("Notrump raise to game", p, "3NT", {"hcp": game, "H": (0, 3), "S": (0, 3)},
             "to play", priority=700),
        rule("Quantitative 4NT", p, "4NT", {"hcp": quant, "H": (0, 3), "S": (0, 3)},
             "invites 6NT", priority=700),
        rule("Notrump small slam", p, "6NT", {"hcp": six, "H": (0, 3), "S": (0, 3)},
             "to play", priority=700),
        rule("Notrump grand slam", p, "7NT", {"hcp": (seven, None), "H": (0, 3), "S": (0, 3)},
             "to play", priority=700),
        rule("Pass", p, "P", {"hcp": (0, weak_max), "H": (0, 4), "S": (0, 4)},
             "too weak for game", priority=100),
    ]
    if inv:
        R.append(rule("Notrump invitation", p, "2NT", {"hcp": inv, "H": (0, 3), "S": (0, 3)},
                      "invites 3NT", priority=700))
    # -- opener answers Stayman
    ps = f"{p} {c1} P"
    R += [
        rule("Stayman answer", ps, f"{L + 1}H", {"H": 4}, "four or more ♥ (may hold four ♠)",
             priority=1010),
        rule("Stayman answer", ps, f"{L + 1}S", {"S": 4, "H": (0, 3)},
             "four or more ♠, not four ♥", priority=1005),
        rule("Stayman answer", ps, d1, {"H": (0, 3), "S": (0, 3)}, "denies a four-card major",
             artificial=True, priority=1000),
    ]
    # -- responder after the answer
    game_to_slam = (game[0], six[0] - 1)
    for ans, major, other in ((f"{L + 1}H", "H", "S"), (f"{L + 1}S", "S", "H")):
        pa = f"{ps} {ans} P"
        R += [
            rule("Raise to game", pa, f"4{major}", {"hcp": game_to_slam, major: 4},
                 "four-card support", priority=720),
            rule("Notrump game", pa, "3NT", {"hcp": game_to_slam, major: (0, 3), other: 4},
                 "no fit; the other major", priority=700),
        ]
        if inv:
            R += [
                rule("Invitational raise", pa, f"3{major}", {"hcp": inv, major: 4},
                     "four-card support, invites game", priority=720),
                rule("Notrump invitation", pa, "2NT", {"hcp": inv, major: (0, 3), other: 4},
                     "invites 3NT; four cards in the other major", priority=700),
            ]
    # responder shows five spades after a 2H answer (1NT only)
    if inv:
        pa = f"{ps} 2H P"
        R += [
            rule("Five spades", pa, "2S", {"hcp": inv, "S": 5, "H": (0, 3)},
                 "five ♠, invitational", priority=715),
            rule("Five spades", pa, "3S", {"hcp": game_to_slam, "S": 5, "H": (0, 3)},
                 "five ♠, game forcing", forcing=GF, priority=715),
        ]
    for ans, major in ((f"{L + 1}H", "H"), (f"{L + 1}S", "S")):
        pa = f"{ps} {ans} P"
        R += [
            rule("Quantitative 4NT", pa, "4NT", {"hcp": quant}, "invites 6NT",
                 priority=705),
            rule("Small slam", pa, f"6{major}", {"hcp": six, major: 4}, "four-card support",
                 priority=710),
            rule("Notrump small slam", pa, "6NT", {"hcp": six, major: (0, 3)},
                 "no fit; to play", priority=705),
        ]
    pd = f"{ps} {d1} P"
    R += [
        rule("Quantitative 4NT", pd, "4NT", {"hcp": quant}, "no major fit; invites 6NT",
             priority=705),
        rule("Notrump small slam", pd, "6NT", {"hcp": six}, "no major fit; to play",
             priority=705),
        rule("Notrump game", pd, "3NT", {"hcp": game_to_slam}, "no major fit", priority=700),
        rule("Five-card major", pd, "3M", {"hcp": game_to_slam, "M": 5},
             "five cards, game forcing", forcing=GF, priority=710,
             prefer=lambda h, c, b: (length(h, b["M"]), int(b["M"]))),
    ]
    if inv:
        R += [
            rule("Notrump invitation", pd, "2NT", {"hcp": inv}, "invites 3NT", priority=700),
            rule("Five-card major", pd, "2M", {"hcp": inv, "M": 5}, "five cards, invitational",
                 priority=710, prefer=lambda h, c, b: (length(h, b["M"]), int(b["M"]))),
        ]
    # -- opener after responder's continuation
    acc = (lo + 1, hi)
    mn = (lo, lo)
    if inv:
        for ans, major in (("2H", "H"), ("2S", "S")):
            pi = f"{ps} {ans} P 3{major} P"
            R += [
                rule("Accepts the invitation", pi, f"4{major}", {"hcp": acc}, "maximum",
                     priority=700),
                rule("Declines the invitation", pi, "P", {"hcp": mn}, "minimum", priority=690),
            ]
        for ans in ("2D", "2H", "2S"):
            pi = f"{ps} {ans} P 2NT P"
            R += [
                rule("Accepts the invitation", pi, "3NT", {"hcp": acc}, "maximum", priority=700),
                rule("Declines the invitation", pi, "P", {"hcp": mn}, "minimum", priority=690),
            ]
        pi = f"{ps} 2H P 2NT P"
        R += [
            rule("Four spades too", pi, "4S", {"hcp": acc, "S": 4}, "maximum with four ♠",
                 priority=710),
            rule("Four spades too", pi, "3S", {"hcp": mn, "S": 4}, "minimum with four ♠",
                 priority=710),
        ]
        # the major is a variable after 2D and spades after 2H (a pattern without M binds
        # none: tests/test_bidding.py checks every hand spec's variables are bound)
        for pi, M in ((f"{ps} 2D P 2M P", "M"), (f"{ps} 2H P 2S P", "S")):
            R += [
                rule("Accepts with support", pi, f"4{M}", {"hcp": acc, M: 3},
                     "maximum, three-card support", priority=710),
                rule("Declines with support", pi, f"3{M}", {"hcp": mn, M: 3},
                     "minimum, three-card support", priority=710),
                rule("Accepts in notrump", pi, "3NT", {"hcp": acc, M: (0, 2)},
                     "maximum, no fit", priority=700),
                rule("Declines", pi, "P", {"hcp": mn, M: (0, 2)}, "minimum, no fit",
                     priority=690),
            ]
        pi = f"{ps} 2D P 3M P"
        R += [
            rule("Raise to game", pi, "4M", {"M": 3}, "three-card support", priority=710),
            rule("Notrump game", pi, "3NT", {"M": (0, 2)}, "no fit", priority=700),
        ]
        pi = f"{ps} 2H P 3S P"
        R += [
            rule("Raise to game", pi, "4S", {"S": 3}, "three-card support", priority=710),
            rule("Notrump game", pi, "3NT", {"S": (0, 2)}, "no fit", priority=700),
        ]
    else:
        pi = f"{ps} {d1} P 3M P"
        R += [
            rule("Raise to game", pi, "4M", {"M": 3}, "three-card support", priority=710),
            rule("Notrump game", pi, "3NT", {"M": (0, 2)}, "no fit", priority=700),
        ]
    pi = f"{ps} {L + 1}H P 3NT P"
    R += [
        rule("Four spades too", pi, "4S", {"S": 4}, "four ♠ as well", priority=710),
        rule("Pass", pi, "P", {"S": (0, 3)}, "no spade fit", priority=690),
    ]
    # -- transfers: completion and continuations
    for tr, major in ((d1, "H"), (h1, "S")):
        pt = f"{p} {tr} P"
        comp = f"{L + 1}{major}"
        R += [
            rule("Completes the transfer", pt, comp, {}, f"accepts the transfer to {major}",
                 priority=1000),
        ]
        if L == 1:
            R.append(rule("Super-accept", pt, f"3{major}", {"hcp": (hi, hi), major: 4},
                          "maximum with four-card support", priority=1010, alert=True))
            psa = f"{pt} 3{major} P"
            R += [
                rule("Pass", psa, "P", {"hcp": (0, 5)}, "weak", priority=100),
                rule("Raise to game", psa, f"4{major}", {"hcp": (6, 15)},
                     "a nine-card fit and some values", priority=700),
            ]
        pc = f"{pt} {comp} P"
        R += [
            rule("Pass", pc, "P", {"hcp": (0, weak_max), major: 5}, "weak, to play", priority=100),
            rule("Notrump game", pc, "3NT", {"hcp": game_to_slam, major: (5, 5)},
                 "five cards; opener chooses", priority=700),
            rule("Major game", pc, f"4{major}", {"hcp": game_to_slam, major: 6},
                 "six or more cards, to play", priority=700),
        ]
        if L == 1:
            other = "S" if major == "H" else "H"
            R += [
                rule("Notrump invitation", pc, "2NT", {"hcp": inv, major: (5, 5)},
                     "five cards, invitational", priority=700),
                rule("Invitational raise", pc, f"3{major}", {"hcp": inv, major: 6},
                     "six or more cards, invitational", priority=700),
            ]
            R.append(rule("Second suit", pc, "3x", {"hcp": (game[0], None), major: 5, "x": 4},
                          "natural, game forcing", forcing=GF, priority=710,
                          where=lambda ctx, b, call, m=major: call.strain != Strain.from_str(m),
                          judge=lambda h, c, b: not h.is_balanced(),
                          prefer=lambda h, c, b: length(h, b["x"])))
            pcc = f"{pc} 2NT P"
            R += [
                rule("Declines", pcc, "P", {"hcp": mn, major: (0, 2)}, "minimum, no fit",
                     priority=690),
                rule("Declines with support", pcc, f"3{major}", {"hcp": mn, major: 3},
                     "minimum, three-card support", priority=700),
                rule("Accepts in notrump", pcc, "3NT", {"hcp": acc, major: (0, 2)},
                     "maximum, no fit", priority=700),
                rule("Accepts with support", pcc, f"4{major}", {"hcp": acc, major: 3},
                     "maximum, three-card support", priority=710),
            ]
            pcc = f"{pc} 3{major} P"
            R += [
                rule("Declines the invitation", pcc, "P", {"hcp": mn}, "minimum", priority=690),
                rule("Accepts the invitation", pcc, f"4{major}", {"hcp": acc}, "maximum",
                     priority=700),
            ]
        pcc = f"{pc} 3NT P"
        R += [
            rule("Chooses the major", pcc, f"4{major}", {major: 3}, "three-card support",
                 priority=710),
            rule("Pass", pcc, "P", {major: (0, 2)}, "no fit", priority=690),
        ]
    if inv:
        pi = f"{p} 2NT P"
        R += [
            rule("Accepts the invitation", pi, "3NT", {"hcp": acc}, "maximum", priority=700),
            rule("Accepts with a five-card major", pi, "3M", {"hcp": acc, "M": (5, 5)},
                 "maximum, five cards; responder chooses 3NT or four of the major",
                 forcing=GF, priority=705, prefer=lambda h, c, b: int(b["M"])),
            rule("Declines the invitation", pi, "P", {"hcp": mn}, "minimum", priority=690),
        ]
        pi = f"{p} 2NT P 3M P"
        R += [
            rule("Chooses the major", pi, "4M", {"M": 3}, "three-card support", priority=710),
            rule("Chooses notrump", pi, "3NT", {"M": (0, 2)}, "no fit", priority=700),
        ]
    # -- quantitative 4NT
    pq = f"{p} 4NT P"
    R += [
        rule("Accepts the slam invitation", pq, "6NT", {"hcp": acc}, "maximum", priority=700),
        rule("Declines the slam invitation", pq, "P", {"hcp": mn}, "minimum", priority=690),
    ]
    if L == 2 and lo == 20:
        R = [r for r in R if not (r.name.startswith(("Accepts the slam", "Declines the slam")))]
        R += [
            rule("Accepts the slam invitation", pq, "6NT", {"hcp": (21, 21)}, "maximum",
                 priority=700),
            rule("Declines the slam invitation", pq, "P", {"hcp": (20, 20)}, "minimum",
                 priority=690),
        ]
    # -- game reached: pass
    for g in (f"{p} 3NT P", f"{ps} {L + 1}H P 4H P", f"{ps} {L + 1}S P 4S P",
              f"{p} 6NT P", f"{p} 7NT P"):
        R.append(rule("Pass", g, "P", {}, "partner has placed the contract", priority=100))
    return R


NOTRUMP = (
    notrump_structure("1NT P", 1, 15, 17, "1NT")
    + notrump_structure("2NT P", 2, 20, 21, "2NT")
    + notrump_structure("2C P 2D P 2NT P", 2, 22, 24, "2NT rebid")
    # "systems on" over our 1NT overcall (15-18)
    + notrump_structure("1x 1NT P", 1, 15, 18, "1NT overcall")
    + notrump_structure("1x P P 1NT P", 1, 12, 16, "balancing 1NT")
)
