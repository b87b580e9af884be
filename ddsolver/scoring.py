"""Bridge scoring: duplicate points, IMPs, matchpoints, rubber and Chicago.

Sources: the duplicate scoring table of the Laws of Duplicate Bridge (WBF 2017, Law 77),
the WBF IMP scale (Law 78B), the Laws of Contract Bridge (rubber bridge, Law 77 and the
Chicago rules); where this package's Chicago differs (no honours, a side's final score
floored at zero) :class:`ChicagoScore` says so.

Every score is in points for one side, positive when that side gains.  :func:`score` is from
declarer's side's point of view; :func:`ns_score` from North-South's.

:class:`~ddsolver.contract.Contract` lives in :mod:`ddsolver.contract` and is re-exported
here.
"""

from __future__ import annotations

import math
import numbers
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Iterable, List, NamedTuple, Optional, Tuple

from .cards import Strain
from .contract import Contract, game_level
from .errors import ScoringError, brief_repr
from .table import Seat, Side, Vulnerability

__all__ = [
    "Contract",
    "ScoringError",
    "game_level",
    "trick_points",
    "overtrick_points",
    "undertrick_penalty",
    "score",
    "ns_score",
    "result_str",
    "imps",
    "IMP_SCALE",
    "matchpoints",
    "matchpoint_percentages",
    "RubberScore",
    "RubberDeal",
    "ChicagoScore",
    "ChicagoBoard",
    "CHICAGO_BOARDS",
]


# --------------------------------------------------------------------------------------
# Duplicate scoring
# --------------------------------------------------------------------------------------

def _check_tricks(tricks) -> int:
    if isinstance(tricks, bool) or not isinstance(tricks, numbers.Integral) \
            or not 0 <= int(tricks) <= 13:
        raise ScoringError(f"invalid number of tricks {brief_repr(tricks)}: "
                           f"must be an integer 0..13")
    return int(tricks)


def _check_contract(contract) -> Contract:
    if isinstance(contract, str):
        return Contract.from_str(contract)
    if not isinstance(contract, Contract):
        raise ScoringError(f"not a contract: {brief_repr(contract)}")
    return contract


def _resolve_vulnerable(contract: Contract, vulnerable) -> bool:
    """A bool from ``vulnerable`` (bool or a table :class:`Vulnerability`)."""
    if isinstance(vulnerable, Vulnerability):
        if contract.declarer is None:
            raise ScoringError(
                f"contract {contract} has no declarer: pass vulnerable=True/False "
                f"instead of {brief_repr(vulnerable)}")
        return vulnerable.is_vulnerable(contract.declarer)
    if vulnerable is not None and not isinstance(vulnerable, (str, bytes)):
        try:
            if vulnerable == 0 or vulnerable == 1:   # bool, 0/1, numpy bool
                return bool(vulnerable)
        except (TypeError, ValueError):
            pass
    raise ScoringError(f"invalid vulnerability {brief_repr(vulnerable)}: expected a bool or a "
                       f"Vulnerability")


def _odd_trick_value(strain: Strain, nth: int) -> int:
    """Undoubled value of the ``nth`` odd trick (1-based)."""
    if strain == Strain.NOTRUMP:
        return 40 if nth == 1 else 30
    if strain.is_major:
        return 30
    return 20


def trick_points(contract: Contract, odd_tricks: Optional[int] = None) -> int:
    """Trick points ("below the line") for the first ``odd_tricks`` odd tricks of the contract
    strain, doubled x2 and redoubled x4 as ``contract.doubled`` says.

    ``odd_tricks`` defaults to ``contract.level`` (the contracted tricks), which is what
    counts towards game.  Clubs/diamonds 20, hearts/spades 30, notrump 40 for the first and
    30 after (WBF Law 77).

    :raises ScoringError: if ``odd_tricks`` is outside 0..7.
    """
    n = contract.level if odd_tricks is None else odd_tricks
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 0 <= n <= 7:
        raise ScoringError(f"invalid number of odd tricks {brief_repr(odd_tricks)}: must be 0..7")
    base = sum(_odd_trick_value(contract.strain, i) for i in range(1, n + 1))
    return base * (1, 2, 4)[contract.doubled]


