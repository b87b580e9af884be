"""Calls and the auction: legality, end of the auction, contract, declarer.

Rules (Laws of Duplicate Bridge, WBF 2017):

* The dealer calls first; calls go clockwise (Law 17).
* A bid must name more odd tricks, or the same number in a higher strain, than the last bid
  (Law 18; strains rank C < D < H < S < NT).  A lower bid is *insufficient*.
* Double: only of the last bid, made by an opponent, not yet doubled; Redouble: only of an
  opponent's double of a bid by one's own side, not yet redoubled (Law 19).  A new bid
  cancels any double or redouble.
* Three passes in a row after a bid end the auction; four passes at the start pass the deal
  out (Law 22).  No call may follow (Law 39).
* The last bid is the contract, doubled or redoubled as the auction left it.  Declarer is
  the player of the side that made the final bid who first named its strain (Law 22); the
  opening lead is made by declarer's left-hand opponent, and declarer's partner is dummy.

:class:`~ddsolver.contract.Contract` is defined in :mod:`ddsolver.contract` and re-exported
here.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator, List, Optional, Tuple, Union

from .cards import Strain
from .contract import Contract
from .errors import AuctionFinishedError, IllegalCallError, InvalidNotationError, brief_repr
from .table import Seat

__all__ = ["Call", "Auction", "Contract", "PASS", "DOUBLE", "REDOUBLE"]

_PASS, _DOUBLE, _REDOUBLE, _BID = 0, 1, 2, 3


class Call:
    """One call of the auction: a bid (level 1-7 and a strain), Pass, Double or Redouble.

    Immutable and hashable; there is exactly one object per call, so ``is`` works too.

    Notation: ``str(call)`` is the PBN form (``"1C"`` ... ``"7NT"``, ``"Pass"``, ``"X"``,
    ``"XX"``); :meth:`from_str` reads that and common variants.  :attr:`symbol` gives
    ``"1♠"``.
    """

    __slots__ = ("_kind", "_level", "_strain")

    _kind: int
    _level: Optional[int]
    _strain: Optional[Strain]

    def __new__(cls, kind: int, level: Optional[int] = None,
                strain: Optional[Strain] = None) -> "Call":
        key = (kind, level, strain)
        cached = _CALL_CACHE.get(key)
        if cached is not None:
            return cached
        raise InvalidNotationError(
            f"invalid call (kind={brief_repr(kind)}, level={brief_repr(level)}, "
            f"strain={brief_repr(strain)}); use "
            f"Call.bid(level, strain), Call.from_str(text), PASS, DOUBLE or REDOUBLE")

    @classmethod
    def _make(cls, kind: int, level: Optional[int] = None,
              strain: Optional[Strain] = None) -> "Call":
        call = object.__new__(cls)
        object.__setattr__(call, "_kind", kind)
        object.__setattr__(call, "_level", level)
        object.__setattr__(call, "_strain", strain)
        _CALL_CACHE[(kind, level, strain)] = call
        return call

    def __setattr__(self, name, value):  # pragma: no cover - immutability guard
        raise AttributeError("Call is immutable")

    def __reduce__(self):
        return (Call.from_str, (str(self),))

    # -- construction -------------------------------------------------------------------
    @classmethod
    def bid(cls, level: int, strain: "Strain | str") -> "Call":
        """The bid of ``level`` (1..7) in ``strain`` (a :class:`Strain` or its letter).

        :raises InvalidNotationError: for a level outside 1..7 or an unknown strain.
        """
        if isinstance(strain, str):
            strain = Strain.from_str(strain)
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 7 \
                or isinstance(strain, bool) or not isinstance(strain, int) \
                or not 0 <= strain <= 4:
            raise InvalidNotationError(
                f"invalid bid: level {brief_repr(level)}, strain {brief_repr(strain)} "
                f"(level must be 1..7)")
        key = (_BID, int(level), Strain(int(strain)))
        return _CALL_CACHE[key]

    @classmethod
    def from_str(cls, text: str) -> "Call":
        """Parse a call, any case, surrounding spaces ignored.

        Bids: ``"1NT"``, ``"1N"``, ``"2♠"``, ``"2s"``, ``"7 NT"``.  Pass: ``"P"``,
        ``"Pass"``.  Double: ``"X"``, ``"D"``, ``"Dbl"``,
        ``"Double"``.  Redouble: ``"XX"``, ``"R"``, ``"Rdbl"``, ``"Redouble"``.  A trailing
        alert mark ``!`` (LIN) is ignored.

        :raises InvalidNotationError: if ``text`` is not a call (the message quotes it).
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid call {brief_repr(text)}: expected a string")
        key = text.strip().rstrip("!").strip().upper()
        special = _SPECIAL_CALLS.get(key)
        if special is not None:
            return special
        m = _BID_RE.match(key)
        if m is None:
            raise InvalidNotationError(f"invalid call {brief_repr(text)}")
        return cls.bid(int(m.group(1)), Strain.from_str(m.group(2)))

    # -- properties ---------------------------------------------------------------------
    @property
    def is_bid(self) -> bool:
        return self._kind == _BID

    @property
    def is_pass(self) -> bool:
        return self._kind == _PASS

    @property
    def is_double(self) -> bool:
        return self._kind == _DOUBLE

    @property
    def is_redouble(self) -> bool:
        return self._kind == _REDOUBLE

    @property
    def level(self) -> Optional[int]:
        """1..7 for a bid, ``None`` otherwise."""
        return self._level

    @property
    def strain(self) -> Optional[Strain]:
        """The strain of a bid, ``None`` otherwise."""
        return self._strain

    @property
    def index(self) -> Optional[int]:
        """Rank of a bid in bidding order, 0 (1C) .. 34 (7NT); ``None`` for other calls."""
        if self._kind != _BID:
            return None
        return 5 * (self._level - 1) + int(self._strain)

    @property
    def symbol(self) -> str:
        """``"1♠"`` style for bids; the same as ``str`` for the other calls."""
        if self._kind != _BID:
            return str(self)
        return f"{self._level}{self._strain.symbol}"

    # -- dunder -------------------------------------------------------------------------
    def __str__(self) -> str:
        if self._kind == _BID:
            return f"{self._level}{self._strain.letter}"
        return ("Pass", "X", "XX")[self._kind]

    def __repr__(self) -> str:
        return f"Call.from_str({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return hash(("Call", self._kind, self._level, self._strain))

    def __lt__(self, other: "Call") -> bool:
        """Bids order by rank (1C < 1D < ... < 7NT); other calls are not ordered."""
        if not isinstance(other, Call) or not (self.is_bid and other.is_bid):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: "Call") -> bool:
        if not isinstance(other, Call) or not (self.is_bid and other.is_bid):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: "Call") -> bool:
        if not isinstance(other, Call) or not (self.is_bid and other.is_bid):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: "Call") -> bool:
        if not isinstance(other, Call) or not (self.is_bid and other.is_bid):
            return NotImplemented
        return self.index >= other.index


