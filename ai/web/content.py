"""The rules-and-scoring page, paragraph by paragraph (each one a catalog message).

The text follows ``spec/game.md`` (rules, Chicago scoring, the bidding system) and the
in-game rules text our German users read; the page asks for it in the reader's language
(``GET /web/api/rules?lang=de``).
"""

from __future__ import annotations

from typing import List, Tuple

from .i18n import N_

__all__ = ["RULES", "rules_in"]

#: ``(kind, English text)``: kind ``"h"`` a heading, ``"p"`` a paragraph, ``"li"`` an item
#: of a list (consecutive items form one list).
RULES: Tuple[Tuple[str, str], ...] = (
    ("h", N_("How to play")),
    ("p", N_("Four players sit in two partnerships, North-South against East-West. You sit "
             "South, with a computer partner in North, against two computer opponents.")),
    ("li", N_("The deal. All 52 cards are dealt, 13 to each player.")),
    ("li", N_("The auction. Starting with the dealer and going clockwise, each player "
              "passes, doubles, redoubles or bids. A bid names a number of tricks above six "
              "(1 to 7) and a strain: clubs, diamonds, hearts, spades or notrump, in this "
              "order at each level. Each bid must be higher than the last. A double is "
              "only of the opponents' last bid, a redouble only of your own side's bid "
              "that they doubled. Three passes in a row end the auction; if all four pass "
              "at the start, the same dealer deals again.")),
    ("li", N_("The contract. The last bid is the contract: that side must take at least "
              "six tricks plus the level. The declarer is the player of that side who "
              "first named the final strain.")),
    ("li", N_("Opening lead and dummy. The player on declarer's left leads to the first "
              "trick. Then declarer's partner lays the dummy face up, and declarer plays "
              "both hands.")),
    ("li", N_("The play. Follow suit if you can; otherwise you may play any card. The "
              "highest trump wins the trick, otherwise the highest card of the suit led. "
              "The winner of a trick leads to the next.")),
    ("li", N_("When your side declares. You play both hands, yours and North's, whichever "
              "of you is declarer, as a declarer does at a real table. The auction and the "
              "opening lead stay exactly as the rules say.")),
    ("li", N_("Reading the auction. Tap a call in the auction to see what it means: points, "
              "suit lengths and whether it is forcing. During the play the Auction button "
              "opens the whole auction with its meanings. On the easy level the hint line "
              "also suggests a call or a card for your hand.")),
    ("h", N_("The bidding system")),
    ("li", N_("Points. High-card points: ace 4, king 3, queen 2, jack 1.")),
    ("li", N_("Openings. 1NT shows 15-17 balanced, 2NT 20-21 balanced, 2♣ 22 or more "
              "(artificial and forcing; the answer 2♦ waits). 1♥ and 1♠ promise five "
              "cards and 12-21 points (11 with a long suit); otherwise open the longer "
              "minor. A weak two in ♦, ♥ or ♠ shows six cards and 5-10 points, an opening "
              "at the three level seven cards.")),
    ("li", N_("Responses. A single raise shows three cards and 6-10, a raise to three 10-12 "
              "(invitational), a raise to game 13 or more with four cards. A new suit at "
              "the one level shows four cards and at least 6 points and is forcing; at the "
              "two level it shows 11 or more. 1NT shows about 6-10 without a fit, 2NT 11-12 "
              "balanced, 3NT 13-15 balanced.")),
    ("li", N_("After 1NT. 2♣ is Stayman and asks for a four-card major. 2♦ and 2♥ are "
              "Jacoby transfers to hearts and spades: five cards, any strength. 2NT "
              "invites, 3NT is to play.")),
    ("li", N_("Competition. An overcall shows a good five-card suit, 8-16 at the one level "
              "and 11-16 at the two level. 1NT over their suit opening shows 15-18 balanced "
              "with a stopper. A double of a suit opening is for takeout: 12 or more, short "
              "in their suit, three cards in the others. Doubles of 1NT and of higher "
              "contracts are for penalty.")),
    ("li", N_("Slams. With 33 points together the computers look for a slam and ask for "
              "aces with Blackwood 4NT (5♣ none or four, 5♦ one, 5♥ two, 5♠ three).")),
    ("h", N_("Scoring (Chicago)")),
    ("p", N_("A match is four boards, each with its own dealer and vulnerability, scored "
             "by the full standard table.")),
    ("li", N_("Trick points. Each trick bid above six scores 20 in clubs or diamonds, 30 in "
              "hearts or spades, and in notrump 40 for the first and 30 for each other. "
              "Doubled it counts twice, redoubled four times.")),
    ("li", N_("Games and part-scores. 100 trick points or more is a game: 300 not "
              "vulnerable, 500 vulnerable. Less is a part-score; it stays for the next "
              "boards until one side makes a game, which wipes out both sides' "
              "part-scores. A part-score on the fourth board that does not complete a game "
              "scores 100.")),
    ("li", N_("Slams and bonuses. A small slam (12 tricks) scores 500, vulnerable 750; a "
              "grand slam (all 13) 1000, vulnerable 1500. Overtricks score their trick "
              "value; doubled 100 each (200 vulnerable), redoubled twice that. A doubled "
              "contract made scores 50 more, a redoubled one 100.")),
    ("li", N_("Undertricks. Undoubled 50 each (100 vulnerable). Doubled, not vulnerable: "
              "100 for the first, 200 for the second and third, 300 for each further one; "
              "vulnerable: 200 for the first and 300 for each further one. Redoubled twice "
              "the doubled amounts.")),
    ("li", N_("Vulnerability. Board 1: North deals, nobody vulnerable. Board 2: East deals, "
              "North-South vulnerable. Board 3: South deals, East-West vulnerable. Board 4: "
              "West deals, both vulnerable.")),
    ("li", N_("Your score. Your side's points minus the other side's after the four boards, "
              "never below zero.")),
    ("h", N_("Boards of the day")),
    ("p", N_("Every day everybody gets the same four boards against the same medium "
             "computers, so the results can be compared on the leaderboard. Each board is "
             "scored on its own with the duplicate table; your score for the day is the "
             "sum of the four.")),
)


def rules_in(lang: str) -> List[dict]:
    """The rules page in ``lang``: ``[{"kind": "h"|"p"|"li", "text": ...}, ...]``.

    :raises ValueError: for a malformed language code.
    """
    from .i18n import translations
    tr = translations(lang)
    return [{"kind": kind, "text": tr.gettext(text)} for kind, text in RULES]