def overtrick_points(contract: Contract, overtricks: int, vulnerable: bool) -> int:
    """Points for ``overtricks`` tricks above the contract (WBF Law 77).

    Undoubled: the trick value (20, 30, or 30 in notrump).  Doubled: 100 each, 200
    vulnerable.  Redoubled: 200 each, 400 vulnerable.

    :raises ScoringError: if ``overtricks`` is negative or more than ``7 - level``.
    """
    if isinstance(overtricks, bool) or not isinstance(overtricks, numbers.Integral) \
            or not 0 <= overtricks <= 7 - contract.level:
        raise ScoringError(f"invalid number of overtricks {brief_repr(overtricks)} for {contract}")
    if contract.doubled == 0:
        # Overtricks in notrump are never the "first" trick, so 30 each.
        per = _odd_trick_value(contract.strain, 2)
    else:
        per = (100 if contract.doubled == 1 else 200) * (2 if vulnerable else 1)
    return per * overtricks


def undertrick_penalty(down: int, doubled: int, vulnerable: bool) -> int:
    """The penalty (a positive number, points to the defenders) for going ``down`` tricks.

    Undoubled: 50 each (100 vulnerable).  Doubled, not vulnerable: 100 for the first, 200
    for the second and third, 300 for each after.  Doubled, vulnerable: 200 for the first,
    300 each after.  Redoubled: twice the doubled amounts (WBF Law 77).

    :raises ScoringError: if ``down`` is outside 0..13 or ``doubled`` outside 0..2.
    """
    if isinstance(down, bool) or not isinstance(down, numbers.Integral) or not 0 <= down <= 13:
        raise ScoringError(f"invalid number of undertricks {brief_repr(down)}: must be 0..13")
    if doubled not in (0, 1, 2):
        raise ScoringError(f"invalid doubled state {brief_repr(doubled)}: must be 0, 1 or 2")
    if doubled == 0:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        total = 0 if down == 0 else 200 + 300 * (down - 1)
    else:
        total = sum(100 if i == 1 else 200 if i <= 3 else 300 for i in range(1, down + 1))
    return total * doubled  # doubled -> x1, redoubled -> x2


class _Made(NamedTuple):
    """The parts of a made contract that every scoring method shares."""

    trick_points: int     # contracted odd tricks, doubled as bid (below the line)
    overtricks: int       # overtrick points
    slam_bonus: int       # 0, 500/750 (small slam), 1000/1500 (grand slam)
    insult: int           # 50 doubled, 100 redoubled, else 0


def _made_parts(contract: Contract, tricks: int, vulnerable: bool) -> _Made:
    over = tricks - contract.tricks_needed
    slam = 0
    if contract.level == 6:
        slam = 750 if vulnerable else 500
    elif contract.level == 7:
        slam = 1500 if vulnerable else 1000
    return _Made(
        trick_points(contract),
        overtrick_points(contract, over, vulnerable),
        slam,
        (0, 50, 100)[contract.doubled],
    )


