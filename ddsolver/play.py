"""The play of the cards: positions, legal cards, tricks.

Rules (WBF Laws 44, 57, 61): the leader plays any card; each other player follows suit if
able, else plays any card.  A trick is won by the highest trump in it or, if it holds no trump
(or in notrump), by the highest card of the suit led.  The winner leads to the next trick.
"""

from __future__ import annotations

import operator
from typing import Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from .cards import FULL_DECK_MASK, Card, Strain, cards_of_mask
from .deal import Deal, Hand, pbn_hand_mask
from .errors import (
    CardNotHeldError,
    InvalidDealError,
    InvalidNotationError,
    InvalidPositionError,
    OutOfTurnError,
    RevokeError,
    brief_repr,
)
from .table import Seat

__all__ = ["Position", "trick_winner"]

_SUIT_MASK = 0xFFFF


def _title(seat) -> str:
    """A seat as messages name it: North, not NORTH."""
    return seat.name.title()


def _as_card(card) -> Card:
    """A Card, or card text (``"SA"``) read with :meth:`Card.from_str`."""
    if isinstance(card, str):
        return Card.from_str(card)
    if not isinstance(card, Card):
        raise InvalidNotationError(f"not a card: {brief_repr(card)}")
    return card


def trick_winner(cards: Sequence[Card], leader: Seat, trump: Strain) -> Seat:
    """The seat that wins a complete trick.

    :param cards: the four cards (Cards or card text) in the order played, starting with
        ``leader``'s.
    :param leader: the seat that led (a Seat, its letter or 0..3).
    :param trump: the contract's strain (``Strain.NOTRUMP`` for no trump suit; a Strain,
        its letter or 0..4).
    :raises InvalidPositionError: if ``cards`` does not hold four different cards.
    :raises InvalidNotationError: for a card, leader or strain that names none.
    :raises TypeError: for a leader or strain of another type (a float, a bool).
    """
    if len(cards) != 4:
        raise InvalidPositionError(f"a trick has 4 cards, got {len(cards)}")
    cards = [_as_card(c) for c in cards]
    if len(set(cards)) != 4:
        raise InvalidPositionError(f"a trick's cards must differ: {[str(c) for c in cards]}")
    return _trick_winner(cards, Seat.coerce(leader), Strain.coerce(trump))


def _trick_winner(cards: Sequence[Card], leader: Seat, trump: Strain) -> Seat:
    """:func:`trick_winner` of four different Cards, a Seat and a Strain, unchecked (the
    callers inside the package have checked them already)."""
    best = 0
    for i in range(1, 4):
        if _beats(cards[i], cards[best], trump):
            best = i
    return Seat(leader).next(best)


def _beats(card: Card, current: Card, trump: Strain) -> bool:
    if card.suit == current.suit:
        return card.rank > current.rank
    return trump != Strain.NOTRUMP and card.suit == int(trump)


def _hand_mask(h: Union[Hand, str, int, None], seat: Seat) -> int:
    if h is None:
        raise InvalidPositionError(f"{_title(seat)}'s hand is unknown: a position needs all four "
                                   f"hands")
    if isinstance(h, Hand):
        return h.mask
    if isinstance(h, str):
        mask = pbn_hand_mask(h)
    elif hasattr(h, "__index__") and not isinstance(h, bool):
        mask = operator.index(h)        # an int or a numpy integer
        if mask < 0 or mask & ~FULL_DECK_MASK:
            raise InvalidDealError(f"{_title(seat)}: invalid card mask {mask:#x}")
    else:
        raise InvalidPositionError(f"{_title(seat)}'s hand is not a Hand, a PBN hand or a card "
                                   f"mask: {brief_repr(h)}")
    return mask     # more than 13 cards: refused with the other hand-size checks


