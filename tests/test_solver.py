"""Tests of ddsolver.solver (CI set): exact values against DDS 2.9.0 reference answers and
against plain minimax (tests/oracle.py, tests/endings.py), invariants, hand-built squeezes and
endplays, Solver reuse, threads, bad input, and the compiled engine on odd input.

The full reference sweeps are in test_solver_slow.py (``-m slow``).

Conventions checked (solver module docstring; the same as DDS): ``solve`` and
``solve_best`` count tricks for the side to move among the tricks not yet completed, the
current trick included; ``dd_table[strain, seat]`` is declarer ``seat``'s side's tricks with
the opening lead from declarer's left.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import oracle
import pytest
from endings import (
    ending,
    map_card,
    memo_card_values,
    memo_ns_tricks,
    permute_suits,
    random_ending,
    random_suit_ending,
    rotate_seats,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from ddsolver.cards import Card, Strain
from ddsolver.ddsfiles import read_dds_file
from ddsolver.deal import Deal, Hand
from ddsolver.errors import InvalidDealError, InvalidPositionError
from ddsolver.play import Position
from ddsolver.solver import (
    DDTable,
    Solver,
    dd_table,
    dd_tables,
    last_stats,
    solve,
    solve_best,
)
from ddsolver.table import Seat, Side

DATA = Path(__file__).parent / "data"
POSITIONS = [json.loads(line) for line in (DATA / "solve_positions.jsonl").open()]
DD_TABLES = [json.loads(line) for line in (DATA / "dd_tables.jsonl").open()]
STRAINS = ["C", "D", "H", "S", "NT"]

#: positions of solve_positions.jsonl used by the heavier invariant tests below (every
#: position's reference answer is checked by test_reference_positions)
CI_MAX_TRICKS_LEFT = 8
#: deals of dd_tables.jsonl whose full table is checked in CI (all 500: the slow sweep)
CI_TABLE_DEALS = 25
#: deals of list100.txt whose TABLE line is checked in CI (all 100: the slow sweep)
CI_LIST100_DEALS = 10

SPEC = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")


def C(text: str) -> Card:
    return Card.from_str(text)


def values(d: dict) -> dict:
    """``{card: v}`` as ``{"SA": v}`` (readable assertion messages)."""
    return {str(c): v for c, v in d.items()}


def load(rec: dict) -> Position:
    return Position.from_remaining(rec["remaining_pbn"], Strain.from_str(rec["trump"]),
                                   Seat.from_str(rec["leader"]), rec["current_trick"])


def expected_table(rec: dict) -> np.ndarray:
    """(5, 4) rows C,D,H,S,NT; columns N,E,S,W, from a dd_tables.jsonl record."""
    return np.array([[rec["dd"][seat][strain] for seat in "NESW"] for strain in STRAINS],
                    dtype=np.uint8)


CI_POSITIONS = [p for p in POSITIONS if p["tricks_left"] <= CI_MAX_TRICKS_LEFT]


# ---------------------------------------------------------------------------------------
# reference answers (DDS 2.9.0)
# ---------------------------------------------------------------------------------------


def test_spec_example_3nt_north_makes_10_one_solve():
    """game.md: North declares 3NT, East leads, N-S take 10 tricks (one 52-card solve; the
    whole table is checked in the slow test below)."""
    pos = Position(SPEC, Strain.NOTRUMP, Seat.EAST)
    assert solve_best(pos) == 3          # East-West's tricks: the side to move
    assert Solver().ns_tricks(pos) == 10


def test_spec_example_3nt_north_makes_10():
    """game.md: North declares 3NT, East leads, N-S take 10 tricks (52-card table)."""
    table = dd_table(SPEC)
    assert isinstance(table, DDTable)
    assert table[Strain.NOTRUMP, Seat.NORTH] == 10
    assert table["NT", "N"] == 10
    arr = table.to_array()
    assert arr.shape == (5, 4) and arr.dtype == np.uint8
    assert arr[4, 0] == 10


@pytest.mark.parametrize("rec", DD_TABLES[:CI_TABLE_DEALS],
                         ids=[f"deal{r['id']}" for r in DD_TABLES[:CI_TABLE_DEALS]])
def test_reference_tables_ci_subset(rec):
    got = dd_table(Deal.from_pbn(rec["pbn"])).to_array()
    np.testing.assert_array_equal(got, expected_table(rec))


@pytest.mark.parametrize("number", range(CI_LIST100_DEALS))
def test_list100_tables_ci_subset(list100, number):
    """DDS's own test file: the TABLE line of the first deals."""
    rec = list100[number]
    assert rec.number == number
    np.testing.assert_array_equal(dd_table(rec.deal).to_array(), rec.table)


@pytest.mark.parametrize("rec", POSITIONS, ids=[f"pos{p['id']}" for p in POSITIONS])
def test_reference_positions(rec):
    pos = load(rec)
    got = solve(pos)
    assert values(got) == rec["results"]
    assert list(values(got)) == list(rec["results"])          # legal_cards order
    assert solve_best(pos) == rec["best"]
    assert all(isinstance(v, int) for v in got.values())


def test_ci_positions_cover_every_kind():
    """The CI subset is not degenerate: every strain, every trick size, short and long."""
    assert len(CI_POSITIONS) >= 150
    assert {p["trump"] for p in CI_POSITIONS} == set(STRAINS)
    assert {len(p["current_trick"]) for p in CI_POSITIONS} == {0, 1, 2, 3}
    assert any(len(set(p["results"].values())) >= 3 for p in CI_POSITIONS)


#: list100 records whose opening leads are each played and the 51-card position solved
LEAD_RECORDS = [0, 5, 6, 23, 42]


@pytest.fixture(scope="module")
def list100():
    return read_dds_file(DATA / "list100.txt")


@pytest.mark.parametrize("number", LEAD_RECORDS)
def test_fixed_opening_lead(list100, number):
    """Play each opening lead from the full deal, then solve the 51-card position: the best
    value for the second hand's side must be 13 minus DDS's FUT score of that lead."""
    rec = list100[number]
    assert rec.number == number
    scores = rec.lead_scores()
    pos = Position(rec.deal, rec.trump, rec.leader)
    assert set(pos.legal_cards) == set(scores)
    for lead in pos.legal_cards:
        pos.play(lead)
        got = solve(pos)
        assert set(got) == set(pos.legal_cards)
        assert max(got.values()) == 13 - scores[lead], (number, str(lead), values(got))
        pos.pop()


# ---------------------------------------------------------------------------------------
# random endings against minimax
# ---------------------------------------------------------------------------------------


def test_memo_oracle_agrees_with_plain_oracle():
    """The memoised minimax of endings.py against the lead's plain oracle (small endings)."""
    rng = random.Random(20240601)
    for i in range(120):
        pos = random_ending(rng, 1 + i % 3, rng.randrange(4))
        assert memo_card_values(pos) == oracle.card_values(pos), pos
        assert memo_ns_tricks(pos) == oracle.ns_tricks(pos), pos


#: (cards per hand, endings per strain): 5 strains x 50 = 250 seeded endings (the
#: 5-card endings are few because the minimax oracle needs about a second for each)
RANDOM_PLAN = [(1, 10), (2, 15), (3, 14), (4, 10), (5, 1)]


@pytest.mark.parametrize("trump", list(Strain), ids=lambda s: s.letter)
def test_random_endings_all_strains(trump):
    rng = random.Random(1000 + int(trump))
    checked = 0
    for cards_each, count in RANDOM_PLAN:
        for _ in range(count):
            pos = random_ending(rng, cards_each, rng.randrange(4), trump=trump)
            expected = memo_card_values(pos)
            got = solve(pos)
            assert values(got) == values(expected), pos
            assert list(got) == pos.legal_cards
            assert solve_best(pos) == max(expected.values()), pos
            checked += 1
    assert checked == sum(n for _, n in RANDOM_PLAN)


