"""Par: the score and contracts when both sides bid perfectly with full knowledge.

:func:`par` takes a double-dummy table (see :func:`ddsolver.solver.dd_table`) and returns a
:class:`ParResult` whose score and contract list are the same as those of DDS 2.9
``DealerPar`` (Bo Haglund and Soren Hein, github.com/dds-bridge/dds, ``src/DealerPar.cpp``),
including DDS's conventions for which of several equal par contracts are listed, which seats
are named, and in which order.  The rules below were taken from reading DDS's
``DealerPar.cpp`` (Apache-2.0) and the code here was written anew from them; the point
scores, the sacrifice thresholds and the "same score at a lower level" floors are computed
with :func:`ddsolver.scoring.score` rather than DDS's tables.  It was checked against DDS
2.9.0 itself (the ``libdds`` of endplay 0.5.12): the 2,000 answers of the project's reference
file, the 1,436 ``PAR2`` lines of DDS's own test files, the 500 reference deals with every
dealer and vulnerability, and 300,000 random (also inconsistent) tables, all equal.

DDS's par is a model of perfect bidding, not a game-tree search of the auction: each side's
options are its highest making contract per strain, the opponents' options are one doubled
sacrifice per strain, and the dealer only matters through who can bid a given contract first.

The model (each step below is what DDS does, stated in bridge terms):

1. *What each side can make.*  For each side and strain, the side's trick count is the larger
   of its two declarers' table entries; the highest contract it makes in that strain is at
   level ``tricks - 6`` (nothing if below 7 tricks).  Contracts are ranked in bidding order
   1C < 1D < ... < 7NT.
2. *Primacy.*  The side whose highest making contract ranks higher is entitled to a plus score.
   If both sides' highest making contract is the same one, the side of the first seat, going
   clockwise from the dealer, that takes that many tricks in its strain has primacy (it can
   bid it first).  If neither side makes anything at the one level, the deal is passed out.
3. *Candidates.*  The primacy side's highest making contract in each strain, in descending
   bidding order, down to (and including) its most valuable one (the highest score; of
   equal scores the lowest contract, e.g. 3NT rather than 5C).
4. *Sacrifices.*  For each candidate, the opponents' cheapest outbid in each strain costs
   ``down`` undertricks: in another strain, the number of levels above their own making level
   needed to outbid the candidate; in the candidate's own strain, seat by seat from the dealer,
   the tricks they lack, plus one level if a seat of the primacy side that makes the candidate
   bids before them (bids above 7NT are not possible).  The candidate is *sacrificed against*
   when the cheapest ``down`` is at most the largest number of doubled undertricks costing
   less than the candidate's score; otherwise it is *safe*, with a margin of
   ``target - down`` (negative).
5. *Par.*  With ``best_plus`` the best score among safe candidates and ``sac`` the doubled
   penalty of the most expensive profitable sacrifice found: if there is no profitable
   sacrifice or ``best_plus > sac``, par is ``best_plus`` and the par contracts are the safe
   candidates scoring it, each lowered while the opponents still cannot sacrifice profitably
   and while it keeps the same score (shown as overtricks, ``"2S-NS+2"`` for 4S).  Otherwise
   par is the sacrifice ``sac`` against the highest candidate that can be sacrificed against,
   and the par contracts are the opponents' sacrifices costing exactly that many undertricks,
   in strain order C, D, H, S, NT.
6. *Declarers.*  A making or sacrifice contract names the side (``"NS"``) when both of its
   seats take the tricks, else the single seat (``"4S-E+1"``).  A sacrifice in the
   candidate's own strain that only one seat can afford (the other one lacks tricks, or
   bids after the primacy side and so must go a level higher) names that seat; if the two
   seats would sacrifice at different levels, the lower one is named.

Output format (DDS ``DealerPar`` text): ``<level><strain>[*]-<declarer(s)>[+n|-n]`` with strain
``C D H S N``; ``*`` marks a doubled sacrifice, ``+n`` overtricks, ``-n`` undertricks.  DDS 2.9
drops the ``*`` from the single-seat own-strain sacrifices of step 6 (``"7C-E-1"``);
``str()`` always writes it, :meth:`ParContract.dds_str` and
``ParResult.contract_strings(dds_exact=True)`` reproduce DDS byte for byte.  A passed-out deal
has score 0 and no contracts; DDS writes it as the single string ``"pass"`` (and leaves its
score unset).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .cards import Strain
from .contract import Contract
from .errors import InvalidNotationError, InvalidTableError, brief_repr
from .scoring import score as _score
from .table import Seat, Side, Vulnerability

__all__ = ["ParContract", "ParResult", "par"]

_STRAIN_CHARS = "CDHSN"  # DDS text letters in our strain order C, D, H, S, NT
_DECLARER_NAMES = ("N", "E", "S", "W", "NS", "EW")
_PAR_RE = re.compile(r"^([1-7])([CDHSN])(\*?)-(NS|EW|N|E|S|W)(?:([+-])(\d+))?$")


# --------------------------------------------------------------------------------------------
# Result types


@dataclass(frozen=True)
class ParContract:
    """One par contract, in DDS ``DealerPar`` terms.

    :ivar level: the contract level, 1..7.
    :ivar strain: the contract's strain.
    :ivar doubled: True for a doubled sacrifice (the contract goes down).
    :ivar declarer: ``"NS"`` or ``"EW"`` when either seat of the side can declare it, or a
        single seat letter ``"N"``, ``"E"``, ``"S"``, ``"W"`` when only that seat can.
    :ivar result: tricks relative to the contract: ``+n`` overtricks, ``-n`` undertricks
        (sacrifices), 0 when it makes exactly.
    :ivar dds_omits_star: True for the one kind of sacrifice that DDS 2.9 writes without its
        ``*``: a sacrifice in the strain of the contract it is made against, that only one
        seat can afford (DDS writes ``"7C-E-1"`` for ``"7C*-E-1"``).  Only :meth:`dds_str`
        uses it; it takes no part in comparisons.
    :raises InvalidNotationError: for a level outside 1..7, an unknown declarer name, or a
        result that is impossible (tricks outside 0..13, a sacrifice that makes).
    """

    level: int
    strain: Strain
    doubled: bool
    declarer: str
    result: int = 0
    dds_omits_star: bool = field(default=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, (int, np.integer)) \
                or not 1 <= int(self.level) <= 7:
            raise InvalidNotationError(f"invalid par contract level {brief_repr(self.level)}")
        if self.declarer not in _DECLARER_NAMES:
            raise InvalidNotationError(f"invalid par declarer {brief_repr(self.declarer)}")
        object.__setattr__(self, "level", int(self.level))
        object.__setattr__(self, "strain", Strain(self.strain))
        object.__setattr__(self, "doubled", bool(self.doubled))
        object.__setattr__(self, "result", int(self.result))
        tricks = self.level + 6 + self.result
        if not 0 <= tricks <= 13 or self.doubled != (self.result < 0):
            raise InvalidNotationError(
                f"invalid par result {self.result:+d} for {self.level}"
                f"{_STRAIN_CHARS[self.strain]}{'*' if self.doubled else ''}: par contracts "
                f"that go down are doubled sacrifices, the others make"
            )

    @classmethod
    def from_str(cls, text: str) -> ParContract:
        """Parse DDS ``DealerPar`` text, e.g. ``"3N-NS"``, ``"4S-E+1"``, ``"5C*-EW-3"``.

        DDS 2.9's starless form of a single-seat sacrifice (``"7C-E-1"``) is read as the
        doubled sacrifice it is, so that :meth:`dds_str` gives the text back.

        :raises InvalidNotationError: if ``text`` is not in that format.
        """
        m = _PAR_RE.match(text.strip()) if isinstance(text, str) else None
        if m is None:
            raise InvalidNotationError(f"invalid par contract {brief_repr(text)}")
        level, strain, star, declarer, sign, n = m.groups()
        result = 0 if sign is None else (int(n) if sign == "+" else -int(n))
        if star and result >= 0:
            raise InvalidNotationError(f"invalid par contract {brief_repr(text)}: '*' needs '-n'")
        omits = result < 0 and not star
        if omits and len(declarer) != 1:
            raise InvalidNotationError(f"invalid par contract {brief_repr(text)}: '-n' needs '*'")
        return cls(int(level), Strain(_STRAIN_CHARS.index(strain)), result < 0, declarer,
                   result, omits)

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seat(s) that can declare it, in the order named (N before S, E before W)."""
        return tuple(Seat.from_str(c) for c in self.declarer)

    @property
    def side(self) -> Side:
        """The declaring side."""
        return self.seats[0].side

    @property
    def is_sacrifice(self) -> bool:
        """True for a doubled contract that goes down."""
        return self.doubled

    @property
    def overtricks(self) -> int:
        return max(self.result, 0)

    @property
    def undertricks(self) -> int:
        return max(-self.result, 0)

    @property
    def tricks(self) -> int:
        """Tricks taken by the declaring side (0..13)."""
        return self.level + 6 + self.result

    def contract(self, declarer: Seat | None = None) -> Contract:
        """This contract as a :class:`ddsolver.contract.Contract` (doubled if a sacrifice).

        :param declarer: the declaring seat to record; default: the named seat when only one
            seat is named, else none.
        """
        if declarer is None and len(self.declarer) == 1:
            declarer = self.seats[0]
        return Contract(self.level, self.strain, doubled=int(self.doubled), declarer=declarer)

    def _text(self, star: bool) -> str:
        text = f"{self.level}{_STRAIN_CHARS[self.strain]}{'*' if star else ''}-{self.declarer}"
        return text + (f"{self.result:+d}" if self.result else "")

    def dds_str(self) -> str:
        """The text byte for byte as DDS 2.9 ``DealerPar`` writes it (see ``dds_omits_star``)."""
        return self._text(self.doubled and not self.dds_omits_star)

    def __str__(self) -> str:
        """DDS ``DealerPar`` text: ``<level><strain>[*]-<declarer(s)>[+n|-n]``, always with
        ``*`` on a sacrifice."""
        return self._text(self.doubled)


