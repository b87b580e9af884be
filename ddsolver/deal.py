"""Hands and deals, PBN deal notation, and seeded random deals.

PBN deal notation (PBN 2.1, section 3.4.11 "Deal"): ``"N:<hand> <hand> <hand> <hand>"``, the
first hand being the seat before the colon, then clockwise; a hand is ``S.H.D.C`` with ranks
high to low, an empty field for a void, and ``-`` for an unknown hand.
"""

from __future__ import annotations

import numbers
import operator
import random
from typing import Iterable, Iterator, Optional, Sequence

from .cards import (
    ALL_CARDS,
    PBN_SUIT_ORDER,
    Card,
    CardSet,
    Rank,
    Suit,
    card_mask,
    cards_of_mask,
)
from .errors import InvalidDealError, InvalidNotationError, brief_repr
from .table import Seat

__all__ = ["MAX_RANDOM_DEALS", "Hand", "Deal", "random_deal", "random_deals"]

#: The most deals one :func:`random_deals` call makes.  It returns a list, so every deal is
#: held at once: a million take about 0.4 GB and half a minute to deal (the cap of
#: ``ai.sampling.MAX_SAMPLES``, the other "deal this many" count); more is refused rather
#: than left to run until the memory is exhausted.
MAX_RANDOM_DEALS = 1_000_000


def _title(seat) -> str:
    """A seat as messages name it: North, not NORTH."""
    return seat.name.title()