def score(contract: Optional[Contract], tricks: int, vulnerable: "bool | Vulnerability") -> int:
    """Duplicate score of one board for declarer's side (WBF Law 77).

    :param contract: the final contract (a :class:`Contract` or contract text such as
        ``"4SX"``); ``None`` for a passed-out board, which scores 0.
    :param tricks: the total number of tricks declarer's side took, 0..13.
    :param vulnerable: whether declarer's side is vulnerable; or the board's
        :class:`Vulnerability` when ``contract.declarer`` is set.
    :returns: points for declarer's side: positive when the contract makes (trick points,
        game 300/500 or part-score 50, slam 500/750 or 1000/1500, overtricks, 50/100 for
        making doubled/redoubled), negative (the penalty) when it fails.
    :raises ScoringError: for ``tricks`` outside 0..13, a bad ``vulnerable``, or a
        :class:`Vulnerability` with a contract that has no declarer.
    :raises InvalidNotationError: for contract text that cannot be read.
    """
    tricks = _check_tricks(tricks)
    if contract is None:
        return 0
    contract = _check_contract(contract)
    vul = _resolve_vulnerable(contract, vulnerable)
    if tricks < contract.tricks_needed:
        return -undertrick_penalty(contract.tricks_needed - tricks, contract.doubled, vul)
    made = _made_parts(contract, tricks, vul)
    if made.trick_points >= 100:
        bonus = 500 if vul else 300
    else:
        bonus = 50
    return sum(made) + bonus


def ns_score(contract: Optional[Contract], tricks: int, vulnerability: Vulnerability) -> int:
    """Duplicate score from North-South's point of view.

    :param contract: a contract with ``declarer`` set, or ``None`` (passed out: 0).
    :param tricks: tricks taken by declarer's side, 0..13.
    :param vulnerability: the board's vulnerability.
    :raises ScoringError: if the contract has no declarer, or as :func:`score`.
    """
    if contract is None:
        _check_tricks(tricks)
        return 0
    contract = _check_contract(contract)
    if contract.declarer is None:
        raise ScoringError(f"contract {contract} has no declarer: cannot score for N-S")
    if not isinstance(vulnerability, Vulnerability):
        vulnerability = Vulnerability.from_str(vulnerability) \
            if isinstance(vulnerability, str) else Vulnerability(vulnerability)
    points = score(contract, tricks, vulnerability)
    return points if contract.declarer.side == Side.NS else -points


def result_str(contract: Optional[Contract], tricks: int) -> str:
    """The usual short result: ``"4S="``, ``"4S+1"``, ``"3NTX-2"``, or ``"Pass"``.

    The declarer letter, if set, is included (``"4SN+1"``).

    :raises ScoringError: for ``tricks`` outside 0..13.
    """
    tricks = _check_tricks(tricks)
    if contract is None:
        return "Pass"
    diff = tricks - contract.tricks_needed
    return f"{contract}{'=' if diff == 0 else f'{diff:+d}'}"


# --------------------------------------------------------------------------------------
# IMPs and matchpoints
# --------------------------------------------------------------------------------------

_IMP_LOWS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)

#: The WBF IMP scale (Law 78B) as ``(lowest difference, IMPs)`` pairs: 0-10 -> 0,
#: 20-40 -> 1, 50-80 -> 2, ..., 3500-3990 -> 23, 4000 and more -> 24.
IMP_SCALE: Tuple[Tuple[int, int], ...] = ((0, 0),) + tuple(
    (low, imp) for imp, low in enumerate(_IMP_LOWS, start=1))