@dataclass(frozen=True)
class ParResult:
    """The par of a deal, as DDS ``DealerPar`` gives it.

    :ivar score: par in points from North-South's point of view (positive: good for NS);
        0 when the deal is passed out.
    :ivar contracts: the par contracts in DDS's order; empty when passed out.
    :ivar vulnerability: the vulnerability the par was computed for.
    :ivar dealer: the dealer the par was computed for.
    """

    score: int
    contracts: list[ParContract] = field(default_factory=list)
    vulnerability: Vulnerability = Vulnerability.NONE
    dealer: Seat = Seat.NORTH

    @property
    def is_passed_out(self) -> bool:
        """True when no side can make a contract: par is pass, score 0."""
        return not self.contracts

    def contract_strings(self, dds_exact: bool = False) -> list[str]:
        """The contracts as DDS ``DealerPar`` strings, in DDS's order.

        A passed-out deal gives ``["pass"]``, as DDS does.

        :param dds_exact: write each contract as DDS 2.9 does byte for byte
            (:meth:`ParContract.dds_str`, which drops the ``*`` of one kind of single-seat
            sacrifice) instead of ``str(contract)``.
        """
        if not self.contracts:
            return ["pass"]
        return [c.dds_str() if dds_exact else str(c) for c in self.contracts]

    def __str__(self) -> str:
        return f"Par {self.score}: " + " ".join(self.contract_strings())


