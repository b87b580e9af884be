"""Tests for ddsolver.cards: strains, suits, ranks, cards, card sets and masks."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddsolver.cards import (
    ALL_CARDS,
    FULL_DECK_MASK,
    PBN_SUIT_ORDER,
    Card,
    CardSet,
    Rank,
    Strain,
    Suit,
    card_mask,
    cards_of_mask,
)
from ddsolver.errors import InvalidNotationError
from ddsolver.table import Seat

cards = st.sampled_from(ALL_CARDS)


# --------------------------------------------------------------------------------------
# Strain and Suit
# --------------------------------------------------------------------------------------

def test_strain_order_and_letters():
    assert [int(s) for s in Strain] == [0, 1, 2, 3, 4]
    assert Strain.CLUBS < Strain.DIAMONDS < Strain.HEARTS < Strain.SPADES < Strain.NOTRUMP
    assert [s.letter for s in Strain] == ["C", "D", "H", "S", "NT"]
    assert [s.symbol for s in Strain] == ["♣", "♦", "♥", "♠", "NT"]
    assert [str(s) for s in Strain] == ["C", "D", "H", "S", "NT"]


@pytest.mark.parametrize("text, strain", [
    ("C", Strain.CLUBS), ("c", Strain.CLUBS), ("♣", Strain.CLUBS), ("clubs", Strain.CLUBS),
    ("D", Strain.DIAMONDS), ("♦", Strain.DIAMONDS), ("♢", Strain.DIAMONDS),
    ("H", Strain.HEARTS), ("♥", Strain.HEARTS), ("Hearts", Strain.HEARTS),
    ("S", Strain.SPADES), ("♠", Strain.SPADES), (" s ", Strain.SPADES),
    ("N", Strain.NOTRUMP), ("NT", Strain.NOTRUMP), ("nt", Strain.NOTRUMP),
    ("notrump", Strain.NOTRUMP),
])
def test_strain_from_str(text, strain):
    assert Strain.from_str(text) is strain


@pytest.mark.parametrize("bad", ["", "X", "CD", "1", "NTT", "spade s"])
def test_strain_from_str_rejects(bad):
    with pytest.raises(InvalidNotationError) as info:
        Strain.from_str(bad)
    assert repr(bad) in str(info.value)


def test_strain_kinds_and_suit():
    assert [s.is_suit for s in Strain] == [True] * 4 + [False]
    assert [s.is_major for s in Strain] == [False, False, True, True, False]
    assert [s.is_minor for s in Strain] == [True, True, False, False, False]
    assert [Strain(i).suit for i in range(4)] == list(Suit)
    with pytest.raises(ValueError):
        _ = Strain.NOTRUMP.suit


def test_suit_basics():
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [s.strain for s in Suit] == [Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS,
                                        Strain.SPADES]
    assert PBN_SUIT_ORDER == (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    assert Suit.from_str("h") is Suit.HEARTS and Suit.from_str("♤") is Suit.SPADES
    assert str(Suit.DIAMONDS) == "D"


@pytest.mark.parametrize("bad", ["N", "NT", "", "Z", "HS"])
def test_suit_from_str_rejects(bad):
    with pytest.raises(InvalidNotationError) as info:
        Suit.from_str(bad)
    assert repr(bad) in str(info.value)


# --------------------------------------------------------------------------------------
# Rank
# --------------------------------------------------------------------------------------

def test_rank_letters_and_hcp():
    assert "".join(r.letter for r in Rank) == "23456789TJQKA"
    assert [r.hcp for r in Rank] == [0] * 9 + [1, 2, 3, 4]
    assert Rank.ACE == 14 and Rank.TWO == 2 and str(Rank.TEN) == "T"


@pytest.mark.parametrize("text, rank", [("T", Rank.TEN), ("t", Rank.TEN), ("10", Rank.TEN),
                                        (" a ", Rank.ACE), ("2", Rank.TWO), ("j", Rank.JACK)])
def test_rank_from_str(text, rank):
    assert Rank.from_str(text) is rank


@pytest.mark.parametrize("bad", ["1", "11", "0", "X", "", "AK", "B"])
def test_rank_from_str_rejects(bad):
    with pytest.raises(InvalidNotationError) as info:
        Rank.from_str(bad)
    assert repr(bad) in str(info.value)


# --------------------------------------------------------------------------------------
# Card
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["ST", "S10", "♠T", "♠10", "s t", "st", "TS", "10♠", "10s",
                                  " ST "])
def test_card_from_str_ten_of_spades(text):
    c = Card.from_str(text)
    assert (c.suit, c.rank) == (Suit.SPADES, Rank.TEN)
    assert str(c) == "ST"


@pytest.mark.parametrize("bad", ["", "S", "Z5", "S1", "SX", "S11", "5", "SS", "NT", "HA2",
                                 "A", "1S"])
def test_card_from_str_rejects(bad):
    with pytest.raises(InvalidNotationError) as info:
        Card.from_str(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", [None, 5, ("S", "T")])
def test_card_from_str_non_string(bad):
    with pytest.raises(InvalidNotationError):
        Card.from_str(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("suit, rank", [(4, 2), (-1, 2), (0, 1), (0, 15), (3, 0)])
def test_card_constructor_rejects(suit, rank):
    with pytest.raises(InvalidNotationError):
        Card(suit, rank)


def test_card_properties():
    c = Card.from_str("HQ")
    assert c.suit is Suit.HEARTS and c.rank is Rank.QUEEN and c.hcp == 2
    assert c.bit == 1 << (16 * 2 + 12)
    assert c.index == 13 * 2 + 10
    assert c.symbol == "♥Q"
    assert Card.from_str("C2").index == 0 and Card.from_str("SA").index == 51
    assert Card(Suit.HEARTS, Rank.QUEEN) is c


def test_card_order_identity_hash():
    assert Card.from_str("C2") < Card.from_str("CA") < Card.from_str("D2") < Card.from_str("SA")
    assert Card.from_str("HK") >= Card.from_str("HK") > Card.from_str("HQ")
    assert Card.from_str("D5") <= Card.from_str("D5")
    assert len({Card.from_str("ST"), Card.from_str("TS"), Card.from_str("S10")}) == 1
    assert len(ALL_CARDS) == 52 and len(set(ALL_CARDS)) == 52
    assert sorted(ALL_CARDS) == list(ALL_CARDS)
    with pytest.raises(AttributeError):
        Card.from_str("SA").x = 1  # type: ignore[attr-defined]


@given(cards)
def test_card_round_trips(c):
    assert Card.from_str(str(c)) is c
    assert Card.from_str(str(c).lower()) is c
    assert Card.from_str(c.symbol) is c
    assert Card.from_str(c.rank.letter + c.suit.letter) is c
    assert Card.from_index(c.index) is c
    assert eval(repr(c), {"Card": Card}) is c
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.deepcopy(c) is c
    assert next(cards_of_mask(c.bit)) is c


@pytest.mark.parametrize("bad", [-1, 52, 100])
def test_card_from_index_rejects(bad):
    with pytest.raises(InvalidNotationError):
        Card.from_index(bad)


# --------------------------------------------------------------------------------------
# Masks and card sets
# --------------------------------------------------------------------------------------

def test_full_deck_mask():
    assert bin(FULL_DECK_MASK).count("1") == 52
    assert card_mask(ALL_CARDS) == FULL_DECK_MASK
    assert list(cards_of_mask(FULL_DECK_MASK)) == list(ALL_CARDS)
    assert list(cards_of_mask(0)) == []


@given(st.sets(cards))
def test_mask_round_trip(cs):
    m = card_mask(cs)
    assert bin(m).count("1") == len(cs)
    assert set(cards_of_mask(m)) == cs
    got = list(cards_of_mask(m))
    assert got == sorted(got)
    assert CardSet.from_mask(m) == cs
    assert CardSet(cs).mask == m


def test_cardset_helpers():
    cs = CardSet(Card.from_str(t) for t in ["SA", "S2", "HK", "C3", "CA"])
    assert cs.of_suit(Suit.CLUBS) == {Card.from_str("C3"), Card.from_str("CA")}
    assert cs.of_suit(Suit.DIAMONDS) == CardSet()
    assert [str(c) for c in cs.sorted()] == ["SA", "S2", "HK", "CA", "C3"]
    assert isinstance(cs, frozenset) and hash(cs) == hash(frozenset(cs))


@pytest.mark.parametrize("suit, rank", [(0, 2.7), (3.9, 14), ("3", "14"), (True, 2), (3, False),
                                        (None, 2), (0, None), (Seat.SOUTH, 2),
                                        (Suit.SPADES, Seat.SOUTH)])
def test_card_refuses_non_integer_suit_or_rank(suit, rank):
    with pytest.raises(TypeError):
        Card(suit, rank)


def test_card_takes_enums_and_numpy_integers():
    import numpy as np

    assert Card(Suit.SPADES, Rank.ACE) == Card(3, 14) == Card(np.int64(3), np.uint8(14))
    with pytest.raises(InvalidNotationError):
        Card(4, 2)


# --------------------------------------------------------------------------------------
# Messages quote long input by its start and length (ddsolver.errors.brief_repr)
# --------------------------------------------------------------------------------------

def test_brief_repr_quotes_short_values_in_full_and_long_ones_by_start_and_length():
    from ddsolver.errors import QUOTE_LIMIT, brief_repr
    assert QUOTE_LIMIT == 80
    for short in ("", "SA", "x" * 80, b"x" * 80, 7, None, [1, 2]):
        assert brief_repr(short) == repr(short)
    assert brief_repr("x" * 81) == repr("x" * 80) + "... (81 characters)"
    assert brief_repr("é" * 10_000_000) == repr("é" * 80) + "... (10,000,000 characters)"
    assert brief_repr(b"\0" * 100) == repr(b"\0" * 80) + "... (100 bytes)"
    long_list = list(range(1000))
    assert brief_repr(long_list) == (repr(long_list)[:80]
                                     + f"... ({len(repr(long_list)):,} characters)")
    assert brief_repr("x" * 300, limit=300) == repr("x" * 300)
    # an int too long for str() (sys.int_info.default_max_str_digits) does not raise
    assert brief_repr(10**5000) == "<an integer of about 5,000 digits>"


LONG = "x" * 1_000_000


@pytest.mark.parametrize("parse, start", [
    (Strain.from_str, "invalid strain 'xxx"), (Suit.from_str, "invalid suit 'xxx"),
    (Rank.from_str, "invalid rank 'xxx"), (Card.from_str, "invalid card 'xxx"),
])
def test_a_long_text_is_quoted_by_its_start_and_length(parse, start):
    """A 10 MB string was quoted whole in the message."""
    with pytest.raises(InvalidNotationError) as info:
        parse(LONG)
    message = str(info.value)
    assert message.startswith(start)
    assert "'... (1,000,000 characters)" in message and len(message) < 150


@pytest.mark.parametrize("parse", [Strain.from_str, Suit.from_str, Rank.from_str])
@pytest.mark.parametrize("bad", [None, 5, b"S", ["S"]])
def test_from_str_refuses_what_is_not_a_string_by_name(parse, bad):
    """Strain/Suit/Rank.from_str(None) was AttributeError "'NoneType' object has no
    attribute 'strip'", as Card.from_str and Call.from_str never were."""
    with pytest.raises(InvalidNotationError, match=r"invalid (strain|suit|rank) .*: expected "
                                                   r"a string"):
        parse(bad)


def test_a_card_set_of_text_is_refused_not_made_of_its_characters():
    """CardSet("SA") was the set {'S', 'A'}: a frozenset of the string's characters, with a
    mask that failed later.  Only Card items are taken."""
    assert CardSet() == frozenset() and CardSet([Card.from_str("SA")]).mask
    with pytest.raises(TypeError, match="CardSet takes cards, not text 'SA'"):
        CardSet("SA")
    with pytest.raises(TypeError, match="CardSet takes cards, got str 'HK'"):
        CardSet([Card.from_str("SA"), "HK"])
    with pytest.raises(TypeError, match="got int 5"):
        CardSet([5])
