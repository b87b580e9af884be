"""A final contract: level, strain, doubled state and declarer (WBF Laws 18-22 for the
auction that makes it, Law 77 for what it scores).

:class:`Contract` is re-exported by :mod:`ddsolver`, :mod:`ddsolver.scoring` and
:mod:`ddsolver.auction`.  :func:`game_level` is the lowest level of a game in a strain.
"""

from __future__ import annotations

import numbers
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from .cards import Strain
from .errors import InvalidNotationError, brief_repr
from .table import Seat, Side

if TYPE_CHECKING:  # pragma: no cover
    from .table import Vulnerability

__all__ = ["Contract", "game_level"]

#: The lowest level of a game contract by strain, undoubled: 100 trick points need five
#: odd tricks in a minor (20 each), four in a major (30 each), three in notrump (40 + 30 +
#: 30; WBF Law 77).
_GAME_LEVEL = {Strain.CLUBS: 5, Strain.DIAMONDS: 5, Strain.HEARTS: 4, Strain.SPADES: 4,
               Strain.NOTRUMP: 3}


def game_level(strain: Strain | str | int) -> int:
    """The lowest level at which a contract in ``strain`` is a game when undoubled: 5 in
    clubs and diamonds, 4 in hearts and spades, 3 in notrump (100 trick points, WBF Law 77).

    :param strain: a :class:`~ddsolver.cards.Strain`, its letter or 0..4.
    :raises InvalidNotationError: for a strain that names none.
    :raises TypeError: for a strain of another type.
    """
    return _GAME_LEVEL[Strain.coerce(strain)]


_DOUBLED_SUFFIX = {0: "", 1: "X", 2: "XX"}

# level, strain, doubling, declarer.  Spaces between the parts are allowed; "NT" is tried
# before "N" so that "3NTN" is 3NT by North and "3NN" is 3NT by North too.
_CONTRACT_RE = re.compile(
    r"""^\s*([1-7])\s*
        (NT|N|C|D|H|S|♣|♦|♥|♠|♧|♢|♡|♤)\s*
        (XX|X|\*\*|\*|)\s*
        (?:[-/]\s*|BY\s+)?
        (NORTH|EAST|SOUTH|WEST|N|E|S|W|)\s*$""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Contract:
    """A final contract: level 1-7, strain, doubled state, and (optionally) declarer.

    ``doubled`` is 0 (undoubled), 1 (doubled) or 2 (redoubled).  ``declarer`` is a
    :class:`Seat` or ``None`` when unknown.  Immutable, hashable, compares by value.

    Notation: ``str(Contract(4, Strain.SPADES, 1, Seat.NORTH)) == "4SXN"``; notrump is
    written ``NT`` (``"3NTXX"``).  :meth:`from_str` reads that back and more.

    :raises InvalidNotationError: for a level outside 1..7, a doubled state outside 0..2, or
        a strain or seat that cannot be read.
    """

    level: int
    strain: Strain
    doubled: int = 0
    declarer: Optional[Seat] = None

    def __post_init__(self):
        level = self.level
        if isinstance(level, bool) or not isinstance(level, numbers.Integral) \
                or not 1 <= int(level) <= 7:
            raise InvalidNotationError(f"invalid contract level {brief_repr(level)}: must be 1..7")
        object.__setattr__(self, "level", int(level))
        strain = self.strain
        if isinstance(strain, str):
            strain = Strain.from_str(strain)
        elif isinstance(strain, numbers.Integral) and not isinstance(strain, bool) \
                and 0 <= int(strain) <= 4:
            strain = Strain(int(strain))
        else:
            raise InvalidNotationError(f"invalid contract strain {brief_repr(self.strain)}")
        object.__setattr__(self, "strain", strain)
        doubled = self.doubled
        if isinstance(doubled, bool) or not isinstance(doubled, numbers.Integral) \
                or not 0 <= int(doubled) <= 2:
            raise InvalidNotationError(
                f"invalid doubled state {brief_repr(doubled)}: 0 (undoubled), 1 (doubled) "
                f"or 2 (redoubled)")
        object.__setattr__(self, "doubled", int(doubled))
        declarer = self.declarer
        if declarer is not None:
            if isinstance(declarer, str):
                declarer = Seat.from_str(declarer)
            elif isinstance(declarer, numbers.Integral) and not isinstance(declarer, bool) \
                    and 0 <= int(declarer) <= 3:
                declarer = Seat(int(declarer))
            else:
                raise InvalidNotationError(f"invalid declarer {brief_repr(self.declarer)}")
            object.__setattr__(self, "declarer", declarer)

    @classmethod
    def from_str(cls, text: str) -> "Contract":
        """Parse a contract: level, strain, optional ``X``/``XX``, optional declarer seat.

        Accepted (any case, spaces allowed between the parts): ``"2H"``, ``"2♥"``,
        ``"3NT"``, ``"3N"``, ``"4SX"``, ``"3NTXX"``, ``"3NXX"``, ``"4SXN"``, ``"4S X N"``,
        ``"7NTXXS"``, ``"4S*"`` (DDS style doubled), ``"4S-E"``, ``"4S by North"``.

        :raises InvalidNotationError: if ``text`` is not a contract (the message quotes it).
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid contract {brief_repr(text)}: expected a string")
        # runs of white space as one space: the pattern's adjacent optional parts each
        # allow spaces, so a long run that does not match would be split between them in
        # every way (the cube of its length) before the match failed
        m = _CONTRACT_RE.match(" ".join(text.upper().split()))
        if m is None:
            raise InvalidNotationError(f"invalid contract {brief_repr(text)}")
        level, strain, dbl, seat = m.groups()
        doubled = {"": 0, "X": 1, "*": 1, "XX": 2, "**": 2}[dbl]
        declarer = Seat.from_str(seat) if seat else None
        return cls(int(level), Strain.from_str(strain), doubled, declarer)

    def __str__(self) -> str:
        text = f"{self.level}{self.strain.letter}{_DOUBLED_SUFFIX[self.doubled]}"
        if self.declarer is not None:
            text += self.declarer.letter
        return text

    def __repr__(self) -> str:
        return f"Contract.from_str({str(self)!r})"

    @property
    def tricks_needed(self) -> int:
        """Tricks declarer's side must take: 6 + level (7..13)."""
        return 6 + self.level

    @property
    def is_doubled(self) -> bool:
        """True when doubled but not redoubled."""
        return self.doubled == 1

    @property
    def is_redoubled(self) -> bool:
        return self.doubled == 2

    @property
    def side(self) -> Optional[Side]:
        """Declarer's side, or ``None`` when declarer is unknown."""
        return None if self.declarer is None else self.declarer.side

    @property
    def is_game(self) -> bool:
        """Whether making it exactly scores at least 100 trick points (game), doubling
        counted (``2SX`` is a game; WBF Law 77)."""
        from .scoring import trick_points

        return trick_points(self) >= 100

    @property
    def is_slam(self) -> bool:
        """Level 6 or 7."""
        return self.level >= 6

    def with_declarer(self, declarer: Optional[Seat]) -> "Contract":
        """The same contract with another declarer."""
        return Contract(self.level, self.strain, self.doubled, declarer)

    def with_doubled(self, doubled: int) -> "Contract":
        """The same contract doubled 0, 1 or 2 times."""
        return Contract(self.level, self.strain, doubled, self.declarer)

    def score(self, tricks: int, vulnerable: bool | Vulnerability) -> int:
        """The duplicate score for declarer's side: :func:`ddsolver.scoring.score`
        (``score(self, tricks, vulnerable)``), with its errors."""
        from .scoring import score

        return score(self, tricks, vulnerable)
