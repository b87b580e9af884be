"""Tests for ddsolver.table: seats, sides, vulnerability and the 16-board cycle."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddsolver.errors import InvalidNotationError
from ddsolver.table import Seat, Side, Vulnerability, board_dealer, board_vulnerability

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
V = Vulnerability

# The standard duplicate cycle (WBF Laws, Law 2), written out by hand.
STANDARD_CYCLE = {
    1: (N, V.NONE), 2: (E, V.NS), 3: (S, V.EW), 4: (W, V.BOTH),
    5: (N, V.NS), 6: (E, V.EW), 7: (S, V.BOTH), 8: (W, V.NONE),
    9: (N, V.EW), 10: (E, V.BOTH), 11: (S, V.NONE), 12: (W, V.NS),
    13: (N, V.BOTH), 14: (E, V.NONE), 15: (S, V.NS), 16: (W, V.EW),
}


# --------------------------------------------------------------------------------------
# Seats and sides
# --------------------------------------------------------------------------------------

def test_seat_neighbours():
    assert [int(s) for s in Seat] == [0, 1, 2, 3]
    assert [s.letter for s in Seat] == ["N", "E", "S", "W"]
    assert [s.lho for s in Seat] == [E, S, W, N]
    assert [s.rho for s in Seat] == [W, N, E, S]
    assert [s.partner for s in Seat] == [S, W, N, E]
    assert [s.side for s in Seat] == [Side.NS, Side.EW, Side.NS, Side.EW]
    assert N.next() == E and N.next(2) == S and N.next(-1) == W and W.next(5) == N
    assert str(S) == "S"


@given(st.sampled_from(list(Seat)), st.integers(-20, 20))
def test_seat_arithmetic(seat, k):
    assert seat.lho.rho == seat and seat.partner.partner == seat
    assert seat.next(k).next(-k) == seat
    assert seat.next(k) == seat.next(k % 4)
    assert seat.lho.lho == seat.partner
    assert seat.partner.side == seat.side and seat.lho.side == seat.side.opponents
    assert Seat.from_str(seat.letter) == seat
    assert Seat.from_str(seat.name.lower()) == seat


@pytest.mark.parametrize("text, seat", [("n", N), ("North", N), ("EAST", E), (" s ", S),
                                        ("west", W)])
def test_seat_from_str(text, seat):
    assert Seat.from_str(text) is seat


@pytest.mark.parametrize("bad", ["", "X", "NE", "Nord", "1", "Q"])
def test_seat_from_str_rejects(bad):
    with pytest.raises(InvalidNotationError) as info:
        Seat.from_str(bad)
    assert repr(bad) in str(info.value)


def test_sides():
    assert Side.NS.seats == (N, S) and Side.EW.seats == (E, W)
    assert Side.NS.opponents == Side.EW and Side.EW.opponents == Side.NS
    for text, side in [("NS", Side.NS), ("N-S", Side.NS), ("ns", Side.NS), ("SN", Side.NS),
                       ("E/W", Side.EW), ("ew", Side.EW), ("WE", Side.EW)]:
        assert Side.from_str(text) is side
    assert str(Side.EW) == "EW"
    for bad in ["", "NE", "N", "X"]:
        with pytest.raises(InvalidNotationError):
            Side.from_str(bad)


# --------------------------------------------------------------------------------------
# Vulnerability
# --------------------------------------------------------------------------------------

def test_vulnerability_is_vulnerable():
    table = {
        V.NONE: (False, False), V.NS: (True, False), V.EW: (False, True), V.BOTH: (True, True),
    }
    for vul, (ns, ew) in table.items():
        assert vul.is_vulnerable(Side.NS) is ns and vul.is_vulnerable(Side.EW) is ew
        assert vul.is_vulnerable(N) is ns and vul.is_vulnerable(S) is ns
        assert vul.is_vulnerable(E) is ew and vul.is_vulnerable(W) is ew
        assert Vulnerability.from_sides(ns, ew) is vul


@pytest.mark.parametrize("text, vul", [
    ("None", V.NONE), ("Love", V.NONE), ("-", V.NONE), ("o", V.NONE), ("0", V.NONE),
    ("NS", V.NS), ("N-S", V.NS), ("n", V.NS), ("ns", V.NS),
    ("EW", V.EW), ("E/W", V.EW), ("e", V.EW),
    ("All", V.BOTH), ("Both", V.BOTH), ("b", V.BOTH), ("ALL", V.BOTH),
])
def test_vulnerability_from_str(text, vul):
    assert Vulnerability.from_str(text) is vul


@pytest.mark.parametrize("bad", ["X", "NE", "Al", "some", "NSEW"])
def test_vulnerability_from_str_rejects(bad):
    with pytest.raises(InvalidNotationError) as info:
        Vulnerability.from_str(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("empty", ["", "   ", "\t"])
def test_vulnerability_from_str_refuses_empty_text_naming_the_values(empty):
    with pytest.raises(InvalidNotationError, match=r"^empty vulnerability: give one of None, "
                                                   r"NS, EW or All \(also Love, -, "):
        Vulnerability.from_str(empty)
    with pytest.raises(InvalidNotationError, match="NS, EW or All"):
        Vulnerability.from_str("NE")
    for not_text in (None, 3):
        with pytest.raises(TypeError, match="must be text"):
            Vulnerability.from_str(not_text)


def test_vulnerability_pbn_round_trip():
    assert [v.pbn for v in V] == ["None", "NS", "EW", "All"]
    for v in V:
        assert Vulnerability.from_str(v.pbn) is v
        assert Vulnerability.from_str(str(v)) is v


# --------------------------------------------------------------------------------------
# Board cycle
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("board", range(1, 33))
def test_board_cycle_1_to_32(board):
    dealer, vul = STANDARD_CYCLE[(board - 1) % 16 + 1]
    assert board_dealer(board) is dealer
    assert board_vulnerability(board) is vul


def test_board_17_is_board_1():
    assert (board_dealer(17), board_vulnerability(17)) == (N, V.NONE)
    assert (board_dealer(32), board_vulnerability(32)) == (W, V.EW)
    assert (board_dealer(1000), board_vulnerability(1000)) == \
        STANDARD_CYCLE[(1000 - 1) % 16 + 1]


def test_board_cycle_counts():
    # over one cycle each seat deals 4 times and each vulnerability occurs 4 times
    vuls = [board_vulnerability(b) for b in range(1, 17)]
    dealers = [board_dealer(b) for b in range(1, 17)]
    assert all(vuls.count(v) == 4 for v in V)
    assert all(dealers.count(s) == 4 for s in Seat)


@pytest.mark.parametrize("bad", [0, -1, -16])
def test_board_numbers_start_at_one(bad):
    with pytest.raises(ValueError) as info:
        board_dealer(bad)
    assert repr(bad) in str(info.value)
    with pytest.raises(ValueError):
        board_vulnerability(bad)


def test_vulnerability_coerce():
    from ddsolver.errors import InvalidNotationError
    assert Vulnerability.coerce("All") is Vulnerability.BOTH
    assert Vulnerability.coerce("ns") is Vulnerability.NS
    assert Vulnerability.coerce(Vulnerability.EW) is Vulnerability.EW
    assert Vulnerability.coerce(0) is Vulnerability.NONE
    for bad in (None, 1.0, True, [1]):
        with pytest.raises(TypeError):
            Vulnerability.coerce(bad)
    for bad in ("sideways", 4, -1):
        with pytest.raises(InvalidNotationError):
            Vulnerability.coerce(bad)


@pytest.mark.parametrize("parse, start", [
    (Seat.from_str, "invalid seat 'xxx"), (Side.from_str, "invalid side 'xxx"),
    (Vulnerability.from_str, "invalid vulnerability 'xxx"),
])
def test_a_long_text_is_quoted_by_its_start_and_length(parse, start):
    """A 10 MB string was quoted whole in the message."""
    with pytest.raises(InvalidNotationError) as info:
        parse("x" * 1_000_000)
    message = str(info.value)
    assert message.startswith(start)
    assert "'... (1,000,000 characters)" in message and len(message) < 250


def test_coerce_quotes_a_huge_integer_briefly():
    """Seat.coerce(10**5000) raised Python's ValueError 'Exceeds the limit (4300 digits)'
    while quoting the number."""
    with pytest.raises(InvalidNotationError, match=r"invalid seat <an integer of about 5,000 "
                                                   r"digits>: need 0\.\.3"):
        Seat.coerce(10**5000)


@pytest.mark.parametrize("parse", [Seat.from_str, Side.from_str])
@pytest.mark.parametrize("bad", [None, 5, b"NS", ["N"]])
def test_from_str_refuses_what_is_not_a_string_by_name(parse, bad):
    """Seat.from_str(None) was AttributeError "'NoneType' object has no attribute 'strip'",
    Side.from_str(b'NS') a TypeError from bytes.replace."""
    with pytest.raises(InvalidNotationError, match=r"invalid (seat|side) .*: expected a "
                                                   r"string"):
        parse(bad)
