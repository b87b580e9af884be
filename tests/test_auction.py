"""Tests for ddsolver.auction: calls, legality (WBF Laws 18-19, 22, 39), contract, declarer."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddsolver import auction as auction_module
from ddsolver import scoring
from ddsolver.auction import DOUBLE, PASS, REDOUBLE, Auction, Call, Contract
from ddsolver.cards import Strain
from ddsolver.errors import AuctionFinishedError, IllegalCallError, InvalidNotationError
from ddsolver.table import Seat

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
ALL_CALLS = [PASS, DOUBLE, REDOUBLE] + [Call.bid(lv, s) for lv in range(1, 8) for s in Strain]


# --------------------------------------------------------------------------------------
# Call
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("1NT", "1NT"), ("1N", "1NT"), ("1nt", "1NT"), ("2♠", "2S"), ("2s", "2S"),
    ("7 NT", "7NT"), ("3♣", "3C"), ("4♦", "4D"), ("5♥", "5H"), ("6♡", "6H"),
    ("P", "Pass"), ("p", "Pass"), ("Pass", "Pass"), ("PASS", "Pass"),
    ("X", "X"), ("x", "X"), ("D", "X"), ("d", "X"), ("Dbl", "X"), ("Double", "X"),
    ("XX", "XX"), ("R", "XX"), ("r", "XX"), ("Rdbl", "XX"), ("Redouble", "XX"),
    (" 1C ", "1C"), ("1N!", "1NT"), ("p!", "Pass"),
])
def test_call_from_str(text, expected):
    assert str(Call.from_str(text)) == expected


@pytest.mark.parametrize("bad", ["", "0C", "8NT", "1", "NT", "1Z", "XXX", "1NTX", "PP",
                                 "11C", "Dble", "-", "1 N T"])
def test_call_from_str_rejects(bad):
    with pytest.raises(InvalidNotationError) as info:
        Call.from_str(bad)
    assert repr(bad) in str(info.value)


def test_call_from_str_non_string():
    with pytest.raises(InvalidNotationError):
        Call.from_str(3)  # type: ignore[arg-type]


def test_call_properties():
    b = Call.from_str("3NT")
    assert b.is_bid and not (b.is_pass or b.is_double or b.is_redouble)
    assert (b.level, b.strain, b.index) == (3, Strain.NOTRUMP, 14)
    assert PASS.is_pass and not PASS.is_bid and PASS.level is None and PASS.strain is None
    assert DOUBLE.is_double and REDOUBLE.is_redouble
    assert PASS.index is None and DOUBLE.index is None
    assert Call.from_str("1C").index == 0 and Call.from_str("7NT").index == 34
    assert Call.from_str("2S").symbol == "2♠" and Call.from_str("2NT").symbol == "2NT"
    assert PASS.symbol == "Pass" and str(DOUBLE) == "X" and str(REDOUBLE) == "XX"


def test_call_bid_constructor():
    assert Call.bid(1, Strain.NOTRUMP) is Call.from_str("1NT")
    assert Call.bid(4, "s") is Call.from_str("4S")
    assert Call.bid(2, 2) is Call.from_str("2H")
    for level, strain in [(0, Strain.CLUBS), (8, Strain.CLUBS), (1, 5), (1, "Z"),
                          (1.5, Strain.CLUBS), ("1", Strain.CLUBS), (True, Strain.CLUBS),
                          (1, None)]:
        with pytest.raises(InvalidNotationError):
            Call.bid(level, strain)  # type: ignore[arg-type]


def test_call_identity_ordering_and_pickle():
    assert Call.from_str("Pass") is PASS and Call.from_str("X") is DOUBLE
    assert Call.from_str("2s") is Call.from_str("2♠")
    assert Call.from_str("1H") < Call.from_str("1S") < Call.from_str("1NT") < Call.from_str("2C")
    assert Call.from_str("7NT") >= Call.from_str("7NT") > Call.from_str("7S")
    assert Call.from_str("1D") <= Call.from_str("1D")
    with pytest.raises(TypeError):
        PASS < Call.from_str("1C")  # noqa: B015
    for c in ALL_CALLS:
        assert pickle.loads(pickle.dumps(c)) is c
        assert copy.deepcopy(c) is c
        assert eval(repr(c), {"Call": Call}) is c
    assert len(set(ALL_CALLS)) == 38
    with pytest.raises(AttributeError):
        PASS._kind = 3  # type: ignore[misc]


@given(st.sampled_from(ALL_CALLS))
def test_call_str_round_trip(call):
    assert Call.from_str(str(call)) is call
    assert Call.from_str(str(call).lower()) is call
    assert Call.from_str(call.symbol) is call


def test_contract_is_shared_with_scoring():
    assert Contract is scoring.Contract
    assert "Contract" in auction_module.__all__


# --------------------------------------------------------------------------------------
# The spec example and ends of auctions
# --------------------------------------------------------------------------------------

def test_spec_example():
    a = Auction(N)
    assert a.to_act == N
    a.add("1NT")
    assert a.to_act == E
    a.add(PASS).add("3NT")
    assert a.to_act == W and not a.is_finished and a.contract is None
    a.add("Pass").add("Pass")
    assert not a.is_finished and a.to_act == E
    a.add("Pass")
    assert a.is_finished and not a.is_passed_out
    assert a.contract == Contract(3, Strain.NOTRUMP, 0, N)
    assert str(a.contract) == "3NTN"
    assert (a.declarer, a.dummy, a.opening_leader) == (N, S, E)
    assert a.to_act is None
    assert len(a) == 6
    assert a.legal_calls() == []


def test_passed_out():
    a = Auction(E, ["P", "P", "P"])
    assert not a.is_finished and a.to_act == N
    a.add("P")
    assert a.is_finished and a.is_passed_out
    assert (a.contract, a.declarer, a.dummy, a.opening_leader) == (None, None, None, None)
    assert a.current_contract is None and a.last_bid is None and a.last_bidder is None
    with pytest.raises(AuctionFinishedError) as info:
        a.add("1C")
    assert "1C" in str(info.value)
    assert isinstance(info.value, IllegalCallError)


def test_fourth_seat_opening():
    a = Auction.from_str(N, "P P P 1C P P P")
    assert a.is_finished and not a.is_passed_out
    assert a.contract == Contract.from_str("1CW")
    assert (a.dummy, a.opening_leader) == (E, N)


def test_three_passes_after_bid_not_before():
    a = Auction.from_str(N, "1C P P")
    assert not a.is_finished
    a.add("X")                  # West re-opens with a double
    assert not a.is_finished
    a.add("P").add("P")
    assert not a.is_finished
    a.add("P")
    assert a.is_finished and a.contract == Contract.from_str("1CXN")


@pytest.mark.parametrize("text, contract, dummy, leader", [
    ("1NT X P P P", "1NTXN", S, E),
    ("1NT X XX P P P", "1NTXXN", S, E),
    ("1H X P P XX P P P", "1HXXN", S, E),         # redouble by the bidder after passes
    ("1H X 2H P P P", "2HN", S, E),               # a new bid cancels the double
    ("1S 2H 2S 3H X P P P", "3HXE", W, S),
    ("1S 2H 4S X P P XX P P P", "4SXXN", S, E),   # North named spades first
])
def test_doubled_and_redoubled_contracts(text, contract, dummy, leader):
    a = Auction.from_str(N, text)
    assert a.is_finished
    assert a.contract == Contract.from_str(contract)
    assert (a.dummy, a.opening_leader) == (dummy, leader)


def test_declarer_is_first_of_side_to_name_strain():
    # North bid hearts first; South raised to game: North declares.
    a = Auction.from_str(N, "1H P 2C P 2H P 4H P P P")
    assert a.declarer == N and a.dummy == S and a.opening_leader == E
    # South named hearts first, North raised: South declares.
    a = Auction.from_str(N, "1C P 1H P 2H P 4H P P P")
    assert a.declarer == S and a.opening_leader == W
    # North bid notrump first (2NT); South's 3NT does not make South declarer.
    a = Auction.from_str(N, "1S P 2H P 2NT P 3NT P P P")
    assert a.contract == Contract.from_str("3NTN")
    # East named hearts first, but NS win the contract in hearts: North (first of NS).
    a = Auction.from_str(N, "1H 2H P 2S 3H P P P")
    assert a.contract == Contract.from_str("3HN")
    # NS named spades first, EW win in spades: West, the first of EW to name spades.
    a = Auction.from_str(N, "1S 2C P 4S P P P")
    assert a.contract == Contract.from_str("4SW")
    assert (a.dummy, a.opening_leader) == (E, N)


def test_current_contract_while_bidding():
    a = Auction(S)
    assert a.current_contract is None
    a.add("1D").add("1H")
    assert a.current_contract == Contract.from_str("1HW")
    a.add("X")
    assert a.current_contract == Contract.from_str("1HXW") and a.doubled == 1
    a.add("XX")
    assert a.current_contract == Contract.from_str("1HXXW") and a.doubled == 2
    a.add("2D")
    assert a.current_contract == Contract.from_str("2DS") and a.doubled == 0
    assert a.contract is None and a.declarer is None
    assert a.last_bid == Call.from_str("2D") and a.last_bidder == S
    # the current contract's declarer may change as the strain changes hands
    a.add("P").add("3D")
    assert a.current_contract == Contract.from_str("3DS")


# --------------------------------------------------------------------------------------
# Illegal calls
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, call, why", [
    ("1H", "1D", "insufficient"),             # same level, lower strain
    ("1H", "1H", "insufficient"),             # the same bid
    ("2C", "1NT", "insufficient"),            # lower level
    ("1H P P", "1C", "insufficient"),
    ("7NT", "7S", "insufficient"),
    ("", "X", "no bid to double"),
    ("P P", "X", "no bid to double"),
    ("", "XX", "no bid to redouble"),
    ("1H P", "X", "own side"),                # South doubles partner's bid
    ("1H 1S P", "X", "own side"),             # West doubles partner's 1S
    ("1H X P", "X", "already doubled"),
    ("1H X XX", "X", "already redoubled"),
    ("1H", "XX", "not been doubled"),
    ("1H P P", "XX", "not been doubled"),
    ("1H X P", "XX", "may redouble"),          # West redoubles partner's double
    ("1H X", "X", "own side"),                # South doubles partner's bid, which is doubled
    ("1H X XX", "XX", "already redoubled"),
])
def test_illegal_calls(text, call, why):
    a = Auction.from_str(N, text)
    before = a.copy()
    assert not a.is_legal(call)
    assert Call.from_str(call) not in a.legal_calls()
    with pytest.raises(IllegalCallError) as info:
        a.add(call)
    assert not isinstance(info.value, AuctionFinishedError)
    msg = str(info.value)
    assert why in msg
    assert str(Call.from_str(call)) in msg
    assert a.to_act.name.title() in msg
    assert a == before                         # nothing changed
    # the reason alone, for frontends that say why (the web page, the terminal game)
    assert why in a.why_illegal(call) and a.why_illegal(Call.from_str(call)) in msg


@pytest.mark.parametrize("text, call", [
    ("1H P P", "X"),        # balancing double of the opponents' bid after two passes
    ("1H X P P", "XX"),     # the bidder redoubles after two passes
    ("1H X", "XX"),         # responder redoubles the double of partner's bid
    ("1H X 2H", "X"),       # the new bid can be doubled again
    ("", "7NT"),
    ("7S", "7NT"),
    ("7NT", "X"),
    ("7NT X", "XX"),
])
def test_legal_calls_accepted(text, call):
    a = Auction.from_str(N, text)
    assert a.is_legal(call)
    a.add(call)
    assert a.calls[-1] is Call.from_str(call)


@pytest.mark.parametrize("text", ["1NT P 3NT P P P", "P P P P", "1C X XX P P P"])
def test_calls_after_end(text):
    a = Auction.from_str(W, text)
    for call in ("P", "X", "XX", "7NT"):
        assert not a.is_legal(call)
        with pytest.raises(AuctionFinishedError) as info:
            a.add(call)
        assert "ended" in str(info.value)


def test_bad_call_text_in_add_and_is_legal():
    a = Auction(N)
    with pytest.raises(InvalidNotationError):
        a.add("1Q")
    with pytest.raises(InvalidNotationError):
        a.is_legal("hello")
    with pytest.raises(InvalidNotationError):
        a.add(42)  # type: ignore[arg-type]
    assert len(a) == 0


def test_illegal_call_in_constructor_and_from_str():
    with pytest.raises(IllegalCallError):
        Auction(N, ["1H", "1D"])
    with pytest.raises(IllegalCallError) as info:
        Auction.from_str(N, "1NT P 2C X X")
    assert "call 5" in str(info.value)
    with pytest.raises(InvalidNotationError):
        Auction.from_str(N, "1NT P foo")
    with pytest.raises(AuctionFinishedError):
        Auction.from_str(N, "1NT AP P")
    with pytest.raises(AuctionFinishedError):
        Auction.from_str(N, "P P P P AP")
    with pytest.raises(InvalidNotationError):
        Auction.from_str(N, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("dealer", ["Q", 4, -1, None, True, 1.0])
def test_bad_dealer(dealer):
    with pytest.raises(InvalidNotationError):
        Auction(dealer)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# Legal calls, notation, container behaviour
# --------------------------------------------------------------------------------------

def test_legal_calls_lists():
    a = Auction(N)
    assert a.legal_calls() == [PASS] + ALL_CALLS[3:]
    a.add("1H")
    calls = a.legal_calls()
    assert calls[:2] == [PASS, DOUBLE] and calls[2] == Call.from_str("1S")
    assert len(calls) == 2 + 32
    a.add("X")
    assert a.legal_calls()[:3] == [PASS, REDOUBLE, Call.from_str("1S")]
    a.add("P")
    assert a.legal_calls()[:2] == [PASS, Call.from_str("1S")]   # West may not redouble
    b = Auction.from_str(N, "7NT")
    assert b.legal_calls() == [PASS, DOUBLE]
    b.add("X")
    assert b.legal_calls() == [PASS, REDOUBLE]


def test_from_str_variants():
    ref = Auction.from_str(N, "1NT P 3NT P P P")
    assert Auction.from_str("N", "1NT – Pass – 3NT – all pass") == ref
    assert Auction.from_str(Seat.NORTH, "1NT,P,3NT,AP") == ref
    assert Auction.from_str("north", "1n p 3n p p p") == ref
    assert Auction.from_str(0, "1NT - P - 3NT AP") == ref
    assert Auction(N, ["1NT", PASS, Call.from_str("3NT"), "p", "pass", "PASS"]) == ref
    assert Auction.from_str(N, "AP").is_passed_out
    assert Auction.from_str(N, "") == Auction(N)


def test_str_repr_eq_hash():
    a = Auction.from_str(E, "1S X XX 2C P P 2H P P P")
    assert str(a) == "1S X XX 2C Pass Pass 2H Pass Pass Pass"
    assert repr(a) == "Auction.from_str('E', '1S X XX 2C Pass Pass 2H Pass Pass Pass')"
    assert eval(repr(a), {"Auction": Auction}) == a
    assert hash(a) == hash(Auction.from_str("E", str(a)))
    assert a != Auction.from_str(N, str(a))
    assert a.contract == Contract.from_str("2HW")
    assert str(Auction(S)) == ""


def test_seat_of_items_getitem_iter():
    a = Auction.from_str(S, "1D 1H 2D")
    assert [a.seat_of(i) for i in range(3)] == [S, W, N]
    assert a.seat_of(-1) == N
    assert list(a.items()) == [(S, Call.from_str("1D")), (W, Call.from_str("1H")),
                               (N, Call.from_str("2D"))]
    assert a[1] is Call.from_str("1H") and list(a) == list(a.calls)
    assert a.dealer == S


def test_pop_and_copy():
    a = Auction.from_str(N, "1NT X XX P P P")
    b = a.copy()
    assert a.pop() is PASS
    assert not a.is_finished and a.to_act == E and a.doubled == 2
    assert b.is_finished and len(b) == 6
    assert a.pop() is PASS and a.pop() is PASS
    assert a.pop() is REDOUBLE and a.doubled == 1
    assert a.pop() is DOUBLE and a.doubled == 0
    assert a.pop() == Call.from_str("1NT") and a.last_bid is None
    with pytest.raises(IndexError):
        a.pop()
    c = Auction.from_str(N, "P P P P")
    c.pop()
    assert not c.is_finished and c.to_act == W


def test_to_table():
    a = Auction.from_str(N, "1NT P 3NT P P P")
    assert a.to_table() == ("West   North  East   South\n"
                            "-      1NT    Pass   3NT\n"
                            "Pass   Pass   Pass")
    b = Auction.from_str(W, "1S")
    assert b.to_table(symbols=True) == "West   North  East   South\n1♠     ?"


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(Seat)), st.data())
def test_random_legal_auctions_end(dealer, data):
    a = Auction(dealer)
    steps = 0
    while not a.is_finished:
        legal = a.legal_calls()
        assert legal and legal[0] is PASS
        # the legal list is exactly the calls is_legal accepts
        assert set(legal) == {c for c in ALL_CALLS if a.is_legal(c)}
        # favour passes a little so auctions end in many ways
        call = data.draw(st.one_of(st.just(PASS), st.sampled_from(legal)))
        a.add(call)
        steps += 1
        assert steps <= 319      # 3 passes + 35 bids x (bid X P P XX P P) + 3 passes
    calls = a.calls
    assert len(calls) >= 4 and all(c is PASS for c in calls[-3:])
    if a.is_passed_out:
        assert calls == (PASS,) * 4 and a.contract is None
    else:
        last_i = max(i for i, c in enumerate(calls) if c.is_bid)
        last = calls[last_i]
        c = a.contract
        assert (c.level, c.strain) == (last.level, last.strain)
        assert c.declarer.side == dealer.next(last_i).side
        first = min(i for i, x in enumerate(calls)
                    if x.is_bid and x.strain == last.strain
                    and dealer.next(i).side == c.declarer.side)
        assert c.declarer == dealer.next(first)
        assert a.opening_leader == c.declarer.lho and a.dummy == c.declarer.partner
        after = [x for x in calls[last_i + 1:] if not x.is_pass]
        assert c.doubled == len(after)
    assert Auction.from_str(dealer, str(a)) == a
    assert Auction(dealer, calls) == a


# --------------------------------------------------------------------------------------
# Long input in messages
# --------------------------------------------------------------------------------------

def test_a_long_call_auction_or_contract_is_quoted_by_its_start_and_length():
    """Call.from_str, Auction.from_str and Contract.from_str put a 10 MB string whole into
    their messages."""
    long = "x" * 1_000_000
    cases = [(Call.from_str, long, "invalid call 'xxx"),
             (lambda t: Auction.from_str(N, t), long, "invalid call 'xxx"),
             (lambda t: Auction.from_str(t, "P"), long, "invalid seat 'xxx"),
             (lambda t: Auction.from_str(N, t), "P P P P AP " + "P " * 500_000,
              "'AP' after the auction has ended in 'P P P P AP P "),
             (Contract.from_str, long, "invalid contract 'xxx"),
             (lambda t: Contract(1, t), long, "invalid strain 'xxx"),
             (lambda t: Contract(1, "S", declarer=t), long, "invalid seat 'xxx")]
    for parse, text, start in cases:
        with pytest.raises((InvalidNotationError, AuctionFinishedError)) as info:
            parse(text)
        message = str(info.value)
        assert message.startswith(start), message[:100]
        assert f"'... ({len(text):,} characters)" in message and len(message) < 200, \
            message[:300]


def test_a_huge_level_is_a_notation_error():
    """Call.bid and Contract with a level of 5,000 digits raised Python's own ValueError
    'Exceeds the limit (4300 digits) for integer string conversion' while quoting it."""
    for make in (lambda: Call.bid(10**5000, "S"), lambda: Contract(10**5000, "S")):
        with pytest.raises(InvalidNotationError, match="an integer of about 5,000 digits"):
            make()


def test_contract_from_str_is_linear_in_a_long_run_of_spaces():
    """'1S', 3,000 spaces and 'Q' took half a minute to refuse (and 10 kB a quarter of an
    hour): the pattern's adjacent optional parts each allow spaces, and the regular
    expression engine tried every way of splitting the run between them (its cube)."""
    import time

    for text in ("1S" + " " * 3000 + "Q", "1 S X" + " " * 3000 + "-Q",
                 "4S BY" + " " * 3000 + "Q", "1" + " " * 3000 + "S" + " " * 3000 + "Q"):
        start = time.perf_counter()
        with pytest.raises(InvalidNotationError, match="invalid contract"):
            Contract.from_str(text)
        assert time.perf_counter() - start < 1.0
    start = time.perf_counter()
    assert Contract.from_str(" 4 " + " " * 1_000_000 + "S  X\t\n by  north ") \
        == Contract.from_str("4SXN")
    assert time.perf_counter() - start < 1.0


def test_why_illegal_is_none_for_a_legal_call_and_refuses_bad_text():
    a = Auction.from_str(N, "1NT P")
    assert a.why_illegal("2C") is None and a.why_illegal("Pass") is None
    assert a.why_illegal("1S") == "insufficient bid: it must be higher than the last bid " \
                                  "1NT (by North)"
    with pytest.raises(InvalidNotationError):
        a.why_illegal("8NT")
    assert Auction.from_str(N, "P P P P").why_illegal("1C") == "the auction has ended"