# --------------------------------------------------------------------------------------------
# Input handling


def _shown_table(table: Any) -> str:
    """A table as messages quote it: in full when it is the size of a 5x4 table (numpy's
    ``repr`` of one is some 150 characters), its start otherwise."""
    return brief_repr(table, limit=300)


def _as_tricks(table: Any) -> list[list[int]]:
    """The table as a 5x4 list of ints [strain C,D,H,S,NT][seat N,E,S,W]."""
    raw = table.to_array() if hasattr(table, "to_array") else table
    try:
        arr = np.asarray(raw)
    except (ValueError, TypeError) as exc:  # ragged or otherwise not array-like
        raise InvalidTableError(f"not a double-dummy table: {_shown_table(table)} "
                                f"({exc})") from None
    if arr.shape != (5, 4):
        raise InvalidTableError(
            f"a double-dummy table has shape (5, 4) (strains C,D,H,S,NT x seats N,E,S,W), "
            f"got shape {arr.shape}: {_shown_table(table)}"
        )
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise InvalidTableError(f"double-dummy table entries must be integers: "
                                f"{_shown_table(table)}")
    if np.issubdtype(arr.dtype, np.floating) and not (
        np.all(np.isfinite(arr)) and np.all(arr == np.round(arr))
    ):
        raise InvalidTableError(f"double-dummy table entries must be integers: "
                                f"{_shown_table(table)}")
    if arr.min() < 0 or arr.max() > 13:
        raise InvalidTableError(f"double-dummy table entries must be 0..13: {_shown_table(table)}")
    return [[int(x) for x in row] for row in arr]