@pytest.mark.parametrize("suits", [(0, 1), (2, 3), (0, 2, 3), (1, 2, 3)])
def test_dense_endings(suits):
    """Endings dealt from two or three suits: long suits, ruffs, squeezes, blocked suits."""
    rng = random.Random(77 + sum(suits))
    for i in range(30):
        trump = Strain(rng.choice(list(suits) + [4]))
        pos = random_suit_ending(rng, 2 + i % 3, rng.randrange(4), suits, trump)
        assert values(solve(pos)) == values(memo_card_values(pos)), pos


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cards_each=st.integers(1, 4),
       trick_cards=st.integers(0, 3), trump=st.sampled_from(list(Strain)))
def test_random_endings_property(seed, cards_each, trick_cards, trump):
    pos = random_ending(random.Random(seed), cards_each, trick_cards, trump=trump)
    assert values(solve(pos)) == values(memo_card_values(pos)), pos


# ---------------------------------------------------------------------------------------
# invariants
# ---------------------------------------------------------------------------------------


def _invariant_positions():
    rng = random.Random(4242)
    out = [random_ending(rng, 2 + i % 4, i % 4) for i in range(24)]
    out += [load(p) for p in CI_POSITIONS if p["tricks_left"] <= 6][:24]
    return out


INVARIANT_POSITIONS = _invariant_positions()


@pytest.mark.parametrize("pos", INVARIANT_POSITIONS, ids=lambda p: repr(p)[10:60])
def test_rotating_seats_keeps_values(pos):
    base = solve(pos)
    for k in (1, 2, 3):
        turned = rotate_seats(pos, k)
        assert turned.to_move == pos.to_move.next(k)
        assert solve(turned) == base, (k, pos)


@pytest.mark.parametrize("pos", INVARIANT_POSITIONS, ids=lambda p: repr(p)[10:60])
def test_permuting_suits_keeps_values(pos):
    base = solve(pos)
    if pos.trump == Strain.NOTRUMP:
        perms = [(3, 2, 1, 0), (1, 0, 3, 2), (2, 3, 0, 1), (1, 2, 3, 0)]
    else:
        t = int(pos.trump)
        others = [s for s in range(4) if s != t]
        perms = []
        for order in itertools.permutations(others):
            perm = [0] * 4
            perm[t] = t
            for src, dst in zip(others, order):
                perm[src] = dst
            perms.append(tuple(perm))
    for perm in perms:
        moved = permute_suits(pos, perm)
        got = solve(moved)
        assert got == {map_card(c, perm): v for c, v in base.items()}, (perm, pos)


@pytest.mark.parametrize("pos", [p for p in INVARIANT_POSITIONS if p.trump != Strain.NOTRUMP],
                         ids=lambda p: repr(p)[10:60])
def test_trump_suit_renamed_with_trump(pos):
    """Renaming the trump suit together with the trump strain keeps every value."""
    base = solve(pos)
    perm = (1, 2, 3, 0)
    moved = permute_suits(pos, perm)
    assert moved.trump == Strain(perm[int(pos.trump)])
    assert solve(moved) == {map_card(c, perm): v for c, v in base.items()}


@pytest.mark.parametrize("pos", INVARIANT_POSITIONS, ids=lambda p: repr(p)[10:60])
def test_one_card_look_ahead(pos):
    """Each card's value against independent solves of the position after it (the check the
    reference data README describes); the two sides' tricks add up to tricks_left."""
    tl = pos.tricks_left
    got = solve(pos)
    mover = pos.to_move
    solver = Solver()
    ns = solver.ns_tricks(pos)
    best = solve_best(pos)
    assert best == max(got.values())
    assert best == (ns if mover.side == Side.NS else tl - ns)
    for card, v in got.items():
        assert 0 <= v <= tl
        p = pos.copy()
        winner = p.play(card)
        if winner is None:
            assert v == tl - solve_best(p)          # the opponents move next
        else:
            g = 1 if winner.side == mover.side else 0
            if tl == 1:
                assert v == g
            elif winner.side == mover.side:
                assert v == g + solve_best(p)
            else:
                assert v == g + (tl - 1) - solve_best(p)


def test_ns_tricks_matches_solve_best():
    solver = Solver()
    for rec in CI_POSITIONS[:60]:
        pos = load(rec)
        ns = solver.ns_tricks(pos)
        if pos.to_move.side == Side.NS:
            assert ns == rec["best"]
        else:
            assert ns == rec["tricks_left"] - rec["best"]


# ---------------------------------------------------------------------------------------
# hand-built endings with known answers
# ---------------------------------------------------------------------------------------


def _check(pos: Position, expected: dict) -> None:
    got = solve(pos)
    assert values(got) == expected
    assert values(memo_card_values(pos)) == expected   # minimax agrees with the comment


def test_crossruff_counts_only_while_the_opponents_follow():
    """Crossruffs (the sure-trick count of a side in a suit contract that ruffs back and
    forth while both opponents must follow suit), spades trump, 4 tricks left::

                 N  S 32  D 54
        W  S A  H AK  D A       E  S K  H Q  D KQ
                 S  S 54  H 54

    South leads a heart for North to ruff, North a diamond for South to ruff: 2 tricks.
    The third round fails: East (one heart) and West (one diamond) then ruff over.  Trump
    leads give the same 2.  From North's lead the same.  With the opponents' trumps gone
    (and their ace and king of spades replaced by low hearts and diamonds), South's heart
    starts a crossruff of all 4 tricks; a trump lead first leaves 3."""
    deal = "N:32..54. K.Q.KQ. 54.54.. A.AK.A."
    _check(ending(deal, "S", "S"), {"S5": 2, "S4": 2, "H5": 2, "H4": 2})
    _check(ending(deal, "S", "N"), {"S3": 2, "S2": 2, "D5": 2, "D4": 2})
    _check(ending("N:32..54. .QJ.KQ. 54.54.. .AK.AJ.", "S", "S"),
           {"S5": 3, "S4": 3, "H5": 4, "H4": 4})


def test_crossruff_endings_against_minimax():
    """Endings dealt from the trump suit and one or two side suits: voids and ruffs in
    both directions, as in the crossruff count of the sure tricks."""
    rng = random.Random(2468)
    for i in range(80):
        side = rng.sample([0, 1, 2], 1 + i % 2)
        suits = [3] + side
        pos = random_suit_ending(rng, 3 + i % 2, rng.randrange(4), suits, Strain.SPADES)
        assert values(solve(pos)) == values(memo_card_values(pos)), pos


def test_quick_tricks_across_to_partner_after_discards():
    """The sure-trick count of a low lead to partner's winners after the leader's own
    (notrump), where partner must discard a winner on the leader's winners, or the leader
    keeps its winner of the crossing suit uncashed.  East to lead, 3 tricks left::

                 N  H Q94
        W  H AK6                E  H 2  D T  C 7
                 S  H J85

    DT and C7 (West discards H6, then HK), then H2 to West's ace: all 3; H2 first gives 2.
    West to lead, 4 tricks left (random deal 90 of the benchmarks, late in its play)::

                 N  H Q9  D Q7
        W  S K  H A6  C Q       E  D T8  C A7
                 S  H J8  D 3  C J

    SK and HA, then CQ to East's ace and the C7 (South's jack falls): all 4.  A move
    earlier (West holding HAK6 and CQ, East H2 DT8 CA, North HQ94 DQ, South HJ8 D3 CJ), the
    CQ squeezes North (4 tricks) while cashing a heart first gives 3."""
    _check(ending("N:.Q94.. .2.T.7 .J85.. .AK6..", "NT", "E"), {"H2": 2, "DT": 3, "C7": 3})
    _check(ending("N:.Q9.Q7. ..T8.A7 .J8.3.J K.A6..Q", "NT", "W"),
           {"SK": 4, "HA": 4, "H6": 2, "CQ": 3})
    _check(ending("N:.Q94.Q. .2.T8.A .J8.3.J .AK6..Q", "NT", "W"),
           {"HA": 3, "HK": 3, "H6": 2, "CQ": 4})