def pbn_hand_mask(text: str) -> int:
    """The card mask of a PBN hand ``S.H.D.C``, any number of cards (:meth:`Hand.from_pbn`
    adds the 13-card limit).

    :raises InvalidDealError: for a duplicate card or a wrong number of suits.
    :raises InvalidNotationError: for a character that is not a rank, or ``text`` that is
        not a string (``None``, bytes, a number).
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"hand must be a string such as 'AQ4.KJ5.Q963.KJ2', got "
                                   f"{type(text).__name__}")
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise InvalidDealError(f"hand {brief_repr(text)} must have 4 suits separated by '.'")
    mask = 0
    for suit, holding in zip(PBN_SUIT_ORDER, parts):
        h = holding.strip().upper().replace("10", "T")
        for ch in h:
            try:
                rank = Rank.from_str(ch)
            except InvalidNotationError:
                raise InvalidNotationError(
                    f"invalid rank {brief_repr(ch)} in hand {brief_repr(text)}") from None
            bit = 1 << (16 * suit + rank)
            if mask & bit:
                raise InvalidDealError(
                    f"duplicate card {suit.letter}{rank.letter} in hand {brief_repr(text)}")
            mask |= bit
    return mask


class Hand:
    """The cards one seat holds (0..13 of them).  Immutable and hashable.

    ``Hand(cards)`` takes an iterable of :class:`Card` or a card mask (an integer, bit
    ``16 * suit + rank``); ``Hand.from_pbn("AQ4.KJ5.Q963.KJ2")``; ``str(hand)`` gives the
    same PBN text.

    :raises InvalidDealError: for a mask with bits outside the 52 cards, an item that is
        not a Card, a duplicate card, more than 13 cards, or ``cards`` that is neither
        cards nor a mask (``None``, a bool, PBN text: use :meth:`from_pbn`).
    """

    __slots__ = ("_mask",)

    def __init__(self, cards: Iterable[Card] | int = ()):
        if hasattr(cards, "__index__") and not isinstance(cards, bool):
            mask = operator.index(cards)     # an int, or a numpy integer
            if mask & ~_VALID_MASK or mask < 0:
                raise InvalidDealError(f"invalid card mask {mask:#x}")
        elif isinstance(cards, (str, bytes)):
            raise InvalidDealError(f"Hand takes Cards or a card mask; for PBN text such as "
                                   f"{cards[:20]!r} use Hand.from_pbn")
        elif isinstance(cards, bool) or not isinstance(cards, Iterable):
            raise InvalidDealError(f"Hand takes Cards or a card mask, got "
                                   f"{type(cards).__name__}")
        else:
            mask = 0
            for c in cards:
                if not isinstance(c, Card):
                    raise InvalidDealError(f"not a card: {brief_repr(c)}")
                if mask & c.bit:
                    raise InvalidDealError(f"duplicate card {c} in hand")
                mask |= c.bit
        n = bin(mask).count("1")
        if n > 13:
            raise InvalidDealError(f"a hand of {n} cards (at most 13)")
        object.__setattr__(self, "_mask", mask)

    def __setattr__(self, name, value):  # pragma: no cover
        raise AttributeError("Hand is immutable")

    def __reduce__(self):
        return (Hand, (self._mask,))

    @classmethod
    def from_pbn(cls, text: str) -> "Hand":
        """Parse ``S.H.D.C`` (ranks in any order, ``10`` allowed for ten).

        :raises InvalidDealError: for a duplicate card, a wrong number of suits or more
            than 13 cards.
        :raises InvalidNotationError: for a character that is not a rank, or ``text`` that
            is not a string (``None``, bytes, a number).
        """
        return cls(pbn_hand_mask(text))

    def to_pbn(self) -> str:
        return ".".join(self.holding_str(s) for s in PBN_SUIT_ORDER)

    def holding_str(self, suit: Suit) -> str:
        """Ranks held in ``suit``, high to low (``"AQ4"``; ``""`` for a void)."""
        m = (self._mask >> (16 * suit)) & 0xFFFF
        return "".join("23456789TJQKA"[r - 2] for r in range(14, 1, -1) if m >> r & 1)

    @property
    def mask(self) -> int:
        return self._mask

    @property
    def cards(self) -> CardSet:
        return CardSet(cards_of_mask(self._mask))

    def holding(self, suit: Suit) -> list:
        """Ranks held in ``suit``, high to low."""
        m = (self._mask >> (16 * suit)) & 0xFFFF
        return [Rank(r) for r in range(14, 1, -1) if m >> r & 1]

    def suit_cards(self, suit: Suit) -> list:
        """Cards held in ``suit``, high to low."""
        return [Card(suit, r) for r in self.holding(suit)]

    def length(self, suit: Suit) -> int:
        return bin((self._mask >> (16 * suit)) & 0xFFFF).count("1")

    @property
    def lengths(self) -> tuple:
        """Suit lengths in PBN order ``(spades, hearts, diamonds, clubs)``."""
        return tuple(self.length(s) for s in PBN_SUIT_ORDER)

    @property
    def shape(self) -> tuple:
        """Suit lengths sorted longest first, e.g. ``(4, 3, 3, 3)``."""
        return tuple(sorted(self.lengths, reverse=True))

    @property
    def hcp(self) -> int:
        """High-card points (A=4, K=3, Q=2, J=1)."""
        total = 0
        for s in range(4):
            m = self._mask >> (16 * s)
            total += 4 * (m >> 14 & 1) + 3 * (m >> 13 & 1) + 2 * (m >> 12 & 1) + (m >> 11 & 1)
        return total

    def is_balanced(self) -> bool:
        """4-3-3-3, 4-4-3-2 or 5-3-3-2 (no void, no singleton, at most one doubleton)."""
        return self.shape in ((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2))

    def __len__(self) -> int:
        return bin(self._mask).count("1")

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self._mask & card.bit)

    def __iter__(self) -> Iterator[Card]:
        """Cards high to low, spades first (PBN order)."""
        for s in PBN_SUIT_ORDER:
            yield from self.suit_cards(s)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and other._mask == self._mask

    def __hash__(self) -> int:
        return hash(("Hand", self._mask))

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Hand.from_pbn({self.to_pbn()!r})"

    def remove(self, card: Card) -> "Hand":
        return Hand(self._mask & ~card.bit)

    def add(self, card: Card) -> "Hand":
        return Hand(self._mask | card.bit)


_VALID_MASK = card_mask(ALL_CARDS)


class Deal:
    """Four hands, indexed by :class:`Seat`.  Immutable and hashable.

    A hand may be ``None`` (unknown, written ``-`` in PBN).  Known hands never share a card.
    A *complete* deal has four 13-card hands.  Hands of fewer than 13 cards are allowed only
    when ``complete=False`` is passed (endings, partial deals), and then all known hands must
    have the same number of cards unless ``equal_lengths=False``.

    :raises InvalidDealError: for a duplicate card, a wrong hand size or a missing card, or
        ``hands`` that is not a sequence of four hands (``None``, PBN text: use
        :meth:`from_pbn`).
    """

    __slots__ = ("_hands",)

    def __init__(self, hands: Sequence[Optional[Hand]], *, complete: bool = True,
                 equal_lengths: bool = True):
        if isinstance(hands, (str, bytes)):
            raise InvalidDealError(f"Deal takes four Hands (or None); for PBN text such as "
                                   f"{hands[:20]!r} use Deal.from_pbn")
        if not isinstance(hands, Iterable):
            raise InvalidDealError(f"Deal takes four Hands (or None), got "
                                   f"{type(hands).__name__}")
        hands = tuple(hands)
        if len(hands) != 4:
            raise InvalidDealError(f"a deal has 4 hands, got {len(hands)}")
        seen = 0
        for seat, h in zip(Seat, hands):
            if h is None:
                continue
            if not isinstance(h, Hand):
                raise InvalidDealError(f"{_title(seat)} hand is not a Hand: {brief_repr(h)}")
            if seen & h.mask:
                dup = next(cards_of_mask(seen & h.mask))
                first = next(s for s, o in zip(Seat, hands)
                             if o is not None and s != seat and dup in o)
                raise InvalidDealError(
                    f"duplicate card {dup}: dealt to {_title(first)} and {_title(seat)}")
            seen |= h.mask
            if len(h) > 13:
                raise InvalidDealError(f"{_title(seat)} has {len(h)} cards, more than 13")
            if complete and len(h) != 13:
                raise InvalidDealError(f"{_title(seat)} has {len(h)} cards, not 13")
        known = [len(h) for h in hands if h is not None]
        if equal_lengths and known and len(set(known)) > 1:
            sizes = ", ".join(f"{s.letter}={len(h)}" for s, h in zip(Seat, hands) if h is not None)
            raise InvalidDealError(f"hands have different numbers of cards ({sizes})")
        object.__setattr__(self, "_hands", hands)

    def __setattr__(self, name, value):  # pragma: no cover
        raise AttributeError("Deal is immutable")

    def __reduce__(self):
        return (Deal.from_pbn, (self.to_pbn(),))

    # -- notation ---------------------------------------------------------------------
    @classmethod
    def from_pbn(cls, text: str, *, complete: Optional[bool] = None,
                 equal_lengths: bool = True) -> "Deal":
        """Parse PBN deal notation with any first seat (``N:``, ``E:``, ``S:``, ``W:``).

        A missing first seat means North.  ``-`` is an unknown hand.  With ``complete``
        left as ``None``, a deal whose known hands all have 13 cards is checked as complete
        (no card may be missing when all four hands are known); otherwise it is accepted as
        an ending with equal hand sizes (``equal_lengths=False`` also accepts the unequal
        sizes of a position partway through a trick).

        :raises InvalidNotationError: for a bad seat letter or rank.
        :raises InvalidDealError: for duplicate cards, wrong hand counts or sizes.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"deal must be a string, got {type(text).__name__}")
        body = text.strip().strip('"').strip()
        first = Seat.NORTH
        if len(body) >= 2 and body[1] == ":":
            first = Seat.from_str(body[0])
            body = body[2:]
        parts = body.split()
        if len(parts) != 4:
            raise InvalidDealError(f"deal {brief_repr(text)} must have 4 hands, found {len(parts)}")
        hands: list = [None] * 4
        for i, part in enumerate(parts):
            seat = first.next(i)
            try:
                hands[seat] = None if part == "-" else Hand.from_pbn(part)
            except InvalidDealError as exc:
                raise InvalidDealError(f"{_title(seat)}: {exc}") from None
        if complete is None:
            complete = all(h is not None and len(h) == 13 for h in hands)
        return cls(hands, complete=complete, equal_lengths=equal_lengths)

    def to_pbn(self, first: Seat = Seat.NORTH) -> str:
        """PBN deal notation starting with ``first`` (North by default)."""
        parts = []
        for i in range(4):
            h = self._hands[first.next(i)]
            parts.append("-" if h is None else h.to_pbn())
        return f"{first.letter}:" + " ".join(parts)

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.to_pbn()!r})"

    # -- access -----------------------------------------------------------------------
    def __getitem__(self, seat: Seat) -> Optional[Hand]:
        """The hand of ``seat`` (a Seat, its letter or 0..3; None when not dealt).

        :raises TypeError: for a bool, float or other non-seat value.
        :raises InvalidNotationError: for a letter or integer that is not a seat.
        """
        return self._hands[Seat.coerce(seat)]

    @property
    def hands(self) -> tuple:
        return self._hands

    @property
    def north(self) -> Optional[Hand]:
        return self._hands[0]

    @property
    def east(self) -> Optional[Hand]:
        return self._hands[1]

    @property
    def south(self) -> Optional[Hand]:
        return self._hands[2]

    @property
    def west(self) -> Optional[Hand]:
        return self._hands[3]

    def is_complete(self) -> bool:
        return all(h is not None and len(h) == 13 for h in self._hands)

    def holder(self, card: Card) -> Optional[Seat]:
        """The seat holding ``card``, or ``None`` if no known hand holds it."""
        for seat, h in zip(Seat, self._hands):
            if h is not None and card in h:
                return seat
        return None

    def masks(self) -> tuple:
        """The four hands as card-set masks (0 for an unknown hand), N, E, S, W."""
        return tuple(0 if h is None else h.mask for h in self._hands)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and other._hands == self._hands

    def __hash__(self) -> int:
        return hash(("Deal", self._hands))

    @classmethod
    def random(cls, rng: "random.Random | int | None" = None) -> "Deal":
        """One random complete deal; see :func:`random_deal`."""
        return random_deal(rng)