def _as_vulnerability(value: Vulnerability | str) -> Vulnerability:
    if isinstance(value, Vulnerability):
        return value
    if isinstance(value, str):
        return Vulnerability.from_str(value)
    raise InvalidNotationError(f"invalid vulnerability {brief_repr(value)}: "
                               f"expected Vulnerability or str")


def _as_seat(value: Seat | str) -> Seat:
    if isinstance(value, Seat):
        return value
    if isinstance(value, str):
        return Seat.from_str(value)
    raise InvalidNotationError(f"invalid dealer {brief_repr(value)}: expected Seat or str")


# --------------------------------------------------------------------------------------------
# Scores (all from ddsolver.scoring)

_MAX_RANK = 35  # 7NT
_NO_SACRIFICE = 9999


def _rank(level: int, strain: int) -> int:
    """Bidding-order number of a contract: 1C=1, 1D=2, ..., 7NT=35 (<= 0 below the 1 level)."""
    return 5 * (level - 1) + strain + 1


def _level_strain(rank: int) -> tuple[int, int]:
    return (rank - 1) // 5 + 1, (rank - 1) % 5


def _trunc_div(a: int, b: int) -> int:
    """Integer division rounding toward zero (as C does).

    Used for the levels an opponent must climb; the result is 0 or negative when the
    opponents make a contract above the candidate in that strain.  Any such value means they
    outbid it for free, so rounding only matters for faithfulness to DDS, not for par.
    """
    q = abs(a) // b
    return q if a >= 0 else -q


class _Scores:
    """Make scores, doubled penalties and the derived sacrifice thresholds, cached."""

    def __init__(self) -> None:
        self._make: dict = {}
        self._penalty: dict = {}

    def make(self, rank: int, vul: bool) -> int:
        """Score for bidding and making exactly the contract of ``rank`` (undoubled)."""
        key = (rank, vul)
        if key not in self._make:
            level, strain = _level_strain(rank)
            self._make[key] = _score(Contract(level, Strain(strain)), level + 6, vul)
        return self._make[key]

    def penalty(self, down: int, vul: bool) -> int:
        """Points the defenders get for ``down`` doubled undertricks (0..13)."""
        key = (down, vul)
        if key not in self._penalty:
            self._penalty[key] = (
                0 if down == 0 else -_score(Contract(7, Strain.NOTRUMP, doubled=1), 13 - down, vul)
            )
        return self._penalty[key]

    def target(self, rank: int, vul_decl: bool, vul_sac: bool) -> int:
        """Most doubled undertricks that cost less than the contract of ``rank`` scores."""
        worth = self.make(rank, vul_decl)
        down = 0
        while down < 13 and self.penalty(down + 1, vul_sac) < worth:
            down += 1
        return down

    def floor(self, rank: int, vul: bool) -> int:
        """Lowest contract in the same strain that scores the same with the same tricks."""
        level, strain = _level_strain(rank)
        worth = self.make(rank, vul)
        low = level
        while low > 1 and _score(Contract(low - 1, Strain(strain)), level + 6, vul) == worth:
            low -= 1
        return _rank(low, strain)