def test_simple_squeeze_positional_against_west():
    """Simple squeeze, notrump, South to lead, 3 tricks left::

                 N  S A2  H Q
        W  S KQ  H K            E  D 987
                 S  S 3  D 2  C A

    West guards both spades (KQ against the A2 menace) and hearts (K against the Q).
    South's CA squeezes West, who discards before North: North keeps whichever menace West
    gave up, so CA takes all 3 tricks.  S3 first (A wins, then North must lead into West's
    guards) gives 1; the D2 (East wins, East has only diamonds and cashes them) gives 0.
    """
    _check(ending("N:A2.Q.. ..987. 3..2.A KQ.K..", "NT", "S"), {"S3": 1, "D2": 0, "CA": 3})


def test_simple_squeeze_fails_when_guards_sit_over_the_menaces():
    """The same cards with West's and East's hands swapped: now North must discard on CA
    before East, so the squeeze does not work and CA gives only 2."""
    _check(ending("N:A2.Q.. KQ.K.. 3..2.A ..987.", "NT", "S"), {"S3": 1, "D2": 0, "CA": 2})


def test_squeeze_north_discards_what_west_gave_up():
    """Mid-trick, after South's CA: if West threw a spade (keeping HK), North must keep A2
    and throw the HQ (3 tricks); throwing S2 leaves 2, throwing SA 1.  If West threw the HK,
    North must keep the HQ and throw the S2."""
    _check(ending("N:A2.Q.. ..987. 3..2. K.K..", "NT", "S", ["CA", "SQ"]),
           {"SA": 1, "S2": 2, "HQ": 3})
    _check(ending("N:A2.Q.. ..987. 3..2. KQ...", "NT", "S", ["CA", "HK"]),
           {"SA": 1, "S2": 3, "HQ": 2})


def test_strip_and_endplay_in_spades():
    """Spades trump, South to lead, 4 tricks left::

                 N  S 32  D AQ
        W  C QJT9               E  S A  D K5  C K
                 S  S 4  D 32  C 2

    Strip and endplay: C2 (North ruffs, East's CK falls: the club exit is gone), then a
    trump to East's SA: East must lead a diamond into AQ.  N-S lose only the SA: 3 tricks.
    S4 at once (the throw-in without the strip) lets East exit with the CK, which North
    ruffs, but then North must lead diamonds from AQ: 2.  The diamond finesse loses to the
    K and East still has the SA: 2.
    """
    _check(ending("N:32..AQ. A..K5.K 4..32.2 ...QJT9", "S", "S"),
           {"S4": 2, "D3": 2, "D2": 2, "C2": 3})


def test_endplay_after_the_strip():
    """The same ending one trick later (clubs gone), North to lead: only the trump exit S3
    (East wins SA and must lead into the AQ) gives 2; DA or DQ gives 1."""
    _check(ending("N:3..AQ. A..K5. 4..32. ...QJT", "S", "N"), {"S3": 2, "DA": 1, "DQ": 1})
    # and South to lead: the S4 throw-in gives 2, the diamond finesse 1
    _check(ending("N:3..AQ. A..K5. 4..32. ...QJT", "S", "S"), {"S4": 2, "D3": 1, "D2": 1})


def test_only_the_spot_card_discard_keeps_the_value():
    """Notrump, West has led the CA; North (S975, no club) discards.  West keeps S86::

        N S975      W (after the CA) S86

    Discarding the S5 keeps S97 over West's S86 (each of West's spades is beaten by the
    next North card): 2 tricks.  Throwing the 7 or the 9 leaves a spade of West's winning
    once: 1.  So the spot cards 5..9 all matter and only the lowest discard is right."""
    _check(ending("N:975... ..432. .432.. 86...", "NT", "W", ["CA"]),
           {"S9": 1, "S7": 1, "S5": 2})


def test_spot_cards_equivalent_once_the_gap_is_partner_s():
    """With the S8 in South's hand (not West's) North's spades are all alike: 1 each."""
    _check(ending("N:975... ..432. 8.32.. 6.4..", "NT", "W", ["CA"]),
           {"S9": 1, "S7": 1, "S5": 1})


def test_spot_card_discard_two_cards():
    """North S97 against West's S8: keep the 9 (1 trick), not the 7 (0)."""
    _check(ending("N:97... ..32. .32.. 8...", "NT", "W", ["CA"]), {"S9": 0, "S7": 1})


def test_one_legal_card():
    # West led the C4; North's only club must be played
    pos = ending("N:5...2 A.A.. .2.2. ...3", "NT", "W", ["C4"])
    assert pos.legal_cards == [C("C2")]
    got = solve(pos)
    assert values(got) == values(memo_card_values(pos))
    assert list(got) == [C("C2")]


def test_all_cards_equivalent_each_listed():
    """North holds only small spades against solid suits: every card is worth the same and
    every card is listed (no group representative only, no sentinel value)."""
    for trump in ("NT", "S", "H"):
        pos = ending("N:5432... ..AKQJ. .AKQJ.. ...AKQJ", trump, "N")
        got = solve(pos)
        assert list(got) == [C("S5"), C("S4"), C("S3"), C("S2")]
        assert values(got) == values(memo_card_values(pos))
        assert len(set(got.values())) == 1


def test_reference_positions_with_all_cards_equal():
    """Reference positions where DDS reports every card equal: all listed, all exact."""
    many = [p for p in CI_POSITIONS if len(p["results"]) >= 4
            and len(set(p["results"].values())) == 1]
    assert len(many) >= 5
    for rec in many:
        assert values(solve(load(rec))) == rec["results"]


def test_last_trick():
    """One card each: East leads the SK, North's SA wins whatever the strain: 0 for E-W."""
    for trump in ("NT", "S", "C"):
        pos = ending("N:A... K... .2.. ..2.", trump, "E")
        assert values(solve(pos)) == {"SK": 0}
        assert solve_best(pos) == 0
    # mid-trick last trick: West's ruff wins for E-W in hearts, not in notrump
    assert values(solve(ending("N:... K... ...2 ..2.", "H", "N", ["SQ"]))) == {"SK": 1}
    assert values(solve(ending("N:... 2... 3... .2..", "H", "N", ["SA"]))) == {"S2": 1}
    assert values(solve(ending("N:... 2... 3... .2..", "NT", "N", ["SA"]))) == {"S2": 0}


# ---------------------------------------------------------------------------------------
# Solver objects: reuse, memory, statistics
# ---------------------------------------------------------------------------------------


def test_solver_reuse_across_positions_and_strains():
    solver = Solver()
    recs = CI_POSITIONS
    for rec in recs + recs[::-1]:            # strains interleave in file order
        pos = load(rec)
        assert values(solver.solve(pos)) == rec["results"], rec["id"]
        assert solver.solve_best(pos) == rec["best"], rec["id"]


