"""What one seat may see, and the interface every player implements.

A computer player never receives a :class:`~ddsolver.deal.Deal`: it is given a
:class:`SeatView`, built by :func:`seat_view` from exactly what that seat may see at the
table under the Laws (WBF Laws of Duplicate Bridge 2017, Laws 41 and 43-45: a player sees
its own cards, dummy's cards once the opening lead is faced, every card played and every
call made).  Hidden cards cannot leak into a view because the builder is never given them.

>>> from ai.players import seat_view
>>> view = seat_view("E", "653.T742.T42.A73", dealer="N", vulnerability="None",
...                  auction="1NT Pass 3NT Pass Pass Pass")
>>> str(view.contract), str(view.declarer), str(view.to_play)
('3NTN', 'N', 'E')
>>> len(view.legal_cards)
13
"""

from __future__ import annotations

import hashlib
import numbers
from dataclasses import dataclass, fields
from typing import Dict, FrozenSet, Optional, Protocol, Sequence, Tuple, runtime_checkable

from ddsolver.auction import Auction, Call
from ddsolver.cards import FULL_DECK_MASK, Card, CardSet, Strain, Suit, cards_of_mask
from ddsolver.deal import Hand
from ddsolver.errors import BridgeError
from ddsolver.play import trick_winner
from ddsolver.scoring import Contract
from ddsolver.table import Seat, Vulnerability

__all__ = ["Claim", "InvalidViewError", "Player", "SCORINGS", "SeatView", "seat_view"]

#: The scorings a view may carry: ``"IMP"`` (teams, and Chicago's total points, where the
#: contract matters most) or ``"MP"`` (pairs, where every trick counts).
SCORINGS = ("IMP", "MP")

_SUIT_MASK = 0xFFFF


class InvalidViewError(BridgeError):
    """A seat's view is impossible: a hand of the wrong size, a card both held and played,
    a card played twice or by the wrong seat, a revoke in the play, dummy shown before the
    opening lead, explanations that do not match the calls."""


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= c.bit
    return m


def _as_hand(value, what: str) -> Hand:
    if isinstance(value, Hand):
        return value
    if isinstance(value, str):
        try:
            return Hand.from_pbn(value)
        except BridgeError as exc:
            raise InvalidViewError(f"{what}: {exc}") from None
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        try:        # a card mask (a Python or NumPy integer)
            return Hand(int(value))
        except BridgeError as exc:
            raise InvalidViewError(f"{what}: {exc}") from None
    items = None
    if value is not None and not isinstance(value, (bytes, bytearray)):
        try:
            items = list(value)
        except TypeError:
            pass
    if items is None:
        raise TypeError(f"{what} must be a Hand, PBN hand text or a list of cards, "
                        f"got {type(value).__name__}")
    cards = []
    for c in items:
        if isinstance(c, str):
            try:
                c = Card.from_str(c)
            except BridgeError as exc:
                raise InvalidViewError(f"{what}: {exc}") from None
        elif not isinstance(c, Card):
            raise TypeError(f"{what} must be a Hand, PBN hand text or a list of cards; it "
                            f"lists {type(c).__name__} {c!r}")
        cards.append(c)
    if len(set(cards)) != len(cards):
        raise InvalidViewError(f"{what} lists a card twice")
    if len(cards) > 13:
        raise InvalidViewError(f"{what} has {len(cards)} cards: at most 13")
    return Hand(cards)


