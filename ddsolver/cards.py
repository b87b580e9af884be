"""Suits, strains, ranks, cards and card sets.

Card sets are 64-bit integer masks: bit ``16 * suit + rank`` is set for each card, with
``Suit.CLUBS == 0`` ... ``Suit.SPADES == 3`` and ranks 2..14 (ace = 14).  The same layout is
used by the compiled solver, so a hand converts to the search representation for free.
"""

from __future__ import annotations

import operator
from enum import Enum, IntEnum
from typing import Iterable, Iterator

from ._coerce import enum_member
from .errors import InvalidNotationError, brief_repr

__all__ = ["Suit", "Strain", "Rank", "Card", "CardSet", "card_mask", "cards_of_mask"]


class Strain(IntEnum):
    """A denomination of the auction, in bidding order C < D < H < S < NT."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    @property
    def letter(self) -> str:
        """``"C"``, ``"D"``, ``"H"``, ``"S"`` or ``"NT"``."""
        return _STRAIN_LETTERS[self]

    @property
    def symbol(self) -> str:
        """``"♣"``, ``"♦"``, ``"♥"``, ``"♠"`` or ``"NT"``."""
        return _STRAIN_SYMBOLS[self]

    @property
    def is_suit(self) -> bool:
        return self != Strain.NOTRUMP

    @property
    def is_major(self) -> bool:
        return self in (Strain.HEARTS, Strain.SPADES)

    @property
    def is_minor(self) -> bool:
        return self in (Strain.CLUBS, Strain.DIAMONDS)

    @property
    def suit(self) -> "Suit":
        """The trump suit of this strain.

        :raises ValueError: for notrump, which has no trump suit.
        """
        if self == Strain.NOTRUMP:
            raise ValueError("notrump has no trump suit")
        return Suit(int(self))

    @classmethod
    def from_str(cls, text: str) -> "Strain":
        """Parse ``C D H S N NT`` (any case), the symbols ``♣ ♦ ♥ ♠`` or English names.

        :raises InvalidNotationError: if ``text`` names no strain or is not a string.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid strain {brief_repr(text)}: expected a string")
        key = text.strip().upper()
        if key in _STRAIN_PARSE:
            return _STRAIN_PARSE[key]
        raise InvalidNotationError(f"invalid strain {brief_repr(text)}")

    @classmethod
    def coerce(cls, value) -> "Strain":
        """A Strain from a Strain, its letter or name, or 0..4; errors as
        :func:`ddsolver._coerce.enum_member` (TypeError, InvalidNotationError)."""
        return enum_member(cls, value, "strain")

    def __str__(self) -> str:
        return self.letter


_STRAIN_LETTERS = {0: "C", 1: "D", 2: "H", 3: "S", 4: "NT"}
_STRAIN_SYMBOLS = {0: "♣", 1: "♦", 2: "♥", 3: "♠", 4: "NT"}


class Suit(IntEnum):
    """A suit of cards.  ``Suit.CLUBS == Strain.CLUBS`` and so on."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def strain(self) -> Strain:
        return Strain(int(self))

    @classmethod
    def from_str(cls, text: str) -> "Suit":
        """Parse ``C D H S`` (any case), ``♣ ♦ ♥ ♠`` (also the white symbols) or names.

        :raises InvalidNotationError: if ``text`` names no suit or is not a string.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid suit {brief_repr(text)}: expected a string")
        key = text.strip().upper()
        strain = _STRAIN_PARSE.get(key)
        if strain is None or strain == Strain.NOTRUMP:
            raise InvalidNotationError(f"invalid suit {brief_repr(text)}")
        return Suit(int(strain))

    def __str__(self) -> str:
        return self.letter


#: Suits in the order PBN writes a hand: spades, hearts, diamonds, clubs.
PBN_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

#: Strains highest first, the order hand records, PBN's DoubleDummyTricks and DDS's GIB
#: files list them: notrump, spades, hearts, diamonds, clubs.
STRAINS_HIGH_FIRST = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS,
                      Strain.CLUBS)