def test_solver_reuse_same_trump_different_deals():
    """One Solver, one strain, many deals: table entries must not leak between deals."""
    for trump in ("S", "NT"):
        solver = Solver()
        same = [p for p in CI_POSITIONS if p["trump"] == trump]
        assert len(same) >= 20
        for _ in range(2):
            for rec in same:
                assert values(solver.solve(load(rec))) == rec["results"], rec["id"]
        rng = random.Random(99)
        for i in range(30):
            pos = random_ending(rng, 2 + i % 3, i % 4, trump=Strain.from_str(trump))
            assert values(solver.solve(pos)) == values(memo_card_values(pos)), pos


def test_solver_small_table_forces_resets():
    """A 1 MiB table fills up and is emptied mid-search: answers stay exact."""
    solver = Solver(memory_mb=1)
    for rec in [p for p in CI_POSITIONS if p["tricks_left"] >= 7]:
        assert values(solver.solve(load(rec))) == rec["results"], rec["id"]
    solver.clear()
    rec = CI_POSITIONS[0]
    assert values(solver.solve(load(rec))) == rec["results"]


def test_solver_dd_table_then_solve_other_strain():
    solver = Solver()
    deal = _one_suit_deal((3, 2, 1, 0))
    assert solver.dd_table(deal) == DDTable(_one_suit_expected((3, 2, 1, 0)))
    for rec in CI_POSITIONS[:40]:
        assert values(solver.solve(load(rec))) == rec["results"], rec["id"]


def test_nodes_and_last_stats():
    solver = Solver()
    assert solver.nodes == 0
    rec = next(p for p in CI_POSITIONS if p["tricks_left"] >= 7)
    solver.solve(load(rec))
    assert solver.nodes > 0
    solve(load(rec))
    stats = last_stats()
    assert isinstance(stats["nodes"], int) and stats["nodes"] > 0


# ---------------------------------------------------------------------------------------
# dd_table(s) on deals with a known table, threads
# ---------------------------------------------------------------------------------------


def _one_suit_deal(perm) -> Deal:
    """Seat i holds all 13 cards of suit perm[i]."""
    return Deal([Hand([Card(perm[i], r) for r in range(2, 15)]) for i in range(4)])


def _one_suit_expected(perm) -> np.ndarray:
    """Each seat holds one whole suit.  In notrump the opening leader runs 13 tricks in
    their suit: declarer 0.  In a suit strain the holder of all the trumps' side takes 13
    (the holder ruffs the first trick unless partner wins it, then draws and runs trumps),
    whoever declares or leads."""
    arr = np.zeros((5, 4), dtype=np.uint8)
    for seat in range(4):
        suit = perm[seat]
        for s in range(4):
            if s == suit:
                arr[s, seat] = 13
                arr[s, (seat + 2) % 4] = 13
    return arr


ONE_SUIT_PERMS = list(itertools.permutations(range(4)))[::5]


@pytest.mark.parametrize("perm", ONE_SUIT_PERMS)
def test_dd_table_one_suit_each(perm):
    table = dd_table(_one_suit_deal(perm))
    np.testing.assert_array_equal(table.to_array(), _one_suit_expected(perm))


def test_dd_tables_threads_and_executor():
    deals = [_one_suit_deal(p) for p in ONE_SUIT_PERMS]
    expected = [DDTable(_one_suit_expected(p)) for p in ONE_SUIT_PERMS]
    sequential = dd_tables(deals, threads=1)
    assert sequential == expected
    assert dd_tables(deals, threads=2) == expected
    seen = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert dd_tables(deals, executor=pool, progress=seen.append) == expected
    assert seen == expected
    assert dd_tables([]) == []
    assert dd_tables(deals[:1], threads=2) == expected[:1]


def test_ddtable_object():
    t = DDTable(_one_suit_expected((0, 1, 2, 3)))
    arr = t.to_array()
    arr[0, 0] = 5                     # a copy: the table is unchanged
    assert t[Strain.CLUBS, Seat.NORTH] == 13
    assert "NT" in str(t)
    with pytest.raises(ValueError):
        DDTable(np.zeros((4, 4)))
    with pytest.raises(ValueError):
        DDTable(np.full((5, 4), 14))


def test_ddtable_index_spellings_and_bad_keys():
    """``table[strain, declarer]`` takes enums, letters or integers; out-of-range integers
    (which numpy would wrap or refuse) are InvalidNotationErrors, other types TypeErrors."""
    from ddsolver.errors import InvalidNotationError

    t = DDTable(_one_suit_expected((0, 1, 2, 3)))
    arr = t.to_array()
    for key in ((4, 1), ("NT", "E"), (Strain.NOTRUMP, Seat.EAST), ("n", "east")):
        assert t[key] == arr[4, 1]
    for key in ((-1, 0), (5, 0), (0, 4), (0, -4), ("X", 0), (0, "Q")):
        with pytest.raises(InvalidNotationError):
            t[key]
    for key in ((0.9, 0), (0, None), (True, 0), 0, (0, 0, 0), None):
        with pytest.raises(TypeError):
            t[key]


# ---------------------------------------------------------------------------------------
# bad input through the public API
# ---------------------------------------------------------------------------------------


def _finished_position() -> Position:
    pos = ending("N:A... K... Q... J...", "NT", "N")
    for c in ("SA", "SK", "SQ", "SJ"):
        pos.play(c)
    assert pos.is_finished
    return pos


class TestBadInput:
    def test_solve_finished_position(self):
        pos = _finished_position()
        with pytest.raises(InvalidPositionError):
            solve(pos)
        with pytest.raises(InvalidPositionError):
            solve_best(pos)
        with pytest.raises(InvalidPositionError):
            Solver().solve(ending("N:... ... ... ...", "NT", "N"))

    @pytest.mark.parametrize("arg", ["N:A... K... Q... J...", None, 42, SPEC])
    def test_solve_non_position(self, arg):
        with pytest.raises(InvalidPositionError):
            solve(arg)
        with pytest.raises(InvalidPositionError):
            solve_best(arg)

    def test_dd_table_incomplete_deal(self):
        with pytest.raises(InvalidDealError):
            dd_table(Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 - - -"))
        with pytest.raises(InvalidDealError):
            dd_table(Deal.from_pbn("N:A... K... Q... J..."))

    @pytest.mark.parametrize("arg", [str(SPEC), None, 3, SPEC.masks()])
    def test_dd_table_not_a_deal(self, arg):
        with pytest.raises(InvalidDealError):
            dd_table(arg)

    def test_dd_tables_bad_member(self):
        with pytest.raises(InvalidDealError):
            dd_tables([SPEC, "N:A... K... Q... J..."])
        with pytest.raises(InvalidDealError):
            dd_tables([Deal.from_pbn("N:A... K... Q... J...")], threads=2)

    @pytest.mark.parametrize("mb", [0, -1, -1000])
    def test_solver_memory(self, mb):
        with pytest.raises(ValueError):
            Solver(memory_mb=mb)

    def test_solver_usable_after_errors(self):
        solver = Solver()
        with pytest.raises(InvalidPositionError):
            solver.solve(_finished_position())
        rec = CI_POSITIONS[3]
        assert values(solver.solve(load(rec))) == rec["results"]


# ---------------------------------------------------------------------------------------
# the compiled engine on odd input (each probe in a child process: a crash must not take
# the test run down).  What the engine does:
#   * trump/leader out of range, 4 trick cards, hand sizes that do not fit the trick, fewer
#     than 4 hands, malformed or out-of-range trick cards, a trick card also held, a card
#     to play that is not held or revokes, memory below 1 MiB: ValueError.
#   * masks: bits outside ranks 2..14 (bits 0, 1, 15 of a suit) are ignored; overlapping
#     masks (same card in two hands) are accepted and give some number in range without
#     crashing (Position rejects them first); negative or > 64-bit masks: OverflowError.
#   * Before commit a41cf0c these crashed (segfault) or wrote out of bounds: fewer than 4
#     hands, a short trick entry, oversized hands with more than 14 move groups,
#     out-of-range trick cards, ns_tricks_after with a card not held; Engine(-5) reserved
#     ~16 GiB.  _CRASHERS below keeps them covered.
# ---------------------------------------------------------------------------------------

_PRELUDE = """
from ddsolver._search import Engine
def S(suit, rank):
    return 1 << (16 * suit + rank)
e = Engine(8 * 1024 * 1024)
FOUR = [S(0, 2), S(0, 3), S(0, 4), S(0, 5)]
def expect(exc_types, fn):
    try:
        fn()
    except exc_types as exc:
        print("RAISED", type(exc).__name__)
        return
    print("NO ERROR")
"""


def _probe(body: str) -> subprocess.CompletedProcess:
    code = _PRELUDE + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                          timeout=60)