def _as_card(value) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.from_str(value)
    raise TypeError(f"expected a card, got {type(value).__name__}: {value!r}")


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may see at one moment of a board, and nothing else.

    Build it with :func:`seat_view` (which checks it); it is immutable and compares by
    value, so two views are equal exactly when the seat sees the same things.

    :ivar seat: the seat whose view this is.  When declarer is asked for dummy's card the
        view is declarer's and :attr:`to_play` is dummy's seat.
    :ivar hand: the cards :attr:`seat` still holds.
    :ivar dealer: the board's dealer.
    :ivar vulnerability: the board's vulnerability.
    :ivar scoring: ``"IMP"`` or ``"MP"`` (see :data:`SCORINGS`).
    :ivar calls: the calls made so far, the dealer's first.
    :ivar explanations: one explanation per call (from the bidding system the table
        uses), or ``None`` when the caller gave none.
    :ivar played: every card played so far with the seat that played it, in order.
    :ivar dummy_hand: the cards dummy still holds, once the opening lead is faced
        (``None`` before it, during the auction, or on a passed-out board).
    :ivar original_hand: :attr:`seat`'s 13 cards at the start of the board.
    :ivar original_dummy: dummy's 13 cards as faced, or ``None``.
    :ivar contract: the final contract once the auction is over (``None`` before it and
        on a passed-out board).
    :ivar declarer: the contract's declarer, or ``None``.
    :ivar to_play: the seat whose card is due (``None`` during the auction and once the
        play is over).
    :ivar legal_cards: the cards :attr:`seat` may play now: from its own hand when
        :attr:`to_play` is the seat, from dummy when the seat is declarer and dummy is due;
        empty otherwise.  Highest suit first (spades), high to low.
    """

    seat: Seat
    hand: Hand
    dealer: Seat
    vulnerability: Vulnerability
    scoring: str
    calls: Tuple[Call, ...]
    explanations: Optional[Tuple[object, ...]]
    played: Tuple[Tuple[Seat, Card], ...]
    dummy_hand: Optional[Hand]
    original_hand: Hand
    original_dummy: Optional[Hand]
    contract: Optional[Contract]
    declarer: Optional[Seat]
    to_play: Optional[Seat]
    legal_cards: Tuple[Card, ...]

    # -- the auction ----------------------------------------------------------------------
    @property
    def auction(self) -> Auction:
        """The auction so far, as a new :class:`~ddsolver.auction.Auction` (changing it
        does not change the view)."""
        return Auction(self.dealer, self.calls)

    @property
    def auction_finished(self) -> bool:
        """Whether the auction is over (three passes after a bid, or four passes)."""
        return self.auction.is_finished

    @property
    def to_call(self) -> Optional[Seat]:
        """The seat whose call is due, or ``None`` once the auction is over."""
        return self.auction.to_act

    # -- the play ----------------------------------------------------------------------------
    @property
    def trump(self) -> Optional[Strain]:
        """The contract's strain (``Strain.NOTRUMP`` for notrump), or ``None``."""
        return None if self.contract is None else self.contract.strain

    @property
    def dummy(self) -> Optional[Seat]:
        """Dummy's seat once the auction has a declarer, else ``None``."""
        return None if self.declarer is None else self.declarer.partner

    @property
    def opening_leader(self) -> Optional[Seat]:
        """Declarer's left-hand opponent, or ``None``."""
        return None if self.declarer is None else self.declarer.lho

    @property
    def tricks(self) -> Tuple[Tuple[Tuple[Seat, Card], ...], ...]:
        """The played cards grouped by trick (the last one may be incomplete)."""
        p = self.played
        return tuple(p[i:i + 4] for i in range(0, len(p), 4))

    @property
    def current_trick(self) -> Tuple[Tuple[Seat, Card], ...]:
        """The cards of the trick in progress (empty between tricks)."""
        n = len(self.played) % 4
        return self.played[len(self.played) - n:] if n else ()

    @property
    def trick_winners(self) -> Tuple[Seat, ...]:
        """The winner of each completed trick, in order."""
        out = []
        for trick in self.tricks:
            if len(trick) == 4:
                out.append(trick_winner([c for _, c in trick], trick[0][0], self.trump))
        return tuple(out)

    @property
    def declarer_tricks(self) -> int:
        """Completed tricks won by declarer's side (0 before the play)."""
        if self.declarer is None:
            return 0
        return sum(1 for w in self.trick_winners if w.side == self.declarer.side)

    @property
    def defender_tricks(self) -> int:
        """Completed tricks won by the defenders."""
        return len(self.trick_winners) - self.declarer_tricks

    def played_by(self, seat: Seat) -> Tuple[Card, ...]:
        """The cards ``seat`` has played, in order."""
        return tuple(c for s, c in self.played if s == seat)

    @property
    def voids(self) -> Dict[Seat, FrozenSet[Suit]]:
        """For each seat, the suits it has shown out of (failed to follow)."""
        out: Dict[Seat, set] = {s: set() for s in Seat}
        for trick in self.tricks:
            led = trick[0][1].suit
            for s, c in trick[1:]:
                if c.suit != led:
                    out[s].add(led)
        return {s: frozenset(v) for s, v in out.items()}

    def known_cards(self, seat: Seat) -> Hand:
        """The cards this view places in ``seat``'s original hand: all 13 for the viewer
        and (once faced) dummy, the cards it has played for the others."""
        seat = Seat.coerce(seat)
        if seat == self.seat:
            return self.original_hand
        if self.original_dummy is not None and seat == self.dummy:
            return self.original_dummy
        return Hand(self.played_by(seat))

    def cards_held(self, seat: Seat) -> int:
        """How many cards ``seat`` still holds (the current trick's cards excluded)."""
        return 13 - len(self.played_by(Seat.coerce(seat)))

    @property
    def hidden_seats(self) -> Tuple[Seat, ...]:
        """The seats whose remaining cards this view does not show."""
        shown = {self.seat}
        if self.original_dummy is not None:
            shown.add(self.dummy)
        return tuple(s for s in Seat if s not in shown)

    @property
    def unseen_cards(self) -> CardSet:
        """The cards whose place the view does not show (held by :attr:`hidden_seats`)."""
        known = self.original_hand.mask | _mask(c for _, c in self.played)
        if self.original_dummy is not None:
            known |= self.original_dummy.mask
        return CardSet.from_mask(FULL_DECK_MASK & ~known)

    @property
    def controls(self) -> Tuple[Seat, ...]:
        """The seats whose cards this view's seat plays: itself (unless it is dummy), and
        dummy too when it is declarer."""
        if self.declarer is not None and self.seat == self.dummy:
            return ()
        if self.declarer is not None and self.seat == self.declarer:
            return (self.seat, self.dummy)
        return (self.seat,)

    # -- identity -----------------------------------------------------------------------------
    def fingerprint(self) -> str:
        """A stable text digest of the view (same on every machine and Python version):
        seeded players derive their random numbers from it, so that a decision depends on
        nothing but the view and the seed."""
        parts = [self.seat.letter, self.original_hand.to_pbn(), self.dealer.letter,
                 self.vulnerability.pbn, self.scoring,
                 " ".join(str(c) for c in self.calls),
                 "" if self.original_dummy is None else self.original_dummy.to_pbn(),
                 " ".join(f"{s.letter}{c}" for s, c in self.played)]
        return hashlib.sha256("|".join(parts).encode("ascii")).hexdigest()

    def check(self) -> "SeatView":
        """Check that this view is one :func:`seat_view` builds: a view made with the
        dataclass's constructor is not checked, so the computer players call this first.

        A view found consistent is not checked again (it is immutable): the players and
        the sampler each call this at no extra cost.

        :returns: ``self``.
        :raises InvalidViewError: naming the first problem :func:`seat_view` finds (a
            field of the wrong type included), or the fields that disagree with the rest
            (e.g. ``legal_cards`` or ``hand`` that the play does not give).
        """
        if self.__dict__.get("_checked"):
            return self
        try:
            given = self.to_dict()
            given["explanations"] = self.explanations
            rebuilt = seat_view(**given)
        except (BridgeError, TypeError, ValueError, AttributeError, KeyError) as exc:
            raise InvalidViewError(f"inconsistent SeatView: {exc}") from None
        if rebuilt != self:
            wrong = [f.name for f in fields(self)
                     if getattr(rebuilt, f.name) != getattr(self, f.name)]
            raise InvalidViewError(f"inconsistent SeatView: {', '.join(wrong)} disagree "
                                   f"with the rest (build views with seat_view)")
        self.__dict__["_checked"] = True     # not a field: equality and hash ignore it
        return self

    def to_dict(self) -> dict:
        """JSON-ready form; :func:`seat_view` ``(**view.to_dict())`` gives the view back
        (explanations excepted: they are written as their texts)."""
        return {
            "seat": self.seat.letter,
            "hand": self.original_hand.to_pbn(),
            "dealer": self.dealer.letter,
            "vulnerability": self.vulnerability.pbn,
            "scoring": self.scoring,
            "auction": [str(c) for c in self.calls],
            "explanations": None if self.explanations is None
            else [getattr(e, "text", str(e)) for e in self.explanations],
            "played": [[s.letter, str(c)] for s, c in self.played],
            "dummy_hand": None if self.original_dummy is None else self.original_dummy.to_pbn(),
        }


