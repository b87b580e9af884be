"""The double-dummy and par tags of a PBN game, read and written here only.

* ``DoubleDummyTricks``: 20 hex digits, the tricks of declarers N, S, E, W, each in strain
  order NT, S, H, D, C (the layout BridgeComposer and other programs write);
* ``OptimumResultTable``: the same 20 results as a section of a supplemental tag with the
  columns ``Declarer;Denomination\\2R;Result\\2R`` (PBN 2.1, section 5.7; chapter 5 for
  the column format);
* ``OptimumScore``: par for a side, ``"NS 420"`` or ``"EW -500"`` (a sacrifice);
* ``ParContract``: the par contracts, ``"NS 4S="``, ``"EW 5C=; EW 5D="``, ``"NS 4SX-3"``, or
  ``"Pass"``.

Writing: :func:`dd_tricks_to_pbn`, :func:`optimum_result_table`, :func:`par_tags`, and
:func:`write_dd_tags`, :func:`write_par_tags`, which set them in a game (for
:meth:`PBNGame.set_double_dummy <ddsolver.pbn.game.PBNGame.set_double_dummy>` and
:meth:`~ddsolver.pbn.game.PBNGame.set_par`).  Reading: :func:`dd_tricks_from_pbn`,
:func:`parse_optimum_result_table`, :func:`optimum_score_ns`, :func:`par_contract_set`.
Comparing another program's tags with a table and par: :func:`compare_analysis_tags`.

Tricks count for declarer's side; tables are anything indexed ``table[strain, seat]``
(a :class:`~ddsolver.solver.DDTable`, a ``(5, 4)`` array with rows C, D, H, S, NT and
columns N, E, S, W, or a dict keyed by ``(Strain, Seat)``).  Par as DDS 2.9 ``DealerPar``
gives it (:func:`ddsolver.par.par`).

Source: PBN standard 2.1, Tis Veugen and Kaj G Backas (2007, text of 2017.02.14), section
5.7 and chapter 5; the tag forms of BridgeComposer's hand records (the repository's
``examples/club_hand_record_36.pbn`` is one).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..cards import STRAINS_HIGH_FIRST, Strain
from ..errors import BridgeError, InvalidNotationError, PBNError, brief_repr
from ..table import Seat

if TYPE_CHECKING:  # pragma: no cover
    from .game import PBNGame

__all__ = [
    "ANALYSIS_TAGS",
    "compare_analysis_tags",
    "dd_tricks_from_pbn",
    "dd_tricks_to_pbn",
    "optimum_result_table",
    "optimum_score_ns",
    "par_contract_set",
    "par_tags",
    "parse_optimum_result_table",
    "write_dd_tags",
    "write_par_tags",
]

#: The four tags, in the order BridgeComposer writes them (the OptimumResultTable section
#: last).
ANALYSIS_TAGS = ("DoubleDummyTricks", "OptimumScore", "ParContract", "OptimumResultTable")

_DD_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
_DD_STRAINS = STRAINS_HIGH_FIRST


def _dd_value(table: Any, strain: Strain, seat: Seat) -> int:
    try:
        value = table[strain, seat]
    except (KeyError, TypeError, IndexError):
        value = table[(strain, seat)]
    value = int(value)
    if not 0 <= value <= 13:
        raise PBNError(f"double-dummy tricks {value} for {seat.name} in {strain.letter} "
                       f"outside 0..13")
    return value


def dd_tricks_to_pbn(table: Any) -> str:
    """The ``DoubleDummyTricks`` tag value: 20 hex digits, declarers N, S, E, W, each in
    strain order NT, S, H, D, C (the layout BridgeComposer and other programs write).

    :param table: indexed ``table[strain, seat]`` -> tricks (see
        :meth:`PBNGame.set_double_dummy`).
    :raises PBNError: for a trick count outside 0..13.
    """
    return "".join(format(_dd_value(table, st, se), "x")
                   for se in _DD_SEATS for st in _DD_STRAINS)


def dd_tricks_from_pbn(text: str) -> dict[tuple[Strain, Seat], int]:
    """Read a ``DoubleDummyTricks`` tag value (see :func:`dd_tricks_to_pbn`).

    :returns: ``{(strain, seat): tricks}`` for the 20 combinations.
    :raises PBNError: unless ``text`` is 20 hex digits each at most 13.
    """
    s = text.strip()
    if len(s) != 20 or any(ch not in "0123456789abcdefABCDEF" for ch in s):
        raise PBNError(f"bad DoubleDummyTricks {brief_repr(text)}: expected 20 hex digits")
    out = {}
    for i, ch in enumerate(s):
        value = int(ch, 16)
        if value > 13:
            raise PBNError(f"bad DoubleDummyTricks {brief_repr(text)}: {value} tricks")
        out[(_DD_STRAINS[i % 5], _DD_SEATS[i // 5])] = value
    return out


def par_tags(result: Any) -> tuple[str, str]:
    """The ``OptimumScore`` and ``ParContract`` tag values for a par result, in the form
    BridgeComposer writes them: ``("EW 430", "EW 3N+1")``, ``("NS -500", "NS 4SX-3")``,
    ``("EW 600", "EW 5C=; EW 5D=")``.

    The score is given for the side of the par contracts (negative for a sacrifice); each
    contract is ``<declarer(s)> <level><C|D|H|S|N>[X]<=|+n|-n>`` with the declaring side, or
    the single seat when only that seat makes it; several contracts are listed in bidding
    order, separated by ``"; "``.  A passed-out par gives ``("NS 0", "Pass")``.

    :param result: a :class:`ddsolver.par.ParResult` (``score`` for North-South,
        ``contracts`` with ``level``, ``strain``, ``doubled``, ``declarer``, ``result``).
    :raises PBNError: for contracts of both sides in one result.
    """
    contracts = list(result.contracts)
    if not contracts:
        return "NS 0", "Pass"
    sides = {"NS" if c.declarer in ("NS", "N", "S") else "EW" for c in contracts}
    if len(sides) != 1:
        raise PBNError(f"par contracts of both sides: {result}")
    side = sides.pop()
    score = int(result.score) if side == "NS" else -int(result.score)
    parts = []
    for c in sorted(contracts, key=lambda c: (c.level, int(c.strain))):
        outcome = "=" if c.result == 0 else f"{c.result:+d}"
        parts.append(f"{c.declarer} {c.level}{'CDHSN'[int(c.strain)]}"
                     f"{'X' if c.doubled else ''}{outcome}")
    return f"{side} {score}", "; ".join(parts)


def optimum_result_table(table: Any) -> tuple[str, list[str]]:
    """The ``OptimumResultTable`` tag value and section lines (PBN 2.1, section 5.7):
    declarers N, S, E, W, strains NT, S, H, D, C, one line each (``"N NT 10"``).

    :returns: ``(header, lines)``; the result column is 2 wide if any value has 2 digits.
    :raises PBNError: for a trick count outside 0..13.
    """
    values = [(se, st, _dd_value(table, st, se)) for se in _DD_SEATS for st in _DD_STRAINS]
    width = 2 if any(v >= 10 for _, _, v in values) else 1
    header = f"Declarer;Denomination\\2R;Result\\{width}R"
    lines = [_result_line(se.letter, st.letter, v, width) for se, st, v in values]
    return header, lines


#: The lines of ``OptimumResultTable`` made so far, by (declarer, strain, tricks, width): at
#: most 4 x 5 x 14 x 2 = 560 of them, shared by every game's section (a file of 300,000
#: analysed boards held 6 million strings of ~56 bytes, one per line per game, otherwise).
_RESULT_LINES: dict[tuple[str, str, int, int], str] = {}


def _result_line(seat: str, strain: str, tricks: int, width: int) -> str:
    """One ``OptimumResultTable`` line, ``"N NT 10"`` (the result right-aligned in
    ``width`` characters), the same string object for the same line every time."""
    key = (seat, strain, tricks, width)
    line = _RESULT_LINES.get(key)
    if line is None:
        line = _RESULT_LINES[key] = f"{seat} {strain:>2} {tricks:>{width}}"
    return line


#: The columns of an ``OptimumResultTable`` in the order PBN 2.1's example and every
#: program seen writes them; a header naming them in another order is followed.
_ORT_COLUMNS = ("declarer", "denomination", "result")


def _optimum_result_columns(header: str | None) -> tuple[int, int, int, int]:
    """Where declarer, denomination and result stand in a line of an
    ``OptimumResultTable`` whose tag value is ``header`` (PBN 2.1, section 5.3: column
    names separated by ``;``, each perhaps with a ``+``/``-`` sort order before it and a
    ``\\`` format after it), and how many columns a line has.

    :raises PBNError: for a header that names a column twice or lacks one of the three.
    """
    if header is None or not header.strip():
        return 0, 1, 2, 3
    names = [field.split("\\", 1)[0].strip().lstrip("+-").strip().casefold()
             for field in header.split(";")]
    where = []
    for column in _ORT_COLUMNS:
        if names.count(column) != 1:
            raise PBNError(f"OptimumResultTable header {header[:80]!r} "
                           f"{'names' if names.count(column) else 'lacks'} the column "
                           f"{column.capitalize()}{' twice' if names.count(column) else ''}")
        where.append(names.index(column))
    return where[0], where[1], where[2], len(names)


def parse_optimum_result_table(lines: Sequence[str], header: str | None = None
                               ) -> dict[tuple[Strain, Seat], int]:
    """Read the section lines of an ``OptimumResultTable`` (declarer, denomination,
    result per line, or in the order the tag's value ``header`` names them, e.g.
    ``"Denomination;Declarer;Result"``; comments and blank lines skipped).

    :param header: the tag's value (PBN 2.1, section 5.3); ``None`` or empty: the usual
        order ``Declarer;Denomination;Result``.
    :returns: ``{(strain, seat): tricks}``.
    :raises PBNError: for a header without those three columns, or a line that does not
        hold a seat, a strain and a trick count in its columns.
    """
    i_seat, i_strain, i_result, width = _optimum_result_columns(header)
    out = {}
    for line in lines:
        text = line.split(";", 1)[0].strip()
        if not text or text.startswith("{"):
            continue
        parts = text.split()
        tricks = parts[i_result] if len(parts) == width else ""
        # ASCII digits, at most two besides leading zeros (str.isdigit takes '²', which
        # int refuses, and int refuses thousands of digits)
        if not (tricks.isascii() and tricks.isdigit()) or len(tricks.lstrip("0")) > 2:
            raise PBNError(f"bad OptimumResultTable line {brief_repr(line)}")
        try:
            seat = Seat.from_str(parts[i_seat])
            strain = Strain.from_str(parts[i_strain])
        except InvalidNotationError:
            raise PBNError(f"bad OptimumResultTable line {brief_repr(line)}") from None
        out[(strain, seat)] = int(tricks)
    return out



def write_dd_tags(game: PBNGame, table: Any) -> None:
    """Set the ``DoubleDummyTricks`` tag and the ``OptimumResultTable`` section of ``game``
    (added, or replaced in place) from a table (:meth:`PBNGame.set_double_dummy
    <ddsolver.pbn.game.PBNGame.set_double_dummy>`).

    :raises PBNError: for a trick count outside 0..13 (the game is then unchanged).
    """
    tricks = dd_tricks_to_pbn(table)
    header, lines = optimum_result_table(table)
    game.set_tag("DoubleDummyTricks", tricks)
    game.set_tag("OptimumResultTable", header, lines)


def write_par_tags(game: PBNGame, result: Any) -> None:
    """Set the ``OptimumScore`` and ``ParContract`` tags of ``game`` (added, or replaced in
    place) from a par result, as :func:`par_tags` writes them
    (:meth:`PBNGame.set_par <ddsolver.pbn.game.PBNGame.set_par>`).

    :raises PBNError: for a result that cannot be written (the game is then unchanged).
    """
    score, contracts = par_tags(result)
    game.set_tag("OptimumScore", score)
    game.set_tag("ParContract", contracts)


# ASCII digits, few enough for int() (a number of 5,000 digits is beyond its limit)
_SCORE_RE = re.compile(r"\s*(NS|EW)\s+([+-]?[0-9]{1,9})\s*\Z", re.IGNORECASE)
_PAR_PART_RE = re.compile(r"\s*(NS|EW|N|E|S|W)\s+([1-7])\s*(NT|N|C|D|H|S)\s*(XX|X|\*)?\s*"
                          r"(=|[+-][0-9]{1,2})?\s*\Z", re.IGNORECASE)


def optimum_score_ns(text: str) -> int | None:
    """An ``OptimumScore`` value (``"NS 420"``, ``"EW -500"``) as points for North-South,
    or ``None`` if it cannot be read."""
    m = _SCORE_RE.match(text)
    if m is None:
        return None
    value = int(m.group(2))
    return value if m.group(1).upper() == "NS" else -value


def par_contract_set(text: str) -> frozenset | None:
    """A ``ParContract`` value as a set of ``(declarer, level, strain, doubled, result)``
    (declarer ``"NS"``/``"EW"`` or a seat letter, strain ``C D H S N``, doubled a bool,
    result the over- or undertricks), ``frozenset({"PASS"})`` for a passed-out par, or
    ``None`` if it cannot be read.  Contract order and spacing, ``N``/``NT`` and a missing
    ``=`` do not matter; contracts may be separated by ``;`` or ``,``."""
    value = text.strip()
    if value.upper() in ("PASS", "PASSED OUT"):
        return frozenset(["PASS"])
    out = set()
    for part in re.split(r"[;,]", value):
        if not part.strip():
            continue
        # runs of white space as one space, so that a long one that does not match is not
        # split between the pattern's adjacent optional parts in every way (its cube)
        m = _PAR_PART_RE.match(" ".join(part.split()))
        if m is None:
            return None
        declarer, level, strain, dbl, res = m.groups()
        strain = strain.upper()
        strain = "N" if strain == "NT" else strain
        result = 0 if res in (None, "=") else int(res)
        out.add((declarer.upper(), int(level), strain, bool(dbl), result))
    return frozenset(out) if out else None


def compare_analysis_tags(game: PBNGame, table: Any, par_result: Any) -> list[str] | None:
    """Compare the analysis tags already in ``game`` (another program's) with ``table``
    and ``par_result``.

    Tricks are compared entry by entry (an entry the file leaves out is not a difference,
    but an ``OptimumResultTable`` with fewer than 20 results is); ``OptimumScore`` by its
    points for North-South; ``ParContract`` as a set of contracts
    (:func:`par_contract_set`).  An unreadable tag is a difference.

    :param table: indexed ``table[strain, seat]`` -> tricks for declarer's side.
    :param par_result: a :class:`ddsolver.par.ParResult` of the same deal.
    :returns: the differences as sentences (empty: all equal), or ``None`` when the game
        has none of the four tags (nothing compared).
    """
    compared = False
    mismatches: list[str] = []
    ours = {(st, se): int(table[st, se]) for st in Strain for se in _DD_SEATS}

    def compare_tricks(tag: str, theirs: dict) -> None:
        for st in _DD_STRAINS:
            for se in _DD_SEATS:
                if (st, se) in theirs and theirs[(st, se)] != ours[(st, se)]:
                    mismatches.append(f"{tag} {se.letter} {st.letter}: file "
                                      f"{theirs[(st, se)]}, ddsolver {ours[(st, se)]}")

    value = game.get("DoubleDummyTricks")
    if value is not None and value.strip():
        compared = True
        try:
            compare_tricks("DoubleDummyTricks", dd_tricks_from_pbn(value))
        except BridgeError as exc:
            mismatches.append(f"DoubleDummyTricks unreadable: {exc}")
    t = game.tag("OptimumResultTable")
    if t is not None and t.section_view():
        compared = True
        try:
            theirs_table = parse_optimum_result_table(t.section, t.value)
            compare_tricks("OptimumResultTable", theirs_table)
            if len(theirs_table) < 20:
                mismatches.append(f"OptimumResultTable lists {len(theirs_table)} of the 20 "
                                  f"results")
        except BridgeError as exc:
            mismatches.append(f"OptimumResultTable unreadable: {exc}")
    our_score, our_contracts = par_tags(par_result)
    value = game.get("OptimumScore")
    if value is not None and value.strip():
        compared = True
        theirs_score = optimum_score_ns(value)
        if theirs_score is None:
            mismatches.append(f"OptimumScore unreadable: {brief_repr(value, 200)}")
        elif theirs_score != int(par_result.score):
            mismatches.append(f"OptimumScore: file {brief_repr(value, 200)}, "
                              f"ddsolver {our_score!r}")
    value = game.get("ParContract")
    if value is not None and value.strip():
        compared = True
        theirs_set = par_contract_set(value)
        if theirs_set is None:
            mismatches.append(f"ParContract unreadable: {brief_repr(value, 200)}")
        elif theirs_set != par_contract_set(our_contracts):
            mismatches.append(f"ParContract: file {brief_repr(value, 200)}, "
                              f"ddsolver {our_contracts!r}")
    return mismatches if compared else None