_SCORES = _Scores()


# --------------------------------------------------------------------------------------------
# The par search


def _seats_from(dealer: int) -> list[int]:
    return [(dealer + k) % 4 for k in range(4)]


def _naming(tricks_row: Sequence[int], side: int) -> str:
    """The side's seats that take its most tricks in a strain: "NS", "N", "S", "EW", ..."""
    a, b = tricks_row[side], tricks_row[side + 2]
    best = max(a, b)
    return ("NESW"[side] if a == best else "") + ("NESW"[side + 2] if b == best else "")


def _same_strain_sacrifices(
    tricks_row: Sequence[int], need: int, side: int, dealer: int
) -> list[tuple[int, int, int]]:
    """Opponents' sacrifices in the candidate's own strain, seat by seat from the dealer.

    ``need`` is the tricks the candidate needs.  A primacy-side seat that makes it before an
    opponent speaks forces that opponent one level higher.  Returns (seat, down, extra) with
    ``extra`` = 1 when the sacrifice must be one level above the candidate.
    """
    out = []
    bid_first = 0
    for seat in _seats_from(dealer):
        if seat % 2 == side:
            if tricks_row[seat] == need:
                bid_first = 1
        else:
            out.append((seat, need - tricks_row[seat] + bid_first, bid_first))
    return out