def _assert_raised(body: str, exc="ValueError") -> None:
    out = _probe(body)
    assert out.returncode == 0, f"engine crashed (return code {out.returncode}): {out.stderr}"
    assert "RAISED" in out.stdout, out.stdout + out.stderr
    assert out.stdout.split()[-1] in exc.split(","), out.stdout


ENGINE_VALUE_ERRORS = {
    "trump5": "e.set_position(FOUR, 5, 0, ())",
    "trump-1": "e.set_position(FOUR, -1, 0, ())",
    "leader4": "e.set_position(FOUR, 4, 4, ())",
    "leader-1": "e.set_position(FOUR, 4, -1, ())",
    "trick4": "e.set_position(FOUR, 4, 0, [(1, 2), (1, 3), (1, 4), (1, 5)])",
    "leader_22_cards": ("e.set_position([sum(S(s, r) for s in range(4) for r in range(2, 15) if "
                 "r < 5 or s == 0), 0, 0, 0], 4, 0, ())"),
    "empty": "e.set_position([0, 0, 0, 0], 4, 0, ())",
    "only_bad_bits": "e.set_position([1, 2, 1 << 15, 1 << 31], 4, 0, ())",
    # a card held by two seats
    "overlap": "e.set_position([S(0, 14), S(0, 14), S(0, 13), S(0, 12)], 4, 0, ())",
    # North led a club; East discarded a spade while still holding a club
    "revoke": ("e.set_position([S(3, 14), S(0, 5), S(3, 2) | S(0, 9), S(3, 3) | S(2, 9)], "
               "4, 0, [(0, 3), (3, 4)])"),
    "card_not_held": "e.set_position(FOUR, 4, 0, ()) or e.ns_tricks_after(1, 2)",
}

ENGINE_TYPE_ERRORS = {
    "float_trump": "e.set_position(FOUR, 1.5, 0, ())",
    "float_leader": "e.set_position(FOUR, 4, 0.7, ())",
    "bool_trump": "e.set_position(FOUR, True, 0, ())",
    "float_trick_rank": "e.set_position([S(0, 2), S(0, 3), S(0, 4), 0], 4, 0, [(0, 5.0)])",
    "float_guess": "e.set_position(FOUR, 4, 0, ()) or e.ns_tricks(5.9)",
    "float_card": "e.set_position(FOUR, 4, 0, ()) or e.ns_tricks_after(0.0, 2.2)",
    "bool_target": "e.set_position(FOUR, 4, 0, ()) or e.ns_reaches(True)",
    "str_guess": "e.set_position(FOUR, 4, 0, ()) or e.ns_tricks('3')",
}


@pytest.mark.parametrize("name", sorted(ENGINE_TYPE_ERRORS))
def test_engine_rejects_non_integer_arguments(name):
    _assert_raised(f"expect(TypeError, lambda: {ENGINE_TYPE_ERRORS[name]})", exc="TypeError")


@pytest.mark.parametrize("call", ["e.ns_tricks()", "e.groups()", "e.ns_reaches(1)",
                                  "e.ns_tricks_after(0, 2)"])
def test_engine_without_a_position_raises(call):
    _assert_raised(f"expect(RuntimeError, lambda: {call})", exc="RuntimeError")


def test_engine_guess_out_of_range_is_clamped():
    out = _probe("""
        e.set_position([S(0, 14) | S(1, 2), S(0, 13) | S(1, 3), S(0, 12) | S(1, 4),
                        S(0, 11) | S(1, 5)], 4, 0, ())
        print("VALUES", e.ns_tricks(-7), e.ns_tricks(99), e.ns_tricks(1 << 80))
    """)
    assert out.returncode == 0, out.stderr
    assert "VALUES 1 1 1" in out.stdout


@pytest.mark.parametrize("name", sorted(ENGINE_VALUE_ERRORS))
def test_engine_rejects_bad_position(name):
    _assert_raised(f"expect(ValueError, lambda: {ENGINE_VALUE_ERRORS[name]})")


@pytest.mark.parametrize("mask", ["-1", "1 << 70"])
def test_engine_mask_out_of_64_bits(mask):
    _assert_raised(f"expect((ValueError, OverflowError), "
                   f"lambda: e.set_position([{mask}, 0, 0, 0], 4, 0, ()))",
                   exc="ValueError,OverflowError")


def test_engine_rejects_bits_outside_ranks():
    # N: CA plus bits 0 and 1; E: CK plus bit 15: the stray bits are not cards, and the
    # engine keeps the position it had
    out = _probe("""
        e.set_position([S(0, 14), S(0, 13), S(0, 12), S(0, 11)], 4, 0, ())
        try:
            e.set_position([1 | 2 | S(0, 14), S(0, 13) | (1 << 15), S(0, 12), S(0, 11)], 4, 0, ())
        except ValueError as exc:
            print("RAISED", "outside the card ranks" in str(exc))
        print("VALUE", e.ns_tricks(), e.groups())
    """)
    assert out.returncode == 0, out.stderr
    assert "RAISED True" in out.stdout
    assert "VALUE 1 [(0, 14, 16384)]" in out.stdout


def test_engine_overlapping_masks_are_refused():
    out = _probe("""
        m = S(0, 14) | S(0, 13) | S(0, 12)
        expect(ValueError, lambda: e.set_position([m, m, m, m], 4, 0, ()))
    """)
    assert out.returncode == 0, out.stderr
    assert "RAISED ValueError" in out.stdout


def test_engine_usable_after_rejection():
    out = _probe("""
        expect(ValueError, lambda: e.set_position(FOUR, 9, 0, ()))
        e.set_position([S(3, 14), S(3, 13), S(3, 12), S(3, 11)], 4, 1, ())
        print("VALUE", e.ns_tricks())
    """)
    assert out.returncode == 0, out.stderr
    # East leads the SK, South's SQ and West's SJ follow, North's SA wins: 1 for N-S
    assert "VALUE 1" in out.stdout


# Input the engine once failed to check (crashes or garbage): each must now raise.
_CRASHERS = {
    "three_hands": "e.set_position(FOUR[:3], 4, 0, ())",
    "short_trick_entry": "e.set_position(FOUR, 4, 0, [(0,)])",
    "trick_suit_out_of_range": "e.set_position([S(0, 2), S(0, 3), S(0, 4), S(0, 5)], 4, 0, "
                               "[(9, 3)])",
    "trick_rank_out_of_range": "e.set_position([S(0, 2), S(0, 3), S(0, 4), S(0, 5)], 4, 0, "
                               "[(0, 40)])",
    "after_card_not_held": "(e.set_position(FOUR, 4, 0, ()), e.ns_tricks_after(11, 14))",
    "too_many_move_groups": (
        "(e.set_position([S(0, 14), sum(S(s, r) for s in (1, 2, 3) for r in range(2, 15) "
        "if r % 2 == 0), sum(S(s, r) for s in (1, 2, 3) for r in range(2, 15) if r % 2), "
        "S(0, 12)], 4, 0, [(0, 14)]), e.groups(), e.ns_tricks())"),
    "negative_memory": "Engine(-5)",
}


