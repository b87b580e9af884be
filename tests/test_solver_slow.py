"""Full reference sweeps of the solver (``pytest -m slow tests/test_solver_slow.py``).

Every answer here comes from DDS 2.9.0 (see tests/data/ and the reference README):

* dd_tables.jsonl: 500 random deals (seed 1), full 20-entry tables;
* solve_positions.jsonl: 300 positions partway through the play, every card's value;
* list100.txt (DDS's own test file): TABLE lines, FUT (every opening lead's value at trick 1)
  and TRACE (declarer's double-dummy total after each of the first 48 cards played);
* sol10.txt (GIB format): 10 more tables.

Each deal or position is its own test case, so a mismatch names the deal and a run can be
cut short (``-x``, ``-k deal17``) while the search is slow.  The CI subsets of these sweeps
are in test_solver.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ddsolver.cards import Strain
from ddsolver.ddsfiles import read_dds_file, read_gib_tables
from ddsolver.deal import Deal
from ddsolver.play import Position
from ddsolver.solver import Solver, dd_table, dd_tables, solve, solve_best
from ddsolver.table import Seat, Side

pytestmark = pytest.mark.slow

DATA = Path(__file__).parent / "data"
POSITIONS = [json.loads(line) for line in (DATA / "solve_positions.jsonl").open()]
DD_TABLES = [json.loads(line) for line in (DATA / "dd_tables.jsonl").open()]
LIST100 = read_dds_file(DATA / "list100.txt")
GIB = read_gib_tables(DATA / "sol10.txt")
STRAINS = ["C", "D", "H", "S", "NT"]


def expected_table(rec: dict) -> np.ndarray:
    """(5, 4) rows C,D,H,S,NT; columns N,E,S,W, from a dd_tables.jsonl record."""
    return np.array([[rec["dd"][seat][strain] for seat in "NESW"] for strain in STRAINS],
                    dtype=np.uint8)


def _mismatch(got: np.ndarray, want: np.ndarray) -> list:
    return [(STRAINS[s], "NESW"[d], int(want[s, d]), int(got[s, d]))
            for s in range(5) for d in range(4) if got[s, d] != want[s, d]]


@pytest.mark.parametrize("rec", DD_TABLES, ids=[f"deal{r['id']}" for r in DD_TABLES])
def test_reference_table(rec):
    got = dd_table(Deal.from_pbn(rec["pbn"])).to_array()
    want = expected_table(rec)
    assert not _mismatch(got, want), f"deal {rec['id']} (strain, declarer, DDS, ours): " \
        f"{_mismatch(got, want)}"


@pytest.mark.parametrize("rec", POSITIONS, ids=[f"pos{p['id']}" for p in POSITIONS])
def test_reference_position(rec):
    pos = Position.from_remaining(rec["remaining_pbn"], Strain.from_str(rec["trump"]),
                                  Seat.from_str(rec["leader"]), rec["current_trick"])
    got = {str(c): v for c, v in solve(pos).items()}
    assert got == rec["results"]
    assert list(got) == list(rec["results"])
    assert solve_best(pos) == rec["best"]


@pytest.mark.parametrize("rec", LIST100, ids=[f"list100_{r.number}" for r in LIST100])
def test_list100_table(rec):
    got = dd_table(rec.deal).to_array()
    assert not _mismatch(got, rec.table), _mismatch(got, rec.table)


@pytest.mark.parametrize("rec", LIST100, ids=[f"list100_{r.number}" for r in LIST100])
def test_list100_opening_leads(rec):
    """FUT: every card of the opening leader at trick 1, tricks out of 13 for its side."""
    got = solve(Position(rec.deal, rec.trump, rec.leader))
    assert got == rec.lead_scores()


@pytest.mark.parametrize("rec", LIST100, ids=[f"list100_{r.number}" for r in LIST100])
def test_list100_trace(rec):
    """TRACE: declarer's double-dummy total (tricks won so far plus the best for the rest)
    before any card and after each of the first len(trace) - 1 cards of the play."""
    solver = Solver()
    declarer = rec.leader.rho
    pos = Position(rec.deal, rec.trump, rec.leader)
    got = []
    for i, want in enumerate(rec.trace):
        if i > 0:
            pos.play(rec.play[i - 1])
        ns = solver.ns_tricks(pos)
        rest = ns if declarer.side == Side.NS else pos.tricks_left - ns
        got.append(pos.tricks_won[declarer.side] + rest)
    assert got == list(rec.trace)


@pytest.mark.parametrize("i", range(len(GIB)), ids=[f"sol10_{i}" for i in range(len(GIB))])
def test_gib_table(i):
    deal, table = GIB[i]
    got = dd_table(deal).to_array()
    assert not _mismatch(got, table), _mismatch(got, table)


def test_threads_on_reference_deals():
    recs = DD_TABLES[:4]
    got = dd_tables([Deal.from_pbn(r["pbn"]) for r in recs], threads=2)
    for rec, table in zip(recs, got):
        np.testing.assert_array_equal(table.to_array(), expected_table(rec))


def test_reference_positions_one_solver_in_file_order():
    """All 300 positions through one reused Solver (strains interleaved)."""
    solver = Solver()
    for rec in POSITIONS:
        pos = Position.from_remaining(rec["remaining_pbn"], Strain.from_str(rec["trump"]),
                                      Seat.from_str(rec["leader"]), rec["current_trick"])
        got = {str(c): v for c, v in solver.solve(pos).items()}
        assert got == rec["results"], rec["id"]



def test_freak_deal_thomas1_table():
    """DDS's hands/thomas1.txt: every hand void in one suit, huge notrump trees (DDS 2.9
    needs about 4 minutes of CPU for the table).  The table must equal the file's TABLE,
    inside the default table cap."""
    rec = read_dds_file(DATA / "thomas1.txt")[0]
    solver = Solver()
    assert np.array_equal(solver.dd_table(rec.deal).to_array(), rec.table)