def _finite_real(value) -> bool:
    """Whether ``value`` is a finite real number (not a bool).  Integers of any size are
    (``math.isfinite`` would overflow converting ``10**400`` to a float), and so is a
    fraction too large for a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    if isinstance(value, numbers.Integral):
        return True
    try:
        return math.isfinite(value)
    except OverflowError:
        return True


def imps(difference: float) -> int:
    """IMPs for a points difference on the WBF scale, keeping its sign.

    ``imps(620 - 170) == 10``; ``imps(-450) == -10``.  Scores are multiples of 10; for
    other differences (averages) each band runs up to the next band's lowest value, so
    0-19 is 0 IMPs, 20-49 is 1 IMP, ..., 3500-3999 is 23, 4000 or more is 24 (an integer
    of any size: ``imps(10**400) == 24``).

    :raises ScoringError: if ``difference`` is not a finite real number (``None``, text, a
        bool, NaN, infinity).
    """
    if not _finite_real(difference):
        raise ScoringError(f"invalid score difference {brief_repr(difference)}")
    n = bisect_right(_IMP_LOWS, abs(difference))
    return n if difference >= 0 else -n


def matchpoints(scores: Iterable[float]) -> List[int]:
    """Matchpoints of each score among scores of the same board, all from one direction.

    Each score earns 2 for every other score it beats and 1 for every other score it ties
    (the "top = 2 (n - 1)" convention of the ACBL and most clubs; halve for the European
    1-per-beaten convention).  Higher scores are better.

    ``matchpoints([420, 420, 450, -50]) == [3, 3, 6, 0]``.

    :returns: a list in the order of ``scores``.
    :raises ScoringError: if a score is not a finite real number.
    """
    values = list(scores)
    for s in values:
        if not _finite_real(s):
            raise ScoringError(f"invalid score {brief_repr(s)}")
    ordered = sorted(values)
    result = []
    for s in values:
        below = bisect_left(ordered, s)
        ties = bisect_right(ordered, s) - below - 1
        result.append(2 * below + ties)
    return result


def matchpoint_percentages(scores: Iterable[float]) -> List[float]:
    """Matchpoints as percentages of the top, ``100 * mp / (2 (n - 1))``, in the order of
    ``scores``.  A board played once (n = 1) gets 50.0 (an average).

    :raises ScoringError: as :func:`matchpoints`.
    """
    mps = matchpoints(scores)
    if len(mps) == 1:
        return [50.0]
    top = 2 * (len(mps) - 1)
    return [100.0 * mp / top for mp in mps]


# --------------------------------------------------------------------------------------
# Shared helpers for rubber and Chicago
# --------------------------------------------------------------------------------------

def _declarer_side(contract: Contract, declarer, what: str = "declarer") -> Side:
    if declarer is None:
        if contract.declarer is None:
            raise ScoringError(
                f"contract {contract} has no declarer: pass declarer= (a Seat or Side)")
        return contract.declarer.side
    if isinstance(declarer, Side):
        side = declarer
    elif isinstance(declarer, Seat):
        side = declarer.side
    elif isinstance(declarer, str):
        key = declarer.strip().upper().replace("-", "").replace("/", "")
        if key in ("NS", "EW", "SN", "WE"):
            side = Side.from_str(key)
        else:
            side = Seat.from_str(declarer).side
    else:
        raise ScoringError(f"invalid {what} {brief_repr(declarer)}: expected a Seat or Side")
    if what == "declarer" and contract.declarer is not None \
            and contract.declarer.side != side:
        raise ScoringError(
            f"declarer {brief_repr(declarer)} contradicts the declarer of contract {contract}")
    return side


def _pair(ns: int = 0, ew: int = 0) -> Tuple[int, int]:
    return (ns, ew)


def _add_to(pair: Tuple[int, int], side: Side, points: int) -> Tuple[int, int]:
    out = list(pair)
    out[side] += points
    return (out[0], out[1])


# --------------------------------------------------------------------------------------
# Rubber bridge
# --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RubberDeal:
    """One deal of a rubber as :meth:`RubberScore.add` scored it.

    Point pairs are ``(north_south, east_west)``.  ``below`` are trick points of contracted
    tricks (towards game); ``above`` holds everything else (overtricks, penalties, slam,
    insult, honours, rubber bonus).
    """

    number: int                       #: 1-based deal number within the rubber
    contract: Optional[Contract]      #: None for a passed-out deal
    tricks: Optional[int]             #: tricks taken by declarer's side
    declarer_side: Optional[Side]
    vulnerable: bool                  #: declarer's side was vulnerable
    below: Tuple[int, int]
    above: Tuple[int, int]
    honours: int = 0                  #: honours points (included in ``above``)
    honours_side: Optional[Side] = None
    game_won: Optional[Side] = None   #: the side that completed a game on this deal
    rubber_bonus: int = 0             #: 700 or 500 when this deal ended the rubber
    rubber_won: Optional[Side] = None


class RubberScore:
    """The score sheet of one rubber (Laws of Contract Bridge, Law 77).

    Feed it one result at a time with :meth:`add`.  Rules:

    * Trick points for contracted tricks (doubled x2, redoubled x4) go below the line and
      count towards game; a side completes a game when its below-the-line points in the
      current game reach 100.  Then a new game starts for both sides (part-scores made
      earlier stay on the sheet but no longer count towards game).
    * A side is vulnerable once it has won a game.
    * Above the line: overtricks, undertrick penalties (to the defenders), slam bonuses
      (500/750, 1000/1500), 50/100 for making a doubled/redoubled contract, honours.
      There is no per-deal game or part-score bonus in rubber bridge.
    * Honours (optional, for the side holding them, even the defenders; scored whether or
      not the contract makes): 100 for four of the five trump honours in one hand, 150 for
      all five in one hand or, in notrump, all four aces in one hand.
    * The first side to win two games wins the rubber: 700 if the other side has no game,
      500 if it has one.
    * An unfinished rubber is settled by :meth:`final_totals`: 300 for a side with a game,
      100 for a side with a part-score in the unfinished game.

    State: :attr:`games`, :attr:`part_scores`, :attr:`above`, :attr:`below`,
    :attr:`totals`, :attr:`vulnerability`, :attr:`is_finished`, :attr:`winner`,
    :attr:`deals`.
    """

    def __init__(self) -> None:
        self._games = [0, 0]
        self._current = [0, 0]
        self._above = [0, 0]
        self._below = [0, 0]
        self._deals: List[RubberDeal] = []
        self._winner: Optional[Side] = None

    # -- state ----------------------------------------------------------------------
    @property
    def games(self) -> Tuple[int, int]:
        """Games won ``(NS, EW)``."""
        return (self._games[0], self._games[1])

    @property
    def part_scores(self) -> Tuple[int, int]:
        """Below-the-line points ``(NS, EW)`` in the current, unfinished game."""
        return (self._current[0], self._current[1])

    @property
    def above(self) -> Tuple[int, int]:
        """Points above the line ``(NS, EW)``, rubber bonus included once won."""
        return (self._above[0], self._above[1])

    @property
    def below(self) -> Tuple[int, int]:
        """All points below the line ``(NS, EW)`` over the whole rubber."""
        return (self._below[0], self._below[1])

    @property
    def totals(self) -> Tuple[int, int]:
        """Above plus below ``(NS, EW)`` (no unfinished-rubber bonuses)."""
        return (self._above[0] + self._below[0], self._above[1] + self._below[1])

    @property
    def vulnerability(self) -> Vulnerability:
        """Who is vulnerable for the next deal."""
        return Vulnerability.from_sides(self._games[0] >= 1, self._games[1] >= 1)

    def is_vulnerable(self, side: "Side | Seat") -> bool:
        if isinstance(side, Seat):
            side = side.side
        return self._games[side] >= 1

    @property
    def is_finished(self) -> bool:
        return self._winner is not None

    @property
    def winner(self) -> Optional[Side]:
        """The side that won two games, or ``None`` while the rubber goes on."""
        return self._winner

    @property
    def deals(self) -> Tuple[RubberDeal, ...]:
        return tuple(self._deals)

    def final_totals(self) -> Tuple[int, int]:
        """Totals ``(NS, EW)``, adding the unfinished-rubber bonuses (Law 77) when the
        rubber has not finished: 300 to a side with one game, 100 to a side with a
        part-score in the unfinished game."""
        ns, ew = self.totals
        if self._winner is None:
            extra = [0, 0]
            for side in Side:
                if self._games[side] == 1:
                    extra[side] += 300
                if self._current[side] > 0:
                    extra[side] += 100
            ns += extra[0]
            ew += extra[1]
        return (ns, ew)

    # -- scoring --------------------------------------------------------------------
    def add(self, contract: Optional[Contract], tricks: Optional[int] = None, *,
            declarer: "Seat | Side | None" = None, honours: int = 0,
            honours_side: "Side | Seat | None" = None) -> RubberDeal:
        """Score one deal and return its :class:`RubberDeal`.

        :param contract: the contract (``declarer`` may be set in it), contract text, or
            ``None`` for a passed-out deal (nothing scores; the deal is recorded).
        :param tricks: tricks taken by declarer's side, 0..13.
        :param declarer: declarer's seat or side when ``contract.declarer`` is not set.
        :param honours: 0, 100 or 150 (see the class docstring).
        :param honours_side: the side holding the honours; declarer's side by default.
        :raises ScoringError: after the rubber has finished, for tricks outside 0..13,
            no declarer, or honours not 0/100/150 (not 100 in notrump).
        """
        if self._winner is not None:
            raise ScoringError(
                f"the rubber is over (won by {self._winner}); cannot add {contract}")
        number = len(self._deals) + 1
        if contract is None:
            if honours:
                raise ScoringError("no honours on a passed-out deal")
            deal = RubberDeal(number, None, None, None, False, _pair(), _pair())
            self._deals.append(deal)
            return deal
        contract = _check_contract(contract)
        tricks = _check_tricks(tricks)
        side = _declarer_side(contract, declarer)
        if contract.declarer is None and isinstance(declarer, Seat):
            contract = contract.with_declarer(declarer)
        allowed = (0, 150) if contract.strain == Strain.NOTRUMP else (0, 100, 150)
        if isinstance(honours, bool) or honours not in allowed:
            raise ScoringError(
                f"invalid honours {brief_repr(honours)} in {contract.strain.letter}: "
                f"must be one of {', '.join(map(str, allowed))}")
        h_side = side if honours_side is None else _declarer_side(contract, honours_side,
                                                                   "honours_side")
        vul = self._games[side] >= 1
        below = _pair()
        above = _pair()
        game_won = None
        rubber_bonus = 0
        if tricks >= contract.tricks_needed:
            made = _made_parts(contract, tricks, vul)
            below = _add_to(below, side, made.trick_points)
            above = _add_to(above, side, made.overtricks + made.slam_bonus + made.insult)
            self._current[side] += made.trick_points
            if self._current[side] >= 100:
                game_won = side
                self._games[side] += 1
                self._current = [0, 0]
                if self._games[side] == 2:
                    rubber_bonus = 700 if self._games[1 - side] == 0 else 500
                    self._winner = side
        else:
            penalty = undertrick_penalty(contract.tricks_needed - tricks, contract.doubled, vul)
            above = _add_to(above, side.opponents, penalty)
        if honours:
            above = _add_to(above, h_side, honours)
        if rubber_bonus:
            above = _add_to(above, side, rubber_bonus)
        for s in Side:
            self._above[s] += above[s]
            self._below[s] += below[s]
        deal = RubberDeal(number, contract, tricks, side, vul, below, above,
                          honours, h_side if honours else None, game_won, rubber_bonus,
                          self._winner if rubber_bonus else None)
        self._deals.append(deal)
        return deal

    def __repr__(self) -> str:
        return (f"<RubberScore games NS {self._games[0]} EW {self._games[1]}, "
                f"totals NS {self.totals[0]} EW {self.totals[1]}"
                f"{', finished' if self.is_finished else ''}>")


# --------------------------------------------------------------------------------------
# Chicago
# --------------------------------------------------------------------------------------

#: Boards in a Chicago match.
CHICAGO_BOARDS = 4

_CHICAGO = {
    1: (Seat.NORTH, Vulnerability.NONE),
    2: (Seat.EAST, Vulnerability.NS),
    3: (Seat.SOUTH, Vulnerability.EW),
    4: (Seat.WEST, Vulnerability.BOTH),
}


@dataclass(frozen=True)
class ChicagoBoard:
    """One deal of a Chicago match as :meth:`ChicagoScore.add` scored it.

    Point pairs are ``(north_south, east_west)``.  A passed-out deal has ``contract`` None,
    ``passed_out`` True and no points; the same board is dealt again.
    """

    board: int                          #: 1..4
    dealer: Seat
    vulnerability: Vulnerability
    contract: Optional[Contract]
    tricks: Optional[int]
    declarer_side: Optional[Side]
    points: Tuple[int, int]             #: points this deal earned, per side
    trick_points: int = 0               #: contracted trick points (towards game)
    game: bool = False                  #: this deal completed a game
    bonus: int = 0                      #: game bonus (300/500) or board-4 part-score 100
    part_scores: Tuple[int, int] = (0, 0)  #: carried part-scores after this deal

    @property
    def passed_out(self) -> bool:
        return self.contract is None


class ChicagoScore:
    """Score of a four-board Chicago match (the Chicago rules of the Laws of Contract
    Bridge, without honours; the final score floored at zero).

    * Board 1: North deals, none vulnerable; 2: East, N-S vulnerable; 3: South, E-W
      vulnerable; 4: West, both vulnerable.
    * Trick points of contracted tricks (doubled x2, redoubled x4) carry over as
      part-scores.  When a side's carried part-score plus the trick points of a made
      contract reach 100, that side has made a game: it scores the game bonus (300 not
      vulnerable, 500 vulnerable, by the board's vulnerability) and both sides'
      part-scores are wiped out.  Otherwise the trick points are added to its part-score.
    * Part-score bonus: **none on boards 1-3** (of the duplicate table only slams,
      overtricks, undertricks and the bonus for making a doubled or redoubled contract
      apply; the duplicate 50 per part-score does not, because part-scores carry over
      instead).  On board 4 a made contract that does not complete a game earns 100.
    * Slam bonuses, overtricks, undertrick penalties (to the defenders), and 50/100 for
      making a doubled/redoubled contract: the duplicate table.  No honours.
    * Four passes: the same dealer deals again; the board number does not advance.
    * After board 4 the match is finished.  Final score of a side (:attr:`final_scores`):
      its points minus the other side's, never below zero.

    State: :attr:`board_number`, :attr:`dealer`, :attr:`vulnerability` (of the board to
    play next; ``None`` once finished), :attr:`part_scores`, :attr:`totals`,
    :attr:`is_finished`, :attr:`boards`.
    """

    def __init__(self) -> None:
        self._board = 1
        self._parts = [0, 0]
        self._totals = [0, 0]
        self._boards: List[ChicagoBoard] = []

    # -- state ----------------------------------------------------------------------
    @property
    def board_number(self) -> Optional[int]:
        """The board to play next, 1..4, or ``None`` when the match is finished."""
        return None if self.is_finished else self._board

    @property
    def dealer(self) -> Optional[Seat]:
        """Dealer of the board to play next (``None`` when finished)."""
        return None if self.is_finished else _CHICAGO[self._board][0]

    @property
    def vulnerability(self) -> Optional[Vulnerability]:
        """Vulnerability of the board to play next (``None`` when finished)."""
        return None if self.is_finished else _CHICAGO[self._board][1]

    @staticmethod
    def board_dealer(board: int) -> Seat:
        """Dealer of Chicago board 1..4.

        :raises ScoringError: for another board number."""
        if board not in _CHICAGO:
            raise ScoringError(f"invalid Chicago board {brief_repr(board)}: must be 1..4")
        return _CHICAGO[board][0]

    @staticmethod
    def board_vulnerability(board: int) -> Vulnerability:
        """Vulnerability of Chicago board 1..4.

        :raises ScoringError: for another board number."""
        if board not in _CHICAGO:
            raise ScoringError(f"invalid Chicago board {brief_repr(board)}: must be 1..4")
        return _CHICAGO[board][1]

    @property
    def part_scores(self) -> Tuple[int, int]:
        """Carried part-scores ``(NS, EW)`` (trick points not yet part of a game)."""
        return (self._parts[0], self._parts[1])

    @property
    def totals(self) -> Tuple[int, int]:
        """All points each side has earned so far ``(NS, EW)``."""
        return (self._totals[0], self._totals[1])

    @property
    def final_scores(self) -> Tuple[int, int]:
        """``(NS, EW)``: each side's points minus the other side's, never below zero (the
        "final score" of ``docs/game.md``, "Rubber and Chicago"; meaningful at any time,
        final once finished)."""
        ns, ew = self._totals
        return (max(0, ns - ew), max(0, ew - ns))

    @property
    def is_finished(self) -> bool:
        return self._board > CHICAGO_BOARDS

    @property
    def boards(self) -> Tuple[ChicagoBoard, ...]:
        """Every deal scored so far, passed-out deals included, in order."""
        return tuple(self._boards)

    # -- scoring --------------------------------------------------------------------
    def add(self, contract: Optional[Contract], tricks: Optional[int] = None, *,
            declarer: "Seat | Side | None" = None) -> ChicagoBoard:
        """Score the current board and return its :class:`ChicagoBoard`.

        :param contract: the contract (``declarer`` may be set in it), contract text, or
            ``None`` when all four players passed (the board is dealt again).
        :param tricks: tricks taken by declarer's side, 0..13.
        :param declarer: declarer's seat or side when ``contract.declarer`` is not set.
        :raises ScoringError: after the match has finished, for tricks outside 0..13, or
            when no declarer is known.
        """
        if self.is_finished:
            raise ScoringError(f"the Chicago match is finished; cannot add {contract}")
        board = self._board
        dealer, vulnerability = _CHICAGO[board]
        if contract is None:
            rec = ChicagoBoard(board, dealer, vulnerability, None, None, None, _pair(),
                               part_scores=self.part_scores)
            self._boards.append(rec)
            return rec
        contract = _check_contract(contract)
        tricks = _check_tricks(tricks)
        side = _declarer_side(contract, declarer)
        if contract.declarer is None and isinstance(declarer, Seat):
            contract = contract.with_declarer(declarer)
        vul = vulnerability.is_vulnerable(side)
        points = _pair()
        game = False
        bonus = 0
        tp = 0
        if tricks >= contract.tricks_needed:
            made = _made_parts(contract, tricks, vul)
            tp = made.trick_points
            carried = self._parts[side] + tp
            if carried >= 100:
                game = True
                bonus = 500 if vul else 300
                self._parts = [0, 0]
            else:
                self._parts[side] = carried
                if board == CHICAGO_BOARDS:
                    bonus = 100
            points = _add_to(points, side, sum(made) + bonus)
        else:
            penalty = undertrick_penalty(contract.tricks_needed - tricks, contract.doubled, vul)
            points = _add_to(points, side.opponents, penalty)
        for s in Side:
            self._totals[s] += points[s]
        rec = ChicagoBoard(board, dealer, vulnerability, contract, tricks, side, points,
                           tp, game, bonus, self.part_scores)
        self._boards.append(rec)
        self._board += 1
        return rec

    def pass_out(self) -> ChicagoBoard:
        """Record four passes: the same dealer deals again (same as ``add(None)``)."""
        return self.add(None)

    def __repr__(self) -> str:
        state = "finished" if self.is_finished else f"board {self._board}"
        return (f"<ChicagoScore {state}, totals NS {self._totals[0]} EW {self._totals[1]}, "
                f"part-scores NS {self._parts[0]} EW {self._parts[1]}>")