class Position:
    """A position in the play: the cards still held, the trump strain, the current trick.

    ``Position(deal, trump, leader)`` starts at trick 1 with ``leader`` on lead (the opening
    leader, declarer's left-hand opponent).  :meth:`from_remaining` builds a position partway
    through the play, also partway through a trick.  :meth:`play` and :meth:`pop` make and
    unmake one card.

    :raises InvalidPositionError: if a hand is unknown or hand sizes are impossible.
    :raises InvalidDealError: for duplicate cards.
    """

    __slots__ = ("_hands", "_trump", "_leader", "_trick", "_won", "_history", "_played")

    def __init__(self, deal: Deal, trump: Strain, leader: Seat):
        if not isinstance(deal, Deal):
            raise InvalidPositionError(f"expected a Deal, got {type(deal).__name__}")
        masks = [_hand_mask(deal[s], s) for s in Seat]
        self._setup(masks, trump, leader, [])

    @classmethod
    def from_remaining(
        cls,
        hands: Union[Deal, str, Sequence, Mapping],
        trump: Strain,
        leader: Seat,
        current_trick: Iterable[Union[Card, str]] = (),
    ) -> "Position":
        """A position from the cards each seat still holds and the current trick.

        :param hands: the remaining hands, *without* the cards already on the table in the
            current trick: a :class:`Deal` (built with ``complete=False`` and unequal sizes
            allowed), a PBN deal string (hands may differ in size), a sequence of four hands
            (N, E, S, W) or a mapping ``Seat -> hand``; a hand is a :class:`Hand`, PBN hand text
            or a card mask.
        :param leader: the seat that led (or will lead) to the current trick.
        :param current_trick: the 0..3 cards already played to it, ``leader``'s first
            (cards, card strings, or one string of cards separated by spaces).
        :raises InvalidPositionError: wrong hand sizes for the trick in progress, a revoke in
            the current trick (a card that fails to follow although the player still holds the
            suit led), 4 or more cards in the current trick.
        :raises InvalidDealError: a card held twice or both held and on the table.
        :raises TypeError: ``hands`` or ``current_trick`` of another type (``None``, a number).
        """
        if isinstance(hands, Deal):
            hand_list = list(hands.hands)
        elif isinstance(hands, str):
            hand_list = list(Deal.from_pbn(hands, complete=False, equal_lengths=False).hands)
        elif isinstance(hands, Mapping):
            hand_list = [hands.get(s, hands.get(s.letter)) for s in Seat]
        else:
            try:
                hand_list = list(hands)
            except TypeError:
                raise TypeError("hands must be a Deal, a PBN deal string, four hands or a "
                                f"mapping Seat -> hand, got {type(hands).__name__}") from None
            if len(hand_list) != 4:
                raise InvalidPositionError(f"need 4 hands, got {len(hand_list)}")
        masks = [_hand_mask(h, s) for s, h in zip(Seat, hand_list)]
        try:
            # a string is the cards' text, separated by spaces ("S2 SA")
            trick_cards = (current_trick.split() if isinstance(current_trick, str)
                           else list(current_trick))
        except TypeError:
            raise TypeError("current_trick must be an iterable of cards, got "
                            f"{type(current_trick).__name__}") from None
        trick = [_as_card(c) for c in trick_cards]
        pos = cls.__new__(cls)
        pos._setup(masks, trump, leader, trick)
        return pos

    def _setup(self, masks: List[int], trump, leader, trick: List[Card]) -> None:
        try:
            trump = Strain.coerce(trump)
            leader = Seat.coerce(leader)
        except ValueError as exc:
            raise InvalidPositionError(str(exc)) from None
        seen = 0
        for s, m in zip(Seat, masks):
            if seen & m:
                raise InvalidDealError(f"card {next(cards_of_mask(seen & m))} is held twice")
            seen |= m
        if len(trick) > 3:
            raise InvalidPositionError(f"the current trick has {len(trick)} cards; at most 3")
        on_table = 0
        for c in trick:
            if on_table & c.bit:
                raise InvalidDealError(f"card {c} is played twice to the current trick")
            if seen & c.bit:
                raise InvalidDealError(f"card {c} is both on the table and in a hand")
            seen |= c.bit
            on_table |= c.bit
        sizes = [bin(m).count("1") for m in masks]
        for seat in Seat:
            if sizes[seat] > 13:
                raise InvalidPositionError(f"{_title(seat)} holds {sizes[seat]} cards: at most 13")
        # a seat that has played to the current trick holds one card fewer than the others
        played = [k < len(trick) for k in range(4)]             # by position from the leader
        totals = [sizes[leader.next(k)] + played[k] for k in range(4)]
        n = max(set(totals), key=lambda t: (totals.count(t), t == totals[0]))
        if totals.count(n) < 4:
            if totals.count(n) == 3:        # the one seat that does not fit the other three
                k = next(k for k in range(4) if totals[k] != n)
                seat = leader.next(k)
                raise InvalidPositionError(
                    f"{_title(seat)} holds {sizes[seat]} card{'s' * (sizes[seat] != 1)}; "
                    f"expected {n - played[k]} with "
                    f"{len(trick)} card(s) in the current trick led by {_title(leader)}")
            counts = ", ".join(f"{_title(s)} {sizes[s]}" for s in Seat)
            raise InvalidPositionError(
                f"the hands do not fit together: {counts.replace(' ', ' holds ', 1)} "
                f"(cards held; with {len(trick)} card(s) in the current trick led by "
                f"{_title(leader)}, each seat that has played to it holds one card fewer "
                f"than the others)")
        if n > 13:
            raise InvalidPositionError(f"hands of {n} cards: at most 13")
        # revoke check on the cards already in the trick
        if trick:
            led = trick[0].suit
            for k, c in enumerate(trick[1:], start=1):
                seat = leader.next(k)
                if c.suit != led and (masks[seat] >> (16 * led)) & _SUIT_MASK:
                    raise InvalidPositionError(
                        f"{_title(seat)} played {c} on a {led.name.lower()} lead while holding "
                        f"{led.name.lower()} (revoke)")
        self._hands = list(masks)
        self._trump = trump
        self._leader = leader
        self._trick: List[Card] = list(trick)
        self._won = [0, 0]
        self._history: List[Tuple] = []
        self._played: List[Card] = []

    # -- state ---------------------------------------------------------------------------
    @property
    def trump(self) -> Strain:
        return self._trump

    @property
    def leader(self) -> Seat:
        """The seat that led (or leads) to the current trick."""
        return self._leader

    @property
    def to_move(self) -> Seat:
        """The seat whose turn it is to play."""
        return self._leader.next(len(self._trick))

    @property
    def trick_cards(self) -> List[Card]:
        """Cards played to the current trick so far, the leader's first."""
        return list(self._trick)

    @property
    def played(self) -> List[Card]:
        """Cards played through :meth:`play` since this object was made, in order."""
        return list(self._played)

    @property
    def tricks_won(self) -> Tuple[int, int]:
        """Tricks completed through :meth:`play` won by (N-S, E-W)."""
        return (self._won[0], self._won[1])

    @property
    def tricks_left(self) -> int:
        """Tricks not yet completed, counting the current trick."""
        return bin(self._hands[self._leader]).count("1") + (1 if self._trick else 0)

    @property
    def is_finished(self) -> bool:
        return self.tricks_left == 0

    def hand(self, seat: Seat) -> Hand:
        """The cards ``seat`` (a Seat, its letter or 0..3) still holds.

        :raises TypeError: for a bool, float or other non-seat value.
        :raises InvalidNotationError: for a letter or integer that is not a seat.
        """
        return Hand(self._hands[Seat.coerce(seat)])

    def masks(self) -> Tuple[int, int, int, int]:
        """Card-set masks of the remaining hands (N, E, S, W)."""
        return tuple(self._hands)  # type: ignore[return-value]

    def remaining_deal(self) -> Deal:
        """The remaining hands as a (possibly unequal) :class:`Deal`."""
        return Deal([Hand(m) for m in self._hands], complete=False, equal_lengths=False)

    @property
    def legal_cards(self) -> List[Card]:
        """Cards the player to move may play: spades first, high to low within a suit."""
        mask = self._legal_mask()
        return sorted(cards_of_mask(mask), key=lambda c: (-c.suit, -c.rank))

    def _legal_mask(self) -> int:
        hand = self._hands[self.to_move]
        if self._trick:
            led = self._trick[0].suit
            follow = hand & (_SUIT_MASK << (16 * led))
            if follow:
                return follow
        return hand

    def is_legal(self, card: Union[Card, str]) -> bool:
        """Whether the seat to move may play ``card`` (a Card or card text such as "SA").

        :raises InvalidNotationError: ``card`` is neither a Card nor card text.
        """
        return bool(self._legal_mask() & _as_card(card).bit)

    # -- make / unmake ---------------------------------------------------------------------
    def play(self, card: Union[Card, str], seat: Optional[Seat] = None) -> Optional[Seat]:
        """Play ``card`` for the seat to move.  Returns the trick's winner when the card
        completes a trick, else ``None``.

        :param seat: if given, the seat the caller believes is playing (a Seat, its letter
            or 0..3); it must be :attr:`to_move`.
        :raises OutOfTurnError: ``seat`` is not the seat to move, or the play is over.
        :raises CardNotHeldError: the seat to move does not hold ``card``.
        :raises RevokeError: ``card`` does not follow suit although the seat can.
        :raises InvalidNotationError: ``card`` is neither a Card nor card text, or ``seat``
            names no seat.
        :raises TypeError: ``seat`` is not a Seat, a string or an integer.
        """
        card = _as_card(card)
        mover = self.to_move
        if self.is_finished:
            raise OutOfTurnError(f"the play is over: {card} cannot be played")
        if seat is not None:
            seat = Seat.coerce(seat)
            if seat != mover:
                raise OutOfTurnError(
                    f"{_title(seat)} played {card} but it is {_title(mover)}'s turn")
        hand = self._hands[mover]
        if not hand & card.bit:
            raise CardNotHeldError(f"{_title(mover)} does not hold {card}")
        if self._trick:
            led = self._trick[0].suit
            if card.suit != led and hand & (_SUIT_MASK << (16 * led)):
                raise RevokeError(
                    f"{_title(mover)} must follow {led.name.lower()}: {card} is a revoke")
        self._hands[mover] = hand & ~card.bit
        self._trick.append(card)
        self._played.append(card)
        if len(self._trick) == 4:
            winner = _trick_winner(self._trick, self._leader, self._trump)
            self._history.append((self._leader, list(self._trick), winner))
            self._won[winner.side] += 1
            self._leader = winner
            self._trick = []
            return winner
        self._history.append((None, None, None))
        return None

    def pop(self) -> Card:
        """Take back the last card played through :meth:`play`.

        :raises IndexError: if no card was played through this object.
        """
        if not self._history:
            raise IndexError("no card to take back")
        old_leader, trick, winner = self._history.pop()
        card = self._played.pop()
        if old_leader is not None:
            self._won[winner.side] -= 1
            self._leader = old_leader
            self._trick = trick
        self._trick.pop()
        self._hands[self._leader.next(len(self._trick))] |= card.bit
        return card

    def copy(self) -> "Position":
        new = Position.__new__(Position)
        new._hands = list(self._hands)
        new._trump = self._trump
        new._leader = self._leader
        new._trick = list(self._trick)
        new._won = list(self._won)
        new._history = [(a, list(b) if b else b, c) for a, b, c in self._history]
        new._played = list(self._played)
        return new

    def __repr__(self) -> str:
        trick = " ".join(str(c) for c in self._trick)
        return (f"<Position {self.remaining_deal().to_pbn()} trump={self._trump.letter} "
                f"leader={self._leader.letter} trick=[{trick}] to_move={self.to_move.letter}>")