def _parse_calls(auction, dealer: Seat) -> Auction:
    if isinstance(auction, Auction):
        if auction.dealer != dealer:
            raise InvalidViewError(f"the auction's dealer {auction.dealer.name.title()} is not the "
                                   f"board's dealer {dealer.name.title()}")
        return auction.copy()
    if auction is None:
        return Auction(dealer)
    if isinstance(auction, str):
        return Auction.from_str(dealer, auction) if auction.strip() else Auction(dealer)
    try:
        calls = list(auction)
    except TypeError:
        raise TypeError(f"auction must be an Auction, text or a list of calls, got "
                        f"{type(auction).__name__}") from None
    return Auction(dealer, calls)


def _as_tuple(value, what: str) -> tuple:
    """``value``'s items; text, or a value that is not iterable, is a :exc:`TypeError`
    whose message is ``what`` and what it got."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{what}, not text")
    try:
        return tuple(value)
    except TypeError:
        raise TypeError(f"{what}, got {type(value).__name__}") from None


def _parse_played(played) -> list:
    if played is None:
        return []
    items = _as_tuple(played, "played must be a list of (seat, card) pairs")
    out = []
    for i, item in enumerate(items):
        try:
            # a two-letter card such as "SA" would unpack into a seat and a card
            if isinstance(item, (str, bytes)):
                raise TypeError
            seat, card = item
        except (TypeError, ValueError):
            raise InvalidViewError(f"played[{i}] must be a (seat, card) pair, got "
                                   f"{item!r}") from None
        out.append((Seat.coerce(seat), _as_card(card)))
    return out


def _original(hand: Hand, played_by_seat: Sequence[Card], seat: Seat, what: str) -> Hand:
    """The 13-card hand from either the original hand or the cards still held."""
    own = _mask(played_by_seat)
    n = len(hand)
    if n == 13:
        missing = own & ~hand.mask
        if missing:
            card = next(cards_of_mask(missing))
            raise InvalidViewError(f"{seat.name.title()} played {card}, which is not in {what} "
                                   f"{hand.to_pbn()}")
        return hand
    if n == 13 - len(played_by_seat):
        if hand.mask & own:
            card = next(cards_of_mask(hand.mask & own))
            raise InvalidViewError(f"{card} is both held by {seat.name.title()} and played")
        return Hand(hand.mask | own)
    if not played_by_seat:
        raise InvalidViewError(f"{what} has {n} card{'s' * (n != 1)}; expected 13")
    raise InvalidViewError(
        f"{what} has {n} card{'s' * (n != 1)}; expected 13 (the original hand) or "
        f"{13 - len(played_by_seat)} (the cards still held after "
        f"{len(played_by_seat)} played)")


def seat_view(seat, hand, *, dealer, vulnerability, auction=None, explanations=None,
              played=(), dummy_hand=None, scoring: str = "IMP") -> SeatView:
    """Build and check the view of ``seat``, from what that seat may see only.

    :param seat: the viewer (a :class:`Seat`, its letter or 0..3).
    :param hand: the viewer's cards: its 13 original cards, or the cards it still holds
        (a :class:`Hand`, PBN hand text ``"AK2.QJ3.T54.8762"``, or a list of cards).
    :param dealer: the board's dealer.
    :param vulnerability: the board's vulnerability (a :class:`Vulnerability`, ``"All"``,
        ``"NS"``, ``"None"``, ...).
    :param auction: the calls so far: an :class:`Auction`, text (``"1NT Pass 3NT"``) or a
        list of calls; ``None`` for none.
    :param explanations: one explanation per call, or ``None``.
    :param played: the cards played so far, ``(seat, card)`` pairs in order; the opening
        lead is by declarer's left-hand opponent and each trick's winner leads next.
    :param dummy_hand: dummy's cards (13 original or those still held), required from the
        moment the opening lead is faced and refused before it.
    :param scoring: ``"IMP"`` or ``"MP"``.
    :raises InvalidViewError: a played item that is not a ``(seat, card)`` pair (a card
        alone, such as ``"SA"``), a hand of the wrong size, a card both held and played or
        played twice, a card played out of turn or by the wrong seat, a revoke, dummy's hand
        missing after the opening lead or shown before it, explanations that do not match
        the calls, cards played before the auction ended or on a passed-out board,
        unreadable text in a hand (PBN hand text, or a card of a list), a scoring other
        than ``"IMP"`` or ``"MP"``.
    :raises IllegalCallError: an illegal call in the auction.
    :raises InvalidNotationError: unreadable text (a seat, a played card, a call or the
        vulnerability).
    :raises TypeError: an argument of the wrong type (``explanations`` or ``played`` that
        is not a sequence, a hand that is none of the forms above, ...).
    """
    seat = Seat.coerce(seat)
    dealer = Seat.coerce(dealer)
    vulnerability = Vulnerability.coerce(vulnerability)
    if scoring not in SCORINGS:
        raise InvalidViewError(f"scoring must be one of {SCORINGS}, got {scoring!r}")
    auc = _parse_calls(auction, dealer)
    calls = tuple(auc.calls)
    if explanations is not None:
        explanations = _as_tuple(explanations,
                                 "explanations must be a sequence (one per call) or None")
        if len(explanations) != len(calls):
            raise InvalidViewError(f"{len(explanations)} explanations for {len(calls)} calls")
    plays = _parse_played(played)
    hand = _as_hand(hand, f"{seat.name.title()}'s hand")
    own_played = [c for s, c in plays if s == seat]
    original = _original(hand, own_played, seat, f"{seat.name.title()}'s hand")

    contract = declarer = None
    if auc.is_finished and not auc.is_passed_out:
        contract = auc.contract
        declarer = auc.declarer
    if plays and contract is None:
        raise InvalidViewError("cards were played but the auction is not over"
                               if not auc.is_finished else
                               "cards were played on a passed-out board")
    dummy = None if declarer is None else declarer.partner
    if plays and plays[0][0] != declarer.lho:
        # checked before dummy's hand is asked for: the lead out of turn is the problem
        first, card = plays[0]
        raise InvalidViewError(f"card 1 ({card}) is attributed to {first.name.title()}, "
                               f"but {declarer.lho.name.title()} was to play")

    original_dummy = None
    if dummy is not None and (plays or dummy_hand is not None):
        if seat == dummy:
            if dummy_hand is not None and _as_hand(dummy_hand, "dummy's hand").mask \
                    not in (original.mask, hand.mask):
                raise InvalidViewError("dummy's hand differs from dummy's own hand")
            if plays:
                original_dummy = original
        else:
            if dummy_hand is None:
                if plays:
                    raise InvalidViewError("dummy's hand is faced after the opening lead: "
                                           "give dummy_hand")
            else:
                if not plays:
                    raise InvalidViewError("dummy's hand is not faced before the opening "
                                           "lead")
                dh = _as_hand(dummy_hand, "dummy's hand")
                original_dummy = _original(dh, [c for s, c in plays if s == dummy], dummy,
                                           "dummy's hand")
                if original_dummy.mask & original.mask:
                    card = next(cards_of_mask(original_dummy.mask & original.mask))
                    raise InvalidViewError(f"{card} is in both {seat.name.title()}'s hand and "
                                           f"dummy's")
    elif dummy_hand is not None:
        raise InvalidViewError("dummy's hand is not faced before the opening lead")

    # replay the play: turn, uniqueness, and follow suit where the holding is known
    known = {seat: original.mask}
    if original_dummy is not None:
        known[dummy] = original_dummy.mask
    seen = 0
    voids: Dict[Seat, int] = {s: 0 for s in Seat}
    held = dict(known)
    leader = None if declarer is None else declarer.lho
    trick: list = []
    trump = None if contract is None else contract.strain
    for i, (s, c) in enumerate(plays):
        expected = leader.next(len(trick))
        if s != expected:
            raise InvalidViewError(f"card {i + 1} ({c}) is attributed to {s.name.title()}, but "
                                   f"{expected.name.title()} was to play")
        if seen & c.bit:
            raise InvalidViewError(f"{c} is played twice")
        for other, m in known.items():
            if other != s and m & c.bit:
                raise InvalidViewError(f"{c} played by {s.name.title()} is held by "
                                       f"{other.name.title()}")
        if s in held:
            if not held[s] & c.bit:
                raise InvalidViewError(f"{s.name.title()} played {c}, which it does not hold")
        if trick:
            led = trick[0][1].suit
            if c.suit != led:
                if s in held and (held[s] >> (16 * led)) & _SUIT_MASK:
                    raise InvalidViewError(f"{s.name.title()} played {c} on a {led.name.lower()} "
                                           f"lead while holding {led.name.lower()} (revoke)")
                voids[s] |= 1 << led
        if voids[s] & (1 << c.suit):
            raise InvalidViewError(f"{s.name.title()} played {c} after showing out of "
                                   f"{c.suit.name.lower()} (revoke)")
        if s in held:
            held[s] &= ~c.bit
        seen |= c.bit
        trick.append((s, c))
        if len(trick) == 4:
            leader = trick_winner([x for _, x in trick], trick[0][0], trump)
            trick = []
    if len(plays) > 52:
        raise InvalidViewError(f"{len(plays)} cards played: at most 52")

    to_play = None
    if contract is not None and len(plays) < 52:
        to_play = leader.next(len(trick))
    legal: Tuple[Card, ...] = ()
    if to_play is not None:
        controller = declarer if to_play == dummy else to_play
        if controller == seat and to_play in held:
            m = held[to_play]
            if trick:
                led = trick[0][1].suit
                follow = m & (_SUIT_MASK << (16 * led))
                if follow:
                    m = follow
            legal = tuple(sorted(cards_of_mask(m), key=lambda c: (-c.suit, -c.rank)))
    remaining = Hand(held[seat])
    dummy_left = None if original_dummy is None else Hand(held[dummy])
    view = SeatView(seat=seat, hand=remaining, dealer=dealer, vulnerability=vulnerability,
                    scoring=scoring, calls=calls, explanations=explanations,
                    played=tuple(plays), dummy_hand=dummy_left, original_hand=original,
                    original_dummy=original_dummy, contract=contract, declarer=declarer,
                    to_play=to_play, legal_cards=legal)
    view.__dict__["_checked"] = True     # built and checked here (SeatView.check)
    return view


@dataclass(frozen=True)
class Claim:
    """A claim (WBF Laws 2017, Law 68): what a player may return from
    :meth:`Player.card` instead of a card.

    :ivar tricks: how many of the tricks not yet completed (the trick in progress
        included) the claimer's side will take, 0 .. ``13 - completed tricks``; the other
        side gets the rest (a claim of 0 concedes them all).  The table accepts the claim
        when it holds against every defence (double dummy on the real deal) and otherwise
        asks for a card again (:func:`ai.game.play_board`).
    """

    tricks: int

    def __post_init__(self):
        t = self.tricks
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= 13:
            raise ValueError(f"a claim is a number of tricks 0..13, got {t!r}")


@runtime_checkable
class Player(Protocol):
    """The interface of every player, human or computer.

    A player is asked for a call when its seat is to act in the auction, and for a card
    when its seat is to play (declarer is also asked for dummy's cards: then
    ``view.to_play`` is dummy's seat).  It sees only the :class:`SeatView` it is given.
    """

    def call(self, view: SeatView) -> Call:
        """The call of ``view.seat`` (a legal call; the auction is ``view.auction``)."""
        ...

    def card(self, view: SeatView) -> Card:
        """The card for ``view.to_play``: one of ``view.legal_cards`` (or a
        :class:`Claim` of the remaining tricks)."""
        ...