_CALL_CACHE: dict = {}
_BID_RE = re.compile(r"^([1-7])\s*(NT|N|C|D|H|S|♣|♦|♥|♠|♧|♢|♡|♤)$")

#: The call Pass.
PASS = Call._make(_PASS)
#: The call Double.
DOUBLE = Call._make(_DOUBLE)
#: The call Redouble.
REDOUBLE = Call._make(_REDOUBLE)
#: All 35 bids in bidding order, 1C first.
BIDS: Tuple[Call, ...] = tuple(Call._make(_BID, lv, s) for lv in range(1, 8) for s in Strain)

_SPECIAL_CALLS = {
    "P": PASS, "PASS": PASS, "PA": PASS,
    "X": DOUBLE, "D": DOUBLE, "DBL": DOUBLE, "DOUBLE": DOUBLE,
    "XX": REDOUBLE, "R": REDOUBLE, "RDBL": REDOUBLE, "REDOUBLE": REDOUBLE,
}

CallLike = Union[Call, str]


def _as_call(call: CallLike) -> Call:
    if isinstance(call, Call):
        return call
    if isinstance(call, str):
        return Call.from_str(call)
    raise InvalidNotationError(f"invalid call {brief_repr(call)}: expected a Call or a string")


class Auction:
    """The calls of one deal, starting with ``dealer``, and what follows from them.

    ``Auction(Seat.NORTH, ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"])``;
    :meth:`add` appends one call after checking it is legal.

    State: :attr:`calls`, :attr:`to_act`, :attr:`is_finished`, :attr:`is_passed_out`,
    :attr:`last_bid`, :attr:`last_bidder`, :attr:`doubled`.  Once finished:
    :attr:`contract` (with declarer), :attr:`declarer`, :attr:`dummy`,
    :attr:`opening_leader`.

    :raises InvalidNotationError: for a dealer or a call that cannot be read.
    :raises IllegalCallError: if one of ``calls`` is illegal where it stands.
    """

    __slots__ = ("_dealer", "_calls", "_last_bid_at", "_doubled_at", "_doubled",
                 "_passes", "_finished")

    def __init__(self, dealer: "Seat | str", calls: Iterable[CallLike] = ()):
        if isinstance(dealer, str):
            dealer = Seat.from_str(dealer)
        elif not isinstance(dealer, Seat):
            if isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer <= 3:
                dealer = Seat(dealer)
            else:
                raise InvalidNotationError(f"invalid dealer {brief_repr(dealer)}")
        self._dealer: Seat = dealer
        self._calls: List[Call] = []
        self._last_bid_at: Optional[int] = None   # index of the last bid in _calls
        self._doubled: int = 0                    # 0, 1, 2 for the last bid
        self._passes: int = 0                     # passes in a row at the end
        self._finished: bool = False
        for call in calls:
            self.add(call)

    @classmethod
    def from_str(cls, dealer: "Seat | str", text: str) -> "Auction":
        """An auction from calls separated by spaces or commas: ``"1NT P 3NT P P P"``.

        Dashes between calls (``"1NT – Pass – 3NT"``) are ignored, and ``AP`` or
        ``all pass`` passes until the auction ends.

        :raises InvalidNotationError: for a token that is not a call.
        :raises IllegalCallError: for an illegal call (message names it and its position).
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid auction {brief_repr(text)}: expected a string")
        auction = cls(dealer)
        tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t not in ("", "-", "–", "—")]
        i = 0
        while i < len(tokens):
            tok = tokens[i].upper()
            if tok in ("AP", "ALLPASS") or (tok == "ALL" and i + 1 < len(tokens)
                                             and tokens[i + 1].upper() in ("PASS", "P")):
                if auction.is_finished:
                    raise AuctionFinishedError(
                        f"{brief_repr(tokens[i])} after the auction has ended in "
                        f"{brief_repr(text)}")
                while not auction.is_finished:
                    auction.add(PASS)
                i += 2 if tok == "ALL" else 1
                continue
            auction.add(tokens[i])
            i += 1
        return auction

    # -- adding calls ---------------------------------------------------------------------
    def _illegal_reason(self, call: Call) -> Optional[str]:
        """Why ``call`` is illegal now, or ``None`` when it is legal."""
        if self._finished:
            return "the auction has ended"
        seat = self.to_act
        if call.is_pass:
            return None
        last = self.last_bid
        if call.is_bid:
            if last is not None and call.index <= last.index:
                return (f"insufficient bid: it must be higher than the last bid {last} "
                        f"(by {self.last_bidder.name.title()})")
            return None
        if last is None:
            return "there is no bid to " + ("double" if call.is_double else "redouble")
        bidder = self.last_bidder
        own_side = bidder.side == seat.side
        if call.is_double:
            if own_side:
                return (f"the last bid {last} was made by {bidder.name.title()}, "
                        f"{seat.name.title()}'s own side")
            if self._doubled == 1:
                return f"the last bid {last} is already doubled"
            if self._doubled == 2:
                return f"the last bid {last} is already redoubled"
            return None
        # redouble
        if self._doubled == 0:
            return f"the last bid {last} has not been doubled"
        if self._doubled == 2:
            return f"the last bid {last} is already redoubled"
        if not own_side:
            return (f"only {bidder.name.title()}'s side may redouble its own doubled bid {last}")
        return None

    def add(self, call: CallLike) -> "Auction":
        """Append ``call`` (a :class:`Call` or its text) for the seat to act.

        :returns: this auction, so calls can be chained.
        :raises InvalidNotationError: if ``call`` is text that is not a call.
        :raises AuctionFinishedError: if the auction has already ended (Law 39).
        :raises IllegalCallError: for an insufficient bid (Law 18) or an inadmissible
            double or redouble (Law 19); the message names the call, the seat and why.
        """
        call = _as_call(call)
        reason = self._illegal_reason(call)
        if reason is not None:
            where = f"call {len(self._calls) + 1}"
            if self._finished:
                raise AuctionFinishedError(
                    f"{call} is illegal at {where}: {reason} ({self._short()})")
            raise IllegalCallError(
                f"{call} by {self.to_act.name.title()} is illegal at {where}: {reason} "
                f"(auction so far: {self._short() or 'none'})")
        self._push(call)
        return self

    def _push(self, call: Call) -> None:
        self._calls.append(call)
        if call.is_bid:
            self._last_bid_at = len(self._calls) - 1
            self._doubled = 0
            self._passes = 0
        elif call.is_double:
            self._doubled = 1
            self._passes = 0
        elif call.is_redouble:
            self._doubled = 2
            self._passes = 0
        else:
            self._passes += 1
        if self._last_bid_at is None:
            self._finished = self._passes >= 4
        else:
            self._finished = self._passes >= 3

    def pop(self) -> Call:
        """Remove and return the last call.

        :raises IndexError: if there are no calls.
        """
        if not self._calls:
            raise IndexError("pop from an empty auction")
        calls = self._calls[:-1]
        last = self._calls[-1]
        self._calls = []
        self._last_bid_at = None
        self._doubled = 0
        self._passes = 0
        self._finished = False
        for c in calls:
            self._push(c)
        return last

    def is_legal(self, call: CallLike) -> bool:
        """Whether ``call`` may be made now by the seat to act.

        :raises InvalidNotationError: if ``call`` is text that is not a call.
        """
        return self._illegal_reason(_as_call(call)) is None

    def why_illegal(self, call: CallLike) -> Optional[str]:
        """Why ``call`` cannot be made now, in words (``"insufficient bid: it must be
        higher than the last bid 1NT (by North)"``, ``"the auction has ended"``), or
        ``None`` when it is legal (Laws 18-19, 22).

        :raises InvalidNotationError: if ``call`` is text that is not a call.
        """
        return self._illegal_reason(_as_call(call))

    def legal_calls(self) -> List[Call]:
        """Every legal call now: Pass, Double/Redouble when allowed, then the sufficient
        bids in bidding order.  Empty once the auction has ended."""
        if self._finished:
            return []
        out = [PASS]
        for c in (DOUBLE, REDOUBLE):
            if self._illegal_reason(c) is None:
                out.append(c)
        last = self.last_bid
        start = 0 if last is None else last.index + 1
        out.extend(BIDS[start:])
        return out

    # -- state ------------------------------------------------------------------------------
    @property
    def dealer(self) -> Seat:
        return self._dealer

    @property
    def calls(self) -> Tuple[Call, ...]:
        return tuple(self._calls)

    def seat_of(self, index: int) -> Seat:
        """The seat that made (or makes) call number ``index`` (0-based; negative counts
        from the end as for lists)."""
        if index < 0:
            index += len(self._calls)
        return self._dealer.next(index)

    def items(self) -> Iterator[Tuple[Seat, Call]]:
        """``(seat, call)`` pairs in order."""
        for i, c in enumerate(self._calls):
            yield self._dealer.next(i), c

    @property
    def to_act(self) -> Optional[Seat]:
        """The seat whose turn it is to call, or ``None`` once the auction has ended."""
        if self._finished:
            return None
        return self._dealer.next(len(self._calls))

    @property
    def is_finished(self) -> bool:
        """Ended: three passes after a bid, or four passes (passed out)."""
        return self._finished

    @property
    def is_passed_out(self) -> bool:
        """Ended with four passes and no bid."""
        return self._finished and self._last_bid_at is None

    @property
    def last_bid(self) -> Optional[Call]:
        """The last bid so far (not pass/double/redouble), or ``None``."""
        return None if self._last_bid_at is None else self._calls[self._last_bid_at]

    @property
    def last_bidder(self) -> Optional[Seat]:
        """The seat that made the last bid, or ``None``."""
        return None if self._last_bid_at is None else self._dealer.next(self._last_bid_at)

    @property
    def doubled(self) -> int:
        """State of the last bid: 0 undoubled, 1 doubled, 2 redoubled."""
        return self._doubled

    def _declarer_now(self) -> Optional[Seat]:
        if self._last_bid_at is None:
            return None
        strain = self._calls[self._last_bid_at].strain
        side = self.last_bidder.side
        for i, c in enumerate(self._calls):
            if c.is_bid and c.strain == strain and self._dealer.next(i).side == side:
                return self._dealer.next(i)
        raise AssertionError("unreachable: the last bid names its own strain")

    @property
    def current_contract(self) -> Optional[Contract]:
        """The contract if the auction ended now (last bid, its doubled state, and the
        declarer it would have), or ``None`` before any bid.  Useful while bidding."""
        if self._last_bid_at is None:
            return None
        last = self.last_bid
        return Contract(last.level, last.strain, self._doubled, self._declarer_now())

    @property
    def contract(self) -> Optional[Contract]:
        """The final contract with declarer set; ``None`` while the auction goes on or
        when it was passed out."""
        if not self._finished:
            return None
        return self.current_contract

    @property
    def declarer(self) -> Optional[Seat]:
        """Of the side that made the final bid, the player who first named its strain;
        ``None`` unless the auction ended with a contract."""
        if not self._finished:
            return None
        return self._declarer_now()

    @property
    def dummy(self) -> Optional[Seat]:
        """Declarer's partner, or ``None`` (see :attr:`declarer`)."""
        d = self.declarer
        return None if d is None else d.partner

    @property
    def opening_leader(self) -> Optional[Seat]:
        """Declarer's left-hand opponent, or ``None`` (see :attr:`declarer`)."""
        d = self.declarer
        return None if d is None else d.lho

    # -- container / notation ------------------------------------------------------------
    def copy(self) -> "Auction":
        new = Auction(self._dealer)
        for c in self._calls:
            new._push(c)
        return new

    def __len__(self) -> int:
        return len(self._calls)

    def __iter__(self) -> Iterator[Call]:
        return iter(tuple(self._calls))

    def __getitem__(self, index):
        return self._calls[index]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Auction) and other._dealer == self._dealer
                and other._calls == self._calls)

    def __hash__(self) -> int:
        return hash(("Auction", self._dealer, tuple(self._calls)))

    def _short(self) -> str:
        return " ".join(str(c) for c in self._calls)

    def __str__(self) -> str:
        """Calls in PBN form separated by spaces, e.g. ``"1NT Pass 3NT Pass Pass Pass"``."""
        return self._short()

    def __repr__(self) -> str:
        return f"Auction.from_str({self._dealer.letter!r}, {self._short()!r})"

    def to_table(self, symbols: bool = False) -> str:
        """A bidding diagram with columns W N E S (the usual order), dealer's column first
        filled; ``-`` marks seats before the dealer in the first row."""
        order = [Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH]
        cells = ["-"] * order.index(self._dealer)
        cells += [c.symbol if symbols else str(c) for c in self._calls]
        if not self._finished:
            cells.append("?")
        lines = ["".join(f"{s.name.title():<7}" for s in order).rstrip()]
        for r in range(0, len(cells), 4):
            lines.append("".join(f"{x:<7}" for x in cells[r:r + 4]).rstrip())
        return "\n".join(lines)
