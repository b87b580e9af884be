"""Hand constraints: the structured meaning of a call.

A :class:`HandConstraints` is a conjunction of simple facts about one hand that any deal
sampler can test cheaply: a high-card-point range, a length range per suit, balanced or not,
the suits in which a stopper is promised and the possible numbers of aces.  Everything a
call of :class:`ai.bidding.StandardAmerican` promises in its explanation is one of these;
the same object is what :mod:`ai.inference` combines across an auction.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import FrozenSet, Optional, Tuple

from ddsolver.cards import Rank, Suit
from ddsolver.deal import Hand

__all__ = ["MAX_HCP", "HandConstraints", "ace_count", "has_stopper"]

#: The most high-card points one hand can hold (four aces, kings, queens and a jack).
MAX_HCP = 37

_SUIT_ORDER_TEXT = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def has_stopper(hand: Hand, suit: Suit) -> bool:
    """Whether ``hand`` stops ``suit`` for notrump: A, Kx, Qxx or Jxxx (or better).

    The usual rule of thumb of bridge textbooks (e.g. Root, *Commonsense Bidding*).
    """
    ranks = hand.holding(suit)
    n = len(ranks)
    if n == 0:
        return False
    if Rank.ACE in ranks:
        return True
    if Rank.KING in ranks and n >= 2:
        return True
    if Rank.QUEEN in ranks and n >= 3:
        return True
    if Rank.JACK in ranks and n >= 4:
        return True
    return False


def ace_count(hand: Hand) -> int:
    """Number of aces in ``hand`` (0..4)."""
    return sum(1 for s in Suit if Rank.ACE in hand.holding(s))


_NO_LENGTHS = ((0, 13),) * 4


def _is_int(x) -> bool:
    """An integer: a Python or NumPy one, not a bool."""
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _range(value, what: str, top: int) -> Tuple[int, int]:
    """``value`` checked as an inclusive ``(min, max)`` range within ``0..top``."""
    if not isinstance(value, (tuple, list)) or len(value) != 2 \
            or not all(_is_int(x) for x in value):
        raise TypeError(f"{what} must be a (min, max) pair of integers, got {value!r}")
    lo, hi = int(value[0]), int(value[1])
    if not (0 <= lo <= top and 0 <= hi <= top):
        raise ValueError(f"{what} must be within 0..{top}, got {value!r}")
    if lo > hi:
        raise ValueError(f"{what} {value!r}: the minimum {lo} exceeds the maximum {hi}")
    return lo, hi


def _collection(value, what: str) -> FrozenSet:
    """``value`` (a set, list or tuple) as a frozenset; ``what`` says what it must be."""
    if not isinstance(value, (set, frozenset, list, tuple)):
        raise TypeError(f"{what}, got {value!r}")
    return frozenset(value)


def _bound_or_none(value, what: str) -> None:
    if value is not None and not _is_int(value):
        raise TypeError(f"{what} must be an integer or None, got {value!r}")


@dataclass(frozen=True)
class HandConstraints:
    """What one call (or a whole auction) says about a hand.

    :param hcp: inclusive ``(min, max)`` high-card points, 0..37 (integers here and in
        every range and count below: Python or NumPy ones, kept as ints).
    :param lengths: four inclusive ``(min, max)`` ranges indexed by :class:`Suit`
        (``lengths[Suit.SPADES]`` is the spade range), each within 0..13.
    :param balanced: ``True`` (4-3-3-3, 4-4-3-2, 5-3-3-2), ``False`` (any other shape)
        or ``None`` (either).
    :param stoppers: suits in which the hand promises a stopper (see :func:`has_stopper`):
        a set (or other collection) of :class:`Suit`, kept as a frozenset.
    :param aces: the possible numbers of aces (a non-empty set of integers 0..4, kept as a
        frozenset), or ``None`` for any.
    :raises TypeError: a field of the wrong type: a range that is not a ``(min, max)`` pair
        of integers, ``lengths`` not four such pairs, ``balanced`` not ``True``, ``False``
        or ``None``, a stopper that is not a :class:`Suit`, ``aces`` not a collection of
        integers.
    :raises ValueError: a value out of range: an HCP bound outside 0..37, a length bound
        outside 0..13, a range whose minimum exceeds its maximum, an ace count outside
        0..4, an empty set of ace counts.

    Every range built here is non-empty; combining constraints (``&``, :meth:`with_hcp`,
    :meth:`with_length`) can still give a contradiction such as an HCP range whose minimum
    exceeds its maximum, which :attr:`is_empty` reports.
    """

    hcp: Tuple[int, int] = (0, MAX_HCP)
    lengths: Tuple[Tuple[int, int], ...] = _NO_LENGTHS
    balanced: Optional[bool] = None
    stoppers: FrozenSet[Suit] = field(default_factory=frozenset)
    aces: Optional[FrozenSet[int]] = None

    # -- construction ---------------------------------------------------------------
    def __post_init__(self) -> None:
        hcp = _range(self.hcp, "hcp", MAX_HCP)
        lengths = self.lengths
        if not isinstance(lengths, (tuple, list)) or len(lengths) != 4:
            raise TypeError(f"lengths must be four (min, max) pairs indexed by Suit (clubs "
                            f"first), got {lengths!r}")
        lengths = tuple(_range(r, f"lengths[{i}] ({Suit(i).name.lower()})", 13)
                        for i, r in enumerate(lengths))
        if self.balanced is not None and not isinstance(self.balanced, bool):
            raise TypeError(f"balanced must be True, False or None, got {self.balanced!r}")
        stoppers = _collection(self.stoppers, "stoppers must be a set of Suits")
        for s in stoppers:
            if not isinstance(s, Suit):
                raise TypeError(f"stoppers must be a set of Suits, got {s!r} in "
                                f"{self.stoppers!r}")
        aces = self.aces
        if aces is not None:
            aces = _collection(aces, "aces must be a set of counts 0..4 or None")
            for a in aces:
                if not _is_int(a):
                    raise TypeError(f"aces must be a set of counts 0..4 or None, got {a!r} in "
                                    f"{self.aces!r}")
                if not 0 <= a <= 4:
                    raise ValueError(f"aces must be a set of counts 0..4 or None, got {a!r} "
                                     f"in {self.aces!r}")
            if not aces:
                raise ValueError(f"aces must name at least one count 0..4 (None: any), got "
                                 f"{self.aces!r}")
            aces = frozenset(int(a) for a in aces)
        object.__setattr__(self, "hcp", hcp)
        object.__setattr__(self, "lengths", lengths)
        object.__setattr__(self, "stoppers", stoppers)
        object.__setattr__(self, "aces", aces)

    @classmethod
    def _unchecked(cls, hcp, lengths, balanced, stoppers, aces) -> HandConstraints:
        """Constraints combined from checked ones (``&``, narrowing, relaxing), which may be
        a contradiction that the constructor would refuse; not checked again."""
        self = object.__new__(cls)
        object.__setattr__(self, "hcp", hcp)
        object.__setattr__(self, "lengths", lengths)
        object.__setattr__(self, "balanced", balanced)
        object.__setattr__(self, "stoppers", stoppers)
        object.__setattr__(self, "aces", aces)
        return self

    @classmethod
    def make(cls, hcp: Tuple[Optional[int], Optional[int]] = (None, None), *,
             clubs=None, diamonds=None, hearts=None, spades=None,
             balanced: Optional[bool] = None, stoppers=(), aces=None) -> HandConstraints:
        """Build constraints from optional bounds; a suit bound is ``(min, max)`` with
        ``None`` for an open end, or a single int meaning "at least".  HCP bounds are
        clipped to 0..37.

        :raises TypeError, ValueError: as the constructor (e.g. a suit bound above 13, or a
            minimum above the maximum); ``ValueError`` also for a stopper that is not a suit
            number 0..3.
        """
        lo, hi = hcp
        lengths = []
        for bound in (clubs, diamonds, hearts, spades):
            if bound is None:
                lengths.append((0, 13))
            elif isinstance(bound, int):
                lengths.append((bound, 13))
            else:
                a, b = bound
                lengths.append((0 if a is None else a, 13 if b is None else b))
        return cls(
            hcp=(0 if lo is None else max(0, lo), MAX_HCP if hi is None else min(MAX_HCP, hi)),
            lengths=tuple(lengths),
            balanced=balanced,
            stoppers=frozenset(Suit(s) for s in stoppers),
            aces=aces,
        )

    def with_length(self, suit: Suit, lo: Optional[int] = None,
                    hi: Optional[int] = None) -> HandConstraints:
        """A copy with the length range of ``suit`` narrowed to ``(lo, hi)`` (``None``: that
        end unchanged); the result may be :attr:`is_empty`.

        :raises TypeError: ``lo`` or ``hi`` not an integer or ``None``.
        """
        _bound_or_none(lo, "lo")
        _bound_or_none(hi, "hi")
        lengths = list(self.lengths)
        a, b = lengths[suit]
        lengths[suit] = (a if lo is None else max(a, lo), b if hi is None else min(b, hi))
        return HandConstraints._unchecked(self.hcp, tuple(lengths), self.balanced,
                                          self.stoppers, self.aces)

    def with_hcp(self, lo: Optional[int] = None, hi: Optional[int] = None) -> HandConstraints:
        """A copy with the HCP range narrowed to ``(lo, hi)`` (``None``: that end unchanged);
        the result may be :attr:`is_empty`.

        :raises TypeError: ``lo`` or ``hi`` not an integer or ``None``.
        """
        _bound_or_none(lo, "lo")
        _bound_or_none(hi, "hi")
        a, b = self.hcp
        return HandConstraints._unchecked(
            (a if lo is None else max(a, lo), b if hi is None else min(b, hi)),
            self.lengths, self.balanced, self.stoppers, self.aces)

    # -- queries --------------------------------------------------------------------
    def length(self, suit: Suit) -> Tuple[int, int]:
        """``(min, max)`` length of ``suit``."""
        return self.lengths[suit]

    @property
    def is_empty(self) -> bool:
        """True when no hand can satisfy these constraints (a contradiction)."""
        if self.hcp[0] > self.hcp[1]:
            return True
        if any(a > b for a, b in self.lengths):
            return True
        if sum(a for a, _ in self.lengths) > 13 or sum(b for _, b in self.lengths) < 13:
            return True
        if self.aces is not None and not self.aces:
            return True
        if self.balanced:
            if any(a > 5 or b < 2 for a, b in self.lengths):
                return True
        return False

    @property
    def is_trivial(self) -> bool:
        """True when every hand satisfies these constraints."""
        return self == HandConstraints()

    def satisfied_by(self, hand: Hand) -> bool:
        """Whether ``hand`` meets every constraint."""
        return not self.violations(hand)

    def violations(self, hand: Hand) -> list:
        """English descriptions of the constraints ``hand`` fails (empty if none)."""
        out = []
        hcp = hand.hcp
        if not self.hcp[0] <= hcp <= self.hcp[1]:
            out.append(f"{hcp} HCP outside {self.hcp[0]}-{self.hcp[1]}")
        for suit in Suit:
            a, b = self.lengths[suit]
            n = hand.length(suit)
            if not a <= n <= b:
                out.append(f"{n} {suit.name.lower()} outside {a}-{b}")
        if self.balanced is not None and hand.is_balanced() != self.balanced:
            out.append("balanced" if hand.is_balanced() else "not balanced")
        for suit in sorted(self.stoppers):
            if not has_stopper(hand, suit):
                out.append(f"no stopper in {suit.name.lower()}")
        if self.aces is not None and ace_count(hand) not in self.aces:
            out.append(f"{ace_count(hand)} aces")
        return out

    # -- algebra --------------------------------------------------------------------
    def __and__(self, other: HandConstraints) -> HandConstraints:
        """Intersection: a hand must satisfy both (may be :attr:`is_empty`)."""
        if self.balanced is None:
            bal = other.balanced
        elif other.balanced is None or other.balanced == self.balanced:
            bal = self.balanced
        else:
            bal = self.balanced  # contradiction; kept, see is_empty via lengths/hcp
        if self.aces is None:
            aces = other.aces
        elif other.aces is None:
            aces = self.aces
        else:
            aces = self.aces & other.aces
        return HandConstraints._unchecked(
            hcp=(max(self.hcp[0], other.hcp[0]), min(self.hcp[1], other.hcp[1])),
            lengths=tuple((max(a, c), min(b, d))
                          for (a, b), (c, d) in zip(self.lengths, other.lengths)),
            balanced=bal,
            stoppers=self.stoppers | other.stoppers,
            aces=aces,
        )

    def __or__(self, other: HandConstraints) -> HandConstraints:
        """Envelope: the tightest constraints that every hand satisfying either meets."""
        if self.balanced == other.balanced:
            bal = self.balanced
        else:
            bal = None
        if self.aces is None or other.aces is None:
            aces = None
        else:
            aces = self.aces | other.aces
        return HandConstraints._unchecked(
            hcp=(min(self.hcp[0], other.hcp[0]), max(self.hcp[1], other.hcp[1])),
            lengths=tuple((min(a, c), max(b, d))
                          for (a, b), (c, d) in zip(self.lengths, other.lengths)),
            balanced=bal,
            stoppers=self.stoppers & other.stoppers,
            aces=aces,
        )

    def contradicts(self, other: HandConstraints) -> bool:
        """Whether no hand can satisfy both."""
        both = self & other
        return both.is_empty or (self.balanced is not None and other.balanced is not None
                                 and self.balanced != other.balanced)

    # -- output ---------------------------------------------------------------------
    def describe(self) -> str:
        """English, e.g. ``"15-17 HCP, balanced, 5+ ♠"`` (empty string if trivial)."""
        parts = []
        lo, hi = self.hcp
        if lo > 0 and hi < MAX_HCP:
            parts.append(f"{lo} HCP" if lo == hi else f"{lo}-{hi} HCP")
        elif lo > 0:
            parts.append(f"{lo}+ HCP")
        elif hi < MAX_HCP:
            parts.append(f"at most {hi} HCP")
        if self.balanced is True:
            parts.append("balanced")
        elif self.balanced is False:
            parts.append("unbalanced")
        for suit in _SUIT_ORDER_TEXT:
            a, b = self.lengths[suit]
            if a == 0 and b == 13:
                continue
            sym = suit.symbol
            if a == b:
                parts.append(f"exactly {a} {sym}" if a else f"void in {sym}")
            elif b == 13:
                parts.append(f"{a}+ {sym}")
            elif a == 0:
                parts.append(f"at most {b} {sym}")
            else:
                parts.append(f"{a}-{b} {sym}")
        if self.stoppers:
            syms = " ".join(s.symbol for s in _SUIT_ORDER_TEXT if s in self.stoppers)
            parts.append(f"stopper in {syms}")
        if self.aces is not None:
            parts.append(" or ".join(str(a) for a in sorted(self.aces))
                         + (" ace" if sorted(self.aces) == [1] else " aces"))
        return ", ".join(parts)

    def to_dict(self) -> dict:
        """JSON-ready form: ``{"hcp": [min, max], "lengths": {"S": [min, max], ...},
        "balanced": bool|None, "stoppers": ["S", ...], "aces": [..]|None}``."""
        return {
            "hcp": list(self.hcp),
            "lengths": {s.letter: list(self.lengths[s]) for s in _SUIT_ORDER_TEXT},
            "balanced": self.balanced,
            "stoppers": [s.letter for s in _SUIT_ORDER_TEXT if s in self.stoppers],
            "aces": None if self.aces is None else sorted(self.aces),
        }