def _seed(seed):
    """A seed as ``random.Random`` takes it: a NumPy integer as the int it equals (the same
    deals), a type ``random.Random`` refuses named here."""
    if isinstance(seed, numbers.Integral) and not isinstance(seed, (int, bool)):
        return int(seed)
    if seed is not None and not isinstance(seed, (int, float, str, bytes, bytearray)):
        raise TypeError(f"a seed is an integer (or None), got {type(seed).__name__} "
                        f"{brief_repr(seed)}")
    return seed


def random_deal(rng: "random.Random | int | None" = None) -> Deal:
    """A random complete deal.

    Algorithm (identical on every platform and Python >= 3.2, and the one used to make the
    reference data of this project): ``rng = random.Random(seed)`` (Mersenne Twister seeded
    from the integer); the deck is listed spades A..2, hearts A..2, diamonds A..2, clubs
    A..2; ``rng.shuffle(deck)`` (Fisher-Yates with ``getrandbits`` rejection sampling);
    cards 0-12 go to North, 13-25 East, 26-38 South, 39-51 West.

    :param rng: a ``random.Random`` (its state advances by one shuffle), an integer seed
        (a NumPy integer is the same seed as the int), or ``None`` for a fresh
        unpredictable generator.
    :raises TypeError: for a seed of a type ``random.Random`` does not take.
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(_seed(rng))
    deck = list(_SHUFFLE_DECK)
    rng.shuffle(deck)
    return Deal([Hand(card_mask(deck[13 * i:13 * i + 13])) for i in range(4)])


def random_deals(seed: int, count: int) -> list:
    """The first ``count`` deals of the stream ``random.Random(seed)`` (see
    :func:`random_deal`).  ``random_deals(1, 500)`` are the deals of the DDS reference
    tables.

    :param count: how many deals, ``0 <= count <=`` :data:`MAX_RANDOM_DEALS` (the list
        holds them all at once).
    :raises TypeError: if ``count`` is not an integer, or ``seed`` of a type
        ``random.Random`` does not take (a NumPy integer is the same seed as the int).
    :raises ValueError: if ``count`` is negative or above :data:`MAX_RANDOM_DEALS`."""
    if isinstance(count, bool) or not isinstance(count, numbers.Integral):
        raise TypeError(f"count must be an integer number of deals, got {brief_repr(count)}")
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    if count > MAX_RANDOM_DEALS:
        raise ValueError(f"count must be at most {MAX_RANDOM_DEALS:,} (MAX_RANDOM_DEALS), "
                         f"got {count:,}")
    rng = random.Random(_seed(seed))
    return [random_deal(rng) for _ in range(count)]


_SHUFFLE_DECK = tuple(Card(s, r) for s in PBN_SUIT_ORDER for r in range(14, 1, -1))