@pytest.mark.parametrize("name", sorted(_CRASHERS))
def test_engine_unvalidated_input_raises(name):
    _assert_raised(f"expect((ValueError, MemoryError), lambda: {_CRASHERS[name]})",
                   exc="ValueError")


_FUZZ = """
import random
rng = random.Random(SEED)
accepted = rejected = 0
for _ in range(COUNT):
    n = rng.randrange(1, 6)
    deck = [(s, r) for s in range(4) for r in range(2, 15)]
    rng.shuffle(deck)
    hands = [set(deck[i * n:(i + 1) * n]) for i in range(4)]
    leader = rng.randrange(4)
    trick = []
    for i in range(rng.randrange(4)):
        seat = (leader + i) % 4
        c = rng.choice(sorted(hands[seat]))
        hands[seat].discard(c)
        trick.append(c)
    kind = rng.randrange(6)
    if kind == 1:                       # a card of one hand copied into another
        a, b = rng.sample(range(4), 2)
        if hands[a] and hands[b]:
            hands[a].discard(rng.choice(sorted(hands[a])))
            hands[a].add(rng.choice(sorted(hands[b])))
    elif kind == 2 and trick:           # a trick card also held
        h = rng.randrange(4)
        if hands[h]:
            hands[h].discard(rng.choice(sorted(hands[h])))
            hands[h].add(rng.choice(trick))
    elif kind == 3 and len(trick) > 1:  # a revoke inside the trick
        trick[1] = (rng.randrange(4), trick[1][1])
    masks = [sum(1 << (16 * s + r) for s, r in h) for h in hands]
    if kind == 4:                       # stray bits
        masks = [m | rng.choice([1, 2, 1 << 15, 1 << 31, 1 << 63]) for m in masks]
    if kind == 5:                       # junk arguments
        trick = trick + [(rng.randrange(-2, 9), rng.randrange(-2, 40))]
    try:
        e.set_position(masks, rng.randrange(5), leader, trick)
    except (ValueError, OverflowError):
        rejected += 1
        continue
    tl = max(bin(m & 0x7FFC7FFC7FFC7FFC).count("1") for m in masks) + (1 if trick else 0)
    assert 0 <= e.ns_tricks(rng.randrange(-3, 15)) <= tl
    for s, r, g in e.groups():
        assert 0 <= e.ns_tricks_after(s, r, rng.randrange(-2, 14)) <= tl
    try:
        e.ns_tricks_after(rng.randrange(-2, 6), rng.randrange(-2, 20))
    except ValueError:
        pass
    accepted += 1
print("FUZZ", accepted, rejected)
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_engine_fuzz_does_not_crash(seed):
    """Random small positions, some made inconsistent on purpose: the engine either raises
    ValueError/OverflowError or answers within range; it never crashes."""
    out = _probe(_FUZZ.replace("SEED", str(seed)).replace("COUNT", "400"))
    assert out.returncode == 0, f"engine crashed (return code {out.returncode}): {out.stderr}"
    accepted, rejected = (int(x) for x in out.stdout.split()[-2:])
    assert accepted > 100 and rejected > 20


def test_engine_counts_trick_nodes():
    """``trick_nodes`` counts the trick starts reached by a card (DDS's ``nodes``).  The
    table is probed only at trick starts: at those, and at the root once per search of the
    driver (at most 14 searches)."""
    from ddsolver._search import Engine

    rec = read_dds_file(DATA / "list100.txt")[0]
    eng = Engine()
    eng.set_position(rec.deal.masks(), 4, 1, ())
    ns = eng.ns_tricks()
    assert ns == rec.table[4][0]   # declarer North in notrump (East leads): N-S tricks
    st = eng.stats
    assert 0 < st["trick_nodes"] < st["nodes"]
    if "probes" in st:      # a build with the detailed counters (DDSOLVER_STATS=1)
        assert 0 < st["probes"] <= st["trick_nodes"] + 14


def test_engine_stats_has_the_detailed_counters_only_in_a_stats_build():
    """``Engine.stats`` always has the cheap counters; the detailed ones (compiled in with
    ``DDSOLVER_STATS=1`` or ``DDSOLVER_DEBUG=1``) exactly when ``BUILD_INFO`` says so."""
    from ddsolver._search import BUILD_INFO, Engine

    st = Engine(1 << 20).stats
    assert {"nodes", "trick_nodes", "entries", "keys", "blocks", "resets"} <= set(st)
    detailed = {"probes", "hits", "qtcuts", "cut_at", "fails", "cut_tries", "cut_hits",
                "lead_probes"}
    assert (detailed & set(st)) == (detailed if BUILD_INFO["stats"] else set())


def test_engine_cut_off_cache_counters_and_clear():
    """The cut-off cache's card is tried first at most nodes and usually cuts off, and leads
    at the first tricks are probed to the next trick start with its cards; counters
    survive the searches (they used to be reset by the position restore); ``clear()``
    empties the cache as well as the table, so a search repeated after it visits exactly
    the same nodes, while one repeated without it (cache and table kept) visits fewer."""
    from ddsolver._search import BUILD_INFO, Engine

    detailed = BUILD_INFO["stats"]      # the detailed counters are compiled in
    keys = ("nodes", "trick_nodes")
    if detailed:
        keys += ("cut_tries", "cut_hits", "probes", "qtcuts", "lead_probes")
    rec = read_dds_file(DATA / "list100.txt")[1]
    eng = Engine()
    counts = []
    for _ in range(2):
        eng.clear()
        assert eng.cut_cache_used == 0
        before = eng.stats
        eng.set_position(rec.deal.masks(), 3, 1, ())
        assert eng.ns_tricks() == rec.table[3][0]   # declarer North in spades: N-S tricks
        assert eng.cut_cache_used > 100
        after = eng.stats
        counts.append({k: after[k] - before[k] for k in keys})
        if detailed:
            assert sum(map(sum, after["cut_at"])) > sum(map(sum, before["cut_at"]))
    assert counts[0] == counts[1]
    c = counts[0]
    assert 0 < c["trick_nodes"] < c["nodes"]
    if detailed:
        assert 0 < c["cut_hits"] <= c["cut_tries"] < c["nodes"]
        assert 0 < c["lead_probes"] < c["nodes"]    # leads probed past the trick (10+ left)
    eng.set_position(rec.deal.masks(), 3, 1, ())
    start = eng.nodes
    assert eng.ns_tricks() == rec.table[3][0]
    assert eng.nodes - start < c["nodes"]


def test_engine_set_position_checks_everything_before_loading():
    """A bad mask (too large, negative, a float) or trick card raises before anything is
    loaded: the engine keeps its position and answers as before."""
    from ddsolver._search import Engine

    rec = read_dds_file(DATA / "list100.txt")[0]
    masks = rec.deal.masks()
    eng = Engine(1 << 20)
    eng.set_position(masks, 4, 1, ())
    ns = eng.ns_tricks()
    assert ns == rec.table[4][0]
    low = [1 << 2, 1 << 3, 1 << 4, 1 << 5]   # a valid one-card ending
    for bad, err in (([low[0], low[1], low[2], low[3] + 2 ** 64], ValueError),
                     ([low[0], low[1], low[2], -1], ValueError),
                     ([float(low[0]), low[1], low[2], low[3]], TypeError)):
        with pytest.raises(err):
            eng.set_position(bad, 4, 0, ())
    with pytest.raises(TypeError):
        eng.set_position(masks, 4, 1, [(0.0, 14.0)])
    # no card at all (0 tricks left), and bits outside the ranks 2..14 of a suit
    with pytest.raises(ValueError, match="1..13 tricks"):
        eng.set_position([0, 0, 0, 0], 4, 1, ())
    with pytest.raises(ValueError, match="outside the card ranks"):
        eng.set_position([1 << 14 | 1 << 15 | 3, 1 << 13, 1 << 12, 1 << 11], 4, 0, ())
    assert eng.ns_tricks() == ns
    assert len(eng.groups()) > 1


@pytest.mark.parametrize("memory, err", [(1.5e6, TypeError), ("8", TypeError),
                                         (100, ValueError), (2 ** 63, MemoryError)])
def test_engine_memory_argument(memory, err):
    from ddsolver._search import Engine

    with pytest.raises(err):
        Engine(memory)


def test_engine_empties_the_cut_off_cache_for_another_deal():
    """Loading a position of another deal (same strain) empties the cut-off cache, as
    ``clear_cut_cache()`` does; when more than half the cards changed hands (an unrelated
    deal) the table is emptied too, as ``clear()`` does, and when fewer did (a Monte Carlo
    redeal of two hands) it is kept.  A later position of the same deal (a card played)
    keeps both."""
    from ddsolver._search import Engine

    recs = read_dds_file(DATA / "list100.txt")[2:4]
    first = recs[0].deal.masks()

    def run(masks, prepare):
        eng = Engine()
        eng.set_position(first, 4, 1, ())
        eng.ns_tricks()
        prepare(eng)
        start = eng.nodes
        eng.set_position(masks, 4, 1, ())
        kept = eng.stats["entries"]
        cached = eng.cut_cache_used
        value = eng.ns_tricks()
        return eng.nodes - start, kept, value, cached

    # an unrelated deal: table and cut-off cache emptied
    automatic = run(recs[1].deal.masks(), lambda eng: None)
    assert automatic[1] == 0 and automatic[3] == 0
    assert automatic[2] == recs[1].table[4][0]
    assert automatic == run(recs[1].deal.masks(), lambda eng: eng.clear())

    # East and West exchange a card (two cards moved): the table stays, the cache goes
    east, west = first[1], first[3]
    e_card = east & -east
    w_card = west & -west
    redeal = [first[0], east ^ e_card ^ w_card, first[2], west ^ w_card ^ e_card]
    swapped = run(redeal, lambda eng: None)
    assert swapped[1] > 0 and swapped[3] == 0
    assert swapped == run(redeal, lambda eng: eng.clear_cut_cache())
    fresh = Engine()
    fresh.set_position(redeal, 4, 1, ())
    assert swapped[2] == fresh.ns_tricks()

    # same deal, East has led: the cache is kept
    def after_lead(clear_first):
        eng = Engine()
        eng.set_position(recs[0].deal.masks(), 4, 1, ())
        eng.ns_tricks()
        suit, rank, _ = eng.groups()[0]
        masks = list(recs[0].deal.masks())
        masks[1] &= ~(1 << (16 * suit + rank))
        if clear_first:
            eng.clear_cut_cache()
        start = eng.stats.get("cut_tries", 0)
        eng.set_position(masks, 4, 1, [(suit, rank)])
        cached = eng.cut_cache_used
        eng.ns_tricks()
        return cached, eng.stats.get("cut_tries", 0) - start

    kept, cleared = after_lead(False), after_lead(True)
    assert kept[0] > 100 and cleared[0] == 0
    if "cut_tries" in Engine(1 << 20).stats:
        # the second hand's remembered card is tried only when the cache was kept
        assert kept[1] > cleared[1]


def test_engine_ns_reaches_matches_the_exact_value():
    """``Engine.ns_reaches(t)`` (one zero-window search) is True exactly for t <= the N-S
    tricks of the reference table, from a trick start and mid-trick, and leaves the loaded
    position as it was."""
    from ddsolver._search import Engine

    for rec in read_dds_file(DATA / "list100.txt")[:6]:
        for strain in (4, 3):
            ns = rec.table[strain][0]   # declarer North, East leads: N-S tricks
            eng = Engine()
            eng.set_position(rec.deal.masks(), strain, 1, ())
            assert eng.ns_reaches(0) and not eng.ns_reaches(14)
            assert eng.ns_reaches(-2 ** 40) and not eng.ns_reaches(2 ** 70)
            for bad in (6.5, "6", None):
                with pytest.raises(TypeError):
                    eng.ns_reaches(bad)
            assert eng.ns_reaches(ns)
            fresh = Engine()
            fresh.set_position(rec.deal.masks(), strain, 1, ())
            assert not fresh.ns_reaches(ns + 1)
            assert eng.ns_tricks() == ns
            # mid-trick: East has led its first equivalence group's card
            suit, rank, _ = eng.groups()[0]
            after = eng.ns_tricks_after(suit, rank)
            mid = Engine()
            masks = list(rec.deal.masks())
            masks[1] &= ~(1 << (16 * suit + rank))
            mid.set_position(masks, strain, 1, [(suit, rank)])
            assert mid.ns_reaches(after) and not mid.ns_reaches(after + 1)


def test_solver_shared_between_threads_is_serialized():
    """One Solver used by several threads at once: the calls take turns (a lock) and every
    table is right (before: a segfault)."""
    recs = read_dds_file(DATA / "list100.txt")[:4]
    solver = Solver(memory_mb=16)
    with ThreadPoolExecutor(max_workers=4) as pool:
        tables = list(pool.map(lambda r: solver.dd_table(r.deal).to_array(), recs))
    for rec, got in zip(recs, tables):
        assert np.array_equal(got, rec.table)


def test_engine_refuses_calls_while_searching():
    """A second thread calling a searching Engine gets RuntimeError, not a corrupted search."""
    import threading
    import time

    from ddsolver._search import Engine

    rec = read_dds_file(DATA / "list100.txt")[30]
    eng = Engine()
    eng.set_position(rec.deal.masks(), 4, 0, ())
    result = []
    worker = threading.Thread(target=lambda: result.append(eng.ns_tricks()))
    worker.start()
    deadline = time.monotonic() + 5
    while not eng.searching and worker.is_alive() and time.monotonic() < deadline:
        time.sleep(0.0005)
    assert eng.searching, "the search ended before it could be observed"
    with pytest.raises(RuntimeError, match="another thread"):
        eng.ns_tricks()
    with pytest.raises(RuntimeError, match="another thread"):
        eng.set_position(rec.deal.masks(), 4, 1, ())
    for target in (13, 14, 0):   # decided without a search, still refused mid-search
        with pytest.raises(RuntimeError, match="another thread"):
            eng.ns_reaches(target)
    worker.join()
    assert result == [13 - rec.table[4][3]]   # North leads: declarer West; N-S tricks
    assert not eng.searching


@pytest.mark.parametrize("bad", ["10", True, 2.5, None])
def test_solver_memory_must_be_an_integer(bad):
    with pytest.raises(TypeError, match="memory_mb"):
        Solver(memory_mb=bad)


@pytest.mark.parametrize("bad", [-1, 14, 2 ** 40, 1.5, True])
def test_solver_guess_out_of_range(bad):
    rec = read_dds_file(DATA / "list100.txt")[0]
    with pytest.raises(ValueError, match="guess"):
        Solver().solve_best(Position(rec.deal, Strain.NOTRUMP, Seat.EAST), guess=bad)


def test_dd_table_wrong_shape_is_invalid_table_error():
    from ddsolver.errors import InvalidTableError
    from ddsolver.solver import DDTable

    with pytest.raises(InvalidTableError, match="shape"):
        DDTable([[1, 2], [3, 4]])
    with pytest.raises(InvalidTableError, match="0..13"):
        DDTable([[14] * 4] * 5)
    with pytest.raises(InvalidTableError, match="fractional"):
        DDTable([[1.7] * 4] * 5)
    for bad in ([[2 ** 70] * 4] * 5, [[float("nan")] * 4] * 5, [["7"] * 4] * 5,
                [[True] * 4] * 5, [[1e300] * 4] * 5, [[1, 2, 3], [4]]):
        with pytest.raises(InvalidTableError):
            DDTable(bad)
    assert DDTable([[7.0] * 4] * 5)[Strain.NOTRUMP, Seat.SOUTH] == 7


@pytest.mark.parametrize("kwargs", [{"deals": None}, {"deals": 42}, {"executor": 3}])
def test_dd_tables_bad_arguments_are_type_errors(kwargs):
    rec = read_dds_file(DATA / "list100.txt")[0]
    args = {"deals": [rec.deal, rec.deal]} | kwargs
    with pytest.raises(TypeError, match="dd_tables|executor"):
        dd_tables(**args)


def test_dd_tables_rejects_a_single_deal():
    rec = read_dds_file(DATA / "list100.txt")[0]
    with pytest.raises(TypeError, match="dd_table"):
        dd_tables(rec.deal)


@pytest.fixture
def ctrl_c_raises():
    """Python's own SIGINT handler for the test: a process started in the background by a
    non-interactive shell inherits SIGINT as ignored, and Python then installs no handler,
    so a Ctrl-C would never reach the search."""
    import signal
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("method", ["solve_best", "solve"])
def test_ctrl_c_interrupts_a_long_search(method, ctrl_c_raises):
    """SIGINT during a search (thomas1 notrump takes many seconds) raises KeyboardInterrupt
    within a fraction of a second; the solver keeps an exact table and goes on working."""
    import os
    import signal
    import threading
    import time

    freak = read_dds_file(DATA / "thomas1.txt")[0]
    solver = Solver()
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            getattr(solver, method)(Position(freak.deal, Strain.NOTRUMP, Seat.NORTH))
    finally:
        timer.cancel()
    assert time.monotonic() - start < 3.0
    for rec in read_dds_file(DATA / "list100.txt")[:2]:
        assert np.array_equal(solver.dd_table(rec.deal).to_array(), rec.table)
    rec = read_dds_file(DATA / "list100.txt")[5]
    pos = Position(rec.deal, Strain.NOTRUMP, Seat.EAST)
    assert solver.solve(pos) == Solver().solve(pos)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_threaded_dd_tables(ctrl_c_raises):
    """SIGINT during dd_tables on two threads (the freak deal's tables take many seconds
    each) stops both workers' searches: KeyboardInterrupt within a fraction of a second,
    not after the running tables end; the module's solvers then work and are exact."""
    import os
    import signal
    import threading
    import time

    freak = read_dds_file(DATA / "thomas1.txt")[0].deal
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            dd_tables([freak] * 4, threads=2)
    finally:
        timer.cancel()
    assert time.monotonic() - start < 3.0
    recs = read_dds_file(DATA / "list100.txt")[:4]
    tables = dd_tables([r.deal for r in recs], threads=2)
    assert all(np.array_equal(t.to_array(), r.table) for t, r in zip(tables, recs))


def test_engine_cancel_stops_a_search_in_another_thread():
    """Engine.cancel from another thread: the search raises KeyboardInterrupt at its next
    check, later searches too until clear_cancel; then exact again."""
    import threading
    import time

    freak = read_dds_file(DATA / "thomas1.txt")[0].deal
    solver = Solver()
    caught = []

    def work():
        try:
            solver.solve_best(Position(freak, Strain.NOTRUMP, Seat.NORTH))
        except KeyboardInterrupt:
            caught.append(time.monotonic())

    thread = threading.Thread(target=work)
    thread.start()
    time.sleep(0.3)
    asked = time.monotonic()
    solver._engine.cancel()
    thread.join(5.0)
    assert caught and caught[0] - asked < 1.0
    rec = read_dds_file(DATA / "list100.txt")[3]
    with pytest.raises(KeyboardInterrupt):
        solver.dd_table(rec.deal)
    solver._engine.clear_cancel()
    assert np.array_equal(solver.dd_table(rec.deal).to_array(), rec.table)


def test_dd_tables_rejects_pbn_text_and_takes_numpy_threads():
    rec = read_dds_file(DATA / "list100.txt")[0]
    with pytest.raises(TypeError, match="from_pbn"):
        dd_tables(rec.deal.to_pbn())
    tables = dd_tables([rec.deal, rec.deal], threads=np.int64(2))
    assert all(np.array_equal(t.to_array(), rec.table) for t in tables)


@pytest.mark.parametrize("bad", [1.5, 2.0, "2", True])
def test_dd_tables_threads_of_the_wrong_type_is_type_error(bad):
    # as Solver(memory_mb=...): a count of the wrong type is a TypeError naming it
    deals = [read_dds_file(DATA / "list100.txt")[0].deal]
    with pytest.raises(TypeError, match="threads"):
        dd_tables(deals, threads=bad)


@pytest.mark.parametrize("bad", [0, -1, np.int64(0)])
def test_dd_tables_threads_below_one_is_value_error(bad):
    deals = [read_dds_file(DATA / "list100.txt")[0].deal]
    with pytest.raises(ValueError, match="threads"):
        dd_tables(deals, threads=bad)


def test_solver_absurd_memory_is_memory_error():
    with pytest.raises(MemoryError, match="memory_mb"):
        Solver(memory_mb=2 ** 70)


def test_a_cancel_group_cancels_its_solvers_and_refuses_new_ones():
    from ddsolver.solver import CancelGroup

    deal = Deal.from_pbn("N:AQ4.KJ5.Q963.KJ2 653.T742.T42.A73 JT97.A86.A87.T96 K82.Q93.KJ5.Q854")
    group, solver, late = CancelGroup(), Solver(), Solver()
    group.enter(solver)
    group.check()                        # not stopped: nothing raised
    group.stop()
    with pytest.raises(KeyboardInterrupt):
        solver.dd_table(deal)            # cancelled: the search does not start
    with pytest.raises(KeyboardInterrupt):
        group.check()
    with pytest.raises(KeyboardInterrupt):
        group.enter(late)                # no solver enters a stopped group
    group.leave(solver)                  # leaving clears the cancel: the solver works again
    assert solver.dd_table(deal)[Strain.NOTRUMP, Seat.NORTH] == 10


def test_solver_memory_is_capped_at_max_memory_mb():
    """Above MAX_MEMORY_MB a table cannot be addressed on any machine: a MemoryError that
    names the cap (2**70 was 'cannot be allocated'; 10**5000 a ValueError of Python's
    'Exceeds the limit (4300 digits) for integer string conversion')."""
    from ddsolver.solver import MAX_MEMORY_MB

    assert MAX_MEMORY_MB == 262_144
    for too_much in (MAX_MEMORY_MB + 1, 2 ** 70, 10 ** 5000, np.int64(10 ** 9)):
        with pytest.raises(MemoryError, match=r"memory_mb=.* MiB is more than a table can "
                                              r"hold \(at most 262,144 MiB, MAX_MEMORY_MB\)"):
            Solver(memory_mb=too_much)