def par(
    table: Any,
    vulnerability: Vulnerability | str,
    dealer: Seat | str,
) -> ParResult:
    """Par score and par contracts of a deal, exactly as DDS 2.9 ``DealerPar`` defines them.

    :param table: the double-dummy table: an object with ``.to_array()`` (such as
        :class:`ddsolver.solver.DDTable`) or an array-like, shape ``(5, 4)``, indexed
        ``[strain C,D,H,S,NT][seat N,E,S,W]``; each entry is the tricks (0..13) that
        declarer's side takes with declarer in that seat and the opening lead from
        declarer's left-hand opponent.  The entries need not be consistent with each other.
    :param vulnerability: a :class:`~ddsolver.table.Vulnerability` or its name (``"None"``,
        ``"NS"``, ``"EW"``, ``"Both"``/``"All"``, ...).
    :param dealer: a :class:`~ddsolver.table.Seat` or its letter/name; the dealer's side has
        the first chance to bid, which matters when both sides make the same contract.
    :returns: a :class:`ParResult`; its score is from North-South's point of view.
    :raises InvalidTableError: if the table does not have shape (5, 4) or holds entries that
        are not integers 0..13.
    :raises InvalidNotationError: if ``vulnerability`` or ``dealer`` cannot be read.

    The algorithm and its source (DDS 2.9 ``DealerPar``) are described in the module
    docstring of :mod:`ddsolver.par`.
    """
    tricks = _as_tricks(table)
    vul = _as_vulnerability(vulnerability)
    first = int(_as_seat(dealer))
    vul_side = (vul.is_vulnerable(Side.NS), vul.is_vulnerable(Side.EW))

    # 1. What each side makes: per side and strain, tricks, rank of the highest making contract
    #    (<= 0 if none) and its score.
    side_tricks = [[max(tricks[s][side], tricks[s][side + 2]) for s in range(5)] for side in (0, 1)]
    side_rank = [[_rank(side_tricks[side][s] - 6, s) for s in range(5)] for side in (0, 1)]
    highest = [max([r for r in side_rank[side] if r >= 1], default=0) for side in (0, 1)]

    # 2. Primacy.
    if highest[0] == 0 and highest[1] == 0:
        return ParResult(0, [], vul, Seat(first))
    if highest[0] != highest[1]:
        primacy = 0 if highest[0] > highest[1] else 1
    else:
        strain = (highest[0] - 1) % 5
        need = side_tricks[0][strain]
        primacy = next(seat % 2 for seat in _seats_from(first) if tricks[strain][seat] == need)
    other = 1 - primacy
    vul_decl, vul_sac = vul_side[primacy], vul_side[other]

    # 3. Candidates: making contracts of the primacy side, highest first, down to the most
    #    valuable one (lowest contract among equal scores).
    making = [s for s in range(5) if side_rank[primacy][s] >= 1]
    worth = {s: _SCORES.make(side_rank[primacy][s], vul_decl) for s in making}
    dearest = min(making, key=lambda s: (-worth[s], side_rank[primacy][s]))
    candidates = sorted(
        (s for s in making if side_rank[primacy][s] >= side_rank[primacy][dearest]),
        key=lambda s: -side_rank[primacy][s],
    )

    # 4. Sacrifices against each candidate.
    best_plus = 0
    best_down = 0
    sacrificed: tuple[int, list[int]] | None = None  # (strain, down per opponents' strain)
    sacrificed_down = 0
    safe: list[tuple[int, int]] = []  # (strain, margin)
    for s in candidates:
        rank = side_rank[primacy][s]
        target = _SCORES.target(rank, vul_decl, vul_sac)
        downs = []
        for e in range(5):
            if e == s:
                down = min(d for _, d, _ in _same_strain_sacrifices(
                    tricks[s], side_tricks[primacy][s], primacy, first))
            else:
                down = _trunc_div(rank - side_rank[other][e] + 4, 5)
            if side_rank[other][e] + 5 * down > _MAX_RANK:
                down = _NO_SACRIFICE
            downs.append(down)
        cheapest = min(downs)
        if cheapest <= target:
            best_down = max(best_down, cheapest)
            if sacrificed is None:
                sacrificed = (s, downs)
                sacrificed_down = cheapest
        else:
            best_plus = max(best_plus, worth[s])
            safe.append((s, target - cheapest))

    # 5. Par: the primacy side plays, or it collects the best sacrifice.
    sign = 1 if primacy == 0 else -1
    penalty = _SCORES.penalty(best_down, vul_sac)
    contracts: list[ParContract] = []
    if sacrificed is None or best_plus > penalty:
        for s, margin in safe:
            if worth[s] != best_plus:
                continue
            rank = side_rank[primacy][s]
            plus = 0
            if margin < -1:
                low = max(rank + 5 * (margin + 1), _SCORES.floor(rank, vul_decl))
                plus = (rank - low) // 5
                rank = low
            level, _ = _level_strain(rank)
            contracts.append(ParContract(level, Strain(s), False, _naming(tricks[s], primacy),
                                         plus))
        return ParResult(sign * best_plus, contracts, vul, Seat(first))

    s, downs = sacrificed
    if sacrificed_down == best_down:
        for e in range(5):
            if downs[e] != best_down:
                continue
            if e != s:
                level, _ = _level_strain(side_rank[other][e] + 5 * best_down)
                contracts.append(
                    ParContract(level, Strain(e), True, _naming(tricks[e], other), -best_down)
                )
                continue
            level, _ = _level_strain(side_rank[primacy][s])
            hits = [
                (seat, level + extra)
                for seat, d, extra in _same_strain_sacrifices(
                    tricks[s], side_tricks[primacy][s], primacy, first)
                if d == best_down
            ]
            if len(hits) == 2 and hits[0][1] == hits[1][1]:
                name = _naming(tricks[s], other)
                contracts.append(ParContract(hits[0][1], Strain(s), True, name, -best_down))
            else:
                seat, lvl = min(hits, key=lambda h: h[1])
                contracts.append(
                    ParContract(lvl, Strain(s), True, "NESW"[seat], -best_down, True)
                )
    return ParResult(sign * penalty, contracts, vul, Seat(first))
