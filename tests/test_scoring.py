"""Tests for ddsolver.scoring: contracts, duplicate scores, IMPs, matchpoints, rubber, Chicago.

Expected values are worked out by hand from the rules in docs/game.md and the WBF tables,
not computed by the code under test.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddsolver.cards import Strain
from ddsolver.errors import BridgeError, InvalidNotationError, ScoringError
from ddsolver.scoring import (
    IMP_SCALE,
    ChicagoScore,
    Contract,
    RubberScore,
    imps,
    matchpoint_percentages,
    matchpoints,
    ns_score,
    overtrick_points,
    result_str,
    score,
    trick_points,
    undertrick_penalty,
)
from ddsolver.table import Seat, Side, Vulnerability

C = Contract.from_str


# --------------------------------------------------------------------------------------
# Contract notation
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, level, strain, doubled, declarer", [
    ("2H", 2, Strain.HEARTS, 0, None),
    ("2♥", 2, Strain.HEARTS, 0, None),
    ("2h", 2, Strain.HEARTS, 0, None),
    ("1C", 1, Strain.CLUBS, 0, None),
    ("5♦", 5, Strain.DIAMONDS, 0, None),
    ("4SX", 4, Strain.SPADES, 1, None),
    ("4sx", 4, Strain.SPADES, 1, None),
    ("3NTXX", 3, Strain.NOTRUMP, 2, None),
    ("3NXX", 3, Strain.NOTRUMP, 2, None),
    ("3N", 3, Strain.NOTRUMP, 0, None),
    ("3nt", 3, Strain.NOTRUMP, 0, None),
    ("4SXN", 4, Strain.SPADES, 1, Seat.NORTH),
    ("4S X N", 4, Strain.SPADES, 1, Seat.NORTH),
    ("7NTXXS", 7, Strain.NOTRUMP, 2, Seat.SOUTH),
    ("7ntxxs", 7, Strain.NOTRUMP, 2, Seat.SOUTH),
    ("3NTN", 3, Strain.NOTRUMP, 0, Seat.NORTH),
    ("3NN", 3, Strain.NOTRUMP, 0, Seat.NORTH),
    ("1SN", 1, Strain.SPADES, 0, Seat.NORTH),
    ("1NS", 1, Strain.NOTRUMP, 0, Seat.SOUTH),
    ("6DW", 6, Strain.DIAMONDS, 0, Seat.WEST),
    ("2CXXE", 2, Strain.CLUBS, 2, Seat.EAST),
    ("4S*", 4, Strain.SPADES, 1, None),
    ("5C**-E", 5, Strain.CLUBS, 2, Seat.EAST),
    ("4S by North", 4, Strain.SPADES, 0, Seat.NORTH),
    ("  4 S  ", 4, Strain.SPADES, 0, None),
])
def test_contract_from_str(text, level, strain, doubled, declarer):
    c = C(text)
    assert (c.level, c.strain, c.doubled, c.declarer) == (level, strain, doubled, declarer)


@pytest.mark.parametrize("text, expected", [
    ("2♥", "2H"), ("3NXX", "3NTXX"), ("4S X N", "4SXN"), ("3nn", "3NTN"), ("4S*", "4SX"),
    ("7NTXXS", "7NTXXS"),
])
def test_contract_str(text, expected):
    assert str(C(text)) == expected


@pytest.mark.parametrize("bad", [
    "", "4", "8S", "0NT", "4Z", "4SXXX", "4SXQ", "S4", "4SNN", "44S", "Pass", "4 S X X X",
    "4SX N E",
])
def test_contract_from_str_rejects(bad):
    with pytest.raises(InvalidNotationError) as info:
        C(bad)
    assert repr(bad) in str(info.value)


def test_contract_from_str_not_a_string():
    with pytest.raises(InvalidNotationError):
        Contract.from_str(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("args", [
    (0, Strain.SPADES), (8, Strain.SPADES), (4, 5), (4, "Z"), (4, Strain.SPADES, 3),
    (4, Strain.SPADES, -1), (4, Strain.SPADES, 0, 4), (4, Strain.SPADES, 0, "Q"),
    (True, Strain.SPADES), (4.0, Strain.SPADES),
])
def test_contract_constructor_rejects(args):
    with pytest.raises(InvalidNotationError):
        Contract(*args)


def test_contract_constructor_coerces():
    c = Contract(4, "S", 1, "N")
    assert c == C("4SXN")
    assert c.strain is Strain.SPADES and c.declarer is Seat.NORTH
    assert Contract(3, 4, 0, 2) == C("3NTS")


def test_contract_properties():
    assert [C(f"{lv}C").tricks_needed for lv in range(1, 8)] == list(range(7, 14))
    c = C("4SXN")
    assert c.is_doubled and not c.is_redoubled
    assert C("4SXX").is_redoubled and not C("4SXX").is_doubled
    assert c.side == Side.NS and C("4SE").side == Side.EW and C("4S").side is None
    assert C("3NT").is_game and C("4H").is_game and C("5C").is_game
    assert not C("2S").is_game and not C("4C").is_game and not C("2NT").is_game
    assert C("2SX").is_game and C("1NTXX").is_game and not C("1NTX").is_game
    assert C("6C").is_slam and C("7NT").is_slam and not C("5D").is_slam
    assert c.with_declarer(Seat.WEST) == C("4SXW")
    assert c.with_doubled(0) == C("4SN")
    assert c.score(10, False) == 590


def test_contract_hash_eq_repr():
    assert C("4SXN") == C("4s x n")
    assert hash(C("4SXN")) == hash(C("4S X N"))
    assert C("4SX") != C("4SXN")
    assert len({C("3N"), C("3NT"), C("3NTN")}) == 2
    c = C("7NTXXS")
    assert eval(repr(c), {"Contract": Contract}) == c
    with pytest.raises(AttributeError):
        c.level = 3  # type: ignore[misc]


contracts = st.builds(
    Contract,
    st.integers(1, 7),
    st.sampled_from(list(Strain)),
    st.integers(0, 2),
    st.one_of(st.none(), st.sampled_from(list(Seat))),
)


@given(contracts)
def test_contract_str_round_trip(c):
    assert C(str(c)) == c
    assert C(str(c).lower()) == c


# --------------------------------------------------------------------------------------
# Duplicate scoring: every row of the spec table
# --------------------------------------------------------------------------------------

SPEC_TABLE = [
    ("1NT", 7, False, 90),
    ("2S", 8, False, 110),
    ("3NT", 9, False, 400),
    ("3NT", 9, True, 600),
    ("4S", 10, False, 420),
    ("4H", 10, True, 620),
    ("4H", 11, True, 650),
    ("5D", 11, False, 400),
    ("6S", 12, True, 1430),
    ("2SX", 8, False, 470),
    ("4S", 9, False, -50),
    ("4S", 9, True, -100),
    ("4SX", 8, False, -300),
    ("4SX", 8, True, -500),
]


def test_spec_table_has_14_rows():
    assert len(SPEC_TABLE) == 14


@pytest.mark.parametrize("contract, tricks, vul, expected", SPEC_TABLE)
def test_spec_score_table(contract, tricks, vul, expected):
    assert score(C(contract), tricks, vul) == expected


@pytest.mark.parametrize("contract, tricks, vul, expected", [
    # part-scores and games, undoubled
    ("1C", 7, False, 70), ("1D", 7, True, 70), ("1H", 7, False, 80), ("2C", 8, False, 90),
    ("2NT", 8, False, 120), ("3C", 9, False, 110), ("4C", 10, False, 130),
    ("4D", 10, True, 130), ("5C", 11, True, 600), ("2NT", 8, True, 120),
    ("3S", 9, True, 140), ("4S", 10, True, 620), ("3NT", 10, True, 630),
    # overtricks undoubled: trick value (30 in NT)
    ("1NT", 13, False, 270), ("3NT", 12, False, 490), ("4S", 12, False, 480),
    ("2C", 10, False, 130), ("1H", 13, True, 260),
    # slams
    ("6C", 12, True, 1370), ("6NT", 12, False, 990), ("6NT", 12, True, 1440),
    ("6S", 12, False, 980), ("6S", 13, True, 1460),
    ("7S", 13, False, 1510), ("7NT", 13, False, 1520), ("7NT", 13, True, 2220),
    ("7C", 13, True, 2140),
    # doubled / redoubled, made
    ("1NTX", 7, False, 180), ("1NTX", 8, False, 280), ("1NTX", 8, True, 380),
    ("1NTXX", 7, False, 560), ("1NTXX", 7, True, 760), ("1NTXX", 8, True, 1160),
    ("1CX", 7, False, 140), ("1CXX", 7, False, 230), ("1CXX", 8, True, 630),
    ("2SX", 9, False, 570), ("2SX", 9, True, 870), ("2SX", 8, True, 670),
    ("2SXX", 8, False, 640), ("2SXX", 9, False, 840), ("2SXX", 9, True, 1240),
    ("3NTX", 9, False, 550), ("3NTX", 9, True, 750), ("4HXX", 10, True, 1080),
    ("5CX", 11, False, 550), ("6SX", 12, True, 1660), ("7NTXX", 13, True, 2980),
    ("7NTX", 13, False, 1790),
    # undertricks, undoubled
    ("3NT", 6, False, -150), ("3NT", 6, True, -300), ("7NT", 0, False, -650),
    ("7NT", 0, True, -1300),
    # undertricks, doubled not vulnerable: 100, 200, 200, then 300 each
    ("4SX", 9, False, -100), ("4SX", 7, False, -500), ("4SX", 6, False, -800),
    ("4SX", 5, False, -1100), ("4SX", 4, False, -1400),
    # doubled vulnerable: 200, then 300 each
    ("4SX", 9, True, -200), ("4SX", 7, True, -800), ("4SX", 6, True, -1100),
    # redoubled: twice the doubled amounts
    ("4SXX", 9, False, -200), ("4SXX", 8, False, -600), ("4SXX", 7, False, -1000),
    ("4SXX", 6, False, -1600), ("4SXX", 9, True, -400), ("4SXX", 8, True, -1000),
    ("4SXX", 7, True, -1600),
    # all thirteen down
    ("7NTX", 0, True, -3800), ("7NTX", 0, False, -3500), ("7NTXX", 0, True, -7600),
    ("7NTXX", 0, False, -7000),
])
def test_duplicate_scores(contract, tricks, vul, expected):
    assert score(C(contract), tricks, vul) == expected


def test_score_accepts_text_and_none():
    assert score("4S", 10, False) == 420
    assert score(None, 0, True) == 0


def test_score_with_vulnerability_and_declarer():
    assert score(C("4SN"), 10, Vulnerability.NS) == 620
    assert score(C("4SN"), 10, Vulnerability.EW) == 420
    assert score(C("4SE"), 10, Vulnerability.EW) == 620
    assert score(C("4SW"), 10, Vulnerability.BOTH) == 620
    assert score(C("4SS"), 10, Vulnerability.NONE) == 420
    with pytest.raises(ScoringError):
        score(C("4S"), 10, Vulnerability.NS)


def test_ns_score():
    assert ns_score(C("4SN"), 10, Vulnerability.NONE) == 420
    assert ns_score(C("4SE"), 10, Vulnerability.EW) == -620
    assert ns_score(C("4SXE"), 8, Vulnerability.EW) == 500
    assert ns_score(C("3NTS"), 9, "All") == 600
    assert ns_score(None, 0, Vulnerability.BOTH) == 0
    with pytest.raises(ScoringError):
        ns_score(C("4S"), 10, Vulnerability.NONE)


@pytest.mark.parametrize("tricks", [-1, 14, 100, 7.5, "10", None, True])
def test_score_rejects_bad_tricks(tricks):
    with pytest.raises(ScoringError) as info:
        score(C("4S"), tricks, False)
    assert repr(tricks) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("vul", ["yes", None, 2, 0.5])
def test_score_rejects_bad_vulnerable(vul):
    with pytest.raises(ScoringError):
        score(C("4S"), 10, vul)


def test_score_rejects_non_contract():
    with pytest.raises(ScoringError):
        score(42, 10, False)  # type: ignore[arg-type]
    with pytest.raises(InvalidNotationError):
        score("4Z", 10, False)


@given(contracts, st.booleans())
def test_score_strictly_increases_with_tricks(c, vul):
    values = [score(c, t, vul) for t in range(14)]
    assert all(a < b for a, b in zip(values, values[1:]))
    assert values[c.tricks_needed - 1] < 0 < values[c.tricks_needed]


@given(contracts, st.integers(0, 13))
def test_vulnerability_never_helps_defence(c, tricks):
    nv, v = score(c, tricks, False), score(c, tricks, True)
    if tricks >= c.tricks_needed:
        assert v >= nv
    else:
        assert v <= nv


def test_trick_overtrick_undertrick_parts():
    assert trick_points(C("3NT")) == 100
    assert trick_points(C("3NTX")) == 200
    assert trick_points(C("2SXX")) == 240
    assert trick_points(C("7D")) == 140
    assert trick_points(C("4H"), 0) == 0
    assert trick_points(C("1NT"), 3) == 100
    with pytest.raises(ScoringError):
        trick_points(C("1NT"), 8)
    assert overtrick_points(C("1NT"), 2, False) == 60
    assert overtrick_points(C("1CX"), 2, True) == 400
    assert overtrick_points(C("1CXX"), 2, False) == 400
    with pytest.raises(ScoringError):
        overtrick_points(C("4S"), 4, False)
    assert undertrick_penalty(0, 1, True) == 0
    assert undertrick_penalty(3, 0, True) == 300
    assert undertrick_penalty(3, 1, False) == 500
    assert undertrick_penalty(3, 2, True) == 1600
    with pytest.raises(ScoringError):
        undertrick_penalty(2, 3, False)
    with pytest.raises(ScoringError):
        undertrick_penalty(14, 1, False)


def test_result_str():
    assert result_str(C("4S"), 10) == "4S="
    assert result_str(C("4SN"), 11) == "4SN+1"
    assert result_str(C("3NTX"), 7) == "3NTX-2"
    assert result_str(None, 0) == "Pass"
    with pytest.raises(ScoringError):
        result_str(C("4S"), 14)


# --------------------------------------------------------------------------------------
# IMPs
# --------------------------------------------------------------------------------------

WBF_IMP_BANDS = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23),
    (4000, 7600, 24),
]


@pytest.mark.parametrize("low, high, imp", WBF_IMP_BANDS)
def test_imp_scale_band_edges(low, high, imp):
    for diff in range(low, high + 1, 10):
        assert imps(diff) == imp
        assert imps(-diff) == -imp


def test_imp_scale_constant_matches_wbf():
    assert IMP_SCALE == tuple((low, imp) for low, _, imp in WBF_IMP_BANDS)


def test_imps_examples():
    assert imps(620 - 170) == 10       # game vs part-score, vulnerable
    assert imps(420 - 450) == -1
    assert imps(1430 - 680) == 13
    assert imps(20000) == 24
    assert imps(15) == 0 and imps(19.9) == 0 and imps(45) == 1   # averages: band up to next low
    assert imps(-0.0) == 0


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "100", None, True])
def test_imps_rejects(bad):
    with pytest.raises(ScoringError):
        imps(bad)


# --------------------------------------------------------------------------------------
# Matchpoints
# --------------------------------------------------------------------------------------

def test_matchpoints_with_ties():
    assert matchpoints([420, 420, 450, -50]) == [3, 3, 6, 0]
    assert matchpoints([100, 100, 100]) == [2, 2, 2]
    assert matchpoints([-100, 620, 170, 620, 650, 170]) == [0, 7, 3, 7, 10, 3]
    assert matchpoints([50]) == [0]
    assert matchpoints([]) == []
    assert matchpoints(iter([1, 2])) == [0, 2]


def test_matchpoint_percentages():
    assert matchpoint_percentages([420, 420, 450, -50]) == [50.0, 50.0, 100.0, 0.0]
    assert matchpoint_percentages([-100, 620, 170, 620, 650, 170]) == [0.0, 70.0, 30.0,
                                                                       70.0, 100.0, 30.0]
    assert matchpoint_percentages([400]) == [50.0]
    assert matchpoint_percentages([]) == []


@given(st.lists(st.integers(-7600, 7600).map(lambda x: x * 10), max_size=30))
def test_matchpoints_sum_to_full_tops(scores):
    n = len(scores)
    mps = matchpoints(scores)
    assert sum(mps) == n * (n - 1)          # every pair shares 2 matchpoints
    assert all(0 <= mp <= 2 * (n - 1) for mp in mps)
    for i, j in [(i, j) for i in range(n) for j in range(n)]:
        if scores[i] > scores[j]:
            assert mps[i] > mps[j]


def test_matchpoints_rejects():
    with pytest.raises(ScoringError):
        matchpoints([100, float("nan")])
    with pytest.raises(ScoringError):
        matchpoints(["420"])


# --------------------------------------------------------------------------------------
# Rubber bridge
# --------------------------------------------------------------------------------------

def test_rubber_worked_sequence():
    r = RubberScore()
    assert r.vulnerability == Vulnerability.NONE and not r.is_finished
    # 1. North 2S, 9 tricks: 60 below, 30 above for NS.
    d = r.add(C("2SN"), 9)
    assert (d.below, d.above, d.game_won) == ((60, 0), (30, 0), None)
    assert r.part_scores == (60, 0)
    # 2. East 3C one down, not vulnerable: 50 above for NS.
    d = r.add(C("3CE"), 8)
    assert (d.below, d.above) == ((0, 0), (50, 0))
    # 3. West 2H made: 60 below for EW; both sides have 60 towards game.
    r.add(C("2HW"), 8)
    assert r.part_scores == (60, 60)
    # 4. South 1NT with an overtrick: 40 below completes NS's game (60 + 40); 30 above.
    d = r.add(C("1NTS"), 8)
    assert d.game_won == Side.NS and (d.below, d.above) == ((40, 0), (30, 0))
    assert r.part_scores == (0, 0) and r.games == (1, 0)
    assert r.vulnerability == Vulnerability.NS
    # 5. North 4H doubled, two down vulnerable: 200 + 300 above for EW.
    d = r.add(C("4HXN"), 8)
    assert d.vulnerable and d.above == (0, 500)
    # 6. East 4S made: 120 below, game for EW; both vulnerable.
    d = r.add(C("4SE"), 10)
    assert d.game_won == Side.EW and not d.vulnerable
    assert r.games == (1, 1) and r.vulnerability == Vulnerability.BOTH
    # 7. North 6NT made, vulnerable, four aces in one hand (150): 190 below; slam 750,
    #    honours 150, rubber 500 (2-1) above.
    d = r.add(C("6NTN"), 12, honours=150)
    assert d.below == (190, 0)
    assert d.above == (750 + 150 + 500, 0)
    assert (d.rubber_won, d.rubber_bonus) == (Side.NS, 500)
    assert r.is_finished and r.winner == Side.NS
    assert r.below == (60 + 40 + 190, 60 + 120)
    assert r.above == (30 + 50 + 30 + 750 + 150 + 500, 500)
    assert r.totals == (1800, 680)
    assert r.final_totals() == (1800, 680)
    assert len(r.deals) == 7 and [x.number for x in r.deals] == list(range(1, 8))
    with pytest.raises(ScoringError):
        r.add(C("1CN"), 7)


def test_rubber_two_nil_doubled_into_game_and_insult():
    r = RubberScore()
    # 2S doubled made: 120 below -> game; 50 insult above.
    d = r.add(C("2SX"), 8, declarer=Seat.EAST)
    assert d.contract == C("2SXE")
    assert (d.below, d.above, d.game_won) == ((0, 120), (0, 50), Side.EW)
    # Vulnerable now: 3NT redoubled +1 -> 400 below, overtrick 400, insult 100, rubber 700.
    d = r.add(C("3NTXX"), 10, declarer=Side.EW)
    assert d.vulnerable
    assert d.below == (0, 400) and d.above == (0, 400 + 100 + 700)
    assert r.winner == Side.EW and r.games == (0, 2)
    assert r.totals == (0, 120 + 50 + 400 + 1200)


def test_rubber_honours_to_defenders_and_when_going_down():
    r = RubberScore()
    d = r.add(C("4HS"), 9, honours=100, honours_side=Side.EW)
    assert d.above == (0, 50 + 100) and d.honours_side == Side.EW
    d = r.add(C("4HS"), 9, honours=150)       # declarer's side holds all five, goes down
    assert d.above == (150, 50)
    d = r.add(C("2SN"), 8, honours=100, honours_side=Seat.WEST)
    assert d.above == (0, 100) and d.below == (60, 0)


@pytest.mark.parametrize("contract, honours", [("4S", 50), ("4S", 200), ("3NT", 100),
                                               ("4S", True)])
def test_rubber_rejects_bad_honours(contract, honours):
    with pytest.raises(ScoringError):
        RubberScore().add(C(contract), 10, declarer=Seat.NORTH, honours=honours)


def test_rubber_sides_as_text_and_conflicts():
    r = RubberScore()
    d = r.add(C("2S"), 8, declarer="EW", honours=100, honours_side="N-S")
    assert d.below == (0, 60) and d.above == (100, 0)
    d = r.add(C("2S"), 8, declarer="south", honours=100, honours_side="W")
    assert d.below == (60, 0) and d.above == (0, 100)
    with pytest.raises(ScoringError):
        r.add(C("2SN"), 8, declarer=Seat.EAST)
    with pytest.raises(ScoringError, match="honours_side"):
        r.add(C("2SN"), 8, honours=100, honours_side=5)
    assert len(r.deals) == 2


def test_rubber_needs_declarer_and_tricks():
    with pytest.raises(ScoringError):
        RubberScore().add(C("4S"), 10)
    with pytest.raises(ScoringError):
        RubberScore().add(C("4SN"), 14)
    with pytest.raises(ScoringError):
        RubberScore().add(C("4SN"))


def test_rubber_part_scores_do_not_carry_into_next_game():
    r = RubberScore()
    r.add(C("2HE"), 8)                        # EW 60 towards game
    r.add(C("4SN"), 10)                       # NS game: EW's 60 no longer counts
    assert r.part_scores == (0, 0)
    d = r.add(C("2HE"), 8)
    assert d.game_won is None and r.part_scores == (0, 60)
    assert r.below == (120, 120)


def test_rubber_unfinished_settlement_and_pass_out():
    r = RubberScore()
    d = r.add(None)
    assert d.contract is None and d.above == (0, 0)
    r.add(C("4SN"), 10)            # NS game
    r.add(C("2CE"), 8)             # EW 40 part-score
    r.add(C("1NTN"), 7)            # NS 40 part-score in the second game
    assert r.totals == (160, 40)
    assert r.final_totals() == (160 + 300 + 100, 40 + 100)
    assert not r.is_finished and r.winner is None
    assert "RubberScore" in repr(r)


# --------------------------------------------------------------------------------------
# Chicago
# --------------------------------------------------------------------------------------

def test_chicago_board_dealers_and_vulnerability():
    m = ChicagoScore()
    seen = []
    while not m.is_finished:
        seen.append((m.board_number, m.dealer, m.vulnerability))
        m.add(C("1CN"), 6)
    assert seen == [
        (1, Seat.NORTH, Vulnerability.NONE),
        (2, Seat.EAST, Vulnerability.NS),
        (3, Seat.SOUTH, Vulnerability.EW),
        (4, Seat.WEST, Vulnerability.BOTH),
    ]
    assert (m.board_number, m.dealer, m.vulnerability) == (None, None, None)
    assert ChicagoScore.board_dealer(3) == Seat.SOUTH
    assert ChicagoScore.board_vulnerability(2) == Vulnerability.NS
    with pytest.raises(ScoringError):
        ChicagoScore.board_dealer(5)
    with pytest.raises(ScoringError):
        ChicagoScore.board_vulnerability(0)
    # no alias that names a match after a score sheet (issue 19; ai.chicago.ChicagoMatch
    # is the match)
    import ddsolver.scoring

    assert not hasattr(ddsolver.scoring, "ChicagoMatch")


def test_chicago_worked_sequence():
    m = ChicagoScore()
    # Board 1 (none vul): North 2S +1.  60 trick points carry; 30 overtrick; no 50 bonus.
    b = m.add(C("2SN"), 9)
    assert (b.board, b.points, b.game, b.bonus, b.part_scores) == (1, (90, 0), False, 0,
                                                                   (60, 0))
    # Board 2 (NS vul): East 3C two down, EW not vul: 100 to NS.
    b = m.add(C("3CE"), 7)
    assert (b.board, b.points, b.part_scores) == (2, (100, 0), (60, 0))
    # Four passes on board 3: South deals again, the board stays 3.
    assert m.board_number == 3
    b = m.pass_out()
    assert b.passed_out and b.board == 3 and b.dealer == Seat.SOUTH
    assert (m.board_number, m.dealer) == (3, Seat.SOUTH)
    # Board 3 (EW vul): West 2H made: 60 for EW, carried.
    b = m.add(C("2HW"), 8)
    assert (b.points, b.part_scores, b.game) == ((0, 60), (60, 60), False)
    # Board 4 (both vul): South 1NT made: NS 60 + 40 = 100, a game, 500 vul; wipes both.
    b = m.add(C("1NTS"), 7)
    assert (b.points, b.game, b.bonus, b.part_scores) == ((540, 0), True, 500, (0, 0))
    assert m.is_finished
    assert m.totals == (90 + 100 + 540, 60)
    assert m.final_scores == (670, 0)
    assert len(m.boards) == 5
    with pytest.raises(ScoringError):
        m.add(C("1CN"), 7)


def test_chicago_board_four_part_score_bonus_and_doubled():
    m = ChicagoScore()
    m.add(C("1NTN"), 6)          # board 1: one down, 50 to EW
    m.add(C("4HN"), 10)          # board 2: NS vul game: 120 + 500
    m.add(C("3NTE"), 9)          # board 3: EW vul game: 100 + 500
    # Board 4: East 2D doubled +1, vulnerable: 80 + 200 + 50 insult; 80 < 100 -> 100 bonus.
    b = m.add(C("2DXE"), 9)
    assert (b.points, b.game, b.bonus, b.trick_points, b.part_scores) == \
        ((0, 430), False, 100, 80, (0, 80))
    assert m.totals == (620, 50 + 600 + 430)
    assert m.final_scores == (0, 460)


def test_chicago_game_wipes_opponents_part_score():
    m = ChicagoScore()
    b = m.add(C("2DE"), 8)                        # EW 40
    assert b.points == (0, 40) and m.part_scores == (0, 40)
    b = m.add(C("4HS"), 10)                       # NS vul game: 620, wipes EW's 40
    assert b.points == (620, 0) and m.part_scores == (0, 0)
    b = m.add(C("2CW"), 8)                        # EW 40 again: 40, not 80, no game
    assert (b.points, b.game, m.part_scores) == ((0, 40), False, (0, 40))
    b = m.add(C("2SE"), 8)                        # board 4: 40 + 60 = 100 -> game, 500
    assert (b.points, b.game, b.bonus) == ((0, 560), True, 500)
    assert m.totals == (620, 640) and m.final_scores == (0, 20)


def test_chicago_part_score_game_on_board_two_uses_that_boards_vulnerability():
    m = ChicagoScore()
    m.add(C("2SS"), 8)                            # NS 60
    b = m.add(C("2SN"), 8)                        # NS vul on board 2: 120 -> game 500
    assert (b.points, b.bonus) == ((560, 0), 500)
    m.add(C("2SS"), 8)                            # board 3: NS not vul: 60 carried
    b = m.add(C("4SE"), 9)                        # board 4: EW one down vul: 100 to NS
    assert b.points == (100, 0) and b.bonus == 0
    assert m.part_scores == (60, 0)
    assert m.totals == (60 + 560 + 60 + 100, 0)


def test_chicago_board_four_failing_or_slam():
    m = ChicagoScore()
    for _ in range(3):
        m.pass_out()
    assert m.board_number == 1 and len(m.boards) == 3
    for _ in range(3):
        m.add(C("1CN"), 6)                       # one down each: 50, 100 (NS vul b2), 50
    assert m.totals == (0, 200)
    b = m.add(C("6SW"), 12)                      # board 4 slam, vul: 1430 as duplicate
    assert b.points == (0, 1430) and b.game
    assert m.final_scores == (0, 1630)


def test_chicago_requires_declarer_and_valid_tricks():
    m = ChicagoScore()
    with pytest.raises(ScoringError):
        m.add(C("4S"), 10)
    with pytest.raises(ScoringError):
        m.add(C("4SN"), -1)
    assert m.board_number == 1 and m.boards == ()
    b = m.add("4S", 10, declarer=Seat.WEST)
    assert b.contract == C("4SW") and b.points == (0, 420)
    assert "ChicagoScore" in repr(m)


def test_errors_are_bridge_errors():
    assert issubclass(ScoringError, BridgeError) and issubclass(ScoringError, ValueError)


def test_contract_has_a_module_of_its_own():
    import ddsolver
    import ddsolver.auction
    import ddsolver.contract
    import ddsolver.scoring

    assert ddsolver.Contract is ddsolver.contract.Contract is ddsolver.scoring.Contract
    assert ddsolver.auction.Contract is ddsolver.contract.Contract
    assert ddsolver.contract.Contract.__module__ == "ddsolver.contract"


@pytest.mark.parametrize("strain, level", [
    (Strain.CLUBS, 5), (Strain.DIAMONDS, 5), (Strain.HEARTS, 4), (Strain.SPADES, 4),
    (Strain.NOTRUMP, 3), ("NT", 3), ("h", 4), (0, 5)])
def test_game_level(strain, level):
    from ddsolver.contract import game_level

    assert game_level(strain) == level
    s = Strain.coerce(strain)
    # the lowest level whose contracted tricks reach 100 trick points undoubled
    assert Contract(level, s).is_game and not Contract(level - 1, s).is_game
    assert trick_points(Contract(level, s)) >= 100 > trick_points(Contract(level - 1, s))


def test_game_level_rejects_what_is_no_strain():
    from ddsolver.contract import game_level

    with pytest.raises(InvalidNotationError):
        game_level("Z")
    with pytest.raises(TypeError):
        game_level(None)


def test_imps_of_integers_of_any_size():
    """An integer is a finite number however large: no OverflowError (issue 19)."""
    from fractions import Fraction

    assert imps(10**400) == 24 and imps(-10**400) == -24
    assert imps(Fraction(10**400, 7)) == 24
    assert matchpoints([10**400, 420, -10**400]) == [4, 2, 0]
    for bad in (None, "450", True, float("nan"), float("inf"), -float("inf")):
        with pytest.raises(ScoringError, match="invalid score difference"):
            imps(bad)