_STRAIN_PARSE = {
    "C": Strain.CLUBS, "♣": Strain.CLUBS, "♧": Strain.CLUBS, "CLUBS": Strain.CLUBS,
    "CLUB": Strain.CLUBS,
    "D": Strain.DIAMONDS, "♦": Strain.DIAMONDS, "♢": Strain.DIAMONDS,
    "DIAMONDS": Strain.DIAMONDS, "DIAMOND": Strain.DIAMONDS,
    "H": Strain.HEARTS, "♥": Strain.HEARTS, "♡": Strain.HEARTS, "HEARTS": Strain.HEARTS,
    "HEART": Strain.HEARTS,
    "S": Strain.SPADES, "♠": Strain.SPADES, "♤": Strain.SPADES, "SPADES": Strain.SPADES,
    "SPADE": Strain.SPADES,
    "N": Strain.NOTRUMP, "NT": Strain.NOTRUMP, "NOTRUMP": Strain.NOTRUMP,
    "NOTRUMPS": Strain.NOTRUMP, "SA": Strain.NOTRUMP,
}


class Rank(IntEnum):
    """A card rank, 2..14 (ace high)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """``"2"``..``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"`` (PBN notation)."""
        return _RANK_LETTERS[self]

    @property
    def hcp(self) -> int:
        """Milton Work high-card points: A=4, K=3, Q=2, J=1, others 0."""
        return max(0, int(self) - 10)

    @classmethod
    def from_str(cls, text: str) -> "Rank":
        """Parse ``A K Q J T 9..2``; ``10`` is accepted for ten; any case.

        :raises InvalidNotationError: if ``text`` names no rank or is not a string.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid rank {brief_repr(text)}: expected a string")
        key = text.strip().upper()
        if key in _RANK_PARSE:
            return Rank(_RANK_PARSE[key])
        raise InvalidNotationError(f"invalid rank {brief_repr(text)}")

    def __str__(self) -> str:
        return self.letter


_RANK_LETTERS = {r: "23456789TJQKA"[r - 2] for r in range(2, 15)}
_RANK_PARSE = {"23456789TJQKA"[r - 2]: r for r in range(2, 15)}
_RANK_PARSE["10"] = 10


class Card:
    """A playing card: a suit and a rank.  Immutable and hashable.

    Cards order by suit (clubs lowest), then rank.  ``Card.from_str("ST")``,
    ``Card.from_str("S10")`` and ``Card.from_str("♠T")`` are the ten of spades;
    ``str(card)`` gives ``"ST"``.  ``Card(suit, rank)`` takes a Suit (or 0..3) and a Rank
    (or 2..14).

    :raises TypeError: for a suit or rank that is not an integer (a float, a string, a
        bool, None, a member of another enum such as a Seat).
    :raises InvalidNotationError: for a suit or rank out of range.
    """

    __slots__ = ("_suit", "_rank")

    _suit: Suit
    _rank: Rank

    def __new__(cls, suit: Suit | int, rank: Rank | int) -> "Card":
        if (isinstance(suit, bool) or isinstance(rank, bool)
                or (isinstance(suit, Enum) and not isinstance(suit, Suit))
                or (isinstance(rank, Enum) and not isinstance(rank, Rank))):
            raise TypeError(f"a card's suit and rank must be integers (or a Suit and a "
                            f"Rank), got {brief_repr(suit)}, {brief_repr(rank)}")
        try:
            key = (operator.index(suit), operator.index(rank))
        except TypeError:
            raise TypeError(f"a card's suit and rank must be integers (a Suit 0..3 and a "
                            f"Rank 2..14), got {brief_repr(suit)}, {brief_repr(rank)}; "
                            f"Card.from_str reads text") from None
        cached = _CARD_CACHE.get(key)
        if cached is not None:
            return cached
        if not (0 <= key[0] <= 3) or not (2 <= key[1] <= 14):
            raise InvalidNotationError(f"invalid card: suit {brief_repr(suit)}, "
                                       f"rank {brief_repr(rank)}")
        card = object.__new__(cls)
        object.__setattr__(card, "_suit", Suit(key[0]))
        object.__setattr__(card, "_rank", Rank(key[1]))
        _CARD_CACHE[key] = card
        return card

    def __setattr__(self, name, value):  # pragma: no cover - immutability guard
        raise AttributeError("Card is immutable")

    def __reduce__(self):
        return (Card, (int(self._suit), int(self._rank)))

    @property
    def suit(self) -> Suit:
        return self._suit

    @property
    def rank(self) -> Rank:
        return self._rank

    @property
    def bit(self) -> int:
        """The card's bit in a card-set mask: ``1 << (16 * suit + rank)``."""
        return 1 << (16 * self._suit + self._rank)

    @property
    def index(self) -> int:
        """0..51: ``13 * suit + rank - 2`` (clubs 2 = 0, spades ace = 51)."""
        return 13 * self._suit + self._rank - 2

    @property
    def hcp(self) -> int:
        return self._rank.hcp

    @classmethod
    def from_str(cls, text: str) -> "Card":
        """Parse a card: suit then rank (``"ST"``, ``"S10"``, ``"♠T"``, ``"s t"``), or rank
        then suit as some programs write it (``"TS"``, ``"10♠"``).

        :raises InvalidNotationError: if ``text`` is not a card.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid card {brief_repr(text)}: expected a string")
        key = text.strip().replace(" ", "")
        if len(key) >= 2:
            try:
                return cls(Suit.from_str(key[0]), Rank.from_str(key[1:]))
            except InvalidNotationError:
                pass
            try:
                return cls(Suit.from_str(key[-1]), Rank.from_str(key[:-1]))
            except InvalidNotationError:
                pass
        raise InvalidNotationError(f"invalid card {brief_repr(text)}")

    @classmethod
    def from_index(cls, index: int) -> "Card":
        """Inverse of :attr:`index`."""
        if not 0 <= index < 52:
            raise InvalidNotationError(f"invalid card index {brief_repr(index)}")
        return cls(index // 13, index % 13 + 2)

    def _key(self) -> int:
        return 16 * self._suit + self._rank

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return 16 * self._suit + self._rank

    def __lt__(self, other: "Card") -> bool:
        return self._key() < other._key()

    def __le__(self, other: "Card") -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: "Card") -> bool:
        return self._key() > other._key()

    def __ge__(self, other: "Card") -> bool:
        return self._key() >= other._key()

    def __str__(self) -> str:
        return self._suit.letter + self._rank.letter

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"

    @property
    def symbol(self) -> str:
        """``"♠T"`` style."""
        return self._suit.symbol + self._rank.letter


_CARD_CACHE: dict = {}
ALL_CARDS = tuple(Card(s, r) for s in range(4) for r in range(2, 15))
_CARD_OF_BIT = {c._key(): c for c in ALL_CARDS}

#: Mask of every card of the deck.
FULL_DECK_MASK = sum(c.bit for c in ALL_CARDS)


def card_mask(cards: Iterable[Card]) -> int:
    """The 64-bit mask of ``cards`` (see module docstring)."""
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


def cards_of_mask(mask: int) -> Iterator[Card]:
    """Cards of a mask, clubs 2 first, spades ace last."""
    while mask:
        low = mask & -mask
        yield _CARD_OF_BIT[low.bit_length() - 1]
        mask ^= low


class CardSet(frozenset):
    """An immutable set of cards with bridge helpers (a ``frozenset`` of :class:`Card`).

    :param cards: an iterable of :class:`Card` (default: none).
    :raises TypeError: for an item that is not a :class:`Card` (text such as ``"SA"``
        would otherwise make a set of its characters: read it with :meth:`Card.from_str`
        or use :meth:`ddsolver.deal.Hand.from_pbn`).
    """

    def __new__(cls, cards=()):
        if isinstance(cards, (str, bytes)):
            raise TypeError(f"CardSet takes cards, not text {brief_repr(cards)} (read "
                            f"each card with Card.from_str)")
        self = super().__new__(cls, cards)
        for card in self:
            if not isinstance(card, Card):
                raise TypeError(f"CardSet takes cards, got {type(card).__name__} "
                                f"{brief_repr(card)}")
        return self

    @property
    def mask(self) -> int:
        return card_mask(self)

    @classmethod
    def from_mask(cls, mask: int) -> "CardSet":
        return cls(cards_of_mask(mask))

    def of_suit(self, suit: Suit) -> "CardSet":
        return CardSet(c for c in self if c.suit == suit)

    def sorted(self) -> list:
        """Spades first, then hearts, diamonds, clubs; high to low within a suit."""
        return sorted(self, key=lambda c: (-c.suit, -c.rank))
