"""Seats, sides, vulnerability, and the duplicate board cycle.

The board cycle (dealer and vulnerability by board number) is the standard 16-board
duplicate cycle of the WBF Laws (Law 2): board 17 is dealt like board 1, and so on.
"""

from __future__ import annotations

from enum import IntEnum

from ._coerce import enum_member
from .errors import InvalidNotationError, brief_repr

__all__ = ["Seat", "Side", "Vulnerability", "board_dealer", "board_vulnerability"]


class Seat(IntEnum):
    """A seat at the table, clockwise: NORTH=0, EAST=1, SOUTH=2, WEST=3."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def letter(self) -> str:
        return "NESW"[self]

    @property
    def lho(self) -> "Seat":
        """Left-hand opponent: the next seat clockwise (plays after this seat)."""
        return Seat((self + 1) % 4)

    @property
    def partner(self) -> "Seat":
        return Seat((self + 2) % 4)

    @property
    def rho(self) -> "Seat":
        """Right-hand opponent: the previous seat clockwise."""
        return Seat((self + 3) % 4)

    def next(self, steps: int = 1) -> "Seat":
        """The seat ``steps`` places clockwise (``steps`` may be negative)."""
        return Seat((self + steps) % 4)

    @property
    def side(self) -> "Side":
        return Side(self % 2)

    @classmethod
    def from_str(cls, text: str) -> "Seat":
        """Parse ``N E S W`` or ``North``... (any case).

        :raises InvalidNotationError: if ``text`` names no seat or is not a string.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid seat {brief_repr(text)}: expected a string")
        key = text.strip().upper()
        for seat in Seat:
            if key in (seat.letter, seat.name):
                return seat
        raise InvalidNotationError(f"invalid seat {brief_repr(text)}")

    @classmethod
    def coerce(cls, value) -> "Seat":
        """A Seat from a Seat, its letter or name, or 0..3; errors as
        :func:`ddsolver._coerce.enum_member` (TypeError, InvalidNotationError)."""
        return enum_member(cls, value, "seat")

    def __str__(self) -> str:
        return self.letter


class Side(IntEnum):
    """A partnership: NS=0 (North-South), EW=1 (East-West)."""

    NS = 0
    EW = 1

    @property
    def seats(self) -> tuple:
        return (Seat(self), Seat(self + 2))

    @property
    def opponents(self) -> "Side":
        return Side(1 - self)

    @classmethod
    def from_str(cls, text: str) -> "Side":
        """Parse ``NS`` or ``EW`` (any case, either order, ``N-S`` and ``E/W`` too).

        :raises InvalidNotationError: if ``text`` names no side or is not a string.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid side {brief_repr(text)}: expected a string")
        key = text.strip().upper().replace("-", "").replace("/", "")
        if key in ("NS", "SN"):
            return Side.NS
        if key in ("EW", "WE"):
            return Side.EW
        raise InvalidNotationError(f"invalid side {brief_repr(text)}")

    def __str__(self) -> str:
        return self.name


#: The vulnerabilities :meth:`Vulnerability.from_str` reads, for its messages.
_VUL_NAMES = "None, NS, EW or All (also Love, -, N-S, E-W, Both; LIN o, n, e, b)"


class Vulnerability(IntEnum):
    """Which sides are vulnerable: NONE, NS, EW or BOTH."""

    NONE = 0
    NS = 1
    EW = 2
    BOTH = 3

    def is_vulnerable(self, side_or_seat: "Side | Seat") -> bool:
        """Whether a side (or the side of a seat) is vulnerable."""
        if isinstance(side_or_seat, Seat):
            side_or_seat = side_or_seat.side
        return bool(self & (1 << int(side_or_seat)))

    @classmethod
    def from_sides(cls, ns: bool, ew: bool) -> "Vulnerability":
        return cls(int(ns) | (int(ew) << 1))

    @property
    def pbn(self) -> str:
        """The PBN 2.1 ``Vulnerable`` tag value: ``None``, ``NS``, ``EW`` or ``All``."""
        return ("None", "NS", "EW", "All")[self]

    @classmethod
    def from_str(cls, text: str) -> "Vulnerability":
        """Parse PBN (``None``/``Love``/``-``, ``NS``, ``EW``, ``All``/``Both``), LIN
        (``o``, ``n``, ``e``, ``b``) or DDS names.

        :raises InvalidNotationError: if ``text`` is none of these, or empty (the message
            names the accepted values).
        :raises TypeError: if ``text`` is not a string (:meth:`coerce` takes 0..3 too).
        """
        if not isinstance(text, str):
            raise TypeError(f"a vulnerability must be text such as None, NS, EW or All, got "
                            f"{type(text).__name__} {brief_repr(text)}")
        if not text.strip():
            raise InvalidNotationError(f"empty vulnerability: give one of {_VUL_NAMES}")
        key = text.strip().upper().replace("-", "").replace("/", "").replace(" ", "")
        table = {
            "NONE": 0, "LOVE": 0, "": 0, "O": 0, "0": 0, "NEITHER": 0,
            "NS": 1, "N": 1, "NORTHSOUTH": 1,
            "EW": 2, "E": 2, "EASTWEST": 2,
            "ALL": 3, "BOTH": 3, "B": 3,
        }
        if key in table:
            return cls(table[key])
        raise InvalidNotationError(f"invalid vulnerability {brief_repr(text)}: one of {_VUL_NAMES}")

    @classmethod
    def coerce(cls, value) -> "Vulnerability":
        """A Vulnerability from a member, any text :meth:`from_str` reads (``"All"``,
        ``"NS"``, ``"None"``, ...) or 0..3; errors as :func:`ddsolver._coerce.enum_member`
        (TypeError for None, a bool, a float or another type; InvalidNotationError for
        unreadable text or an integer out of range)."""
        return enum_member(cls, value, "vulnerability")

    def __str__(self) -> str:
        return self.pbn


# Standard 16-board cycle (WBF Laws, Law 2).
_CYCLE_VUL = "NONE NS EW BOTH NS EW BOTH NONE EW BOTH NONE NS BOTH NONE NS EW".split()


def board_dealer(board: int) -> Seat:
    """Dealer of a duplicate board: N, E, S, W repeating from board 1.

    :raises ValueError: if ``board`` < 1.
    """
    if int(board) < 1:
        raise ValueError(f"board numbers start at 1, got {brief_repr(board)}")
    return Seat((int(board) - 1) % 4)


def board_vulnerability(board: int) -> Vulnerability:
    """Vulnerability of a duplicate board by the standard 16-board cycle (Law 2).

    :raises ValueError: if ``board`` < 1.
    """
    if int(board) < 1:
        raise ValueError(f"board numbers start at 1, got {brief_repr(board)}")
    return Vulnerability[_CYCLE_VUL[(int(board) - 1) % 16]]
