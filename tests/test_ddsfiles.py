"""Tests of ddsolver.ddsfiles, the reader of DDS's test-input files.

Data: tests/data/list100.txt and tests/data/sol10.txt are DDS's own files (Apache-2.0, see
tests/data/LICENSE-DDS-Apache-2.0.txt).  Their answers were checked against DDS 2.9.0 itself
(benchmarks/suites/test_bench_dds.py repeats that check when endplay is installed).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddsolver.cards import Card, Strain
from ddsolver.ddsfiles import (
    DDSFileError,
    DDSRecord,
    DealerPar,
    SidesPar,
    dds_strain,
    dds_vulnerability,
    parse_dds_text,
    parse_gib_line,
    read_dds_file,
    read_gib_tables,
)
from ddsolver.deal import Deal
from ddsolver.errors import BridgeError
from ddsolver.table import Seat, Vulnerability

DATA = Path(__file__).parent / "data"
LIST100 = DATA / "list100.txt"


@pytest.fixture(scope="module")
def records() -> list:
    return read_dds_file(LIST100)


FIRST_TEXT = LIST100.read_text().splitlines()[1:8]


def C(text: str) -> Card:
    return Card.from_str(text)


# --------------------------------------------------------------------------------------
# the whole file


def test_list100_has_100_distinct_deals(records):
    assert len(records) == 100
    assert [r.number for r in records] == list(range(100))
    assert [r.line for r in records[:3]] == [2, 9, 16]
    assert len({r.deal for r in records}) == 100
    assert all(isinstance(r, DDSRecord) and r.deal.is_complete() for r in records)


def test_every_fut_lists_the_13_cards_of_the_leader(records):
    for r in records:
        scores = r.lead_scores()
        assert set(scores) == set(r.deal[r.leader]), r
        group_scores = [g.score for g in r.future_tricks]
        assert group_scores == sorted(group_scores, reverse=True), r


def test_fut_best_agrees_with_table_for_declarer_rho_of_leader(records):
    # Ties the TABLE orientation (strain order S,H,D,C,NT; seats N,E,S,W; declarer's
    # tricks) to the independent FUT answer: the leader's side takes 13 - declarer's tricks.
    strains_seen, leaders_seen = set(), set()
    for r in records:
        best = max(g.score for g in r.future_tricks)
        assert best == 13 - int(r.table[r.trump, r.leader.rho]), r
        strains_seen.add(r.trump)
        leaders_seen.add(r.leader)
    assert strains_seen == set(Strain) and leaders_seen == set(Seat)


def test_trace_starts_at_the_table_value_and_stops_after_48_cards(records):
    for r in records:
        assert r.declarer == r.leader.rho
        assert r.trace[0] == r.table[r.trump, r.declarer], r
        assert len(r.trace) == min(len(r.play), 48) + 1, r


def test_par_scores_are_from_north_south_view(records):
    for r in records:
        assert r.sides_par.ns_score == r.par.score
        ew_owns = all("-EW" in c or c.split("-")[1] in ("E", "W") for c in r.par.contracts)
        ns_owns = all("-NS" in c or c.split("-")[1] in ("N", "S") for c in r.par.contracts)
        if ew_owns and not any("*" in c for c in r.par.contracts):
            assert r.par.score < 0, r  # EW make their undoubled par contract
        if ns_owns and not any("*" in c for c in r.par.contracts):
            assert r.par.score > 0, r


# --------------------------------------------------------------------------------------
# concrete values of the first hands


def test_first_record_values(records):
    r = records[0]
    assert r.deal == Deal.from_pbn(
        "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3")
    assert (r.dealer, r.vulnerability, r.trump, r.leader) == (
        Seat.NORTH, Vulnerability.NONE, Strain.SPADES, Seat.NORTH)
    assert r.table.shape == (5, 4) and r.table.dtype == np.uint8
    #                      N  E  S  W
    expected = np.array([[7, 5, 7, 5],    # clubs
                         [5, 7, 5, 7],    # diamonds
                         [6, 6, 6, 6],    # hearts
                         [5, 8, 5, 8],    # spades
                         [6, 6, 6, 6]])   # notrump
    assert (r.table == expected).all()
    assert r.table[Strain.SPADES, Seat.WEST] == 8
    assert r.par == DealerPar(-110, ("2S-EW",))
    assert r.sides_par == SidesPar(-110, 110, ("EW 2S",), ("EW 2S",))
    assert len(r.future_tricks) == 9
    g0 = r.future_tricks[0]
    assert (g0.card, g0.equals, g0.score) == (C("D5"), (), 5)
    by_card = {g.card: g for g in r.future_tricks}
    assert by_card[C("CT")].equals == (C("C9"), C("C8"))
    assert by_card[C("SQ")].equals == (C("SJ"),)
    assert by_card[C("H6")].equals == (C("H5"),)
    assert by_card[C("HK")].score == 4
    assert r.lead_scores()[C("C8")] == 5
    assert len(r.play) == 45 and r.play[:4] == (C("CT"), C("C4"), C("CA"), C("CJ"))
    assert r.play[-1] == C("DJ")
    assert r.trace == (8,) * 46


def test_second_record_east_first_deal_and_sacrifice(records):
    r = records[1]
    assert (r.dealer, r.vulnerability, r.trump, r.leader) == (
        Seat.EAST, Vulnerability.NS, Strain.NOTRUMP, Seat.EAST)
    assert str(r.deal[Seat.EAST]) == "QJT5432.T.6.QJ82"
    assert str(r.deal[Seat.NORTH]) == "AK96.KQ8.A98.K63"
    assert r.table[Strain.NOTRUMP].tolist() == [9, 3, 9, 3]
    assert r.table[Strain.SPADES].tolist() == [4, 9, 4, 9]
    assert r.par == DealerPar(100, ("4S*-EW-1",))
    assert r.sides_par.ns_contracts == ("EW 4Sx",)
    assert len(r.play) == 52 and len(r.trace) == 49
    assert r.trace[:3] == (9, 10, 10)


def test_multiple_par_contracts(records):
    r = records[3]
    assert r.par == DealerPar(100, ("3C*-EW-1", "2N*-EW-1"))
    assert r.sides_par.ns_contracts == ("EW 2Nx", "EW 3Cx")


def test_table_is_read_only(records):
    with pytest.raises(ValueError):
        records[0].table[0, 0] = 1


def test_read_from_open_file_and_text_agree(records):
    with open(LIST100) as fh:
        again = read_dds_file(fh)
    from_text = parse_dds_text(LIST100.read_text())
    assert [r.deal for r in again] == [r.deal for r in records] == [r.deal for r in from_text]


def test_codes():
    assert [dds_strain(i) for i in range(5)] == [
        Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS, Strain.NOTRUMP]
    assert [dds_vulnerability(i) for i in range(4)] == [
        Vulnerability.NONE, Vulnerability.BOTH, Vulnerability.NS, Vulnerability.EW]
    with pytest.raises(DDSFileError, match="5"):
        dds_strain(5)
    with pytest.raises(DDSFileError, match="-1"):
        dds_vulnerability(-1)


# --------------------------------------------------------------------------------------
# malformed input


def _with(line_no: int, new: str) -> str:
    lines = list(FIRST_TEXT)
    lines[line_no] = new
    return "\n".join(lines)


@pytest.mark.parametrize("index, bad, message", [
    (0, 'PBN 0 0 5 0 "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"',
     "strain code 5"),
    (0, 'PBN 0 0 0 4 "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"',
     "first seat 4"),
    (0, 'PBN 0 0 0 0 "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJQ"',
     "duplicate"),
    (0, 'PBN 0 0 0 "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"',
     "4 numbers"),
    (1, "FUT 1 0 14 0 5", "not held by the leader"),
    (1, "FUT 2 0 14 0 5", "needs 9 numbers"),
    (1, "FUT 1 0 12 4096 5", "equals mask"),
    (2, "TABLE 5 8 5 8 6 6 6 6 5 7 5 7 7 5 7 5 6 6 6", "20 numbers"),
    (2, "TABLE 5 8 5 8 6 6 6 6 5 7 5 7 7 5 7 5 6 6 6 14", "0..13"),
    (2, "TABLE 5 8 5 8 6 6 6 6 5 7 5 7 7 5 7 5 6 6 6 x", "'x' is not an integer"),
    (3, 'PAR "EW -110" "EW 110" "NS:EW 2S" "EW:EW 2S"', "NS score"),
    (3, 'PAR "NS -110" "EW 110" "NS:EW 2S" "EW:EW 2S', "No closing quotation"),
    (4, 'PAR2 "-110" "2S-XY"', "invalid contract"),
    (5, 'PLAY 2 "CTC"', "count 2"),
    (5, 'PLAY 2 "CTCT"', "twice"),
    (5, 'PLAY 1 "C1"', "invalid card"),
    (6, "TRACE 3 8 8", "count"),
    (6, "TRACE 2 8 14", "0..13"),
    (4, "TRACE 2 8 8", "expected a PAR2 line"),
    (2, "TABLES 1", "unknown line type"),
])
def test_malformed_lines_raise_with_line_number(index, bad, message):
    with pytest.raises(DDSFileError, match=message) as info:
        parse_dds_text(_with(index, bad), name="x.txt")
    assert f"x.txt, line {index + 1}:" in str(info.value)
    assert isinstance(info.value, BridgeError)


def test_truncated_file_and_wrong_number():
    with pytest.raises(DDSFileError, match="ends inside a hand"):
        parse_dds_text("\n".join(FIRST_TEXT[:5]))
    with pytest.raises(DDSFileError, match="NUMBER says 2 hands, found 1"):
        parse_dds_text("NUMBER 2\n" + "\n".join(FIRST_TEXT))
    with pytest.raises(DDSFileError, match="NUMBER must be the first line"):
        parse_dds_text("\n".join(FIRST_TEXT) + "\nNUMBER 1")
    with pytest.raises(DDSFileError, match="NUMBER needs one count"):
        parse_dds_text("NUMBER 1 2\n" + "\n".join(FIRST_TEXT))
    with pytest.raises(DDSFileError, match="'x' is not an integer"):
        parse_dds_text("NUMBER x\n" + "\n".join(FIRST_TEXT))
    # blank lines and trailing spaces are fine
    one = parse_dds_text("NUMBER 1 \n\n" + "  \n".join(FIRST_TEXT) + "\n\n")
    assert len(one) == 1 and one[0].par.score == -110


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 6), st.integers(0, 40), st.text(
    alphabet=st.sampled_from(list('0123456789 "-NSEWx*:.CHDTQKAJ')), max_size=6))
def test_any_corruption_gives_a_typed_error_or_a_parse(line_no, pos, junk):
    lines = list(FIRST_TEXT)
    s = lines[line_no]
    lines[line_no] = s[:pos] + junk + s[pos + len(junk):]
    try:
        out = parse_dds_text("\n".join(lines))
    except DDSFileError:
        return
    assert len(out) == 1


def test_passed_out_par2_is_empty():
    rec = parse_dds_text(_with(4, 'PAR2 "0" "pass"'))[0]
    assert rec.par == DealerPar(0, ())


# --------------------------------------------------------------------------------------
# GIB format (sol10.txt)


def test_sol10_tables():
    pairs = read_gib_tables(DATA / "sol10.txt")
    assert len(pairs) == 10
    deal, table = pairs[0]
    # line 1: "T5.K4.652.A98542 K6.QJT976.QT7.Q6 432.A.AKJ93.JT73 AQJ987.8532.84.K:6565..."
    assert str(deal[Seat.WEST]) == "T5.K4.652.A98542"
    assert str(deal[Seat.SOUTH]) == "AQJ987.8532.84.K"
    # NT group "6565": E, N, W, S -> NS takes 6, 5, 6, 5.
    assert table[Strain.NOTRUMP].tolist() == [5, 13 - 6, 5, 13 - 6]
    # Clubs group "3232" (last).
    assert table[Strain.CLUBS].tolist() == [2, 10, 2, 10]
    assert table.dtype == np.uint8 and not table.flags.writeable


def test_gib_line_errors():
    line = (DATA / "sol10.txt").read_text().splitlines()[0]
    with pytest.raises(DDSFileError, match="88 characters"):
        parse_gib_line(line[:-1])
    with pytest.raises(DDSFileError, match="hex digits"):
        parse_gib_line(line[:-1] + "e")
    with pytest.raises(DDSFileError, match="GIB hands"):
        parse_gib_line("Q" + line[1:])

