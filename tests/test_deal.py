"""Tests for ddsolver.deal: hands, deals, PBN deal notation and seeded random deals."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddsolver.cards import ALL_CARDS, Card, Suit, card_mask
from ddsolver.deal import Deal, Hand, random_deal, random_deals
from ddsolver.errors import InvalidDealError, InvalidNotationError
from ddsolver.table import Seat

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST

SPEC = "N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854"
SPEC_HANDS = {N: "AQ4.KJ5.Q963.KJ2", E: "653.T742.T42.A73", S: "JT97.A86.A87.T96",
              W: "K82.Q93.KJ5.Q854"}

# The first three deals of tests/data/dd_tables.jsonl (DDS reference data, seed 1).
REFERENCE_FIRST_3 = [
    "N:Q953.85.J532.T42 2.Q7642.A8.AK763 AKJ4.KT9.K76.J98 T876.AJ3.QT94.Q5",
    "N:AKT8654.74.742.A J.KJ53.AQJ6.QT63 Q9.AQT2.T953.J42 732.986.K8.K9875",
    "N:KQT972.764.A3.85 54.QJ8.Q9.AKT942 J863.A93.KT7.QJ6 A.KT52.J86542.73",
]

seeds = st.integers(0, 2**64)


# --------------------------------------------------------------------------------------
# Hand
# --------------------------------------------------------------------------------------

def test_hand_spec_north():
    h = Hand.from_pbn("AQ4.KJ5.Q963.KJ2")
    assert h.hcp == 16 and len(h) == 13
    assert h.lengths == (3, 3, 4, 3) and h.shape == (4, 3, 3, 3) and h.is_balanced()
    assert h.length(Suit.DIAMONDS) == 4
    assert h.holding_str(Suit.SPADES) == "AQ4"
    assert [r.letter for r in h.holding(Suit.HEARTS)] == ["K", "J", "5"]
    assert [str(c) for c in h.suit_cards(Suit.CLUBS)] == ["CK", "CJ", "C2"]
    assert [str(c) for c in h][:4] == ["SA", "SQ", "S4", "HK"]
    assert Card.from_str("SQ") in h and Card.from_str("SK") not in h and "SQ" not in h
    assert str(h) == h.to_pbn() == "AQ4.KJ5.Q963.KJ2"
    assert eval(repr(h), {"Hand": Hand}) == h
    assert h.cards == frozenset(h)


@pytest.mark.parametrize("pbn, balanced", [
    ("AKQ2.KQ2.K32.432", True), ("AKQ2.KQ32.K32.43", True), ("AKQ32.KQ2.K32.43", True),
    ("AKQ32.KQ32.K32.4", False), ("AKQ32.KQ32.K32.", False), ("AKQ2.KQ32.K32.4", False),
    ("AKQ432.KQ2.32.43", False),
])
def test_hand_is_balanced(pbn, balanced):
    # some of these hands have fewer than 13 cards on purpose: shape only
    assert Hand.from_pbn(pbn).is_balanced() is balanced


def test_hand_voids_and_ten():
    h = Hand.from_pbn(".AKT653.K.")
    assert h.lengths == (0, 6, 1, 0) and h.holding_str(Suit.SPADES) == ""
    assert str(h) == ".AKT653.K."
    assert Hand.from_pbn("A10.K..") == Hand.from_pbn("AT.K..")
    assert Hand.from_pbn("qa4.5jk.3q69.2jk") == Hand.from_pbn("AQ4.KJ5.Q963.KJ2")
    assert str(Hand.from_pbn("...")) == "..." and len(Hand()) == 0


def test_hand_add_remove_eq_hash_pickle():
    h = Hand.from_pbn("AQ4.KJ5.Q963.KJ2")
    sa = Card.from_str("SA")
    assert sa not in h.remove(sa) and len(h.remove(sa)) == 12
    assert h.remove(sa).add(sa) == h
    assert Hand(list(h)) == h and Hand(h.mask) == h
    assert hash(Hand(h.mask)) == hash(h) and h != Hand.from_pbn("AQ5.KJ4.Q963.KJ2")
    assert pickle.loads(pickle.dumps(h)) == h and copy.deepcopy(h) == h
    with pytest.raises(AttributeError):
        h._mask = 0  # type: ignore[misc]


@pytest.mark.parametrize("bad, error", [
    ("AA4.KJ5.Q963.KJ2", InvalidDealError),       # duplicate card
    ("AQ4.KJ5.Q963", InvalidDealError),           # three suits
    ("AQ4.KJ5.Q963.KJ2.3", InvalidDealError),     # five suits
    ("AQ4.KJ5.Q963.KJ1", InvalidNotationError),   # bad rank
    ("AQ4.KJ5.Q9X3.KJ2", InvalidNotationError),   # bad rank
    ("AQ4 KJ5 Q963 KJ2", InvalidDealError),       # wrong separators
])
def test_hand_from_pbn_rejects(bad, error):
    with pytest.raises(error) as info:
        Hand.from_pbn(bad)
    assert repr(bad) in str(info.value)


def test_hand_constructor_rejects():
    with pytest.raises(InvalidDealError):
        Hand([Card.from_str("SA"), Card.from_str("SA")])
    with pytest.raises(InvalidDealError):
        Hand(["SA"])  # type: ignore[list-item]
    with pytest.raises(InvalidDealError):
        Hand(1)                  # bit 0 is not a card
    with pytest.raises(InvalidDealError):
        Hand(-4)


# --------------------------------------------------------------------------------------
# Deal notation
# --------------------------------------------------------------------------------------

def _rotated(first: Seat) -> str:
    return f"{first.letter}:" + " ".join(SPEC_HANDS[first.next(i)] for i in range(4))


@pytest.mark.parametrize("first", list(Seat))
def test_deal_from_pbn_every_first_seat(first):
    d = Deal.from_pbn(_rotated(first))
    for seat in Seat:
        assert str(d[seat]) == SPEC_HANDS[seat]
    assert str(d) == SPEC
    assert d.to_pbn(first) == _rotated(first)
    assert d.is_complete()


def test_deal_spec_example():
    d = Deal.from_pbn(SPEC)
    assert d.north.hcp == 16 and [d[s].hcp for s in Seat] == [16, 4, 9, 11]
    assert (d.north, d.east, d.south, d.west) == d.hands
    assert d.holder(Card.from_str("CA")) == E and d.holder(Card.from_str("SK")) == W
    assert d.masks() == tuple(d[s].mask for s in Seat)
    assert sum(d.masks()) == card_mask(ALL_CARDS)


def test_deal_from_pbn_variants():
    d = Deal.from_pbn(SPEC)
    assert Deal.from_pbn(SPEC[2:]) == d                 # no seat: North first
    assert Deal.from_pbn(f'"{SPEC}"') == d              # PBN tag value with quotes
    assert Deal.from_pbn("  " + SPEC.replace(" ", "   ") + "\n") == d
    assert Deal.from_pbn("n" + SPEC[1:]) == d


def test_deal_with_voids():
    pbn = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    d = Deal.from_pbn(pbn)
    assert str(d) == pbn and d.is_complete()
    assert d.north.lengths == (13, 0, 0, 0) and d.west.lengths == (0, 0, 0, 13)
    pbn2 = "S:432.432.JT98.JT9 ..765432.8765432 AKQJT.AKQJT.AKQ. 98765.98765..AKQ"
    d2 = Deal.from_pbn(pbn2)
    assert str(d2) == "N:AKQJT.AKQJT.AKQ. 98765.98765..AKQ 432.432.JT98.JT9 ..765432.8765432"
    assert d2.west.lengths == (0, 0, 6, 7) and d2.to_pbn(S) == pbn2


def test_deal_unknown_hands():
    d = Deal.from_pbn("E:AQ4.KJ5.Q963.KJ2 - - -")
    assert d.east == Hand.from_pbn("AQ4.KJ5.Q963.KJ2")
    assert d.north is None and d.south is None and d.west is None
    assert str(d) == "N:- AQ4.KJ5.Q963.KJ2 - -"
    assert d.masks() == (0, d.east.mask, 0, 0)
    assert not d.is_complete() and d.holder(Card.from_str("SK")) is None
    assert Deal.from_pbn(str(d)) == d and eval(repr(d), {"Deal": Deal}) == d
    # complete=True checks the known hands only
    assert Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 - - -", complete=True).north is not None
    with pytest.raises(InvalidDealError):
        Deal.from_pbn("N:AQ4.KJ5.Q963.KJ - - -", complete=True)


def test_deal_ending():
    pbn = "N:A.K.Q. 2.3.4. 5.6.7. 8.9.T."
    d = Deal.from_pbn(pbn)
    assert str(d) == pbn and not d.is_complete() and len(d.north) == 3
    with pytest.raises(InvalidDealError):
        Deal.from_pbn(pbn, complete=True)
    with pytest.raises(InvalidDealError):
        Deal.from_pbn("N:A.K.Q. 2.3.4. 5.6.7. 8.9..")     # 3, 3, 3, 2 cards


def test_deal_eq_hash_pickle_immutable():
    d = Deal.from_pbn(SPEC)
    assert d == Deal.from_pbn(_rotated(W)) and hash(d) == hash(Deal.from_pbn(_rotated(S)))
    assert d != Deal.from_pbn(REFERENCE_FIRST_3[0])
    assert pickle.loads(pickle.dumps(d)) == d and copy.deepcopy(d) == d
    assert repr(d) == f"Deal.from_pbn({SPEC!r})"
    with pytest.raises(AttributeError):
        d._hands = ()  # type: ignore[misc]


# --------------------------------------------------------------------------------------
# Bad deals
# --------------------------------------------------------------------------------------

BAD_DEALS = [
    # duplicate card: North's C2 also in East's hand (East has 14)
    ("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A732 JT97.A86.A87.T96 K82.Q93.KJ5.Q854",
     InvalidDealError),
    # duplicate card across hands, 13 cards each
    ("N:AQ4.KJ5.Q963.KJ2 AQ4.KJ5.Q963.KJ2 JT97.A86.A87.T96 K82.Q93.KJ5.Q854",
     InvalidDealError),
    # 12-card hand (North lacks C2)
    ("N:AQ4.KJ5.Q963.KJ 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854",
     InvalidDealError),
    # 14-card hand (C2 moved from North to East)
    ("N:AQ4.KJ5.Q963.KJ 653.T742.T42.A732 JT97.A86.A87.T96 K82.Q93.KJ5.Q854",
     InvalidDealError),
    # bad rank
    ("N:AQ4.KJ5.Q963.KJ1 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854",
     InvalidNotationError),
    # bad seat
    ("X:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854",
     InvalidNotationError),
    # three hands
    ("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96", InvalidDealError),
    # five hands
    (SPEC + " -", InvalidDealError),
    # a hand with three suits
    ("N:AQ4.KJ5.Q963KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854",
     InvalidDealError),
    ("", InvalidDealError),
    ("N:", InvalidDealError),
]


@pytest.mark.parametrize("pbn, error", BAD_DEALS)
def test_bad_deals(pbn, error):
    with pytest.raises(error) as info:
        Deal.from_pbn(pbn)
    assert str(info.value)


def test_bad_deal_messages_name_the_problem():
    with pytest.raises(InvalidDealError, match="C2"):
        Deal.from_pbn(BAD_DEALS[1][0])
    with pytest.raises(InvalidDealError, match="14 cards"):
        Deal.from_pbn(BAD_DEALS[3][0])
    with pytest.raises(InvalidDealError, match="N=12"):
        Deal.from_pbn(BAD_DEALS[2][0])
    with pytest.raises(InvalidNotationError, match="'1'"):
        Deal.from_pbn(BAD_DEALS[4][0])
    with pytest.raises(InvalidNotationError, match="'X'"):
        Deal.from_pbn(BAD_DEALS[5][0])
    with pytest.raises(InvalidDealError, match="found 3"):
        Deal.from_pbn(BAD_DEALS[6][0])


@pytest.mark.parametrize("bad", [None, 42, b"N:..."])
def test_deal_from_pbn_non_string(bad):
    with pytest.raises(InvalidNotationError):
        Deal.from_pbn(bad)  # type: ignore[arg-type]


def test_deal_constructor_rejects():
    hands = [Hand.from_pbn(SPEC_HANDS[s]) for s in Seat]
    with pytest.raises(InvalidDealError, match="3"):
        Deal(hands[:3])
    with pytest.raises(InvalidDealError):
        Deal(hands + [None])
    with pytest.raises(InvalidDealError):
        Deal([hands[0], "x", hands[2], hands[3]])  # type: ignore[list-item]
    with pytest.raises(InvalidDealError):
        Deal([hands[0], hands[0], hands[2], hands[3]])
    short = hands[0].remove(Card.from_str("C2"))
    with pytest.raises(InvalidDealError):
        Deal([short, hands[1], hands[2], hands[3]])
    # allowed as an explicit partial deal with unequal lengths
    d = Deal([short, hands[1], hands[2], hands[3]], complete=False, equal_lengths=False)
    assert len(d.north) == 12


# --------------------------------------------------------------------------------------
# Random deals
# --------------------------------------------------------------------------------------

def test_random_deals_count_must_be_a_non_negative_integer():
    assert random_deals(7, 0) == []
    with pytest.raises(ValueError, match="count must be >= 0"):
        random_deals(1, -1)
    for bad in (2.0, "3", True, None):
        with pytest.raises(TypeError, match="count must be an integer"):
            random_deals(1, bad)


def test_random_deals_count_is_capped():
    """random_deals(1, 10**12) ran until the memory was exhausted: the list holds every deal."""
    from ddsolver.deal import MAX_RANDOM_DEALS
    assert MAX_RANDOM_DEALS == 1_000_000
    for too_many in (MAX_RANDOM_DEALS + 1, 10**12):
        with pytest.raises(ValueError, match=f"count must be at most 1,000,000 "
                                             rf"\(MAX_RANDOM_DEALS\), got {too_many:,}"):
            random_deals(1, too_many)


def test_a_numpy_integer_seed_is_the_same_seed():
    """random_deal(np.int64(1)) was a TypeError from inside the random module."""
    import numpy as np
    assert random_deal(np.int64(1)) == random_deal(1)
    assert random_deals(np.uint32(1), 3) == random_deals(1, 3)
    for bad in ([1], (1,), object()):
        with pytest.raises(TypeError, match="a seed is an integer"):
            random_deal(bad)
        with pytest.raises(TypeError, match="a seed is an integer"):
            random_deals(bad, 1)

def test_random_deals_match_reference_data():
    assert [str(d) for d in random_deals(1, 3)] == REFERENCE_FIRST_3


def test_random_deals_deterministic():
    a = random_deals(7, 5)
    assert a == random_deals(7, 5)
    assert random_deals(7, 3) == a[:3]
    assert random_deal(7) == a[0]
    rng = random.Random(7)
    assert [random_deal(rng) for _ in range(5)] == a
    assert Deal.random(random.Random(1)) == Deal.from_pbn(REFERENCE_FIRST_3[0])
    assert random_deals(8, 5) != a
    assert random_deals(1, 0) == []


@settings(max_examples=50)
@given(seeds)
def test_random_deal_is_complete_and_round_trips(seed):
    d = random_deal(seed)
    assert d.is_complete()
    assert sorted(c for s in Seat for c in d[s]) == list(ALL_CARDS)
    assert Deal.from_pbn(str(d)) == d
    assert eval(repr(d), {"Deal": Deal}) == d
    for first in Seat:
        assert Deal.from_pbn(d.to_pbn(first)) == d
    assert sum(d[s].hcp for s in Seat) == 40
    for s in Seat:
        assert Hand.from_pbn(str(d[s])) == d[s]


def test_random_deal_without_seed_is_valid():
    d = random_deal()
    assert d.is_complete()


def test_hand_holds_at_most_13_cards():
    spades = [Card(Suit.SPADES, r) for r in range(2, 15)]
    with pytest.raises(InvalidDealError, match="14 cards"):
        Hand(spades + [Card(Suit.HEARTS, 14)])
    with pytest.raises(InvalidDealError, match="52 cards"):
        Hand(card_mask(ALL_CARDS))
    assert len(Hand(spades)) == 13
    with pytest.raises(InvalidDealError, match="North: a hand of 14 cards"):
        Deal.from_pbn("N:AKQJT98765432.A.. - - -", complete=False)


def test_hand_from_a_numpy_mask():
    import numpy as np

    deal = random_deal(5)
    assert Hand(np.uint64(deal.north.mask)) == deal.north


def test_deal_index_by_seat_letter_or_integer():
    deal = random_deal(6)
    assert deal["N"] == deal[0] == deal.north
    with pytest.raises(InvalidNotationError):
        deal[5]
    with pytest.raises(InvalidNotationError):
        deal["X"]
    with pytest.raises(TypeError):
        deal[True]


# ---------------------------------------------------------------------------------------
# input of the wrong type gets the package's narrow errors (issue 19)
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [None, 5, b"AQ4.KJ5.Q963.KJ2", 1.5, ["AQ4"]])
def test_hand_from_pbn_needs_text(text):
    with pytest.raises(InvalidNotationError, match="hand must be a string"):
        Hand.from_pbn(text)


@pytest.mark.parametrize("cards, message", [
    (None, "got NoneType"), (True, "got bool"), (2.5, "got float"),
    ("AQ4.KJ5.Q963.KJ2", "use Hand.from_pbn")])
def test_hand_needs_cards_or_a_mask(cards, message):
    with pytest.raises(InvalidDealError, match=message):
        Hand(cards)


@pytest.mark.parametrize("hands, message", [
    (None, "got NoneType"), (7, "got int"),
    ("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854",
     "use Deal.from_pbn"), (b"N:AQ4", "use Deal.from_pbn")])
def test_deal_needs_four_hands(hands, message):
    with pytest.raises(InvalidDealError, match=message):
        Deal(hands)


def test_a_long_hand_or_deal_is_quoted_by_its_start_and_length():
    """Hand.from_pbn and Deal.from_pbn put a 10 MB string whole into their messages."""
    long = "x" * 1_000_000
    cases = [(Hand.from_pbn, long, "hand 'xxx"),
             (Hand.from_pbn, "AK" + "." * 999_998, "hand 'AK..."),
             (Hand.from_pbn, "AKQ..." + long, "invalid rank 'X' in hand 'AKQ...xxx"),
             (Deal.from_pbn, "N:" + long, "deal 'N:xxx"),
             (Deal.from_pbn, SPEC[:-1] + long, "invalid rank 'X' in hand 'K82.Q93.KJ5.Q85x")]
    for parse, text, start in cases:
        with pytest.raises((InvalidDealError, InvalidNotationError)) as info:
            parse(text)
        message = str(info.value)
        assert message.startswith(start), message[:100]
        assert " characters)" in message and len(message) < 200, message[:300]
